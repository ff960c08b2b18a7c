"""``flask --app scorekeeper serve``: the production server holds up under slow clients.

150 sockets trickle their request headers a byte at a time, as a hostile or very bad connection
would, and never finish; meanwhile 20 ordinary requests must each be answered within 2 s. Under
a server that hands a socket to a worker before the request is whole (the previous advice,
gunicorn's sync workers) three such sockets were enough to stop it answering at all.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.serving import Server, served
from scorekeeper.request_log import shown_path

pytestmark = pytest.mark.slow

SLOW_SOCKETS = 150
REQUESTS = 20
BOUND_SECONDS = 2.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    environment = {"SCOREKEEPER_INSTANCE_PATH": str(tmp_path), "SCOREKEEPER_SECRET_KEY": "serve"}
    with served(environment=environment, ready_path="/healthz", log_folder=tmp_path) as running:
        yield running


def trickle(port: int, stop: threading.Event, opened: list[socket.socket]) -> None:
    """Open one socket and send a request's headers one byte every 0.2 s until ``stop``."""
    request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 10_000
    connection = socket.create_connection(("127.0.0.1", port), timeout=5)
    opened.append(connection)
    for byte in request:
        if stop.is_set():
            return
        try:
            connection.send(bytes([byte]))
        except OSError:
            return
        stop.wait(0.2)


def test_slow_clients_cannot_stop_ordinary_requests(server: Server) -> None:
    port = int(server.base.rsplit(":", 1)[1])
    stop = threading.Event()
    opened: list[socket.socket] = []
    slow = [
        threading.Thread(target=trickle, args=(port, stop, opened), daemon=True)
        for _ in range(SLOW_SOCKETS)
    ]
    try:
        for thread in slow:
            thread.start()
        # Every slow socket is connected and has started trickling before anything is timed.
        deadline = time.monotonic() + 10
        while len(opened) < SLOW_SOCKETS and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(opened) == SLOW_SOCKETS
        time.sleep(0.5)
        timings: list[tuple[str, int, float]] = []
        for number in range(REQUESTS):
            path = "/healthz" if number % 2 else "/history"
            started = time.monotonic()
            with urllib.request.urlopen(server.base + path, timeout=10) as answer:
                answer.read()
                timings.append((path, answer.status, time.monotonic() - started))
        assert all(status == 200 for _, status, _ in timings), timings
        slowest = max(seconds for _, _, seconds in timings)
        assert slowest < BOUND_SECONDS, timings
        # The slow sockets are still open and trickling: the server did not just drop them.
        assert all(thread.is_alive() for thread in slow)
    finally:
        stop.set()
        for connection in opened:
            connection.close()


def _ask(connection: http.client.HTTPConnection, path: str, **headers: str) -> tuple[int, str]:
    connection.request("GET", path, headers=headers)
    answer = connection.getresponse()
    answer.read()
    return answer.status, answer.getheader("ETag") or ""


def test_an_answer_without_a_body_keeps_the_connection(server: Server) -> None:
    """A 304 (as a 204) has no body and no Content-Length: waitress alone would close the
    connection after it, and a phone polling every 3 s would connect again each time."""
    port = int(server.base.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        status, etag = _ask(connection, "/static/css/app.css")
        assert status == 200 and etag
        opened = connection.sock
        for _ in range(3):
            assert _ask(connection, "/static/css/app.css", **{"If-None-Match": etag})[0] == 304
            assert connection.sock is opened, "the connection was closed after a 304"
        # A client that asks for the connection to be closed still gets that.
        _ask(connection, "/static/css/app.css", **{"If-None-Match": etag, "Connection": "close"})
        assert connection.sock is None
    finally:
        connection.close()


def _children(pid: int) -> list[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(part) for part in found.read_text().split()] if found.exists() else []


def _gone(pid: int) -> bool:
    """Whether a process has ended (a zombie waiting for init counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("stopped", ["terminated", "killed"])
def test_processes_share_the_port_and_end_with_the_server(tmp_path: Path, stopped: str) -> None:
    """``serve --processes 2``: two servers answer on one port; stopping the command stops
    both, and so does killing it outright (nothing keeps the port or the database)."""
    environment = {"SCOREKEEPER_INSTANCE_PATH": str(tmp_path), "SCOREKEEPER_SECRET_KEY": "serve"}
    with served(
        environment=environment, processes=2, ready_path="/healthz", log_folder=tmp_path
    ) as running:
        assert running.process is not None
        children = _children(running.process.pid)
        assert len(children) == 2
        for _ in range(20):
            # ``served`` waited for one process; the other may still be starting (on a busy
            # machine, longer than a few seconds), its connections waiting in its queue.
            with urllib.request.urlopen(running.base + "/healthz", timeout=120) as answer:
                assert answer.status == 200
        if stopped == "killed":
            running.kill()
        else:
            running.stop()
        deadline = time.monotonic() + 10
        while not all(_gone(child) for child in children) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert all(_gone(child) for child in children)
        with pytest.raises(OSError):
            urllib.request.urlopen(running.base + "/healthz", timeout=2)


def _status(base: str, path: str) -> int:
    """The answer's status, redirects not followed."""
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


def _request_lines(server: Server, count: int, but: str = "\n") -> list[str]:
    """The request log's lines, but those holding ``but``, once there are ``count`` (a line is
    written as the answer is closed, a moment after the client has it)."""
    log = Path(server.log.name)
    deadline = time.monotonic() + 5
    while True:
        lines = [
            line
            for line in log.read_text().splitlines()
            if "scorekeeper.requests" in line and but not in line
        ]
        if len(lines) >= count or time.monotonic() > deadline:
            return lines
        time.sleep(0.05)


REQUEST_LINE = re.compile(
    r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} \[(\d+)\] INFO scorekeeper\.requests: "
    r"(GET|POST) (\S+) (\d{3}) \d+\.\d ms"
)


