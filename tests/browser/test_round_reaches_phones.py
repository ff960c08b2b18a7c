"""At the table (issue 52, item 5), at 360 x 640: a round saved on one phone shows on another
by its poll; the "Round 1 stored" a phone was shown goes once the next round is under way
(before, it stayed through the next round); a hidden page (the screen off) asks nothing
and asks at once when it is shown again.

How soon a round shows is measured by ``bench.reach`` (a round on every phone within 1.5 s at
300 ms); here the waits are for events, with generous bounds, for a hang only."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import _page, enter_round, fits_width, screenshot
from .test_own_hands import _seated_phones, _table, _table_link

pytestmark = pytest.mark.browser

SMALL_PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
NAMES = ("Ann", "Ben", "Cy")
HIDE = """(hidden) => {
  const state = hidden ? "hidden" : "visible";
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  document.dispatchEvent(new Event("visibilitychange"));
}"""
# The board's poll triggers, counted after app.js has had its say on each (sent or not).
COUNT_TRIGGERS = """() => {
  window.boardTriggers = 0;
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (event.detail.elt && event.detail.elt.id === "board") window.boardTriggers += 1;
  });
}"""


@pytest.fixture
def table(browser: Any, live_server: str, owner_cookie: str) -> Iterator[tuple[Any, Any, str]]:
    """The scorer's phone on a new game's board, and a phone let in by its table link on the
    same board: (scorer, table phone, the board's address)."""
    scorers = _page(browser, live_server, SMALL_PHONE, owner_cookie)
    scorer = next(scorers)
    board, link = _table(scorer, live_server, NAMES)
    phones = _page(browser, live_server, SMALL_PHONE)
    phone = next(phones)
    phone.goto(link)
    phone.wait_for_url(f"{live_server}{board}")
    scorer.goto(board)
    yield scorer, phone, f"{live_server}{board}"
    for context in (phones, scorers):
        next(context, None)


def test_a_round_saved_on_one_phone_shows_on_the_other(table: tuple[Any, Any, str]) -> None:
    scorer, phone, board = table
    enter_round(scorer, board, "Ann", {1: "K Q", 2: "5"})
    # The other phone shows the round by its poll, without a tap.
    expect(phone.locator("#board .lede")).to_contain_text("round 2 next")
    totals = phone.locator("#board table.rounds tfoot td")
    expect(totals).to_have_text([re.compile(rf"^\s*{points}\s*$") for points in (0, 20, 5)])
    assert fits_width(phone)
    screenshot(phone, "i52-round-arrived-360")


def test_the_stored_note_goes_once_the_next_round_is_under_way(
    browser: Any, live_server: str, table: tuple[Any, Any, str]
) -> None:
    """Each player on their own phone: the phone whose hand was the last in is told "Round 1
    stored: every hand was in." over round 2's hand; once someone goes out in round 2 it goes
    (before, it stayed there through round 2)."""
    scorer, _phone, board = table
    link = _table_link(scorer, live_server)
    path = board.removeprefix(live_server)
    contexts, (ann, ben, cy) = _seated_phones(browser, live_server, link, path, NAMES)
    ann.get_by_role("button", name="I went out").click()
    ben.get_by_role("button", name="Add K", exact=True).click()
    expect(ben.get_by_label("Your cards left")).to_have_value("K")
    ben.get_by_role("button", name="Not made ✗").click()
    expect(ben.locator(".my-state")).to_contain_text("Your hand is in")
    cy.get_by_role("button", name="Add 5", exact=True).click()
    expect(cy.get_by_label("Your cards left")).to_have_value("5")
    cy.get_by_role("button", name="Not made ✗").click()
    note = cy.locator("main > .flash")
    expect(note).to_contain_text("Round 1 stored: every hand was in.")
    screenshot(cy, "i52-stored-note-360")

    ben.get_by_role("button", name="I went out").click()
    expect(cy.get_by_label("Your cards left")).to_be_visible()
    expect(note).to_have_count(0)
    assert fits_width(cy)
    screenshot(cy, "i52-next-round-no-note-360")
    for context in contexts:
        next(context, None)


def test_a_hidden_page_asks_nothing_and_asks_at_once_when_shown(
    table: tuple[Any, Any, str],
) -> None:
    scorer, phone, board = table
    polls: list[str] = []
    phone.on("request", lambda asked: polls.append(asked.url) if "/board?v=" in asked.url else None)
    phone.evaluate(COUNT_TRIGGERS)
    phone.evaluate(HIDE, True)
    # The poll's timer still fires; app.js lets none of it go out while the page is hidden.
    phone.wait_for_function("() => window.boardTriggers >= 1")
    sent = len(polls)
    enter_round(scorer, board, "Cy", {0: "K", 1: "Q"})
    phone.wait_for_function("() => window.boardTriggers >= 4")
    assert len(polls) == sent, f"a hidden page polled: {polls[sent:]}"
    expect(phone.locator("#board .lede")).to_contain_text("round 1 next")

    with phone.expect_request(lambda asked: "/board?v=" in asked.url):
        phone.evaluate(HIDE, False)
    expect(phone.locator("#board .lede")).to_contain_text("round 2 next")
    screenshot(phone, "i52-shown-again-360")
