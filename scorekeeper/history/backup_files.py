"""The backups the server keeps by itself: each household's backup (``household_file``) written
once a day into ``instance/backups/<household id>/YYYY-MM-DD.jsonl``, and on demand
(``flask history backup``) as ``YYYY-MM-DD-HHMMSS.jsonl``; the last ``BACKUP_KEEP`` (14) of a
household's files are kept, the older deleted.

There is no scheduler. As with the bin's purge (``bin.services.purge_now_and_then``), the app
looks when it starts and then on the first request of each new day (UTC), which costs a
comparison of two times on every other request; the writing itself runs in a thread, so that
request does not wait for it. A failed write is tried again an hour later.

Nothing is ever half-written: a file is written under a temporary name in the same folder,
flushed to disk, then given its name in one step (a hard link, which never replaces a file of
that name). Several processes or servers starting at once do not write the same day's file
twice: each household's folder has a lock (``flock``) that one writer takes, and whoever gets
it looks again whether today's file is there. Files are readable by the server's user only.
"""

from __future__ import annotations

import os
import re
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from pathlib import Path

from flask import Flask, current_app
from sqlalchemy import select

from .. import scope
from ..db import reading
from ..extensions import db
from ..models import Household, utcnow
from . import backup

try:
    import fcntl
except ImportError:  # not on POSIX: the hard link alone keeps a file whole and single
    fcntl = None  # type: ignore[assignment]  # the module, or None where there is none

# What the server names its backups; a name from an address is used only if it is one of these.
NAME = re.compile(r"\A\d{4}-\d{2}-\d{2}(?:-\d{6})?\.jsonl\Z")
RETRY_AFTER = timedelta(hours=1)
# A temporary file this old was left by a writer that stopped: it is deleted when pruning.
STALE_AFTER = timedelta(days=1)
_TEMPORARY = ".writing-"


@dataclass(frozen=True)
class KeptBackup:
    name: str
    written: datetime
    size: int


def folder(household_id: int) -> Path:
    return Path(current_app.instance_path) / "backups" / str(int(household_id))


def daily_name(now: datetime) -> str:
    return f"{now.astimezone(UTC):%Y-%m-%d}.jsonl"


def on_demand_name(now: datetime) -> str:
    return f"{now.astimezone(UTC):%Y-%m-%d-%H%M%S}.jsonl"


def kept(household_id: int) -> list[KeptBackup]:
    """The household's backups, newest first."""
    found = []
    try:
        entries = list(os.scandir(folder(household_id)))
    except FileNotFoundError:
        return []
    for entry in entries:
        if not NAME.match(entry.name) or not entry.is_file(follow_symlinks=False):
            continue
        try:
            status = entry.stat(follow_symlinks=False)
        except FileNotFoundError:  # pruned meanwhile
            continue
        written = datetime.fromtimestamp(status.st_mtime, UTC)
        found.append(KeptBackup(entry.name, written, status.st_size))
    return sorted(found, key=lambda backup: (backup.written, backup.name), reverse=True)


def find(household_id: int, name: str) -> Path | None:
    """The household's backup file called ``name``, or None: a name that is not one the server
    gives its backups (a path, ``..``, anything else) is never looked up."""
    if not NAME.match(name):
        return None
    path = folder(household_id) / name
    if path.is_symlink() or not path.is_file():
        return None
    return path


def write(household_id: int, name: str) -> Path:
    """Write the household's backup as ``name`` in its folder, whole or not at all, and return
    its path. Where a file of that name is there already (another process wrote it a moment
    ago), that one is kept."""
    assert NAME.match(name), name
    place = _made(folder(household_id))
    final = place / name
    descriptor, temporary = tempfile.mkstemp(dir=place, prefix=_TEMPORARY, suffix=".tmp")
    try:
        with (
            os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as out,
            scope.household(household_id),
            reading(),
        ):
            for line in backup.household_lines():
                out.write(line)
            out.flush()
            os.fsync(out.fileno())
        _publish(Path(temporary), final)
    finally:
        db.session.rollback()
        Path(temporary).unlink(missing_ok=True)
    return final


