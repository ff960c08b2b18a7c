"""The house-rules editor on the narrowest phone (360 px) switches its options live as the deck
changes (issue 51): Phase 10's card values and the Skip's option in, the aces, wild ranks and
jokers out, the trademark line said; and back, with every value typed where it was."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import fits_width, screenshot

pytestmark = pytest.mark.browser


def test_the_deck_switches_the_editors_options_live_and_back(narrow_phone: Any) -> None:
    page = narrow_phone
    page.goto("/rules/new?base=contract-rummy")
    page.fill("#name", "Live deck switch")
    page.select_option("#aces", "low")
    page.fill("#card_values-A", "20")
    page.fill("#packs-jokers_per_deck", "3")
    assert page.locator("#skip_target").count() == 0
    # Phase 10: the form is drawn again for its deck, with no button pressed.
    page.select_option("#deck", "phase-10")
    page.wait_for_selector("#card_values-wild")
    assert page.locator("#aces").count() == 0
    assert page.locator("#packs-jokers_per_deck").count() == 0
    assert page.locator("input[name=wild_ranks][type=checkbox]").count() == 0
    assert page.locator("#skip_target").is_visible()
    assert "trademark of Mattel" in page.locator("#trademark").inner_text()
    assert page.input_value("#card_values-wild") == "25"
    assert page.input_value("#name") == "Live deck switch"
    assert fits_width(page)
    screenshot(page, "deck-switch-360-phase-10")
    page.fill("#card_values-wild", "20")
    page.select_option("#skip_target", "next")
    # Back to standard cards: every value as typed.
    page.select_option("#deck", "standard")
    page.wait_for_selector("#card_values-A")
    assert page.input_value("#aces") == "low"
    assert page.input_value("#card_values-A") == "20"
    assert page.input_value("#packs-jokers_per_deck") == "3"
    assert page.locator("#card_values-wild").count() == 0
    assert page.locator("#trademark").count() == 0
    assert fits_width(page)
    screenshot(page, "deck-switch-360-standard")
    # And Phase 10 once more, saved: the Wild typed as 20 still is, the aces kept unseen.
    page.select_option("#deck", "phase-10")
    page.wait_for_selector("#card_values-wild")
    assert page.input_value("#card_values-wild") == "20"
    assert page.input_value("#skip_target") == "next"
    page.get_by_role("button", name="Save", exact=True).last.click()
    page.wait_for_url("**/rules/live-deck-switch")
    said = page.locator("main").inner_text()
    assert "trademark of Mattel" in said
    assert "The next player in turn loses their next turn" in said
    assert "Aces in runs" not in said