@pytest.mark.parametrize(
    ("path", "shown"),
    [
        ("/./t/SECRET", "/./t/***"),
        ("/w//SECRET/card.png", "/w/***/card.png"),
        ("/y/SECRET", "/y/***"),
        ("//y/SECRET/card.png", "/y/***/card.png"),
        ("/rules/twelve-step", "/rules/twelve-step"),
        ("/games/1/board", "/games/1/board"),
    ],
)
def test_a_token_is_masked_wherever_it_stands_in_the_path(path: str, shown: str) -> None:
    assert shown_path(path) == shown


def test_each_request_is_logged_with_link_tokens_and_query_values_masked(server: Server) -> None:
    asked = {
        "/": "/",
        "/t/SECRET-table-token": "/t/***",
        "/w/SECRET-watch-token": "/w/***",
        "/w/SECRET-watch-token/card.png": "/w/***/card.png",
        "/y/SECRET-review-token": "/y/***",
        "/y/SECRET-review-token/card.png": "/y/***/card.png",
        "/invite/SECRET-invite-token": "/invite/***",
        "//t//SECRET-doubled": "/t/***",
        "/setup?code=SECRET-CODE&next=%2F": "/setup?code=***&next=***",
        "/no/such/page%0Aforged": "/no/such/page%0Aforged",
    }
    statuses = {path: _status(server.base, path) for path in asked}
    lines = _request_lines(server, len(asked), but="/healthz")  # the readiness checks'
    assert len(lines) == len(asked), lines
    logged = []
    for line in lines:
        found = REQUEST_LINE.fullmatch(line)
        assert found, line
        logged.append((found.group(3), int(found.group(4))))
    # A line is written when the server closes the answer, after the phone has it: the next
    # request's line may come first.
    assert sorted(logged) == sorted((asked[path], statuses[path]) for path in asked)
    assert "SECRET" not in Path(server.log.name).read_text()


def test_flask_run_masks_link_tokens_and_query_values_as_serve_does(tmp_path: Path) -> None:
    """The README's first command: werkzeug's development server, logging on its own."""
    environment = {"SCOREKEEPER_INSTANCE_PATH": str(tmp_path), "SCOREKEEPER_SECRET_KEY": "run"}
    command = [sys.executable, "-m", "flask", "--app", "scorekeeper", "run", "--port", "{port}"]
    # werkzeug colours some lines (ANSI escapes inside the quotes): the line without them.
    asked = {
        "/t/SECRET-table-token": "GET /t/*** HTTP/1.1",
        "/w/SECRET-watch-token/card.png": "GET /w/***/card.png HTTP/1.1",
        "/invite/SECRET-invite-token": "GET /invite/*** HTTP/1.1",
        "//t//SECRET-doubled": "GET /t/*** HTTP/1.1",
        "/setup?code=SECRET-CODE&next=%2F": "GET /setup?code=***&next=*** HTTP/1.1",
    }
    with served(
        command=command, environment=environment, ready_path="/healthz", log_folder=tmp_path
    ) as running:
        for path in asked:
            _status(running.base, path)
        log = Path(running.log.name)
        deadline = time.monotonic() + 5
        while log.read_text().count('"GET ') < len(asked) and time.monotonic() < deadline:
            time.sleep(0.05)
    written = log.read_text()
    assert "SECRET" not in written
    for shown in asked.values():
        assert shown in written, written


@pytest.mark.parametrize(("level", "requests_logged"), [("warning", False), ("DEBUG", True)])
def test_the_log_level_decides_whether_requests_are_logged(
    tmp_path: Path, level: str, requests_logged: bool
) -> None:
    environment = {
        "SCOREKEEPER_INSTANCE_PATH": str(tmp_path),
        "SCOREKEEPER_SECRET_KEY": "serve",
        "SCOREKEEPER_LOG_LEVEL": level,
    }
    with served(environment=environment, ready_path="/healthz", log_folder=tmp_path) as running:
        assert _status(running.base, "/setup") == 200
        lines = _request_lines(running, 1, but="/healthz") if requests_logged else []
        time.sleep(0.2)
        assert _request_lines(running, 0, but="/healthz") == lines
        assert bool(lines) is requests_logged


def _answering(server: Server) -> set[int]:
    """The processes the request log says answered."""
    lines = _request_lines(server, 0)
    return {int(found.group(1)) for line in lines if (found := REQUEST_LINE.fullmatch(line))}


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_a_server_process_that_dies_is_replaced(tmp_path: Path) -> None:
    """``serve --processes 2`` keeps two: a child killed outright is replaced by a new one,
    which answers requests (the request log names the process that answered)."""
    environment = {"SCOREKEEPER_INSTANCE_PATH": str(tmp_path), "SCOREKEEPER_SECRET_KEY": "serve"}
    with served(
        environment=environment, processes=2, ready_path="/healthz", log_folder=tmp_path
    ) as running:
        assert running.process is not None
        first = _children(running.process.pid)
        assert len(first) == 2
        os.kill(first[0], signal.SIGKILL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            now = _children(running.process.pid)
            if len(now) == 2 and first[0] not in now:
                break
            time.sleep(0.05)
        assert len(now) == 2 and first[0] not in now, now
        [new] = set(now) - set(first)
        for _ in range(200):
            assert _status(running.base, "/healthz") == 200
            if new in _answering(running):
                break
        assert new in _answering(running), (new, _answering(running))
        assert (
            f"server process {first[0]} was ended by signal 9" in Path(running.log.name).read_text()
        )
