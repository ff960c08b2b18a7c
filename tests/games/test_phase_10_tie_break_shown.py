"""Issue 51, Phase 10's tie-break hand at the table (phase-10.md): while it is owed, the board,
the TV, the result page and card and each phone's own hand say who is tied, on what, and that
the next hand is theirs alone; once played, it is a round of its own whose points count in no
total, and the winner's line says how the game was decided, as a family says it, in English
and Spanish. Boards of a game played on fewer phases (``phases_played``) count those phases."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.games.tally import HandEntry, RoundEntry, tally_game
from scorekeeper.rules import get_ruleset

from ..helpers import save_round, start_game
from .test_phase_10_options import THREE, _house_rules

ES = {"Accept-Language": "es"}


def _plain(page: str) -> str:
    """A page's words, tags out, spaces as one."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)).replace("&#39;", "'").strip()


def _get(client: FlaskClient, path: str, spanish: bool = False) -> str:
    answer = client.get(path, headers=ES if spanish else {})
    assert answer.status_code == 200, path
    return _plain(answer.get_data(as_text=True))


def _tied_game(app: Flask, client: FlaskClient) -> int:
    """Ann, Ben and Cy on phases 9 and 10: Ann and Ben both make phase 10 in round 2, each
    on 5 points, so round 3 is the tie-break hand of Ann and Ben alone."""
    game_id = start_game(client, _house_rules(app, "Two phases", {"phases_played": [9, 10]}), THREE)
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "10"}, {"Ben"})
    save_round(client, game_id, "Ben", {"Ann": "5", "Cy": "10"}, {"Ann"})
    return game_id


# The sentences of each way a Phase 10 tie is decided, as the tally says them (English).
RULES = {"base": "phase-10", "phases_played": [9, 10]}


def _hands(*cards: tuple[str, bool]) -> tuple[HandEntry, ...]:
    return tuple(HandEntry(text, made) for text, made in cards)


def test_two_on_phase_10_decided_by_the_lower_total() -> None:
    rules = get_ruleset(RULES)
    first = RoundEntry(0, _hands(("", True), ("5", True), ("10", False)))
    second = RoundEntry(1, _hands(("10", True), ("", True), ("10", False)))
    tally = tally_game(rules, THREE, 0, [first, second])
    assert tally.winners == (1,) and not tally.tie_break_owed
    assert str(tally.tie_break) == (
        "Ann and Ben both made phase 10 in round 2; Ben wins with fewer points: 5 to Ann's 10."
    )


def test_most_phases_then_the_lower_total() -> None:
    rules = get_ruleset({"base": "phase-10", "hands": 2, "winner": "most contracts"})
    first = RoundEntry(0, _hands(("", True), ("5", False), ("W W", True)))
    second = RoundEntry(1, _hands(("W", True), ("", False), ("5", True)))
    tally = tally_game(rules, THREE, 0, [first, second])
    # Ann and Cy made 2 phases each, Ann with 25 points, Cy with 55.
    assert tally.winners == (0,)
    assert (
        str(tally.tie_break)
        == "Ann and Cy each made 2 phases; Ann wins with fewer points: 25 to Cy's 55."
    )


def test_the_tie_break_hand_decides_a_tie_on_phase_10_and_on_points() -> None:
    rules = get_ruleset(RULES)
    first = RoundEntry(0, _hands(("", True), ("5", True), ("10", False)))
    second = RoundEntry(1, _hands(("5", True), ("", True), ("10", False)))
    owed = tally_game(rules, THREE, 0, [first, second])
    assert owed.tie_break_owed == (0, 1)
    assert str(owed.tie_break_next) == (
        "Ann and Ben are tied on phase 10 and on 5 points. The next hand is the tie-break "
        "hand, with only Ann and Ben, on phase 10: the first to go out wins, and its points "
        "count in no total."
    )
    hand = RoundEntry(0, _hands(("", False), ("W 7", False), ("", False)), tie_break_hand=True)
    settled = tally_game(rules, THREE, 0, [first, second, hand])
    assert settled.winners == (0,) and settled.tie_break_next is None
    assert str(settled.tie_break) == (
        "Tied on phase 10 and on 5 points; Ann went out first in the tie-break hand."
    )
    assert str(settled.tie_break_played) == (
        "Tie-break hand (round 3): Ann 0 points and Ben 30 points, added to no total."
    )
    # Phases made, then the lower total, then the tie-break hand's order.
    assert [(s.name, s.place, s.total) for s in settled.standings] == [
        ("Ann", 1, 5),
        ("Ben", 2, 5),
        ("Cy", 3, 20),
    ]


def test_most_phases_and_points_level_go_to_the_tie_break_hand() -> None:
    rules = get_ruleset({"base": "phase-10", "hands": 1, "winner": "most contracts"})
    first = RoundEntry(0, _hands(("", True), ("", True), ("10", False)))
    owed = tally_game(rules, THREE, 0, [first])
    assert str(owed.tie_break_next).startswith(
        "Ann and Ben are tied on 1 phase made and on 0 points. The next hand"
    )
    hand = RoundEntry(1, _hands(("5", False), ("", False), ("", False)), tie_break_hand=True)
    settled = tally_game(rules, THREE, 0, [first, hand])
    assert str(settled.tie_break) == (
        "Tied on 1 phase made and on 0 points; Ben went out first in the tie-break hand."
    )


