"""Issue 37, item 5: a correction far back answers at once. A save replays at most
``RATINGS_REPLAYED_IN_SAVE`` games' ratings; further back it leaves a mark in the database and
the worker (``history.rating_worker``) replays after the commit, while every page that shows a
rating says they are being brought up to date, never a mix of old and new."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask, request_finished
from flask.testing import FlaskClient
from sqlalchemy import select, text

from scorekeeper import scope
from scorekeeper.derived import RatingMark
from scorekeeper.extensions import db
from scorekeeper.history import rating_worker, ratings

from ..conftest import family_id
from ..helpers import players_of, round_form, save_round, start_game
from .test_kept_stats import _named
from .test_ratings import _rows, assert_kept_equals_replay

STALE = "Ratings are being brought up to date"
TABLE = ["Ann", "Ben", "Cy"]


def _history(client: FlaskClient, games: int) -> list[int]:
    found = []
    for _ in range(games):
        game_id = start_game(client, "contract-rummy", TABLE)
        for _ in range(7):
            save_round(client, game_id, went_out="Ann", cards={"Ben": "K", "Cy": "K Q"})
        found.append(game_id)
    return found


def _correct_places(client: FlaskClient, game_id: int) -> None:
    """Ben now holds more than Cy over the game: the places change."""
    form = round_form(players_of(client, game_id), "Ann", {"Ben": "JK JK A A A A K K", "Cy": "3"})
    answer = client.post(f"/games/{game_id}/rounds/1/edit", data={**form, "save": "Save"})
    assert answer.status_code in (302, 303), answer.get_data(as_text=True)


def _stale(app: Flask, household: int) -> bool:
    with app.app_context(), scope.household(household):
        found = ratings.stale(db.session.connection(), household)
        db.session.remove()
    return found


def _pages(client: FlaskClient, game_id: int, player_id: int) -> dict[str, str]:
    return {
        "players": client.get("/players").get_data(as_text=True),
        "player": client.get(f"/players/{player_id}").get_data(as_text=True),
        "game": client.get(f"/history/games/{game_id}/ratings").get_data(as_text=True),
        "season": client.get("/seasons").get_data(as_text=True),
        "review": client.get(f"/review/{_year(client)}").get_data(as_text=True),
    }


def _year(client: FlaskClient) -> int:
    page = client.get("/seasons").get_data(as_text=True)
    return int(page.split('aria-current="page">')[1].split("<")[0])


def test_a_correction_far_back_leaves_the_replay_to_the_worker(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    household = family_id(app)
    app.config["RATINGS_REPLAYED_IN_SAVE"] = 2
    app.config["RATINGS_REPLAY_CHUNK"] = 2
    games = _history(client, 6)
    ann = {name: pid for pid, name in _named(app, household)}["Ann"]
    before = _pages(client, games[-1], ann)
    for name, page in before.items():
        assert STALE not in page, name
    assert "provisional" in before["players"] or "." in before["players"]
    with app.app_context(), scope.household(household):
        kept = _rows(household)
        db.session.remove()
    replays: list[Any] = []
    replay = ratings.replay

    def counted(*arguments: Any, **keywords: Any) -> Any:
        replays.append(arguments[1:])
        return replay(*arguments, **keywords)

    monkeypatch.setattr(ratings, "replay", counted)
    _correct_places(client, games[0])
    # The save replayed nothing: it left the mark, and the ratings as they were.
    assert replays == []
    assert _stale(app, household)
    with app.app_context(), scope.household(household):
        assert _rows(household) == kept
        marks = db.session.execute(select(RatingMark.game_id)).scalars().all()
        db.session.remove()
    assert marks == [games[0]]
    # Every page that shows a rating says so, and shows none.
    during = _pages(client, games[-1], ann)
    for name, page in during.items():
        assert STALE in page, name
    assert "provisional" not in during["players"]
    assert "Rating leader" not in during["review"]
    assert '<svg class="chart-svg"' not in during["player"]
    assert "\u2212" not in during["game"] and "+" not in during["game"].split(STALE)[1]
    # A later save joins the replay left: it replays nothing itself either.
    save_round(client, start_game(client, "contract-rummy", TABLE), "Ben", {"Ann": "K", "Cy": "K"})
    assert replays == []
    # The worker: a chunk of two games a transaction, until the mark is gone.
    with app.app_context():
        assert rating_worker.run_pending() is False
        db.session.remove()
    assert len(replays) >= 3, replays
    assert not _stale(app, household)
    assert_kept_equals_replay(app, household, "after the worker")
    after = _pages(client, games[-1], ann)
    for name, page in after.items():
        assert STALE not in page, name
    assert "Rating leader" in after["review"]
    assert '<svg class="chart-svg"' in after["player"]


def test_a_correction_near_the_end_is_replayed_in_the_save(app: Flask, client: FlaskClient) -> None:
    household = family_id(app)
    app.config["RATINGS_REPLAYED_IN_SAVE"] = 2
    games = _history(client, 4)
    _correct_places(client, games[-2])
    assert not _stale(app, household)
    assert_kept_equals_replay(app, household, "replayed in the save")


def test_one_replay_at_a_time(app: Flask, client: FlaskClient) -> None:
    """Another process replaying the household (holding its lock) leaves it to that one. On
    SQLite every writer's transaction takes the one write lock first (``db.begin_sqlite``)."""
    household = family_id(app)
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("SQLite: the write lock every transaction of the worker takes first")
    app.config["RATINGS_REPLAYED_IN_SAVE"] = 0
    _history(client, 2)
    assert _stale(app, household)
    with app.app_context():
        with db.engine.connect() as other:
            other.execute(
                text("SELECT pg_advisory_xact_lock(:key, :household)"),
                {"key": ratings.REPLAY_LOCK, "household": household},
            )
            assert rating_worker.run_pending() is True
            other.rollback()
        db.session.remove()
    assert _stale(app, household)
    with app.app_context():
        assert rating_worker.run_pending() is False
        db.session.remove()
    assert not _stale(app, household)
    assert_kept_equals_replay(app, household, "after the lock")


def test_a_save_wakes_the_worker_once_its_request_is_done(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Woken at the commit, the worker took SQLite's write lock for its first part while the
    save's request still read (a write request's transactions take that lock first): the save
    waited a second or more. It is woken once the request is done."""
    app.config["RATINGS_REPLAYED_IN_SAVE"] = 0
    games = _history(client, 3)
    seen: list[str] = []
    monkeypatch.setattr(rating_worker, "wake", lambda _app: seen.append("worker woken"))
    # Not the look every request takes now and then: the wake of the save's commit alone.
    monkeypatch.setattr(rating_worker, "start_now_and_then", lambda _app: None)

    def finished(_sender: Any, **_: Any) -> None:
        seen.append("request finished")

    # As ``_correct_places``, the game's players read first: the save is the one request.
    form = round_form(players_of(client, games[0]), "Ann", {"Ben": "JK JK A A A A K K", "Cy": "3"})
    with request_finished.connected_to(finished, app):
        answer = client.post(f"/games/{games[0]}/rounds/1/edit", data={**form, "save": "Save"})
    assert answer.status_code in (302, 303)
    assert seen == ["request finished", "worker woken"]
