"""Issue 51 item 3, Phase 10 at the table: the board, the TV, each phone's own page, the round
form and the result card say each player's phase in the game's own words ("phase 2", "fase 2")
and who moves on after a round (a player who made their phase is on the next, one who did not
stays), rank by phases made, then by the lower total, in English and Spanish; another game keeps
its words."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import house_rules, scope

from ..conftest import family_id
from ..helpers import save_round, start_game
from .test_drafts import table_phone
from .test_pages import text
from .test_phase_10_pad import PHASE_10_HOUSE, RULES, THREE, phase_10_game

ES = {"Accept-Language": "es"}


def said(answer: object) -> str:
    """What a page shows: its words without its markup and its script's words."""
    return re.sub(r"<[^>]+>", " ", re.sub(r"<script.*?</script>", "", text(answer), flags=re.S))


def _first_round(app: Flask, client: FlaskClient, rules: str) -> int:
    """A Phase 10 game after its first round: Ann went out, Ben made phase 1 too, Cy did not."""
    game_id = phase_10_game(app, client, rules)
    save_round(client, game_id, "Ann", {"Ben": "7 7 9", "Cy": "W 12 12"}, {"Ben"})
    return game_id


@pytest.mark.parametrize("rules", RULES)
def test_the_board_and_the_tv_say_each_players_phase_and_who_moves_on(
    app: Flask, client: FlaskClient, rules: str
) -> None:
    game_id = _first_round(app, client, rules)
    board = text(client.get(f"/games/{game_id}"))
    assert "moved on to phase 2: a set of 3 and a run of 4" in board
    assert "still on phase 1: two sets of 3" in board
    assert "1 of 10 phases made" in board and "0 of 10 phases made" in board
    assert "Ranked by phases made (most first), then by points (fewest first)." in board
    assert "made phase 1" in board and "played phase 1" in board
    assert "contract 1" not in board and "made the contract" not in board
    assert "Phase race" in board and "Contract race" not in board
    spanish = text(client.get(f"/games/{game_id}", headers=ES))
    assert "pasó a la fase 2" in spanish and "sigue en la fase 1" in spanish
    assert "Ordenados por fases cumplidas" in spanish and "1 de 10 fases cumplidas" in spanish
    standings = spanish.split('<table class="standings">')[1].split("</table>")[0]
    assert "fase 1" in standings and "contrato" not in standings
    assert "Carrera de fases" in spanish and "Carrera de contratos" not in spanish
    tv = said(client.get(f"/games/{game_id}/tv"))
    assert "moved on to phase 2" in tv and "Ranked by phases made" in tv
    assert "phase 1" in tv and "contract" not in tv
    tv_es = said(client.get(f"/games/{game_id}/tv", headers=ES))
    assert "pasó a la fase 2" in tv_es and "fase 1" in tv_es and "contrato" not in tv_es
    # The round form names each hand's phase.
    form = text(client.get(f"/games/{game_id}/rounds/new"))
    assert "phase 2: a set of 3 and a run of 4" in form and "phase 1: two sets of 3" in form
    assert "contract 1" not in form
    # Another game keeps its words.
    other = start_game(client, "twelve-step", THREE)
    save_round(client, other, "Ann", {"Ben": "5", "Cy": "K"}, {"Ben"})
    standard = text(client.get(f"/games/{other}"))
    assert "Ranked by contracts made" in standard and "phase" not in standard


@pytest.mark.parametrize("rules", RULES)
def test_each_phone_says_its_players_phase(app: Flask, client: FlaskClient, rules: str) -> None:
    game_id = _first_round(app, client, rules)
    ann, cy = table_phone(app, game_id, seat=0), table_phone(app, game_id, seat=2)
    mine = text(ann.get(f"/games/{game_id}/hand"))
    assert "You moved on to phase 2: a set of 3 and a run of 4" in mine
    assert "Round 2 · Ben deals." in mine or "Round 2 · " in mine
    theirs = said(cy.get(f"/games/{game_id}/hand"))
    assert "your phase 1: two sets of 3" in theirs and "contract 1" not in theirs
    assert "Pasaste a la fase 2" in text(ann.get(f"/games/{game_id}/hand", headers=ES))
    assert "tu fase 1" in text(cy.get(f"/games/{game_id}/hand", headers=ES))
    # Once someone went out, the phone asks about the player's phase.
    assert ann.post(f"/games/{game_id}/hand", data={"number": "2", "went_out": "1"}).status_code
    asked = cy.get(f"/games/{game_id}/hand")
    assert "did you make phase 1?" in text(asked) and "contract" not in said(asked)
    # The scorer's close page asks the same of each hand still out.
    close = client.get(f"/games/{game_id}/close")
    assert close.status_code == 200 and "Made the phase" in said(close)
    assert "Made the contract" not in said(close)
    # What the phone's script says of a hand kept without signal, too.
    assert "phase made" in text(asked) and "contract made" not in text(asked)


@pytest.mark.parametrize("rules", RULES)
def test_the_result_card_counts_phases(app: Flask, client: FlaskClient, rules: str) -> None:
    game_id = _first_round(app, client, rules)
    result = text(client.get(f"/games/{game_id}/result"))
    assert "ranked by phases made" in result
    assert "Ann 1 of 10 phases" in result and "contracts" not in result
    assert "por fases cumplidas" in text(client.get(f"/games/{game_id}/result", headers=ES))


def test_with_one_phase_a_hand_everyone_is_on_the_rounds_phase(
    app: Flask, client: FlaskClient
) -> None:
    # fdx's first variation: ten hands, everyone on phase N in hand N, the lowest total wins.
    every_hand = PHASE_10_HOUSE | {
        "contract_order": "round",
        "winner": "lowest total",
        "tie_break": "share",
    }
    with app.test_request_context(), scope.household(family_id(app)):
        slug = house_rules.save("Phase 10, one a hand", every_hand).slug
    game_id = start_game(client, slug, THREE)
    save_round(client, game_id, "Ann", {"Ben": "7 7 9", "Cy": "W 12 12"}, {"Ben"})
    board = said(client.get(f"/games/{game_id}"))
    assert "Phase 2: a set of 3 and a run of 4." in board
    assert board.count("on phase 2: a set of 3 and a run of 4") == 3
    assert "moved on" not in board and "still on" not in board and "moves on" not in board
    assert "Contract 2" not in board and "✓ made the phase" in board
    assert "Fase 2: un" in said(client.get(f"/games/{game_id}", headers=ES))
    cy = table_phone(app, game_id, seat=2)
    assert "your phase 2: a set of 3 and a run of 4" in said(cy.get(f"/games/{game_id}/hand"))
