"""The yardstick: a bare Flask endpoint, served by gunicorn exactly like the app.

The web benchmark reports the app's pages as a ratio to this, so that the figures mean the
same on a fast laptop and a slow home server.
"""

from __future__ import annotations

from flask import Flask


def create_app() -> Flask:
    app = Flask(__name__)

    @app.get("/")
    def bare() -> str:
        return "ok"

    return app
