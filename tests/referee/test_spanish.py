"""The referee and the rules pages in Spanish: every ruling, reason, option and contract in the
page's language, the family's quotes as written, the card notation as typed."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import house_rules, languages
from scorekeeper.rulebook.forms import read_contracts
from scorekeeper.rules import (
    PRESETS,
    Ruling,
    check_contract,
    check_meld,
    get_ruleset,
    own_words,
    parse_cards,
)
from scorekeeper.words import rules_name, words

from .test_rules_pages import form_values

SPANISH = {"Accept-Language": "es-CL"}
# Words that only English sentences hold; the quotes of the families' documents (blockquotes)
# are left out before looking, as they stay in the language they were written in.
ENGLISH = re.compile(
    r"\b(the|and|of|is|are|wild|meld|melds|run|runs|set|sets|contract|cards?|rules|"
    r"allowed|valid|made|why|link|ruling|players?|decks?)\b",
    re.IGNORECASE,
)


GAME_NAMES = re.compile(r"\b(12-Step|Russian|Dummy|Contract) Rummy\b")


def shown_text(page: str, start: str = 'id="ruling"') -> str:
    """The words of the page from ``start`` on, as a person reads them, quotes left out."""
    part = page[page.index(start) :]
    part = re.sub(r"(?s)<blockquote.*?</blockquote>", " ", part)
    # A script's words are given to it in a JSON block, with placeholders ({link}) of its own.
    part = re.sub(r"(?s)<script.*?</script>", " ", part)
    # A cited document or rule page keeps its own name, as a quote keeps its words.
    part = re.sub(r"(?s)<cite>.*?</cite>", " ", part)
    part = re.sub(r"(?s)<[^>]+>", " ", part)
    return re.sub(r"\s+", " ", unescape(part))


def english_in(shown: str) -> list[str]:
    """English words left in ``shown``, the games' own names aside."""
    return ENGLISH.findall(GAME_NAMES.sub("", shown))


def ruling_in_spanish(client: FlaskClient, params: dict[str, str]) -> str:
    response = client.get("/referee?" + urlencode(params), headers=SPANISH)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert '<html lang="es"' in page
    ruling = page[page.index('<section id="ruling"') : page.index("</section>")]
    return shown_text(ruling, "<section")


# (question, the engine's own ruling, words the Spanish page must hold)
RULINGS = [
    (
        {"rules": "twelve-step", "cards": "5S 2C JK 8S"},
        lambda: check_meld("5S 2C JK 8S", "twelve-step"),
        [
            "No válida",
            "No es un trío porque 5 y 8 son distintos",
            "los comodines deben ir separados por una carta natural",
            "Separación de comodines",
            "reglas de 12-Step Rummy",
        ],
    ),
    (
        {"rules": "twelve-step", "cards": "JD QD KD AD"},
        lambda: check_meld("JD QD KD AD", "twelve-step"),
        [
            "Válida",
            "Una escalera de diamantes, as alto",
            "Los ases pueden ser altos o bajos (reglas de 12-Step Rummy); aquí el as es alto",
            "Ases en las escaleras",
            "J♦",
        ],
    ),
    (
        {
            "rules": "bellevue",
            "mode": "contract",
            "melds": "KH QH JH 10H / 9H 8H 7H 6H",
            "contract": "4",
        },
        lambda: check_contract(["KH QH JH 10H", "9H 8H 7H 6H"], "bellevue", 4),
        [
            "No cumplido",
            "Contrato 4: dos escaleras de 4",
            "Dos escaleras del mismo palo no pueden continuarse (K-Q-J-10 y 9-8-7-6)",
            "reglas de la familia Bellevue",
        ],
    ),
    (
        {"rules": "twelve-step", "mode": "contract", "melds": "5S 5H 5D", "contract": "1"},
        lambda: check_contract(["5S 5H 5D"], "twelve-step", 1),
        [
            "No cumplido",
            "El contrato 1 pide dos tríos de 3: exactamente 2 combinaciones, y se bajó 1",
            "Contratos · reglas de 12-Step Rummy",
        ],
    ),
    (
        {"rules": "bellevue", "mode": "contract", "melds": "5S 5H / 7C 7D JK", "contract": "1"},
        lambda: check_contract(["5S 5H", "7C 7D JK"], "bellevue", 1),
        [
            "La combinación 1 (5♠ y 5♥) no es una combinación: un trío necesita al menos 3 "
            "cartas, y este tiene 2",
        ],
    ),
    (
        {"rules": "twelve-step", "mode": "liberate", "meld": "3H 4H JK 6H", "card": "5H"},
        lambda: None,
        [
            "Permitido",
            "Poner 5♥ en lugar del comodín, en la combinación de otro jugador",
            "El JK cambiado se debe jugar enseguida",
        ],
    ),
    (
        {"rules": "twelve-step", "mode": "layoff", "meld": "4D 5D 6D 7D", "cards": "3D"},
        lambda: None,
        ["Acomodar 3♦: una escalera de diamantes", "por la punta baja"],
    ),
    (
        {"rules": "twelve-step", "mode": "hand", "contract": "2", "cards": "5S 5H 7C 8C KD QS"},
        lambda: None,
        ["Todavía no", "Contrato 2 (un trío de 3 y una escalera de 4): faltan 3 cartas"],
    ),
]


