"""Issue 48 items 2 and 3 in Chromium, as the attack review found them.

Another website (a second loopback address: another site to the browser) posts forms to the
app from pages that submit themselves, to every state-changing route of the URL map: each is
refused, and the member stays signed in and the table's phone keeps its game, their cookies as
they were (the refusal used to set a new session cookie in place of theirs). And a table phone
that opens a watch link of its game, the one its own Share gave or a member's, scores on."""

from __future__ import annotations

import html
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from playwright.sync_api import expect

from ..test_refusals_keep_sessions import every_form_route
from .conftest import OWNER, PASSWORD, PHONE, _page, start_game
from .test_share import RECORD_SHARE, _shared

pytestmark = pytest.mark.browser

# The address the other website is served from: loopback, but not the app's 127.0.0.1.
ELSEWHERE = "127.0.0.2"
REFUSED = "did not come from this app"


class _Mallory(BaseHTTPRequestHandler):
    """``/post?to=URL``: a page that posts a form to ``URL`` as soon as it is loaded."""

    def do_GET(self) -> None:
        target = parse_qs(urlsplit(self.path).query).get("to", [""])[0]
        page = f"""<!doctype html><title>You won a prize</title>
<form method="post" action="{html.escape(target)}">
<input type="hidden" name="seat" value="0"><input type="hidden" name="change" value="1">
<input type="hidden" name="name" value="Mallory"><input type="hidden" name="kind" value="table">
</form><script>document.forms[0].submit()</script>"""
        body = page.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def elsewhere() -> Iterator[str]:
    """Another website, on another loopback address."""
    server = ThreadingHTTPServer((ELSEWHERE, 0), _Mallory)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://{ELSEWHERE}:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _session(page: Any) -> str:
    """The page's session cookie, as the app set it (SameSite=Lax: another site's form posts
    come without it)."""
    cookies = [each for each in page.context.cookies() if each["name"] == "session"]
    assert len(cookies) == 1 and cookies[0]["sameSite"] == "Lax", cookies
    return str(cookies[0]["value"])


def _table_link(member: Any, board: str, live_server: str) -> str:
    member.goto(board.removeprefix(live_server) + "/links")
    member.get_by_role("button", name="New table link").click()
    return str(member.locator(".link-card input.copy-field").first.input_value())


def _scores(phone: Any, board: str) -> None:
    """The phone's round form opens, and May I answers it."""
    answer = phone.goto(board + "/rounds/new")
    assert answer is not None and answer.status == 200
    expect(phone.locator("button.save-round")).to_be_visible()
    phone.goto(board)
    for change in ("1", "-1"):  # a May I called, and taken back
        button = phone.locator(f"form[action$='/may-i'] button[value='{change}']").first
        with phone.expect_response(
            lambda answer: answer.url.endswith("/may-i") and answer.request.method == "POST"
        ) as taken:
            button.click()
        assert taken.value.status in (200, 302, 303), taken.value.status


def test_forms_from_another_website_sign_nobody_out(
    browser: Any,
    live_server: str,
    elsewhere: str,
    tmp_path: Path,
) -> None:
    # The member signs in through the sign-in form, so that the browser holds the cookie as
    # the app sets it.
    members = _page(browser, live_server, PHONE)
    member = next(members)
    member.goto("/login")
    member.fill("input[name=username]", OWNER)
    member.fill("input[name=password]", PASSWORD)
    member.get_by_role("button", name="Sign in").click()
    member.wait_for_url(re.compile(r"/$"))
    board = start_game(member, ["Ann", "Ben"])
    table_url = _table_link(member, board, live_server)
    tables = _page(browser, live_server, PHONE)
    table = next(tables)
    table.goto(table_url.removeprefix(live_server))
    table.wait_for_url(board)
    held = {"member": _session(member), "table": _session(table)}
    game_id = int(board.rsplit("/", 1)[1])
    routes = every_form_route(tmp_path, game_id)
    assert "/logout" in routes and f"/games/{game_id}/may-i" in routes
    for who, page in (("member", member), ("table", table)):
        # A tab of the same browser (the same cookies) on the other website; its refused
        # answers are looked at here, not counted as the page's errors.
        tab = page.context.new_page()
        for route in routes:
            target = live_server + route
            tab.goto(f"{elsewhere}/post?to={quote(target, safe='')}", wait_until="commit")
            tab.wait_for_url(target)
            expect(tab.locator("main")).to_contain_text(REFUSED)
            assert _session(page) == held[who], (who, route)
        tab.close()
    # Nothing they hold has changed: the member is signed in, the table scores its game.
    answer = member.goto("/members")
    assert answer is not None and answer.status == 200 and member.url.endswith("/members")
    _scores(table, board.removeprefix(live_server))
    next(tables, None)
    next(members, None)


def test_a_table_phone_scores_on_after_opening_watch_links_of_its_game(
    phone: Any, browser: Any, live_server: str
) -> None:
    member = phone
    member.add_init_script(RECORD_SHARE)
    board = start_game(member, ["Cy", "Dee"])
    member.get_by_role("button", name="Share").click()
    members_watch = _shared(member, 1)
    table_url = _table_link(member, board, live_server)
    tables = _page(browser, live_server, PHONE)
    table = next(tables)
    table.add_init_script(RECORD_SHARE)
    table.goto(table_url.removeprefix(live_server))
    table.wait_for_url(board)
    table.get_by_role("button", name="Share").click()
    own_watch = _shared(table, 1)
    assert re.search(r"/w/[A-Za-z0-9_-]{43}$", own_watch) and own_watch != members_watch
    path = board.removeprefix(live_server)
    for opened in (own_watch, f"{own_watch}/result", members_watch):
        answer = table.goto(opened.removeprefix(live_server))
        assert answer is not None and answer.status == 200, opened
        expect(table.locator("main")).to_contain_text("Cy")
        _scores(table, path)
    next(tables, None)
