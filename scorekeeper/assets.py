"""Static files under versioned URLs, so that browsers may keep them for a year.

``url_for('static', filename=...)`` adds ``?v=`` with a hash of the file's contents; a request
that carries it is answered with a long, immutable cache lifetime. A changed file gets a new
URL, so nobody is ever served a stale stylesheet.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from flask import Flask, request

HTMX_FILE = "vendor/htmx-2.0.11.min.js"
YEAR = 365 * 24 * 3600


def init_app(app: Flask) -> None:
    static = Path(app.static_folder or "static")
    versions: dict[str, str] = {}

    def version_of(filename: str) -> str | None:
        if filename not in versions:
            path = static / filename
            if not path.is_file():
                return None
            versions[filename] = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        return versions[filename]

    @app.url_defaults
    def add_static_version(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "v" not in values:
            version = version_of(values.get("filename", ""))
            if version:
                values["v"] = version

    default_max_age = app.get_send_file_max_age

    def send_file_max_age(filename: str | None) -> int | None:
        if request.args.get("v"):
            return YEAR
        return default_max_age(filename)

    # Flask's hook is the method itself; mypy forbids assigning to a method.
    app.get_send_file_max_age = send_file_max_age  # type: ignore[method-assign]

    @app.after_request
    def immutable_static(response: Any) -> Any:
        if request.endpoint == "static" and request.args.get("v") and response.status_code == 200:
            response.cache_control.immutable = True
            response.cache_control.public = True
        return response

    app.jinja_env.globals["HTMX_FILE"] = HTMX_FILE
