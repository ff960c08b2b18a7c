"""Issue 37, item 5, through ``flask serve``: a correction to the first of many games answers
before the replay of the later ratings, and a server killed (SIGKILL) in the middle of that
replay finishes it once it is started again, from the mark the database kept."""

from __future__ import annotations

import time
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select

from bench.corrections import STALE, _first_game, _places, correct_round_one
from bench.history import prepare
from bench.serving import served
from scorekeeper import create_app, scope
from scorekeeper.derived import RatingMark
from scorekeeper.extensions import db
from scorekeeper.history import ratings

from .test_ratings import _rows

pytestmark = pytest.mark.slow

GAMES = 600


def _marks(uri: str) -> list[int]:
    engine = create_engine(uri)
    with engine.connect() as connection:
        found = list(connection.execute(select(RatingMark.__table__.c.game_id)).scalars())
    engine.dispose()
    return found


@pytest.mark.parametrize("processes", [1, 2])
def test_a_replay_cut_off_by_a_killed_server_finishes_after_the_restart(
    database_uri: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, processes: int
) -> None:
    """With ``--processes 2`` the save's process replays, and the restart's answering one."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path))
    cookie, _ = prepare(database_uri, 1, GAMES, reuse=False)
    game_id, winner, last = _first_game(database_uri)
    before = _places(database_uri, game_id)
    environment = {
        "SCOREKEEPER_INSTANCE_PATH": str(tmp_path),
        "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": database_uri,
        "SCOREKEEPER_SECRET_KEY": "bench",
        "SCOREKEEPER_DAILY_BACKUPS": "false",
        # A few games a transaction and a pause after each: the replay is under way for a
        # while, part by part (600 games take a tenth of a second without the pause: the
        # test could not look for the mark before the worker had taken it away).
        "SCOREKEEPER_RATINGS_REPLAY_CHUNK": "5",
        "SCOREKEEPER_RATINGS_REPLAY_PAUSE_MS": "40",
        "SCOREKEEPER_RATINGS_REPLAYED_IN_SAVE": "20",
    }
    with served(
        environment=environment, ready_path="/healthz", log_folder=tmp_path, processes=processes
    ) as server:
        _ms, status = correct_round_one(server.base, cookie, game_id, winner, last, before)
        assert status in (302, 303), status
        assert _places(database_uri, game_id) != before
        # The save left the replay to the worker.
        assert _marks(database_uri), "the save replayed the ratings itself"
        # Killed once a part of the replay is committed: the mark has moved on past the game.
        deadline = time.monotonic() + 60
        while (marks := _marks(database_uri)) and marks == [game_id]:
            assert time.monotonic() < deadline, "the worker did not start"
            time.sleep(0.02)
        server.kill()
        left = _marks(database_uri)
        assert left and left != [game_id], "the replay ended before the kill: more games needed"
        server.start()
        # The restarted server's first request starts its worker, which finds the mark.
        request_answered = server.base + "/players"
        with urllib.request.urlopen(
            urllib.request.Request(request_answered, headers={"Cookie": cookie})
        ) as answer:
            assert STALE in answer.read().decode()
        # Finished, however long a busy machine takes: it fails where the mark stands still.
        last_seen, deadline = left, time.monotonic() + 120
        while marks := _marks(database_uri):
            if marks != last_seen:
                last_seen, deadline = marks, time.monotonic() + 120
            assert time.monotonic() < deadline, f"the replay stood still at {marks} after a restart"
            time.sleep(0.1)
        with urllib.request.urlopen(
            urllib.request.Request(request_answered, headers={"Cookie": cookie})
        ) as answer:
            assert STALE not in answer.read().decode()
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_uri, "SECRET_KEY": "x"})
    with app.app_context(), scope.household(1):
        kept = _rows(1)
        ratings.rebuild(1)
        assert _rows(1) == kept
        db.session.rollback()
        db.session.remove()
        db.engine.dispose()
