"""Issue 43, item 3 at 360 px, light and dark: after a round the scorer says "Xan leaves the
game" (asked first) and adds Yve with the highest total so far; the standings mark Xan as
gone, the next round's form deals Yve in and leaves Xan out, and nothing is wider than the
phone."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import NARROW_PHONE, _page, enter_round, fits_width, screenshot, start_game

pytestmark = pytest.mark.browser


@pytest.fixture(params=["light", "dark"])
def scheme_phone(
    request: pytest.FixtureRequest, browser: Any, live_server: str, owner_cookie: str
) -> Iterator[Any]:
    for page in _page(
        browser, live_server, {**NARROW_PHONE, "color_scheme": request.param}, owner_cookie
    ):
        yield page, request.param


def test_a_player_leaves_and_one_joins_between_rounds(scheme_phone: Any) -> None:
    phone, scheme = scheme_phone
    board = start_game(phone, ["Una", "Vic", "Wes", "Xan"])
    enter_round(phone, board, "Una", {1: "K", 2: "5", 3: "K Q"})

    phone.get_by_text("A player leaves…").click()
    phone.get_by_role("link", name="Xan leaves the game").click()
    expect(phone.get_by_text("Does Xan leave after round 1?")).to_be_visible()
    assert fits_width(phone)
    phone.get_by_role("button", name="Yes, Xan leaves").click()
    phone.wait_for_url(board)
    expect(phone.locator(".standings .comings")).to_have_text("left after round 1")

    phone.get_by_text("Add a player…").click()
    phone.fill("#join-name", "Yve")
    phone.get_by_label("the highest total so far: 10 points").check()
    phone.get_by_role("button", name="Add to round 2").click()
    phone.wait_for_url(board)
    expect(phone.locator(".flash").first).to_contain_text("Yve joined the game.")
    assert fits_width(phone)
    screenshot(phone, f"games-leave-and-join-board-360-{scheme}")

    phone.goto(board + "/rounds/new")
    expect(phone.locator("#hands-4-cards")).to_be_visible()
    expect(phone.locator("#hands-3-cards")).to_have_count(0)
    expect(phone.locator("fieldset.went-out label.choice", has_text="Xan")).to_have_count(0)
    assert fits_width(phone)
    enter_round(phone, board, "Yve", {0: "5", 1: "5", 2: "5"})
    # Round 2's row (after Yve's own "joined" row, with the 10 she brought): Xan's cell says
    # not in this round.
    arrival = phone.locator("table.rounds tbody tr.arrival")
    expect(arrival).to_have_count(1)
    said = "10 Yve joined the game before round 2 with 10 points."
    expect(arrival.locator("td.arrived")).to_have_text(said)
    rounds = phone.locator("table.rounds tbody tr:not(.arrival)")
    expect(rounds.nth(1).locator("td.out-of-round")).to_have_count(1)
    expect(phone.locator(".standings tr", has_text="Yve").locator(".total")).to_have_text("10")
    # Xan calls no May I any more; Yve's running total starts at the 10 points she brought.
    expect(phone.locator("#may-i", has_text="Xan")).to_have_count(0)
    expect(phone.locator(".chart-label", has_text="Yve 10")).to_have_count(1)
    assert fits_width(phone)
    screenshot(phone, f"games-leave-and-join-round-2-360-{scheme}")
