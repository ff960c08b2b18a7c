"""Edges of saving a round found in review: a copy of an old round form (kept on a phone with
no signal) used for the next round is not taken for a resend of the old one; a token that is no
token of ours neither fails nor collides; a round closed from the phones' drafts is stored
under an id no other game on the server shares, however long its uid; a draft settled by the
round form never comes back; a hand written while the round closes is told so, not a 500."""

from __future__ import annotations

import io
import json
import re
import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.games import drafts
from scorekeeper.models import Game

from ..conftest import family_id, signed_in
from ..helpers import round_form, start_game

HTMX = {"HX-Request": "true"}


def _hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert found, name
    return found.group(1)


def _rounds(client: FlaskClient, game_id: int) -> list[dict[str, Any]]:
    rounds: list[dict[str, Any]] = client.get(f"/games/{game_id}/export").get_json()["rounds"]
    return rounds


def _upload(client: FlaskClient, document: dict[str, Any]) -> int:
    data = {"file": (io.BytesIO(json.dumps(document).encode()), "game.json")}
    answer = client.post("/games/import", data=data, content_type="multipart/form-data")
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return int(answer.headers["Location"].rstrip("/").split("/")[-1])


def _phones_close_round_one(client: FlaskClient, game_id: int) -> None:
    """Two seats: Ann goes out on her phone, Ben's hand goes in on his; the round closes."""
    client.post(f"/games/{game_id}/seat", data={"seat": "0"})
    answer = client.post(
        f"/games/{game_id}/hand", data={"number": "1", "seat": "0", "went_out": "1"}
    )
    assert answer.status_code < 400
    client.post(f"/games/{game_id}/seat", data={"seat": "1"})
    answer = client.post(
        f"/games/{game_id}/hand", data={"number": "1", "seat": "1", "cards": "K", "done": "not"}
    )
    assert answer.status_code < 500


def test_an_old_form_filled_in_for_the_next_round_is_not_taken_for_a_resend(app: Flask) -> None:
    alice = signed_in(app, "alice")
    game = start_game(alice, "twelve-step", ("Ann", "Ben"))
    page = alice.get(f"/games/{game}/rounds/new").get_data(as_text=True)
    kept = {name: _hidden(page, name) for name in ("number", "token", "rounds_version")}
    first = round_form(["Ann", "Ben"], "Ann", {"Ben": "K"}) | kept | {"save": "1"}
    assert alice.post(f"/games/{game}/rounds/new", data=first, headers=HTMX).status_code == 204

    # The same form sent again is answered as stored, and stores nothing more.
    again = alice.post(f"/games/{game}/rounds/new", data=first, headers=HTMX)
    assert again.status_code == 204 and len(_rounds(alice, game)) == 1

    # The copy of that form, filled in with round 2 (offline, from the worker's cache): not
    # "already saved"; refused as made on an old game, the typing kept, under a new token.
    second = round_form(["Ann", "Ben"], "Ben", {"Ann": "Q Q 9"}) | kept | {"save": "1"}
    answer = alice.post(f"/games/{game}/rounds/new", data=second, headers=HTMX)
    assert answer.status_code == 409
    assert "HX-Redirect" not in answer.headers
    refused = answer.get_data(as_text=True)
    assert "Q Q 9" in refused
    assert _hidden(refused, "token") != kept["token"]
    assert len(_rounds(alice, game)) == 1


@pytest.mark.parametrize("token", ["x" * 100, "draft:1:1", "short", "<script>"])
def test_a_token_that_is_no_token_of_ours_saves_the_round_once(app: Flask, token: str) -> None:
    alice = signed_in(app, "alice")
    game = start_game(alice, "twelve-step", ("Ann", "Ben"))
    form = round_form(["Ann", "Ben"], "Ann", {"Ben": "K"}) | {"number": "1", "token": token}
    answer = alice.post(f"/games/{game}/rounds/new", data=form | {"save": "1"})
    assert answer.status_code == 302
    assert len(_rounds(alice, game)) == 1


