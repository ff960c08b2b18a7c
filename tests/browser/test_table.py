"""Issue 14 in a real browser at 360 x 640: six players of 20-character names fit the screen,
the rounds table scrolls in its own box with its round column kept in view, the manifest and
the result card load, the TV view fits, and the dark scheme passes axe too."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from ..helpers import game_document, twelve_step_to_the_end
from .conftest import SCREENSHOTS, _page, fits_width, screenshot, serious_accessibility_violations

pytestmark = pytest.mark.browser

SMALL = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
# Six names of 20 characters each, two of them one unbroken word.
LONG_NAMES = (
    "Alexandrina Westwood",
    "Bartholomew Ashcroft",
    "Konstantinopolitanis",
    "Christabel Fairweath",
    "Maximilianstrassberg",
    "Sebastian Montgomery",
)


@pytest.fixture
def small_phone(browser: Any, live_server: str, owner_cookie: str) -> Iterator[Any]:
    yield from _page(browser, live_server, SMALL, owner_cookie)


@pytest.fixture
def small_dark_phone(browser: Any, live_server: str, owner_cookie: str) -> Iterator[Any]:
    yield from _page(browser, live_server, {**SMALL, "color_scheme": "dark"}, owner_cookie)


def _long_game(page: Any) -> str:
    """Upload a game of six long names, eight rounds in; its scoreboard's address."""
    document = game_document(
        "twelve-step", list(LONG_NAMES), twelve_step_to_the_end(LONG_NAMES)[:8]
    )
    page.goto("/games/import")
    page.set_input_files(
        "#file",
        files=[
            {
                "name": "long.json",
                "mimeType": "application/json",
                "buffer": json.dumps(document).encode(),
            }
        ],
    )
    page.get_by_role("button", name="Upload").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    return str(page.url)


def test_six_long_names_fit_360_px_and_the_round_column_stays(small_phone: Any) -> None:
    page = small_phone
    address = _long_game(page)
    assert fits_width(page)
    table = page.locator(".rounds").locator("xpath=..")
    assert table.evaluate("box => box.scrollWidth > box.clientWidth")
    table.evaluate("box => { box.scrollLeft = box.scrollWidth; }")
    first = page.locator(".rounds tbody th[scope='row']").first
    box = first.bounding_box()
    region = table.bounding_box()
    assert box is not None and region is not None
    # Sticky: the round number is still at the left edge of the scrolled box.
    assert abs(box["x"] - region["x"]) < 2
    total = page.locator(".rounds tfoot th").bounding_box()
    assert total is not None and total["y"] + total["height"] <= region["y"] + region["height"] + 2
    small = page.evaluate(
        """() => [...document.querySelectorAll('main a, main button, main summary')]
            .filter(e => e.offsetParent && !e.closest('.rounds thead, .chart-table'))
            .map(e => [e.textContent.trim(), e.getBoundingClientRect().height])
            .filter(([, h]) => h < 43.5)"""
    )
    assert small == [], small
    screenshot(page, "table-six-long-names-360")
    page.goto(address + "/tv")
    assert fits_width(page)
    screenshot(page, "table-tv-360")


def test_the_manifest_and_the_result_card_load(small_phone: Any) -> None:
    page = small_phone
    address = _long_game(page)
    manifest = page.locator("link[rel='manifest']").get_attribute("href")
    response = page.request.get(manifest)
    assert response.ok and response.json()["display"] == "standalone"
    card = page.locator("meta[property='og:image']").get_attribute("content")
    picture = page.request.get(card)
    assert picture.ok and picture.headers["content-type"] == "image/png"
    assert picture.body()[:8] == b"\x89PNG\r\n\x1a\n"
    # Kept beside the screenshots for a person to look at (opening it in the browser would
    # run Chromium's own image viewer, whose inline style the CSP refuses).
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "table-result-card.png").write_bytes(picture.body())
    assert page.request.get(address + "/tv").ok
    worker = page.request.get("/sw.js")
    assert worker.ok


def test_the_long_scoreboard_in_the_dark_passes_axe(small_dark_phone: Any) -> None:
    page = small_dark_phone
    _long_game(page)
    assert fits_width(page)
    assert serious_accessibility_violations(page) == []
    screenshot(page, "table-six-long-names-360-dark")
