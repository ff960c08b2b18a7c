"""Issue 36 items 2 and 4, through the real server behind a declared proxy (``flask serve`` in
a subprocess, requests as Caddy forwards them, each phone's cookies kept as a browser keeps
them): strangers' guesses at an account from eleven addresses hold off new browsers, never
the member's own (its device cookie, ``accounts.devices``); the page says what happened and
when to try again, and the owner sees the refused sign-ins on the members page. A member of
another household following a table link is signed out with ``Clear-Site-Data``.

What a device cookie is worth when forged, of another account, or from before a password
change is tried at the end, on the test client (the cookie is all that matters there)."""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, select

from bench.load import hidden_fields
from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.models import RefusedSignIn

from .conftest import PASSWORD, add_member, family_id, signed_in
from .helpers import game_document, twelve_step_to_the_end
from .test_behind_proxy import port_of, serving, set_up

STRANGERS = [f"203.0.113.{number}" for number in range(1, 12)]
MEMBERS_HOME = "198.51.100.4"


@dataclass
class Browser:
    """A phone behind the proxy that keeps every cookie it is given, as a browser does."""

    port: int
    client: str
    cookies: dict[str, str] = field(default_factory=dict)

    def ask(
        self, method: str, path: str, form: dict[str, str] | None = None
    ) -> tuple[int, http.client.HTTPMessage, str]:
        headers = {
            "X-Forwarded-For": self.client,
            "X-Forwarded-Proto": "https",
            "X-Forwarded-Host": f"127.0.0.1:{self.port}",
        }
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = f"https://127.0.0.1:{self.port}{path}"
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers)
            answer = connection.getresponse()
            text = answer.read().decode()
        finally:
            connection.close()
        for cookie in answer.headers.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            if value and "Max-Age=0" not in cookie and "expires=Thu, 01 Jan 1970" not in cookie:
                self.cookies[name] = value
            else:
                self.cookies.pop(name, None)
        return answer.status, answer.headers, text

    def post_form(
        self, path: str, fields: dict[str, str]
    ) -> tuple[int, http.client.HTTPMessage, str]:
        status, _headers, page = self.ask("GET", path)
        assert status == 200, page[:500]
        return self.ask("POST", path, {**hidden_fields(page), **fields})

    def sign_in(self, username: str, password: str) -> tuple[int, http.client.HTTPMessage, str]:
        return self.post_form("/login", {"username": username, "password": password})

    def sign_out(self) -> None:
        status, _headers, page = self.ask("GET", "/account")
        assert status == 200
        status, _headers, _page = self.ask("POST", "/logout", hidden_fields(page))
        assert status == 303


def _flask(instance: Path, *arguments: str, given: str = "") -> str:
    environment = {
        "SCOREKEEPER_INSTANCE_PATH": str(instance),
        "SCOREKEEPER_SECRET_KEY": "behind the proxy",
        "SCOREKEEPER_PASSWORD_TIME_COST": "1",
        "SCOREKEEPER_PASSWORD_MEMORY_KIB": "8",
        "PATH": "/usr/bin:/bin",
    }
    done = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", *arguments],
        input=given,
        text=True,
        env=environment,
        capture_output=True,
        check=True,
    )
    return done.stdout


