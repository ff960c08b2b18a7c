"""Ratings (``scorekeeper.history.ratings``): derived from the games' standings, and kept so
that whatever was changed and in whatever order, they equal a replay of the whole history from
scratch."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.history import ratings
from scorekeeper.models import PlayerRating, RatingStep

from ..conftest import family_id
from ..helpers import save_round, start_game
from .test_kept_stats import _named, _write


def _rows(household: int) -> dict[str, list[tuple[Any, ...]]]:
    """Every step and current rating of the household (the pool's shown name aside: it is the
    name of the pool's latest game, which a replay from scratch may read from another one)."""
    found: dict[str, list[tuple[Any, ...]]] = {}
    for model in (RatingStep, PlayerRating):
        table = model.__table__
        columns = [c for c in table.c if c.name not in ("id", "pool_name")]
        rows = db.session.execute(select(*columns).where(table.c.household_id == household))
        found[table.name] = sorted(map(tuple, rows), key=repr)
    return found


def assert_kept_equals_replay(app: Flask, household: int, step: str) -> None:
    with app.app_context(), scope.household(household):
        kept = _rows(household)
        ratings.rebuild(household)
        assert _rows(household) == kept, step
        db.session.commit()
        db.session.remove()


@pytest.mark.parametrize("seed", [1, 2])
def test_kept_ratings_equal_a_replay_from_scratch_after_random_writes(
    app: Flask, client: FlaskClient, seed: int
) -> None:
    household = family_id(app)
    rng = random.Random(seed)
    done: list[str] = []
    rated = 0
    for step in range(70):
        done.append(_write(app, client, household, rng))
        if step % 10 == 9:
            assert_kept_equals_replay(app, household, "; ".join(done[-10:]))
            with app.app_context(), scope.household(household):
                rated = max(rated, len(_rows(household)["rating_steps"]))
                db.session.remove()
    kinds = {entry.split()[0] for entry in done}
    # Old games came in out of order and changed: the replay from the middle was exercised.
    assert {"import", "bin", "bring"} <= kinds, kinds
    assert rated > 0, "no game was rated"


def _ratings(app: Flask, household: int) -> dict[str, tuple[float, int]]:
    with app.app_context(), scope.household(household):
        names = dict(_named(app, household))
        rows = db.session.execute(
            select(PlayerRating.player_id, PlayerRating.shown, PlayerRating.games).where(
                PlayerRating.pool == ratings.ALL
            )
        ).all()
        db.session.remove()
    return {names[pid]: (shown, games) for pid, shown, games in rows}


def test_the_winner_goes_up_and_the_loser_down(app: Flask, client: FlaskClient) -> None:
    household = family_id(app)
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben", "Cy"])
    for _ in range(7):
        save_round(client, game_id, went_out="Ann", cards={"Ben": "K", "Cy": "K Q"})
    found = _ratings(app, household)
    assert found["Ann"][0] > found["Ben"][0] > found["Cy"][0]
    assert {games for _, games in found.values()} == {1}
    with app.app_context(), scope.household(household):
        changes = ratings.changes_in(game_id)
        db.session.remove()
    assert [c.name for c in changes] == ["Ann", "Ben", "Cy"]
    assert changes[0].change > 0 > changes[-1].change
    # Put in the bin, the game rates nobody.
    assert client.post(f"/games/{game_id}/delete").status_code == 303
    assert _ratings(app, household) == {}
    assert client.post(f"/bin/games/{game_id}/restore").status_code == 303
    assert _ratings(app, household) == found


def test_an_unfinished_game_rates_nobody(app: Flask, client: FlaskClient) -> None:
    household = family_id(app)
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben"])
    save_round(client, game_id, went_out="Ann", cards={"Ben": "K"})
    assert _ratings(app, household) == {}


def _play(client: FlaskClient, table: list[str], winner: str) -> int:
    game_id = start_game(client, "contract-rummy", table)
    for _ in range(7):
        save_round(client, game_id, went_out=winner, cards={n: "K Q" for n in table if n != winner})
    return game_id


def test_the_players_list_is_sorted_by_rating_and_marks_the_provisional(
    client: FlaskClient,
) -> None:
    for _ in range(5):
        _play(client, ["Ann", "Ben"], "Ben")
    _play(client, ["Ann", "Cy"], "Ann")
    page = client.get("/players").get_data(as_text=True)
    body = page.split("<tbody>")[1]
    rows = body.split("</tr>")[:-1]
    names = [row.split('">')[2].split("<")[0] for row in rows]
    shown = [
        float(row.split('<td class="num nowrap">')[1].split()[0].split("<")[0]) for row in rows
    ]
    assert names[0] == "Ben", names
    assert sorted(names) == ["Ann", "Ben", "Cy"]
    assert shown == sorted(shown, reverse=True), (names, shown)
    ben = rows[0]
    assert "provisional" not in ben  # 5 games
    cy = body.split(">Cy<")[1].split("</tr>")[0]
    assert "provisional" in cy  # 1 game


def test_a_players_page_shows_the_ratings_and_their_course(app: Flask, client: FlaskClient) -> None:
    household = family_id(app)
    for winner in ("Ann", "Ben", "Ann"):
        _play(client, ["Ann", "Ben"], winner)
    ids = {name: pid for pid, name in _named(app, household)}
    page = client.get(f"/players/{ids['Ann']}").get_data(as_text=True)
    assert "<h2>Rating</h2>" in page
    assert "All rules" in page and "Contract Rummy" in page
    assert "Ann&#39;s rating, game by game" in page or "Ann's rating, game by game" in page
    assert page.count('<svg class="chart-svg"') == 1
    table = page.split("as a table</summary>")[1].split("</table>")[0]
    assert table.count('<th scope="row" class="num">') == 3  # a row per game


def test_a_finished_game_shows_how_it_moved_the_ratings(client: FlaskClient) -> None:
    game_id = _play(client, ["Ann", "Ben"], "Ben")
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f"/history/games/{game_id}/ratings" in board
    piece = client.get(f"/history/games/{game_id}/ratings", headers={"HX-Request": "true"})
    text = piece.get_data(as_text=True)
    assert "<html" not in text
    ben = text.split(">Ben</a>")[1].split("</strong>")[0]
    ann = text.split(">Ann</a>")[1].split("</strong>")[0]
    assert "+" in ben and "\u2212" in ann, text
    assert client.get("/history/games/999999/ratings").status_code == 404
    playing = start_game(client, "contract-rummy", ["Ann", "Ben"])
    assert "move when a game is finished" in client.get(
        f"/history/games/{playing}/ratings"
    ).get_data(as_text=True)
