"""Restores that do not stop the table: an uploaded backup is saved under
``instance/restores/`` and read by a background thread, its progress kept in ``RestoreJob``.

The job's row is where every server process reads how far it got: the thread writes it as it
goes (at least every ``PROGRESS_SECONDS``) and reads back, after every batch of games (one
transaction, ``backup.BATCH_GAMES`` games at most), whether someone asked it to stop. A job
still ``running`` whose row has not moved for ``INTERRUPTED_AFTER`` was left behind by a server
that stopped; uploading the file again is safe, as the games already restored are counted as
already there. A household reads one backup at a time (``AT_ONCE``): each holds a thread and
the database's write lock batch after batch, and a second upload while one is read is refused
with a message, at the file's field. The job's notes and its refused lines' problems are kept as
messages (``changelog.stored``), each shown in the language of whoever reads the job's page.

A restore cut short by a stop of its server (or a crash) leaves the games it stored marked
(``restore_end``); the next server process to look (its ratings' worker, from its first request
on) counts them and tells the job how it ended (``finish_cut_short``): ``REBUILT`` where every
line was stored, ``CUT_SHORT`` where the file is to be read again for the rest.
"""

from __future__ import annotations

import os
import threading
import time
from contextlib import closing
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, BinaryIO

from flask import Flask, current_app
from sqlalchemy import and_, delete, or_, select, update

from .. import scope
from ..extensions import db
from ..games import changelog
from ..models import Household, RestoreJob, RestoreStatus, utcnow
from . import backup, restore_end

CHUNK = 64 * 1024
PROGRESS_SECONDS = 0.5
INTERRUPTED_AFTER = timedelta(minutes=2)
# The refused lines a job lists one by one; the count goes on past them.
REFUSED_LINES_KEPT = 500
# How long a finished job's row (its counts and refused lines) is kept for its page.
JOBS_KEPT_FOR = timedelta(days=30)
FINISHED = {
    RestoreStatus.DONE,
    RestoreStatus.CANCELLED,
    RestoreStatus.FAILED,
    RestoreStatus.REBUILT,
    RestoreStatus.CUT_SHORT,
}
# Restores a household may have being read at once.
AT_ONCE = 1


class RestoreBusy(RuntimeError):
    """The household is reading as many backups as it may at once; ``job_id`` is one of them."""

    def __init__(self, job_id: int) -> None:
        super().__init__(
            "A backup is being read already: wait until it is done, or stop it, "
            "then read this file."
        )
        self.job_id = job_id


def upload_path(job_id: int) -> Path:
    return Path(current_app.instance_path) / "restores" / f"{job_id}.jsonl"


def save_upload(stream: BinaryIO, path: Path) -> int:
    """Copy ``stream`` to ``path`` (readable by the server's user only) a chunk at a time,
    and return its number of lines (a last line without a newline counts)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    lines = 0
    last = b"\n"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        while chunk := stream.read(CHUNK):
            out.write(chunk)
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    return lines + (last != b"\n")


def start(stream: BinaryIO) -> int:
    """Save the upload, record its job and start reading it: in a background thread, or
    before returning where ``RESTORE_IN_BACKGROUND`` is off (tests). Returns the job's id.
    Raises ``RestoreBusy`` where the household reads ``AT_ONCE`` backups already."""
    _check_room()
    job = RestoreJob()
    db.session.add(job)
    db.session.flush()
    job_id, household_id = job.id, job.household_id
    path = upload_path(job_id)
    try:
        job.total_lines = save_upload(stream, path)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        path.unlink(missing_ok=True)
        raise
    # Nothing more of this session until the job is read: on SQLite, a request that writes
    # would hold the database's write lock from its next statement on.
    # Flask types current_app as the app, not the proxy it is.
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    arguments = (app, job_id, household_id, scope.actor())
    if app.config["RESTORE_IN_BACKGROUND"]:
        threading.Thread(target=run, args=arguments, name=f"restore-{job_id}", daemon=True).start()
    else:
        run(*arguments)
    return job_id


def _check_room() -> None:
    """Raise ``RestoreBusy`` where the household reads ``AT_ONCE`` backups already (a job left
    behind by a stopped server does not count). Two uploads at once are counted one after the
    other: on PostgreSQL the household's row is locked until the new job is stored (SQLite's
    write lock, taken from the request's first statement, does the same)."""
    household = scope.current()
    if isinstance(household, int):
        db.session.execute(select(Household.id).where(Household.id == household).with_for_update())
    reading = db.session.scalars(
        select(RestoreJob.id)
        .where(
            RestoreJob.status.in_([RestoreStatus.QUEUED.value, RestoreStatus.RUNNING.value]),
            RestoreJob.updated_at > utcnow() - INTERRUPTED_AFTER,
        )
        .order_by(RestoreJob.id)
    ).all()
    if len(reading) >= AT_ONCE:
        db.session.rollback()
        raise RestoreBusy(reading[0])


def run(app: Flask, job_id: int, household_id: int, actor: str) -> None:
    """Read job ``job_id``'s saved upload, a batch of games at a time, keeping its row up to
    date; the upload is deleted when the job ends, however it ends."""
    with app.app_context(), scope.household(household_id), scope.acting_as(actor):
        path = upload_path(job_id)
        try:
            _read(job_id, path)
        except Exception:
            app.logger.exception("restore %d failed", job_id)
            db.session.rollback()
            _write(job_id, status=RestoreStatus.FAILED.value, finished_at=utcnow())
        finally:
            path.unlink(missing_ok=True)
            db.session.remove()


