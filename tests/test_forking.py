"""``flask serve --processes N`` forks its server processes with no other thread of its own
running: a fork runs only the thread that forked, and a lock another thread held at that
instant (one of SQLite's, a pool's) stays held in the child, which then answers nothing. CI
saw it: the start's daily backups were being written as two processes were forked, and one of
them answered none of the requests the kernel handed it.

The command runs in a process of its own (spawned: no thread of the test's worker in it) with
``os.fork`` standing in: it records which threads were running at each fork and starts no
process."""

from __future__ import annotations

import logging
import multiprocessing
import os
import socket
import threading
from datetime import datetime
from pathlib import Path
from typing import Any

from scorekeeper import create_app, server
from scorekeeper.history import backup_files, rating_worker

from .conftest import APP_SETTINGS


def test_no_thread_of_the_command_runs_when_it_forks(
    database_uri: str, instance_path: Path
) -> None:
    spawning = multiprocessing.get_context("spawn")
    results = spawning.Queue()
    command = spawning.Process(target=_serve_with_forks_recorded, args=(database_uri, results))
    command.start()
    running_at_forks, said = results.get(timeout=120)
    command.join(timeout=30)
    assert command.exitcode == 0
    assert running_at_forks == [[], []]
    # The start's backups were still being written: the command said it waited for them. The
    # ratings' worker, which waits a minute for a wake once it has found nothing to do, was
    # asked to end instead.
    assert "waiting for the start's own work (daily-backups) before serving" in said
    assert not [line for line in said if "(ratings)" in line]


def _serve_with_forks_recorded(database_uri: str, results: Any) -> None:
    # The start's backups end once the command says it waits for them (or, where it did not
    # wait, once it has forked).
    written = threading.Event()

    def slow_backups(now: datetime) -> tuple[int, int]:
        written.wait()
        return 0, 0

    backup_files.write_daily = slow_backups  # type: ignore[assignment]
    said: list[str] = []

    class Said(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            said.append(record.getMessage())
            if "waiting for the start's own work" in record.getMessage():
                written.set()

    logging.getLogger(server.__name__).addHandler(Said(logging.INFO))
    logging.getLogger(server.__name__).setLevel(logging.INFO)
    server._configure_logging = lambda _app: None  # type: ignore[assignment]
    settings = {**APP_SETTINGS, "SQLALCHEMY_DATABASE_URI": database_uri}
    app = create_app(
        {**settings, "DAILY_BACKUPS": True, "BACKUPS_IN_BACKGROUND": True}
    )  # its start writes the day's backups in a thread of their own
    app.config["RATINGS_IN_BACKGROUND"] = True
    rating_worker.wake(app)  # as a start's commit that left ratings stale does
    assert {"daily-backups", "ratings"} <= {t.name for t in threading.enumerate()}

    running_at_forks: list[list[str]] = []

    def fork() -> int:
        running_at_forks.append(
            sorted(t.name for t in threading.enumerate() if t is not threading.current_thread())
        )
        written.set()
        return 2**22 + len(running_at_forks)  # no such process

    def wait() -> tuple[int, int]:
        raise ChildProcessError  # no child left: the command's loop ends

    os.fork = fork
    os.wait = wait
    made_by_socket = socket.create_server
    listening: list[socket.socket] = []

    def create_server(*args: Any, **kwargs: Any) -> socket.socket:
        listening.append(made_by_socket(*args, **kwargs))
        return listening[-1]

    socket.create_server = create_server
    server._run_processes(app, "127.0.0.1", 0, 2, 2)
    for made in listening:
        made.close()
    results.put((running_at_forks, said))