def test_a_copy_of_a_game_in_another_household_closes_its_own_drafts(app: Flask) -> None:
    alice = signed_in(app, "alice", household="Family")
    bob = signed_in(app, "bob", household="Cousins")
    game_a = start_game(alice, "twelve-step", ("Ann", "Ben"))
    game_b = _upload(bob, alice.get(f"/games/{game_a}/export").get_json())  # the same uid
    _phones_close_round_one(alice, game_a)
    _phones_close_round_one(bob, game_b)
    assert len(_rounds(alice, game_a)) == 1
    assert len(_rounds(bob, game_b)) == 1


def test_a_game_with_the_longest_uid_closes_its_drafts(app: Flask) -> None:
    alice = signed_in(app, "alice")
    game = start_game(alice, "twelve-step", ("Ann", "Ben"))
    document = alice.get(f"/games/{game}/export").get_json() | {"uid": "u" * 64}
    copy = _upload(alice, document)
    _phones_close_round_one(alice, copy)
    assert len(_rounds(alice, copy)) == 1


def test_a_draft_settled_by_the_round_form_never_comes_back(app: Flask) -> None:
    alice = signed_in(app, "alice")
    game = start_game(alice, "twelve-step", ("Ann", "Ben", "Cy"))
    for seat, data in ((0, {"went_out": "1"}), (1, {"cards": "K", "done": "not"})):
        alice.post(f"/games/{game}/seat", data={"seat": str(seat)})
        alice.post(f"/games/{game}/hand", data={"number": "1", "seat": str(seat), **data})
    # The scorer enters round 1 on the round form instead (Cy went out), then deletes it.
    form = round_form(["Ann", "Ben", "Cy"], "Cy", {"Ann": "5", "Ben": "5"})
    assert (
        alice.post(
            f"/games/{game}/rounds/new", data=form | {"number": "1", "save": "1"}
        ).status_code
        == 302
    )
    assert alice.post(f"/games/{game}/rounds/1/delete").status_code in (302, 303)
    board = alice.get(f"/games/{game}").get_data(as_text=True)
    assert "draft-status" not in board
    # Cy's phone starts afresh: one hand in stores nothing of the old draft.
    alice.post(f"/games/{game}/seat", data={"seat": "2"})
    alice.post(
        f"/games/{game}/hand", data={"number": "1", "seat": "2", "cards": "Q", "done": "not"}
    )
    assert _rounds(alice, game) == []


def test_a_hand_written_while_the_round_closes_is_told_so(
    app: Flask, database_uri: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if database_uri.startswith("sqlite"):
        pytest.skip("SQLite's one writer puts the two writes one after the other")
    client = signed_in(app, "alice")
    game_id = start_game(client, "twelve-step", ("Ann", "Ben", "Cy"))
    home = family_id(app)
    with app.test_request_context(), scope.household(home):
        game = db.session.get(Game, game_id)
        assert game is not None
        drafts.go_out(game, 0, number=1)
        drafts.write_hand(game, 1, number=1, cards="K", done=True)
        drafts.write_hand(game, 2, number=1, cards="Q", done=False)
        db.session.remove()

    phone_ready, closed = threading.Event(), threading.Event()
    real_commit = drafts._commit
    outcomes: list[str] = []

    def held_commit(*args: Any) -> None:
        if threading.current_thread().name == "phone":
            phone_ready.set()
            closed.wait(timeout=20)
        real_commit(*args)

    monkeypatch.setattr(drafts, "_commit", held_commit)

    def phone() -> None:
        with app.test_request_context(method="POST"), scope.household(home):
            try:
                game = db.session.get(Game, game_id)
                assert game is not None
                drafts.write_hand(game, 2, number=1, cards="Q 5", done=True)
                outcomes.append("written")
            except drafts.DraftClosed:
                outcomes.append("closed")
            except BaseException as failure:
                outcomes.append(type(failure).__name__)
            finally:
                db.session.remove()

    thread = threading.Thread(target=phone, name="phone")
    thread.start()
    assert phone_ready.wait(timeout=20)
    with app.test_request_context(method="POST"), scope.household(home):
        game = db.session.get(Game, game_id)
        assert game is not None
        assert drafts.close(game, number=1) is not None
        db.session.remove()
    closed.set()
    thread.join(timeout=30)
    assert outcomes == ["closed"]
