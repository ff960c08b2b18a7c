"""Issue 50 item 4: what people read follows the points. The change log and the phones'
last-round line say the down-and-out bonus a round scored ("Ana went down and out in one turn
(-10)"), not only "Ana went out" beside the others' points; a correction that gives or takes
the bonus says so in words."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient

from ..helpers import players_of, round_form, save_round, start_game
from .test_drafts import table_phone
from .test_pages import text

FOUR = ("Ana", "Beto", "Cy", "Dee")
ONE_TURN = {"went_out_in_one_turn": "y"}


def _read(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_the_change_log_and_the_phones_say_the_bonus(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, "continental", FOUR)
    save_round(client, game_id, "Beto", {"Ana": "K", "Cy": "5", "Dee": "9"}, extra=ONE_TURN)
    board = _read(text(client.get(f"/games/{game_id}")))
    assert "Round 1 saved: Beto went down and out in one turn (-10); Ana 10" in board, board
    phone = table_phone(app, game_id, 0)
    page = _read(text(phone.get(f"/games/{game_id}/hand")))
    assert "Round 1: Beto went down and out in one turn (-10); Ana 10" in page, page


def test_a_correction_that_gives_or_takes_the_bonus_says_so(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "continental", FOUR)
    save_round(client, game_id, "Beto", {"Ana": "K", "Cy": "5", "Dee": "9"})
    form = round_form(players_of(client, game_id), "Beto", {"Ana": "K", "Cy": "5", "Dee": "9"})
    answer = client.post(
        f"/games/{game_id}/rounds/1/edit", data={**form, **ONE_TURN, "save": "Save"}
    )
    assert answer.status_code == 302, text(answer)
    board = _read(text(client.get(f"/games/{game_id}")))
    assert "Round 1 corrected: Beto went down and out in one turn (-10)." in board, board
    answer = client.post(f"/games/{game_id}/rounds/1/edit", data={**form, "save": "Save"})
    assert answer.status_code == 302, text(answer)
    board = _read(text(client.get(f"/games/{game_id}")))
    assert "Round 1 corrected: Beto did not go down and out in one turn." in board, board
