"""The rules page and the house-rules editor speak Phase 10's words on a Phase 10 deck (issue
51; phase-10.md: "phase" for contract, "hit" for lay off, "number" for rank, "colour" for
suit; fase, acomodar, grupo in Spanish), for the preset and for house rules whose deck is
Phase 10's, in English and Spanish; so do the engine's own sentences on that deck (the hand
check that gives up, a contract number the rules lack, when the game ends, an option cited by
a ruling). The standard games keep their words."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules import (
    ContractNumberError,
    RuleSetError,
    SearchBudgetExceeded,
    check_layoff,
    describe_options,
    find_contract,
    get_ruleset,
)
from scorekeeper.rules import search as rules_search
from scorekeeper.words import words

from .test_rules_pages import form_values
from .test_spanish import shown_text

SPANISH = {"Accept-Language": "es-CL"}
# A standard deck's words, which a Phase 10 deck's pages never say: contract (phase), rank
# (number), suit (colour), joker (it has Wilds), lay off (hit); in Spanish contrato (fase), palo
# (color), joker, trío (grupo) and valor where it meant a rank ("del mismo valor").
STANDARD_WORDS = {
    "en": re.compile(r"\b(contracts?|ranks?|suits?|jokers?|lay(ing)? off|lays off)\b", re.I),
    "es": re.compile(r"\b(contratos?|palos?|jokers?|tríos?|mismo valor)\b", re.I),
}
PHASE_WORDS = {"en": re.compile(r"\bphases?\b", re.I), "es": re.compile(r"\bfases?\b", re.I)}
HEADERS = {"en": {}, "es": SPANISH}
# The options only a standard deck means, which no page shows for a Phase 10 deck.
STANDARD_ONLY = (
    "wild_ranks",
    "aces",
    "pair_all_real",
    "wild_as_itself",
    "same_suit_runs_may_continue",
)
# House rules on a Phase 10 deck with every option the page words by the deck the other way
# from the preset's (a sentence of its own each), started from a standard game.
OTHER_WAY = {
    "contract_order": "round",
    "phases_played": "1 3 5",
    "hands": "5",
    "winner": "most contracts",
    "down_and_out_bonus": "-10",
    "max_wilds_per_laydown": "2",
    "exact_meld_sizes": "y",
    "extra_melds": "y",
    "may_i-allowed": "y",
    "may_i-limit": "1",
    "may_i-limit_per": "contract",
}
UNTICKED = ("wild_limits_on_layoff", "layoff_on_contract_turn", "discard_after_contract")


def _read(page: str) -> str:
    """What a person reads of the page's rules: its main part, sources and quotes aside, and
    neither the other games offered to start from nor the other deck offered, which are named
    in their own words."""
    page = re.sub(r'(?s)<details class="other-base">.*?</details>', " ", page)
    page = re.sub(r'(?s)<select id="deck".*?</select>', " ", page)
    return shown_text(page, "<main")


def _phase_10_house_rules(client: FlaskClient) -> str:
    """House rules started from 12-Step, their deck changed to Phase 10's in the editor and
    their options the other way; their slug."""
    editor = client.get("/rules/new?base=twelve-step").get_data(as_text=True)
    values = form_values(editor)
    values["deck"] = "phase-10"
    values["redraw"] = "1"
    redrawn = client.post("/rules/new?base=twelve-step", data=values)
    assert redrawn.status_code == 200
    values = form_values(redrawn.get_data(as_text=True))
    values["name"] = "Fase 10 de la casa"
    for key, value in OTHER_WAY.items():
        values[key] = value
    for key in UNTICKED:
        values.poplist(key)
    saved = client.post("/rules/new?base=twelve-step", data=values)
    assert saved.status_code == 303, _read(saved.get_data(as_text=True))
    slug = saved.headers["Location"].rsplit("/", 1)[-1]
    assert get_ruleset("twelve-step").deck.slug == "standard"
    return slug


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_rules_pages_of_phase_10_say_phase_and_no_standard_word(
    client: FlaskClient, language: str
) -> None:
    slug = _phase_10_house_rules(client)
    for path in (
        "/rules/phase-10",
        "/rules/new?base=phase-10",
        f"/rules/{slug}",
        f"/rules/{slug}/edit",
    ):
        response = client.get(path, headers=HEADERS[language])
        assert response.status_code == 200, path
        read = _read(response.get_data(as_text=True))
        assert not STANDARD_WORDS[language].findall(read), (path, read)
        assert PHASE_WORDS[language].search(read), path
    # Each sentence the house rules' options the other way give, in the deck's words.
    house = _read(client.get(f"/rules/{slug}", headers=HEADERS[language]).get_data(as_text=True))
    expected = {
        "en": (
            "Phases",
            "Round N plays phase N, for everyone; the game ends after round 5.",
            "Only phases 1, 3 and 5, in that order, each keeping its number",
            "Making the phase and going out on the same turn takes 10 points off",
            "At most 2 wild cards in all the melds of one phase",
            "not on one that grows by hitting",
            "Yes: a phase's melds go down exactly as long as asked",
            "Yes: a lay-down may hold more melds than the phase asks",
            "Hitting",
            "No: you hit only from the turn after the one you laid your phase down",
            "No: once your phase is made you take no more discards",
            "1 per phase",
            "1 Phase 10 deck for up to 6 players",
        ),
        "es": (
            "Fases",
            "En la ronda N se juega la fase N, para todos; la partida termina después de la "
            "ronda 5.",
            "Solo las fases 1, 3 y 5, en ese orden, cada una con su número",
            "Cumplir la fase y cerrar en el mismo turno resta 10 puntos",
            "Como máximo 2 comodines en todas las combinaciones de una fase",
            "Dos grupos del mismo número",
            "No: solo acomodas a partir del turno siguiente al que bajaste tu fase",
            "No: con tu fase cumplida ya no tomas descartes",
            "1 por fase",
            "1 baraja de Phase 10 para hasta 6 jugadores",
        ),
    }[language]
    for sentence in expected:
        assert sentence in house, sentence


def _assert_twelve_step_keeps_its_words(client: FlaskClient, language: str) -> None:
    """12-Step's page and editor still say contract, rank, lay off and jokers."""
    page = _read(client.get("/rules/twelve-step", headers=HEADERS[language]).get_data(as_text=True))
    editor = _read(
        client.get("/rules/new?base=twelve-step", headers=HEADERS[language]).get_data(as_text=True)
    )
    expected = {
        "en": ("Contracts", "Two sets of one rank", "Which contract a player works on"),
        "es": ("Contratos", "Dos tríos del mismo valor", "Qué contrato juega cada jugador"),
    }[language]
    for sentence in expected:
        assert sentence in page and sentence in editor, sentence
    assert ("Laying off" if language == "en" else "Acomodar") in page
    assert ("2 jokers a deck" if language == "en" else "2 jokers por baraja") in page
    # Phase 10 is named as the other deck the editor offers; no sentence says phase.
    assert not PHASE_WORDS[language].search((page + editor).replace("Phase 10", ""))


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_phase_10_editor_names_its_options_in_phase_words(
    client: FlaskClient, language: str
) -> None:
    read = _read(
        client.get("/rules/new?base=phase-10", headers=HEADERS[language]).get_data(as_text=True)
    )
    expected = {
        "en": (
            "Phases: one per line, in order",
            "Which phase a player works on",
            "Whoever makes the last phase",
            "Two sets of one number",
            "Hitting on the turn you lay down your phase",
            "Taking the discard once your phase is made",
            "How many Phase 10 decks the game uses for its players.",
            "Like “two sets of 3”, “a set of 3 and a run of 4”, or “7 cards of one colour”.",
        ),
        "es": (
            "Fases: una por línea, en orden",
            "dos grupos de 3",
            "Qué fase juega cada jugador",
            "Quien cumple la última fase",
            "Grupo más pequeño",
            "Dos grupos del mismo número",
            "Acomodar en el turno en que bajas la fase",
            "Cuántas barajas de Phase 10 usa la partida según los jugadores.",
        ),
    }[language]
    for sentence in expected:
        assert sentence in read, sentence
    # The standard games keep their words.
    _assert_twelve_step_keeps_its_words(client, language)