def test_the_board_while_the_tie_break_hand_is_owed(app: Flask, client: FlaskClient) -> None:
    game_id = _tied_game(app, client)
    board = _get(client, f"/games/{game_id}")
    assert (
        "Ann and Ben are tied on phase 10 and on 5 points. The next hand is the tie-break "
        "hand, with only Ann and Ben, on phase 10" in board
    )
    assert "Ann deals the tie-break hand (round 3): 10 cards each." in board
    # Who went out is offered of the tied players alone.
    assert "Ann went out Ben went out My hand" in board
    assert "Cy went out" not in board
    assert "Ann plays the tie-break hand on phase 10 2 of 2 phases made" in board
    assert "Cy sits out the tie-break hand 0 of 2 phases made" in board
    tv = _get(client, f"/games/{game_id}/tv")
    assert "Tie-break hand: Ann deals 10 cards" in tv
    assert "Ann and Ben are tied on phase 10 and on 5 points." in tv
    result = _get(client, f"/games/{game_id}/result")
    assert "Tie-break hand next" in result
    assert "The next hand is the tie-break hand, with only Ann and Ben" in result
    spanish = _get(client, f"/games/{game_id}", spanish=True)
    assert (
        "Ann y Ben están empatados en la fase 10 y con 5 puntos. La siguiente mano es la de "
        "desempate, solo con Ann y Ben, en la fase 10: gana el primero que cierre" in spanish
    )
    assert "Ann reparte la mano de desempate (ronda 3): 10 cartas a cada uno." in spanish
    assert "Cy no juega la mano de desempate" in spanish


def test_the_board_once_the_tie_break_hand_is_played(app: Flask, client: FlaskClient) -> None:
    game_id = _tied_game(app, client)
    save_round(client, game_id, "Ben", {"Ann": "W W"})
    board = _get(client, f"/games/{game_id}")
    assert (
        "Ben wins Tied on phase 10 and on 5 points; Ben went out first in the tie-break hand. "
        "Tie-break hand (round 3): Ben 0 points and Ann 50 points, added to no total." in board
    )
    # Its own row, its points shown and added to no total.
    assert "3 tie-break hand: not added 50" in board
    assert "Total 5 5 20" in board
    assert "1 Ben winner made every phase 2 of 2 phases made" in board
    assert "2 Ann made every phase 2 of 2 phases made" in board
    assert "Cy phase 9 not made yet" in board
    for path in ("/tv", "/result"):
        page = _get(client, f"/games/{game_id}{path}")
        assert "Tied on phase 10 and on 5 points; Ben went out first in the tie-break hand." in page
        assert (
            "Tie-break hand (round 3): Ben 0 points and Ann 50 points, added to no total." in page
        )
    spanish = _get(client, f"/games/{game_id}", spanish=True)
    assert (
        "Empatados en la fase 10 y con 5 puntos; Ben cerró primero en la mano de desempate. "
        "Mano de desempate (ronda 3): Ben 0 puntos y Ann 50 puntos, sin sumarse a ningún total."
        in spanish
    )
    assert "3 mano de desempate: no se suma 50" in spanish
    card = client.get(f"/games/{game_id}/card.png")
    assert card.status_code == 200 and card.mimetype == "image/png"


@pytest.mark.parametrize("spanish", [False, True])
def test_a_phone_own_hand_while_the_tie_break_hand_is_owed(
    app: Flask, client: FlaskClient, spanish: bool
) -> None:
    game_id = _tied_game(app, client)
    assert client.post(f"/games/{game_id}/seat", data={"seat": "0"}).status_code == 303
    page = _get(client, f"/games/{game_id}/hand", spanish=spanish)
    if spanish:
        assert "Ann y Ben están empatados en la fase 10 y con 5 puntos." in page
        assert "Mano de desempate (ronda 3) · reparte Ann · tu fase 10" in page
    else:
        assert "Ann and Ben are tied on phase 10 and on 5 points." in page
        assert "Tie-break hand (round 3) · Ann deals · your phase 10" in page
    # Cy sits it out.
    assert client.post(f"/games/{game_id}/seat", data={"seat": "2"}).status_code == 303
    page = _get(client, f"/games/{game_id}/hand", spanish=spanish)
    if spanish:
        assert "No juegas la mano de desempate" in page
    else:
        assert "You sit out the tie-break hand: only the tied players play it." in page


def test_the_round_form_of_the_tie_break_hand_says_so(app: Flask, client: FlaskClient) -> None:
    game_id = _tied_game(app, client)
    form = _get(client, f"/games/{game_id}/rounds/new")
    assert "Ann and Ben are tied on phase 10 and on 5 points. The next hand is the" in form
    save_round(client, game_id, "Ben", {"Ann": "W W"})
    correction = _get(client, f"/games/{game_id}/rounds/3/edit", spanish=True)
    assert (
        "La ronda 3 es la mano de desempate: sus puntos no se suman a ningún total." in correction
    )
    assert "es la mano de desempate" not in _get(
        client, f"/games/{game_id}/rounds/2/edit", spanish=True
    )