def _read(job_id: int, path: Path) -> None:
    counts = {"stored": 0, "already": 0, "refused": 0}
    refused: list[list[Any]] = []
    notes: list[str] = []
    done = 0
    _write(job_id, status=RestoreStatus.RUNNING.value)
    saved = time.monotonic()
    status = RestoreStatus.DONE
    pause = int(current_app.config["RESTORE_BATCH_PAUSE_MS"]) / 1000
    with (
        path.open("rb") as stream,
        closing(backup.read_backup_batches(stream, job_id)) as batches,
    ):
        for batch in batches:
            for line in batch:
                done = line.number
                if line.outcome == "household":
                    notes.extend(changelog.stored(note) for note in line.notes)
                    _write(job_id, notes=list(notes))
                    continue
                counts[line.outcome] += 1
                if line.outcome == "refused" and len(refused) < REFUSED_LINES_KEPT:
                    refused.append([line.number, [changelog.stored(p) for p in line.problems]])
            if _cancel_requested(job_id):
                status = RestoreStatus.CANCELLED
                break
            if time.monotonic() - saved >= PROGRESS_SECONDS:
                _write(job_id, lines_done=done, refused_lines=list(refused), **counts)
                saved = time.monotonic()
            if pause:
                # Its progress shown, and no transaction held (on SQLite, the write lock).
                _write(job_id, lines_done=done, refused_lines=list(refused), **counts)
                time.sleep(pause)
    if status is RestoreStatus.DONE:
        total = db.session.scalar(select(RestoreJob.total_lines).where(RestoreJob.id == job_id))
        done = max(done, total or 0)
    _write(
        job_id,
        status=status.value,
        lines_done=done,
        refused_lines=refused,
        finished_at=utcnow(),
        **counts,
    )


def _cancel_requested(job_id: int) -> bool:
    return bool(
        db.session.scalar(select(RestoreJob.cancel_requested).where(RestoreJob.id == job_id))
    )


def _write(job_id: int, **values: Any) -> None:
    db.session.execute(
        update(RestoreJob).where(RestoreJob.id == job_id).values(updated_at=utcnow(), **values)
    )
    db.session.commit()


def interrupted(job: RestoreJob) -> bool:
    """Whether ``job`` was left running by a server that stopped (its row stopped moving)."""
    if job.status not in (RestoreStatus.QUEUED, RestoreStatus.RUNNING):
        return False
    return utcnow() - job.updated_at > INTERRUPTED_AFTER


def cancel(job: RestoreJob) -> None:
    """Ask ``job`` to stop after the batch of games it is storing; a job left behind by a
    stopped server is marked cancelled at once, and its upload deleted."""
    if job.status in FINISHED:
        return
    if interrupted(job):
        job.status = RestoreStatus.CANCELLED.value
        job.finished_at = utcnow()
        upload_path(job.id).unlink(missing_ok=True)
    job.cancel_requested = True
    db.session.commit()


def finish_cut_short() -> bool:
    """Count what restores cut short by a stop of their server stored (``restore_end``): in
    every household with a restore mark that no restore holds now, the kept statistics, records
    and ratings rebuilt from its games, its marks taken away and their jobs told how they ended,
    in one transaction; their saved uploads are deleted. Cut off in its turn, it is done again
    whole at the next look. Run by the ratings' worker (``rating_worker.run_pending``), which
    looks again a second later where this returns True: a household's mark was left because a
    restore holds it (one reading now, or one whose stopped process the database has not yet
    let go of)."""
    held = False
    for household_id in restore_end.households_marked():
        with scope.household(household_id):
            try:
                with restore_end.unheld(household_id) as free:
                    # Looked at again under the lock: the restore may have ended meanwhile.
                    told = restore_end.restored() if free and restore_end.under_way() else []
            finally:
                # Where nothing was rebuilt: the lock's transaction (PostgreSQL) ends here.
                db.session.rollback()
            held = held or not free
            for job_id in told:
                current_app.logger.info("restore %d was cut short: its games are counted", job_id)
                upload_path(job_id).unlink(missing_ok=True)
    return held


def latest() -> RestoreJob | None:
    """The household's newest restore, for the backup page."""
    return db.session.scalar(select(RestoreJob).order_by(RestoreJob.id.desc()).limit(1))


def tidy(now: datetime | None = None) -> tuple[int, int]:
    """The restores' housekeeping, in every household (run with the bin's daily purge, and
    so when the app starts): delete the rows of jobs finished more than ``JOBS_KEPT_FOR``
    ago, and the saved uploads of jobs left behind by a server that stopped (their rows stay,
    read as interrupted, or as the restore that counted their games told them). Returns (rows
    deleted, uploads deleted)."""
    now = now or utcnow()
    with scope.server_wide(scope.ServerWide.HOUSEKEEPING):
        result = db.session.execute(
            delete(RestoreJob)
            .where(
                RestoreJob.status.in_([status.value for status in FINISHED]),
                RestoreJob.finished_at < now - JOBS_KEPT_FOR,
            )
            .execution_options(synchronize_session=False)
        )
        forgotten = int(getattr(result, "rowcount", 0) or 0)
        db.session.commit()
        stale = db.session.scalars(
            select(RestoreJob.id).where(
                or_(
                    and_(
                        RestoreJob.status.in_(
                            [RestoreStatus.QUEUED.value, RestoreStatus.RUNNING.value]
                        ),
                        RestoreJob.updated_at < now - INTERRUPTED_AFTER,
                    ),
                    # Ended by a stop of its server and finished by another restore's end.
                    RestoreJob.status.in_(
                        [RestoreStatus.REBUILT.value, RestoreStatus.CUT_SHORT.value]
                    ),
                )
            )
        ).all()
    removed = 0
    for job_id in stale:
        path = upload_path(job_id)
        if path.exists():
            path.unlink(missing_ok=True)
            removed += 1
    return forgotten, removed
