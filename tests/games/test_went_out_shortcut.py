"""The board's shortcut into a new round with who went out already picked (issue 23, taps): the
signed-in scorer's board offers one link a player, the round form opens with that player
picked (changeable like any pick), and anything else in the address picks nobody, so the form
asks as usual. Nothing else is assumed: the hands are as empty as ever."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from ..conftest import signed_in
from ..helpers import save_round, start_game

FOUR = ("Ann", "Ben", "Cy", "Dee")


def text(response: object) -> str:
    return response.get_data(as_text=True)  # type: ignore[attr-defined]


def picked(page: str) -> list[str]:
    """The values of the checked "who went out" choices on a round form."""
    return re.findall(r'name="went_out" value="([^"]+)" checked', page)


def test_the_board_offers_who_went_out_for_the_next_round(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    board = text(client.get(f"/games/{game_id}"))
    links = re.findall(r'href="([^"]*went_out=[^"]*)"[^>]*>(\w+)<span', board)
    assert links == [
        (f"/games/{game_id}/rounds/new?went_out={seat}", name) for seat, name in enumerate(FOUR)
    ]
    assert "Or start round 1 with who went out:" in board
    assert "Enter round 1" in board
    assert "went_out=nobody" not in board  # 12-Step: somebody always goes out
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"})
    assert "Or start round 2 with who went out:" in text(client.get(f"/games/{game_id}"))


def test_nobody_is_offered_where_the_rules_allow_it(client: FlaskClient) -> None:
    game_id = start_game(client, "contract-rummy", ("Ann", "Ben", "Cy"))
    board = text(client.get(f"/games/{game_id}"))
    assert f"/games/{game_id}/rounds/new?went_out=nobody" in board
    page = text(client.get(f"/games/{game_id}/rounds/new?went_out=nobody"))
    assert picked(page) == ["nobody"]


def test_the_form_opens_with_that_player_out_and_nothing_else_filled(
    client: FlaskClient,
) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    page = text(client.get(f"/games/{game_id}/rounds/new?went_out=2"))
    assert picked(page) == ["2"]
    assert 'id="hand-2" class="hand is-out"' in page
    assert 'id="hand-1" class="hand"' in page
    # No hand is filled or ticked for the scorer.
    assert re.findall(r'name="hands-\d-cards" value="([^"]*)"', page) == ["", "", "", ""]
    assert not re.search(r'name="hands-\d-made" value="y" checked', page)


@pytest.mark.parametrize("asked", ["4", "-1", "x", "", "nobody", "1.0", "0x1", "١"])
def test_anything_else_picks_nobody(client: FlaskClient, asked: str) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    response = client.get(f"/games/{game_id}/rounds/new", query_string={"went_out": asked})
    assert response.status_code == 200
    assert picked(text(response)) == []
    assert "is-out" not in text(response).split('id="hand-0"')[1].split(">")[0]


def test_a_shortcut_round_still_refuses_an_empty_hand_and_the_pick_can_change(
    client: FlaskClient,
) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    assert picked(text(client.get(f"/games/{game_id}/rounds/new?went_out=1"))) == ["1"]
    # The scorer changes the pick to Ann and leaves Dee's hand empty: refused at Dee's hand.
    form = {
        "went_out": "0",
        "hands-1-cards": "K",
        "hands-2-cards": "5",
        "hands-3-cards": "",
        "save": "1",
    }
    response = client.post(f"/games/{game_id}/rounds/new", data=form)
    assert response.status_code == 422
    assert "Dee did not go out, so Dee holds cards" in text(response)
    assert 'aria-describedby="cards-3-error"' in text(response)
    assert len(client.get(f"/games/{game_id}/export").get_json()["rounds"]) == 0


def test_only_a_scorer_sees_the_shortcut(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    viewer = signed_in(app, "viewer", role="viewer")
    board = text(viewer.get(f"/games/{game_id}"))
    assert "went_out=" not in board
    assert "Enter round 1" not in board
