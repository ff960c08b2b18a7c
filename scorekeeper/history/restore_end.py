"""How a restore ends: what it stored counted once, at its end, and never left half counted.

A restore stores its games a batch at a time with Core inserts (``bulk_loader``), which the
kept statistics' hook does not see: the statistics, the records they hold and the ratings are
rebuilt once, at its end (``restored``). Until then the household's games show on their own
pages while its history counts none of them; a stop of the server (SIGTERM, whose drain of a
few seconds a long restore outlasts) or a crash in between would leave it so for good. So:

- the first batch that stores a game leaves a ``RestoreMark`` in its own transaction, and each
  later batch moves it on (``leave``: how far the file is stored, and what became of its lines);
- the rebuild takes the household's marks away in the transaction that commits the rebuilt
  statistics (``restored``): cut off, it leaves them, and is run again whole from the games;
- a mark whose restore no longer runs (its server stopped or died) is taken up by the next
  ratings' worker to look (``restores.finish_cut_short``, from every server process's first
  request on): the same rebuild, which tells the restore's job how it ended: every line stored,
  finished after the restart; or cut short, its games counted, the file to be read again for
  the rest (reading it again is safe: the games stored are counted as already there).

Whether a mark's restore still runs is told by a lock the restore holds from before its first
batch until after its rebuild, and which its process's end lets go of however it ends
(``Lock``, ``unheld``): on PostgreSQL an advisory lock on a connection of its own (seen by
every server on the database), on SQLite a ``flock`` on a file of the instance folder (seen by
every process on the machine, the only ones a SQLite file has). While a household has a mark,
its history pages say a restore is being finished (``under_way``).
"""

from __future__ import annotations

import contextvars
import fcntl
import os
import queue
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from flask import Flask, current_app
from sqlalchemy import Connection, delete, func, select, update
from sqlalchemy.exc import SQLAlchemyError

from .. import scope
from ..db import reading
from ..derived import RestoreMark
from ..extensions import db
from ..models import RestoreJob, RestoreStatus, utcnow
from . import ratings, stats

_T = TypeVar("_T")

# A key of PostgreSQL's advisory locks (the ratings' replay has 37_0020): one restore of a
# household at a time, or its repair.
RESTORE_LOCK = 40_0003
# The jobs a repair may tell how they ended: those it found still reading.
_READING = (RestoreStatus.QUEUED.value, RestoreStatus.RUNNING.value)


def _lock_file(household_id: int) -> int:
    """The descriptor of the household's lock file (SQLite): ``instance/locks/``, 0700."""
    folder = Path(current_app.instance_path) / "locks"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return os.open(folder / f"restore-{household_id}.lock", os.O_RDWR | os.O_CREAT, 0o600)


def _on_postgresql() -> bool:
    return bool(db.engine.dialect.name == "postgresql")


