"""Issue 23, item 3 at 360 px: a phone on its own-hand pad follows its round when the scorer
stores it on the round form: within a poll it shows the next round, what got stored and what
it had typed."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import _page, fits_width, screenshot
from .test_own_hands import SMALL_PHONE, _seated_phones, _table

pytestmark = pytest.mark.browser


def test_a_phone_on_its_pad_follows_the_round_stored_on_the_round_form(
    browser: Any, live_server: str, owner_cookie: str
) -> None:
    scorers = _page(browser, live_server, SMALL_PHONE, owner_cookie)
    scorer = next(scorers)
    board, link = _table(scorer, live_server, ("Ann", "Ben", "Cy"))
    contexts, (ann, ben) = _seated_phones(browser, live_server, link, board, ("Ann", "Ben"))
    ann.get_by_role("button", name="I went out").click()
    expect(ben.get_by_label("Your cards left")).to_be_visible()
    for key in ("K", "Q"):
        ben.get_by_role("button", name=f"Add {key}").click()
    expect(ben.get_by_label("Your cards left")).to_have_value("K Q")

    # The scorer stores round 1 on the whole-round form, with Ben's hand as K alone.
    scorer.goto(f"{board}/rounds/new")
    scorer.locator("fieldset.went-out label.choice", has_text="Ann").click()
    scorer.fill("#hands-1-cards", "K")
    scorer.fill("#hands-2-cards", "5")
    scorer.click("button.save-round")
    scorer.wait_for_url(f"{live_server}{board}")

    expect(ben.locator(".deal")).to_contain_text("Round 2")
    expect(ben.locator("#hand-errors")).to_contain_text("Ben K = 10 points.")
    expect(ben.locator("#hand-errors")).to_contain_text("You had typed: K Q.")
    assert fits_width(ben)
    screenshot(ben, "own-hand-round-stored-elsewhere-360")
    for context in (*contexts, scorers):
        next(context, None)
