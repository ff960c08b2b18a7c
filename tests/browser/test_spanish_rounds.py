"""Issue 41 in a real browser: a phone set to Spanish (es-CL) at 360 x 640, light and dark. The
round form and the own-hand page fit the screen (no sideways scrolling, the pad's keys holding
still as the answers come back), a refusal is said at its field in Spanish, and what the page's
script says without signal (a save kept, a "done" kept) is Spanish too, from the page's words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import _page, fits_width, screenshot, serious_accessibility_violations
from .test_offline import OFFLINE_NOISE, _queued, _rounds
from .test_own_hands import _table
from .test_table_holds_still import _top

pytestmark = pytest.mark.browser

SPANISH_PHONE = {
    "viewport": {"width": 360, "height": 640},
    "is_mobile": True,
    "has_touch": True,
    "locale": "es-CL",
}
ENGLISH_PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
PLAYERS = ("Ann", "Ben", "Cy", "Dee")
# Eleven cards, 12-Step points: K Q J 10 ten each, 9 to 3 five each.
ELEVEN = ("K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3")


@pytest.fixture
def english_scorer(browser: Any, live_server: str, owner_cookie: str) -> Iterator[Any]:
    """The family's owner, in English: starts the game and makes its table link."""
    yield from _page(browser, live_server, ENGLISH_PHONE, owner_cookie)


def _spanish(browser: Any, live_server: str, cookie: str | None = None, **more: Any) -> Any:
    """A Spanish phone's page and its context (to close): ``more`` adds to the device."""
    contexts = _page(browser, live_server, {**SPANISH_PHONE, **more}, cookie)
    return next(contexts), contexts


def _one_line(button: Any) -> bool:
    """Whether ``button`` is a thumb's height: its words on one line."""
    box = button.bounding_box()
    return box is not None and box["height"] <= 56


def _no_offline_noise(*pages: Any) -> None:
    """A browser without signal logs its failed requests by itself: not the page's problems."""
    for page in pages:
        page.problems[:] = [p for p in page.problems if not any(n in p for n in OFFLINE_NOISE)]


def test_the_round_form_in_spanish_fits_and_its_pad_holds_still(
    english_scorer: Any, browser: Any, live_server: str, owner_cookie: str
) -> None:
    board, _link = _table(english_scorer, live_server, PLAYERS)
    page, contexts = _spanish(browser, live_server, owner_cookie)
    page.goto(f"{board}/rounds/new")
    assert page.evaluate("document.documentElement.lang") == "es"
    expect(page.locator("h1")).to_have_text("Ronda 1")
    page.locator("input[name=went_out][value='0']").check()  # Ann cerró
    # Ben's block at the top of the screen, clear of the sticky Save button.
    page.locator("#hand-1").evaluate("e => e.scrollIntoView({block: 'start'})")
    pad = "#hand-1 .hand-pad button"
    start = _top(page, pad)
    points = page.locator("#points-1")
    total = 0
    for card in ELEVEN:
        page.get_by_role("button", name=f"Agregar {card} a Ben", exact=True).click()
        total += 10 if card in ("K", "Q", "J", "10") else 5
        expect(points).to_contain_text(f"{total} ptos")
        assert _top(page, pad) == start, f"the pad moved after {card}"
    assert fits_width(page)
    screenshot(page, "i41-round-form-es-360")

    # Five jokers where two packs hold four: said at Cy's cards as they are typed, in Spanish,
    # in the space kept for it (nothing below moves).
    cy_pad = "#hand-2 .hand-pad button"
    page.locator("#hand-2").evaluate("e => e.scrollIntoView({block: 'start'})")
    before = _top(page, cy_pad)
    page.fill("#hands-2-cards", "JK JK JK JK JK")
    expect(page.locator("#cards-2 .field-error")).to_contain_text(
        "5 × Joker, pero estas barajas tienen solo 4 jokers."
    )
    assert _top(page, cy_pad) == before
    assert fits_width(page)
    screenshot(page, "i41-round-form-es-refused-360")
    assert serious_accessibility_violations(page) == []
    next(contexts, None)

    # Dark: the same form, as a phone set to dark shows it.
    dark, dark_contexts = _spanish(browser, live_server, owner_cookie, color_scheme="dark")
    dark.goto(f"{board}/rounds/new")
    dark.locator("input[name=went_out][value='0']").check()
    dark.fill("#hands-2-cards", "JK JK JK JK JK")
    expect(dark.locator("#cards-2 .field-error")).to_contain_text("pero estas barajas")
    assert fits_width(dark)
    screenshot(dark, "i41-round-form-es-refused-dark-360")
    next(dark_contexts, None)


def test_a_round_saved_without_signal_says_so_in_spanish(
    english_scorer: Any, browser: Any, live_server: str, owner_cookie: str
) -> None:
    board, _link = _table(english_scorer, live_server, ("Ann", "Ben"))
    page, contexts = _spanish(browser, live_server, owner_cookie)
    page.goto(f"{board}/rounds/new")
    page.locator("input[name=went_out][value='0']").check()
    page.fill("#hands-1-cards", "K 5")
    expect(page.locator("#points-1")).to_contain_text("15 ptos")
    save = page.get_by_role("button", name="Guardar ronda 1")
    assert _one_line(save)
    page.context.set_offline(True)
    save.click()
    expect(
        page.get_by_text("Guardada en este teléfono; se enviará cuando vuelva la señal.")
    ).to_be_visible()
    assert len(_queued(page)) == 1
    # The note stands above the row of Save, which keeps its width: one line still.
    assert _one_line(save)
    assert fits_width(page)
    screenshot(page, "i41-round-form-es-offline-360")
    page.context.set_offline(False)  # the "online" event sends it
    page.wait_for_url(re.compile(rf"{board}$"))
    assert len(_rounds(page, board)) == 1
    _no_offline_noise(page)
    next(contexts, None)