def _made(place: Path) -> Path:
    """``place`` and the ``backups`` folder above it, made readable by the server's user only."""
    place.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    place.mkdir(mode=0o700, exist_ok=True)
    return place


def _publish(temporary: Path, final: Path) -> None:
    """Give the written file its name in one step, never over another file of that name."""
    try:
        os.link(temporary, final)
    except FileExistsError:
        return
    except OSError:  # a file system without hard links: a rename is as atomic
        if not final.exists():
            os.replace(temporary, final)
    try:
        directory = os.open(final.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(directory)
    except OSError:
        pass
    finally:
        os.close(directory)


def prune(household_id: int, keep: int, now: datetime | None = None) -> list[str]:
    """Delete all but the household's ``keep`` newest backups (at least one is kept), and
    temporary files left by a writer that stopped; returns the names of the backups deleted."""
    gone = [backup.name for backup in kept(household_id)[max(1, keep) :]]
    place = folder(household_id)
    for name in gone:
        (place / name).unlink(missing_ok=True)
    limit = (now or utcnow()) - STALE_AFTER
    for leftover in place.glob(f"{_TEMPORARY}*.tmp"):
        try:
            if datetime.fromtimestamp(leftover.stat().st_mtime, UTC) < limit:
                leftover.unlink(missing_ok=True)
        except FileNotFoundError:
            pass
    return gone


@contextmanager
def _writer_of(place: Path) -> Iterator[bool]:
    """Whether this process may write in ``place`` now: False while another one holds it."""
    _made(place)
    if fcntl is None:
        yield True
        return
    descriptor = os.open(place / ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(descriptor)  # the lock goes with it


def write_daily(now: datetime | None = None) -> tuple[list[Path], int]:
    """Write today's backup of every household that has none yet, and prune each to
    ``BACKUP_KEEP``. Returns the files written and the number of households that failed (each
    is logged; the others are still written)."""
    now = now or utcnow()
    keep = int(current_app.config["BACKUP_KEEP"])
    households = db.session.scalars(select(Household.id).order_by(Household.id)).all()
    db.session.rollback()
    written: list[Path] = []
    failed = 0
    for household_id in households:
        place = folder(household_id)
        if (place / daily_name(now)).exists():
            continue
        try:
            with _writer_of(place) as mine:
                if not mine or (place / daily_name(now)).exists():
                    continue
                written.append(write(household_id, daily_name(now)))
                prune(household_id, keep, now)
        except Exception:
            failed += 1
            current_app.logger.exception("the backup of household %d failed", household_id)
    return written, failed


def next_day(now: datetime) -> datetime:
    return datetime.combine(now.astimezone(UTC).date() + timedelta(days=1), time(), tzinfo=UTC)


def backup_now_and_then(app: Flask, now: datetime | None = None) -> None:
    """Write the day's backups where they are due: when the app starts, then on the first
    request of each new day (UTC). Cheap when not due: one comparison."""
    if not app.config["DAILY_BACKUPS"]:
        return
    now = now or utcnow()
    due: datetime | None = app.extensions.get("backups_due")
    if due is not None and now < due:
        return
    lock: threading.Lock = app.extensions.setdefault("backups_lock", threading.Lock())
    if not lock.acquire(blocking=False):
        return  # this process is writing them already
    app.extensions["backups_due"] = next_day(now)
    if app.config["BACKUPS_IN_BACKGROUND"]:
        threading.Thread(
            target=_write_due, args=(app, now, lock), name="daily-backups", daemon=True
        ).start()
    else:
        _write_due(app, now, lock)


def _write_due(app: Flask, now: datetime, lock: threading.Lock) -> None:
    try:
        with app.app_context():
            try:
                _, failed = write_daily(now)
            except Exception:
                app.logger.exception("the daily backups failed")
                failed = 1
            finally:
                db.session.remove()
            if failed:
                app.extensions["backups_due"] = now + RETRY_AFTER
    finally:
        lock.release()
