"""Issue 23 item 1 on the scorer's close page, at 360 px: a hand its own phone changed after
the scorer opened the page, and the scorer changed too, is shown side by side to choose;
nothing is stored until the scorer does."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import _page, fits_width, screenshot, serious_accessibility_violations
from .test_offline import _rounds
from .test_own_hands import SMALL_PHONE, _seated_phones, _table

pytestmark = pytest.mark.browser


def test_the_close_page_shows_a_hand_both_changed_side_by_side(
    browser: Any, live_server: str, owner_cookie: str
) -> None:
    scorers = _page(browser, live_server, SMALL_PHONE, owner_cookie)
    scorer = next(scorers)
    board, link = _table(scorer, live_server, ("Ann", "Ben", "Cy"))
    contexts, (ann, ben) = _seated_phones(browser, live_server, link, board, ("Ann", "Ben"))
    ann.get_by_role("button", name="I went out").click()
    expect(ben.get_by_label("Your cards left")).to_be_visible()
    ben.get_by_role("button", name="Add K", exact=True).click()
    expect(ben.locator("#my-points")).to_contain_text("10")

    scorer.goto(f"{board}/close")
    expect(scorer.get_by_label("Ben's cards left (still counting)")).to_have_value("K")
    ben.get_by_role("button", name="Add Q", exact=True).click()  # after the scorer looked
    expect(ben.locator("#my-points")).to_contain_text("20")
    scorer.get_by_label("Ben's cards left (still counting)").fill("K 3")
    scorer.get_by_label("Cy's cards left (still counting)").fill("5")
    scorer.get_by_role("button", name="Close round 1").click()

    clash = scorer.locator("#clash-1")
    expect(clash).to_contain_text("On Ben's phone now: K Q")
    expect(clash).to_contain_text("Yours: K 3")
    assert _rounds(scorer, board) == []
    assert fits_width(scorer)
    assert serious_accessibility_violations(scorer) == []
    screenshot(scorer, "i23-close-page-clash-360")
    scorer.get_by_text("On Ben's phone now:").click()
    scorer.get_by_role("button", name="Close round 1").click()
    expect(scorer.get_by_text("Round 1 stored.")).to_be_visible()
    (played,) = _rounds(scorer, board)
    hands = {name: (hand["cards"], hand["points"]) for name, hand in played["players"].items()}
    assert hands == {"Ann": ("", 0), "Ben": ("K Q", 20), "Cy": ("5", 5)}
    for context in (*contexts, scorers):
        next(context, None)
