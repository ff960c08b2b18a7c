"""Issue 50 item 1: the two ways a player's down-and-out bonus was lost, through the pages as
the board and the phones post. Undo, then "Put round 2 back", brought Ana's −10★ back as 0★;
a hand put in late from Beto's phone, after the scorer closed the round over his typing, wiped
Ana's bonus and logged it as Beto's correction."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from ..helpers import save_round, start_game
from .test_drafts import hand_post, table_phone
from .test_pages import text

FOUR = ("Ana", "Beto", "Cy", "Dee")
ONE_TURN = {"went_out_in_one_turn": "y"}


def _exported(client: FlaskClient, game_id: int) -> dict[str, Any]:
    document: dict[str, Any] = client.get(f"/games/{game_id}/export").get_json()
    return document


def test_undo_then_put_back_brings_the_down_and_out_bonus_back(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "continental", FOUR)
    save_round(client, game_id, "Beto", {"Ana": "K", "Cy": "5", "Dee": "9"})
    save_round(client, game_id, "Ana", {"Beto": "K 5", "Cy": "JK", "Dee": "Q"}, extra=ONE_TURN)
    before = _exported(client, game_id)
    assert before["rounds"][1]["went_out_in_one_turn"] is True
    assert before["rounds"][1]["players"]["Ana"]["points"] == -10
    assert client.post(f"/games/{game_id}/rounds/2/undo").status_code == 302
    assert "Put round 2 back" in text(client.get(f"/games/{game_id}"))
    answer = client.post(f"/games/{game_id}/rounds/2/put-back", follow_redirects=True)
    assert "Round 2 put back." in text(answer)
    after = _exported(client, game_id)
    assert after["rounds"] == before["rounds"]
    assert after["standings"] == before["standings"]
    assert after["rounds"][1]["players"]["Ana"]["points"] == -10


def test_a_hand_put_in_late_leaves_another_players_bonus_as_it_was(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "continental", FOUR)
    phones = [table_phone(app, game_id, seat) for seat in range(4)]
    # Ana taps "I went down and out in one turn"; Cy and Dee are in; Beto is still typing.
    hand_post(phones[0], game_id, 0, went_out="one-turn")
    hand_post(phones[2], game_id, 2, cards="5", done="not")
    hand_post(phones[3], game_id, 3, cards="9", done="not")
    hand_post(phones[1], game_id, 1, cards="K Q", preview="cards")
    answer = client.post(f"/games/{game_id}/close", data={"number": "1", "close": "over"})
    assert answer.status_code == 303, text(answer)
    closed = _exported(client, game_id)["rounds"][0]
    assert closed["went_out_in_one_turn"] is True
    assert closed["players"]["Ana"]["points"] == -10
    # Beto's phone offers what it had typed, and Beto taps it.
    answer = phones[1].post(
        f"/games/{game_id}/hand/put-in",
        data={"number": "1", "cards": "K Q 5", "was": "K Q", "done": "not"},
    )
    assert answer.status_code == 303
    assert "Round 1 corrected: your hand is K Q 5." in text(phones[1].get(f"/games/{game_id}/hand"))
    played = _exported(client, game_id)["rounds"][0]
    assert played["players"]["Beto"]["cards"] == "K Q 5"
    assert played["went_out_in_one_turn"] is True
    assert played["players"]["Ana"]["points"] == -10
    assert {name: hand for name, hand in played["players"].items() if name != "Beto"} == {
        name: hand for name, hand in closed["players"].items() if name != "Beto"
    }
