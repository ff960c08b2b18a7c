"""Issue 52, item 2: what was stored or built in English is stored as a code, or built from
the page's language, and written in the reader's: who did something (a table link, the
command line), the rounds CSV's status and rules, an option a ruling names, the zones a
household chooses from, the language a flash names, the published games' source notes."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, update

from scorekeeper import actors, scope
from scorekeeper.extensions import db
from scorekeeper.models import GameEvent, Household
from scorekeeper.rules import N_, get_ruleset
from scorekeeper.rules.options import option_label
from scorekeeper.rules.referee import _reading
from scorekeeper.rules.sources import PUBLICATIONS
from scorekeeper.words import words

from .conftest import family_id
from .games.test_drafts import table_phone
from .helpers import save_round, start_game

SPANISH = {"Accept-Language": "es-MX"}


@pytest.mark.parametrize(
    ("stored", "english", "spanish"),
    [
        (actors.COMMAND_LINE, "command line", "línea de órdenes"),
        (actors.link("table", "ana"), "table link made by ana", "enlace de mesa creado por ana"),
        (actors.link("watch", "ana"), "watch link made by ana", "enlace para mirar creado por ana"),
        (actors.seat("table", "Ben"), "Ben (table link)", "Ben (enlace de mesa)"),
        # Stored before the codes, in English: read all the same.
        ("command line", "command line", "línea de órdenes"),
        ("table link made by ana", "table link made by ana", "enlace de mesa creado por ana"),
        ("Ben (table link)", "Ben (table link)", "Ben (enlace de mesa)"),
        # A member, by their name as typed.
        ("ana", "ana", "ana"),
    ],
)
def test_who_did_it_is_written_in_the_reader_s_language(
    app: Flask, stored: str, english: str, spanish: str
) -> None:
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert actors.shown(stored) == english
    with app.test_request_context(headers=SPANISH):
        assert actors.shown(stored) == spanish


def test_a_seat_s_change_is_stored_as_a_code_and_read_in_spanish(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "twelve-step", ["Ann", "Ben", "Cy", "Dee"])
    ben = table_phone(app, game_id, seat=1)
    save_round(ben, game_id, "Ben", {"Ann": "5", "Cy": "5", "Dee": "5"})
    with app.app_context(), scope.household(family_id(app)):
        stored = set(db.session.scalars(select(GameEvent.actor)))
        db.session.remove()
    assert actors.seat("table", "Ben") in stored
    assert not any("link" in actor for actor in stored)
    board = client.get(f"/games/{game_id}", headers=SPANISH).get_data(as_text=True)
    assert "Ben (enlace de mesa)" in board and "table link" not in board


def test_the_rounds_csv_writes_status_and_rules_in_the_household_s_language(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben"])
    save_round(client, game_id, "Ann", {"Ben": "5"}, {"Ann"})
    with app.app_context():
        db.session.execute(update(Household).values(language="es"))
        db.session.commit()
        db.session.remove()
    rows = client.get("/history/rounds.csv").get_data(as_text=True).splitlines()
    assert "puesto" in rows[0].split(",")
    _game, _started, rules, status = rows[1].split(",")[:4]
    assert status == "En curso", rows[1]
    assert "Contract Rummy" in rules and "deals" not in rules and "manos" in rules


def test_a_ruling_names_an_option_in_the_referee_s_words(app: Flask) -> None:
    rules = get_ruleset("contract-rummy")
    for option in ("pair_all_real", "layoff_on_contract_turn"):
        reason = _reading(rules, option, N_("a sentence"))
        assert option not in str(reason), str(reason)
        assert str(option_label(option)) in str(reason)
        with app.test_request_context(headers=SPANISH):
            spanish = words(reason)
        assert option not in spanish and "opción «" in spanish, spanish


def test_the_household_s_zones_are_named_in_the_page_s_language(client: FlaskClient) -> None:
    page = client.get("/household", headers=SPANISH).get_data(as_text=True)
    options = dict(re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', page))
    assert options["Europe/Madrid"] == "España (Madrid)"
    assert options["America/Mexico_City"] == "México (Ciudad de México)"
    assert options["America/Santiago"].startswith("Chile (Santiago")
    for raw in ("Factory", "localtime", "US/Eastern", "EST"):
        assert raw not in options
    english = client.get("/household", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<option value="Europe/Madrid">Spain (Madrid)</option>' in english


def test_the_published_games_sources_hold_no_english_between_their_names() -> None:
    for full, short in PUBLICATIONS.values():
        for text in (full, short):
            assert not re.search(r"\b(and|text|from)\b", text), text


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_game_speaks_its_own_words_on_its_rules_page(client: FlaskClient) -> None:
    """Carioca's runs are escalas and Continental's May I is robar de contra in Spanish, as
    the game's data says; every other game keeps the glossary's escalera and «¿Puedo?»."""
    carioca = _text(client.get("/rules/carioca", headers=SPANISH).get_data(as_text=True))
    assert "escala" in carioca and not re.search(r"\bescaleras?\b", carioca)
    continental = _text(client.get("/rules/continental", headers=SPANISH).get_data(as_text=True))
    assert "robar de contra" in continental and "¿Puedo?" not in continental
    shanghai = _text(client.get("/rules/contract-rummy", headers=SPANISH).get_data(as_text=True))
    assert re.search(r"\bescaleras?\b", shanghai) and not re.search(r"\bescalas?\b", shanghai)
    english = _text(client.get("/rules/carioca").get_data(as_text=True))
    assert "run" in english and "escala" not in english


def test_a_game_speaks_its_own_words_on_its_board_and_phones(client: FlaskClient) -> None:
    game_id = start_game(client, "continental", ["Ann", "Ben", "Cy"])
    board = _text(client.get(f"/games/{game_id}", headers=SPANISH).get_data(as_text=True))
    assert "Robar de contra" in board and "¿Puedo?" not in board
    page = _text(client.get(f"/games/{game_id}/rounds/new", headers=SPANISH).get_data(as_text=True))
    assert "¿Puedo?" not in page
    carioca = start_game(client, "carioca", ["Ann", "Ben", "Cy"])
    board = _text(client.get(f"/games/{carioca}", headers=SPANISH).get_data(as_text=True))
    assert not re.search(r"\bescaleras?\b", board)
