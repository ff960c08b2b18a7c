"""The worker that brings the ratings up to date after a save that left them stale.

A save replays at most ``RATINGS_REPLAYED_IN_SAVE`` later games itself; a correction further
back leaves a ``RatingMark`` in its transaction instead (``ratings.refresh``), and the commit
wakes this worker (``after_commit``), which replays from the earliest mark to the end, a part a
transaction (``replay_marked``); the household's statistics version moves with the last part
(its history pages are drawn afresh then). What a scorer's corrections can cost is bounded:

- A part is short: ``RATINGS_REPLAY_CHUNK`` games at most, and no more once it has used
  ``PART_SECONDS`` of the worker's CPU or a save of this process waits for SQLite's write lock
  (``db.WRITERS``); the next part begins once that save has the lock. A save waits for the end
  of a part at most.
- One replay at a time, moved rather than begun again: a change to a game the replay has not
  reached is folded into it (its mark is after the worker's own); a change to one it has passed
  gives it up where it stands, since what it would write from there rests on ratings that
  changed.
- A rest between two replays of a household: the next starts no sooner than
  ``RATINGS_REPLAY_COOL_DOWN_SECONDS`` after the last one ended or was given up, from the
  earliest mark left meanwhile, covering them all. Corrections of the first game over and over
  cost a replay a minute, not one each. Where a replay has reached and when the last one ended
  are kept in the database (``RatingReplay``), so that every server process keeps the pace.

One worker thread a server process at most, started by a commit that left a mark, and by a
request where none has looked for marks in the last ``IDLE_SECONDS`` (``start_now_and_then``):
so a replay a stopped server left half done, whose mark is still in the database, is finished
by the next one to answer a request, and another server's marks by this one where that one
stopped. A thread that finds nothing to do for ``IDLE_SECONDS`` ends. Only one
replays a household at a time: PostgreSQL's advisory lock, SQLite's write lock. Where
``RATINGS_IN_BACKGROUND`` is off (tests) nothing runs by itself: ``run_pending`` does the work.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Flask, current_app, g, has_app_context, has_request_context
from sqlalchemy import Connection, delete, func, insert, select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from .. import scope
from ..db import BUSY_TIMEOUT_MS, WRITERS
from ..derived import RatingMark, RatingReplay
from ..extensions import db
from ..versions import RATINGS_QUEUED
from . import ratings, restores
from .rating_model import Position
from .stats.tables import bump_version

# How long an idle worker waits before it looks for marks again (another server's, or one a
# commit's wake missed); and before it tries again a household another process replays.
IDLE_SECONDS = 60.0
BUSY_SECONDS = 1.0
KEY = "rating_worker"
LOOKED = "rating_worker_looked"
# In ``g``: a commit of this request left ratings stale.
WAKE = "rating_worker_wake"
# In ``app.extensions``: in how many seconds the worker is to look again at the households its
# last run left (resting, or replayed by another process); None: it left none.
AGAIN = "rating_worker_again"
# A part of a replay rates games until it has used this much of the worker's CPU (its own time,
# not the clock's: on a busy machine a part still does as much, rather than a game or two each
# with the part's reading and writing around it); its writes and commit follow.
PART_SECONDS = 0.05

marks_t = RatingMark.__table__
paces_t = RatingReplay.__table__

_starting = threading.Lock()


class _Worker(threading.Thread):
    # A stop of the server (``server._stop``) waits for no replay: its part rolls back, and
    # the mark it leaves is taken up by the next start.
    stops_with_the_server = True

    def __init__(self, app: Flask) -> None:
        super().__init__(name="ratings", daemon=True)
        self.app = app
        self.woken = threading.Event()
        # Set, under ``_starting``, once it has decided to end: a wake then starts another.
        self.ending = False
        # Set by ``leave``: it ends once the pass it is in is over.
        self.leaving = False

    def leave(self) -> None:
        """End once the pass this worker is in is over (``server`` asks it before it forks its
        processes); the marks it leaves are the next worker's (a forked process's)."""
        with _starting:
            self.ending = self.leaving = True
            self.woken.set()

    def run(self) -> None:
        while not self.leaving:
            self.woken.clear()
            self.app.extensions[LOOKED] = time.monotonic()
            with self.app.app_context():
                try:
                    run_pending()
                    again = self.app.extensions.get(AGAIN)
                except SQLAlchemyError:
                    self.app.logger.warning("bringing the ratings up to date failed; trying again")
                    again = BUSY_SECONDS
                finally:
                    db.session.remove()
            if self.leaving:
                return
            if not self.woken.wait(IDLE_SECONDS if again is None else again) and again is None:
                with _starting:
                    if not self.woken.is_set():
                        self.ending = True
                        return


def wake(app: Flask) -> None:
    """Have this process's worker look for marks now (started where it is not running: the
    first time, and in a forked server process, where the parent's thread is not)."""
    if not app.config["RATINGS_IN_BACKGROUND"]:
        return
    with _starting:
        worker = app.extensions.get(KEY)
        if not isinstance(worker, _Worker) or worker.ending or not worker.is_alive():
            worker = _Worker(app)
            app.extensions[KEY] = worker
            worker.start()
    worker.woken.set()


