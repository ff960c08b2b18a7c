"""The published games played through on the narrowest phone (issue 42): a whole Continental
game with the −10 for going down and out in one turn, a Carioca game whose tie on points is
broken by rounds won, a Shanghai game of ten contracts and a Liverpool game in Spanish ending
with its contract laid down while going out, each typed by the scorer on the round form at
360 px, in light and dark."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import NARROW_PHONE, _page, fits_width, screenshot
from .test_own_hands import _seated, _table_link

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


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_close_page_asks_about_one_turn_for_a_phone_that_only_said_out(
    browser: Any, live_server: str, owner_cookie: str, scheme: str
) -> None:
    """Jordi's phone said only "I went out": the close page still offers his bonus, its box
    full size beside a long name, and closing with it ticked gives him the −10."""
    device = {**NARROW_PHONE, "color_scheme": scheme}
    pages = _page(browser, live_server, device, owner_cookie)
    page = next(pages)
    names = ("Ines", "Jordi Montserrat-Villanueva", "Kike")
    board_url = start(page, "continental", "Continental (7 hands)", names)
    board = board_url.removeprefix(live_server)
    link = _table_link(page, live_server)
    phones = _page(browser, live_server, device)
    phone = next(phones)
    _seated(phone, link, board, names[1])
    phone.get_by_role("button", name="I went out").click()
    expect(phone.locator(".went-out-state")).to_contain_text("You went out")
    page.goto(f"{board_url}/close")
    box = page.get_by_label(f"{names[1]} went down and out in one turn (-10)")
    expect(box).to_be_visible()
    size = box.bounding_box()
    assert size is not None and size["width"] >= 24 and size["height"] >= 24, size
    box.check()
    page.fill("#hands-0-cards", "K 5")
    page.fill("#hands-2-cards", "JK")
    assert fits_width(page)
    screenshot(page, f"published-close-said-out-360-{scheme}")
    page.get_by_role("button", name="Close round 1").click()
    page.wait_for_url(board_url)
    expect(page.locator("#board .mark.one-turn")).to_have_count(1)
    expect(page.locator("#board table.rounds tbody tr").first).to_contain_text("-10")
    next(phones, None)
    next(pages, None)


# The contracts the board names for the next deal, as more-games.md lists them.
SHANGHAI_CONTRACTS = (
    "two sets of 3",
    "a set of 3 and a run of 4",
    "two runs of 4",
    "three sets of 3",
    "a set of 3 and a run of 7",
    "two sets of 3 and a run of 5",
    "three runs of 4",
    "a set of 3 and a run of 10",
    "three sets of 3 and a run of 5",
    "three runs of 5",
)
# Names no other browser test uses: the tour counts the finished games of its own players in
# the one household every browser test of a worker shares.
SHANGHAI = ("Amparo", "Bruno", "Celia")
SHANGHAI_ROUNDS: list[Round] = [
    ("Amparo", {"Bruno": "K 5", "Celia": "A"}, False),  # Bruno 15, Celia 20 (an ace is 20)
    ("Bruno", {"Amparo": "9", "Celia": "JK"}, False),  # Amparo 9, Celia 50 (a joker is 50)
    ("Celia", {"Amparo": "Q", "Bruno": "3 3"}, False),  # Amparo 10, Bruno 6
    ("Amparo", {"Bruno": "7", "Celia": "K K"}, False),  # Bruno 7, Celia 20
    ("Amparo", {"Bruno": "A", "Celia": "4"}, False),  # Bruno 20, Celia 4
    ("Bruno", {"Amparo": "2", "Celia": "J"}, False),  # Amparo 2 (a 2 is no wild card), Celia 10
    ("Celia", {"Amparo": "8", "Bruno": "10"}, False),  # Amparo 8, Bruno 10
    ("Amparo", {"Bruno": "JK", "Celia": "6"}, False),  # Bruno 50, Celia 6
    ("Bruno", {"Amparo": "5", "Celia": "Q Q"}, False),  # Amparo 5, Celia 20
    ("Celia", {"Amparo": "3", "Bruno": "9"}, False),  # Amparo 3, Bruno 9
]
# Amparo 9+10+2+8+5+3 = 37; Bruno 15+6+7+20+10+50+9 = 117; Celia 20+50+20+4+10+6+20 = 130.

# Liverpool in Spanish: the board's words for its contracts (languages.md's glossary: set is
# trío, run is escalera, laid down while going out is bajándose al cerrar).
LIVERPOOL_CONTRACTS = (
    "dos tríos de 3",
    "un trío de 3 y una escalera de 4",
    "dos escaleras de 4",
    "tres tríos de 3",
    "dos tríos de 3 y una escalera de 4",
    "un trío de 3 y dos escaleras de 4",
    "tres escaleras de 4, bajándose al cerrar",
)
LIVERPOOL = ("Lupe", "Mateo", "Nora")
LIVERPOOL_ROUNDS: list[Round] = [
    ("Lupe", {"Mateo": "K 5", "Nora": "A"}, False),  # Mateo 15, Nora 15 (an ace is 15)
    ("Mateo", {"Lupe": "9", "Nora": "JK"}, False),  # Lupe 9, Nora 15 (a joker is 15)
    ("Nora", {"Lupe": "Q", "Mateo": "3 3"}, False),  # Lupe 10, Mateo 6
    ("Lupe", {"Mateo": "7", "Nora": "K K"}, False),  # Mateo 7, Nora 20
    ("Mateo", {"Lupe": "A", "Nora": "4"}, False),  # Lupe 15, Nora 4
    ("Nora", {"Lupe": "2", "Mateo": "J"}, False),  # Lupe 2, Mateo 10
    ("Lupe", {"Mateo": "JK A", "Nora": "6 6"}, False),  # Mateo 30, Nora 12
]
# Lupe 9+10+15+2 = 36; Mateo 15+6+7+10+30 = 68; Nora 15+15+20+4+12 = 66.


def both_schemes(page: Any, name: str) -> None:
    """A screenshot of the page as it is, light and dark."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        screenshot(page, f"{name}-{scheme}")


