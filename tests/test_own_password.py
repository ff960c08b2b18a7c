"""Issue 40 item 1, through the real server behind a declared proxy (``flask serve`` in a
subprocess, requests as Caddy forwards them): the account page's "your password now" is
counted under the member's own session, apart from strangers' guesses at the account, so
eleven wrong sign-ins from anywhere never keep a signed-in member from changing their
password; and the member's own wrong tries are still held to 10 in 15 minutes, in their own
count (a session stolen tries no faster), saying what is true on that page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import PASSWORD
from .test_behind_proxy import port_of, serving, set_up
from .test_device_cookies import MEMBERS_HOME, STRANGERS, Browser

NEW_PASSWORD = "another long passphrase"


def _change_password(browser: Browser, current: str) -> tuple[int, str]:
    status, _headers, page = browser.post_form(
        "/account", {"current": current, "password": NEW_PASSWORD, "confirm": NEW_PASSWORD}
    )
    return status, page


@pytest.mark.slow
def test_strangers_guessing_never_keep_a_member_from_changing_their_password(
    tmp_path: Path,
) -> None:
    with serving(tmp_path, PROXY_COUNT="1") as (server, instance):
        port = port_of(server)
        set_up(port, instance, "ann")
        own = Browser(port, MEMBERS_HOME)
        assert own.sign_in("ann", PASSWORD)[0] == 303
        # Eleven strangers, each from an address of their own, guess at ann.
        answers = [Browser(port, address).sign_in("ann", "wrong guess") for address in STRANGERS]
        assert [status for status, _h, _p in answers] == [401] * 10 + [429]
        # Ann, signed in, changes her password: her session is not a stranger.
        status, page = _change_password(own, PASSWORD)
        assert status == 303, page[:1000]
        # The new one holds, and her phone (its device cookie made anew) signs in with it.
        own.sign_out()
        assert own.sign_in("ann", NEW_PASSWORD)[0] == 303


@pytest.mark.slow
def test_a_members_own_wrong_tries_are_held_off_in_their_own_count(tmp_path: Path) -> None:
    with serving(tmp_path, PROXY_COUNT="1") as (server, instance):
        port = port_of(server)
        set_up(port, instance, "ann")
        own = Browser(port, MEMBERS_HOME)
        assert own.sign_in("ann", PASSWORD)[0] == 303
        statuses = [_change_password(own, "not my password")[0] for _ in range(10)]
        assert statuses == [422] * 10
        # The eleventh try is refused, the right password too: a session stolen cannot go on
        # guessing. The page says what holds there, and when to try again.
        status, headers, page = own.post_form(
            "/account", {"current": PASSWORD, "password": NEW_PASSWORD, "confirm": NEW_PASSWORD}
        )
        assert status == 429 and 0 < int(headers["Retry-After"]) <= 900
        assert "wrong current passwords have been typed here" in page
        assert re.search(r"wait \d+ minutes and try again", page)
        assert "where you have signed in" not in page
        # Strangers' count on ann is untouched: a new browser signs in, and its session may
        # change the password.
        other = Browser(port, STRANGERS[0])
        assert other.sign_in("ann", PASSWORD)[0] == 303
        assert _change_password(other, PASSWORD)[0] == 303
