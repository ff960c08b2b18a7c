"""A backup or an export never holds up a save (issue 36, finding 6).

Outside a request, a transaction used to begin ``BEGIN IMMEDIATE`` on SQLite: a backup of a big
household held the write lock from start to end, and every save of the server waited for it
(past the busy timeout). Long reads now run inside ``db.reading()``: deferred on SQLite (WAL
lets the save go on beside the read), REPEATABLE READ and READ ONLY on PostgreSQL. Here a save
answers within a second while a backup of a few thousand games is being written by ``flask
history backup`` (the daily backup's ``backup_files.write``) or ``flask history export``.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.history import backup_files
from scorekeeper.models import Game

from ..conftest import family_id
from ..helpers import game_document, import_lines, save_round, start_game, twelve_step_to_the_end

GAMES = 2000
NAMES = ["Ann", "Ben", "Cy", "Dee"]

# ``flask history backup`` (what the daily backup writes, ``backup_files.write``) or ``flask
# history export``, in a process of its own: the save is then held up by the database alone,
# not by a reader sharing this process's interpreter.
COMMAND = """
import sys
from scorekeeper import create_app
app = create_app(
    {"SQLALCHEMY_DATABASE_URI": sys.argv[1], "SECRET_KEY": "x", "DAILY_BACKUPS": False}
)
result = app.test_cli_runner().invoke(args=sys.argv[2:])
print(result.output)
sys.exit(result.exit_code)
"""
ARGUMENTS = {
    "backup": ["history", "backup", "--household", "Family"],
    "export": ["history", "export", "--household", "Family", "--output"],
}


def _history(app: Flask, games: int) -> None:
    """``games`` finished games of 12 rounds, restored as a backup would be."""
    rounds = twelve_step_to_the_end(NAMES)
    lines = b"".join(
        json.dumps(
            game_document(
                "twelve-step",
                NAMES,
                rounds,
                uid=f"history-{number:06d}",
                started=f"2025-{1 + number % 12:02d}-{1 + number % 28:02d}T19:30:00+00:00",
            )
        ).encode()
        + b"\n"
        for number in range(games)
    )
    with app.app_context(), scope.household(family_id(app)):
        report = import_lines(io.BytesIO(lines))
        db.session.remove()
    assert len(report.stored) == games, report.refused[:3]


def _wait_for(what: str, ready: threading.Event, done: threading.Event) -> None:
    deadline = time.monotonic() + 120
    while not ready.is_set():
        assert not done.is_set(), f"the {what} ended before the save was tried"
        assert time.monotonic() < deadline, f"the {what} never began"
        time.sleep(0.01)


def _growing(path: Path, ready: threading.Event, done: threading.Event) -> None:
    """Set ``ready`` once the reader has written its first line (its read has begun)."""
    while not done.is_set():
        candidates = [path] if path.suffix else list(path.glob(".writing-*"))
        if any(p.exists() and p.stat().st_size > 0 for p in candidates):
            ready.set()
            return
        time.sleep(0.005)


def _save(client: FlaskClient, playing: int) -> float:
    """Save a round twice (the machine may be busy with other work): the quicker's time. A
    save that is refused (503: the database stayed locked past the busy timeout) fails."""
    took = []
    for _ in range(2):
        began = time.perf_counter()
        saved = save_round(
            client, playing, "Ann", {"Ben": "5", "Cy": "K", "Dee": "Q"}, {"Ben"}, expect=None
        )
        took.append(time.perf_counter() - began)
        assert saved.status_code == 302, f"answered {saved.status_code} after {took[-1]:.2f} s"
    return min(took)


def _save_beside(app: Flask, client: FlaskClient, playing: int, read: str, tmp: Path) -> None:
    """Start the long read, save a round while it runs: it takes at most a second longer than
    the same save alone (on a loaded machine a save takes a while by itself, and the reader
    shares the processors with it: what is measured is the wait for the database)."""
    alone = _save(client, playing)
    ready, done = threading.Event(), threading.Event()
    failure: list[BaseException] = []

    arguments = ARGUMENTS[read]
    if read == "backup":
        household = family_id(app)
        with app.app_context():
            watched = backup_files.folder(household)
        watched.mkdir(parents=True, exist_ok=True)
    else:
        watched = tmp / "export.jsonl"
        arguments = [*arguments, str(watched)]
    uri = app.config["SQLALCHEMY_DATABASE_URI"]

    def run() -> None:
        try:
            finished = subprocess.run(
                [sys.executable, "-c", COMMAND, uri, *arguments],
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            if finished.returncode != 0:
                failure.append(AssertionError(finished.stdout + finished.stderr))
        finally:
            done.set()

    reader = threading.Thread(target=run, name=f"long-{read}")
    reader.start()
    watcher = threading.Thread(target=_growing, args=(watched, ready, done))
    watcher.start()
    try:
        _wait_for(read, ready, done)
        took = _save(client, playing)
        waited = took - alone
        assert waited < 1.0, f"the save took {took:.2f} s beside the {read}, {alone:.2f} s alone"
        assert not done.is_set(), f"the {read} ended before the save answered: prove nothing"
    finally:
        reader.join(300)
        watcher.join(5)
    assert not failure, failure


@pytest.mark.slow
@pytest.mark.parametrize("read", ["backup", "export"])
def test_a_save_answers_within_a_second_while_a_backup_is_written(
    app: Flask, client: FlaskClient, tmp_path: Path, read: str
) -> None:
    playing = start_game(client, "twelve-step", NAMES)
    _history(app, GAMES)
    _save_beside(app, client, playing, read, tmp_path)
    household = family_id(app)
    with app.app_context(), scope.household(household):
        uid = db.session.scalar(select(Game.uid).where(Game.id == playing))
        db.session.remove()
        if read == "backup":
            (written,) = backup_files.kept(household)
            path = backup_files.find(household, written.name)
            assert path is not None
            lines = path.read_text(encoding="utf-8").splitlines()[1:]  # the household's first
        else:
            lines = (tmp_path / "export.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == GAMES + 1
    # Every game as it was when the read began: the game in play with the two rounds saved
    # before it, not the two saved beside it (one snapshot, on PostgreSQL too).
    (in_play,) = [game for line in lines if (game := json.loads(line))["uid"] == uid]
    assert len(in_play["rounds"]) == 2