@pytest.mark.parametrize(
    ("language", "phase_10", "twelve_step"),
    [
        (
            "en",
            "Phase 10 (10 phases) 10 phases · each player keeps theirs until made",
            "12-Step Rummy 12 contracts · each player keeps theirs until made",
        ),
        (
            "es",
            "Phase 10 (10 fases) 10 fases · cada jugador sigue con la suya hasta cumplirla",
            "12-Step Rummy 12 contratos · cada jugador sigue con el suyo hasta cumplirlo",
        ),
    ],
)
def test_the_rules_list_counts_phase_10_in_phases(
    client: FlaskClient, language: str, phase_10: str, twelve_step: str
) -> None:
    listing = _read(client.get("/rules/", headers=HEADERS[language]).get_data(as_text=True))
    assert phase_10 in listing and twelve_step in listing


@pytest.mark.parametrize(
    ("language", "refusals"),
    [
        (
            "en",
            {
                "phases_played": (
                    "3 1",
                    "[3, 1] is not in order: each phase once, in the order played",
                ),
                "contracts": ("", "Give at least one phase."),
            },
        ),
        (
            "es",
            {
                "phases_played": (
                    "3 1",
                    "[3, 1] no está en orden: cada fase una vez, en el orden en que se juegan",
                ),
                "contracts": ("", "Escribe al menos una fase."),
            },
        ),
    ],
)
def test_the_phase_10_editor_refuses_in_phase_words(
    client: FlaskClient, language: str, refusals: dict[str, tuple[str, str]]
) -> None:
    editor = client.get("/rules/new?base=phase-10", headers=HEADERS[language])
    for key, (typed, refusal) in refusals.items():
        values = form_values(editor.get_data(as_text=True))
        values["name"] = f"Refused {key}"
        values[key] = typed
        refused = client.post("/rules/new?base=phase-10", data=values, headers=HEADERS[language])
        assert refused.status_code == 422
        read = _read(refused.get_data(as_text=True))
        assert refusal in read, (key, read)
        assert not STANDARD_WORDS[language].findall(read), read
    empty = form_values(editor.get_data(as_text=True))
    empty["name"] = "No phases played"
    empty["phases_played"] = ""
    read = _read(
        client.post("/rules/new?base=phase-10", data=empty, headers=HEADERS[language]).get_data(
            as_text=True
        )
    )
    assert {
        "en": "Say which phases are played: all, even, odd, or their numbers.",
        "es": "Di qué fases se juegan: todos, pares, impares o sus números.",
    }[language] in read


