"""Issue 51, Phase 10: the preset's game options on the score sheet, each through the app (the
round form and the game file), not only the engine: who moves on to which phase
(``phases_played``), a fixed number of hands (``hands``), whoever made the most phases wins
(``winner: most contracts``), and a tie on phase 10 and on points settled by the tie-break hand
(``tie_break: replay``), which a game file round-trips (``rounds[].tie_break_hand``)."""

from __future__ import annotations

import json
from io import BytesIO
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import house_rules, scope
from scorekeeper.extensions import db
from scorekeeper.games.tally import HandEntry, RoundEntry, tally_game
from scorekeeper.rules import get_ruleset

from ..conftest import family_id
from ..helpers import game_document, save_round, start_game
from .test_pages import text

TWO = ("Ann", "Ben")
THREE = ("Ann", "Ben", "Cy")


def _house_rules(app: Flask, name: str, options: dict[str, Any]) -> str:
    with app.test_request_context(), scope.household(family_id(app)):
        slug = house_rules.save(name, {"base": "phase-10", **options}).slug
        db.session.commit()
    return slug


def _export(client: FlaskClient, game_id: int) -> dict[str, Any]:
    answer = client.get(f"/games/{game_id}/export")
    assert answer.status_code == 200
    document: dict[str, Any] = answer.get_json()
    return document


def _standing(document: dict[str, Any], name: str) -> dict[str, Any]:
    (found,) = [item for item in document["standings"] if item["player"] == name]
    return found


def _import(client: FlaskClient, document: dict[str, Any]) -> Any:
    return client.post(
        "/games/import",
        data={"file": (BytesIO(json.dumps(document).encode()), "game.json")},
        content_type="multipart/form-data",
    )


def test_the_preset_plays_its_ten_phases_on_the_score_sheet(client: FlaskClient) -> None:
    game_id = start_game(client, "phase-10", THREE)
    # Ann goes out on phase 1, Ben makes it and holds a Wild, Cy does not make it.
    save_round(client, game_id, "Ann", {"Ben": "W", "Cy": "7R 12G S"}, {"Ben"})
    document = _export(client, game_id)
    assert document["rules"]["base"] == "phase-10"
    assert [_standing(document, name)["contract"] for name in THREE] == [2, 2, 1]
    assert [_standing(document, name)["total"] for name in THREE] == [0, 25, 30]
    assert document["status"] == "in_progress"


def test_even_phases_only_move_each_player_to_the_next_even_phase(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, _house_rules(app, "Even", {"phases_played": "even"}), TWO)
    assert _standing(_export(client, game_id), "Ann")["contract"] == 2
    save_round(client, game_id, "Ann", {"Ben": "5"})
    document = _export(client, game_id)
    assert _standing(document, "Ann")["contract"] == 4
    assert _standing(document, "Ben")["contract"] == 2
    assert document["rounds"][0]["players"]["Ann"]["contract"] == 2
    # Phase 10 is the last: making 2, 4, 6, 8 and 10 ends the game.
    for _ in range(4):
        save_round(client, game_id, "Ann", {"Ben": "5"})
    document = _export(client, game_id)
    assert document["status"] == "finished"
    assert document["winners"] == ["Ann"]
    assert _standing(document, "Ann")["contracts_made"] == 5


def test_a_list_of_phases_ends_with_its_last(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(
        client, _house_rules(app, "First three", {"phases_played": [1, 2, 3]}), TWO
    )
    for _ in range(3):
        save_round(client, game_id, "Ben", {"Ann": "W"})
    document = _export(client, game_id)
    assert document["status"] == "finished"
    assert document["winners"] == ["Ben"]


def test_a_fixed_number_of_hands_and_most_phases_win(app: Flask, client: FlaskClient) -> None:
    slug = _house_rules(app, "Three hands", {"hands": 3, "winner": "most contracts"})
    game_id = start_game(client, slug, THREE)
    # Ann makes two phases and holds a lot; Ben makes one, low; Cy makes two, lower than Ann.
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "W W"}, {"Cy"})
    save_round(client, game_id, "Cy", {"Ann": "W W W", "Ben": "5"}, {"Ann"})
    assert _export(client, game_id)["status"] == "in_progress"
    save_round(client, game_id, "Ben", {"Ann": "5", "Cy": "5"})
    document = _export(client, game_id)
    assert document["status"] == "finished"
    # Ann and Cy made 2 phases each, Ben 1 (the lowest total, 10): of Ann and Cy, the lower.
    assert [_standing(document, name)["contracts_made"] for name in THREE] == [2, 1, 2]
    assert document["winners"] == ["Cy"]
    assert [item["player"] for item in document["standings"]] == ["Cy", "Ann", "Ben"]
    assert [_standing(document, name)["total"] for name in THREE] == [80, 10, 55]
    assert "each made 2 phases" in document["tie_break"]


