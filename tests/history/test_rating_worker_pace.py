"""Issue 40, item 4: what a scorer's corrections cost the ratings worker is bounded. Corrections
that come while a replay runs move it rather than start another; a household's replays rest
between them (``RATINGS_REPLAY_COOL_DOWN_SECONDS``), the corrections meanwhile folded into the
next; a part of a replay is short and gives way to a save waiting for SQLite's write lock. The
ratings end as a replay from scratch would leave them."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.history import rating_worker, ratings

from ..conftest import family_id
from ..helpers import players_of, round_form, save_round, start_game
from .test_rating_worker import TABLE, _history, _stale
from .test_ratings import assert_kept_equals_replay


def _correct(client: FlaskClient, game_id: int, heavy: str) -> None:
    """Round 1 corrected so that ``heavy`` (Ben or Cy) holds a heavy hand and the other a 3:
    alternating the two moves Ben and Cy's places each time."""
    other = "Cy" if heavy == "Ben" else "Ben"
    cards = {heavy: "JK JK A A A A K K", other: "3"}
    form = round_form(players_of(client, game_id), "Ann", cards)
    answer = client.post(f"/games/{game_id}/rounds/1/edit", data={**form, "save": "Save"})
    assert answer.status_code in (302, 303), answer.get_data(as_text=True)


class Replays:
    """Every call of ``ratings.replay``: where it started and where the next part goes on. A
    replay begins where a call does not go on from the one before."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[tuple[Any, Any]] = []
        replay = ratings.replay

        def counted(*arguments: Any, **keywords: Any) -> Any:
            following = replay(*arguments, **keywords)
            self.calls.append((arguments[2], following))
            return following

        monkeypatch.setattr(ratings, "replay", counted)

    def begun(self) -> list[int]:
        """The game each replay began from."""
        found, following = [], None
        for start, then in self.calls:
            if start is None or start != following:
                found.append(start[1])
            following = then
        return found


def _part(app: Flask, household: int) -> str:
    """One part of the worker's replay (two games at most), committed as the worker does."""
    with app.app_context(), scope.household(household):
        connection = db.session.connection()
        rest = timedelta(seconds=app.config["RATINGS_REPLAY_COOL_DOWN_SECONDS"])
        outcome = rating_worker.replay_marked(connection, household, 2, rest=rest)
        db.session.commit()
        db.session.remove()
    return outcome


