"""Table and watch links in a real browser: a scorer shows the QR code, a second phone scores
through the table link without an account, a third watches read-only and can change nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import (
    NARROW_PHONE,
    PASSWORD,
    _page,
    fits_width,
    screenshot,
    serious_accessibility_violations,
    sign_in_cookie,
)

pytestmark = pytest.mark.browser


def test_the_table_scores_through_a_qr_link_and_relatives_watch(
    phone: Any, browser: Any, live_server: str
) -> None:
    phone.goto("/games/new")
    for seat, name in enumerate(["Ida", "Jon", "Kai"]):
        phone.fill(f"#players-{seat}", name)
    phone.click("button[name=start]")
    phone.wait_for_url(re.compile(r"/games/\d+$"))
    board_url = phone.url

    phone.get_by_role("link", name="Let the table score").click()
    phone.get_by_role("button", name="New table link").click()
    qr = phone.locator(".link-card svg").first
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    assert box is not None and box["width"] >= 150  # big enough to scan off a phone
    assert fits_width(phone)
    assert serious_accessibility_violations(phone) == []
    screenshot(phone, "links-table-qr")
    table_url = phone.locator(".link-card input.copy-field").first.input_value()
    assert re.search(r"/t/[A-Za-z0-9_-]{43}$", table_url)
    phone.get_by_role("button", name="New watch link").click()
    watch_url = phone.get_by_role("textbox", name="Watch link address").input_value()

    # A second phone: no account, only the scanned address.
    guests = _page(browser, live_server, NARROW_PHONE)
    guest = next(guests)
    guest.goto(table_url.removeprefix(live_server))
    guest.wait_for_url(board_url)
    guest.get_by_role("link", name="Enter round 1").click()
    guest.locator("fieldset.went-out label.choice", has_text="Ida").click()
    guest.fill("#hands-1-cards", "K Q")
    guest.fill("#hands-2-cards", "5")
    guest.click("button.save-round")
    guest.wait_for_url(board_url)
    expect(guest.locator("#board table.rounds")).to_contain_text("20")
    # That phone reaches this game only.
    guest.goto("/history")
    guest.wait_for_url(board_url)
    next(guests, None)

    # A relative at home: the live board, read-only.
    watchers = _page(browser, live_server, NARROW_PHONE)
    watcher = next(watchers)
    watcher.goto(watch_url.removeprefix(live_server))
    expect(watcher.locator("#board table.rounds")).to_contain_text("20")
    assert watcher.url == watch_url  # the board at the link's own address
    assert watcher.locator("form[method=post]").count() == 0
    assert watcher.get_by_role("link", name=re.compile("Enter round|Correct round")).count() == 0
    # Share (which hands over this watch link) is the only button.
    expect(watcher.get_by_role("button")).to_have_text(["Share"])
    assert fits_width(watcher)
    screenshot(watcher, "links-watch-360")
    answer = watcher.goto(board_url.removeprefix(live_server) + "/rounds/new")
    assert answer is not None and answer.status == 403
    # That refusal was asked for: the only console error of this page, and expected.
    assert [p for p in watcher.problems if "403" not in p] == []
    watcher.problems.clear()
    next(watchers, None)

    # The owner's board names who saved the round.
    phone.goto(board_url)
    phone.locator("details.log summary").click()
    expect(phone.locator(".log-list")).to_contain_text("table link made by family-owner")

    # A member of another household who opens the link is asked first: nothing changes until
    # they choose to sign out and follow it.
    phone.goto("/households")
    phone.fill("#name", "Neighbours")
    phone.fill("#username", "nell")
    phone.fill("#password", PASSWORD)
    phone.fill("#confirm", PASSWORD)
    phone.get_by_role("button", name="Add household").click()
    expect(phone.locator(".flash")).to_contain_text("Neighbours is ready")
    neighbours = _page(browser, live_server, NARROW_PHONE, sign_in_cookie(live_server, "nell"))
    neighbour = next(neighbours)
    neighbour.goto(table_url.removeprefix(live_server))
    expect(neighbour.get_by_role("heading", level=1)).to_have_text("Sign out to follow this link?")
    assert fits_width(neighbour)
    assert serious_accessibility_violations(neighbour) == []
    screenshot(neighbour, "links-follow-360")
    neighbour.get_by_role("link", name="Stay signed in").click()
    neighbour.locator("header.top summary", has_text="Menu").click()  # one button on a phone
    expect(neighbour.get_by_role("link", name="nell")).to_be_visible()
    neighbour.goto(table_url.removeprefix(live_server))
    neighbour.get_by_role("button", name="Sign out and follow the link").click()
    neighbour.wait_for_url(board_url)
    expect(neighbour.locator("#board table.rounds")).to_contain_text("20")
    next(neighbours, None)


def _new_link(page: Any, board: str, kind: str) -> str:
    """A new link of ``kind`` ("table", "watch") to the game at ``board``, made on its links
    page as a scorer makes it; its address, from the server's root."""
    page.goto(board + "/links")
    page.get_by_role("button", name=f"New {kind} link").click()
    page.wait_for_url(re.compile(r"#link-\d+$"))
    card = page.url.rsplit("#", 1)[1]
    address = page.locator(f"#{card} input.copy-field").input_value()
    return "/" + address.split("/", 3)[3]


def test_the_table_and_the_watchers_see_how_the_game_moved_the_ratings(
    desktop: Any, browser: Any, live_server: str, sample_games: dict[str, str]
) -> None:
    """Issue 26: "Maud +1.8" on the finished scoreboard, for phones let in by the table link
    and by the watch link at 360 px, and for a phone without JavaScript, by a plain link."""
    board = sample_games["finished"]
    table_link = _new_link(desktop, board, "table")
    watch_link = _new_link(desktop, board, "watch")
    for address, name in ((table_link, "table"), (watch_link, "watch")):
        pages = _page(browser, live_server, NARROW_PHONE)
        page = next(pages)
        page.goto(address)
        line = page.locator("#board .rating-changes")
        expect(line).to_contain_text("Ratings:")
        moves = line.locator(".rating-change")
        expect(moves).to_have_count(3)
        for player in ("Maud", "Nell", "Otto"):
            expect(line).to_contain_text(re.compile(player + r"[ \u00a0](\+|\u2212|±)\d+\.\d"))
        assert line.locator("a").count() == 0  # the players' pages are not the link's
        assert fits_width(page)
        screenshot(page, f"ratings-{name}-link-360")
        next(pages, None)
    # Without JavaScript: the board names the ratings by a plain link, which shows them.
    plain = _page(browser, live_server, {**NARROW_PHONE, "java_script_enabled": False})
    page = next(plain)
    page.goto(table_link)
    screenshot(page, "ratings-board-360-no-js")
    page.get_by_role("link", name="How this game moved the ratings").click()
    page.wait_for_url(re.compile(r"/history/games/\d+/ratings$"))
    expect(page.locator(".rating-change")).to_have_count(3)
    expect(page.locator(".rating-changes")).to_contain_text(
        re.compile(r"Maud[ \u00a0](\+|\u2212|±)\d")
    )
    screenshot(page, "ratings-table-link-360-no-js")
    next(plain, None)
