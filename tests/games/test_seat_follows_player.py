"""A seat follows its player (issue 49, item 6): a phone on the seat of a player who left can
read but not enter a hand or go out, and is told why; what it typed before the leave is no hand
of the next round, so the close page can always name who went out; a correction or a hand put
in that names a seat not dealt into that round is refused with a message, never a 500."""

from __future__ import annotations

from flask.testing import FlaskClient

from ..helpers import save_round, start_game


def _pick(client: FlaskClient, game_id: int, seat: int) -> None:
    picked = client.post(f"/games/{game_id}/seat", data={"seat": str(seat)})
    assert picked.status_code == 303, picked.get_data(as_text=True)


def _rounds(client: FlaskClient, game_id: int) -> list[object]:
    rounds: list[object] = client.get(f"/games/{game_id}/export").get_json()["rounds"]
    return rounds


def test_a_correction_naming_a_joiner_before_the_join_is_refused(client: FlaskClient) -> None:
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben"])
    save_round(client, game_id, "Ann", {"Ben": "K"})
    client.post(f"/games/{game_id}/join", data={"name": "Eve", "points": "0"})
    before = _rounds(client, game_id)
    went_out = {"went_out": "2", "hands-0-cards": "K", "hands-1-cards": "K", "save": "Save"}
    answer = client.post(f"/games/{game_id}/rounds/1/edit", data=went_out)
    assert answer.status_code == 422
    assert "Eve went out, but Eve is not in this round" in answer.get_data(as_text=True)
    # Cards for Eve in round 1: refused, not dropped without a word.
    hand = {"went_out": "0", "hands-1-cards": "K", "hands-2-cards": "K 5", "save": "Save"}
    answer = client.post(f"/games/{game_id}/rounds/1/edit", data=hand)
    assert answer.status_code == 422
    said = answer.get_data(as_text=True)
    assert "Round 1: Eve was not dealt into this round, so Eve has no hand in it." in said
    es = client.post(
        f"/games/{game_id}/rounds/1/edit", data=hand, headers={"Accept-Language": "es"}
    )
    assert "Eve no recibió cartas en esta ronda" in es.get_data(as_text=True)
    assert _rounds(client, game_id) == before


def test_a_hand_put_in_for_a_round_before_the_join_is_refused(client: FlaskClient) -> None:
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben"])
    save_round(client, game_id, "Ann", {"Ben": "K"})
    client.post(f"/games/{game_id}/join", data={"name": "Eve", "points": "0"})
    before = _rounds(client, game_id)
    _pick(client, game_id, 2)
    answer = client.post(
        f"/games/{game_id}/hand/put-in",
        data={"number": "1", "cards": "K Q", "done": "not", "was": ""},
        follow_redirects=True,
    )
    assert answer.status_code == 200
    said = answer.get_data(as_text=True)
    assert "Eve was not dealt into round 1: nothing was saved." in said
    assert "corrected" not in said
    assert _rounds(client, game_id) == before


def test_a_phone_on_a_leavers_seat_reads_but_does_not_enter(client: FlaskClient) -> None:
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben", "Cy"])
    _pick(client, game_id, 2)
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5"})
    # Cy's phone says Cy went out of round 2, and then Cy leaves after round 1 after all.
    assert client.post(f"/games/{game_id}/hand", data={"number": "2", "went_out": "1"})
    client.post(f"/games/{game_id}/leave", data={"seat": "2", "sure": "yes"})
    page = client.get(f"/games/{game_id}/hand").get_data(as_text=True)
    assert "Cy left the game after round 1." in page
    for form in (
        {"number": "2", "went_out": "1"},
        {"number": "2", "cards": "K Q", "done": "not"},
        {"number": "2", "nobody": "1"},
    ):
        answer = client.post(f"/games/{game_id}/hand", data=form)
        assert answer.status_code == 409, (form, answer.status_code)
        said = answer.get_data(as_text=True)
        assert (
            "Cy left the game after round 1: this phone reads the game, but enters no hand "
            "and cannot go out." in said
        )
    es = client.post(
        f"/games/{game_id}/hand",
        data={"number": "2", "went_out": "1"},
        headers={"Accept-Language": "es"},
    )
    assert "Cy dejó la partida después de la ronda 1: este teléfono" in es.get_data(as_text=True)
    # Nobody went out yet: the close page asks who did, among those at the table.
    close = client.get(f"/games/{game_id}/close").get_data(as_text=True)
    assert "Who went out?" in close
    assert 'name="went_out" value="0"' in close and 'name="went_out" value="2"' not in close
    closed = client.post(
        f"/games/{game_id}/close",
        data={"close": "1", "number": "2", "went_out": "1", "cards-0": "9"},
    )
    assert closed.status_code == 303, closed.get_data(as_text=True)
    assert _rounds(client, game_id)[1]["went_out"] == "Ben"  # type: ignore[index]
