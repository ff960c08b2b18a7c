"""Who sits at a game, from the table: a phone on the game's table link may do what the board
offers it (a player leaves, one joins, one comes back, a leave undone), as it may enter rounds;
and nobody leaves, joins or comes back while Phase 10's tie-break hand is owed, where a leave
would have ended the game for good on one tap."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import house_rules, scope
from scorekeeper.accounts import links
from scorekeeper.extensions import db
from scorekeeper.models import Game, LinkKind

from ..conftest import family_id
from ..helpers import save_round, start_game

ES = {"Accept-Language": "es"}


def _table_phone(app: Flask, game_id: int) -> FlaskClient:
    with app.test_request_context(), scope.household(family_id(app)):
        link, _token = links.make_link(LinkKind.TABLE, "ann", game=db.session.get(Game, game_id))
        path = links.url_of(link).removeprefix("http://localhost")
        db.session.remove()
    phone = app.test_client()
    assert phone.get(path).status_code == 303
    return phone


def _export(client: FlaskClient, game_id: int) -> dict[str, Any]:
    document: dict[str, Any] = client.get(f"/games/{game_id}/export").get_json()
    document.pop("exported")
    return document


def test_a_table_phone_does_what_its_board_offers(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, "liverpool", ["Ann", "Ben", "Cy", "Dee"])
    phone = _table_phone(app, game_id)
    save_round(phone, game_id, "Ann", {"Ben": "K", "Cy": "5", "Dee": "K Q"})
    board = phone.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Cy leaves the game" in board and "Add a player…" in board
    asked = phone.get(f"/games/{game_id}/leave?seat=2")
    assert asked.status_code == 200
    assert (
        phone.post(f"/games/{game_id}/leave", data={"seat": "2", "sure": "yes"}).status_code == 302
    )
    assert "Undo: Cy leaves" in phone.get(f"/games/{game_id}").get_data(as_text=True)
    assert phone.post(f"/games/{game_id}/leave/undo", data={"seat": "2"}).status_code == 302
    assert "left" not in _export(client, game_id)
    phone.post(f"/games/{game_id}/leave", data={"seat": "2", "sure": "yes"})
    save_round(phone, game_id, "Ben", {"Ann": "9", "Dee": "K"})
    back = phone.post(
        f"/games/{game_id}/comeback", data={"seat": "2", "points": "kept", "sure": "yes"}
    )
    assert back.status_code == 302
    joined = phone.post(f"/games/{game_id}/join", data={"name": "Eve", "points": "zero"})
    assert joined.status_code == 302
    document = _export(client, game_id)
    assert document["left"] == {"Cy": 1}
    assert document["joined"] == {"Cy": {"before_round": 3}, "Eve": {"before_round": 3, "total": 0}}
    log = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Eve joined the game before round 3" in log and "table link made by ann" in log


def test_another_game_s_table_link_changes_nobody_here(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, "liverpool", ["Ann", "Ben", "Cy"])
    other = start_game(client, "liverpool", ["Dee", "Eve", "Flo"])
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5"})
    phone = _table_phone(app, other)
    for path, data in (
        ("leave", {"seat": "2", "sure": "yes"}),
        ("join", {"name": "Zed"}),
        ("comeback", {"seat": "2", "sure": "yes"}),
        ("leave/undo", {"seat": "2"}),
    ):
        assert phone.post(f"/games/{game_id}/{path}", data=data).status_code == 404, path
    assert "left" not in _export(client, game_id) and "joined" not in _export(client, game_id)


def _tied(app: Flask, client: FlaskClient) -> int:
    """Ann, Ben and Cy on phases 9 and 10: Ann and Ben both make phase 10 on 5 points."""
    with app.test_request_context(), scope.household(family_id(app)):
        slug = house_rules.save("Two phases", {"base": "phase-10", "phases_played": [9, 10]}).slug
        db.session.commit()
    game_id = start_game(client, slug, ["Ann", "Ben", "Cy"])
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "10"}, {"Ben"})
    save_round(client, game_id, "Ben", {"Ann": "5", "Cy": "10"}, {"Ann"})
    return game_id


def test_nobody_leaves_or_joins_while_the_tie_break_hand_is_owed(
    app: Flask, client: FlaskClient
) -> None:
    game_id = _tied(app, client)
    before = _export(client, game_id)
    assert before["status"] == "in_progress"
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "leaves the game" not in board and "Add a player…" not in board
    for seat in ("0", "2"):
        refused = client.post(
            f"/games/{game_id}/leave", data={"seat": seat, "sure": "yes"}, follow_redirects=True
        )
        assert "A tie-break hand is owed: nobody leaves or joins" in refused.get_data(as_text=True)
    joined = client.post(f"/games/{game_id}/join", data={"name": "Dee"}, follow_redirects=True)
    assert "A tie-break hand is owed" in joined.get_data(as_text=True)
    spanish = client.post(
        f"/games/{game_id}/leave",
        data={"seat": "0", "sure": "yes"},
        headers=ES,
        follow_redirects=True,
    ).get_data(as_text=True)
    assert "mano de desempate" in spanish, spanish
    after = _export(client, game_id)
    assert after == before
    # The hand owed settles it, as it would have.
    save_round(client, game_id, "Ann", {"Ben": "W"})
    assert _export(client, game_id)["winners"] == ["Ann"]
