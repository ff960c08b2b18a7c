"""Issue 49's five-player evening at 360 px, in English and in Spanish: a Liverpool game of
five started on the new-game form (a fifth seat as the fourth name is typed, the deck line
following the names), three rounds, Dee leaves after round 3, "Undo: Dee leaves", Dee leaves
again, round 4 without Dee, Dee comes back by the board's button with the total she had, and
Fay joins with the highest total. The board is checked at each step, nothing is wider than
the phone, and the controls of each step are at least 44 px. Screenshots land in
test-artifacts/screenshots/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import NARROW_PHONE, _page, enter_round, fits_width, screenshot

pytestmark = pytest.mark.browser

FIVE = ["Ann", "Ben", "Cy", "Dee", "Eve"]
WORDS = {
    "en": {
        "locale": "en-US",
        "for_players": "for {num} players",
        "seat_6": "Player 6",
        "move_5_up": "Move player 5 up",
        "decks_for_5": "3 decks and 6 jokers",
        "leaves": "A player leaves…",
        "dee_leaves": "Dee leaves the game",
        "yes_leave": "Yes, Dee leaves",
        "left_after_3": "left after round 3",
        "back_5": "back before round 5",
        "undo_leave": "Undo: Dee leaves",
        "undo_round": "Undo round {num}",
        "comes_back": "Dee comes back",
        "asked": "Dee left after round 3. Is Dee back at the table for round 5?",
        "had": "the total when leaving: {num} points",
        "yes_back": "Yes, Dee comes back",
        "back": "Dee is back at the table.",
        "add": "Add a player…",
        "highest": "the highest total so far: {num} points",
        "add_to": "Add to round 5",
        "joined": "Fay joined the game.",
    },
    "es": {
        "locale": "es-CL",
        "for_players": "para {num} jugadores",
        "seat_6": "Jugador 6",
        "move_5_up": "Subir al jugador 5",
        "decks_for_5": "3 barajas y 6 jokers",
        "leaves": "Se va un jugador…",
        "dee_leaves": "Dee deja la partida",
        "yes_leave": "Sí, Dee se va",
        "left_after_3": "se fue después de la ronda 3",
        "back_5": "volvió antes de la ronda 5",
        "undo_leave": "Deshacer: Dee deja la partida",
        "undo_round": "Deshacer la ronda {num}",
        "comes_back": "Dee vuelve",
        "asked": (
            "Dee dejó la partida después de la ronda 3. ¿Vuelve Dee a la mesa para la ronda 5?"
        ),
        "had": "el total al irse: {num} puntos",
        "yes_back": "Sí, Dee vuelve",
        "back": "Dee vuelve a la mesa.",
        "add": "Agregar un jugador…",
        "highest": "el total más alto hasta ahora: {num} puntos",
        "add_to": "Agregar a la ronda 5",
        "joined": "Fay entró en la partida.",
    },
}


@pytest.fixture(params=sorted(WORDS))
def evening(
    request: pytest.FixtureRequest, browser: Any, live_server: str, owner_cookie: str
) -> Iterator[tuple[Any, str]]:
    device = {**NARROW_PHONE, "locale": WORDS[request.param]["locale"]}
    for page in _page(browser, live_server, device, owner_cookie):
        yield page, request.param


def _tappable(*controls: Any) -> None:
    """Each control (for a radio: its label, the whole row) is at least 44 x 44 px."""
    for control in controls:
        box = control.bounding_box()
        assert box is not None and box["width"] >= 43.95 and box["height"] >= 43.95, (
            control,
            box,
        )


def _total(page: Any, name: str) -> int:
    row = page.locator(".standings tbody tr", has=page.locator("td", has_text=re.compile(name)))
    return int(row.locator(".total").inner_text().replace(".", "").replace(",", ""))


def test_the_five_player_evening(evening: tuple[Any, str]) -> None:
    page, language = evening
    says = WORDS[language]

    # The new-game form: a fifth seat as soon as a name is in the fourth, the deck line live.
    page.goto("/games/new")
    page.select_option("#rules", "liverpool")
    line = page.locator("#setup-preview")
    # The form redrawn for Liverpool (htmx) before a name is typed into it.
    expect(line).to_contain_text("Liverpool")
    expect(page.locator("#players-4")).to_have_count(0)
    for seat, name in enumerate(FIVE[:4]):
        page.locator(f"#players-{seat}").press_sequentially(name)
    expect(page.locator("#players-4")).to_be_visible()
    expect(line).to_contain_text(says["for_players"].format(num=4))
    page.locator("#players-4").press_sequentially("Eve")
    expect(line).to_contain_text(says["for_players"].format(num=5))
    expect(line).to_contain_text(says["decks_for_5"])
    expect(page.locator("#players-5")).to_have_attribute("placeholder", says["seat_6"])
    expect(page.get_by_role("button", name=says["move_5_up"])).to_be_enabled()
    assert fits_width(page)
    screenshot(page, f"evening-new-game-360-{language}")
    page.click("button[name=start]")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    board = str(page.url)
    expect(page.locator(".standings tbody tr")).to_have_count(5)

    enter_round(page, board, "Ann", {1: "5", 2: "K", 3: "K K", 4: "5"})
    enter_round(page, board, "Ben", {0: "K", 2: "5", 3: "5", 4: "K K"})
    enter_round(page, board, "Cy", {0: "5", 1: "5", 3: "K", 4: "5"})
    dee = _total(page, "Dee")

    # Dee leaves after round 3: the board offers the leave's undo, not round 3's.
    page.get_by_text(says["leaves"]).click()
    page.get_by_role("link", name=says["dee_leaves"]).click()
    page.get_by_role("button", name=says["yes_leave"]).click()
    page.wait_for_url(board)
    expect(page.locator(".standings .comings")).to_have_text(says["left_after_3"])
    undo_leave = page.get_by_role("button", name=says["undo_leave"])
    expect(undo_leave).to_be_visible()
    expect(page.get_by_role("button", name=says["undo_round"].format(num=3))).to_have_count(0)
    _tappable(undo_leave)
    assert fits_width(page)
    screenshot(page, f"evening-dee-left-360-{language}")

    # Taken back: Dee is at the table for round 4 again.
    undo_leave.click()
    page.wait_for_url(board)
    expect(page.locator(".flash").first).to_contain_text(says["back"])
    expect(page.locator(".standings .comings")).to_have_count(0)
    expect(page.get_by_role("button", name=says["undo_leave"])).to_have_count(0)

    # The leave again, and round 4 without Dee.
    page.get_by_text(says["leaves"]).click()
    page.get_by_role("link", name=says["dee_leaves"]).click()
    page.get_by_role("button", name=says["yes_leave"]).click()
    page.wait_for_url(board)
    page.goto(board + "/rounds/new")
    expect(page.locator("#hands-3-cards")).to_have_count(0)
    enter_round(page, board, "Eve", {0: "K", 1: "5", 2: "5"})
    expect(page.locator(".standings .comings")).to_have_text(says["left_after_3"])
    expect(page.get_by_role("button", name=says["undo_leave"])).to_have_count(0)
    assert _total(page, "Dee") == dee

    # Dee comes back by the board's button, with the total she had.
    comes_back = page.get_by_role("link", name=says["comes_back"])
    _tappable(comes_back)
    assert fits_width(page)
    screenshot(page, f"evening-dee-away-360-{language}")
    comes_back.click()
    expect(page.get_by_text(says["asked"])).to_be_visible()
    had = page.get_by_label(says["had"].format(num=dee))
    expect(had).to_be_checked()
    yes = page.get_by_role("button", name=says["yes_back"])
    no = page.locator("form .actions a.button")
    _tappable(page.locator("label.check", has=had), yes, no)
    assert fits_width(page)
    screenshot(page, f"evening-comeback-360-{language}")
    yes.click()
    page.wait_for_url(board)
    expect(page.locator(".flash").first).to_contain_text(says["back"])
    expect(page.locator(".standings .comings")).to_contain_text(says["back_5"])
    expect(page.get_by_role("link", name=says["comes_back"])).to_have_count(0)
    assert _total(page, "Dee") == dee

    # Fay joins before round 5 with the highest total of those at the table.
    highest = max(_total(page, name) for name in FIVE)
    page.get_by_text(says["add"]).click()
    page.fill("#join-name", "Fay")
    page.get_by_label(says["highest"].format(num=highest)).check()
    page.get_by_role("button", name=says["add_to"]).click()
    page.wait_for_url(board)
    expect(page.locator(".flash").first).to_contain_text(says["joined"])
    expect(page.locator(".standings tbody tr")).to_have_count(6)
    assert _total(page, "Fay") == highest
    assert fits_width(page)
    screenshot(page, f"evening-fay-joined-360-{language}")

    # Round 5 deals all six in.
    page.goto(board + "/rounds/new")
    for seat in range(6):
        expect(page.locator("fieldset.went-out label.choice").nth(seat)).to_be_visible()
    expect(page.locator("#hands-3-cards")).to_be_visible()
    expect(page.locator("#hands-5-cards")).to_be_visible()
    assert fits_width(page)
