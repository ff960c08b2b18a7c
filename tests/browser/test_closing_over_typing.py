"""Issue 43 item 2 on 360 x 640 phones, light and dark: Ben's table-link phone opens "Close
round 1" while Dee's phone has K Q of her hand typed; the close names her ("Dee is still
typing: K Q so far") and closes only on the second, deliberate choice. Dee's phone, which
had typed K Q 5 meanwhile (without signal), then puts her hand in with one tap."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import _page, fits_width, screenshot, serious_accessibility_violations
from .test_offline import OFFLINE_NOISE, _rounds
from .test_own_hands import _seated, _table

pytestmark = pytest.mark.browser

SMALL_PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_close_asks_over_a_hand_being_typed_and_the_hand_is_put_in_after(
    browser: Any, live_server: str, owner_cookie: str, scheme: str
) -> None:
    device = {**SMALL_PHONE, "color_scheme": scheme}
    scorers = _page(browser, live_server, device, owner_cookie)
    scorer = next(scorers)
    board, link = _table(scorer, live_server, ("Ann", "Ben", "Dee"))
    contexts = [_page(browser, live_server, device) for _ in range(3)]
    ann, ben, dee = (next(context) for context in contexts)
    for phone, name in ((ann, "Ann"), (ben, "Ben"), (dee, "Dee")):
        _seated(phone, link, board, name)
    ann.get_by_role("button", name="I went out").click()
    expect(ben.get_by_label("Your cards left")).to_be_visible()
    ben.get_by_role("button", name="Add 5", exact=True).click()
    expect(ben.locator("#my-points")).to_contain_text("5 pts")
    ben.get_by_role("button", name="Not made ✗").click()
    expect(ben.locator(".my-state")).to_contain_text("Your hand is in")
    for card in ("K", "Q"):
        dee.get_by_role("button", name=f"Add {card}", exact=True).click()
    expect(dee.locator("#my-points")).to_contain_text("20 pts")  # the server has K Q
    # Dee taps on without signal: her 5 stays on her phone.
    dee.context.set_offline(True)
    dee.get_by_role("button", name="Add 5", exact=True).click()
    expect(dee.get_by_label("Your cards left")).to_have_value("K Q 5")

    ben.get_by_role("link", name="Close round 1…").click()
    typing = ben.locator("#close-typing")
    expect(typing).to_contain_text("Dee is still typing: K Q so far.")
    expect(ben.get_by_role("button", name="Close round 1", exact=True)).to_have_count(0)
    anyway = ben.get_by_role("button", name="Close round 1 anyway")
    expect(anyway).to_be_visible()
    assert fits_width(ben)
    assert serious_accessibility_violations(ben) == []
    screenshot(ben, f"i43-close-over-typing-360-{scheme}")
    assert _rounds(ben, board) == []
    anyway.click()
    expect(ben.locator(".flash")).to_contain_text("Round 1 stored.")
    (played,) = _rounds(ben, board)
    assert played["players"]["Dee"]["cards"] == "K Q"

    # Dee's signal comes back: her phone says what was stored and what she had typed, and
    # one tap puts her hand in.
    dee.context.set_offline(False)
    put_in = dee.locator("#put-in")
    expect(put_in).to_contain_text("Put in what you had typed, K Q 5, as your hand of round 1?")
    expect(dee.locator("#hand-errors")).to_contain_text("You had typed: K Q 5.")
    assert fits_width(dee)
    screenshot(dee, f"i43-put-in-360-{scheme}")
    dee.problems[:] = [p for p in dee.problems if not any(n in p for n in OFFLINE_NOISE)]
    put_in.get_by_role("button", name="Not made ✗").click()
    expect(dee.locator(".flash")).to_contain_text("Round 1 corrected: your hand is K Q 5.")
    (played,) = _rounds(dee, board)
    assert played["players"]["Dee"]["cards"] == "K Q 5"
    assert played["players"]["Dee"]["points"] == 25
    assert played["players"]["Ben"]["cards"] == "5"
    dee.problems[:] = [p for p in dee.problems if not any(n in p for n in OFFLINE_NOISE)]
    for context in (*contexts, scorers):
        next(context, None)
