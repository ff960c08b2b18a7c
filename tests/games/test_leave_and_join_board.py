"""The board's "leaves the game" and "Add a player" (issue 43): asked before it is stored, in
effect after the last stored round; the round form, the seat picker and the own-hand page
leave out a player not in the round."""

from __future__ import annotations

import io
import json

from flask.testing import FlaskClient

from ..helpers import save_round, start_game


def test_a_player_leaves_after_a_question_and_one_joins(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", ["Ann", "Ben", "Cy", "Dee"])
    # The highest total of those at the table is Ben's 10 (Dee, with 20, leaves).
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5", "Dee": "K Q"})
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Dee leaves the game" in board and "Add a player" in board

    asked = client.get(f"/games/{game_id}/leave?seat=3").get_data(as_text=True)
    assert "Does Dee leave after round 1?" in asked
    assert client.post(f"/games/{game_id}/leave", data={"seat": "3"}).status_code == 200
    assert "left after round" not in client.get(f"/games/{game_id}").get_data(as_text=True)
    stored = client.post(f"/games/{game_id}/leave", data={"seat": "3", "sure": "yes"})
    assert stored.status_code == 302

    joined = client.post(f"/games/{game_id}/join", data={"name": "Eve", "points": "highest"})
    assert joined.status_code == 302
    exported = client.get(f"/games/{game_id}/export").get_json()
    assert exported["left"] == {"Dee": 1}
    assert exported["joined"] == {"Eve": {"before_round": 2, "total": 10}}
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "left after round 1" in board

    form = client.get(f"/games/{game_id}/rounds/new").get_data(as_text=True)
    assert 'name="hands-4-cards"' in form and 'name="hands-3-cards"' not in form
    seats = client.get(f"/games/{game_id}/seat").get_data(as_text=True)
    assert 'value="4"' in seats and 'value="3"' not in seats, seats
    # Round 2: Ben deals, Eve is dealt in, Dee is not; Eve starts on contract 1.
    save_round(client, game_id, "Eve", {"Ann": "5", "Ben": "5", "Cy": "5"})
    exported = client.get(f"/games/{game_id}/export").get_json()
    assert list(exported["rounds"][1]["players"]) == ["Ann", "Ben", "Cy", "Eve"]
    assert exported["rounds"][1]["players"]["Eve"]["contract"] == 1
    assert exported["rounds"][1]["dealer"] == "Ben"
    assert exported["standings"][-1] == {
        "player": "Dee",
        "total": 20,
        "contract": 1,
        "contracts_made": 0,
        "place": 5,
        "left_after": 1,
    }


def test_the_last_two_cannot_part_and_a_name_at_the_table_cannot_join(
    client: FlaskClient,
) -> None:
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben"])
    save_round(client, game_id, "Ann", {"Ben": "K"})
    refused = client.post(f"/games/{game_id}/leave", data={"seat": "1", "sure": "yes"})
    assert refused.status_code == 422
    assert "at least 2 players stay in every round" in refused.get_data(as_text=True)
    assert "left" not in client.get(f"/games/{game_id}/export").get_json()
    client.post(f"/games/{game_id}/join", data={"name": "ann", "points": "zero"})
    assert "joined" not in client.get(f"/games/{game_id}/export").get_json()
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Ann is at this table already." in board


def test_spanish(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", ["Ann", "Ben", "Cy"])
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5"})
    es = {"Accept-Language": "es"}
    board = client.get(f"/games/{game_id}", headers=es).get_data(as_text=True)
    assert "Cy deja la partida" in board and "Agregar un jugador" in board
    asked = client.get(f"/games/{game_id}/leave?seat=2", headers=es).get_data(as_text=True)
    assert "¿Cy se va después de la ronda 1?" in asked


def test_a_round_the_table_changed_after_cannot_be_undone_or_deleted(
    client: FlaskClient,
) -> None:
    """Dee left after round 2 and Eve joined before round 3: round 2 stands (undo and delete
    refused, saying why), and the game still exports and reads back as it was."""
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben", "Cy", "Dee"])
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5", "Dee": "K Q"})
    save_round(client, game_id, "Ben", {"Ann": "9", "Cy": "5", "Dee": "4"})
    client.post(f"/games/{game_id}/leave", data={"seat": "3", "sure": "yes"})
    before = client.get(f"/games/{game_id}/export").get_json()
    answer = client.post(f"/games/{game_id}/rounds/2/undo", follow_redirects=True)
    assert "Round 2 cannot be taken back: Dee left the game after it." in answer.get_data(
        as_text=True
    )
    client.post(f"/games/{game_id}/rounds/2/delete", data={"confirm": "y"})
    assert client.get(f"/games/{game_id}/export").get_json()["rounds"] == before["rounds"]

    other = start_game(client, "contract-rummy", ["Ann", "Ben"])
    save_round(client, other, "Ann", {"Ben": "K"})
    client.post(f"/games/{other}/join", data={"name": "Eve", "points": "0"})
    answer = client.post(f"/games/{other}/rounds/1/undo", follow_redirects=True)
    assert "Round 1 cannot be taken back: Eve joined the game after it." in answer.get_data(
        as_text=True
    )
    assert len(client.get(f"/games/{other}/export").get_json()["rounds"]) == 1


def test_the_rules_most_players_counts_those_at_the_table_at_once(client: FlaskClient) -> None:
    """Carioca is for at most 5: a sixth player joins only when someone has left, and a game
    file naming six of whom five play at once reads back."""
    five = ["Amparo", "Bruno", "Celia", "Diego", "Elena"]
    game_id = start_game(client, "carioca", five)
    save_round(client, game_id, "Amparo", {"Bruno": "K", "Celia": "5", "Diego": "9", "Elena": "4"})
    refused = client.post(
        f"/games/{game_id}/join", data={"name": "Fermín", "points": "0"}, follow_redirects=True
    )
    assert "is for at most 5 players; this game has 6." in refused.get_data(as_text=True)
    assert "joined" not in client.get(f"/games/{game_id}/export").get_json()

    client.post(f"/games/{game_id}/leave", data={"seat": "4", "sure": "yes"})
    joined = client.post(f"/games/{game_id}/join", data={"name": "Fermín", "points": "0"})
    assert joined.status_code == 302, joined.get_data(as_text=True)
    save_round(client, game_id, "Fermín", {"Amparo": "K", "Bruno": "5", "Celia": "5", "Diego": "5"})
    exported = client.get(f"/games/{game_id}/export").get_json()
    assert list(exported["rounds"][1]["players"]) == ["Amparo", "Bruno", "Celia", "Diego", "Fermín"]
    # Six names, five at once: the file goes out and comes back the same.
    again = client.post(
        "/games/import",
        data={"file": (io.BytesIO(json.dumps(exported).encode()), "carioca.json")},
        content_type="multipart/form-data",
    )
    assert again.status_code == 302, again.get_data(as_text=True)
    # A seventh, with five at the table, is refused again.
    refused = client.post(
        f"/games/{game_id}/join", data={"name": "Gloria", "points": "0"}, follow_redirects=True
    )
    assert "this game has 6." in refused.get_data(as_text=True)


def test_a_leave_is_undone_until_the_next_round_is_stored(client: FlaskClient) -> None:
    """Issue 49, item 2: "Undo: Cy leaves" stands on the board until the next round is stored;
    item 7: a table of two is not offered a leave."""
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben", "Cy"])
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5"})
    assert "Undo: Cy leaves" not in client.get(f"/games/{game_id}").get_data(as_text=True)
    client.post(f"/games/{game_id}/leave", data={"seat": "2", "sure": "yes"})
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Undo: Cy leaves" in board
    # Two at the table: nobody more may leave, so no leave is offered.
    assert "A player leaves…" not in board and "Ben leaves the game" not in board
    es = client.get(f"/games/{game_id}", headers={"Accept-Language": "es"})
    assert "Deshacer: Cy deja la partida" in es.get_data(as_text=True)
    undone = client.post(f"/games/{game_id}/leave/undo", data={"seat": "2"}, follow_redirects=True)
    said = undone.get_data(as_text=True)
    assert "Cy is back at the table." in said and "Undo: Cy leaves" not in said
    assert "Cy leaves the game" in said
    assert "left" not in client.get(f"/games/{game_id}/export").get_json()
    log = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Cy does not leave after round 1 after all." in log

    # Once the next round is stored, the leave stands.
    client.post(f"/games/{game_id}/leave", data={"seat": "2", "sure": "yes"})
    save_round(client, game_id, "Ben", {"Ann": "9"})
    assert "Undo: Cy leaves" not in client.get(f"/games/{game_id}").get_data(as_text=True)
    refused = client.post(f"/games/{game_id}/leave/undo", data={"seat": "2"}, follow_redirects=True)
    assert "Cy&#39;s leave can be undone only until the next round is stored." in (
        refused.get_data(as_text=True)
    )
    assert client.get(f"/games/{game_id}/export").get_json()["left"] == {"Cy": 1}


def test_a_player_not_in_a_round_has_no_place_in_its_line(client: FlaskClient) -> None:
    """Issue 49, item 7: the change log and the phones' last-round line leave out a player not
    dealt into the round, rather than saying "Dee 0"."""
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben", "Cy", "Dee"])
    client.post(f"/games/{game_id}/seat", data={"seat": "0"})
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5", "Dee": "9"})
    client.post(f"/games/{game_id}/leave", data={"seat": "3", "sure": "yes"})
    client.post(f"/games/{game_id}/join", data={"name": "Eve", "points": "0"})
    save_round(client, game_id, "Ben", {"Ann": "9", "Cy": "5", "Eve": "K"})
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Round 2 saved: Ben went out; Ann 9, Cy 5, Eve 10." in board, board
    assert "Dee 0" not in board
    hand = client.get(f"/games/{game_id}/hand").get_data(as_text=True)
    assert "Ben went out; Ann 9, Cy 5, Eve 10" in hand and "Dee 0" not in hand


def test_the_table_referee_asks_whose_contract_among_those_at_the_table(
    client: FlaskClient,
) -> None:
    """Issue 49, item 7: a player who left is not offered under "Whose contract?"."""
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben", "Cy"])
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5"})
    client.post(f"/games/{game_id}/leave", data={"seat": "2", "sure": "yes"})
    page = client.get(f"/referee?game={game_id}").get_data(as_text=True)
    seats = page.split('class="seat-list"', 1)[1].split("</ul>", 1)[0]
    assert "Ann · " in seats and "Ben · " in seats and "Cy · " not in seats


def test_a_leaver_added_again_comes_back(client: FlaskClient) -> None:
    """Issue 49, item 2: "Add a player" with a leaver's name brings the leaver back, with the
    total they had (or the highest, as the family chooses), on their own seat and name."""
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben", "Cy"])
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5"})
    client.post(f"/games/{game_id}/leave", data={"seat": "2", "sure": "yes"})
    save_round(client, game_id, "Ben", {"Ann": "9"})
    back = client.post(
        f"/games/{game_id}/join", data={"name": "cy", "points": "zero"}, follow_redirects=True
    )
    said = back.get_data(as_text=True)
    assert "Cy is back at the table." in said and "is at this table already" not in said
    assert "Cy came back before round 3 with 5 points." in said
    exported = client.get(f"/games/{game_id}/export").get_json()
    assert exported["players"] == ["Ann", "Ben", "Cy"]
    assert exported["left"] == {"Cy": 1}
    assert exported["joined"] == {"Cy": {"before_round": 3}}
    save_round(client, game_id, "Cy", {"Ann": "5", "Ben": "5"})
    assert client.get(f"/games/{game_id}/export").get_json()["standings"][0]["player"] == "Cy"
    # Taken back the way a join is: Cy leaves again before playing, and is away as before.
    other = start_game(client, "contract-rummy", ["Ann", "Ben", "Cy"])
    save_round(client, other, "Ann", {"Ben": "K", "Cy": "5"})
    client.post(f"/games/{other}/leave", data={"seat": "2", "sure": "yes"})
    save_round(client, other, "Ben", {"Ann": "9"})
    client.post(f"/games/{other}/join", data={"name": "Cy", "points": "highest"})
    exported = client.get(f"/games/{other}/export").get_json()
    assert exported["joined"] == {"Cy": {"before_round": 3, "total": 10}}
    client.post(f"/games/{other}/leave", data={"seat": "2", "sure": "yes"})
    exported = client.get(f"/games/{other}/export").get_json()
    assert exported["left"] == {"Cy": 1} and "joined" not in exported
