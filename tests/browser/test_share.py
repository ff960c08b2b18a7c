"""Share and the result card at 360 px (issue 23, items 9 and 10): Share hands over the game's
watch link, which shows the live scores at its own address to someone with no account; the
result card is shown in a page with Share, a download and the way back to the scoreboard."""

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
    start_game,
)

pytestmark = pytest.mark.browser

WATCH_LINK = re.compile(r"/w/[A-Za-z0-9_-]{43}$")
# What the page handed to the share sheet: recorded instead of opening the phone's sheet.
RECORD_SHARE = """
Object.defineProperty(navigator, "share", {
  configurable: true,
  value: (data) => {
    window.sharedUrls = [...(window.sharedUrls || []), data.url];
    return Promise.resolve();
  },
});
"""


def _shared(page: Any, count: int) -> str:
    """The address handed over by the ``count``-th tap on Share."""
    for _ in range(100):
        urls = page.evaluate("window.sharedUrls || []")
        if len(urls) >= count:
            return str(urls[count - 1])
        page.wait_for_timeout(100)
    raise AssertionError(f"Share handed nothing over (tap {count})")


def test_share_hands_over_a_watch_link_that_opens_without_an_account(
    narrow_phone: Any, browser: Any, live_server: str
) -> None:
    owner = narrow_phone
    owner.add_init_script(RECORD_SHARE)
    board_url = start_game(owner, ["Tess", "Uma", "Vic"])
    owner.get_by_role("button", name="Share").click()
    shared = _shared(owner, 1)
    assert WATCH_LINK.search(shared), shared
    # Again: the same link, not a new one each time.
    owner.get_by_role("button", name="Share").click()
    assert _shared(owner, 2) == shared

    # A relative with no account opens it: the live scores, at the link's own address.
    relatives = _page(browser, live_server, NARROW_PHONE)
    relative = next(relatives)
    relative.add_init_script(RECORD_SHARE)
    answer = relative.goto(shared.removeprefix(live_server))
    assert answer is not None and answer.status == 200
    expect(relative.locator("#board")).to_contain_text("Tess")
    assert relative.url == shared
    assert fits_width(relative)
    assert serious_accessibility_violations(relative) == []
    screenshot(relative, "share-watch-360")
    # Re-shared from the address bar: someone else with no account gets the scores too.
    again = _page(browser, live_server, NARROW_PHONE)
    other = next(again)
    other.goto(relative.url.removeprefix(live_server))
    expect(other.locator("#board")).to_contain_text("Uma")
    assert other.url == shared
    next(again, None)
    # The relative's own Share hands over the same watch link.
    relative.get_by_role("button", name="Share").click()
    assert _shared(relative, 1) == shared
    next(relatives, None)

    # A table link's phone hands over a watch link made through its table link, which ends when
    # the table link does (issue 36): never the member's lasting one, and one where none was.
    owner.goto(board_url.removeprefix(live_server) + "/links")
    owner.get_by_role("button", name="New table link").click()
    table_url = owner.locator(".link-card input.copy-field").first.input_value()
    bare_board = start_game(owner, ["Wyn", "Xan"])
    owner.goto(bare_board.removeprefix(live_server) + "/links")
    owner.get_by_role("button", name="New table link").click()
    bare_table_url = owner.locator(".link-card input.copy-field").first.input_value()

    tables = _page(browser, live_server, NARROW_PHONE)
    table = next(tables)
    table.add_init_script(RECORD_SHARE)
    table.goto(table_url.removeprefix(live_server))
    table.wait_for_url(board_url)
    table.get_by_role("button", name="Share").click()
    through = _shared(table, 1)
    assert WATCH_LINK.search(through) and through != shared
    table.goto(bare_table_url.removeprefix(live_server))
    table.wait_for_url(bare_board)
    table.get_by_role("button", name="Share").click()
    bare = _shared(table, 1)  # a new page: its own record of what was shared
    assert WATCH_LINK.search(bare) and bare not in (shared, through)
    next(tables, None)
    watchers = _page(browser, live_server, NARROW_PHONE)
    watcher = next(watchers)
    watcher.goto(bare.removeprefix(live_server))
    expect(watcher.locator("#board")).to_contain_text("Wyn")
    next(watchers, None)
    owner.goto(bare_board.removeprefix(live_server) + "/links")
    expect(owner.locator(".link-card").first).to_contain_text("ends when that phone's table link")


def test_the_result_card_is_a_page_with_share_and_a_way_back(
    narrow_phone: Any, browser: Any, live_server: str, sample_games: dict[str, str]
) -> None:
    page = narrow_phone
    page.add_init_script(RECORD_SHARE)
    board = sample_games["finished"]
    page.goto(board)
    page.get_by_role("link", name="Result card").click()
    page.wait_for_url(re.compile(r"/games/\d+/result$"))
    card = page.locator("img[src$='/card.png']")
    expect(card).to_be_visible()
    alt = card.get_attribute("alt") or ""
    assert "Maud" in alt or "Nell" in alt or "Otto" in alt, alt
    assert page.evaluate("document.querySelector('img[src$=\"/card.png\"]').naturalWidth") > 0
    box = card.bounding_box()
    assert box is not None and box["width"] <= 360
    download = page.get_by_role("link", name="Download the card")
    assert (download.get_attribute("href") or "").endswith("/card.png")
    assert download.get_attribute("download") is not None
    assert fits_width(page)
    assert serious_accessibility_violations(page) == []
    screenshot(page, "result-card-360")
    page.get_by_role("button", name="Share").click()
    shared = _shared(page, 1)
    assert WATCH_LINK.search(shared), shared
    page.get_by_role("link", name="Back to the scoreboard").click()
    page.wait_for_url(re.compile(re.escape(board) + "$"))

    # A phone let in by the watch link reaches the card's page too, at the link's own address,
    # and its way back leads to the link (issue 23, item 18).
    watchers = _page(browser, live_server, NARROW_PHONE)
    watcher = next(watchers)
    watcher.goto(shared.removeprefix(live_server))
    watcher.get_by_role("link", name="Result card").click()
    watcher.wait_for_url(re.compile(r"/w/[A-Za-z0-9_-]{43}/result$"))
    expect(watcher.locator("img[src$='/card.png']")).to_be_visible()
    assert watcher.evaluate("document.querySelector('img[src$=\"/card.png\"]').naturalWidth") > 0
    watcher.get_by_role("link", name="Back to the scoreboard").click()
    watcher.wait_for_url(shared)
    expect(watcher.locator("#board")).to_contain_text("Maud")
    next(watchers, None)
