"""Issue 51 item 3, Phase 10 at the table: the card pad of a game on a Phase 10 deck has the
numbers 1 to 12, four colour keys drawn in their colour and labelled with their letter, W and
S, and no joker; a colour key gives the last number typed its colour (``7``, then R, is
``7R``), without JavaScript as with it; a hand tapped in by number alone scores. The round
form, the phones' own hands, in English and Spanish; the nine other games keep their pad."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import house_rules, scope
from scorekeeper.rules import PRESETS

from ..conftest import family_id
from ..helpers import round_form, start_game
from .test_drafts import points_by_seat, rounds_of, table_phone
from .test_pages import text

THREE = ("Ann", "Ben", "Cy")
NUMBERS = [str(number) for number in range(1, 13)]
COLOURS = ["R", "B", "Y", "G"]
_S3, _R4 = {"kind": "set", "size": 3}, {"kind": "run", "size": 4}
# Phase 10 as house rules can make it while the preset is not there: a game that keeps each
# player's own contract, on the Phase 10 deck, with its ten phases.
PHASE_10_HOUSE = {
    "base": "twelve-step",
    "deck": "phase-10",
    "cards_dealt": 10,
    "contracts": [
        [_S3, _S3],
        [_S3, _R4],
        [{"kind": "set", "size": 4}, _R4],
        [{"kind": "run", "size": 7}],
        [{"kind": "run", "size": 8}],
        [{"kind": "run", "size": 9}],
        [{"kind": "set", "size": 4}, {"kind": "set", "size": 4}],
        [{"kind": "color", "size": 7}],
        [{"kind": "set", "size": 5}, {"kind": "set", "size": 2}],
        [{"kind": "set", "size": 5}, _S3],
    ],
}
# The preset too, once it is registered.
RULES = ["house", *(["phase-10"] if "phase-10" in PRESETS else [])]


class _Buttons(HTMLParser):
    """Every button of a page: its attributes and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[dict[str, str]] = []
        self._open: dict[str, str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "button":
            self._open = {name: value or "" for name, value in attrs} | {"text": ""}
            self.found.append(self._open)

    def handle_endtag(self, tag: str) -> None:
        if tag == "button":
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open["text"] += data.strip()


def buttons(page: str, name: str) -> list[dict[str, str]]:
    """The buttons of ``page`` named ``name`` (a pad's keys: ``add-1``, ``add``)."""
    parser = _Buttons()
    parser.feed(page)
    return [button for button in parser.found if button.get("name") == name]


def phase_10_game(app: Flask, client: FlaskClient, rules: str) -> int:
    if rules == "house":
        with app.test_request_context(), scope.household(family_id(app)):
            rules = house_rules.save("Phase 10 by hand", PHASE_10_HOUSE).slug
    return start_game(client, rules, THREE)


def assert_phase_10_keys(keys: list[dict[str, str]], name: str, spanish: bool = False) -> None:
    assert [key["value"] for key in keys] == [*NUMBERS, *COLOURS, "W", "S"]
    assert [key["text"] for key in keys] == [*NUMBERS, *COLOURS, "W", "S"]
    colour_keys = [key for key in keys if "data-colour" in key]
    # Each colour drawn in its colour (its class) and labelled with its letter and its name.
    assert [key["value"] for key in colour_keys] == COLOURS
    words = ["rojo", "azul", "amarillo", "verde"] if spanish else ["red", "blue", "yellow", "green"]
    for key, letter, word in zip(colour_keys, COLOURS, words, strict=True):
        assert f"colour-{letter}" in key["class"].split()
        assert word in key["aria-label"] and f"({letter})" in key["aria-label"]
        assert name in key["aria-label"] or name == ""
    wild, skip = keys[-2], keys[-1]
    if spanish:
        assert "comodín" in wild["aria-label"] and "salto" in skip["aria-label"]
    else:
        assert "a Wild" in wild["aria-label"] and "a Skip" in skip["aria-label"]
    assert not any("joker" in key["aria-label"] for key in keys)


@pytest.mark.parametrize("rules", RULES)
def test_the_round_forms_pad_follows_the_phase_10_deck(
    app: Flask, client: FlaskClient, rules: str
) -> None:
    game_id = phase_10_game(app, client, rules)
    page = text(client.get(f"/games/{game_id}/rounds/new"))
    assert_phase_10_keys(buttons(page, "add-1"), "Ben")
    assert "e.g. 7R 12G W S" in page and "K Q 9 JK" not in page
    spanish = text(client.get(f"/games/{game_id}/rounds/new", headers={"Accept-Language": "es"}))
    assert_phase_10_keys(buttons(spanish, "add-2"), "Cy", spanish=True)
    # Another game keeps its pad: the joker first, then the ranks, no colour.
    other = start_game(client, "contract-rummy", THREE)
    standard = buttons(text(client.get(f"/games/{other}/rounds/new")), "add-1")
    assert [key["value"] for key in standard][:3] == ["JK", "A", "K"]
    assert len(standard) == 14 and not any("data-colour" in key for key in standard)


@pytest.mark.parametrize("rules", RULES)
def test_the_keys_type_a_phase_10_hand_without_javascript(
    app: Flask, client: FlaskClient, rules: str
) -> None:
    game_id = phase_10_game(app, client, rules)
    url = f"/games/{game_id}/rounds/new"
    typed = ""
    # 7, then R: 7R; R again with a Wild last changes nothing; 12, then G then Y: 12Y.
    for key, after in [
        ("7", "7"),
        ("R", "7R"),
        ("W", "7R W"),
        ("R", "7R W"),
        ("12", "7R W 12"),
        ("G", "7R W 12G"),
        ("Y", "7R W 12Y"),
        ("S", "7R W 12Y S"),
        ("JK", "7R W 12Y S"),
    ]:
        page = client.post(url, data=round_form(THREE, "Ann", {"Ben": typed}) | {"add-1": key})
        assert page.status_code == 200
        typed = after
        assert f'name="hands-1-cards" value="{after}"' in text(page), key
    # The chips say each card in the deck's words, its colour on its edge: 5 + 25 + 10 + 15.
    chips = buttons(text(page), "remove-1")
    assert [chip["aria-label"] for chip in chips] == [
        "Take out 7R",
        "Take out a Wild",
        "Take out 12Y",
        "Take out a Skip",
    ]
    assert "colour-R" in chips[0]["class"] and "colour-Y" in chips[2]["class"]
    assert "55 <span" in text(page)


@pytest.mark.parametrize("rules", RULES)
def test_a_round_typed_by_number_alone_on_the_pad_is_scored(
    app: Flask, client: FlaskClient, rules: str
) -> None:
    game_id = phase_10_game(app, client, rules)
    url = f"/games/{game_id}/rounds/new"
    hands = {"Ben": "", "Cy": ""}
    for name, seat, keys in [("Ben", 1, ["12", "11", "1", "9"]), ("Cy", 2, ["10", "S", "W"])]:
        for key in keys:
            page = client.post(url, data=round_form(THREE, "Ann", hands) | {f"add-{seat}": key})
            hands[name] = " ".join([*hands[name].split(), key])
            assert f'name="hands-{seat}-cards" value="{hands[name]}"' in text(page)
    saved = client.post(url, data=round_form(THREE, "Ann", hands, {"Ben"}) | {"save": "1"})
    assert saved.status_code == 302, text(saved)
    # 10 + 10 + 5 + 5 and 10 + 15 + 25: a number alone scores, as on paper.
    assert [points_by_seat(played) for played in rounds_of(app, game_id)] == [{0: 0, 1: 30, 2: 50}]


@pytest.mark.parametrize("rules", RULES)
def test_a_phones_own_pad_follows_the_phase_10_deck(
    app: Flask, client: FlaskClient, rules: str
) -> None:
    game_id = phase_10_game(app, client, rules)
    phones = [table_phone(app, game_id, seat=seat) for seat in range(3)]
    went_out = phones[0].post(f"/games/{game_id}/hand", data={"number": "1", "went_out": "1"})
    assert went_out.status_code == 303
    page = text(phones[1].get(f"/games/{game_id}/hand"))
    assert_phase_10_keys(buttons(page, "add"), "")
    spanish = text(phones[2].get(f"/games/{game_id}/hand", headers={"Accept-Language": "es"}))
    assert_phase_10_keys(buttons(spanish, "add"), "", spanish=True)
    # Without JavaScript a key sends the cards as typed: 11, then B, is 11B.
    typed = phones[1].post(
        f"/games/{game_id}/hand", data={"number": "1", "cards": "W 11", "add": "B"}
    )
    assert typed.status_code == 200 and 'value="W 11B"' in text(typed)
    assert "Take out a Wild" in text(typed) and "35" in text(typed)
