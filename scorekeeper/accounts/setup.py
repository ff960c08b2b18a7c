"""First run: the setup code that keeps a stranger from claiming a new server.

While no account exists, the server makes a code, keeps it in ``instance/setup_code`` (mode
0600, made exclusively so several workers share one) and prints it in its console; ``/setup``
asks for it unless the visitor is on the machine itself. The code is removed once setup is done.
"""

from __future__ import annotations

import hmac
import os
import secrets
import sys
from pathlib import Path

from flask import Flask, current_app

SETUP_CODE_FILE = "setup_code"


def _path(app: Flask) -> Path:
    return Path(app.instance_path) / SETUP_CODE_FILE


def ensure_code(app: Flask) -> str:
    """The setup code, made (and printed) where there is none yet."""
    path = _path(app)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        code = path.read_text().strip()
        if code:
            # Printed again at every start until setup is done: a container made anew on the
            # same volume (a setting changed in compose.yaml) has a new log.
            _announce(app, code, path)
            return code
        path.unlink(missing_ok=True)
        return ensure_code(app)
    code = "-".join(secrets.token_hex(3).upper() for _ in range(3))
    with os.fdopen(fd, "w") as handle:
        handle.write(code + "\n")
    _announce(app, code, path)
    return code


def _announce(app: Flask, code: str, path: Path) -> None:
    if not app.testing:
        print(
            f"\n  Scorekeeper has no account yet. Open /setup and use this setup code:\n\n"
            f"      {code}\n\n  (it is kept in {path} too)\n",
            file=sys.stderr,
            flush=True,
        )


def code_matches(typed: str) -> bool:
    # Flask types current_app as the app, not the proxy it is.
    path = _path(current_app._get_current_object())  # type: ignore[attr-defined]
    try:
        code = path.read_text().strip()
    except OSError:
        return False
    tidy = typed.strip().upper().replace(" ", "")
    return bool(code) and hmac.compare_digest(tidy.encode(), code.encode())


def forget_code() -> None:
    # As above: current_app's type is the app's.
    _path(current_app._get_current_object()).unlink(missing_ok=True)  # type: ignore[attr-defined]
