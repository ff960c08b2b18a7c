"""The worker that brings the ratings up to date after a save that left them stale.

A save replays at most ``RATINGS_REPLAYED_IN_SAVE`` later games itself; a correction further
back leaves a ``RatingMark`` in its transaction instead (``ratings.refresh``), and the commit
wakes this worker (``after_commit``). It replays ``RATINGS_REPLAY_CHUNK`` games a transaction
(``ratings.replay_marked``), so that a save waits for one part at most, and the household's
statistics version moves with the last part (its history pages are drawn afresh then).

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

from flask import Flask, current_app, g, has_app_context, has_request_context
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from .. import scope
from ..derived import RatingMark
from ..extensions import db
from ..versions import RATINGS_QUEUED
from . import ratings, restores
from .stats.tables import bump_version

# How long an idle worker waits before it looks for marks again (another server's, or one a
# commit's wake missed); and before it tries again a household another process replays.
IDLE_SECONDS = 60.0
BUSY_SECONDS = 1.0
KEY = "rating_worker"
LOOKED = "rating_worker_looked"
# In ``g``: a commit of this request left ratings stale.
WAKE = "rating_worker_wake"

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

    def run(self) -> None:
        while True:
            self.woken.clear()
            self.app.extensions[LOOKED] = time.monotonic()
            with self.app.app_context():
                try:
                    busy = run_pending()
                except SQLAlchemyError:
                    self.app.logger.warning("bringing the ratings up to date failed; trying again")
                    busy = True
                finally:
                    db.session.remove()
            if not self.woken.wait(BUSY_SECONDS if busy else IDLE_SECONDS) and not busy:
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
    """Replay every household's stale ratings to the end, a part a transaction. Returns
    whether a household was left because another process replays it now."""
    # First what a restore cut short by a stop of its server stored: counted, and rated whole
    # (looked at again a second later where a restore holds it).
    busy = restores.finish_cut_short()
    most = int(current_app.config["RATINGS_REPLAY_CHUNK"])
    pause = int(current_app.config["RATINGS_REPLAY_PAUSE_MS"]) / 1000
    for household_id in _stale_households():
        with scope.household(household_id):
            while True:
                try:
                    outcome = ratings.replay_marked(db.session.connection(), household_id, most)
                    if outcome == "done":
                        bump_version(db.session.connection(), scope.for_household(household_id))
                    db.session.commit()
                except BaseException:
                    db.session.rollback()
                    raise
                if outcome == "busy":
                    busy = True
                if outcome != "more":
                    break
                # Between two parts the database is the saves' (SQLite's write lock above all).
                time.sleep(pause)
    return busy
