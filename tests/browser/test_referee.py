"""The referee and the rules pages in a real phone browser (Playwright driving Chromium)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import fits_width, screenshot, serious_accessibility_violations

pytestmark = pytest.mark.browser


def tap_cards(page: Any, *keys: str) -> None:
    for key in keys:
        if key in "♠♥♦♣":
            page.tap(f'[data-pad-suit="{key}"]')
        elif key == "JK":
            page.tap("[data-pad-joker]")
        else:
            page.tap(f'[data-pad-rank="{key}"]')


def forget_refusals(page: Any) -> None:
    """Chromium logs every 422 answer as a failed load; a 422 is how a refusal comes back."""
    page.problems[:] = [p for p in page.problems if "status of 422" not in p]


def test_a_meld_tapped_in_is_ruled_live_and_the_address_is_its_link(phone: Any) -> None:
    phone.goto("/referee")
    tap_cards(phone, "5", "♠", "2", "♣", "JK")
    verdict = phone.locator('[data-valid="true"]')
    verdict.wait_for()
    assert "A set of 5s" in verdict.inner_text()
    phone.wait_for_url(re.compile(r"/referee\?rules=twelve-step&cards=5S\+2C\+JK$"))
    assert phone.locator(".arrangement .card-chip.wild").count() == 2
    assert phone.get_by_role("button", name="Copy link").is_visible()
    assert fits_width(phone)
    assert serious_accessibility_violations(phone) == []
    screenshot(phone, "referee-phone")

    phone.fill("#cards", "5S 2C JK 8S")
    phone.locator('[data-valid="false"]').wait_for()
    assert "side by side" in phone.locator("#ruling").inner_text()

    phone.fill("#cards", "5S 1H JK")
    phone.locator("#cards-error .field-error").wait_for()
    assert "'1H' is not a card" in phone.locator("#cards-error").inner_text()
    assert phone.get_attribute("#cards", "aria-invalid") == "true"
    screenshot(phone, "referee-phone-typo")
    phone.tap("[data-pad-clear]")
    tap_cards(phone, "5", "♥", "5", "♦", "5", "♣")
    phone.locator('[data-valid="true"]').wait_for()
    assert phone.get_attribute("#cards", "aria-invalid") is None
    forget_refusals(phone)


def test_each_question_fits_the_narrowest_phone(narrow_phone: Any) -> None:
    links = [
        "/referee?rules=twelve-step&mode=contract&melds=5S+5H+5D+/+7C+7D+JK&contract=1",
        "/referee?rules=twelve-step&mode=layoff&meld=4D+5D+6D+7D&cards=3D",
        "/referee?rules=twelve-step&mode=liberate&meld=3H+4H+JK+6H&card=5H",
        "/referee?rules=twelve-step&mode=hand&cards=5S+5H+5D+7C+8C+9C+JK+KD+QS&contract=2",
    ]
    for number, link in enumerate(links, start=1):
        narrow_phone.goto(link)
        assert narrow_phone.locator("[data-valid]").get_attribute("data-valid") == "true"
        assert fits_width(narrow_phone)
        screenshot(narrow_phone, f"referee-360-{number}")


def test_house_rules_made_on_a_phone_are_offered_everywhere(phone: Any) -> None:
    phone.goto("/rules/new?base=twelve-step")
    phone.fill("#name", "Phone test rules")
    phone.uncheck('input[name="wild_ranks"][value="2"]')
    screenshot(phone, "rules-editor-phone")
    phone.get_by_role("button", name="Save").click()
    phone.wait_for_url(re.compile(r"/rules/phone-test-rules$"))
    assert phone.get_by_role("heading", level=1).inner_text() == "Phone test rules"
    assert fits_width(phone)
    screenshot(phone, "rules-page-phone")

    phone.goto("/referee")
    phone.select_option("#rules", "phone-test-rules")
    phone.wait_for_url(re.compile(r"rules=phone-test-rules"))
    phone.fill("#cards", "2S 2D 2H")
    assert "A set of 2s" in phone.locator('[data-valid="true"]').inner_text()

    phone.goto("/games/new")
    assert phone.locator('option[value="phone-test-rules"]').count() == 1
