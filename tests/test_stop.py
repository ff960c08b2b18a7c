"""``flask serve`` stops when asked: on SIGTERM (what ``docker stop``, ``podman stop`` and
systemd send) it finishes the request in hand, refuses new ones, closes the database and
exits with status 0 within 5 s, instead of dying mid-request (or, as a container's first
process, ignoring the signal until it is killed)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from urllib.parse import urlencode

import flask_migrate
import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from bench.load import hidden_fields
from bench.serving import Server, free_port, serve_command, served
from scorekeeper import MIGRATIONS, create_app
from scorekeeper.extensions import db

from .test_behind_proxy import PASSWORD, Phone, port_of

pytestmark = pytest.mark.slow

STOP_BOUND_SECONDS = 5.0


def _environment(instance: Path, database_uri: str, **settings: str) -> dict[str, str]:
    return {
        "SCOREKEEPER_INSTANCE_PATH": str(instance),
        "SCOREKEEPER_SECRET_KEY": "stop",
        "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": database_uri,
        **{f"SCOREKEEPER_{name}": value for name, value in settings.items()},
    }


def _terminate(server: Server) -> tuple[int, float]:
    """Send SIGTERM; the exit status and the seconds it took (the test fails past 10 s)."""
    assert server.process is not None
    started = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    status = server.process.wait(timeout=10)
    return status, time.monotonic() - started


@pytest.mark.parametrize("processes", [1, 2])
def test_sigterm_stops_serve_with_status_0(
    tmp_path: Path, database_uri: str, processes: int
) -> None:
    instance = tmp_path / "instance"
    environment = _environment(instance, database_uri)
    with served(
        environment=environment, processes=processes, ready_path="/healthz", log_folder=tmp_path
    ) as server:
        assert Phone(port_of(server)).ask("GET", "/healthz")[0] == 200
        status, seconds = _terminate(server)
    log = Path(server.log.name).read_text()
    assert status == 0, log
    assert seconds < STOP_BOUND_SECONDS
    # Nothing was in flight: the stop waited for nothing (not the ratings' worker, which the
    # first request started and which any stop may cut off).
    assert "unfinished" not in log, log


def test_sigterm_finishes_the_request_in_flight_and_refuses_new_ones(
    tmp_path: Path, database_uri: str
) -> None:
    """First-run setup, whose password hash takes a while: SIGTERM arrives while it is being
    worked on. The household is made and its answer sent whole; a request half
    sent is dropped, and the port refuses new connections; the database is closed (SQLite
    folds its write-ahead log back into the file) and the status is 0.

    The stop must see the setup in flight however quick the machine: the signal wakes the
    server's loop at once. Before, the loop saw it at its next socket event or after 0.25 s,
    and on a quiet machine the hash (a quarter of a second) was over by then."""
    instance = tmp_path / "instance"
    # Argon2 with 1 pass over 64 MiB: setup takes a tenth of a second on an idle core, far
    # longer than the signal takes to reach the loop, and a second or two on a loaded one,
    # well inside the stop's 4 s.
    environment = _environment(instance, database_uri, PASSWORD_TIME_COST="1")
    with served(environment=environment, ready_path="/healthz", log_folder=tmp_path) as server:
        port = port_of(server)
        owner = Phone(port)
        fields = {
            "household": "The Stoppers",
            "username": "ann",
            "password": PASSWORD,
            "confirm": PASSWORD,
            "setup_code": (instance / "setup_code").read_text().strip(),
        }
        status_code, _headers, page = owner.ask("GET", "/setup")
        assert status_code == 200
        trickling = socket.create_connection(("127.0.0.1", port), timeout=10)
        trickling.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
        setting_up = owner.connection()
        setting_up.request(
            "POST",
            "/setup",
            body=urlencode({**hidden_fields(page), **fields}),
            headers={"Cookie": owner.cookie, "Content-Type": "application/x-www-form-urlencoded"},
        )
        # Another request answered after the setup was sent: the server's loop has read the
        # setup, whose socket was ready first (every ready socket is read at each poll), so
        # the setup is in hand (its hash being made, or about to be). Read until the server
        # closes it, so that it is no longer in flight itself.
        with socket.create_connection(("127.0.0.1", port), timeout=10) as asking:
            asking.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            assert asking.makefile("rb").read().startswith(b"HTTP/1.1 200 ")
        status, seconds = _terminate(server)
        answer = setting_up.getresponse()
        answer.read()
        setting_up.close()
        assert trickling.recv(100) == b""  # closed without an answer
        trickling.close()
        log = Path(server.log.name).read_text()
        assert "stopping: 1 request(s) in flight" in log, log
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
    assert answer.status == 303, log
    assert status == 0, log
    assert seconds < STOP_BOUND_SECONDS, log
    if database_uri.startswith("sqlite"):
        assert not Path(database_uri.removeprefix("sqlite:///") + "-wal").exists()
    # The household is there for the next start.
    with served(
        environment=_environment(instance, database_uri), ready_path="/healthz", log_folder=tmp_path
    ) as again:
        signed_in = Phone(port_of(again))
        status_code, _headers, _page = signed_in.post_form(
            "/login", {"username": "ann", "password": PASSWORD}
        )
        assert status_code == 303


def test_the_setup_code_is_in_the_log_of_every_start_until_setup(
    tmp_path: Path, database_uri: str
) -> None:
    """A container made anew on the same volume (a setting changed) starts a new log: the
    setup code made by the first start is printed by the next as well, and not after setup."""
    instance = tmp_path / "instance"
    environment = _environment(instance, database_uri)
    logs = []
    for _start in range(2):
        with served(environment=environment, ready_path="/healthz", log_folder=tmp_path) as server:
            logs.append(Path(server.log.name).read_text())
            _terminate(server)
    code = (instance / "setup_code").read_text().strip()
    assert all(f"use this setup code:\n\n      {code}\n" in log for log in logs)
    with served(environment=environment, ready_path="/healthz", log_folder=tmp_path) as server:
        owner = Phone(port_of(server))
        status, _headers, page = owner.post_form(
            "/setup",
            {
                "household": "The Stoppers",
                "username": "ann",
                "password": PASSWORD,
                "confirm": PASSWORD,
                "setup_code": code,
            },
        )
        assert status == 303, page[:2000]
    with served(environment=environment, ready_path="/healthz", log_folder=tmp_path) as server:
        assert "setup code" not in Path(server.log.name).read_text()


# The lock a migration holds on PostgreSQL (scorekeeper/migrations/env.py, MIGRATION_LOCK).
MIGRATION_LOCK = 7_211_984


def _emptied(database_uri: str, tmp_path: Path) -> tuple[str, str]:
    """A database with nothing in it (SQLite: a new file; PostgreSQL: the test's database
    taken down to no schema at all), and the query that says a migration is running on it."""
    if database_uri.startswith("sqlite"):
        return f"sqlite:///{tmp_path / 'fresh.db'}", ""
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_uri, "SECRET_KEY": "stop"})
    with app.app_context():
        flask_migrate.downgrade(directory=str(MIGRATIONS), revision="base")
        db.engine.dispose()
    return database_uri, (
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
        f"AND objid = {MIGRATION_LOCK}"
    )


def test_a_sigterm_while_the_database_is_migrated_stops_once_it_is_up_to_date(
    tmp_path: Path, database_uri: str
) -> None:
    """SIGTERM while a fresh database is being brought up to date: the migration is finished
    whole, the server never serves, the status is 0, and the next start serves."""
    uri, migrating = _emptied(database_uri, tmp_path)
    environment = {
        **os.environ,
        "PYTHONPATH": str(Path(__file__).resolve().parent.parent),
        **_environment(tmp_path / "instance", uri),
    }
    engine = create_engine(uri, poolclass=NullPool)
    log = tmp_path / "start.log"
    with log.open("w") as written:
        process = subprocess.Popen(
            serve_command(free_port(), threads=2), env=environment, stdout=written, stderr=written
        )
        try:
            # The moment the migration has begun: SQLite's file is made by the start's first
            # connection, which the migration follows; PostgreSQL shows the migration's lock.
            while process.poll() is None:
                if migrating:
                    with engine.connect() as connection:
                        if connection.execute(text(migrating)).scalar():
                            break
                elif (tmp_path / "fresh.db").exists():
                    break
                time.sleep(0.01)
            process.send_signal(signal.SIGTERM)
            # The stop waits for the migrations (a second or two, far longer on a loaded
            # machine), never for a kill.
            status = process.wait(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    output = log.read_text()
    assert status == 0, output
    assert "Stopped (SIGTERM) once the start was over, before serving." in output
    assert "Serving" not in output
    with engine.connect() as connection:
        version = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    engine.dispose()
    assert version == ScriptDirectory(str(MIGRATIONS)).get_current_head()
    with served(
        environment=_environment(tmp_path / "instance", uri),
        ready_path="/healthz",
        log_folder=tmp_path,
    ) as again:
        assert Phone(port_of(again)).ask("GET", "/healthz")[0] == 200
