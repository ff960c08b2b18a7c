"""``/healthz``: what a monitor, a load balancer or the image's HEALTHCHECK asks. It answers
``ok`` only when the database does: a check that passes with the database gone is no check."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.extensions import db


def test_ok_from_the_database(client: FlaskClient) -> None:
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json == {"status": "ok"}


def test_ok_before_setup_without_a_redirect(client: FlaskClient) -> None:
    """No account yet: every page leads to setup, but the health check answers."""
    answer = client.get("/healthz")
    assert answer.status_code == 200


def _app(uri: str, **settings: object) -> Flask:
    return create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri, "DAILY_BACKUPS": False, **settings}
    )


@pytest.mark.parametrize("empty_file_after", [False, True], ids=["deleted", "empty-file-after"])
def test_unavailable_once_the_sqlite_file_is_deleted(
    tmp_path: Path, instance_path: Path, empty_file_after: bool
) -> None:
    """The file deleted under the server: the pooled connection would still read it. And once
    something (a worker of the app, a careless restore) has opened the path again, an empty
    file stands where the family's data was, which the pooled connection does not see."""
    path = tmp_path / "health.db"
    app = _app(f"sqlite:///{path}")
    client = app.test_client()
    assert client.get("/healthz").status_code == 200
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    if empty_file_after:
        sqlite3.connect(path).close()
        assert path.is_file()
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.json == {"status": "unavailable"}
    with app.app_context():
        db.engine.dispose()


def test_unavailable_on_a_database_never_migrated(tmp_path: Path, instance_path: Path) -> None:
    app = _app(f"sqlite:///{tmp_path / 'empty.db'}", AUTO_MIGRATE=False)
    answer = app.test_client().get("/healthz")
    assert answer.status_code == 503
    with app.app_context():
        db.engine.dispose()


@pytest.mark.postgres
def test_unavailable_when_postgresql_is_not_answering(instance_path: Path) -> None:
    """A PostgreSQL address where no server listens (port 9 of loopback): 503, not a 500."""
    app = _app(
        "postgresql+psycopg://scorekeeper@127.0.0.1:9/scorekeeper",
        AUTO_MIGRATE=False,
        SQLALCHEMY_ENGINE_OPTIONS={"connect_args": {"connect_timeout": 2}},
    )
    answer = app.test_client().get("/healthz")
    assert answer.status_code == 503
    assert answer.json == {"status": "unavailable"}
