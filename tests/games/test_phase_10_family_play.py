"""Issue 51, a Phase 10 game played as a family plays it: what tripped the table up.

A player who made their phase and then left is on the next phase (the board said 'moved on to
phase 1' and the comeback page 'goes back to contract 1', where the player comes back on phase
2), in English and Spanish; and a game that keeps each player's contract on standard cards
says the same of its contracts."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from ..helpers import game_document, round_form, save_round, start_game
from .test_comings_read_back import upload
from .test_drafts import table_phone

ES = {"Accept-Language": "es"}


def _line_of(board: str, name: str) -> str:
    """The standings' words under ``name`` (their phase, their comings), tags left out."""
    row = re.search(rf'<span class="player-name">{name}</span>(.*?)</td>', board, flags=re.DOTALL)
    assert row, board
    return " ".join(re.sub(r"<[^>]+>", " ", row.group(1)).split())


def _legend_of(form: str, name: str) -> str:
    """What the round form says under ``name``'s hand: their phase, or that they made them all."""
    found = re.search(
        rf'<span class="hand-name">{name}</span> <span class="small muted">([^<]*)</span>', form
    )
    assert found, form
    return found.group(1)


def _leaves(client: FlaskClient, game_id: int, seat: int) -> None:
    answer = client.post(f"/games/{game_id}/leave", data={"seat": str(seat), "sure": "yes"})
    assert answer.status_code == 302, answer.get_data(as_text=True)


@pytest.mark.parametrize(
    ("headers", "moved_on", "on_it", "goes_back"),
    [
        (
            {},
            "moved on to phase 2: a set of 3 and a run of 4",
            "on phase 2: a set of 3 and a run of 4",
            "Cy goes back to phase 2, the one they were working on.",
        ),
        (
            ES,
            "pasó a la fase 2: un grupo de 3 y una escalera de 4",
            "fase 2: un grupo de 3 y una escalera de 4",
            "Cy retoma la fase 2, la que estaba jugando.",
        ),
    ],
)
def test_a_player_who_made_their_phase_and_left_is_on_the_next_phase(
    client: FlaskClient, headers: dict[str, str], moved_on: str, on_it: str, goes_back: str
) -> None:
    game_id = start_game(client, "phase-10", ["Ann", "Ben", "Cy"])
    # Round 1: Cy makes phase 1 and holds a 5; Ben makes nothing.
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "5"}, made={"Cy"})
    _leaves(client, game_id, 2)
    board = client.get(f"/games/{game_id}", headers=headers).get_data(as_text=True)
    assert moved_on in _line_of(board, "Cy")
    save_round(client, game_id, "Ben", {"Ann": "9"})
    board = client.get(f"/games/{game_id}", headers=headers).get_data(as_text=True)
    line = _line_of(board, "Cy")
    assert on_it in line and "phase 1" not in line and "fase 1" not in line, line
    asked = client.get(f"/games/{game_id}/comeback?seat=2", headers=headers)
    assert goes_back in asked.get_data(as_text=True)
    # The game file agrees: Cy works on phase 2 next.
    standings = client.get(f"/games/{game_id}/export").get_json()["standings"]
    assert {s["player"]: s["contract"] for s in standings}["Cy"] == 2
    client.post(f"/games/{game_id}/comeback", data={"seat": "2", "points": "kept", "sure": "yes"})
    board = client.get(f"/games/{game_id}", headers=headers).get_data(as_text=True)
    assert on_it in _line_of(board, "Cy")


def test_a_player_who_made_their_contract_and_left_goes_back_to_the_next(
    client: FlaskClient,
) -> None:
    game_id = start_game(client, "twelve-step", ["Ann", "Ben", "Cy"])
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "5"}, made={"Cy"})
    _leaves(client, game_id, 2)
    save_round(client, game_id, "Ben", {"Ann": "9"})
    asked = client.get(f"/games/{game_id}/comeback?seat=2").get_data(as_text=True)
    assert "Cy goes back to contract 2, the one they were working on." in asked


