"""The referee speaks Phase 10's words on a Phase 10 deck (issue 51; phase-10.md: "phase" for
contract, "hit" for lay off), in English and Spanish (fase, acomodar), through its pages and
the engine's rulings; it says what the Phase 10 decks it checks against hold, and the other
games keep "contract", "lay off" and their decks and jokers."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import house_rules
from scorekeeper.rules import check_contract, check_layoff, get_ruleset

from .test_rules_pages import form_values
from .test_spanish import shown_text

SPANISH = {"Accept-Language": "es-CL"}


def _page(
    client: FlaskClient,
    params: dict[str, str],
    headers: dict[str, str] | None = None,
    status: int = 200,
) -> str:
    response = client.get("/referee?" + urlencode(params), headers=headers or {})
    assert response.status_code == status
    return response.get_data(as_text=True)


def _form(page: str) -> str:
    """The question's part of the page, as a person reads it: tabs, labels and hints."""
    form = re.sub(r'(?s)<select id="rules".*?</select>', " ", page[: page.index('id="ruling"')])
    return shown_text(form, '<nav class="modes"')


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


PHASE_1 = {"rules": "phase-10", "mode": "hand", "cards": "7R 7B W 9 9 9 3G", "contract": "1"}


@pytest.mark.parametrize(
    ("headers", "made", "asks"),
    [
        ({}, "You can lay down phase 1 (two sets of 3)", "Phase 1 asks for two sets of 3:"),
        (SPANISH, "Puedes bajar la fase 1 (dos grupos de 3)", "La fase 1 pide dos grupos de 3:"),
    ],
)
def test_the_hand_check_says_phase(
    client: FlaskClient, headers: dict[str, str], made: str, asks: str
) -> None:
    page = _page(client, PHASE_1, headers)
    ruling = shown_text(page)
    assert made in ruling and asks in ruling
    assert not _words(ruling) & {"contract", "contracts", "contrato", "contratos"}
    short = shown_text(
        _page(
            client,
            {"rules": "phase-10", "mode": "hand", "cards": "1R 2B 3G 5R 6B 7Y 8R", "contract": "4"},
            headers,
        )
    )
    assert ("Phase 4 (a run of 7): 1 card short" in short) or (
        "Fase 4 (una escalera de 7): falta 1 carta" in short
    )
    assert not _words(short) & {"contract", "contrato"}
    # 12-Step keeps its contracts, on the page and in the engine.
    standard = shown_text(
        _page(
            client,
            {
                "rules": "twelve-step",
                "mode": "hand",
                "cards": "5S 5H 5D 7C 7D JK 2C",
                "contract": "1",
            },
        )
    )
    assert "You can lay down contract 1 (two sets of 3)" in standard
    assert "Contract 1 asks for two sets of 3:" in standard
    made = check_contract(["5S 5H 5D", "7C 7D JK"], "twelve-step", 1)
    assert made.reasons[0].message.as_written().startswith("Contract 1 asks for two sets of 3:")


@pytest.mark.parametrize(
    ("headers", "tab", "label", "headline", "not_said"),
    [
        ({}, "Phase", "Phase", "Phase 1: two sets of 3", {"contract", "contracts"}),
        (SPANISH, "Fase", "Fase", "Fase 1: dos grupos de 3", {"contrato", "contratos"}),
    ],
)
def test_the_phase_question_says_phase(
    client: FlaskClient,
    headers: dict[str, str],
    tab: str,
    label: str,
    headline: str,
    not_said: set[str],
) -> None:
    params = {
        "rules": "phase-10",
        "mode": "contract",
        "melds": "5R 5B 5G / 7R 7B W",
        "contract": "1",
    }
    page = _page(client, params, headers)
    assert f'aria-current="page">{tab}</a>' in page
    assert f'<label for="contract">{label}</label>' in page
    ruling = shown_text(page)
    assert headline in ruling
    assert not (_words(_form(page)) | _words(ruling)) & not_said
    refused = _page(client, params | {"contract": "11"}, headers, status=422)
    assert (
        "These rules have phases 1 to 10; there is no phase 11." in refused
        or "Estas reglas tienen las fases del 1 al 10; no hay fase 11." in refused
    )


