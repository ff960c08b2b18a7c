"""Issue 14 item 1 in a real browser: four phones at 360 x 640 open one table link, each
picks its seat and enters its own hand; the round closes by itself with the right scores, and
a reload in the middle of counting keeps the cards tapped so far."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .conftest import _page, fits_width, screenshot, serious_accessibility_violations

SMALL_PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
PLAYERS = ("Ann", "Ben", "Cy", "Dee")


def test_four_phones_each_enter_their_own_hand(
    browser: Any, live_server: str, owner_cookie: str
) -> None:
    scorers = _page(browser, live_server, SMALL_PHONE, owner_cookie)
    scorer = next(scorers)
    scorer.goto("/games/new")
    for seat, name in enumerate(PLAYERS):
        scorer.fill(f"#players-{seat}", name)
    scorer.click("button[name=start]")
    scorer.wait_for_url(re.compile(r"/games/\d+$"))
    board_url = scorer.url
    scorer.get_by_role("link", name="Let the table score").click()
    scorer.get_by_role("button", name="New table link").click()
    table_url = scorer.locator(".link-card input.copy-field").first.input_value()
    scorer.goto(board_url)

    contexts = [_page(browser, live_server, SMALL_PHONE) for _ in PLAYERS]
    phones = [next(context) for context in contexts]
    for seat, (phone, name) in enumerate(zip(phones, PLAYERS, strict=True)):
        phone.goto(table_url.removeprefix(live_server))
        phone.wait_for_url(board_url)
        phone.get_by_role("link", name="My hand, on this phone").click()
        phone.wait_for_url(re.compile(r"/seat$"))
        if seat == 0:
            assert fits_width(phone)
            assert serious_accessibility_violations(phone) == []
            screenshot(phone, "own-hand-seat-picker")
        phone.get_by_role("button", name=f"I'm {name}").click()
        phone.wait_for_url(re.compile(r"/hand$"))
        expect(phone.locator("h1")).to_have_text(f"{name}'s hand")

    ann, ben, cy, dee = phones
    ann.get_by_role("button", name="I went out").click()
    expect(ann.locator(".my-state")).to_contain_text("You went out")
    # Every other phone shows its own pad by itself (it polls while it waits).
    for phone in (ben, cy, dee):
        expect(phone.get_by_label("Your cards left")).to_be_visible()

    for key in ("K", "Q"):
        ben.get_by_role("button", name=f"Add {key}").click()
    expect(ben.get_by_label("Your cards left")).to_have_value("K Q")
    expect(ben.locator("#my-points")).to_contain_text("20")
    assert fits_width(ben)
    assert serious_accessibility_violations(ben) == []
    screenshot(ben, "own-hand-pad")
    ben.get_by_role("button", name="Done: contract made ✓").click()
    expect(ben.locator(".my-state")).to_contain_text("Your hand is in")

    # Cy taps two cards, then the phone reloads (a lost signal, a tap on the wrong link).
    cy.get_by_role("button", name="Add 5").click()
    expect(cy.get_by_label("Your cards left")).to_have_value("5")
    cy.get_by_role("button", name="Add 5").click()
    expect(cy.get_by_label("Your cards left")).to_have_value("5 5")
    cy.reload()
    expect(cy.get_by_label("Your cards left")).to_have_value("5 5")
    cy.get_by_role("button", name="Done: not made").click()

    dee.get_by_role("button", name="Add a joker").click()
    dee.get_by_role("button", name="Add 9").click()
    expect(dee.get_by_label("Your cards left")).to_have_value("JK 9")

    scorer.goto(board_url)
    expect(scorer.locator("#draft-status")).to_contain_text("Ann went out. Counting: Dee.")
    assert fits_width(scorer)
    screenshot(scorer, "own-hand-board-counting")

    dee.get_by_role("button", name="Done: not made").click()
    expect(dee.locator("#last-round")).to_contain_text("Round 1: Ann went out")
    # 12-Step: K and Q 10 each, 2 to 9 five each, a joker 50.
    totals = scorer.locator("#board table.rounds tfoot td")
    expect(totals).to_have_text([re.compile(rf"^\s*{points}\s*$") for points in (0, 20, 10, 55)])
    # The phones waiting on their hands moved on to round 2 by themselves.
    expect(ben.locator(".deal")).to_contain_text("Round 2")
    expect(ann.get_by_role("button", name="I went out")).to_be_visible()
    screenshot(dee, "own-hand-next-round")

    # Round 2: Ben goes out; the scorer closes it with Dee's hand typed on the close page.
    ben.get_by_role("button", name="I went out").click()
    scorer.goto(board_url)
    scorer.get_by_role("link", name="Close round 2").click()
    expect(scorer.locator("h1")).to_have_text("Close round 2")
    scorer.get_by_label("Dee's cards left (still counting)").fill("A")
    assert fits_width(scorer)
    assert serious_accessibility_violations(scorer) == []
    screenshot(scorer, "own-hand-close-round")

    for context in (*contexts, scorers):
        next(context, None)
