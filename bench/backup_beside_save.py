"""Benchmark of a save made while a big household is backed up (run by hand, not by the suite).

    .venv/bin/python -m bench.backup_beside_save [--games 10000] [--after 4] [--folder /tmp/bb]

Makes a SQLite database of ``--games`` games in one household (``bench.history``'s generator,
kept in ``--folder`` and reused), then runs ``flask history backup`` in a process of its own
and, ``--after`` seconds after the backup wrote its first line, a write from this process (the
household's time zone set and set back, one transaction as a save is: ``BEGIN IMMEDIATE``
outside a request). It prints how
long the backup took and how long the write waited for the database. Before issue 36 the backup
held SQLite's write lock from its first read to its end, so the write waited until the backup
ended, or failed at the busy timeout (15 s).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import update
from sqlalchemy.exc import OperationalError

from bench.history import prepare
from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Household

BACKUP = """
import sys, time
from scorekeeper import create_app
app = create_app(
    {"SQLALCHEMY_DATABASE_URI": sys.argv[1], "SECRET_KEY": "bench", "DAILY_BACKUPS": False}
)
began = time.perf_counter()
result = app.test_cli_runner().invoke(args=["history", "backup", "--household", sys.argv[2]])
assert result.exit_code == 0, result.output
print(f"{time.perf_counter() - began:.1f}")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--after", type=float, default=4.0)
    parser.add_argument("--folder", type=Path, default=Path("/tmp/scorekeeper-bench-backup"))
    options = parser.parse_args()
    options.folder.mkdir(parents=True, exist_ok=True)
    database = options.folder / f"history-{options.games}.db"
    # The backups are written there too (the child process inherits it), and no app of the
    # bench starts the day's backups by itself: the one measured is the only reader.
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = str(options.folder / "instance")
    os.environ["SCOREKEEPER_DAILY_BACKUPS"] = "false"
    prepare(database, 1, options.games, reuse=database.exists())
    uri = f"sqlite:///{database}"
    app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": "bench"})
    with app.app_context():
        name = db.session.get(Household, 1).name  # type: ignore[union-attr]
        db.session.remove()
    began = time.perf_counter()
    backup = subprocess.Popen(
        [sys.executable, "-c", BACKUP, uri, name], stdout=subprocess.PIPE, text=True
    )
    # The process takes a while to start: the seconds count from the backup's first line.
    folder = options.folder / "instance" / "backups" / "1"
    while not any(p.stat().st_size for p in folder.glob(".writing-*")) and backup.poll() is None:
        time.sleep(0.01)
    time.sleep(options.after)
    asked = time.perf_counter()
    outcome = "saved"
    with app.app_context():
        try:
            for zone in ("Europe/Berlin", None):
                db.session.execute(
                    update(Household).where(Household.id == 1).values(time_zone=zone)
                )
                db.session.commit()
        except OperationalError as error:
            outcome = f"failed: {error.orig}"
            db.session.rollback()
        db.session.remove()
    waited = time.perf_counter() - asked
    running = backup.poll() is None
    took = backup.communicate()[0].strip()
    print(
        f"backup of {options.games} games: {took} s (its process); a write {options.after:.0f} s "
        f"in {outcome} after {waited:.2f} s (the backup {'still running' if running else 'over'} "
        f"then); {time.perf_counter() - began:.1f} s in all"
    )


if __name__ == "__main__":
    main()
