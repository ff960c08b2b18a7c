"""Fixtures: an app with a fresh database per test, on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import create_engine, text

from scorekeeper import create_app
from scorekeeper.extensions import db

from .postgres import running_server

IN_CI = os.environ.get("CI") == "true"
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@pytest.fixture(scope="session")
def postgres_uri() -> Iterator[str]:
    """A migrated PostgreSQL database for the session (tests empty it after themselves)."""
    with running_server() as uri:
        if uri is None:
            message = "no PostgreSQL server: apt-get install postgresql (CI installs it)"
            if IN_CI:
                pytest.fail(message)
            pytest.skip(message)
        yield uri


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with every migration applied, copied for each test (quicker than migrating)."""
    folder = tmp_path_factory.mktemp("template")
    path = folder / "template.db"
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "SECRET_KEY": "t"})
    with app.app_context():
        # Closing the last connection checkpoints the write-ahead log into the file itself.
        db.engine.dispose()
    return path


@pytest.fixture(params=BACKENDS)
def database_uri(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        path = tmp_path / "scorekeeper.db"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        yield f"sqlite:///{path}"
        return
    uri: str = request.getfixturevalue("postgres_uri")
    yield uri
    empty_postgres(uri)


def empty_postgres(uri: str) -> None:
    tables = ", ".join(table.name for table in db.metadata.sorted_tables)
    engine = create_engine(uri)
    with engine.begin() as connection:
        connection.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    engine.dispose()


@pytest.fixture
def instance_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(path))
    return path


@pytest.fixture
def app(database_uri: str, instance_path: Path) -> Iterator[Flask]:
    """The app on a fresh database. CSRF is off here; ``csrf_client`` tests it switched on."""
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_uri,
            "WTF_CSRF_ENABLED": False,
            "SCOREBOARD_POLL_SECONDS": 1,
        }
    )
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def csrf_client(app: Flask) -> FlaskClient:
    """A client of the same app with CSRF protection on, as in production."""
    app.config["WTF_CSRF_ENABLED"] = True
    return app.test_client()