class Lock:
    """The household's restore lock, held by a running restore from before its first batch
    (``take``) until after its rebuild (``release``). A repair never takes a mark while it is
    held; the process's end lets go of it however the process ends."""

    def __init__(self) -> None:
        self._connection: Connection | None = None
        self._descriptor: int | None = None

    def take(self) -> None:
        """Hold the lock of the household new rows go to (waiting for a repair of it to end);
        nothing where it is held already."""
        if self._connection is not None or self._descriptor is not None:
            return
        household_id = scope.for_writing(db.session).id
        # Outside a request every transaction on SQLite holds the write lock, which a repair
        # holding this lock would wait for: the session holds none while it waits.
        db.session.commit()
        if _on_postgresql():
            connection = db.engine.connect()
            connection.execute(select(func.pg_advisory_lock(RESTORE_LOCK, household_id)))
            connection.commit()
            self._connection = connection
        else:
            descriptor = _lock_file(household_id)
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            self._descriptor = descriptor

    def release(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                connection.execute(select(func.pg_advisory_unlock_all()))
                connection.commit()
            except SQLAlchemyError:
                # Never back to the pool holding it: closed for good, the lock goes with it.
                connection.invalidate()
            finally:
                connection.close()
        descriptor, self._descriptor = self._descriptor, None
        if descriptor is not None:
            os.close(descriptor)  # the lock goes with it


@contextmanager
def unheld(household_id: int) -> Iterator[bool]:
    """Whether no restore of the household runs (its lock is free), holding the lock for the
    block where so: on PostgreSQL until the session's transaction ends (the caller commits or
    rolls back), on SQLite until the block ends."""
    if _on_postgresql():
        yield bool(
            db.session.execute(
                select(func.pg_try_advisory_xact_lock(RESTORE_LOCK, household_id))
            ).scalar()
        )
        return
    descriptor = _lock_file(household_id)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(descriptor)


@dataclass
class Run:
    """One reading of a file: the mark its batches leave (``token``), and its job."""

    job_id: int | None = None
    token: str = field(default_factory=lambda: uuid.uuid4().hex)


def leave(run: Run, lines: int, counts: dict[str, int]) -> None:
    """In the transaction of a batch, before its commit: the run's mark says the file is
    stored up to line ``lines``, with ``counts`` (stored, already, refused) up to there; made
    where the run has none and the batch stored a game (the household's history pages then say
    a restore is being finished: ``services.data_version`` counts the marks)."""
    values = {key: counts[key] for key in ("stored", "already", "refused")}
    moved = db.session.execute(
        update(RestoreMark)
        .where(RestoreMark.run == run.token)
        .values(lines=lines, **values)
        .execution_options(synchronize_session=False)
    )
    if not getattr(moved, "rowcount", 0) and counts["stored"]:
        db.session.add(RestoreMark(run=run.token, job_id=run.job_id, lines=lines, **values))


def read_whole(run: Run) -> None:
    """Every line of the run's file is stored: only its rebuild is left (committed)."""
    db.session.execute(
        update(RestoreMark)
        .where(RestoreMark.run == run.token)
        .values(read_whole=True)
        .execution_options(synchronize_session=False)
    )
    db.session.commit()


def under_way() -> bool:
    """Whether the household in scope has games a restore stored and has not counted yet."""
    return db.session.scalar(select(RestoreMark.id).limit(1)) is not None


def households_marked() -> list[int]:
    """Every household with a mark (a restore running, or one cut short): a read that waits
    for no writer (on SQLite, a restore holds the write lock while it checks a batch)."""
    with reading(), scope.server_wide(scope.ServerWide.RESTORES_LEFT):
        return list(db.session.scalars(select(RestoreMark.household_id).distinct()))


def _take_away(household_id: int, run: Run | None) -> list[int]:
    """In the rebuild's transaction: every mark of the household goes, and the job of each but
    ``run``'s (which its own restore tells) learns how its restore ended. Returns those jobs'
    ids."""
    with scope.household(household_id):
        return _tell_jobs(run)


def _tell_jobs(run: Run | None) -> list[int]:
    told = []
    for mark in db.session.scalars(select(RestoreMark)).all():
        if (run is None or mark.run != run.token) and mark.job_id is not None:
            job = db.session.scalar(select(RestoreJob).where(RestoreJob.id == mark.job_id))
            if job is not None and job.status in _READING:
                if mark.read_whole:
                    job.status = RestoreStatus.REBUILT.value
                    job.lines_done = max(job.lines_done, job.total_lines, mark.lines)
                elif job.cancel_requested:
                    job.status = RestoreStatus.CANCELLED.value
                else:
                    job.status = RestoreStatus.CUT_SHORT.value
                job.lines_done = max(job.lines_done, mark.lines)
                job.stored = max(job.stored, mark.stored)
                job.already = max(job.already, mark.already)
                job.refused = max(job.refused, mark.refused)
                job.finished_at = job.updated_at = utcnow()
                told.append(job.id)
    db.session.execute(delete(RestoreMark).execution_options(synchronize_session=False))
    return told


def stores_aside() -> bool:
    """Whether a restore's batches are stored by a thread of their own while the next batch is
    checked: where the database is a server (PostgreSQL), which then stores one batch while the
    app checks the next, on two cores rather than one after the other. Not on SQLite, where
    the checking thread's own reads (house rules by name) would wait for the storing thread's
    write lock, and hold it."""
    return _on_postgresql()


class Aside:
    """One thread of a restore's own, running what it is handed one thing at a time, each in a
    session of its own (an app context of its own, under the same household and actor: the
    scope's context variables are copied), while the restore's own thread goes on."""

    def __init__(self) -> None:
        # Flask types current_app as the app, not the proxy it is.
        self._app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="restore-aside")

    def submit(self, work: Callable[..., _T], *arguments: Any) -> Future[_T]:
        context = contextvars.copy_context()
        return self._thread.submit(context.run, self._run, work, *arguments)

    def shutdown(self) -> None:
        self._thread.shutdown()

    def _run(self, work: Callable[..., _T], *arguments: Any) -> _T:
        with self._app.app_context():
            try:
                return work(*arguments)
            finally:
                db.session.remove()


def restored(run: Run | None = None) -> list[int]:
    """What a restore that stored games does once, at its end (never per game or batch): the
    household's kept statistics and ratings rebuilt in one pass each, as batches of Core
    inserts left them be, and its restore marks taken away in the statistics' transaction
    (``_take_away``; ``run`` is the restore's own, none for a repair). The household is the one
    in scope, or the database's only one where nothing is scoped. Returns the jobs of other
    runs told how they ended.

    Where the database is a server (``stores_aside``), the ratings are replayed by a thread
    of their own, in a transaction of their own, from the games themselves
    (``ratings.rebuild(from_games=True)``), while this one rebuilds the kept statistics: the
    app replays the one while the server stores the other's rows. The ratings are committed
    only once the statistics are rebuilt, and before them, so that a page caching what it read
    under the statistics' version (the year in review names the rating leader) never keeps old
    ratings under the new version; where either rebuild fails, neither is kept (but for a
    failure of the statistics' commit itself, which leaves the marks to rebuild both again),
    and the error is raised."""
    household_id = scope.for_writing(db.session).id
    if not stores_aside():
        try:
            stats.rebuild(household_id)
            ratings.rebuild(household_id)
            told = _take_away(household_id, run)
            db.session.commit()
        except BaseException:
            db.session.rollback()
            raise
        return told
    aside = Aside()
    # Whether the ratings' thread is to commit: told once the statistics are rebuilt, or not.
    verdict: queue.SimpleQueue[bool] = queue.SimpleQueue()
    try:
        rated = aside.submit(_rebuild_ratings, household_id, verdict)
        try:
            stats.rebuild(household_id)
            told = _take_away(household_id, run)
        except BaseException:
            verdict.put(False)
            raise
        verdict.put(True)
        rated.result()
    except BaseException:
        db.session.rollback()
        raise
    finally:
        # Waits for the thread, however this ended: no restore leaves it running.
        aside.shutdown()
    db.session.commit()
    return told


def _rebuild_ratings(household_id: int, verdict: queue.SimpleQueue[bool]) -> None:
    """The ratings' rebuild beside the statistics' (``restored``): committed only when told to;
    otherwise its session is let go of, rolling it back."""
    ratings.rebuild(household_id, from_games=True)
    if verdict.get():
        db.session.commit()