@pytest.mark.parametrize(("params", "ruling", "spanish"), RULINGS)
def test_a_ruling_and_its_reasons_read_spanish_and_no_english(
    client: FlaskClient, params: dict[str, str], ruling: object, spanish: list[str]
) -> None:
    shown = ruling_in_spanish(client, params)
    for words_ in spanish:
        assert words_ in shown, shown
    assert english_in(shown) == [], shown
    engine: Ruling | None = ruling()  # type: ignore[operator]
    if engine is not None:
        for reason in engine.reasons:
            # str(reason) is still the English sentence; the page shows it in Spanish.
            assert str(reason.message) not in shown
            assert reason.source.title == reason.source.title


def test_the_english_page_and_str_of_a_reason_stay_as_they_were(client: FlaskClient) -> None:
    page = client.get("/referee?rules=twelve-step&cards=5S+2C+JK+8S").get_data(as_text=True)
    assert '<html lang="en"' in page
    assert "Not a set because 5 and 8 differ" in page
    with client.application.test_request_context(headers=SPANISH):
        reason = check_meld("5S 2C JK 8S", "twelve-step").reasons[0]
        assert str(reason) == "Not a set because 5 and 8 differ (12-Step Rummy rules)"
        assert words(reason) == "No es un trío porque 5 y 8 son distintos (reglas de 12-Step Rummy)"
        assert str(reason) == "Not a set because 5 and 8 differ (12-Step Rummy rules)"


def test_the_card_notation_stays_as_typed_and_is_never_read_in_spanish(
    client: FlaskClient,
) -> None:
    # C is clubs (tréboles) in every language, never corazones.
    shown = ruling_in_spanish(client, {"rules": "twelve-step", "cards": "5C 6C 7C 8C"})
    assert "Una escalera de tréboles" in shown and "5♣" in shown
    typo = client.get("/referee?rules=twelve-step&cards=5S+1H", headers=SPANISH)
    assert typo.status_code == 422
    assert "&#39;1H&#39; no es una carta: 1 no es un valor (escribe A para un as)" in (
        typo.get_data(as_text=True)
    )
    overflow = client.get("/referee?rules=twelve-step&cards=7H+7H+7H", headers=SPANISH)
    assert (
        "Ninguna partida tiene eso: 3 × 7♥, pero 2 barajas tienen solo 2 (2 barajas y 4 jokers "
        "para 4 jugadores)." in unescape(overflow.get_data(as_text=True))
    )


def test_the_family_quote_stays_in_its_language_under_a_spanish_ruling(
    client: FlaskClient,
) -> None:
    page = client.get("/referee?rules=twelve-step&cards=JD+QD+KD+AD", headers=SPANISH)
    text = unescape(page.get_data(as_text=True))
    assert "“Aces may be counted as high or low in runs" in text
    assert "12-Step Rummy" in text


@pytest.mark.parametrize("slug", PRESETS)
def test_every_rules_page_reads_spanish(client: FlaskClient, slug: str) -> None:
    response = client.get(f"/rules/{slug}", headers=SPANISH)
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    ruleset = get_ruleset(slug)
    with client.application.test_request_context(headers=SPANISH):
        # The page speaks the game's own words (Carioca's escala), as the app does.
        languages.in_game(own_words(ruleset))
        assert words(ruleset.name) in unescape(page)
        for contract in ruleset.contracts:
            assert f"<td>{words(contract.summary)}</td>" in unescape(page)
    shown = shown_text(page, '<article class="rulebook"')
    assert english_in(shown) == [], shown
    # Phase 10's contracts are its phases (fases).
    contracts = "Fases" if ruleset.deck.wording.phases else "Contratos"
    for heading in (contracts, "Comodines", "Combinaciones", "Reglas especiales"):
        assert heading in shown


