"""The referee on a Phase 10 deck (issue 51): its card pad is the games' Phase 10 pad (numbers
1 to 12, the four colours drawn in their colour and labelled with their letter, W and S), its
examples are written in the deck's notation, every phase is decided, and in Spanish a set is a
grupo (phase-10.md, "Spanish words"), where the other games keep trío."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from flask.testing import FlaskClient

from .test_spanish import shown_text

SPANISH = {"Accept-Language": "es-CL"}


def _page(
    client: FlaskClient, params: dict[str, str], headers: dict[str, str] | None = None
) -> str:
    response = client.get("/referee?" + urlencode(params), headers=headers or {})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def _pad(page: str) -> str:
    return page[page.index('<div class="card-pad"') : page.index('<p class="actions">')]


def _keys(pad: str) -> list[str]:
    return re.findall(r'<button type="submit" name="add" value="([^"]+)"', pad)


@pytest.mark.parametrize("mode", ["meld", "contract", "layoff", "liberate", "hand"])
def test_the_phase_10_referee_shows_the_phase_10_pad(client: FlaskClient, mode: str) -> None:
    pad = _pad(_page(client, {"rules": "phase-10", "mode": mode}))
    assert _keys(pad) == [*(str(number) for number in range(1, 13)), "R", "B", "Y", "G", "W", "S"]
    # Each colour key drawn in its colour and labelled with its letter, for the last card typed.
    for letter, colour in (("R", "red"), ("B", "blue"), ("Y", "yellow"), ("G", "green")):
        assert re.search(
            rf'value="{letter}" data-colour class="pad-colour colour-{letter}"\s+'
            rf'aria-label="Colour {colour} \({letter}\) for your last card">{letter}</button>',
            pad,
        ), letter
    assert "data-pad-suit" not in pad and "data-pad-joker" not in pad and ">JK<" not in pad
    assert "pad-numbers" in pad and "data-pad-back" in pad and "data-pad-clear" in pad


def test_a_standard_game_keeps_its_pad_and_examples(client: FlaskClient) -> None:
    page = _page(client, {"rules": "twelve-step", "mode": "hand"})
    pad = _pad(page)
    assert _keys(pad) == [] and "pad-numbers" not in pad
    assert pad.count("data-pad-suit") == 4 and "data-pad-joker" in pad
    assert "All of them: 5S 5H 5D 7C 7D JK …" in page


@pytest.mark.parametrize(
    ("mode", "english", "spanish"),
    [
        (
            "meld",
            "Any order: 7R W 7B, or tap them in below.",
            "En cualquier orden: 7R W 7B, o tócalas abajo.",
        ),
        (
            "contract",
            "One meld per line (or separated by /): 7R 7B W / 3G 4Y 5B 6R.",
            "Una combinación por línea (o separadas por /): 7R 7B W / 3G 4Y 5B 6R.",
        ),
        ("layoff", "For example 3R 4B 5G 6Y.", "Por ejemplo 3R 4B 5G 6Y."),
        ("liberate", "For example 3R 4B W 6Y.", "Por ejemplo 3R 4B W 6Y."),
        ("hand", "All of them: 7R 7B 7G 3Y 4B W S …", "Todas: 7R 7B 7G 3Y 4B W S …"),
    ],
)
def test_the_examples_are_written_in_the_phase_10_notation(
    client: FlaskClient, mode: str, english: str, spanish: str
) -> None:
    assert english in _page(client, {"rules": "phase-10", "mode": mode})
    page = _page(client, {"rules": "phase-10", "mode": mode}, SPANISH)
    assert spanish in page
    assert "Color rojo (R) para tu última carta" in _pad(page)
    assert "Agregar un comodín" in _pad(page) and "Agregar un salto" in _pad(page)


def test_the_referee_decides_phase_8_and_a_run(client: FlaskClient) -> None:
    made = _page(
        client,
        {"rules": "phase-10", "mode": "hand", "cards": "2R 9R 12R W 4R 4R 7R S", "contract": "8"},
    )
    ruling = shown_text(made)
    assert "check by hand" not in ruling and "Undecided" not in ruling
    assert "Phase 8" in ruling or "Contract 8" in ruling
    short = _page(
        client,
        {"rules": "phase-10", "mode": "hand", "cards": "1R 2B 3G 5R 6B 7Y 8R", "contract": "4"},
    )
    assert "1 card short" in shown_text(short)


def _spanish_ruling(client: FlaskClient, params: dict[str, str]) -> str:
    return shown_text(_page(client, params, SPANISH))


def test_a_phase_10_set_is_a_grupo_in_spanish(client: FlaskClient) -> None:
    meld = _spanish_ruling(client, {"rules": "phase-10", "cards": "7R 7B W"})
    assert "Un grupo de sietes" in meld and "trío" not in meld.lower()
    refused = _spanish_ruling(client, {"rules": "phase-10", "cards": "7R 8B"})
    assert "grupo" in refused and "trío" not in refused.lower()
    page = _page(client, {"rules": "phase-10", "mode": "contract"}, SPANISH)
    phases = page[
        page.index('<select id="contract"') : page.index(
            "</select>", page.index('<select id="contract"')
        )
    ]
    assert "1: dos grupos de 3" in phases
    assert "9: un grupo de 5 y un grupo de 2" in phases
    assert "trío" not in phases.lower()
    laid = _spanish_ruling(
        client,
        {
            "rules": "phase-10",
            "mode": "contract",
            "melds": "5R 5B 5G / 7R 7B 7G / 10R 10B 10G",
            "contract": "1",
        },
    )
    assert "dos grupos de 3" in laid and "trío" not in laid.lower()


def test_the_other_games_keep_trio_in_spanish(client: FlaskClient) -> None:
    meld = _spanish_ruling(client, {"rules": "twelve-step", "cards": "5S 5H JK"})
    assert "Un trío de cincos" in meld and "grupo" not in meld
    page = _page(client, {"rules": "twelve-step", "mode": "contract"}, SPANISH)
    assert "1: dos tríos de 3" in page