@pytest.mark.parametrize(
    ("headers", "setup_six", "setup_one", "shuffle"),
    [
        (
            {},
            "Phase 10 (10 phases) for 6 players: 1 deck, 10 cards each in the first deal.",
            "Phase 10 (10 phases): 1 deck, 10 cards each in the first deal.",
            "Shuffle <strong>1 deck</strong> (108 cards).",
        ),
        (
            ES,
            "Phase 10 (10 fases) para 6 jugadores: 1 baraja, 10 cartas a cada uno en el primer "
            "reparto.",
            "Phase 10 (10 fases): 1 baraja, 10 cartas a cada uno en el primer reparto.",
            "Mezcla <strong>1 baraja</strong> (108 cartas).",
        ),
    ],
)
def test_a_phase_10_deck_is_shuffled_without_jokers(
    client: FlaskClient, headers: dict[str, str], setup_six: str, setup_one: str, shuffle: str
) -> None:
    """The new-game form and the board before the first deal said '1 deck and 0 jokers' of a
    Phase 10 deck, which has none: its Wilds and Skips are among its 108 cards."""
    form = {"rules": "phase-10", "refresh": "1"}
    page = client.post("/games/new", data=form, headers=headers).get_data(as_text=True)
    kept = page.split('<template id="setup-lines">', 1)[1].split("</template>", 1)[0]
    lines = dict(re.findall(r'data-count="(\d+)">([^<]*)<', kept))
    assert lines["6"] == setup_six and lines["1"] == setup_one, lines
    assert "joker" not in page.split('id="setup-preview"', 1)[1].split("</p>", 1)[0]
    game_id = start_game(client, "phase-10", ["Ann", "Ben", "Cy"])
    board = client.get(f"/games/{game_id}", headers=headers).get_data(as_text=True)
    assert shuffle in board and "joker" not in board, board


@pytest.mark.parametrize(
    ("headers", "every", "wrong", "mine"),
    [
        ({}, "made every phase", "on phase 10", "You have made every phase."),
        (ES, "cumplió todas las fases", "fase 10", "Cumpliste todas las fases."),
    ],
)
def test_a_game_of_so_many_hands_goes_on_after_a_player_made_every_phase(
    app: Flask,
    client: FlaskClient,
    headers: dict[str, str],
    every: str,
    wrong: str,
    mine: str,
) -> None:
    """With hands (a house's ten hands), a player who made every phase plays on to the last
    hand: the board said 'moved on to phase 10' of her, then 'still on phase 10', the TV the
    same, and her phone 'You moved on to phase 10'."""
    rules = {"base": "phase-10", "phases_played": [9, 10], "hands": 4, "winner": "most contracts"}
    # Ann makes phase 9 and then phase 10: both phases played, two hands still to play.
    rounds = [("Ann", {"Ben": "5", "Cy": "5"}, set()), ("Ann", {"Ben": "5", "Cy": "5"}, set())]
    game_id = upload(client, game_document(rules, ["Ann", "Ben", "Cy"], rounds))
    board = client.get(f"/games/{game_id}", headers=headers).get_data(as_text=True)
    line = _line_of(board, "Ann")
    assert every in line and wrong not in line, line
    tv = client.get(f"/games/{game_id}/tv", headers=headers).get_data(as_text=True)
    ann_on_tv = tv.split('class="tv-name">Ann', 1)[1].split("</li>", 1)[0]
    assert every in ann_on_tv and wrong not in ann_on_tv, ann_on_tv
    phone = table_phone(app, game_id, seat=0)
    hand = phone.get(f"/games/{game_id}/hand", headers=headers).get_data(as_text=True)
    assert mine in hand and wrong not in hand.split('class="deal', 1)[1].split("</p>", 1)[0]
    # The round form names no phase left for her; Ben's is phase 9.
    form = client.get(f"/games/{game_id}/rounds/new", headers=headers).get_data(as_text=True)
    assert _legend_of(form, "Ann") == every and "9" in _legend_of(form, "Ben")
    # Round 3: Ben goes out, Ann holds a 5 and made nothing more; she is still done.
    save_round(client, game_id, "Ben", {"Ann": "5", "Cy": "5"})
    line = _line_of(client.get(f"/games/{game_id}", headers=headers).get_data(as_text=True), "Ann")
    assert every in line and wrong not in line, line
    fixing = client.get(f"/games/{game_id}/rounds/3/edit", headers=headers).get_data(as_text=True)
    assert _legend_of(fixing, "Ann") == every
    # Round 2, when she made phase 10, names it.
    fixing = client.get(f"/games/{game_id}/rounds/2/edit", headers=headers).get_data(as_text=True)
    assert "10" in _legend_of(fixing, "Ann")


