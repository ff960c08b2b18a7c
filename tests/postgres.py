"""A throwaway PostgreSQL server for the test session, on loopback only.

``SCOREKEEPER_TEST_POSTGRES_URI`` names a server to use instead. Otherwise, where Debian's
PostgreSQL server is installed (``apt-get install postgresql``; ``.ci/run`` does it), the suite
makes a cluster in a temporary folder, starts it on 127.0.0.1 and a free port, and stops it at
the end. As root it runs the server as the ``postgres`` user, which PostgreSQL insists on.

The suite's workers (pytest-xdist) share one such server, each on a database of its own
(``shared_server_database``); a test that restarts its server has one of its own
(``running_server``).
"""

from __future__ import annotations

import fcntl
import glob
import itertools
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine, make_url, text

URI_VARIABLE = "SCOREKEEPER_TEST_POSTGRES_URI"
# The servers this module started, by URI: the pg_ctl command that controls each.
_STARTED: dict[str, list[str]] = {}
_OWN_DATABASES = itertools.count()


def restart_server(uri: str) -> bool:
    """Stop the server of ``uri`` (fast: every connection is cut) and start it again; False
    for a server this module did not start."""
    pg_ctl = _STARTED.get(uri)
    if pg_ctl is None:
        return False
    # Not captured: the restarted server inherits pg_ctl's output and would hold a pipe open.
    subprocess.run(
        _as_server_user([*pg_ctl, "-m", "fast", "-w", "restart"]),
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=60,
    )
    return True


