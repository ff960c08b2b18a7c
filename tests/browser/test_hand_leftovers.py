"""The own-hand page's leftovers of issue 43, on a 360 x 640 phone: a bad card typed is shown
without moving the pad below it, the note of a hand kept without signal is never drawn over the
Menu button, and "Counting: ..." follows the hands coming in under a pad with cards typed."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import _page, screenshot, wait_for_worker
from .test_offline import OFFLINE_NOISE
from .test_own_hands import SMALL_PHONE, _seated, _table
from .test_readable import MEASURE

pytestmark = pytest.mark.browser


def _first_key_top(phone: Any) -> float:
    box = phone.locator(".hand-pad button").first.bounding_box()
    assert box is not None
    return float(box["y"])


def test_a_bad_card_typed_leaves_the_pad_where_it_was(
    browser: Any, live_server: str, owner_cookie: str
) -> None:
    scorers = _page(browser, live_server, SMALL_PHONE, owner_cookie)
    scorer = next(scorers)
    board, link = _table(scorer, live_server, ("Ann", "Ben"))
    phones = [_page(browser, live_server, SMALL_PHONE) for _ in range(2)]
    ann, ben = (next(each) for each in phones)
    _seated(ann, link, board, "Ann")
    _seated(ben, link, board, "Ben")
    ann.get_by_role("button", name="I went out").click()
    field = ben.get_by_label("Your cards left")
    expect(field).to_be_visible()
    ben.get_by_role("button", name="Add K").click()
    expect(ben.locator("#my-cards .chips button")).to_have_count(1)
    before = _first_key_top(ben)
    field.fill("K Q 5 7 9 ZZ")
    expect(ben.locator("#my-cards-error")).to_be_visible()
    screenshot(ben, "own-hand-bad-card-360")
    assert _first_key_top(ben) == before
    for each in (*phones, scorers):
        next(each, None)


def test_the_note_of_a_hand_kept_offline_leaves_the_menu_uncovered(
    browser: Any, live_server: str, owner_cookie: str
) -> None:
    scorers = _page(browser, live_server, SMALL_PHONE, owner_cookie)
    scorer = next(scorers)
    board, link = _table(scorer, live_server, ("Ann", "Ben"))
    phones = [_page(browser, live_server, SMALL_PHONE) for _ in range(2)]
    ann, ben = (next(each) for each in phones)
    _seated(ann, link, board, "Ann")
    _seated(ben, link, board, "Ben")
    wait_for_worker(ben)
    ann.get_by_role("button", name="I went out").click()
    expect(ben.get_by_label("Your cards left")).to_be_visible()
    ben.context.set_offline(True)
    ben.get_by_role("button", name="Add K").click()
    expect(ben.locator("#hand-kept")).to_be_visible()
    screenshot(ben, "own-hand-offline-note-360")
    assert ben.evaluate(MEASURE)["covered"] == []
    ben.context.set_offline(False)
    expect(ben.locator("#hand-kept")).to_have_count(0)
    ben.problems[:] = [p for p in ben.problems if not any(n in p for n in OFFLINE_NOISE)]
    for each in (*phones, scorers):
        next(each, None)


def test_who_is_still_counting_follows_the_hands_coming_in(
    browser: Any, live_server: str, owner_cookie: str
) -> None:
    """A phone with cards typed keeps its pad still (its round's poll redraws nothing under
    the thumb), but "Counting: Ben, Cy." follows Cy's hand coming in."""
    scorers = _page(browser, live_server, SMALL_PHONE, owner_cookie)
    scorer = next(scorers)
    board, link = _table(scorer, live_server, ("Ann", "Ben", "Cy"))
    phones = [_page(browser, live_server, SMALL_PHONE) for _ in range(3)]
    ann, ben, cy = (next(each) for each in phones)
    for phone, name in ((ann, "Ann"), (ben, "Ben"), (cy, "Cy")):
        _seated(phone, link, board, name)
    ann.get_by_role("button", name="I went out").click()
    expect(ben.locator("#counting")).to_have_text("Counting: Ben, Cy.")
    ben.get_by_role("button", name="Add K").click()
    expect(ben.get_by_label("Your cards left")).to_have_value("K")
    expect(cy.get_by_label("Your cards left")).to_be_visible()
    cy.get_by_role("button", name="Add 5").click()
    cy.get_by_role("button", name="Not made ✗").click()
    expect(cy.locator(".my-state")).to_contain_text("Your hand is in")
    expect(ben.locator("#counting")).to_have_text("Counting: Ben.")
    screenshot(ben, "own-hand-counting-follows-360")
    # Ben's typing stands as it was.
    expect(ben.get_by_label("Your cards left")).to_have_value("K")
    for each in (*phones, scorers):
        next(each, None)
