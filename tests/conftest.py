"""Fixtures: an app with a fresh database per test, on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import HealthCheck, settings
from sqlalchemy import create_engine, text

from scorekeeper import create_app
from scorekeeper.extensions import db

from .postgres import locked, shared_server_database

IN_CI = os.environ.get("CI") == "true"
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


# The suite runs on parallel workers (pytest-xdist, pyproject.toml's addopts); "main" when not.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
# Past this many, each worker's own collection, servers, Chromium and database cost more than
# the cores gain (and the shared PostgreSQL server's 400 connections run short).
MOST_WORKERS = 8


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: a worker a core and one more, which runs while the others wait for a
    server, a browser or a poll (docs/development.md has the measurements), at most
    ``MOST_WORKERS``. ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides where it is set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return min(len(os.sched_getaffinity(0)) + 1, MOST_WORKERS)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` (a server started, a load run, the wheel built: up to a minute
    or two each on a busy machine) run first, the others after them in the order collected.
    pytest-xdist hands the tests of no ``xdist_group`` out in the order collected, and these,
    mostly in ``tests/test_*.py``, were collected after the folders' tests: the run ended with
    one worker on a long test while the others had nothing left to do."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


# Hypothesis times nothing here: its deadline and its check that examples are made quickly
# would fail a test because the machine is busy (as the parallel workers keep it), not wrong.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of this run's that every worker sees (pytest-xdist gives each worker a
    folder inside its controller's), for what the workers share."""
    here = tmp_path_factory.getbasetemp()
    return here.parent if WORKER != "main" else here


@pytest.fixture(scope="session")
def postgres_uri(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A PostgreSQL database of this worker's for the session, migrated by the first app
    (tests empty it after themselves); the server is shared by the workers."""
    with shared_server_database(run_folder(tmp_path_factory), WORKER) as uri:
        if uri is None:
            message = "no PostgreSQL server: apt-get install postgresql (CI installs it)"
            if IN_CI:
                pytest.fail(message)
            pytest.skip(message)
        yield uri


@pytest.fixture(scope="session")
def kept_postgres_uri(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A second PostgreSQL database of this worker's, for a module's fixture whose data lives
    across its tests: ``postgres_uri`` is emptied after every test, and a module's other tests
    run between the ones that share that data (a server with a world's accounts in it is not
    a new server any more)."""
    with shared_server_database(run_folder(tmp_path_factory), f"{WORKER}_kept") as uri:
        if uri is None:
            message = "no PostgreSQL server: apt-get install postgresql (CI installs it)"
            if IN_CI:
                pytest.fail(message)
            pytest.skip(message)
        yield uri


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with every migration applied, copied for each test (quicker than
    migrating); made once a run, by the first worker that needs it."""
    folder = run_folder(tmp_path_factory)
    path = folder / "template.db"
    with locked(folder / "template.lock"):
        if not path.exists():
            making = tmp_path_factory.mktemp("template") / "template.db"
            app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{making}", "SECRET_KEY": "t"})
            with app.app_context():
                # Closing the last connection checkpoints the write-ahead log into the file.
                db.engine.dispose()
            shutil.move(making, path)
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


# Argon2id at its smallest: the tests sign in thousands of times, and the cost is not theirs
# to measure.
FAST_PASSWORDS = {"PASSWORD_TIME_COST": 1, "PASSWORD_MEMORY_KIB": 8}
# The app of the ``app`` fixture, but for its database (also for a module's own app).
APP_SETTINGS = {
    "TESTING": True,
    "WTF_CSRF_ENABLED": False,
    "SCOREBOARD_POLL_SECONDS": 1,
    # One test reads a restore in its thread (tests/history/test_restore_jobs.py).
    "RESTORE_IN_BACKGROUND": False,
    # The ratings' worker is run by the tests that want it (tests/history/
    # test_rating_worker.py).
    "RATINGS_IN_BACKGROUND": False,
    # Dates as the tests write them, whatever zone the machine running them is in.
    "TIME_ZONE": "UTC",
    # The daily backups are tested on their own (tests/history/test_kept_backups.py).
    "DAILY_BACKUPS": False,
    **FAST_PASSWORDS,
}


@pytest.fixture
def app(database_uri: str, instance_path: Path) -> Iterator[Flask]:
    """The app on a fresh database. CSRF is off here; ``csrf_client`` tests it switched on."""
    app = create_app({**APP_SETTINGS, "SQLALCHEMY_DATABASE_URI": database_uri})
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


PASSWORD = "correct horse battery"
HOUSEHOLD = "Family"


def add_member(app: Flask, username: str, role: str = "owner", household: str = HOUSEHOLD) -> None:
    """An account in ``household`` (made where missing), with the password ``PASSWORD``."""
    from scorekeeper.accounts import services

    with app.app_context():
        home = services.household_named(household) or services.add_household(household)
        services.add_user(username, PASSWORD, home, role)
        db.session.remove()


def signed_in(
    app: Flask, username: str, role: str = "owner", household: str = HOUSEHOLD
) -> FlaskClient:
    """A client of ``app`` signed in as a new account ``username``."""
    add_member(app, username, role, household)
    client = app.test_client()
    sign_in(app, client, username)
    return client


def family_id(app: Flask) -> int:
    """The id of the household ``Family`` (made where missing), for ``scope.household``."""
    from scorekeeper.accounts import services

    with app.app_context():
        home = services.household_named(HOUSEHOLD) or services.add_household(HOUSEHOLD)
        found = home.id
        db.session.remove()
    return found


def household_id(app: Flask, name: str) -> int:
    """The id of household ``name`` (made where missing). The household ``Family`` is made
    first: work done outside any household (the tests' own imports) goes to it, as to the
    command line's one household, not to the first one a test names."""
    from scorekeeper.accounts import services

    with app.app_context():
        if services.household_named(HOUSEHOLD) is None:
            services.add_household(HOUSEHOLD)
        home = services.household_named(name) or services.add_household(name)
        found = home.id
        db.session.remove()
    return found


def sign_in(app: Flask, client: FlaskClient, username: str) -> None:
    checking = app.config.get("WTF_CSRF_ENABLED", True)
    app.config["WTF_CSRF_ENABLED"] = False
    try:
        response = client.post("/login", data={"username": username, "password": PASSWORD})
    finally:
        app.config["WTF_CSRF_ENABLED"] = checking
    assert response.status_code == 303, response.get_data(as_text=True)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A client signed in as the owner of the household ``Family``."""
    return signed_in(app, "owner")


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def csrf_client(app: Flask) -> FlaskClient:
    """A client of the same app, signed in as the household's owner, with CSRF protection on,
    as in production."""
    client = signed_in(app, "csrf-owner")
    app.config["WTF_CSRF_ENABLED"] = True
    return client
