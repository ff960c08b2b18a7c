"""Issue 22 item 4: a save replays the game once, and the page after it shows that tally.

``tally_game`` (the replay of every round of a game) is counted wherever it is called from,
for a round saved from the round form and its scoreboard after the redirect, and for the last
hand of a round typed on a player's phone (which closes the round) and the pages after it.
Before the save kept its tally (main at 1bff62c) each counted 4: the form's entry, the save,
the board and its result card; the draft's entry, the save, the hand page and its last round."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.games import services, tally
from scorekeeper.models import Game

from ..conftest import family_id
from ..helpers import round_form, save_round, start_game
from .test_caching import player_id
from .test_drafts import FOUR, hand_post, table_phone


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many times a game was replayed: every module holding ``tally_game`` counts."""
    counted = [0]
    original: Callable[..., Any] = tally.tally_game

    def counting(*args: Any, **kwargs: Any) -> Any:
        counted[0] += 1
        return original(*args, **kwargs)

    for name, module in list(sys.modules.items()):
        if name.startswith("scorekeeper") and getattr(module, "tally_game", None) is original:
            monkeypatch.setattr(module, "tally_game", counting)
    yield counted


def test_a_round_saved_from_the_form_is_replayed_once_with_its_board(
    app: Flask, client: FlaskClient, replays: list[int]
) -> None:
    game_id = start_game(client, "twelve-step", ("Ann", "Ben", "Cy"))
    save_round(client, game_id, "Ann", {"Ben": "K Q", "Cy": "5"})
    replays[0] = 0
    form = round_form(("Ann", "Ben", "Cy"), "Ben", {"Ann": "K", "Cy": "9 9"})
    answer = client.post(f"/games/{game_id}/rounds/new", data={**form, "save": "Save round"})
    assert answer.status_code == 302
    page = client.get(answer.headers["Location"])
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert "Round 2" in body or "round 2" in body
    print(f"form save + board: {replays[0]} replays")
    assert replays[0] == 1


def test_the_last_hand_from_a_phone_closes_the_round_with_one_replay(
    app: Flask, client: FlaskClient, replays: list[int]
) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    phones = [table_phone(app, game_id, seat) for seat in range(4)]
    assert hand_post(phones[0], game_id, 0, went_out="1")[0] == 303
    assert hand_post(phones[1], game_id, 1, cards="K Q", done="made")[0] == 303
    assert hand_post(phones[2], game_id, 2, cards="5", done="not")[0] == 303
    replays[0] = 0
    answer = phones[3].post(
        f"/games/{game_id}/hand",
        data={"number": "1", "seat": "3", "cards": "JK 9", "done": "not"},
    )
    assert answer.status_code == 303
    page = phones[3].get(answer.headers["Location"])
    assert page.status_code == 200 and "Round 2" in page.get_data(as_text=True)
    print(f"phone's last hand + its page: {replays[0]} replays")
    assert replays[0] == 1


def test_the_kept_tally_is_the_game_replayed_after_every_kind_of_write(
    app: Flask, client: FlaskClient
) -> None:
    """What the pages read (``tally_of``, kept) is what a fresh replay of the stored game gives,
    after each write that keeps or carries a tally and after those that keep none."""
    game_id = start_game(client, "contract-rummy", ("Ann", "Ben", "Cy"))
    home = family_id(app)

    def same() -> None:
        with app.app_context(), scope.household(home):
            game = db.session.get(Game, game_id)
            assert game is not None
            assert services.tally_of(game) == services.replay(game)
            db.session.remove()

    writes = [
        lambda: save_round(client, game_id, "Ann", {"Ben": "K Q", "Cy": "5"}),
        lambda: save_round(client, game_id, "Ben", {"Ann": "9", "Cy": "5 5"}),
        lambda: client.post(
            f"/games/{game_id}/rounds/1/edit",
            data={**round_form(("Ann", "Ben", "Cy"), "Ann", {"Ben": "JK", "Cy": "5"}), "save": "1"},
        ),
        lambda: client.post(f"/games/{game_id}/may-i", data={"seat": "1", "change": "1"}),
        lambda: hand_post(table_phone(app, game_id, 2), game_id, 2, number="3", went_out="1"),
        lambda: client.post(f"/games/{game_id}/rounds/2/undo"),
        lambda: client.post(f"/players/{player_id(app, 'Ben')}/rename", data={"name": "Benedict"}),
        lambda: client.post(f"/games/{game_id}/abandon"),
    ]
    for write in writes:
        client.get(f"/games/{game_id}")  # the page keeps the tally of the version it read
        answer = write()
        assert answer.status_code < 400 if not isinstance(answer, tuple) else answer[0] < 400
        same()
    with app.app_context(), scope.household(home):
        game = db.session.get(Game, game_id)
        assert game is not None
        tally = services.tally_of(game)
        assert tally.status == "abandoned" and tally.names[1] == "Benedict"
        assert len(tally.rounds) == 1 and tally.rounds[0].hands[1].cards == "JK"
        db.session.remove()
