"""Packs follow the shuffle, not the head count (issue 49, item 1): a round's packs are those the
rules give for the most players at the table in any round so far, so a leave never shrinks
them, and a join that needs more says so on the board before the next deal."""

from __future__ import annotations

from flask.testing import FlaskClient

from ..helpers import save_round, start_game

FIVE = ["Ann", "Ben", "Cy", "Dee", "Eve"]


def test_a_leave_keeps_the_packs_the_five_shuffled(client: FlaskClient) -> None:
    # Liverpool: five players shuffle 3 decks with 6 jokers (four: 2 decks, 4 jokers).
    game_id = start_game(client, "liverpool", FIVE)
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "<strong>3 decks</strong> with <strong>6 jokers</strong>" in board
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5", "Dee": "9", "Eve": "4"})
    client.post(f"/games/{game_id}/leave", data={"seat": "4", "sure": "yes"})
    # The same shuffle: five jokers are still in the packs after Eve leaves.
    save_round(client, game_id, "Ben", {"Ann": "JK JK", "Cy": "JK JK", "Dee": "JK"})
    # Seven are not, and the refusal names the packs.
    refused = save_round(
        client, game_id, "Cy", {"Ann": "JK JK JK", "Ben": "JK JK", "Dee": "JK JK"}, expect=422
    )
    said = refused.get_data(as_text=True)
    assert "the game&#39;s packs (3 decks and 6 jokers) hold" in said, said
    assert len(client.get(f"/games/{game_id}/export").get_json()["rounds"]) == 2


def test_a_join_that_needs_more_packs_says_so_before_the_deal(client: FlaskClient) -> None:
    game_id = start_game(client, "liverpool", FIVE[:4])
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5", "Dee": "9"})
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Add to the packs" not in board
    client.post(f"/games/{game_id}/join", data={"name": "Eve", "points": "0"})
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert (
        "Add to the packs before the deal: 5 players need <strong>3 decks</strong> with "
        "<strong>6 jokers</strong>." in board
    ), board
    es = client.get(f"/games/{game_id}", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "Agrega a las barajas antes de repartir: 5 jugadores necesitan" in es
    save_round(client, game_id, "Eve", {"Ann": "JK JK", "Ben": "JK JK", "Cy": "JK", "Dee": "5"})
    # Once dealt, the packs stay: nothing more to add, and Eve's leave shrinks nothing.
    assert "Add to the packs" not in client.get(f"/games/{game_id}").get_data(as_text=True)
    client.post(f"/games/{game_id}/leave", data={"seat": "4", "sure": "yes"})
    assert "Add to the packs" not in client.get(f"/games/{game_id}").get_data(as_text=True)
    save_round(client, game_id, "Ann", {"Ben": "JK JK JK", "Cy": "JK JK", "Dee": "5"})
