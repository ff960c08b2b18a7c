"""Issue 51 in a real browser: a whole Phase 10 game at 360 px on four phones, each on the game's
table link, two in English and two in Spanish. The house plays the last two phases only
(``phases_played: [9, 10]``), so the game is short and played whole through the web: each
phone enters its own hand in rounds 1 and 2, Ann and Ben both make phase 10 in round 2 on 5
points each, and every phone then says that the next hand is the tie-break hand of Ann and Ben
alone. The tie-break hand is entered on Ann's and Ben's own phones (Cy and Dee are asked
nothing), it closes itself once both are in, and every phone then names the winner and how
it was decided. A board of six long names with its tie-break owed and played fits the screen
too. Light and dark, English and Spanish, photographed: no text under 12 px, no control of the
tie-break's under 44 px, nothing wider than the screen."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from ..helpers import game_document
from .conftest import _page, fits_width, screenshot, upload_game
from .test_phase_10_pad import SMALLEST_KEY_PX, _small_text

pytestmark = pytest.mark.browser

PLAYERS = ("Ann", "Ben", "Cy", "Dee")
# Each phone's language: two in English, two in Spanish.
LOCALES = ("en", "es-CL", "en", "es-CL")
RULES = {"base": "phase-10", "phases_played": [9, 10]}
SMALL_PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
# What each language says once the game is over, and while the tie-break hand is owed.
SAID = {
    "en": {
        "owed": "Ann and Ben are tied on phase 10 and on 5 points. The next hand is the "
        "tie-break hand, with only Ann and Ben, on phase 10",
        "won": "Ann wins",
        "how": "Tied on phase 10 and on 5 points; Ann went out first in the tie-break hand.",
        "not_added": "tie-break hand: not added",
    },
    "es-CL": {
        "owed": "Ann y Ben están empatados en la fase 10 y con 5 puntos. La siguiente mano es "
        "la de desempate, solo con Ann y Ben, en la fase 10",
        "won": "Ann gana",
        "how": "Empatados en la fase 10 y con 5 puntos; Ann cerró primero en la mano de desempate.",
        "not_added": "mano de desempate: no se suma",
    },
}
LONG_NAMES = (
    "Maximiliano Fernández-Montalbán",
    "Bartholomew Featherstonehaugh",
    "Guadalupe Villaseñor-Echeverría",
    "Konstantinos Papadopoulos",
    "Anastasia Wolkonsky-Trubetskaya",
    "Christopher Worthington-Smythe",
)


def _small_controls(page: Any, selector: str) -> list[str]:
    """The visible controls matching ``selector`` smaller than a thumb either way."""
    small = []
    for control in page.locator(selector).all():
        if not control.is_visible():
            continue
        box = control.bounding_box()
        assert box is not None
        if box["width"] < SMALLEST_KEY_PX or box["height"] < SMALLEST_KEY_PX:
            small.append(f"{control.inner_text()[:30]}: {box['width']:.0f} x {box['height']:.0f}")
    return small


def _looked_at(page: Any, name: str) -> None:
    """The board checked and photographed in the light and the dark scheme."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert fits_width(page), f"{name} is wider than the screen ({scheme})"
        assert _small_text(page, "#board") == [], (name, scheme)
        assert _small_controls(page, "#board .next-deal .button, #board .went-out-links a") == []
        screenshot(page, f"i51-tie-break-{name}-{scheme}-360")
    page.emulate_media(color_scheme="light")


def _own_hand(phone: Any, cards: list[str], made: bool) -> None:
    """This phone's hand of the round: the cards tapped on its pad, then Made or Not made."""
    pad = phone.locator("#my-hand .hand-pad")
    expect(pad).to_be_visible()
    for card in cards:
        pad.locator(f"button[value='{card}']").click()
    expect(phone.locator("#my-cards-text")).to_have_value(" ".join(cards))
    phone.locator(".done-made" if made else ".done-not").first.click()