def start_now_and_then(app: Flask) -> None:
    """Before a request: the worker is started where it is not running and nobody looked for
    marks in the last ``IDLE_SECONDS`` (cheap otherwise)."""
    worker = app.extensions.get(KEY)
    if isinstance(worker, _Worker) and not worker.ending and worker.is_alive():
        return
    looked = app.extensions.get(LOOKED)
    if looked is None or time.monotonic() - looked > IDLE_SECONDS:
        wake(app)


def after_commit(session: Session) -> None:
    """After a commit that left a household's ratings stale, the worker is woken: in a
    request, once the request is done (``wake_after_request``). Its first part takes SQLite's
    write lock at once, and a save's request reads again after its commit (a write request's
    transactions take that lock first): woken at the commit, the worker made the save wait
    for a part of the replay, a second or more."""
    if session.info.pop(RATINGS_QUEUED, False) and has_app_context():
        if has_request_context():
            g.setdefault(WAKE, True)
            return
        # Flask types current_app as the app, not the proxy it is.
        wake(current_app._get_current_object())  # type: ignore[attr-defined]


def wake_after_request(_error: BaseException | None = None) -> None:
    """At the end of a request whose commit left ratings stale: the worker is woken."""
    if g.pop(WAKE, False):
        wake(current_app._get_current_object())  # type: ignore[attr-defined]


def _stale_households() -> list[int]:
    with scope.server_wide(scope.ServerWide.STALE_RATINGS):
        found = list(db.session.scalars(select(RatingMark.household_id).distinct()))
        db.session.commit()
    return found


def run_pending() -> bool:
    """Replay every household's stale ratings to the end, a part a transaction, but those
    another process replays now and those resting (``replay_marked``). Returns whether a
    household was left so, and keeps in how many seconds to look again (``AGAIN``)."""
    # First what a restore cut short by a stop of its server stored: counted, and rated whole
    # (looked at again a second later where a restore holds it).
    again: float | None = BUSY_SECONDS if restores.finish_cut_short() else None
    most = int(current_app.config["RATINGS_REPLAY_CHUNK"])
    pause = int(current_app.config["RATINGS_REPLAY_PAUSE_MS"]) / 1000
    rest = timedelta(seconds=int(current_app.config["RATINGS_REPLAY_COOL_DOWN_SECONDS"]))
    for household_id in _stale_households():
        # Each part hands the next its ratings: no part reads every player's again.
        carried = ratings.Carried()
        with scope.household(household_id):
            while True:
                began = time.thread_time()

                def enough(began: float = began) -> bool:
                    return time.thread_time() - began > PART_SECONDS or WRITERS.waiting()

                try:
                    connection = db.session.connection()
                    outcome = replay_marked(connection, household_id, most, enough, rest, carried)
                    if outcome == "done":
                        bump_version(connection, scope.for_household(household_id))
                    # A household resting is looked at again when its rest is over.
                    wait = BUSY_SECONDS
                    if outcome == "resting":
                        wait = max(_rest_left(connection, household_id, rest), 0.05)
                    db.session.commit()
                except BaseException:
                    db.session.rollback()
                    raise
                if outcome in ("busy", "resting"):
                    again = wait if again is None else min(again, wait)
                if outcome != "more":
                    break
                # Between two parts the database is the saves' (SQLite's write lock above all):
                # one this process has waiting takes the lock before the next part.
                WRITERS.none_waiting(BUSY_TIMEOUT_MS / 1000)
                time.sleep(pause)
    current_app.extensions[AGAIN] = again
    return again is not None


def now() -> datetime:
    """The time the pace of the replays is kept by (a test moves it on)."""
    return datetime.now(UTC)


