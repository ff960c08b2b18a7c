"""Issue 43 item 5: "Nobody went out" on the phones, where the rules allow a round with nobody
out (Contract Rummy): every phone then enters its own hand, and the round closes itself."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from ..helpers import start_game
from .test_drafts import hand_post, points_by_seat, rounds_of, table_phone
from .test_pages import text

THREE = ("Ann", "Ben", "Cy")


def test_a_phone_says_nobody_went_out_and_every_phone_enters_its_hand(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "contract-rummy", THREE)
    phones = [table_phone(app, game_id, seat) for seat in range(3)]
    page = text(phones[0].get(f"/games/{game_id}/hand"))
    assert "Nobody went out" in page and 'name="nobody" value="1"' in page
    assert hand_post(phones[0], game_id, 0, nobody="1")[0] == 303
    board = text(client.get(f"/games/{game_id}"))
    assert "Nobody went out." in board and "Counting: Ann, Ben, Cy." in board
    for seat in range(3):
        page = text(phones[seat].get(f"/games/{game_id}/hand"))
        assert "went out. Tap your cards left" in page and "Your cards left" in page
    hand_post(phones[0], game_id, 0, cards="K", done="not")
    hand_post(phones[1], game_id, 1, cards="5 5", done="made")
    assert rounds_of(app, game_id) == []
    hand_post(phones[2], game_id, 2, cards="A", done="not")
    (stored,) = rounds_of(app, game_id)
    assert stored.went_out_id is None
    # Contract Rummy counts a king 10, a five 5, an ace 15.
    assert points_by_seat(stored) == {0: 10, 1: 10, 2: 15}


def test_someone_going_out_after_all_takes_back_the_nobody(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, "contract-rummy", THREE)
    phones = [table_phone(app, game_id, seat) for seat in range(3)]
    hand_post(phones[0], game_id, 0, nobody="1")
    assert hand_post(phones[1], game_id, 1, went_out="1")[0] == 303
    board = text(client.get(f"/games/{game_id}"))
    assert "Nobody went out." not in board and "went out." in board
    # Now that Ben is out, nobody cannot be said.
    status, page = hand_post(phones[0], game_id, 0, nobody="1")
    assert status == 409 and "Ben went out already in round 1" in page


def test_no_nobody_where_the_rules_want_someone_out(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", THREE)
    phone = table_phone(app, game_id, 0)
    assert 'name="nobody"' not in text(phone.get(f"/games/{game_id}/hand"))
    status, page = hand_post(phone, game_id, 0, nobody="1")
    assert status == 422 and "needs someone to go out" in page


def _closed_with_nobody_and_refused(
    app: Flask, client: FlaskClient
) -> tuple[int, list[FlaskClient]]:
    """Ann and Ben are in; the scorer closes with "Nobody" before Cy typed anything, and the
    rules refuse it: Cy did not go out, so Cy holds cards."""
    game_id = start_game(client, "contract-rummy", THREE)
    phones = [table_phone(app, game_id, seat) for seat in range(3)]
    for seat, cards in enumerate(("K", "5 5")):
        assert hand_post(phones[seat], game_id, seat, cards=cards, done="not")[0] == 303
    form = {"number": "1", "close": "1", "went_out": "nobody"}
    refused = client.post(f"/games/{game_id}/close", data=form)
    assert refused.status_code == 422 and "Cy did not go out" in text(refused)
    assert rounds_of(app, game_id) == []
    return game_id, phones


def test_a_close_naming_nobody_refused_is_kept_for_the_phones(
    app: Flask, client: FlaskClient
) -> None:
    """Left from issue 42: the nobody said on the close page, refused, is kept in the phones'
    draft: the board and every phone say nobody went out, and Cy's hand, once in, closes the
    round by itself."""
    game_id, phones = _closed_with_nobody_and_refused(app, client)
    board = text(client.get(f"/games/{game_id}"))
    assert "Nobody went out." in board and "Counting: Cy." in board
    page = text(phones[2].get(f"/games/{game_id}/hand"))
    assert "<strong>Nobody</strong> went out. Tap your cards left" in page
    assert hand_post(phones[2], game_id, 2, cards="9", done="not")[0] == 303
    (stored,) = rounds_of(app, game_id)
    assert stored.went_out_id is None and points_by_seat(stored) == {0: 10, 1: 10, 2: 9}


def test_the_close_page_still_names_someone_over_a_nobody(app: Flask, client: FlaskClient) -> None:
    """The close page offers who went out again, "Nobody" checked as the draft says; the
    scorer's choice there goes before it."""
    game_id, _ = _closed_with_nobody_and_refused(app, client)
    close = text(client.get(f"/games/{game_id}/close"))
    assert 'value="nobody" checked' in close and 'name="went_out" value="2"' in close
    answer = client.post(
        f"/games/{game_id}/close", data={"number": "1", "close": "1", "went_out": "2"}
    )
    assert answer.status_code == 303, text(answer)
    (stored,) = rounds_of(app, game_id)
    assert stored.went_out_id is not None and points_by_seat(stored) == {0: 10, 1: 10, 2: 0}


def test_a_refused_close_stores_nothing_when_every_hand_is_in(
    app: Flask, client: FlaskClient
) -> None:
    """The nobody kept after a refused close does not close the round by itself on the same
    hands: the close sent "nobody" and a one-turn bonus (which nobody out cannot have), was
    refused, and nothing is stored until the scorer closes again without it."""
    game_id = start_game(client, "contract-rummy", THREE)
    phones = [table_phone(app, game_id, seat) for seat in range(3)]
    for seat, cards in enumerate(("K", "5 5", "9")):
        assert hand_post(phones[seat], game_id, seat, cards=cards, done="not")[0] == 303
    form = {"number": "1", "close": "1", "went_out": "nobody", "went_out_in_one_turn": "y"}
    refused = client.post(f"/games/{game_id}/close", data=form)
    assert refused.status_code == 422 and "one turn" in text(refused)
    assert rounds_of(app, game_id) == []
    form.pop("went_out_in_one_turn")
    assert client.post(f"/games/{game_id}/close", data=form).status_code == 303
    (stored,) = rounds_of(app, game_id)
    assert stored.went_out_id is None and points_by_seat(stored) == {0: 10, 1: 10, 2: 9}