def server_binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)
    if found:
        return Path(found[0]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@dataclass(frozen=True)
class _Cluster:
    """A server this module made: its folder (data and socket), port and pg_ctl command."""

    root: Path
    port: int
    pg_ctl: list[str]

    def uri(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"


def _start_cluster(binaries: Path) -> _Cluster:
    root = Path(tempfile.mkdtemp(prefix="scorekeeper-pg-"))
    data = root / "data"
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    port = free_port()
    run = subprocess.run
    initdb = [str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust"]
    run(_as_server_user([*initdb, "-E", "UTF8"]), check=True, capture_output=True)
    # Durability is pointless for a throwaway test server; speed is not.
    settings = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    # Every worker of a parallel run (pytest-xdist) holds its own pools on a shared server.
    options = f"-h 127.0.0.1 -p {port} -k {root} {settings} -c max_connections=400"
    pg_ctl = [str(binaries / "pg_ctl"), "-D", str(data)]
    start = [*pg_ctl, "-o", options, "-l", str(root / "log"), "-w", "start"]
    cluster = _Cluster(root, port, pg_ctl)
    try:
        run(_as_server_user(start), check=True, capture_output=True)
        for _ in range(50):
            ready = run(
                [str(binaries / "pg_isready"), "-h", "127.0.0.1", "-p", str(port)],
                capture_output=True,
            )
            if ready.returncode == 0:
                break
            time.sleep(0.1)
    except BaseException:
        _stop_cluster(cluster)
        raise
    return cluster


def _stop_cluster(cluster: _Cluster) -> None:
    subprocess.run(
        _as_server_user([*cluster.pg_ctl, "-m", "immediate", "stop"]), capture_output=True
    )
    shutil.rmtree(cluster.root, ignore_errors=True)


def _create_database(uri: str, name: str) -> str:
    """Make the empty database ``name`` on the server of ``uri`` (dropping one an earlier run
    left); its URI."""
    _drop_database(uri, name)
    engine = create_engine(uri, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return make_url(uri).set(database=name).render_as_string(hide_password=False)


def _drop_database(uri: str, name: str) -> None:
    """Drop the database ``name`` from the server of ``uri`` (another of its databases)."""
    engine = create_engine(uri, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        engine.dispose()


@contextmanager
def running_server() -> Iterator[str | None]:
    """Yield a URI of a server of its own with an empty database ``scorekeeper_test``, or None
    (a test that restarts its server has one of these, as has ``deploy/two-servers``)."""
    given = os.environ.get(URI_VARIABLE)
    if given and not os.environ.get("PYTEST_XDIST_WORKER"):
        yield given
        return
    if given:
        # Beside the parallel workers' databases, one of its own.
        name = f"scorekeeper_test_{os.getpid()}_{next(_OWN_DATABASES)}"
        try:
            yield _create_database(given, name)
        finally:
            _drop_database(given, name)
        return
    binaries = server_binaries()
    if binaries is None:
        yield None
        return
    cluster = _start_cluster(binaries)
    uri = ""
    try:
        address = ["-h", "127.0.0.1", "-p", str(cluster.port), "-U", "postgres"]
        createdb = [str(binaries / "createdb"), *address, "scorekeeper_test"]
        subprocess.run(createdb, check=True, capture_output=True)
        uri = cluster.uri("scorekeeper_test")
        _STARTED[uri] = cluster.pg_ctl
        yield uri
    finally:
        _STARTED.pop(uri, None)
        _stop_cluster(cluster)


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the lock file ``path`` (made where missing) until the block ends: one worker of
    a parallel run at a time."""
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@contextmanager
def shared_server_database(folder: Path, worker: str) -> Iterator[str | None]:
    """Yield a URI of an empty database ``scorekeeper_test_<worker>``, the worker's own, on the
    one server that every worker of the run shares, or None.

    ``folder`` is the run's own (every worker sees it): the first worker to need the server
    starts it and notes it there, under a lock; the last to finish stops it. One server for
    all is cheaper than one each (an initdb is a second or two of CPU, and each idle server
    holds its memory); a database each keeps the workers' tests apart. With
    ``SCOREKEEPER_TEST_POSTGRES_URI`` a run of one process uses the database it names, and
    parallel workers make theirs beside it on that server (its user needs CREATEDB).
    """
    name = f"scorekeeper_test_{worker}"
    given = os.environ.get(URI_VARIABLE)
    if given and worker == "main":
        yield given
        return
    if given:
        uri = _create_database(given, name)
        try:
            yield uri
        finally:
            _drop_database(given, name)
        return
    binaries = server_binaries()
    if binaries is None:
        yield None
        return
    noted = folder / "postgres.json"
    with locked(folder / "postgres.lock"):
        if noted.exists():
            state = json.loads(noted.read_text())
            cluster = _Cluster(Path(state["root"]), state["port"], state["pg_ctl"])
        else:
            cluster = _start_cluster(binaries)
            state = {"root": str(cluster.root), "port": cluster.port, "pg_ctl": cluster.pg_ctl}
            state["users"] = 0
        state["users"] += 1
        noted.write_text(json.dumps(state))
    try:
        yield _create_database(cluster.uri("postgres"), name)
    finally:
        with locked(folder / "postgres.lock"):
            state = json.loads(noted.read_text())
            state["users"] -= 1
            if state["users"] == 0:
                _stop_cluster(cluster)
                noted.unlink()
            else:
                noted.write_text(json.dumps(state))
                _drop_database(cluster.uri("postgres"), name)


def wait_for_lock_waiters(uri: str, count: int, seconds: float = 120) -> None:
    """Return once ``count`` connections to the database of ``uri`` wait for a lock (a row
    another holds), however long a busy machine takes to get them there; fail after
    ``seconds``, for a hang."""
    engine = create_engine(uri, isolation_level="AUTOCOMMIT")
    waiting = text(
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE datname = current_database() AND wait_event_type = 'Lock'"
    )
    deadline = time.monotonic() + seconds
    try:
        with engine.connect() as connection:
            while (found := connection.scalar(waiting)) < count:
                assert time.monotonic() < deadline, f"{found} of {count} waited for a lock"
                time.sleep(0.02)
    finally:
        engine.dispose()
