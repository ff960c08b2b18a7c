"""Issue 35 at 360 x 640, items 1 and 2: one phone a seat (a held seat is shown taken, taking
it over asks, the phone that held it learns so on its next poll with its typing kept), and a
hand refused where it is typed (at Done, at the field; a round refused as a whole said on every
phone, naming whose hands to change, and changed on the close page)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import _page, fits_width, screenshot, serious_accessibility_violations
from .test_own_hands import SMALL_PHONE, _seated_phones, _table

pytestmark = pytest.mark.browser
LONG = "Bartholomew Featherstonehaugh"


def test_a_seat_on_another_phone_is_taken_over_only_when_asked(
    browser: Any, live_server: str, owner_cookie: str
) -> None:
    scorers = _page(browser, live_server, SMALL_PHONE, owner_cookie)
    scorer = next(scorers)
    board, link = _table(scorer, live_server, ("Ann", "Ben", "Cy", LONG))
    contexts, (ann, ben, _) = _seated_phones(
        browser, live_server, link, board, ("Ann", "Ben", LONG)
    )
    ann.get_by_role("button", name="I went out").click()
    for key in ("K", "K"):
        ben.get_by_role("button", name=f"Add {key}").click()
    expect(ben.get_by_label("Your cards left")).to_have_value("K K")

    # The fifth phone in the dark, with long names held.
    fifths = _page(browser, live_server, {**SMALL_PHONE, "color_scheme": "dark"})
    fifth = next(fifths)
    fifth.goto(link)
    fifth.wait_for_url(re.compile(rf"{board}$"))
    fifth.goto(f"{board}/seat")
    expect(fifth.get_by_role("button", name="I'm Ben")).to_contain_text("Ben: on another phone")
    expect(fifth.get_by_role("button", name="I'm Cy", exact=True)).not_to_contain_text("another")
    expect(fifth.get_by_role("button", name=f"I'm {LONG}")).to_contain_text("on another phone")
    assert fits_width(fifth)
    assert serious_accessibility_violations(fifth) == []
    screenshot(fifth, "own-hand-seat-picker-taken-360")
    fifth.get_by_role("button", name="I'm Ben").click()
    expect(fifth.locator("#take-over")).to_contain_text("Ben's seat is on another phone.")
    assert fits_width(fifth)
    screenshot(fifth, "own-hand-seat-take-over-360")
    # Ben's phone still holds the seat while the question stands.
    expect(ben.get_by_label("Your cards left")).to_be_visible()
    fifth.get_by_role("button", name="Yes, this phone is Ben").click()
    fifth.wait_for_url(re.compile(r"/hand$"))
    expect(fifth.get_by_label("Your cards left")).to_have_value("K K")

    # The phone that held it learns by its poll (a second here), its typing shown.
    lost = ben.locator("#hand-errors")
    expect(lost).to_contain_text("Another phone took over Ben's seat")
    expect(lost).to_contain_text("What this phone had typed, kept: K K.")
    expect(ben.get_by_role("button", name="Add K")).to_have_count(0)
    assert fits_width(ben)
    screenshot(ben, "own-hand-seat-lost-360")
    # The fifth phone changes the hand meanwhile.
    with fifth.expect_response(lambda answer: answer.request.method == "POST"):
        fifth.get_by_role("button", name="Add Q").click()
    expect(fifth.get_by_label("Your cards left")).to_have_value("K K Q")
    # Taking it back asks as well; then what the fifth phone put in stands, and what this phone
    # had typed is offered, put back with one tap.
    ben.get_by_role("button", name="Take Ben's seat back…").click()
    expect(ben.locator("#take-over")).to_be_visible()
    ben.get_by_role("button", name="Yes, this phone is Ben").click()
    ben.wait_for_url(re.compile(r"/hand$"))
    expect(ben.get_by_label("Your cards left")).to_have_value("K K Q")
    offer = ben.locator("#typed-back")
    expect(offer).to_contain_text("Before another phone took this seat, this phone had typed K K.")
    assert fits_width(ben)
    screenshot(ben, "own-hand-seat-taken-back-360")
    with ben.expect_response(lambda answer: answer.request.method == "POST"):
        ben.get_by_role("button", name="Put back K K").click()
    expect(offer).to_have_count(0)
    ben.reload()
    expect(ben.get_by_label("Your cards left")).to_have_value("K K")
    expect(ben.locator("#typed-back")).to_have_count(0)
    for context in (*contexts, fifths, scorers):
        next(context, None)


def test_a_hand_the_packs_cannot_hold_is_refused_at_done_and_a_refused_round_says_whose(
    browser: Any, live_server: str, owner_cookie: str
) -> None:
    scorers = _page(browser, live_server, SMALL_PHONE, owner_cookie)
    scorer = next(scorers)
    board, link = _table(scorer, live_server, ("Ann", "Ben", "Cy"))
    contexts, (ann, ben, cy) = _seated_phones(
        browser, live_server, link, board, ("Ann", "Ben", "Cy")
    )
    ann.get_by_role("button", name="I went out").click()

    # Five jokers: two packs hold four. Said at the field as it is typed, refused at Done,
    # the typing kept.
    for _ in range(5):
        ben.get_by_role("button", name="Add a joker").click()
    error = ben.locator("#my-cards-error")
    expect(error).to_contain_text("5 × Joker, but these packs hold only 4")
    ben.get_by_role("button", name="Made ✓").click()
    expect(ben.locator(".my-state")).to_contain_text("went out. Tap your cards left")
    ben.wait_for_timeout(1500)  # every answer in, a poll gone by: still refused
    expect(error).to_contain_text("5 × Joker, but these packs hold only 4")
    expect(ben.get_by_label("Your cards left")).to_have_value("JK JK JK JK JK")
    expect(ben.locator(".my-state")).not_to_contain_text("Your hand is in")
    assert fits_width(ben)
    screenshot(ben, "own-hand-refused-at-done-360")

    # Three and two: each fits, together they do not. Every phone says why, and whose.
    ben.get_by_label("Your cards left").fill("JK JK JK")
    expect(ben.get_by_label("Your cards left")).to_have_value("JK JK JK")
    ben.get_by_role("button", name="Not made ✗").click()
    expect(ben.locator(".my-state")).to_contain_text("Your hand is in")
    for _ in range(2):
        cy.get_by_role("button", name="Add a joker").click()
    expect(cy.get_by_label("Your cards left")).to_have_value("JK JK")
    cy.get_by_role("button", name="Not made ✗").click()
    scorer.goto(board)
    for phone in (ann, ben, cy, scorer):
        refused = phone.locator("#draft-refused")
        expect(refused).to_contain_text("Round 1 cannot be stored as the hands stand")
        expect(refused).to_contain_text("5 × Joker, but these packs hold only 4")
        expect(refused).to_contain_text("Check Ben's and Cy's hands")
    assert fits_width(scorer)
    screenshot(scorer, "board-round-refused-360")
    # The scorer's first button settles the refused round; no shortcut starts another.
    first = scorer.locator("#board a.button.primary").first
    expect(first).to_have_text("Close round 1")
    expect(scorer.locator(".went-out-links")).to_have_count(0)
    screenshot(cy, "own-hand-round-refused-360")

    # The scorer changes Cy's hand, which is in, on the close page: the round is stored.
    scorer.get_by_role("link", name="Close round 1").click()
    expect(scorer.locator("#draft-refused")).to_be_visible()
    cy_field = scorer.locator("#hands-2-cards")
    expect(cy_field).to_be_visible()  # a hand it names is unfolded
    assert fits_width(scorer)
    screenshot(scorer, "close-round-refused-360")
    cy_field.fill("5")
    scorer.get_by_role("button", name="Close round 1").click()
    scorer.wait_for_url(re.compile(rf"{board}$"))
    expect(scorer.locator(".flash")).to_contain_text("Round 1 stored.")
    expect(cy.locator("#last-round")).to_contain_text("Round 1")
    for context in (*contexts, scorers):
        next(context, None)
