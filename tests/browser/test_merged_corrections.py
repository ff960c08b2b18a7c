"""Two phones correct the same round at 360 px (issue 23, item 1): the second phone's
conflict page holds the first phone's fix, shows the hand both changed side by side, and
saves only once the person chose."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Error, Route, expect

from .conftest import NARROW_PHONE, _page, enter_round, fits_width, screenshot, start_game

pytestmark = pytest.mark.browser


def _overtaken_correction(
    b: Any, browser: Any, live_server: str, owner_cookie: str
) -> tuple[Any, Iterator[Any], str]:
    """Round 1 of a new game (Ada, Bo, Cyd) opened for correction on phone ``b`` and on a
    second phone, and ``b``'s correction of Cyd's hand (JK 5 5 to JK 5) saved first: the second
    phone, its pages and the board's address."""
    board_url = start_game(b, ["Ada", "Bo", "Cyd"])
    enter_round(b, board_url, "Ada", {1: "7", 2: "JK 5 5"})
    d_pages = _page(browser, live_server, NARROW_PHONE, owner_cookie)
    d = next(d_pages)
    b.goto(board_url + "/rounds/1/edit")
    d.goto(board_url + "/rounds/1/edit")
    b.fill("#hands-2-cards", "JK 5")
    b.click("button.save-round")
    b.wait_for_url(board_url)
    return d, d_pages, board_url


def test_a_second_correction_merges_and_asks_about_the_hand_both_changed(
    narrow_phone: Any, browser: Any, live_server: str, owner_cookie: str
) -> None:
    d, d_pages, board_url = _overtaken_correction(narrow_phone, browser, live_server, owner_cookie)

    d.fill("#hands-1-cards", "8")
    d.fill("#hands-2-cards", "JK")
    d.click("button.save-round")
    expect(d.locator("#round-conflict")).to_be_visible()
    clash = d.locator("#clash-2")
    expect(clash).to_contain_text("Stored now JK 5")
    expect(clash).to_contain_text("Yours JK")
    expect(d.locator("#clash-1")).to_have_count(0)
    expect(d.locator("#hands-1-cards")).to_have_value("8")
    assert fits_width(d)
    screenshot(d, "games-correction-clash-360")

    d.locator("#round-conflict .reapply").click()
    expect(d.locator("#round-conflict")).to_contain_text("Choose for Cyd")
    d.locator("#clash-2 label.choice", has_text="Stored now").click()
    screenshot(d, "games-correction-clash-chosen-360")
    d.locator("#round-conflict .reapply").click()
    d.wait_for_url(board_url)
    d.locator("details.log summary").click()
    log = d.locator(".log-list")
    expect(log).to_contain_text("Round 1 corrected: Bo's cards 7 → 8")
    expect(log).not_to_contain_text("JK 5 → JK")
    next(d_pages, None)


def test_a_second_correction_of_another_hand_is_saved_at_once_and_says_what_else_changed(
    narrow_phone: Any, browser: Any, live_server: str, owner_cookie: str
) -> None:
    """Issue 35, item 3: nothing clashes, so the second phone's Save stores its correction
    merged with the first phone's (one tap), and its board says what the other phone changed."""
    d, d_pages, board_url = _overtaken_correction(narrow_phone, browser, live_server, owner_cookie)

    d.fill("#hands-1-cards", "8")
    d.click("button.save-round")
    d.wait_for_url(board_url)
    flash = d.locator(".flash", has_text="Round 1 corrected")
    expect(flash).to_contain_text("Another phone had changed round 1 meanwhile, and that stays")
    expect(flash).to_contain_text("Cyd JK 5")
    assert fits_width(d)
    screenshot(d, "games-correction-clean-merge-360")
    d.locator("details.log summary").click()
    log = d.locator(".log-list")
    expect(log).to_contain_text("Round 1 corrected: Bo's cards 7 → 8")
    expect(log).to_contain_text("Cyd's cards JK 5 5 → JK 5")
    next(d_pages, None)


def test_a_preview_still_on_its_way_when_the_conflict_comes_back_leaves_the_form_whole(
    narrow_phone: Any, browser: Any, live_server: str, owner_cookie: str
) -> None:
    """A slow signal: Bo's points were still being worked out when Save came back refused.
    That late answer belongs to the form that is gone; the conflict page keeps its fields."""
    d, d_pages, _ = _overtaken_correction(narrow_phone, browser, live_server, owner_cookie)
    held: list[Route] = []

    def hold_previews(route: Route) -> None:
        if "preview=" in (route.request.post_data or ""):
            held.append(route)
        else:
            route.continue_()

    d.route(re.compile(r"/rounds/1/edit$"), hold_previews)
    with d.expect_request(lambda request: "preview=1" in (request.post_data or "")):
        d.fill("#hands-1-cards", "8")
    # Heard on the field itself, which the page will no longer hold by then.
    d.evaluate(
        """() => document.getElementById("hands-1-cards").addEventListener(
            "htmx:afterRequest", () => { window.previewAnswered = true; })"""
    )
    d.fill("#hands-2-cards", "JK")
    d.click("button.save-round")
    expect(d.locator("#round-conflict")).to_be_visible()
    assert held
    for route in held:
        with contextlib.suppress(Error):  # the page may have let it go already
            route.continue_()
    d.wait_for_function("() => window.previewAnswered === true")
    expect(d.locator("#hands-1-cards")).to_have_value("8")
    expect(d.locator("#hands-2-cards")).to_have_value("JK")
    expect(d.locator("#hand-1 .hand-pad")).to_be_visible()
    next(d_pages, None)