def test_the_own_hand_page_in_spanish_fits_holds_still_and_keeps_done_without_signal(
    english_scorer: Any, browser: Any, live_server: str, owner_cookie: str
) -> None:
    board, link = _table(english_scorer, live_server, ("Ann", "Ben"))
    ann, ann_contexts = _spanish(browser, live_server)
    ben, ben_contexts = _spanish(browser, live_server)
    for phone, name in ((ann, "Ann"), (ben, "Ben")):
        phone.goto(link)
        phone.wait_for_url(re.compile(rf"{board}$"))
        phone.goto(f"{board}/seat")
        expect(phone.locator("h1")).to_have_text("¿Quién tiene este teléfono?")
        assert fits_width(phone)
        phone.get_by_role("button", name=f"Soy {name}").click()
        phone.wait_for_url(re.compile(r"/hand$"))
        expect(phone.locator("h1")).to_have_text(f"Mano de {name}")
    screenshot(ann, "i41-own-hand-es-waiting-360")
    ann.get_by_role("button", name="Cerré").click()
    expect(ann.locator(".my-state")).to_contain_text("Cerraste")
    field = ben.get_by_label("Las cartas que te quedan")
    expect(field).to_be_visible()  # by its poll

    pad = "#my-hand-form .hand-pad button"
    start = _top(ben, pad)
    total = 0
    for card in ELEVEN:
        ben.get_by_role("button", name=f"Agregar {card}", exact=True).click()
        total += 10 if card in ("K", "Q", "J", "10") else 5
        expect(ben.locator("#my-points")).to_contain_text(f"{total} ptos")
        assert _top(ben, pad) == start, f"the pad moved after {card}"
    expect(field).to_have_value(" ".join(ELEVEN))
    done = ben.locator(".done-buttons button")
    expect(done).to_have_text(["Cumplido ✓", "No cumplido ✗"])
    for index in range(2):
        assert _one_line(done.nth(index)), done.nth(index).inner_text()
    assert fits_width(ben)
    screenshot(ben, "i41-own-hand-es-11-cards-360")
    assert serious_accessibility_violations(ben) == []

    # The scorer's close page meanwhile, in Spanish: Ben still counting, as it stands.
    closer, closer_contexts = _spanish(browser, live_server, owner_cookie)
    closer.goto(f"{board}/close")
    expect(closer.locator("h1")).to_have_text("Terminar la ronda 1")
    expect(closer.locator(".lede")).to_have_text("Todavía cuentan sus cartas: Ben.")
    assert fits_width(closer)
    screenshot(closer, "i41-close-es-360")
    next(closer_contexts, None)

    # "Done" without signal: kept, and said so in Spanish; sent once the signal returns.
    ben.context.set_offline(True)
    done.first.click()
    expect(
        ben.get_by_text("Guardado en este teléfono; se enviará cuando vuelva la señal.")
    ).to_be_visible()
    expect(ben.locator(".my-state")).to_contain_text(
        "«Cumplido ✓» quedó guardado en este teléfono. Tu mano: K Q J 10 9 8 7 6 5 4 3, "
        "contrato cumplido ✓. Se envía cuando vuelva la señal."
    )
    assert fits_width(ben)
    screenshot(ben, "i41-own-hand-es-done-kept-360")
    ben.context.set_offline(False)
    expect(ben.locator("#last-round")).to_contain_text("Ronda 1: Ann cerró; Ben 75")
    assert len(_rounds(english_scorer, board)) == 1
    next(ann_contexts, None)

    # Dark: a phone taking Ann's seat over, and her pad of round 2 once Ben went out.
    dark, dark_contexts = _spanish(browser, live_server, color_scheme="dark")
    dark.goto(link)
    dark.wait_for_url(re.compile(rf"{board}$"))
    dark.goto(f"{board}/seat")
    dark.get_by_role("button", name="Soy Ann").click()
    expect(dark.locator("#take-over")).to_contain_text("El puesto de Ann está en otro teléfono.")
    assert fits_width(dark)
    screenshot(dark, "i41-seat-take-over-es-dark-360")
    dark.get_by_role("button", name="Sí, este teléfono es de Ann").click()
    dark.wait_for_url(re.compile(r"/hand$"))
    ben.get_by_role("button", name="Cerré").click()
    expect(dark.get_by_label("Las cartas que te quedan")).to_be_visible()  # by its poll
    expect(dark.locator(".deal")).to_contain_text("Ronda 2")
    dark.get_by_role("button", name="Agregar K", exact=True).click()
    expect(dark.locator("#my-points")).to_contain_text("10 ptos")
    assert fits_width(dark)
    screenshot(dark, "i41-own-hand-es-dark-360")
    _no_offline_noise(ben, dark)
    for contexts in (ben_contexts, dark_contexts):
        next(contexts, None)
