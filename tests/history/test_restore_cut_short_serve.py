"""Issue 40, item 3, through ``flask serve``: a restore stopped by SIGTERM (the server drains for
a few seconds, then exits) or SIGKILL after its first batch of games is counted once the server
starts again: the history, records and ratings hold every game it stored, as a rebuild from
scratch does, and the owner reads on the job's page and the backup page that it was cut short
and is to be run again. (Before, the games stayed stored and counted nowhere, for good.)"""

from __future__ import annotations

import signal
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Flask
from sqlalchemy import create_engine, func, select

from bench.load import hidden_fields
from bench.restore import write_backup
from bench.serving import served
from scorekeeper import create_app
from scorekeeper.derived import GameStat, RestoreMark
from scorekeeper.extensions import db
from scorekeeper.history import backup
from scorekeeper.models import Game, Household

from ..test_behind_proxy import Phone, port_of, set_up
from .test_kept_stats import assert_kept_equals_scratch
from .test_ratings import assert_kept_equals_replay

pytestmark = pytest.mark.slow

# One batch of games is stored, and the restore pauses before the next.
FIRST = backup.BATCH_GAMES
GAMES = FIRST + 10
UNDER_WAY = "A restore is being finished: the games it stored are counted here once it is done."


@pytest.fixture(scope="module")
def backup_file(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("backup") / "games.jsonl"
    write_backup(path, GAMES)
    return path.read_bytes()


def _upload(phone: Phone, raw: bytes) -> str:
    """The backup sent as the restore form sends it; the job page's path."""
    status, _headers, page = phone.ask("GET", "/history/backup")
    assert status == 200, page[:500]
    boundary = "cut-short-restore"
    head = (
        f"--{boundary}\r\nContent-Disposition: form-data; name=csrf_token\r\n\r\n"
        f"{hidden_fields(page)['csrf_token']}\r\n"
        f'--{boundary}\r\nContent-Disposition: form-data; name=file; filename="games.jsonl"\r\n'
        "Content-Type: application/x-ndjson\r\n\r\n"
    )
    connection = phone.connection()
    try:
        connection.request(
            "POST",
            "/history/backup",
            body=head.encode() + raw + f"\r\n--{boundary}--\r\n".encode(),
            headers={
                "Cookie": phone.cookie,
                "Content-Type": f"multipart/form-data; boundary={boundary}",
            },
        )
        answer = connection.getresponse()
        answer.read()
    finally:
        connection.close()
    assert answer.status == 303, answer.status
    return urlsplit(answer.headers["Location"]).path


def _state(uri: str) -> tuple[int, int, list[tuple[int, int]]]:
    """(games, kept game rows, marks as (lines, games stored)), read beside the server."""
    engine = create_engine(uri)
    with engine.connect() as connection:
        found = (
            int(connection.execute(select(func.count(Game.id))).scalar_one()),
            int(connection.execute(select(func.count(GameStat.game_id))).scalar_one()),
            [
                (int(lines), int(stored))
                for lines, stored in connection.execute(
                    select(RestoreMark.lines, RestoreMark.stored)
                )
            ],
        )
    engine.dispose()
    return found


def _wait_for(uri: str, wanted: tuple[int, int, list[tuple[int, int]]], what: str) -> None:
    deadline = time.monotonic() + 120
    while (found := _state(uri)) != wanted:
        assert time.monotonic() < deadline, f"{what}: {found}"
        time.sleep(0.05)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_a_restore_cut_short_by_a_stop_is_counted_after_the_restart(
    database_uri: str, tmp_path: Path, backup_file: bytes, stop: signal.Signals
) -> None:
    instance = tmp_path / "instance"
    environment = {
        "SCOREKEEPER_INSTANCE_PATH": str(instance),
        "SCOREKEEPER_SECRET_KEY": "cut short",
        "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": database_uri,
        "SCOREKEEPER_DAILY_BACKUPS": "false",
        "SCOREKEEPER_PASSWORD_TIME_COST": "1",
        "SCOREKEEPER_PASSWORD_MEMORY_KIB": "8",
        # After each batch the restore waits a minute: it is caught between its first batch
        # and its second, whatever the machine's speed (the stop comes well before).
        "SCOREKEEPER_RESTORE_BATCH_PAUSE_MS": "60000",
    }
    with served(environment=environment, ready_path="/healthz", log_folder=tmp_path) as server:
        owner = set_up(port_of(server), instance)
        job = _upload(owner, backup_file)
        _wait_for(database_uri, (FIRST, 0, [(FIRST, FIRST)]), "the first batch was not stored")
        # Stored, not yet counted: the history says a restore is being finished.
        assert UNDER_WAY in owner.ask("GET", "/history")[2]
        assert server.process is not None
        server.process.send_signal(stop)
        status = server.process.wait(timeout=30)
        assert status == (0 if stop == signal.SIGTERM else -signal.SIGKILL), status
        # The stop left the games stored, uncounted, and marked.
        assert _state(database_uri) == (FIRST, 0, [(FIRST, FIRST)])
        server.start()
        # The restarted server's first request starts its ratings' worker, which counts them.
        owner.ask("GET", "/history")
        _wait_for(database_uri, (FIRST, FIRST, []), "the restore was not counted after the restart")
        history = owner.ask("GET", "/history")[2]
        assert UNDER_WAY not in history and "No game has been played yet" not in history
        page = owner.ask("GET", job)[2]
        assert "Cut short: run it again." in page, page
        assert f"The server stopped after line {FIRST} of {GAMES}." in page
        assert "The last restore" in owner.ask("GET", "/history/backup")[2]
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_uri, "SECRET_KEY": "x"})
    household = _household(app)
    assert_kept_equals_scratch(app, household, "after the restart")
    assert_kept_equals_replay(app, household, "after the restart")
    with app.app_context():
        db.engine.dispose()


def _household(app: Flask) -> int:
    with app.app_context():
        found = db.session.scalar(select(Household.id))
        db.session.remove()
    assert found is not None
    return int(found)