@pytest.mark.slow
def test_strangers_guessing_never_lock_the_member_out_of_their_own_browser(
    tmp_path: Path,
) -> None:
    with serving(tmp_path, PROXY_COUNT="1") as (server, instance):
        port = port_of(server)
        set_up(port, instance, "ann")
        # Ann's phone has signed in to her account before: it holds her device cookie.
        own = Browser(port, MEMBERS_HOME)
        status, _headers, _page = own.sign_in("ann", PASSWORD)
        assert status == 303 and "__Host-device" in own.cookies
        own.sign_out()
        assert "__Host-device" in own.cookies  # signing out keeps it: it is no session
        # Eleven strangers, each from an address of their own, guess at ann.
        answers = [Browser(port, address).sign_in("ann", "wrong guess") for address in STRANGERS]
        assert [status for status, _h, _p in answers] == [401] * 10 + [429]
        # Ann's own phone gets in at once.
        status, _headers, page = own.sign_in("ann", PASSWORD)
        assert status == 303, page[:1000]
        # A new browser, even at Ann's home address and with the right password, is held off,
        # and told what happened and when to try again.
        new = Browser(port, MEMBERS_HOME)
        status, headers, page = new.sign_in("ann", PASSWORD)
        assert status == 429 and 0 < int(headers["Retry-After"]) <= 900
        assert "Too many wrong passwords have been tried for this account" in page
        assert re.search(r"wait \d+ minutes and try again", page)
        assert "where you have signed in to it before, you can sign in now" in page
        # A device cookie of another server's key, or made up, is a stranger's.
        forged = Browser(
            port, MEMBERS_HOME, {"__Host-device": own.cookies["__Host-device"][:-3] + "abc"}
        )
        assert forged.sign_in("ann", PASSWORD)[0] == 429
        # The owner sees who was refused, when, from where, and whether from a known device.
        status, _headers, page = own.ask("GET", "/members")
        assert status == 200
        refused = page[page.index('id="refused"') :]
        for address in STRANGERS[:10]:
            assert f"from {address}: a new phone or computer" in refused
        assert "closed to new devices until" in page


@pytest.mark.slow
def test_a_device_cookie_that_fails_too_often_is_held_off_alone(tmp_path: Path) -> None:
    with serving(tmp_path, PROXY_COUNT="1") as (server, instance):
        port = port_of(server)
        set_up(port, instance, "ann")
        own = Browser(port, MEMBERS_HOME)
        assert own.sign_in("ann", PASSWORD)[0] == 303
        own.sign_out()
        statuses = [own.sign_in("ann", "wrong guess")[0] for _ in range(11)]
        assert statuses == [401] * 10 + [429]
        status, _headers, page = own.sign_in("ann", PASSWORD)
        assert status == 429 and "typed on this phone or computer" in page
        # Strangers' count on ann is untouched by it: another browser gets in.
        assert Browser(port, STRANGERS[0]).sign_in("ann", PASSWORD)[0] == 303
        # ... and the member page lists the device's refusals as a known device's.
        owner = Browser(port, STRANGERS[2])
        assert owner.sign_in("ann", PASSWORD)[0] == 303
        page = owner.ask("GET", "/members")[2]
        assert f"from {MEMBERS_HOME}: a phone or computer that had signed in before" in page


@pytest.mark.slow
def test_a_link_followed_from_another_households_session_clears_the_site(
    tmp_path: Path,
) -> None:
    with serving(tmp_path, PROXY_COUNT="1") as (server, instance):
        port = port_of(server)
        set_up(port, instance, "ann")
        game = tmp_path / "game.json"
        table = ("Ann", "Ben", "Cy")
        game.write_text(
            json.dumps(game_document("twelve-step", table, twelve_step_to_the_end(table)[:2]))
        )
        _flask(instance, "game", "import", str(game), "--household", "The Proxies")
        url = _flask(instance, "link", "add", "1", "--kind", "table").strip().splitlines()[-1]
        _flask(instance, "household", "add", "Others")
        _flask(
            instance,
            "users",
            "add",
            "zed",
            "--household",
            "Others",
            "--role",
            "owner",
            given=PASSWORD + "\n",
        )
        zed = Browser(port, MEMBERS_HOME)
        assert zed.sign_in("zed", PASSWORD)[0] == 303
        path = "/t/" + url.rsplit("/t/", 1)[1]
        status, _headers, page = zed.ask("GET", path)
        assert status == 200 and "Sign out and follow the link" in page
        status, headers, _page = zed.ask("POST", path, hidden_fields(page))
        assert status == 303 and headers["Location"].endswith("/games/1")
        cleared = {part.strip() for part in headers["Clear-Site-Data"].split(",")}
        assert cleared == {'"cache"', '"storage"'}
        assert zed.ask("GET", "/games/1")[0] == 200
        assert zed.ask("GET", "/account")[0] == 302