def test_a_whole_phase_10_game_on_four_phones_ends_in_a_tie_break_hand(
    browser: Any, live_server: str, owner_cookie: str
) -> None:
    scorers = _page(browser, live_server, SMALL_PHONE, owner_cookie)
    scorer = next(scorers)
    board = upload_game(scorer, game_document(RULES, PLAYERS, []))
    scorer.get_by_role("link", name="Let the table score").click()
    scorer.get_by_role("button", name="New table link").click()
    table_url = scorer.locator(".link-card input.copy-field").first.input_value()

    contexts = [
        _page(browser, live_server, {**SMALL_PHONE, "locale": locale}) for locale in LOCALES
    ]
    phones = [next(context) for context in contexts]
    for seat, (phone, locale) in enumerate(zip(phones, LOCALES, strict=True)):
        phone.language = locale
        phone.goto(table_url.removeprefix(live_server))
        phone.wait_for_url(re.compile(re.escape(board) + "$"))
        phone.goto(f"{board}/seat")
        phone.locator(f"form.seat-picker button[name=seat][value='{seat}']").click()
        phone.wait_for_url(re.compile(r"/hand$"))
    ann, ben, cy, dee = phones

    # Round 1, phase 9: Ann goes out, Ben makes it and holds a 5, Cy and Dee hold a 10.
    ann.locator("button.go-out").first.click()
    _own_hand(ben, ["5"], made=True)
    _own_hand(cy, ["10"], made=False)
    _own_hand(dee, ["10"], made=False)
    expect(ann.locator("#last-round")).to_contain_text("Round 1: Ann went out")
    for phone in phones:
        expect(phone.locator("#my-hand .deal")).to_contain_text(re.compile("Round 2|Ronda 2"))
    # Round 2: Ann and Ben on phase 10; Ben goes out, Ann makes it too and holds a 5.
    expect(ben.locator("button.go-out").first).to_be_visible()
    ben.locator("button.go-out").first.click()
    _own_hand(ann, ["5"], made=True)
    _own_hand(cy, ["10"], made=False)
    _own_hand(dee, ["10"], made=False)

    # Every phone's board: Ann and Ben tied on phase 10 and on 5 points, the next hand theirs.
    for phone in phones:
        phone.goto(board)
        expect(phone.locator("#tie-break-next")).to_contain_text(SAID[phone.language]["owed"])
    expect(ann.locator("table.standings")).to_contain_text("Ann plays the tie-break hand")
    expect(ann.locator("table.standings")).to_contain_text("Cy sits out the tie-break hand")
    expect(ann.locator(".went-out-links, .draft-actions").first).to_be_visible()
    _looked_at(ann, "owed-en")
    _looked_at(ben, "owed-es")
    # Cy's own hand says he sits it out.
    cy.goto(f"{board}/hand")
    expect(cy.locator("#my-hand")).to_contain_text("You sit out the tie-break hand")
    screenshot(cy, "i51-tie-break-own-hand-sits-out-en-360")

    # The tie-break hand, on the phones' own hands: Ann goes out, Ben holds a Wild, and the
    # round closes itself once both are in; Cy and Dee are asked nothing.
    for phone in (ann, ben):
        phone.goto(f"{board}/hand")
    ann.locator("button.go-out").first.click()
    expect(ben.locator("#my-hand .my-state")).to_contain_text(
        "Ann cerró. Toca las cartas que te quedan y luego «Listo»."
    )
    expect(ben.locator("#my-hand .done-made")).to_have_count(0)
    ben.locator("#my-hand .hand-pad button[value='W']").click()
    expect(ben.locator("#my-cards-text")).to_have_value("W")
    ben.locator("#my-hand button[name=done][value=not]").click()
    expect(ann.locator("#last-round")).to_contain_text("Round 3")

    for phone in phones:
        phone.goto(board)
        said = SAID[phone.language]
        expect(phone.locator(".result h2")).to_have_text(said["won"])
        expect(phone.locator(".result .tie-break")).to_have_text(said["how"])
        expect(phone.locator("table.rounds")).to_contain_text(said["not_added"])
        # The tie-break hand's 25 are in no total: Ann 5, Ben 5, Cy 20, Dee 20.
        totals = phone.locator("table.rounds tfoot td")
        expect(totals).to_have_text([re.compile(rf"^\s*{n}\s*$") for n in (5, 5, 20, 20)])
        ranked = phone.locator("table.standings .player-name")
        expect(ranked.first).to_contain_text("Ann")
        expect(ranked.nth(1)).to_contain_text("Ben")
    _looked_at(ann, "over-en")
    _looked_at(ben, "over-es")
    for context in (*contexts, scorers):
        next(context, None)


@pytest.mark.parametrize("locale", ["en", "es-CL"])
def test_six_long_names_with_a_tie_break_hand_fit_the_board(
    browser: Any, live_server: str, owner_cookie: str, locale: str
) -> None:
    first, second, *others = LONG_NAMES
    holding = {name: "10" for name in others}
    rounds = [
        (first, {second: "5", **holding}, {second}),
        (second, {first: "5", **holding}, {first}),
    ]
    pages = _page(browser, live_server, {**SMALL_PHONE, "locale": locale}, owner_cookie)
    page = next(pages)
    board = upload_game(page, game_document(RULES, LONG_NAMES, rounds))
    expect(page.locator("#tie-break-next")).to_be_visible()
    _looked_at(page, f"six-owed-{locale}")
    tie_break = game_document(RULES, LONG_NAMES, [*rounds, (first, {second: "W"}, set())])
    tie_break["rounds"][-1]["tie_break_hand"] = True
    for name in others:
        del tie_break["rounds"][-1]["players"][name]
    board = upload_game(page, tie_break)
    expect(page.locator(".result .tie-break")).to_contain_text(first)
    expect(page.locator("tr.tie-break-round .tie-break-note")).to_be_visible()
    _looked_at(page, f"six-over-{locale}")
    page.goto(f"{board}/result")
    assert fits_width(page)
    assert _small_text(page, "main") == []
    screenshot(page, f"i51-tie-break-six-result-{locale}-360")
    next(pages, None)
