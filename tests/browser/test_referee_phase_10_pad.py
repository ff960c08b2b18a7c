"""Issue 51, the referee for Phase 10, in a real browser at 360 x 640, in English and Spanish:
"Can I make my phase?" on a Phase 10 deck shows the games' Phase 10 pad (1 to 12, the four
colours drawn in their colour and labelled with their letter, W and S), each key a thumb's size;
7 then R types 7R; a hand tapped in is ruled live (phase 1 made, "dos grupos de 3" in Spanish).
Light and dark: no text under 12 px, nothing wider than the screen, no serious axe-core finding,
photographed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import _page, fits_width, screenshot, serious_accessibility_violations
from .test_phase_10_pad import SMALLEST_KEY_PX, _small_text

pytestmark = pytest.mark.browser

WORDS = {
    "en": {
        "add": "Add {card}",
        "colour": "Colour {colour} ({letter}) for your last card",
        "red": "red",
        "blue": "blue",
        "wild": "Add a Wild",
        "clear": "Clear",
        "yes": "Yes",
        "phase": "two sets of 3",
    },
    "es-CL": {
        "add": "Agregar {card}",
        "colour": "Color {colour} ({letter}) para tu última carta",
        "red": "rojo",
        "blue": "azul",
        "wild": "Agregar un comodín",
        "clear": "Limpiar",
        "yes": "Sí",
        "phase": "dos grupos de 3",
    },
}


@pytest.fixture(params=["en", "es-CL"])
def thumb(request: Any, browser: Any, live_server: str) -> Iterator[Any]:
    device = {
        "viewport": {"width": 360, "height": 640},
        "is_mobile": True,
        "has_touch": True,
        "locale": request.param,
    }
    pages = _page(browser, live_server, device)
    page = next(pages)
    page.language = request.param
    yield page
    next(pages, None)


def test_can_i_make_my_phase_on_the_phase_10_pad(thumb: Any) -> None:
    page, said = thumb, WORDS[thumb.language]
    page.goto("/referee?rules=phase-10&mode=hand")
    pad = page.locator(".card-pad .pad")
    expect(pad).to_be_visible()
    keys = [key.inner_text() for key in pad.locator("button").all()]
    assert keys[:18] == [*(str(number) for number in range(1, 13)), "R", "B", "Y", "G", "W", "S"]
    assert "JK" not in keys and "♠" not in keys and said["clear"] in keys
    small = []
    for key in pad.locator("button").all():
        box = key.bounding_box()
        assert box is not None
        if box["width"] < SMALLEST_KEY_PX or box["height"] < SMALLEST_KEY_PX:
            small.append(f"{key.inner_text()}: {box['width']:.0f} x {box['height']:.0f}")
    assert small == []

    def tap(label: str) -> None:
        page.get_by_role("button", name=label, exact=True).click()

    field = page.locator("textarea[name=cards]")
    tap(said["add"].format(card="7"))
    tap(said["colour"].format(colour=said["red"], letter="R"))
    expect(field).to_have_value("7R")
    tap(said["add"].format(card="7"))
    tap(said["colour"].format(colour=said["blue"], letter="B"))
    tap(said["wild"])
    for _ in range(3):
        tap(said["add"].format(card="9"))
    expect(field).to_have_value("7R 7B W 9 9 9")
    page.select_option("#contract", "1")
    ruling = page.locator("#ruling")
    expect(ruling.locator("[data-valid]")).to_have_attribute("data-valid", "true")
    expect(ruling).to_contain_text(said["yes"])
    expect(ruling).to_contain_text(said["phase"])
    if page.language != "en":
        expect(page.locator("main")).not_to_contain_text("trío")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert fits_width(page), scheme
        assert _small_text(page, "main") == [], scheme
        assert serious_accessibility_violations(page) == [], scheme
        page.locator(".card-pad").evaluate("e => e.scrollIntoView({block: 'end'})")
        screenshot(page, f"i51-referee-pad-{page.language}-{scheme}-360")
    page.emulate_media(color_scheme="light")