@pytest.mark.parametrize(
    ("headers", "said"),
    [
        (
            {},
            "Round 1: more cards are entered across the table than the game's packs (1 deck) "
            "hold: 9 Wilds, but 1 deck holds only 8.",
        ),
        (
            ES,
            "Ronda 1: en la mesa hay más cartas anotadas de las que tienen las barajas de la "
            "partida (1 baraja): 9 comodines, pero 1 baraja tiene solo 8.",
        ),
    ],
)
def test_too_many_wilds_are_refused_in_the_deck_s_words(
    client: FlaskClient, headers: dict[str, str], said: str
) -> None:
    """Nine Wilds across the table were refused with '(1 deck and 0 jokers)' and '9 × Wild', in
    Spanish too."""
    players = ["Ann", "Ben", "Cy"]
    game_id = start_game(client, "phase-10", players)
    form = round_form(players, "Ann", {"Ben": "W W W W W", "Cy": "W W W W"})
    refused = client.post(
        f"/games/{game_id}/rounds/new", data={**form, "save": "1"}, headers=headers
    )
    assert refused.status_code == 422
    assert said in refused.get_data(as_text=True).replace("&#39;", "'")


def test_the_phase_race_ends_at_the_phases_played(client: FlaskClient) -> None:
    """The even phases only: the phase race's finish line stood at 10 phases, over the line of
    a player who made all 5 played."""
    rules = {"base": "phase-10", "phases_played": "even"}
    rounds = [("Ann", {"Ben": "5"}, set())] * 5
    game_id = upload(client, game_document(rules, ["Ann", "Ben"], rounds))
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    race = board.split(f'id="chart-{game_id}-race', 1)[1].split("</figure>", 1)[0]
    goal = re.search(r'class="chart-goal".*?y1="([\d.]+)"', race, flags=re.DOTALL)
    assert goal, race
    # Ann's last dot, at 5 phases made, is on the finish line.
    highest = min(float(y) for y in re.findall(r'<circle cx="[\d.]+" cy="([\d.]+)"', race))
    assert float(goal.group(1)) == highest, race


@pytest.mark.parametrize(
    ("headers", "said"),
    [
        ({}, "Phase 10 (10 phases) is for at most 6 players; this game has 7."),
        (ES, "Phase 10 (10 fases) es para 6 jugadores como máximo; esta partida tiene 7."),
    ],
)
def test_the_new_game_form_says_a_seventh_player_is_one_too_many(
    client: FlaskClient, headers: dict[str, str], said: str
) -> None:
    """A seventh name typed on the new-game form read 'Phase 10 (10 phases) for 7 players: 2
    decks, 10 cards each in the first deal.', and Start then refused the game: the line says
    what Start says."""
    form = {"rules": "phase-10", "refresh": "1"}
    page = client.post("/games/new", data=form, headers=headers).get_data(as_text=True)
    kept = page.split('<template id="setup-lines">', 1)[1].split("</template>", 1)[0]
    lines = dict(re.findall(r'data-count="(\d+)">([^<]*)<', kept))
    assert lines["7"] == said, lines
    assert "6" in lines["6"] and "at most" not in lines["6"] and "máximo" not in lines["6"]
    names = {f"players-{seat}": name for seat, name in enumerate("ABCDEFG")}
    refused = client.post(
        "/games/new", data={"rules": "phase-10", "start": "1", **names}, headers=headers
    )
    assert said in refused.get_data(as_text=True)