def test_the_rules_list_and_the_editor_read_spanish(client: FlaskClient) -> None:
    listing = shown_text(client.get("/rules/", headers=SPANISH).get_data(as_text=True), "<main")
    assert "Contract Rummy (7 manos)" in listing and "12 contratos · uno por ronda" in listing
    editor = client.get("/rules/new?base=bellevue", headers=SPANISH).get_data(as_text=True)
    shown = shown_text(editor, "<main")
    assert "Nuevas reglas de la casa" in shown
    assert "tres escaleras de 4, bajándose al cerrar" in shown
    assert english_in(shown) == [], shown


def test_the_spanish_editor_saved_unchanged_is_the_preset(app: Flask, client: FlaskClient) -> None:
    for slug in PRESETS:
        values = form_values(
            client.get(f"/rules/new?base={slug}", headers=SPANISH).get_data(as_text=True)
        )
        values["name"] = f"Copia de {slug}"
        response = client.post(f"/rules/new?base={slug}", data=values, headers=SPANISH)
        assert response.status_code == 303, response.get_data(as_text=True)
    with app.app_context():
        for slug in PRESETS:
            saved = house_rules.load(house_rules.slug_for(f"Copia de {slug}")).to_dict()
            preset = get_ruleset(slug).to_dict()
            for key in ("slug", "name"):
                saved.pop(key), preset.pop(key)
            assert saved == preset


def test_contracts_written_in_spanish_read_as_in_english(app: Flask) -> None:
    with app.test_request_context(headers=SPANISH):
        spanish, problems = read_contracts(
            "dos tríos de 3 y una escalera de 4\nun par de ases, un trío de 3\n"
            "Tres escaleras de 4, bajándose al cerrar"
        )
        bad, refused = read_contracts("dos tríos de 3\ntres manchas de 4")
    english, _ = read_contracts(
        "two sets of 3 and a run of 4\na pair of aces, a set of 3\n"
        "three runs of 4, laid down while going out"
    )
    assert problems == [] and spanish == english
    assert refused == [
        "Línea 2: «tres manchas de 4» no es una combinación (escríbela como «un trío de 3», "
        "«dos escaleras de 4» o «un par de ases»)."
    ]
    assert bad == [{"melds": [{"kind": "set", "size": 3}] * 2, "going_out_only": False}]


def test_bad_house_rules_are_refused_in_spanish_at_their_fields(client: FlaskClient) -> None:
    values = form_values(
        client.get("/rules/new?base=bellevue", headers=SPANISH).get_data(as_text=True)
    )
    values["name"] = "Reglas del tío"
    values["packs-decks"] = "0"
    response = client.post("/rules/new?base=bellevue", data=values, headers=SPANISH)
    page = unescape(response.get_data(as_text=True))
    assert response.status_code == 422
    error = page[page.index('id="packs-decks-error"') :]
    assert "0 no está entre 1 y 20" in error[: error.index("</div>")]
    values["packs-decks"] = "2"
    values["name"] = "Russian Rummy"
    taken = unescape(
        client.post("/rules/new?base=bellevue", data=values, headers=SPANISH).get_data(as_text=True)
    )
    assert "Ya hay reglas que se llaman 'Russian Rummy': elige otro nombre." in taken


def test_a_stored_game_names_its_preset_in_the_page_language(app: Flask) -> None:
    with app.test_request_context(headers=SPANISH):
        assert rules_name(str(get_ruleset("contract-rummy").name)) == "Contract Rummy (7 manos)"
        assert rules_name("Grandma's rules") == "Grandma's rules"
        assert rules_name("12-Step Rummy") == "12-Step Rummy"
    with app.test_request_context():
        assert rules_name(str(get_ruleset("contract-rummy").name)) == "Contract Rummy (7 deals)"
    assert words(parse_cards("5S")[0].rank.plural) == "5s"  # type: ignore[union-attr]