def replay_marked(
    connection: Connection,
    household_id: int,
    most: int,
    enough: Callable[[], bool] | None = None,
    rest: timedelta = timedelta(0),
    carried: ratings.Carried | None = None,
) -> str:
    """One part of the replay the household's marks ask for, in the caller's transaction: from
    the earliest mark on, ``most`` games at most and no more once ``enough()`` says so; the
    marks read are replaced by one where the next part starts, or taken away at the end.
    ``carried``: what the worker's last part handed on (``ratings.Carried``), taken up where
    this part goes on with the same replay. Returns "more" (a part is left), "done" (this was
    the last), "none" (no mark), "busy" (PostgreSQL: another process replays it now; on SQLite
    the write lock every worker's transaction takes first keeps them apart) or "resting":
    nothing replayed, since the household's last replay ended less than ``rest`` ago, or was
    given up now for a mark before where it had reached."""
    household = scope.for_household(household_id)
    if (
        connection.dialect.name == "postgresql"
        and not connection.execute(
            select(func.pg_try_advisory_xact_lock(ratings.REPLAY_LOCK, household_id))
        ).scalar()
    ):
        return "busy"
    marks = connection.execute(
        select(marks_t.c.id, marks_t.c.started, marks_t.c.game_id).where(household.owns(marks_t))
    ).all()
    if not marks:
        return "none"
    start = min((started, game_id) for _, started, game_id in marks)
    pace = _pace(connection, household_id)
    reached = _reached(pace)
    if reached is None or start < reached:
        if reached is not None:
            _keep_pace(connection, household_id, reached=None, ended=now())
            current_app.logger.info(
                "ratings of household %s: a change to game %s, before game %s the replay had "
                "reached; the replay is given up and starts again after the cool-down",
                household_id,
                start[1],
                reached[1],
            )
            return "resting"
        if _rest_ends(pace, rest) > now():
            return "resting"
        began = now()
        current_app.logger.info(
            "ratings of household %s: replaying from game %s", household_id, start[1]
        )
    else:
        began = pace.began
    if carried is not None and carried.replay != began:
        # Not the replay the worker's last part was of: the ratings are read afresh.
        carried.forget()
        carried.replay = began
    following = ratings.replay(
        connection, household_id, start, most=most, enough=enough, carried=carried
    )
    # The marks read, by id: one a save adds meanwhile (PostgreSQL) stays for the next part.
    connection.execute(delete(marks_t).where(marks_t.c.id.in_([mark.id for mark in marks])))
    if following is None:
        _keep_pace(connection, household_id, reached=None, ended=now())
        return "done"
    connection.execute(insert(marks_t), [household.row(started=following[0], game_id=following[1])])
    _keep_pace(connection, household_id, reached=following, began=began)
    return "more"


def _pace(connection: Connection, household_id: int) -> Any:
    household = scope.for_household(household_id)
    return connection.execute(
        select(
            paces_t.c.reached_started, paces_t.c.reached_game_id, paces_t.c.began, paces_t.c.ended
        ).where(household.owns(paces_t))
    ).first()


def _reached(pace: Any) -> Position | None:
    if pace is None or pace.reached_started is None:
        return None
    return (pace.reached_started, pace.reached_game_id)


def _rest_ends(pace: Any, rest: timedelta) -> datetime:
    """When the household's rest after its last replay ends (a clock set back since counts as
    the end now: the rest is never longer than ``rest``)."""
    if pace is None or pace.ended is None:
        return datetime.min.replace(tzinfo=UTC)
    return min(pace.ended, now()) + rest


def _rest_left(connection: Connection, household_id: int, rest: timedelta) -> float:
    return (_rest_ends(_pace(connection, household_id), rest) - now()).total_seconds()


def _keep_pace(
    connection: Connection,
    household_id: int,
    reached: Position | None,
    ended: datetime | None = None,
    began: datetime | None = None,
) -> None:
    """Where the household's replay has reached (None: none is under way) and, where given,
    when the one under way began or the last one ended."""
    household = scope.for_household(household_id)
    values: dict[str, Any] = {
        "reached_started": None if reached is None else reached[0],
        "reached_game_id": None if reached is None else reached[1],
    }
    if began is not None:
        values["began"] = began
    if ended is not None:
        values["ended"] = ended
    if not connection.execute(
        update(paces_t).where(household.owns(paces_t)).values(**values)
    ).rowcount:
        connection.execute(insert(paces_t), [household.row(**values)])
