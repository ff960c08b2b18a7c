"""Issue 49, item 2: a player who left comes back by the board's "Cy comes back" (once the
next round is stored and "Undo: Cy leaves" is gone), with the total they had or the family's
choice, on the contract they were working on; a full table refuses it at the field; and the
board offers no "Undo round N" that a leave or a join after it would refuse, but the leave's
own undo first."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from ..helpers import save_round, start_game

ES = {"Accept-Language": "es"}


def _board(client: FlaskClient, game_id: int, headers: dict[str, str] | None = None) -> str:
    return client.get(f"/games/{game_id}", headers=headers or {}).get_data(as_text=True)


def test_a_leaver_comes_back_by_the_board_s_button(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", ["Ann", "Ben", "Cy", "Dee"])
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5", "Dee": "K Q"})
    client.post(f"/games/{game_id}/leave", data={"seat": "2", "sure": "yes"})
    board = _board(client, game_id)
    assert "Undo: Cy leaves" in board and "Cy comes back" not in board
    save_round(client, game_id, "Ben", {"Ann": "9", "Dee": "K"})
    board = _board(client, game_id)
    assert "Undo: Cy leaves" not in board
    assert f'href="/games/{game_id}/comeback?seat=2">Cy comes back</a>' in board, board

    asked = client.get(f"/games/{game_id}/comeback?seat=2").get_data(as_text=True)
    assert "Cy left after round 1. Is Cy back at the table for round 3?" in asked
    # Twelve-step: each keeps their own contract, and Cy made none.
    assert "Cy goes back to contract 1, the one they were working on." in asked
    assert "the total when leaving: 5 points" in asked
    # The highest total of those at the table: Dee's 20 + 10.
    assert "the highest total so far: 30 points" in asked
    assert re.search(r'value="kept" checked', asked)

    # Not yet: the page asked, nothing stored.
    assert client.post(f"/games/{game_id}/comeback", data={"seat": "2"}).status_code == 200
    assert "joined" not in client.get(f"/games/{game_id}/export").get_json()

    back = client.post(
        f"/games/{game_id}/comeback",
        data={"seat": "2", "points": "kept", "sure": "yes"},
        follow_redirects=True,
    )
    said = back.get_data(as_text=True)
    assert "Cy is back at the table." in said
    assert "Cy came back before round 3 with 5 points." in said
    assert "Cy comes back</a>" not in said
    exported = client.get(f"/games/{game_id}/export").get_json()
    assert exported["left"] == {"Cy": 1}
    assert exported["joined"] == {"Cy": {"before_round": 3}}
    form = client.get(f"/games/{game_id}/rounds/new").get_data(as_text=True)
    assert 'name="hands-2-cards"' in form
    # Once back, the page has nothing to ask: the board again.
    again = client.get(f"/games/{game_id}/comeback?seat=2")
    assert again.status_code == 302 and again.headers["Location"].endswith(f"/games/{game_id}")


def test_the_family_may_bring_a_comeback_in_at_the_highest_total(client: FlaskClient) -> None:
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben", "Cy"])
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5"})
    client.post(f"/games/{game_id}/leave", data={"seat": "2", "sure": "yes"})
    save_round(client, game_id, "Ben", {"Ann": "K Q"})
    asked = client.get(f"/games/{game_id}/comeback?seat=2").get_data(as_text=True)
    # The round sets the contract here: nothing to say of Cy's own.
    assert "goes back to contract" not in asked
    back = client.post(
        f"/games/{game_id}/comeback", data={"seat": "2", "points": "highest", "sure": "yes"}
    )
    assert back.status_code == 302
    exported = client.get(f"/games/{game_id}/export").get_json()
    assert exported["joined"] == {"Cy": {"before_round": 3, "total": 20}}


def test_the_comeback_in_spanish(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", ["Ann", "Ben", "Cy"])
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5"})
    client.post(f"/games/{game_id}/leave", data={"seat": "2", "sure": "yes"})
    save_round(client, game_id, "Ben", {"Ann": "9"})
    assert "Cy vuelve</a>" in _board(client, game_id, ES)
    asked = client.get(f"/games/{game_id}/comeback?seat=2", headers=ES).get_data(as_text=True)
    assert "Cy dejó la partida después de la ronda 1. ¿Vuelve Cy a la mesa para la ronda 3?" in (
        asked
    )
    assert "el total al irse: 5 puntos" in asked
    assert "Sí, Cy vuelve" in asked


def test_a_comeback_to_a_full_table_is_refused_at_the_field(client: FlaskClient) -> None:
    """Carioca is for at most 5; any game seats at most 16 at once. Never a 500."""
    five = ["Amparo", "Bruno", "Celia", "Diego", "Elena"]
    game_id = start_game(client, "carioca", five)
    save_round(client, game_id, "Amparo", {"Bruno": "K", "Celia": "5", "Diego": "9", "Elena": "4"})
    client.post(f"/games/{game_id}/leave", data={"seat": "4", "sure": "yes"})
    client.post(f"/games/{game_id}/join", data={"name": "Fermín", "points": "zero"})
    save_round(client, game_id, "Fermín", {"Amparo": "K", "Bruno": "5", "Celia": "5", "Diego": "5"})
    assert "Elena comes back" in _board(client, game_id)
    before = client.get(f"/games/{game_id}/export").get_json()
    before.pop("exported")
    refused = client.post(
        f"/games/{game_id}/comeback", data={"seat": "4", "points": "kept", "sure": "yes"}
    )
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    field = page.split('id="comeback-error"', 1)[1].split("</p>", 1)[0]
    assert "Nothing was stored." in field and "is for at most 5 players; this game has 6." in field
    assert 'aria-describedby="comeback-error"' in page
    after = client.get(f"/games/{game_id}/export").get_json()
    after.pop("exported")
    assert after == before
    es = client.post(
        f"/games/{game_id}/comeback",
        data={"seat": "4", "points": "kept", "sure": "yes"},
        headers=ES,
    )
    assert es.status_code == 422 and "No se guardó nada." in es.get_data(as_text=True)

    sixteen = [f"P{number}" for number in range(1, 17)]
    game_id = start_game(client, "twelve-step", sixteen)
    save_round(client, game_id, "P1", {name: "5" for name in sixteen[1:]})
    client.post(f"/games/{game_id}/leave", data={"seat": "15", "sure": "yes"})
    client.post(f"/games/{game_id}/join", data={"name": "Q", "points": "zero"})
    save_round(client, game_id, "P1", {name: "5" for name in [*sixteen[1:15], "Q"]})
    refused = client.post(
        f"/games/{game_id}/comeback", data={"seat": "15", "points": "highest", "sure": "yes"}
    )
    assert refused.status_code == 422
    assert "at most 16 players at the table at once" in refused.get_data(as_text=True)
    exported = client.get(f"/games/{game_id}/export").get_json()
    assert exported["left"] == {"P16": 1}
    assert exported["joined"] == {"Q": {"before_round": 2, "total": 0}}


def test_a_seat_at_the_table_or_a_game_over_has_no_comeback(client: FlaskClient) -> None:
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben", "Cy"])
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5"})
    assert client.get(f"/games/{game_id}/comeback?seat=1").status_code == 302
    refused = client.post(f"/games/{game_id}/comeback", data={"seat": "1", "sure": "yes"})
    assert refused.status_code == 422
    assert "Ben is at this table already." in refused.get_data(as_text=True)
    assert client.get(f"/games/{game_id}/comeback?seat=9").status_code == 400
    client.post(f"/games/{game_id}/leave", data={"seat": "2", "sure": "yes"})
    save_round(client, game_id, "Ben", {"Ann": "9"})
    client.post(f"/games/{game_id}/abandon")
    assert "Cy comes back" not in _board(client, game_id)
    refused = client.post(f"/games/{game_id}/comeback", data={"seat": "2", "sure": "yes"})
    assert refused.status_code == 422 and "This game is over." in refused.get_data(as_text=True)


def test_a_round_the_table_changed_after_offers_the_change_s_undo_first(
    client: FlaskClient,
) -> None:
    """Undo round 2 would be refused while Dee's leave after it stands: the board offers
    "Undo: Dee leaves" alone, and once that is taken, Undo round 2 again."""
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben", "Cy", "Dee"])
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5", "Dee": "K Q"})
    save_round(client, game_id, "Ben", {"Ann": "9", "Cy": "5", "Dee": "4"})
    assert "Undo round 2" in _board(client, game_id)
    client.post(f"/games/{game_id}/leave", data={"seat": "3", "sure": "yes"})
    board = _board(client, game_id)
    assert "Undo: Dee leaves" in board and "Undo round 2" not in board
    assert "/rounds/2/undo" not in board
    client.post(f"/games/{game_id}/leave/undo", data={"seat": "3"})
    board = _board(client, game_id)
    assert "Undo round 2" in board and "Undo: Dee leaves" not in board
    undone = client.post(f"/games/{game_id}/rounds/2/undo", follow_redirects=True)
    assert "Round 2 undone." in undone.get_data(as_text=True)

    # A join after the round: no undo of it offered either (Eve leaving takes the join back).
    other = start_game(client, "contract-rummy", ["Ann", "Ben"])
    save_round(client, other, "Ann", {"Ben": "K"})
    client.post(f"/games/{other}/join", data={"name": "Eve", "points": "zero"})
    assert "Undo round 1" not in _board(client, other)
    client.post(f"/games/{other}/leave", data={"seat": "2", "sure": "yes"})
    assert "Undo round 1" in _board(client, other)


def test_a_leave_after_an_undo_is_undone_before_the_round_is_put_back(
    client: FlaskClient,
) -> None:
    """Round 2 undone, then Cy leaves after round 1: "Put round 2 back" (which holds Cy's
    hand, and would be refused) gives way to "Undo: Cy leaves", and comes back after it."""
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben", "Cy"])
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5"})
    save_round(client, game_id, "Ben", {"Ann": "K", "Cy": "5"})
    client.post(f"/games/{game_id}/rounds/2/undo")
    assert "Put round 2 back" in _board(client, game_id)
    client.post(f"/games/{game_id}/leave", data={"seat": "2", "sure": "yes"})
    board = _board(client, game_id)
    assert "Undo: Cy leaves" in board
    assert "Put round 2 back" not in board and "Undo round 1" not in board
    client.post(f"/games/{game_id}/leave/undo", data={"seat": "2"})
    assert "Put round 2 back" in _board(client, game_id)
    back = client.post(f"/games/{game_id}/rounds/2/put-back", follow_redirects=True)
    assert "Round 2 put back." in back.get_data(as_text=True)
    assert len(client.get(f"/games/{game_id}/export").get_json()["rounds"]) == 2