def test_a_tie_on_phase_10_and_on_points_is_settled_by_the_tie_break_hand(
    app: Flask, client: FlaskClient
) -> None:
    slug = _house_rules(app, "Two phases", {"phases_played": [9, 10]})
    game_id = start_game(client, slug, THREE)
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "10"}, {"Ben"})
    # Both make phase 10 in round 2 with 5 points each: level on points too.
    save_round(client, game_id, "Ben", {"Ann": "5", "Cy": "10"}, {"Ann"})
    document = _export(client, game_id)
    assert document["status"] == "in_progress"
    assert document["winners"] == []
    # The next round is the tie-break hand of Ann and Ben alone; Cy is in no hand of it.
    save_round(client, game_id, "Ben", {"Ann": "W W"})
    document = _export(client, game_id)
    assert document["status"] == "finished"
    assert document["winners"] == ["Ben"]
    last = document["rounds"][-1]
    assert last["tie_break_hand"] is True
    assert set(last["players"]) == {"Ann", "Ben"}
    # Its points count in no total.
    assert [_standing(document, name)["total"] for name in THREE] == [5, 5, 20]
    assert [item["player"] for item in document["standings"]] == ["Ben", "Ann", "Cy"]
    assert "went out first in the tie-break hand" in document["tie_break"]
    # The game file round-trips: imported again, it says the same.
    again = _import(
        client, {key: document[key] for key in ("format", "version", "rules", "players", "rounds")}
    )
    assert again.status_code == 302, text(again)
    copy = _export(client, int(again.headers["Location"].rstrip("/").split("/")[-1]))
    assert copy["rounds"] == document["rounds"]
    assert copy["winners"] == ["Ben"] and copy["tie_break"] == document["tie_break"]


def test_a_tie_break_hand_no_tie_needs_is_refused(client: FlaskClient) -> None:
    document = game_document("phase-10", TWO, [("Ann", {"Ben": "5"}, set())])
    document["rounds"][0]["tie_break_hand"] = True
    refused = _import(client, document)
    assert refused.status_code == 422
    assert "no tie needs one" in text(refused)


def test_the_tally_refuses_a_regular_round_where_the_tie_break_hand_is_owed() -> None:
    rules = get_ruleset({"base": "phase-10", "phases_played": [10]})
    tied = RoundEntry(
        went_out=0,
        hands=(HandEntry(), HandEntry("5", True), HandEntry("5", True)),
    )
    # Ann goes out on phase 10, Ben makes it too but holds 5: no tie, Ann wins.
    owed = tally_game(rules, THREE, 0, [tied])
    assert owed.status == "finished" and owed.winners == (0,)
    rules_two = get_ruleset({"base": "phase-10", "phases_played": [9, 10]})
    first = RoundEntry(went_out=0, hands=(HandEntry(), HandEntry("5", True), HandEntry("5")))
    second = RoundEntry(went_out=1, hands=(HandEntry("5", True), HandEntry(), HandEntry("5")))
    tally = tally_game(rules_two, THREE, 0, [first, second])
    assert tally.tie_break_owed == (0, 1) and tally.status == "in_progress"
    regular = tally_game(rules_two, THREE, 0, [first, second, first])
    assert any("only a tie-break hand settles it" in str(p) for p in regular.problems)
