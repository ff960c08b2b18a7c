"""Issue 43 item 1: an undo cannot run away. After "Undo round 2" the place it stood offers
"Put round 2 back" (as long as the undo was offered), never "Undo round 1"; the round comes
back as it was stored, every phone's own entry with it."""

from __future__ import annotations

import re
from datetime import timedelta

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.models import Game, utcnow

from ..conftest import family_id
from ..helpers import save_round, start_game
from .test_drafts import hand_post, table_phone
from .test_pages import rounds_stored, text

FOUR = ("Ann", "Ben", "Cy", "Dee")


def _rounds(client: FlaskClient, game_id: int) -> list[dict[str, object]]:
    rounds: list[dict[str, object]] = client.get(f"/games/{game_id}/export").get_json()["rounds"]
    return rounds


def _two_rounds(app: Flask, client: FlaskClient) -> int:
    """A game whose round 1 was saved on the round form and round 2 by the four phones, each
    entering its own hand (Dee's a joker)."""
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5", "Dee": "9"}, made={"Ben"})
    phones = [table_phone(app, game_id, seat) for seat in range(4)]
    hand_post(phones[1], game_id, 1, number="2", went_out="1")
    hand_post(phones[0], game_id, 0, number="2", cards="K Q", done="made")
    hand_post(phones[2], game_id, 2, number="2", cards="5 5", done="not")
    hand_post(phones[3], game_id, 3, number="2", cards="JK", done="not")
    assert rounds_stored(client, game_id) == 2
    return game_id


def test_after_an_undo_the_board_offers_the_round_back_never_the_undo_of_the_one_before(
    app: Flask, client: FlaskClient
) -> None:
    game_id = _two_rounds(app, client)
    before = _rounds(client, game_id)
    assert client.post(f"/games/{game_id}/rounds/2/undo").status_code == 302
    board = text(client.get(f"/games/{game_id}"))
    assert "Round 2 undone." in board
    assert "Put round 2 back" in board and "Undo round 1" not in board
    # An undo of round 1 sent all the same (a board drawn elsewhere) is refused: round 1 stays.
    answer = client.post(f"/games/{game_id}/rounds/1/undo", follow_redirects=True)
    assert "Round 2 was just undone" in text(answer)
    assert rounds_stored(client, game_id) == 1
    # One tap puts round 2 back, every hand as the phones entered it.
    answer = client.post(f"/games/{game_id}/rounds/2/put-back", follow_redirects=True)
    assert "Round 2 put back." in text(answer)
    assert _rounds(client, game_id) == before
    board = text(client.get(f"/games/{game_id}"))
    assert "Undo round 2" in board and "Put round 2 back" not in board
    # Sent again (a double tap): answered as the first, nothing more stored.
    answer = client.post(f"/games/{game_id}/rounds/2/put-back", follow_redirects=True)
    assert "Round 2 put back." in text(answer) and _rounds(client, game_id) == before


def test_a_round_put_back_keeps_its_undo_window_and_a_new_round_ends_the_offer(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5", "Dee": "9"})
    client.post(f"/games/{game_id}/rounds/1/undo")
    # A round saved in its place: nothing is offered back any more.
    save_round(client, game_id, "Ben", {"Ann": "Q", "Cy": "5", "Dee": "9"})
    board = text(client.get(f"/games/{game_id}"))
    assert "Put round 1 back" not in board and "Undo round 1" in board
    answer = client.post(f"/games/{game_id}/rounds/1/put-back", follow_redirects=True)
    assert "cannot be put back any more" in text(answer)
    assert _rounds(client, game_id)[0]["went_out"] == "Ben"


def test_the_round_is_offered_back_only_as_long_as_its_undo_was(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5", "Dee": "9"})
    client.post(f"/games/{game_id}/rounds/1/undo")
    with app.app_context(), scope.household(family_id(app)):
        game = db.session.get(Game, game_id)
        assert game is not None and game.undone is not None
        saved = utcnow() - timedelta(minutes=11)
        game.undone = {**game.undone, "saved": saved.isoformat()}
        game.version += 1
        db.session.commit()
    board = text(client.get(f"/games/{game_id}"))
    assert "Put round 1 back" not in board
    answer = client.post(f"/games/{game_id}/rounds/1/put-back", follow_redirects=True)
    assert "cannot be put back any more" in text(answer)
    assert rounds_stored(client, game_id) == 0


def test_the_put_back_form_is_where_undo_was_and_named_in_spanish(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5", "Dee": "9"})
    client.post(f"/games/{game_id}/rounds/1/undo")
    board = text(client.get(f"/games/{game_id}", headers={"Accept-Language": "es"}))
    form = re.search(r'<form[^>]*class="undo put-back".*?</form>', board, re.S)
    assert form is not None and f"/games/{game_id}/rounds/1/put-back" in form.group(0)
    assert "Volver a poner la ronda 1" in form.group(0)
