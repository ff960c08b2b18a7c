"""Two app servers on one PostgreSQL behind Caddy (``deploy/two-servers``): a round saved on
one shows on the other's next poll, and the other's drawn boards, page ETags and records move
on with it; a phone's cookie is good on both, and signing out on one ends it on the other at
once (the access version moves with the sign-out).

Skipped where Caddy or PostgreSQL is missing, except under ``CI=true``, where it fails.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from email.message import Message
from pathlib import Path
from typing import Any

import pytest

from bench.load import hidden_fields
from bench.web_bench import thirty_round_game
from scorekeeper.config import HOST_ONLY_SESSION_COOKIE

from .conftest import IN_CI
from .postgres import server_binaries

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "deploy" / "two-servers"
PASSWORD = "two servers password"
# Behind the proxy the session cookie is host-only (scorekeeper.config).
SESSION_COOKIE = HOST_ONLY_SESSION_COOKIE
CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')
VERSION = re.compile(r"/games/\d+/board\?v=(\d+)")
# What differs between two drawings of the same board: the CSRF tokens joined in per request.
TOKENS = re.compile(r'(name="csrf_token" value=)"[^"]*"')


class _Stay(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Phone:
    """One browser: its session cookie kept by hand, sent to whichever server it asks (the
    cookie is marked Secure behind the proxy, and this Caddy speaks plain HTTP on loopback)."""

    def __init__(self) -> None:
        self.cookie = ""
        self.opener = urllib.request.build_opener(_Stay())

    def ask(
        self,
        url: str,
        data: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Message, str]:
        sent = {**(headers or {})}
        if self.cookie:
            sent["Cookie"] = f"{SESSION_COOKIE}={self.cookie}"
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(url, data=body, headers=sent)
        try:
            with self.opener.open(request, timeout=30) as answer:
                status, got, text = answer.status, answer.headers, answer.read().decode()
        except urllib.error.HTTPError as refused:
            status, got = refused.code, refused.headers
            text = refused.read().decode(errors="replace")
        for cookie in got.get_all("Set-Cookie") or []:
            found = re.match(rf"{re.escape(SESSION_COOKIE)}=([^;]*)", cookie)
            if found:
                self.cookie = found.group(1)
        return status, got, text


def _needs(what: str, present: bool) -> None:
    if not present:
        if IN_CI:
            pytest.fail(f"CI must have {what} installed (.ci/run installs it)")
        pytest.skip(f"{what} is not installed")


@pytest.fixture(scope="module")
def running() -> Iterator[dict[str, Any]]:
    _needs("caddy", shutil.which("caddy") is not None)
    _needs("a PostgreSQL server", server_binaries() is not None)
    process = subprocess.Popen(
        [str(SCRIPT), "--until-stdin-closes"],
        env={**os.environ, "PYTHON": sys.executable},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdin is not None
    line = process.stdout.readline()
    while line and not line.startswith("{"):
        line = process.stdout.readline()
    try:
        assert line, "deploy/two-servers printed nothing (see its output above)"
        yield json.loads(line)
    finally:
        process.stdin.close()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _almost_finished_game() -> dict[str, Any]:
    """A 12-Step game in which Ann has made eleven contracts: her next one ends it."""
    document = thirty_round_game()
    names = document["players"]
    document["rounds"] = [
        {
            "went_out": "Ann",
            "players": {
                name: {"made_contract": True, "cards": ""}
                if name == "Ann"
                else {"made_contract": False, "cards": "K 5 9"}
                for name in names
            },
        }
        for _ in range(11)
    ]
    return document


def _household(running: dict[str, Any]) -> int:
    """The household, its owner and the game, straight in the shared database."""
    from scorekeeper import create_app, scope
    from scorekeeper.accounts import services as accounts
    from scorekeeper.extensions import db
    from scorekeeper.games.transfer import import_game

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": running["database"],
            "SECRET_KEY": running["secret_key"],
            "AUTO_MIGRATE": False,
        }
    )
    with app.app_context():
        home = accounts.add_household("Family")
        accounts.add_user("ann", PASSWORD, home, "owner")
        with scope.household(home.id):
            game_id = import_game(_almost_finished_game()).id
        db.engine.dispose()
    return game_id


def _board(text: str, server: str) -> str:
    """A drawn board, less what differs by request: CSRF tokens, and the server's own address
    in the links it shows (each server is asked at its own)."""
    return TOKENS.sub(r'\1""', text).replace(server.removeprefix("http://"), "SERVER")


def test_a_round_saved_on_one_server_shows_on_the_other(running: dict[str, Any]) -> None:
    one, other = running["servers"]
    front = running["caddy"]
    game = _household(running)
    phone = Phone()
    status, _, page = phone.ask(f"{one}/login")
    form = {"csrf_token": CSRF.search(page).group(1), "username": "ann", "password": PASSWORD}  # type: ignore[union-attr]
    assert phone.ask(f"{one}/login", form)[0] == 303

    # The other server knows the cookie the first one signed (one secret key) and draws the
    # board: kept there under this version.
    status, headers, page = phone.ask(f"{other}/games/{game}")
    assert status == 200
    before = VERSION.search(page).group(1)  # type: ignore[union-attr]
    etag = headers["ETag"]
    htmx = {"HX-Request": "true"}
    assert phone.ask(f"{other}/games/{game}/board?v={before}", headers=htmx)[0] == 204
    status, _, records = phone.ask(f"{other}/records")
    assert status == 200 and "Ann" not in records

    # Ann goes out once more on the first server: her twelfth contract ends the game.
    status, _, entry = phone.ask(f"{one}/games/{game}/rounds/new")
    assert status == 200
    hidden = hidden_fields(entry)
    form = {
        "csrf_token": CSRF.search(entry).group(1),  # type: ignore[union-attr]
        **{name: hidden.get(name, "") for name in ("number", "token", "version")},
        "went_out": "0",
        "hands-0-made": "y",
        "hands-1-cards": "JK A",
        "hands-2-cards": "Q 3",
        "hands-3-cards": "K 5 9",
        "save": "1",
    }
    assert phone.ask(f"{one}/games/{game}/rounds/new", form)[0] == 302

    # The other server's next poll brings the new board, drawn as the first server draws it.
    status, _, polled = phone.ask(f"{other}/games/{game}/board?v={before}", headers=htmx)
    assert status == 200
    after = VERSION.search(polled)
    assert after is not None and int(after.group(1)) > int(before)
    status, _, drawn_by_one = phone.ask(f"{one}/games/{game}/board?v={before}", headers=htmx)
    assert status == 200
    assert _board(polled, other) == _board(drawn_by_one, one)
    assert "finished after round 12" in polled
    # Its page held from before is stale there too; its records count the finished game.
    assert phone.ask(f"{other}/games/{game}", headers={"If-None-Match": etag})[0] == 200
    status, _, records = phone.ask(f"{other}/records")
    assert status == 200 and "Ann" in records

    # Through Caddy, turn and turn about: every server says the same.
    for _ in range(4):
        status, _, _ = phone.ask(f"{front}/games/{game}/board?v={after.group(1)}", headers=htmx)
        assert status == 204
        status, _, shown = phone.ask(f"{front}/records")
        assert status == 200 and "Ann" in shown

    # Signing out on one server ends the session on the other at once: the sign-out moved the
    # access version the other server's checked session is kept under.
    thief = Phone()
    thief.cookie = phone.cookie
    assert thief.ask(f"{other}/history")[0] == 200  # the other server now keeps it as checked
    _, _, page = phone.ask(f"{one}/games/{game}")
    token = CSRF.search(page).group(1)  # type: ignore[union-attr]
    assert phone.ask(f"{one}/logout", {"csrf_token": token})[0] == 303
    assert thief.ask(f"{other}/history")[0] == 302  # to the sign-in page
