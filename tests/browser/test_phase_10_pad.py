"""Issue 51 item 3 in a real browser: a Phase 10 round entered on the round form's pad at 360 px,
in English and in Spanish. The pad shows 1 to 12, the four colours drawn in their colour and
labelled with their letter, W and S; "7" then R types 7R, the hand is scored as it is typed (a
number alone scores), and the round is saved. The pad and the board, in light and dark: no text
under 12 px, every key at least 44 px, nothing wider than the screen."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from ..games.test_phase_10_pad import PHASE_10_HOUSE
from ..helpers import game_document
from .conftest import (
    _page,
    fits_width,
    screenshot,
    serious_accessibility_violations,
    upload_game,
)

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Ben", "Cy"]
# What each phone's language calls the keys and the points.
WORDS = {
    "en": {
        "add": "Add {card} to {name}",
        "wild": "Add a Wild to {name}",
        "skip": "Add a Skip to {name}",
        "colour": "Colour {colour} ({letter}) for {name}'s last card",
        "red": "red",
        "points": "{num} pts",
        "moved_on": "moved on to phase 3",
    },
    "es-CL": {
        "add": "Agregar {card} a {name}",
        "wild": "Agregar un comodín a {name}",
        "skip": "Agregar un salto a {name}",
        "colour": "Color {colour} ({letter}) para la última carta de {name}",
        "red": "rojo",
        "points": "{num} ptos",
        "moved_on": "pasó a la fase 3",
    },
}
# The smallest text and the smallest control a page may show at 360 px.
SMALLEST_TEXT_PX = 12
SMALLEST_KEY_PX = 44


@pytest.fixture(params=["en", "es-CL"])
def scorer(request: Any, browser: Any, live_server: str, owner_cookie: str) -> Iterator[Any]:
    device = {
        "viewport": {"width": 360, "height": 640},
        "is_mobile": True,
        "has_touch": True,
        "locale": request.param,
    }
    page = _page(browser, live_server, device, owner_cookie)
    found = next(page)
    found.language = request.param
    yield found
    next(page, None)


def _small_text(page: Any, within: str) -> list[str]:
    """The visible texts under ``within`` drawn smaller than the smallest allowed."""
    found: list[str] = page.evaluate(
        """([within, least]) => [...document.querySelectorAll(within + " *")]
          .filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
          .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden")
          .filter((e) => parseFloat(getComputedStyle(e).fontSize) < least)
          .map((e) => e.tagName + ": " + e.textContent.trim().slice(0, 40))""",
        [within, SMALLEST_TEXT_PX],
    )
    return found


def _small_keys(page: Any, keys: str) -> list[str]:
    """The keys matching ``keys`` smaller than a thumb in either direction."""
    small = []
    for key in page.locator(keys).all():
        box = key.bounding_box()
        assert box is not None
        if box["width"] < SMALLEST_KEY_PX or box["height"] < SMALLEST_KEY_PX:
            small.append(f"{key.inner_text()}: {box['width']:.0f} x {box['height']:.0f}")
    return small


def _looked_at(page: Any, name: str, within: str) -> None:
    """``within`` checked and photographed in the light and the dark scheme."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert fits_width(page), f"{name} is wider than the screen ({scheme})"
        assert _small_text(page, within) == [], scheme
        # The colour keys' letters hold their contrast in both schemes (axe-core).
        assert serious_accessibility_violations(page) == [], scheme
        screenshot(page, f"i51-{name}-{page.language}-{scheme}-360")
    page.emulate_media(color_scheme="light")


def test_a_phase_10_round_entered_on_the_pad(scorer: Any) -> None:
    page, said = scorer, WORDS[scorer.language]
    first = ("Ann", {"Ben": "7 7 9", "Cy": "W 12 12"}, {"Ben"})
    board = upload_game(page, game_document(PHASE_10_HOUSE, PLAYERS, [first]))
    page.goto(f"{board}/rounds/new")
    page.locator("input[name=went_out][value='1']").check()  # Ben went out
    pad = page.locator("#hand-0 .hand-pad")
    keys = [key.inner_text() for key in pad.locator("button").all()]
    assert keys == [*(str(number) for number in range(1, 13)), "R", "B", "Y", "G", "W", "S"]
    assert _small_keys(page, "#hand-0 .hand-pad button") == []

    def tap(name: str, label: str) -> None:
        page.get_by_role("button", name=label.format(name=name), exact=True).click()

    # Ann: 7, then red, 12 with no colour, a Wild: 7R 12 W, 5 + 10 + 25.
    tap("Ann", said["add"].format(card="7", name="{name}"))
    tap("Ann", said["colour"].format(colour=said["red"], letter="R", name="{name}"))
    expect(page.locator("#hands-0-cards")).to_have_value("7R")
    tap("Ann", said["add"].format(card="12", name="{name}"))
    tap("Ann", said["wild"])
    expect(page.locator("#hands-0-cards")).to_have_value("7R 12 W")
    expect(page.locator("#points-0")).to_contain_text(said["points"].format(num=40))
    expect(page.locator("#cards-0 .card-chip.colour-R")).to_have_count(1)
    # Cy: numbers alone and a Skip: 11 3 S, 10 + 5 + 15.
    for card in ("11", "3"):
        tap("Cy", said["add"].format(card=card, name="{name}"))
    tap("Cy", said["skip"])
    expect(page.locator("#points-2")).to_contain_text(said["points"].format(num=30))
    page.locator("#hand-0").evaluate("e => e.scrollIntoView({block: 'start'})")
    _looked_at(page, "pad", "#round-form")

    page.click("button.save-round")
    page.wait_for_url(board)
    # After two rounds: Ann 0 + 40, Ben 15 + 0, Cy 45 + 30.
    for total in ("40", "15", "75"):
        expect(page.locator("main")).to_contain_text(total)
    # Ben went out on phase 2 and moves on to phase 3, as the board says in the page's words.
    expect(page.locator("table.standings")).to_contain_text(said["moved_on"])
    _looked_at(page, "board", "main")


def test_a_phones_own_phase_10_pad_fits_the_screen(
    browser: Any, live_server: str, owner_cookie: str
) -> None:
    device = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
    contexts = _page(browser, live_server, device, owner_cookie)
    page = next(contexts)
    page.language = "en"
    board = upload_game(page, game_document(PHASE_10_HOUSE, PLAYERS, []))
    # This phone is Ann, who went out; then it takes Ben's seat to tap in his hand.
    for name in ("Ann", "Ben"):
        page.goto(f"{board}/seat")
        page.get_by_role("button", name=f"I'm {name}").click()
        page.wait_for_url(f"{board}/hand")
        if name == "Ann":
            page.locator("button.go-out").first.click()
            expect(page.locator(".went-out-state")).to_be_visible()
    keys = page.locator("#my-hand .hand-pad button")
    expect(keys).to_have_count(18)
    assert _small_keys(page, "#my-hand .hand-pad button") == []
    for label in ("Add 9", "Colour green (G) for your last card", "Add a Skip"):
        page.get_by_role("button", name=label, exact=True).click()
    expect(page.locator("#my-cards-text")).to_have_value("9G S")
    expect(page.locator("#my-hand")).to_contain_text("20")
    # Made and Not made stay on the first screen with the pad.
    for button in (".done-made", ".done-not"):
        box = page.locator(button).bounding_box()
        assert box is not None and box["y"] + box["height"] <= 640, button
    _looked_at(page, "own-hand", "#my-hand")
    next(contexts, None)
