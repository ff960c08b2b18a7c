"""Keeping score on a real phone browser: start a game, tap cards on the pad (htmx), see the
points live, save, and watch a second phone's scoreboard update by itself."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import (
    NARROW_PHONE,
    _page,
    fits_width,
    screenshot,
    serious_accessibility_violations,
)

pytestmark = pytest.mark.browser


def test_a_round_entered_with_the_pad_shows_on_another_phone(
    phone: Any, browser: Any, live_server: str, owner_cookie: str
) -> None:
    phone.goto("/games/new")
    for seat, name in enumerate(["Wyn", "Xia", "Yul"]):
        phone.fill(f"#players-{seat}", name)
    phone.click("button[name=start]")
    phone.wait_for_url(re.compile(r"/games/\d+$"))
    assert phone.get_by_text("Before the first deal").is_visible()
    assert fits_width(phone)
    board_url = phone.url

    watcher_pages = _page(browser, live_server, NARROW_PHONE, owner_cookie)
    watcher = next(watcher_pages)
    watcher.goto(board_url)

    phone.get_by_role("link", name="Enter round 1").click()
    phone.locator("fieldset.went-out label.choice", has_text="Wyn").click()
    expect(phone.locator("#hand-0 .when-out")).to_be_visible()
    expect(phone.locator("#hand-0 .hand-pad")).to_be_hidden()
    # Quick taps queue up: none is lost while the one before is on its way.
    for rank in ("K", "JK", "A", "Q"):
        phone.locator(f"#hand-1 .hand-pad button[value='{rank}']").click()
    expect(phone.locator("#hands-1-cards")).to_have_value("K JK A Q")
    expect(phone.locator("#points-1")).to_contain_text("90")
    phone.locator("#hand-1 .chips button", has_text="A").click()
    expect(phone.locator("#hands-1-cards")).to_have_value("K JK Q")
    expect(phone.locator("#points-1")).to_contain_text("70")
    phone.fill("#hands-2-cards", "A 5")
    expect(phone.locator("#points-2")).to_contain_text("25")
    assert serious_accessibility_violations(phone) == []
    assert fits_width(phone)
    screenshot(phone, "games-round-entry")
    phone.click("button.save-round")
    phone.wait_for_url(board_url)

    watcher.locator("#board table.rounds tbody tr").first.wait_for()
    expect(watcher.locator("#board table.standings")).to_contain_text("70")
    assert fits_width(watcher)
    screenshot(watcher, "games-scoreboard-360")
    assert serious_accessibility_violations(watcher) == []
    next(watcher_pages, None)
