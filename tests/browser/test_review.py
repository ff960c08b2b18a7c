"""The year in review at 360 px (issue 26, item 3): the page reached from the seasons, its card
with its alt text, and Share, whose review link opens the year read-only in a fresh browser with
no account, keeps nothing in it, and lets it reach nothing else."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import (
    NARROW_PHONE,
    SCREENSHOTS,
    _page,
    fits_width,
    screenshot,
    serious_accessibility_violations,
)
from .test_share import RECORD_SHARE, _shared

pytestmark = pytest.mark.browser

REVIEW_LINK = re.compile(r"/y/[A-Za-z0-9_-]{43}$")


def _card_shown(page: Any) -> str:
    card = page.locator("img[src$='/card.png']")
    expect(card).to_be_visible()
    assert page.evaluate("document.querySelector('img[src$=\"/card.png\"]').naturalWidth") > 0
    box = card.bounding_box()
    assert box is not None and box["width"] <= 360
    return card.get_attribute("alt") or ""


def test_the_year_in_review_and_its_link_at_360_px(
    narrow_phone: Any, browser: Any, live_server: str, sample_games: dict[str, str]
) -> None:
    page = narrow_phone
    page.add_init_script(RECORD_SHARE)
    page.goto("/seasons")
    page.get_by_role("navigation", name="Each year in review").get_by_role("link").first.click()
    page.wait_for_url(re.compile(r"/review/\d{4}$"))
    year = page.url.rsplit("/", 1)[-1]
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{year} in review")
    figures = page.locator(".review-figures")
    expect(figures).to_contain_text("Most wins")
    expect(figures).to_contain_text("Busiest evening")
    alt = _card_shown(page)
    assert alt.startswith(f"{year} at the table") and "Most wins" in alt, alt
    assert fits_width(page)
    assert serious_accessibility_violations(page) == []
    screenshot(page, "review-360")
    # The card itself, for a person to look at.
    card = page.request.get(f"/review/{year}/card.png")
    assert card.status == 200 and card.headers["content-type"] == "image/png"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "review-card.png").write_bytes(card.body())

    page.get_by_role("button", name="Share").click()
    shared = _shared(page, 1)
    assert REVIEW_LINK.search(shared), shared
    page.get_by_role("button", name="Share").click()
    assert _shared(page, 2) == shared  # the same link again, not a new one each time
    page.reload()
    expect(page.locator("#review-links")).to_contain_text("Made by")

    # A relative with no account opens it in a fresh browser.
    relatives = _page(browser, live_server, NARROW_PHONE)
    relative = next(relatives)
    answer = relative.goto(shared.removeprefix(live_server))
    assert answer is not None and answer.status == 200
    assert relative.url == shared
    expect(relative.get_by_role("heading", level=1)).to_contain_text(f"{year} in review")
    expect(relative.locator(".review-figures")).to_contain_text("Most wins")
    assert _card_shown(relative) == alt
    og_image = relative.locator("meta[property='og:image']").get_attribute("content") or ""
    assert og_image == shared + "/card.png"
    assert relative.get_by_role("button", name="Share").count() == 0
    assert relative.locator("form").count() == 0
    assert fits_width(relative)
    assert serious_accessibility_violations(relative) == []
    screenshot(relative, "review-link-360")
    # Nothing kept in that browser, and nothing else of the household's within its reach.
    assert relative.context.cookies() == []
    relative.goto("/history")
    assert "/login" in relative.url
    relative.goto(f"/review/{year}")
    assert "/login" in relative.url
    next(relatives, None)
