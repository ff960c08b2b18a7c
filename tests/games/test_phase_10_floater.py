"""Issue 51, Phase 10: the floater (``phase-10.md``, the game file). With ``going_out:
discard``, a player who hit every card and has none left to discard "floats": they did not go
out, yet hold no cards, and score 0. The round form and the game file take that hand; with the
preset's ``either`` a hand with no cards has gone out, and the refusal says so as before, as
it does in a game on standard cards whose players go out by a discard."""

from __future__ import annotations

import json
from io import BytesIO
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import house_rules, scope
from scorekeeper.extensions import db

from ..conftest import family_id
from ..helpers import game_document, save_round, start_game
from .test_drafts import hand_post, points_by_seat, rounds_of, table_phone
from .test_pages import text

THREE = ("Ann", "Ben", "Cy")
# Ann goes out; Ben made his phase and hit every card he held (nothing left to discard); Cy
# holds two cards.
FLOATER_ROUND = ("Ann", {"Ben": "", "Cy": "7R W"}, {"Ben"})
REFUSAL = "Ben did not go out, so Ben holds cards"


def _floating_rules(app: Flask) -> str:
    with app.test_request_context(), scope.household(family_id(app)):
        slug = house_rules.save("Floaters", {"base": "phase-10", "going_out": "discard"}).slug
        db.session.commit()
    return slug


def _import(client: FlaskClient, rules: Any) -> Any:
    document = game_document("phase-10", list(THREE), [FLOATER_ROUND])
    document["rules"] = rules
    return client.post(
        "/games/import",
        data={"file": (BytesIO(json.dumps(document).encode()), "game.json")},
        content_type="multipart/form-data",
    )


def test_the_round_form_takes_a_floater_where_going_out_needs_a_discard(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, _floating_rules(app), THREE)
    went_out, cards, made = FLOATER_ROUND
    save_round(client, game_id, went_out, cards, made)
    (played,) = rounds_of(app, game_id)
    assert points_by_seat(played) == {0: 0, 1: 0, 2: 30}
    document = client.get(f"/games/{game_id}/export").get_json()
    ben = document["rounds"][0]["players"]["Ben"]
    # Ben did not go out, made his phase and moves on to phase 2.
    assert document["rounds"][0]["went_out"] == "Ann"
    assert ben["cards"] == "" and ben["made_contract"] is True
    assert [standing["contract"] for standing in document["standings"]] == [2, 2, 1]


def test_the_preset_says_a_hand_with_no_cards_went_out(client: FlaskClient) -> None:
    game_id = start_game(client, "phase-10", THREE)
    went_out, cards, made = FLOATER_ROUND
    refused = save_round(client, game_id, went_out, cards, made, expect=422)
    assert REFUSAL in text(refused)
    # A standard game whose players go out by a discard keeps refusing it too (game-format.md).
    standard = start_game(client, "contract-rummy", THREE)
    refused = save_round(client, standard, "Ann", {"Ben": "", "Cy": "7H"}, expect=422)
    assert REFUSAL in text(refused)


def test_a_game_file_holds_a_floater_where_going_out_needs_a_discard(
    app: Flask, client: FlaskClient
) -> None:
    answer = _import(client, {"base": "phase-10", "going_out": "discard"})
    assert answer.status_code in (302, 303), text(answer)
    game_id = int(answer.headers["Location"].rstrip("/").split("/")[-1])
    assert [points_by_seat(played) for played in rounds_of(app, game_id)] == [{0: 0, 1: 0, 2: 30}]
    exported = client.get(f"/games/{game_id}/export").get_json()
    assert exported["rounds"][0]["players"]["Ben"]["cards"] == ""
    # The preset goes out either way: the same file is refused, its message unchanged.
    refused = _import(client, "phase-10")
    assert refused.status_code == 422, text(refused)
    assert REFUSAL in text(refused)


def test_the_phones_take_a_floaters_empty_hand(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, _floating_rules(app), THREE)
    phones = [table_phone(app, game_id, seat=seat) for seat in range(3)]
    assert hand_post(phones[0], game_id, 0, went_out="1")[0] == 303
    assert hand_post(phones[1], game_id, 1, cards="", done="made")[0] == 303
    assert hand_post(phones[2], game_id, 2, cards="7R W", done="not")[0] == 303
    (played,) = rounds_of(app, game_id)
    assert points_by_seat(played) == {0: 0, 1: 0, 2: 30}