def test_the_engine_says_phase_on_a_phase_10_deck(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rules_search, "WORK_BUDGET", 0)
    hand = "1R 2B 3G 4Y 5R 6B 7G 8Y 9R W W"
    with pytest.raises(SearchBudgetExceeded) as phase:
        find_contract(hand, "phase-10", 4)
    assert str(phase.value) == (
        "too many possibilities to decide whether this hand makes phase 4 (a run of 7): check "
        "by hand"
    )
    with pytest.raises(SearchBudgetExceeded) as contract:
        find_contract("3H 4H 5H 6H 7H 8H 9H JK JK", "twelve-step", 1)
    assert "makes contract 1 (" in str(contract.value)
    with pytest.raises(ContractNumberError) as missing:
        get_ruleset("phase-10").contract(11)
    assert str(missing.value) == "11 is not a phase of these rules: they run from 1 to 10"
    assert get_ruleset("phase-10").game_end == "after the round in which someone makes phase 10"
    assert get_ruleset("twelve-step").game_end == (
        "after the round in which someone makes contract 12"
    )
    refused = check_layoff(
        "3R 4B 5G 6Y",
        "2R",
        {"base": "phase-10", "layoff_on_contract_turn": False},
        contract_turn=True,
    )
    assert not refused.valid
    assert "(option “Hitting on the turn you lay down your phase”)" in str(refused)
    labels = {option.key: str(option.label) for option in describe_options("phase-10")}
    assert labels["contracts"] == "Phases"
    assert labels["same_rank_sets_allowed"] == "Two sets of one number"
    for option in describe_options("phase-10"):
        said = f"{option.label} {option.help} {option.described}"
        if option.key not in STANDARD_ONLY:
            assert not STANDARD_WORDS["en"].search(said.replace("May I", "")), said
    with pytest.raises(RuleSetError) as none_left:
        get_ruleset({"base": "phase-10", "phases_played": []})
    assert "[] is an empty list (give at least one phase)" in str(none_left.value)
    with app.test_request_context(headers=SPANISH):
        assert words(phase.value.message) == (
            "demasiadas posibilidades para decidir si esta mano cumple la fase 4 (una escalera "
            "de 7): compruébalo a mano"
        )
        assert words(missing.value.message) == (
            "11 no es una fase de estas reglas: van de la 1 a la 10"
        )
