"""Issue 51, Phase 10: the app reads a game's cards in the notation of its rule set's deck. A
game on house rules with ``deck: phase-10`` (the Phase 10 preset is not registered yet) takes
``7R 12g W S`` on the round form, the form's live count, a phone's hand, a game file and the
referee, and scores them 5/10/15/25; a standard game still refuses them."""

from __future__ import annotations

import json
from io import BytesIO
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import house_rules, scope

from ..conftest import family_id
from ..helpers import game_document, save_round, start_game
from .test_drafts import hand_post, points_by_seat, rounds_of, table_phone
from .test_pages import text

THREE = ("Ann", "Ben", "Cy")
# Contract Rummy's contracts on a Phase 10 deck: its sets and runs read the Phase 10 way.
PHASE_10_DECK = {"base": "contract-rummy", "deck": "phase-10"}


def _house_rules(app: Flask) -> str:
    with app.test_request_context(), scope.household(family_id(app)):
        slug = house_rules.save("Our deck", PHASE_10_DECK).slug
    return slug


def _export(client: FlaskClient, game_id: int) -> dict[str, Any]:
    answer = client.get(f"/games/{game_id}/export")
    assert answer.status_code == 200
    document: dict[str, Any] = answer.get_json()
    return document


def test_the_round_form_scores_phase_10_cards(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, _house_rules(app), THREE)
    # The live count of the form reads the deck's notation: 7 + 12 + Wild + Skip.
    preview = client.post(
        f"/games/{game_id}/rounds/new",
        data={"went_out": "0", "hands-1-cards": "7R 12g W S", "preview": "1", "redraw": "1"},
    )
    assert preview.status_code == 200
    assert "55" in text(preview)
    assert "not a rank" not in text(preview)
    save_round(client, game_id, "Ann", {"Ben": "7R 12g W S", "Cy": "7 12 W S"}, {"Ben"})
    document = _export(client, game_id)
    hands = document["rounds"][0]["players"]
    assert hands["Ben"]["cards"] == "7R 12G W S"
    assert hands["Cy"]["cards"] == "7 12 W S"
    assert [standing["total"] for standing in document["standings"]] == [0, 55, 55]
    # A card the deck does not have is refused where it was typed, naming it.
    refused = save_round(client, game_id, "Ann", {"Ben": "13R", "Cy": "5"}, expect=422)
    assert "13R" in text(refused)
    assert "1 to 12" in text(refused)


def test_the_copy_check_counts_a_phase_10_deck(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, _house_rules(app), THREE)
    # Two of each numbered card of a colour: a third 7R across the table is refused.
    refused = save_round(client, game_id, "Ann", {"Ben": "7R 7R", "Cy": "7R"}, expect=422)
    assert "7R" in text(refused)
    save_round(client, game_id, "Ann", {"Ben": "7R 7R", "Cy": "7B"})


def test_a_standard_game_still_refuses_phase_10_cards(client: FlaskClient) -> None:
    game_id = start_game(client, "contract-rummy", THREE)
    refused = save_round(client, game_id, "Ann", {"Ben": "7R", "Cy": "W"}, expect=422)
    assert "7R" in text(refused)
    save_round(client, game_id, "Ann", {"Ben": "7H", "Cy": "JK"})
    assert [s["total"] for s in _export(client, game_id)["standings"]] == [0, 7, 15]


def test_the_phones_enter_phase_10_hands(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, _house_rules(app), THREE)
    phones = [table_phone(app, game_id, seat=seat) for seat in range(3)]
    assert hand_post(phones[0], game_id, 0, went_out="1")[0] == 303
    status, page = hand_post(phones[1], game_id, 1, cards="10B W", preview="1")
    assert status == 200 and "not a rank" not in page and "35" in page
    assert hand_post(phones[1], game_id, 1, cards="10B W", done="made")[0] == 303
    assert hand_post(phones[2], game_id, 2, cards="S 7R", done="not")[0] == 303
    stored = rounds_of(app, game_id)
    assert len(stored) == 1 and points_by_seat(stored[0]) == {0: 0, 1: 35, 2: 20}


def test_a_game_file_on_a_phase_10_deck_reads_its_cards(app: Flask, client: FlaskClient) -> None:
    document = game_document(
        "contract-rummy", list(THREE), [("Ann", {"Ben": "1R 9G 10B 11Y 12G", "Cy": "S"}, set())]
    )
    document["rules"] = PHASE_10_DECK
    answer = client.post(
        "/games/import",
        data={"file": (BytesIO(json.dumps(document).encode()), "game.json")},
        content_type="multipart/form-data",
    )
    assert answer.status_code in (302, 303), text(answer)
    game_id = int(answer.headers["Location"].rstrip("/").split("/")[-1])
    assert [points_by_seat(played) for played in rounds_of(app, game_id)] == [{0: 0, 1: 40, 2: 15}]


def test_the_referee_reads_the_tables_deck(app: Flask, client: FlaskClient) -> None:
    slug = _house_rules(app)
    answer = client.get("/referee", query_string={"rules": slug, "cards": "7R 7B 7G"})
    assert answer.status_code == 200, text(answer)
    assert "A set of 7s" in text(answer)
    run = client.get("/referee", query_string={"rules": slug, "cards": "3R 4B W 6Y"})
    assert "A run" in text(run) and "not a rank" not in text(run)
    standard = client.get("/referee", query_string={"rules": "contract-rummy", "cards": "7R"})
    assert standard.status_code == 422
