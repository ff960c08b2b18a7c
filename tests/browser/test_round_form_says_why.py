"""Issue 43 item 4 on a 360 x 640 phone, light and dark: on the round form a refusal stands
whole under its hand, the chip it names is still taken out with a tap, a 13-card hand is shown
whole, and choosing who went out clears their typed cards, saying so."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import _page, fits_width, screenshot, start_game

pytestmark = pytest.mark.browser

SMALL_PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
THIRTEEN = "K Q J 10 9 8 7 6 5 4 3 2 A"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_round_form_says_why_in_full(
    browser: Any, live_server: str, owner_cookie: str, scheme: str
) -> None:
    pages = _page(browser, live_server, {**SMALL_PHONE, "color_scheme": scheme}, owner_cookie)
    page = next(pages)
    board = start_game(page, ["Una", "Vic", "Wes"])
    page.goto(board + "/rounds/new")
    # Una's cards typed, then Una chosen as out: her field is emptied, and the form says so.
    page.fill("#hands-0-cards", "K Q")
    page.locator("fieldset.went-out label.choice", has_text="Una").click()
    expect(page.locator("#hand-0 .went-out-cleared")).to_contain_text(
        "Una went out, so the cards typed for Una (K Q) were cleared."
    )
    expect(page.locator("#hands-0-cards")).to_have_value("")
    # Vic's 13 cards, and five jokers from two packs: Save is refused under his hand.
    page.fill("#hands-1-cards", THIRTEEN)
    page.fill("#hands-2-cards", "JK JK JK JK JK")
    expect(page.locator("#cards-2 .card-chip")).to_have_count(5)
    page.click("button.save-round")
    refusal = page.locator("#cards-2-error")
    expect(refusal).to_be_visible()
    expect(refusal).to_contain_text("Joker")
    box = refusal.bounding_box()
    assert box is not None and box["width"] > 250  # the form's width, not a chip's strip
    # The chips it names are still there, and one tap takes a joker out.
    expect(page.locator("#cards-2 .card-chip")).to_have_count(5)
    # Vic's hand, read back whole: every chip laid out on the screen.
    page.locator("#cards-1 .all-cards summary").click()
    chips = page.locator("#cards-1 .card-chip")
    expect(chips).to_have_count(13)
    page.locator("#hand-1").scroll_into_view_if_needed()
    screenshot(page, f"i43-round-form-all-cards-360-{scheme}")
    for index in range(13):
        chip = chips.nth(index).bounding_box()
        assert chip is not None and chip["x"] >= 0 and chip["x"] + chip["width"] <= 360
    assert fits_width(page)
    page.locator("#hand-2").scroll_into_view_if_needed()
    screenshot(page, f"i43-round-form-says-why-360-{scheme}")
    page.locator("#cards-2 .card-chip").last.click()
    expect(page.locator("#cards-2 .card-chip")).to_have_count(4)
    expect(page.locator("#hands-2-cards")).to_have_value("JK JK JK JK")
    next(pages, None)