def play_through(
    page: Any,
    board_url: str,
    names: Sequence[str],
    played: Sequence[Round],
    deals: Sequence[str],
    name: str,
) -> None:
    """Every round typed on the round form, to the game's end; before each, the board's line
    for the deal (its cards and contract) is ``deals``' line for it."""
    for number, (round_played, deal) in enumerate(zip(played, deals, strict=True), start=1):
        expect(page.locator("#board .next-deal .deal")).to_contain_text(deal)
        if number == len(played):
            assert fits_width(page)
            both_schemes(page, f"{name}-last-deal")
        enter(page, board_url, names, round_played)
    expect(page.locator("#board .next-deal")).to_have_count(0)


def test_a_whole_shanghai_game_names_its_ten_contracts_and_its_winner(
    browser: Any, live_server: str, owner_cookie: str
) -> None:
    """A family's Shanghai game at 360 px: ten deals of 11 cards, each contract on the board as
    the spec lists it, typed on the round form to the end, the lowest total the winner."""
    pages = _page(browser, live_server, NARROW_PHONE, owner_cookie)
    page = next(pages)
    board_url = start(page, "shanghai", "Shanghai Rummy (10 deals)", SHANGHAI)
    expect(page.locator("#board")).to_contain_text("Amparo deals round 1: 11 cards each.")
    assert fits_width(page)
    both_schemes(page, "published-shanghai-start")
    deals = [
        f"round {number}: 11 cards each. Contract {number}: {contract}."
        for number, contract in enumerate(SHANGHAI_CONTRACTS, start=1)
    ]
    play_through(page, board_url, SHANGHAI, SHANGHAI_ROUNDS, deals, "published-shanghai")
    board = page.locator("#board")
    expect(board.get_by_role("heading", name="Amparo wins")).to_be_visible()
    expect(board).to_contain_text("Amparo finished with 37 points, the fewest.")
    expect(board.locator("table.rounds tfoot td")).to_have_text(["37", "117", "130"])
    expect(board.locator("table.standings tr.winner")).to_contain_text("Amparo")
    assert fits_width(page)
    both_schemes(page, "published-shanghai-over")
    next(pages, None)


def test_a_whole_liverpool_game_in_spanish_ends_with_its_contract_laid_down_going_out(
    browser: Any, live_server: str, owner_cookie: str
) -> None:
    """A family's Liverpool game at 360 px, in Spanish: 10 cards for four deals, then 12, each
    contract on the board in Spanish, the last laid down while going out."""
    device = {**NARROW_PHONE, "locale": "es-CL"}
    pages = _page(browser, live_server, device, owner_cookie)
    page = next(pages)
    board_url = start(page, "liverpool", "Liverpool Rummy (7 manos)", LIVERPOOL)
    assert fits_width(page)
    both_schemes(page, "published-liverpool-start-es")
    # Ten cards for the first four deals, then twelve.
    deals = [
        f"la ronda {number}: {10 if number <= 4 else 12} cartas a cada uno. "
        f"Contrato {number}: {contract}."
        for number, contract in enumerate(LIVERPOOL_CONTRACTS, start=1)
    ]
    play_through(page, board_url, LIVERPOOL, LIVERPOOL_ROUNDS, deals, "published-liverpool-es")
    board = page.locator("#board")
    expect(board.get_by_role("heading", name="Lupe gana")).to_be_visible()
    expect(board.locator("table.standings tr.winner")).to_contain_text("Lupe")
    expect(board).to_contain_text("Lupe terminó con 36 puntos, el total más bajo.")
    expect(board.locator("table.rounds tfoot td")).to_have_text(["36", "68", "66"])
    # Round 7 is made only by going out: the two left holding cards made no contract in it.
    last = board.locator("table.rounds tbody tr").last
    expect(last.locator(".mark")).to_have_text(["★", "", ""])
    assert fits_width(page)
    both_schemes(page, "published-liverpool-over-es")
    next(pages, None)
