"""Faults while the app runs: a full disk, a busy database, a PostgreSQL server restarted.

Each ends with a clear answer, never a 500: a save that fails comes back as the round form with
everything typed and a plain message, nothing half-stored, and the reads go on being served.
(A process killed mid-save is tests/test_load.py's server-kill run.)
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, func, select

from scorekeeper.extensions import db
from scorekeeper.models import Hand, Round

from .conftest import IN_CI
from .helpers import round_form, save_round, start_game
from .postgres import restart_server, running_server

# One worker runs the module (pytest-xdist's --dist loadgroup): it starts its PostgreSQL server
# (below) once.
pytestmark = pytest.mark.xdist_group("own-postgres-server")

PLAYERS = ["Ann", "Ben", "Cy"]
TYPED = {"Ben": "K Q 9 JK", "Cy": "7 7 3"}


@pytest.fixture(scope="module")
def postgres_uri() -> Iterator[str]:
    """A PostgreSQL server of this module's own: it is restarted here, and the session's is
    shared by the other workers' tests, which a restart would cut off."""
    with running_server() as uri:
        if uri is None:
            message = "no PostgreSQL server: apt-get install postgresql (CI installs it)"
            if IN_CI:
                pytest.fail(message)
            pytest.skip(message)
        yield uri


def rounds_stored(app: Flask) -> tuple[int, int]:
    with app.app_context():
        rounds = db.session.scalar(select(func.count(Round.id))) or 0
        hands = db.session.scalar(select(func.count(Hand.id))) or 0
        db.session.remove()
        return rounds, hands


def on_every_new_connection(app: Flask, statement: str) -> None:
    """Run ``statement`` on each SQLite connection opened from now on (and drop the open
    ones): PRAGMAs hold per connection."""

    def configure(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute(statement)
        cursor.close()

    with app.app_context():
        event.listen(db.engine, "connect", configure)
        db.engine.dispose()


def assert_form_kept_what_was_typed(body: str) -> None:
    assert "could not save this just now" in body
    for cards in TYPED.values():
        assert cards in body


def test_a_full_disk_keeps_the_typed_round_and_serves_reads(
    app: Flask, client: FlaskClient
) -> None:
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("the full disk is SQLite's max_page_count")
    game = start_game(client, "twelve-step", PLAYERS)
    save_round(client, game, "Ann", {"Ben": "5", "Cy": "K"})
    before = rounds_stored(app)
    with app.app_context():
        db.engine.dispose()
    # The file may not grow by a single page: VACUUM leaves no free page inside it, and the
    # change log's pages are filled to the brim, so the next save finds the disk full.
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    direct = sqlite3.connect(path, isolation_level=None)
    direct.execute("VACUUM")
    pages = direct.execute("PRAGMA page_count").fetchone()[0]
    direct.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(sqlite3.OperationalError, match="full"):
        for _ in range(100_000):
            direct.execute(
                "INSERT INTO game_events (game_id, at, text, actor, household_id) "
                "SELECT id, '2025-01-01', 'filler', '', household_id FROM games WHERE id = ?",
                (game,),
            )
    direct.close()
    on_every_new_connection(app, f"PRAGMA max_page_count = {pages}")
    form = round_form(PLAYERS, "Ann", TYPED)
    form.update({"save": "y", "number": "2"})
    response = client.post(f"/games/{game}/rounds/new", data=form)
    assert response.status_code == 503, response.get_data(as_text=True)[:2000]
    assert_form_kept_what_was_typed(response.get_data(as_text=True))
    assert client.get(f"/games/{game}").status_code == 200
    assert client.get("/history").status_code == 200
    rounds, hands = rounds_stored(app)
    assert hands == rounds * len(PLAYERS), "a round was half-stored"
    assert rounds >= before[0]


def test_a_write_that_outwaits_the_busy_timeout_keeps_the_typed_round(
    app: Flask, client: FlaskClient
) -> None:
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    if not uri.startswith("sqlite"):
        pytest.skip("SQLite's single writer")
    game = start_game(client, "twelve-step", PLAYERS)
    # Wait a tenth of a second rather than 15 s for the other writer.
    on_every_new_connection(app, "PRAGMA busy_timeout = 100")
    with app.app_context():
        db.engine.dispose()
    other = sqlite3.connect(uri.removeprefix("sqlite:///"), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        form = round_form(PLAYERS, "Ann", TYPED)
        form.update({"save": "y", "number": "1"})
        response = client.post(f"/games/{game}/rounds/new", data=form)
        assert response.status_code == 503, response.get_data(as_text=True)[:2000]
        assert_form_kept_what_was_typed(response.get_data(as_text=True))
        # Reads go on while the other writer holds the lock.
        assert client.get(f"/games/{game}").status_code == 200
        # Any other write waits its turn too, and says so plainly.
        response = client.post(f"/games/{game}/abandon")
        assert response.status_code == 503
        assert "nothing was saved" in response.get_data(as_text=True)
    finally:
        other.rollback()
        other.close()
    assert rounds_stored(app) == (0, 0)
    save_round(client, game, "Ann", TYPED)
    assert rounds_stored(app) == (1, 3)


def test_the_app_survives_a_postgresql_restart(app: Flask, client: FlaskClient) -> None:
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    if not uri.startswith("postgresql"):
        pytest.skip("a PostgreSQL server to restart")
    game = start_game(client, "twelve-step", PLAYERS)
    assert client.get(f"/games/{game}").status_code == 200
    if not restart_server(uri):
        pytest.skip("a server of one's own (SCOREKEEPER_TEST_POSTGRES_URI) is not restarted")
    # The pooled connections died with the server; pool_pre_ping replaces them unseen.
    assert client.get("/healthz").status_code == 200
    assert client.get(f"/games/{game}").status_code == 200
    save_round(client, game, "Ann", TYPED)
    assert rounds_stored(app) == (1, 3)
