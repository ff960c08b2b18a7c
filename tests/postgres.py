"""A throwaway PostgreSQL server for the test session, on loopback only.

``SCOREKEEPER_TEST_POSTGRES_URI`` names a server to use instead. Otherwise, where Debian's
PostgreSQL server is installed (``apt-get install postgresql``; ``.ci/run`` does it), the suite
makes a cluster in a temporary folder, starts it on 127.0.0.1 and a free port, and stops it at
the end. As root it runs the server as the ``postgres`` user, which PostgreSQL insists on.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

URI_VARIABLE = "SCOREKEEPER_TEST_POSTGRES_URI"
# The servers this module started, by URI: the pg_ctl command that controls each.
_STARTED: dict[str, list[str]] = {}


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


@contextmanager
def running_server() -> Iterator[str | None]:
    """Yield a URI of a server with an empty database ``scorekeeper_test``, or None."""
    if os.environ.get(URI_VARIABLE):
        yield os.environ[URI_VARIABLE]
        return
    binaries = server_binaries()
    if binaries is None:
        yield None
        return
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
    options = f"-h 127.0.0.1 -p {port} -k {root} {settings} -c max_connections=200"
    pg_ctl = [str(binaries / "pg_ctl"), "-D", str(data)]
    start = [*pg_ctl, "-o", options, "-l", str(root / "log"), "-w", "start"]
    run(_as_server_user(start), check=True, capture_output=True)
    uri = ""
    try:
        for _ in range(50):
            ready = run(
                [str(binaries / "pg_isready"), "-h", "127.0.0.1", "-p", str(port)],
                capture_output=True,
            )
            if ready.returncode == 0:
                break
            time.sleep(0.1)
        address = ["-h", "127.0.0.1", "-p", str(port), "-U", "postgres"]
        createdb = [str(binaries / "createdb"), *address, "scorekeeper_test"]
        run(createdb, check=True, capture_output=True)
        uri = f"postgresql+psycopg://postgres@127.0.0.1:{port}/scorekeeper_test"
        _STARTED[uri] = pg_ctl
        yield uri
    finally:
        _STARTED.pop(uri, None)
        run(
            _as_server_user([*pg_ctl, "-m", "immediate", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)