# --- what a device cookie is worth, on the test client ----------------------------------------


def _hold_off_strangers(app: Flask, username: str) -> None:
    for number in range(11):
        stranger = app.test_client()
        stranger.post(
            "/login",
            data={"username": username, "password": "wrong guess"},
            environ_base={"REMOTE_ADDR": f"203.0.113.{number + 1}"},
        )


def _tries(client: FlaskClient, username: str, password: str = PASSWORD) -> int:
    return client.post("/login", data={"username": username, "password": password}).status_code


def test_a_device_cookie_counts_only_for_its_own_account_and_password(app: Flask) -> None:
    add_member(app, "ann")
    ben = signed_in(app, "ben")  # this browser knows ben, not ann
    ann = app.test_client()
    assert _tries(ann, "ann") == 303
    cookie = ann.get_cookie("device")
    assert cookie is not None and ben.get_cookie("device") is not None
    ann.post("/logout")
    _hold_off_strangers(app, "ann")
    assert _tries(ben, "ann") == 429  # a cookie of another account is a stranger's
    copied = app.test_client()
    copied.set_cookie("device", cookie.value)
    assert _tries(copied, "ann") == 303  # the cookie is the device's, wherever it is sent from
    # After a password change (elsewhere), a cookie from before is a stranger's again.
    runner = app.test_cli_runner()
    changed = runner.invoke(args=["users", "password", "ann"], input="a new long passphrase\n")
    assert changed.exit_code == 0, changed.output
    replayed = app.test_client()
    replayed.set_cookie("device", cookie.value)
    assert _tries(replayed, "ann", "a new long passphrase") == 429


def test_on_a_shared_tablet_one_members_mistyping_holds_off_no_other(app: Flask) -> None:
    add_member(app, "ann")
    add_member(app, "ben")
    tablet = app.test_client()
    for username in ("ann", "ben"):
        assert _tries(tablet, username) == 303
        tablet.post("/logout")
    _hold_off_strangers(app, "ben")
    for _ in range(10):
        assert _tries(tablet, "ann", "wrong guess") == 401
    refused = tablet.post("/login", data={"username": "ann", "password": PASSWORD})
    assert refused.status_code == 429 and "typed on this phone or computer" in refused.text
    assert _tries(tablet, "ben") == 303


def _statements_before_the_answer_is_sent(app: Flask, username: str) -> tuple[list[str], Any]:
    """The SQL statements a wrong password for ``username`` runs until its answer is handed to
    the server (their first words, in order), and the answer, not yet sent."""
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        seen.append(" ".join(statement.split()[:3]))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        answer = app.test_client().post(
            "/login", data={"username": username, "password": "wrong guess"}, buffered=False
        )
        before = list(seen)
    finally:
        event.remove(engine, "before_cursor_execute", note)
    return before, answer


def test_a_wrong_password_answers_with_the_same_work_whether_the_name_exists(app: Flask) -> None:
    """The refused sign-in an owner sees is written once the answer is sent: until then a
    member's name and a name nobody has run the same statements, so the time of the answer
    does not tell which names exist (a reviewer's finding)."""
    add_member(app, "ann")
    add_member(app, "ben")
    # The first try makes the throttle's rows; the two compared after it find them.
    _statements_before_the_answer_is_sent(app, "ben")[1].close()
    ann, ann_answer = _statements_before_the_answer_is_sent(app, "ann")
    nobody, nobody_answer = _statements_before_the_answer_is_sent(app, "nobody-here")
    assert ann_answer.status_code == nobody_answer.status_code == 401
    assert ann == nobody
    assert not any("refused_sign_ins" in line for line in ann)
    ann_answer.close()  # the server has sent it
    nobody_answer.close()
    with app.app_context(), scope.household(family_id(app)):
        noted = db.session.scalars(select(RefusedSignIn)).all()
        assert [row.user.username for row in noted] == ["ben", "ann"]
        db.session.remove()
