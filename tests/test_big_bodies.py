"""``flask serve`` refuses a body larger than its page takes when the request's headers are in,
before reading it.

Waitress reads a body whole (to disk past 512 KB) before the app sees the request: a 30 MB
body declared to ``/login``, whose form takes 1 MB, had no answer until its last byte was sent,
and only then the app's 413. Now the answer is the app's own 413 page at once, and the
connection is closed so that the client stops sending; the pages that take a file still take
one up to their limit.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator

import pytest

from bench.load import hidden_fields
from bench.serving import Server, served
from scorekeeper.limits import GAME_FILE_BYTES, GAME_UPLOAD_BYTES, MEGABYTE, RESTORE_BYTES

from .helpers import game_document, twelve_step_to_the_end
from .test_behind_proxy import Phone, port_of, set_up

pytestmark = pytest.mark.slow

# The answer comes as soon as the headers are read; the bound leaves room for a busy machine.
# Before, no answer came at all until the whole body had been sent.
ANSWER_SECONDS = 5.0
CHUNK = 64 * 1024


@pytest.fixture(scope="module")
def owner(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Phone]]:
    """One server for the module (nothing here changes what another test sees), its owner
    signed in."""
    folder = tmp_path_factory.mktemp("bodies")
    environment = {"SCOREKEEPER_INSTANCE_PATH": str(folder), "SCOREKEEPER_SECRET_KEY": "bodies"}
    with served(environment=environment, ready_path="/healthz", log_folder=folder) as server:
        yield server, set_up(port_of(server), folder)


def send_head(port: int, method_and_path: str, *headers: str) -> socket.socket:
    """A connection that has sent a request's headers and nothing of its body yet."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=ANSWER_SECONDS)
    lines = [f"{method_and_path} HTTP/1.1", "Host: 127.0.0.1", *headers]
    connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    return connection


def answer_of(connection: socket.socket) -> tuple[str, dict[str, str], str]:
    """Everything the server sends until it closes the connection (a timeout fails the test):
    the status line, the headers, the page. A connection closed while the client was still
    sending ends in a reset, after what the server sent."""
    received = b""
    with connection, contextlib.suppress(ConnectionResetError):
        while chunk := connection.recv(CHUNK):
            received += chunk
    head, _, page = received.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (n.partition(":") for n in lines)}
    return status, headers, page.decode()


@pytest.mark.parametrize("expect", [[], ["Expect: 100-continue"]], ids=["plain", "expect"])
def test_a_30_mb_body_declared_to_login_is_refused_before_it_is_sent(
    owner: tuple[Server, Phone], expect: list[str]
) -> None:
    """As a browser sends it (the body straight after the headers) and as curl does (waiting
    for ``100 Continue``, which must not come)."""
    server, _owner = owner
    started = time.monotonic()
    connection = send_head(
        port_of(server),
        "POST /login",
        "Content-Type: application/x-www-form-urlencoded",
        f"Content-Length: {30 * MEGABYTE}",
        *expect,
    )
    status, headers, page = answer_of(connection)
    assert status.startswith("HTTP/1.1 413 "), status
    assert "That is too large: this page takes at most 1 MB." in page
    assert headers["connection"] == "close"
    assert time.monotonic() - started < ANSWER_SECONDS


@pytest.mark.parametrize(
    ("path", "length", "taken"),
    [
        ("/games/import", GAME_UPLOAD_BYTES + 1, "5.1 MB"),
        # Past waitress's own limit too: its plain-text 413 before, the app's page now.
        ("/history/backup", RESTORE_BYTES + 1, "64 MB"),
    ],
    ids=["game-file", "restore"],
)
def test_a_declared_length_over_an_upload_limit_is_refused_at_once(
    owner: tuple[Server, Phone], path: str, length: int, taken: str
) -> None:
    server, phone = owner
    connection = send_head(
        port_of(server),
        f"POST {path}",
        f"Cookie: {phone.cookie}",
        "Content-Type: multipart/form-data; boundary=the-file",
        f"Content-Length: {length}",
    )
    status, headers, page = answer_of(connection)
    assert status.startswith("HTTP/1.1 413 "), status
    assert f"That is too large: this page takes at most {taken}." in page
    assert headers["connection"] == "close"


def test_a_chunked_body_is_refused_once_it_passes_the_page_limit(
    owner: tuple[Server, Phone],
) -> None:
    """A chunked body declares no length: it is read until it passes the page's limit."""
    server, _owner = owner
    connection = send_head(
        port_of(server),
        "POST /login",
        "Content-Type: application/x-www-form-urlencoded",
        "Transfer-Encoding: chunked",
    )
    chunk = b"%x\r\n%s\r\n" % (CHUNK, b"a" * CHUNK)
    # Never the last chunk: only the refusal can end this request. Sending fails once the
    # server has answered and closed the connection; what came before it is still read.
    with contextlib.suppress(OSError):
        for _ in range(MEGABYTE // CHUNK + 1):
            connection.sendall(chunk)
    status, _headers, page = answer_of(connection)
    assert status.startswith("HTTP/1.1 413 "), status
    assert "That is too large: this page takes at most 1 MB." in page


def test_a_game_file_near_the_upload_limit_is_taken_whole(owner: tuple[Server, Phone]) -> None:
    _server, phone = owner
    text = json.dumps(game_document("twelve-step", ["Ann", "Ben", "Cy"], twelve_step_to_the_end()))
    raw = (text + " " * (GAME_FILE_BYTES - 1024 - len(text))).encode()
    status, _headers, page = phone.ask("GET", "/games/import")
    assert status == 200
    boundary = "the-file-boundary"
    body = b"".join(
        [
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'.encode(),
            hidden_fields(page)["csrf_token"].encode(),
            f'\r\n--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            'filename="near.json"\r\nContent-Type: application/json\r\n\r\n'.encode(),
            raw,
            f"\r\n--{boundary}--\r\n".encode(),
        ]
    )
    assert GAME_FILE_BYTES - 2048 < len(body) < GAME_UPLOAD_BYTES
    connection = phone.connection()
    connection.request(
        "POST",
        "/games/import",
        body=body,
        headers={
            "Cookie": phone.cookie,
            "Content-Type": f"multipart/form-data; boundary={boundary}",
        },
    )
    answer = connection.getresponse()
    answer.read()
    connection.close()
    assert answer.status == 302, answer.status
    assert "/games/" in answer.headers["Location"]


def test_a_page_that_reads_no_form_refuses_a_body_over_its_limit_too(
    owner: tuple[Server, Phone],
) -> None:
    """A page that reads no form (the home page) refuses a large body as the forms do, so the
    server's refusal at the headers never reaches a page as an empty request."""
    server, phone = owner
    connection = send_head(
        port_of(server), "GET /", f"Cookie: {phone.cookie}", f"Content-Length: {2 * MEGABYTE}"
    )
    status, _headers, page = answer_of(connection)
    assert status.startswith("HTTP/1.1 413 "), status
    assert "That is too large: this page takes at most 1 MB." in page
