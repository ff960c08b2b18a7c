"""One phone a seat (issue 35, item 1): a seat another phone holds is shown as taken in the
picker, taking it over asks, and the phone that held it finds out on its next poll, its typing
shown and nothing more written from it."""

from __future__ import annotations

import html

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.models import Game

from ..conftest import family_id
from ..helpers import start_game
from .test_drafts import FOUR, hand_post, table_phone
from .test_pages import text


def _version(app: Flask, game_id: int) -> int:
    """The game's version as a phone's page last showed it (what its poll sends as ``v``)."""
    with app.app_context(), scope.household(family_id(app)):
        game = db.session.get(Game, game_id)
        assert game is not None
        version = game.version
        db.session.remove()
    return version


def test_a_seat_held_by_a_phone_is_taken_and_taking_it_over_asks(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    ann, ben = table_phone(app, game_id, 0), table_phone(app, game_id, 1)
    ann.post(f"/games/{game_id}/hand", data={"number": "1", "seat": "0", "went_out": "1"})
    assert hand_post(ben, game_id, 1, cards="K K", preview="1")[0] == 200

    fifth = table_phone(app, game_id)
    picker = text(fifth.get(f"/games/{game_id}/seat"))
    assert "Ben: on another phone" in picker and "Ann: on another phone" in picker
    assert "Cy: on another phone" not in picker
    # Ben's own phone sees its seat as its own, not taken.
    assert "Ben: on another phone" not in text(ben.get(f"/games/{game_id}/seat"))

    # A tap on Ben asks, and changes nothing.
    asked = fifth.post(f"/games/{game_id}/seat", data={"seat": "1"})
    assert asked.status_code == 200
    assert "Ben's seat is on another phone." in html.unescape(text(asked))
    assert fifth.get(f"/games/{game_id}/hand").status_code == 303  # still no seat
    status, page = hand_post(ben, game_id, 1, cards="K K 5", preview="1")
    assert status == 200 and "another phone took over" not in page.lower()

    # Taken over: Ben's old phone finds out on its next poll (the version moved), the hand it
    # typed shown, and what it sends after is refused, nothing written.
    assert ben.get(f"/games/{game_id}/hand").status_code == 200
    seen = _version(app, game_id)
    taken = fifth.post(f"/games/{game_id}/seat", data={"seat": "1", "take_over": "1"})
    assert taken.status_code == 303
    poll = ben.get(f"/games/{game_id}/hand?v={seen}&open=1", headers={"HX-Request": "true"})
    assert poll.status_code == 200
    lost = text(poll)
    assert "Another phone took over Ben&#39;s seat" in lost
    assert "What this phone had typed, kept: K K 5." in lost
    # The pad's own poll (no version: it waits for its round) is told too, with its typing.
    pad_poll = ben.get(
        f"/games/{game_id}/hand?open=1&cards=K+K+5+9", headers={"HX-Request": "true"}
    )
    assert pad_poll.status_code == 200 and "kept: K K 5 9." in text(pad_poll)
    status, page = hand_post(ben, game_id, 1, cards="K K 5 9", done="not")
    assert status == 409 and "kept: K K 5 9." in page
    # The new phone holds Ben's hand as the draft has it, and writes it.
    assert 'value="K K 5"' in text(fifth.get(f"/games/{game_id}/hand"))
    assert hand_post(fifth, game_id, 1, cards="K K 5", done="not")[0] == 303

    # The old phone takes it back only by asking too.
    back = ben.post(f"/games/{game_id}/seat", data={"seat": "1"})
    assert back.status_code == 200 and "Take it over?" in text(back)


def test_a_phone_picking_another_seat_frees_its_old_one(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    phone = table_phone(app, game_id, 2)
    other = table_phone(app, game_id)
    assert "Cy: on another phone" in text(other.get(f"/games/{game_id}/seat"))
    assert phone.post(f"/games/{game_id}/seat", data={"seat": "3"}).status_code == 303
    picker = text(other.get(f"/games/{game_id}/seat"))
    assert "Cy: on another phone" not in picker and "Dee: on another phone" in picker