@pytest.mark.parametrize(
    ("headers", "tab", "headline", "allowed", "turn"),
    [
        (
            {},
            "Hit",
            "Hit 7R: a run",
            "Hitting is allowed once your own phase is made, on the same turn too",
            "Is this the turn you laid your phase down?",
        ),
        (
            SPANISH,
            "Acomodar",
            "Acomodar 7R: una escalera",
            "Se puede acomodar una vez cumplida tu fase, también en el mismo turno",
            "¿Es el turno en que bajaste tu fase?",
        ),
    ],
)
def test_a_hit_is_a_hit(
    client: FlaskClient,
    headers: dict[str, str],
    tab: str,
    headline: str,
    allowed: str,
    turn: str,
) -> None:
    params = {"rules": "phase-10", "mode": "layoff", "meld": "3R 4B 5G 6Y", "cards": "7R"}
    page = _page(client, params, headers)
    assert f'aria-current="page">{tab}</a>' in page
    ruling = shown_text(page)
    assert headline in ruling and allowed in ruling
    assert turn in _form(page)
    assert not _words(_form(page) + ruling) & {"contract", "contrato", "lay", "off"}
    # A house rule that keeps the turn the phase went down for the phase alone.
    engine = check_layoff(
        "3R 4B 5G 6Y",
        "7R",
        {"base": "phase-10", "layoff_on_contract_turn": False},
        contract_turn=True,
    )
    assert not engine.valid
    standard = _page(
        client, {"rules": "twelve-step", "mode": "layoff", "meld": "4D 5D 6D 7D", "cards": "3D"}
    )
    assert 'aria-current="page">Lay-off</a>' in standard
    assert "Lay off 3♦: a run of diamonds" in shown_text(standard)
    assert (
        engine.reasons[0]
        .message.as_written()
        .startswith("You may not hit on the turn you lay your phase down: wait for a later turn")
    )


@pytest.mark.parametrize(
    ("players", "headers", "said"),
    [
        (
            "4",
            {},
            "Cards are checked against 1 Phase 10 deck for 4 players: 96 numbered cards, "
            "8 Wilds, 4 Skips.",
        ),
        (
            "8",
            {},
            "Cards are checked against 2 Phase 10 decks for 8 players: 192 numbered cards, "
            "16 Wilds, 8 Skips.",
        ),
        (
            "4",
            SPANISH,
            "1 baraja de Phase 10 para 4 jugadores: 96 cartas numeradas, 8 comodines, 4 saltos.",
        ),
    ],
)
def test_the_referee_says_what_the_phase_10_decks_hold(
    client: FlaskClient, players: str, headers: dict[str, str], said: str
) -> None:
    page = _page(client, {"rules": "phase-10", "players": players}, headers)
    assert said in shown_text(page, 'id="players-hint"')
    assert "joker" not in page.lower().split('id="players-hint"')[1].split("</p>")[0]
    standard = _page(client, {"rules": "twelve-step"})
    assert "Cards are checked against 2 decks and 4 jokers for 4 players." in standard


def test_the_spanish_editor_reads_grupos_in_phase_10_contracts(
    app: Flask, client: FlaskClient
) -> None:
    """Phase 10's phases written by hand in Spanish, a set a grupo, read as the preset's."""
    editor = client.get("/rules/new?base=phase-10", headers=SPANISH).get_data(as_text=True)
    values = form_values(editor)
    values["name"] = "Fase 10 a mano"
    values["contracts"] = "\n".join(
        [
            "dos grupos de 3",
            "un grupo de 3 y una escalera de 4",
            "un grupo de 4 y una escalera de 4",
            "una escalera de 7",
            "una escalera de 8",
            "una escalera de 9",
            "dos grupos de 4",
            "7 cartas de un color",
            "un grupo de 5 y un grupo de 2",
            "un grupo de 5 y un grupo de 3",
        ]
    )
    response = client.post("/rules/new?base=phase-10", data=values, headers=SPANISH)
    assert response.status_code == 303, shown_text(response.get_data(as_text=True), "<main")
    with app.app_context():
        saved = house_rules.load(house_rules.slug_for("Fase 10 a mano"))
    assert saved.contracts == get_ruleset("phase-10").contracts
    # Carioca's own word for a run, escala, reads as escalera does.
    carioca = form_values(
        client.get("/rules/new?base=carioca", headers=SPANISH).get_data(as_text=True)
    )
    carioca["name"] = "Carioca a mano"
    carioca["contracts"] = "dos tríos de 3\nun trío de 3 y una escala de 4\ndos escalas de 4"
    response = client.post("/rules/new?base=carioca", data=carioca, headers=SPANISH)
    assert response.status_code == 303, shown_text(response.get_data(as_text=True), "<main")
    with app.app_context():
        hand = house_rules.load(house_rules.slug_for("Carioca a mano"))
    assert [contract.summary for contract in hand.contracts] == [
        contract.summary for contract in get_ruleset("carioca").contracts[:3]
    ]
