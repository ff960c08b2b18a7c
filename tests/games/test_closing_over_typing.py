"""Issue 43 item 2: a round is closed over a hand being typed only when asked. The close
names the hand ("Dee is still typing: K Q so far") and closes over it only as a second,
deliberate choice; the phone whose hand was closed under it puts in what it had typed with
one tap (a correction of that hand, merged as corrections are)."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.models import DraftHand, utcnow

from ..conftest import family_id
from ..helpers import start_game
from .test_drafts import hand_post, points_by_seat, rounds_of, table_phone
from .test_pages import text

FOUR = ("Ann", "Ben", "Cy", "Dee")
CONFLICT = 409


def _dee_typing(app: Flask, client: FlaskClient) -> tuple[int, list[FlaskClient]]:
    """Ann went out, Ben and Cy are in, Dee's phone has K Q of her hand typed."""
    game_id = start_game(client, "twelve-step", FOUR)
    phones = [table_phone(app, game_id, seat) for seat in range(4)]
    hand_post(phones[0], game_id, 0, went_out="1")
    hand_post(phones[1], game_id, 1, cards="K", done="made")
    hand_post(phones[2], game_id, 2, cards="5", done="not")
    hand_post(phones[3], game_id, 3, cards="K Q", preview="cards")
    return game_id, phones


def test_a_close_names_the_hand_being_typed_and_closes_over_it_only_when_asked(
    app: Flask, client: FlaskClient
) -> None:
    game_id, phones = _dee_typing(app, client)
    page = text(client.get(f"/games/{game_id}/close"))
    assert "Dee is still typing: K Q so far." in page
    assert "Close round 1 anyway" in page
    # Ben's table-link phone taps Close as the page stood before Dee typed: nothing stored.
    for closer in (phones[1], client):
        answer = closer.post(f"/games/{game_id}/close", data={"number": "1", "close": "1"})
        assert answer.status_code == CONFLICT
        assert "Dee is still typing: K Q so far." in text(answer)
        assert "Nothing was stored." in text(answer)
        assert rounds_of(app, game_id) == []
    # The second, deliberate choice closes over her hand, as it stands.
    answer = phones[1].post(f"/games/{game_id}/close", data={"number": "1", "close": "over"})
    assert answer.status_code == 303
    stored = rounds_of(app, game_id)
    assert len(stored) == 1 and points_by_seat(stored[0])[3] == 20


def test_a_hand_not_typed_for_a_minute_is_not_asked_about(app: Flask, client: FlaskClient) -> None:
    game_id, phones = _dee_typing(app, client)
    with app.app_context(), scope.household(family_id(app)):
        db.session.execute(
            update(DraftHand)
            .where(DraftHand.game_id == game_id, DraftHand.position == 3)
            .values(updated_at=utcnow() - timedelta(seconds=61))
        )
        db.session.commit()
    assert "is still typing" not in text(client.get(f"/games/{game_id}/close"))
    answer = phones[1].post(f"/games/{game_id}/close", data={"number": "1", "close": "1"})
    assert answer.status_code == 303 and len(rounds_of(app, game_id)) == 1


def test_the_phone_closed_under_puts_in_what_it_had_typed_with_one_tap(
    app: Flask, client: FlaskClient
) -> None:
    game_id, phones = _dee_typing(app, client)
    phones[1].post(f"/games/{game_id}/close", data={"number": "1", "close": "over"})
    # Meanwhile the scorer corrects Cy's hand of round 1: that stays (merged, not overwritten).
    form = {
        "went_out": "0",
        "hands-1-cards": "K",
        "hands-1-made": "y",
        "hands-2-cards": "5 5",
        "hands-3-cards": "K Q",
        "save": "1",
    }
    assert client.post(f"/games/{game_id}/rounds/1/edit", data=form).status_code == 302
    # Dee's pad polls with what it holds: K Q 5.
    page = text(phones[3].get(f"/games/{game_id}/hand?open=1&cards=K+Q+5"))
    assert "You had typed: K Q 5." in page
    assert "Put in what you had typed, K Q 5, as your hand of round 1?" in page
    answer = phones[3].post(
        f"/games/{game_id}/hand/put-in",
        data={"number": "1", "cards": "K Q 5", "was": "K Q", "done": "made"},
    )
    assert answer.status_code == 303
    page = text(phones[3].get(f"/games/{game_id}/hand"))
    assert "Round 1 corrected: your hand is K Q 5." in page
    stored = rounds_of(app, game_id)[0]
    assert points_by_seat(stored) == {0: 0, 1: 10, 2: 10, 3: 25}
    made = {hand.seat.position: hand.made_contract for hand in stored.hands}
    assert made[3] is True
    # The same tap again: nothing more to do.
    again = phones[3].post(
        f"/games/{game_id}/hand/put-in",
        data={"number": "1", "cards": "K Q 5", "was": "K Q", "done": "made"},
    )
    assert "holds that hand already" in text(phones[3].get(again.headers["Location"]))


def test_a_hand_changed_meanwhile_is_not_overwritten_by_the_put_in(
    app: Flask, client: FlaskClient
) -> None:
    game_id, phones = _dee_typing(app, client)
    phones[1].post(f"/games/{game_id}/close", data={"number": "1", "close": "over"})
    form = {
        "went_out": "0",
        "hands-1-cards": "K",
        "hands-1-made": "y",
        "hands-2-cards": "5",
        "hands-3-cards": "K Q 9",
        "save": "1",
    }
    assert client.post(f"/games/{game_id}/rounds/1/edit", data=form).status_code == 302
    answer = phones[3].post(
        f"/games/{game_id}/hand/put-in",
        data={"number": "1", "cards": "K Q 5", "was": "K Q", "done": "not"},
    )
    page = text(phones[3].get(answer.headers["Location"]))
    assert "was changed on another phone meanwhile; nothing was saved" in page
    assert points_by_seat(rounds_of(app, game_id)[0])[3] == 25  # K Q 9, as corrected
