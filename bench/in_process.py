"""The app in this process, for the benchmarks that time its own work through Flask's test
client (no server): a fresh SQLite database with a household and its owner, signed in."""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

NAMES = ("Annabelle", "Bartholomew", "Cyrus", "Dolores", "Evangeline", "Fitzgerald")
PASSWORD = "bench password"


def signed_in_owner(folder: Path) -> tuple[Flask, FlaskClient]:
    """The app on ``folder/bench.db`` (its instance in ``folder/instance``), and a client
    signed in as the household's owner. CSRF, the daily backups and the ratings' worker off,
    passwords hashed cheaply: what is timed is the pages' work, not these."""
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = str(folder / "instance")
    from scorekeeper import create_app
    from scorekeeper.accounts import services as accounts
    from scorekeeper.extensions import db

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.db'}",
            "SECRET_KEY": "bench",
            "WTF_CSRF_ENABLED": False,
            "DAILY_BACKUPS": False,
            "RATINGS_IN_BACKGROUND": False,
            "PASSWORD_TIME_COST": 1,
            "PASSWORD_MEMORY_KIB": 8,
        }
    )
    with app.app_context():
        home = accounts.add_household("Family")
        accounts.add_user("owner", PASSWORD, home, "owner")
        db.session.remove()
    client = app.test_client()
    signed = client.post("/login", data={"username": "owner", "password": PASSWORD})
    assert signed.status_code == 303, signed.status_code
    return app, client
