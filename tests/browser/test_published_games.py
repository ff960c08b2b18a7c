"""Two published games played through on the narrowest phone (issue 42): a whole Continental
game with the −10 for going down and out in one turn, and a Carioca game whose tie on points is
broken by rounds won, both typed by the scorer on the round form at 360 px, in light and dark."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import NARROW_PHONE, _page, fits_width, screenshot

pytestmark = pytest.mark.browser

# (who went out, the others' cards left, went down and out in one turn)
Round = tuple[str, Mapping[str, str], bool]


def start(page: Any, rules: str, shown: str, names: Sequence[str]) -> str:
    page.goto("/games/new")
    page.select_option("#rules", rules)
    # The form is drawn again for the rules picked: the names go into the new one.
    expect(page.locator("#new-game")).to_contain_text(f"{shown}:")
    for seat, name in enumerate(names):
        page.fill(f"#players-{seat}", name)
    page.click("button[name=start]")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    return str(page.url)


def enter(page: Any, board_url: str, names: Sequence[str], played: Round) -> None:
    out, cards, one_turn = played
    page.goto(f"{board_url}/rounds/new")
    page.locator("fieldset.went-out label.choice", has_text=out).click()
    for seat, name in enumerate(names):
        if name != out:
            page.fill(f"#hands-{seat}-cards", cards[name])
    if one_turn:
        page.check("input[name=went_out_in_one_turn]")
    page.click("button.save-round")
    page.wait_for_url(board_url)


CONTINENTAL = ("Ines", "Jordi", "Kike")
CONTINENTAL_ROUNDS: list[Round] = [
    ("Ines", {"Jordi": "K 5", "Kike": "JK"}, True),  # Ines −10, Jordi 15, Kike 50
    ("Jordi", {"Ines": "A", "Kike": "2 3"}, False),  # Ines 20, Kike 5
    ("Kike", {"Ines": "Q", "Jordi": "9 9"}, True),  # Kike −10, Ines 10, Jordi 18
    ("Ines", {"Jordi": "4", "Kike": "K"}, False),  # Jordi 4, Kike 10
    ("Ines", {"Jordi": "7", "Kike": "8"}, True),  # Ines −10, Jordi 7, Kike 8
    ("Jordi", {"Ines": "5", "Kike": "A"}, False),  # Ines 5, Kike 20
    ("Kike", {"Ines": "6", "Jordi": "JK"}, False),  # Ines 6, Jordi 50
]
# Ines −10+20+10−10+5+6 = 21; Jordi 15+18+4+7+50 = 94; Kike 50+5−10+10+8+20 = 83.

CARIOCA = ("Lalo", "Mona", "Nico")
CARIOCA_ROUNDS: list[Round] = [
    *[("Lalo", {"Mona": "K", "Nico": "K K K"}, False) for _ in range(4)],
    ("Lalo", {"Mona": "K K", "Nico": "K K K"}, False),
    *[("Mona", {"Lalo": "K K", "Nico": "K K K"}, False) for _ in range(3)],
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_continental_game_with_the_bonus_and_a_carioca_tie_broken_by_rounds_won(
    browser: Any, live_server: str, owner_cookie: str, scheme: str
) -> None:
    pages = _page(browser, live_server, {**NARROW_PHONE, "color_scheme": scheme}, owner_cookie)
    page = next(pages)
    suffix = "" if scheme == "light" else "-dark"
    names = [f"{name}{suffix}" for name in CONTINENTAL]

    board_url = start(page, "continental", "Continental (7 hands)", names)
    expect(page.locator("#board")).to_contain_text(f"{names[0]} deals round 1: 7 cards each.")
    page.goto(f"{board_url}/rounds/new")
    bonus = page.locator("label.one-turn")
    expect(bonus).to_contain_text("Went down and out in one turn (-10)")
    assert fits_width(page)
    screenshot(page, f"published-continental-round-form{suffix}")
    for number, played in enumerate(CONTINENTAL_ROUNDS, start=1):
        renamed = (f"{played[0]}{suffix}", {f"{k}{suffix}": v for k, v in played[1].items()})
        enter(page, board_url, names, (*renamed, played[2]))
        if number < len(CONTINENTAL_ROUNDS):
            cards = 7 + number
            expect(page.locator("#board")).to_contain_text(f"round {number + 1}: {cards} cards")
    first = page.locator("#board table.rounds tbody tr").first
    expect(first.locator("td").first).to_contain_text("-10")
    expect(first.locator(".mark.one-turn")).to_have_attribute(
        "aria-label", "went down and out in one turn"
    )
    standings = page.locator("#board table.standings")
    expect(standings).to_contain_text("21")
    expect(page.locator("#board")).to_contain_text(
        f"{names[0]} finished with 21 points, the fewest."
    )
    assert fits_width(page)
    screenshot(page, f"published-continental-over{suffix}")

    carioca = [f"{name}{suffix}" for name in CARIOCA]
    board_url = start(page, "carioca", "Carioca (Chile, 8 rounds)", carioca)
    expect(page.locator("#board")).to_contain_text(
        "Level on points at the end: whoever went out in the most rounds wins."
    )
    page.goto(f"{board_url}/rounds/new")
    expect(page.locator("input[name=went_out_in_one_turn]")).to_have_count(0)
    for out, cards, one_turn in CARIOCA_ROUNDS:
        renamed = {f"{k}{suffix}": v for k, v in cards.items()}
        enter(page, board_url, carioca, (f"{out}{suffix}", renamed, one_turn))
    why = (
        f"{carioca[0]} and {carioca[1]} both finished with 60 points, the lowest total; "
        f"{carioca[0]} went out in 5 rounds to {carioca[1]}'s 3 and wins."
    )
    expect(page.locator("#board .tie-break")).to_have_text(why)
    assert fits_width(page)
    screenshot(page, f"published-carioca-tie{suffix}")
    page.goto(f"{board_url}/tv")
    expect(page.locator(".tv-why")).to_have_text(why)
    screenshot(page, f"published-carioca-tv{suffix}")
    next(pages, None)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_close_page_names_who_went_down_and_out_in_one_turn(
    browser: Any, live_server: str, owner_cookie: str, scheme: str
) -> None:
    """The scorer closes a Continental round on the close page, filling the hands there: the
    one named out gets the bonus from the box beside who went out."""
    pages = _page(browser, live_server, {**NARROW_PHONE, "color_scheme": scheme}, owner_cookie)
    page = next(pages)
    names = ("Ines", "Jordi Montserrat-Villanueva", "Kike")
    board_url = start(page, "continental", "Continental (7 hands)", names)
    page.goto(f"{board_url}/close")
    page.locator("fieldset.went-out label.choice", has_text="Ines").click()
    page.check("input[name=went_out_in_one_turn]")
    page.fill("#hands-1-cards", "K 5")
    page.fill("#hands-2-cards", "JK")
    assert fits_width(page)
    screenshot(page, f"published-close-one-turn-360-{scheme}")
    page.get_by_role("button", name="Close round 1").click()
    page.wait_for_url(board_url)
    ines = page.locator("#board table.rounds tbody tr").first
    expect(ines).to_contain_text("-10")
    expect(page.locator("#board .mark.one-turn")).to_have_count(1)
    next(pages, None)