def _later(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """The worker's clock moved on by ``seconds``."""
    now = rating_worker.now()
    monkeypatch.setattr(rating_worker, "now", lambda: now + timedelta(seconds=seconds))


def test_corrections_over_and_over_cost_a_replay_a_minute(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first game corrected ten times, alternately, each correction followed by the
    worker's turn: one replay then, and one more after the cool-down (60 s by default),
    covering the nine others; the ratings end as a replay from scratch leaves them."""
    household = family_id(app)
    games = _history(client, 4)
    app.config["RATINGS_REPLAYED_IN_SAVE"] = 0
    replays = Replays(monkeypatch)
    for turn in range(10):
        _correct(client, games[0], "Ben" if turn % 2 == 0 else "Cy")
        with app.app_context():
            left = rating_worker.run_pending()
            db.session.remove()
        # The first is replayed at once; the others wait for the cool-down after it.
        assert left is (turn > 0), turn
        assert _stale(app, household) is (turn > 0), turn
    assert replays.begun() == [games[0]]
    # The worker's thread looks again once the rest is over.
    assert 0 < app.extensions[rating_worker.AGAIN] <= 60
    _later(monkeypatch, 61)
    with app.app_context():
        assert rating_worker.run_pending() is False
        db.session.remove()
    assert replays.begun() == [games[0], games[0]]
    assert not _stale(app, household)
    assert_kept_equals_replay(app, household, "after ten corrections")


def test_a_replay_goes_on_past_later_changes_and_starts_again_from_the_earliest(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change to a game the replay has not reached is folded into it; one to a game it has
    passed gives it up, and the next replay, after the cool-down, starts from the earliest
    game changed meanwhile."""
    household = family_id(app)
    games = _history(client, 8)
    app.config["RATINGS_REPLAYED_IN_SAVE"] = 0
    replays = Replays(monkeypatch)
    _correct(client, games[0], "Ben")
    assert _part(app, household) == "more"
    # The replay has reached the third game: the sixth, changed now, is ahead of it.
    _correct(client, games[5], "Ben")
    assert _part(app, household) == "more"
    assert [start[1] for start, _ in replays.calls] == [games[0], games[2]]
    # The second and fourth are behind it: it is given up, nothing more replayed till the rest
    # is over, however often the worker looks.
    _correct(client, games[3], "Ben")
    _correct(client, games[1], "Ben")
    assert _part(app, household) == "resting"
    _correct(client, games[6], "Ben")
    assert _part(app, household) == "resting"
    assert len(replays.calls) == 2
    _later(monkeypatch, 61)
    assert _part(app, household) == "more"
    assert replays.calls[2][0][1] == games[1]
    with app.app_context():
        assert rating_worker.run_pending() is False
        db.session.remove()
    assert replays.begun() == [games[0], games[1]]
    assert_kept_equals_replay(app, household, "after the replay started again")


def test_a_part_ends_once_its_time_is_spent(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``RATINGS_REPLAY_CHUNK`` (500) would take every game in one part: with no time for a
    part, each replays one game."""
    household = family_id(app)
    games = _history(client, 4)
    app.config["RATINGS_REPLAYED_IN_SAVE"] = 0
    monkeypatch.setattr(rating_worker, "PART_SECONDS", 0.0)
    replays = Replays(monkeypatch)
    _correct(client, games[0], "Ben")
    with app.app_context():
        assert rating_worker.run_pending() is False
        db.session.remove()
    assert [start[1] for start, _ in replays.calls] == games
    assert_kept_equals_replay(app, household, "a game a part")


def test_a_save_during_a_replay_waits_for_a_part_not_the_whole_replay(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker replays in its thread; once it is replaying the first game, a round is saved
    (SQLite: the save waits for the write lock). The save has the database before the worker
    has read the last games: the worker gave way at the end of a game, not of the replay
    (every game in one part by ``RATINGS_REPLAY_CHUNK``, and more time than it needs)."""
    household = family_id(app)
    monkeypatch.setattr(rating_worker, "PART_SECONDS", 60.0, raising=False)
    games = _history(client, 5)
    playing = start_game(client, "contract-rummy", TABLE)
    app.config["RATINGS_REPLAYED_IN_SAVE"] = 0
    _correct(client, games[0], "Ben")
    seen: list[str] = []
    replaying, save_queued = threading.Event(), threading.Event()
    saving = threading.get_ident()
    read = ratings._games

    def watched(*arguments: Any, **keywords: Any) -> Iterator[Any]:
        for game in read(*arguments, **keywords):
            seen.append(f"worker read game {game[0]}")
            if not replaying.is_set():
                replaying.set()
                assert save_queued.wait(30), "the save did not begin"
            yield game

    monkeypatch.setattr(ratings, "_games", watched)

    def before(_connection: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if threading.get_ident() == saving and statement == "BEGIN IMMEDIATE":
            save_queued.set()

    def after(_connection: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if threading.get_ident() == saving and statement == "BEGIN IMMEDIATE":
            seen.append("save has the database")

    failed: list[BaseException] = []

    def work() -> None:
        try:
            with app.app_context():
                rating_worker.run_pending()
                db.session.remove()
        except BaseException as error:
            failed.append(error)
            save_queued.set()

    worker = threading.Thread(target=work)
    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", before)
    event.listen(engine, "after_cursor_execute", after)
    try:
        worker.start()
        assert replaying.wait(30)
        save_round(client, playing, "Ann", {"Ben": "K", "Cy": "K"})
        # PostgreSQL: the save never waits for the worker's part; it is done now.
        if "save has the database" not in seen:
            seen.append("save has the database")
        save_queued.set()
        worker.join(60)
    finally:
        event.remove(engine, "before_cursor_execute", before)
        event.remove(engine, "after_cursor_execute", after)
    assert not failed, failed
    assert not worker.is_alive()
    read_after = seen[seen.index("save has the database") + 1 :]
    assert f"worker read game {games[-1]}" in read_after, seen
    assert not _stale(app, household)
    assert_kept_equals_replay(app, household, "after the save beside the replay")


def test_the_rest_is_never_longer_than_the_cool_down_if_the_clock_goes_back(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last replay ended a moment ago; then the clock is set back an hour: the rest lasts
    the cool-down from now, not an hour more."""
    household = family_id(app)
    games = _history(client, 3)
    app.config["RATINGS_REPLAYED_IN_SAVE"] = 0
    _correct(client, games[0], "Ben")
    with app.app_context():
        assert rating_worker.run_pending() is False
        db.session.remove()
    _correct(client, games[0], "Cy")
    _later(monkeypatch, -3600)
    with app.app_context():
        assert rating_worker.run_pending() is True
        db.session.remove()
    assert 0 < app.extensions[rating_worker.AGAIN] <= 60
    assert _stale(app, household)
