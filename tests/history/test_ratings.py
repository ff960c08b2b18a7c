"""Ratings (``scorekeeper.history.ratings``): derived from the games' standings, and kept so
that whatever was changed and in whatever order, they equal a replay of the whole history from
scratch."""

from __future__ import annotations

import io
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, func, insert, select, update

from scorekeeper import scope
from scorekeeper.derived import GameStat, PlayerRating, RatingStep, SeatStat
from scorekeeper.extensions import db
from scorekeeper.history import rating_model, rating_reads, rating_worker, ratings
from scorekeeper.models import Game, Household, Player

from ..conftest import family_id
from ..helpers import players_of, round_form, save_round, start_game
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
        # A restore's replay, from the games rather than their kept rows, is the same.
        ratings.rebuild(household, from_games=True)
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
                PlayerRating.pool == rating_model.ALL
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
        changes = rating_reads.changes_in(game_id)
        db.session.remove()
    assert [c.name for c in changes] == ["Ann", "Ben", "Cy"]
    assert changes[0].change > 0 > changes[-1].change
    # Put in the bin, the game rates nobody.
    assert client.post(f"/games/{game_id}/delete").status_code == 303
    assert _ratings(app, household) == {}
    assert client.post(f"/bin/games/{game_id}/restore").status_code == 303
    assert _ratings(app, household) == found


def test_a_correction_that_leaves_the_places_replays_nothing_after_it(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    household = family_id(app)
    games = []
    for _ in range(3):
        game_id = start_game(client, "contract-rummy", ["Ann", "Ben", "Cy"])
        for _ in range(7):
            save_round(client, game_id, went_out="Ann", cards={"Ben": "K", "Cy": "K Q"})
        games.append(game_id)
    table = players_of(client, games[0])
    replays: list[Any] = []
    replay = ratings.replay

    def counted(*arguments: Any, **keywords: Any) -> None:
        replays.append(arguments[1:])
        replay(*arguments, **keywords)

    monkeypatch.setattr(ratings, "replay", counted)

    def correct(cards: dict[str, str]) -> None:
        form = round_form(table, "Ann", cards, set())
        response = client.post(f"/games/{games[0]}/rounds/1/edit", data={**form, "save": "Save"})
        assert response.status_code in (302, 303), response.get_data(as_text=True)

    # Other cards, the same places (Ann, Ben, Cy): nothing is replayed.
    correct({"Ben": "5", "Cy": "K Q J"})
    assert replays == []
    assert_kept_equals_replay(app, household, "points corrected")
    replays.clear()
    # Ben now holds more than Cy over the game: the places change, and the games are replayed
    # from the first.
    correct({"Ben": "JK JK A A A A K K", "Cy": "3"})
    assert [start[1] for _, start in replays] == [games[0]], replays
    assert_kept_equals_replay(app, household, "places corrected")


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
    cells = [row.split('<td class="num"')[1].split(">", 1)[1] for row in rows]
    # A rating below zero is written with a true minus sign (issue 43).
    shown = [float(cell.split("<")[0].split()[0].replace("\u2212", "-")) for cell in cells]
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


# --- the replay itself, under hypothesis ---------------------------------------------------------
#
# Random histories of finished games (days, tables, places with ties), then random changes to
# them: a game removed, moved to another day, its places changed, a new one played on any day.
# Each change is made to the kept seat rows the ratings read, and ``refresh`` told of the game,
# as the kept statistics' refresh tells it; at the end the kept ratings must equal a replay of
# the whole history from scratch.

NAMES_AT_PLAY = ("Ann", "Ben", "Cy", "Dee", "Eve")
BASE = datetime(2024, 1, 1, 19, tzinfo=UTC)


@st.composite
def _table(draw: st.DrawFn) -> list[tuple[int, int]]:
    """(player index, place) of each seat: 2 to 4 players, places 1.. with ties."""
    seated = draw(st.lists(st.integers(0, 4), min_size=2, max_size=4, unique=True))
    places = draw(st.lists(st.integers(1, len(seated)), min_size=len(seated), max_size=len(seated)))
    return list(zip(seated, places, strict=True))


_game = st.tuples(st.integers(0, 20), _table(), st.sampled_from(("contract-rummy", "twelve-step")))
_change = st.one_of(
    st.tuples(st.just("remove"), st.integers(0, 99)),
    st.tuples(st.just("move"), st.integers(0, 99), st.integers(0, 20)),
    st.tuples(st.just("places"), st.integers(0, 99), _table()),
    # A correction of its cards: the points move, the places (what rates it) stay.
    st.tuples(st.just("points"), st.integers(0, 99), st.integers(1, 50)),
    st.tuples(st.just("play"), _game),
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    history=st.lists(_game, min_size=1, max_size=12),
    changes=st.lists(_change, max_size=8),
    in_save=st.sampled_from((100, 0, 2)),
    chunk=st.integers(1, 5),
)
def test_a_replay_from_a_changed_game_equals_a_replay_from_scratch(
    app: Flask, history: list[Any], changes: list[Any], in_save: int, chunk: int
) -> None:
    """``in_save``: the games a save replays itself; beyond them the replay is left to the
    worker (issue 37), which replays ``chunk`` games a transaction."""
    household = family_id(app)
    app.config["RATINGS_REPLAYED_IN_SAVE"] = in_save
    with app.app_context(), scope.household(household):
        connection = db.session.connection()
        seat_table = SeatStat.__table__
        # The replay reads the finished games from their kept rows, then their seats' places.
        game_table = GameStat.__table__
        connection.execute(delete(RatingStep.__table__))
        connection.execute(delete(PlayerRating.__table__))
        connection.execute(delete(seat_table))
        connection.execute(delete(game_table))
        players = {p.name: p.id for p in db.session.scalars(select(Player)).all()}
        for name in NAMES_AT_PLAY:
            if name not in players:
                player = Player(name=name, name_key=name.lower())
                db.session.add(player)
                db.session.flush()
                players[name] = player.id
        ids = [players[name] for name in NAMES_AT_PLAY]
        games: list[int] = []

        def seat(game_id: int, day: int, table: list[tuple[int, int]], slug: str) -> None:
            connection.execute(delete(seat_table).where(seat_table.c.game_id == game_id))
            connection.execute(delete(game_table).where(game_table.c.game_id == game_id))
            connection.execute(
                insert(game_table),
                [
                    {
                        "household_id": household,
                        "game_id": game_id,
                        "status": "finished",
                        "started": BASE + timedelta(days=day),
                        "rules_slug": slug,
                        "rules_name": slug.title(),
                        "round_count": 7,
                        "players": len(table),
                        "twelve_step": slug == "twelve-step",
                        "winner_id": None,
                    }
                ],
            )
            connection.execute(
                insert(seat_table),
                [
                    {
                        "household_id": household,
                        "game_id": game_id,
                        "player_id": ids[index],
                        "status": "finished",
                        "started": BASE + timedelta(days=day),
                        "rules_slug": slug,
                        "rules_name": slug.title(),
                        "round_count": 7,
                        "players": len(table),
                        "total": 10 * place,
                        "place": place,
                        "is_winner": place == 1,
                        "kept_contract": False,
                    }
                    for index, place in table
                ],
            )

        def play(day: int, table: list[tuple[int, int]], slug: str) -> int:
            game = Game(rules={}, rules_slug=slug, rules_name=slug.title(), status="finished")
            db.session.add(game)
            db.session.flush()
            seat(game.id, day, table, slug)
            games.append(game.id)
            return game.id

        for day, table, slug in history:
            play(day, table, slug)
        ratings.rebuild(household, connection)
        for change in changes:
            if change[0] == "play":
                changed = play(*change[1])
            elif not games:
                continue
            else:
                changed = games[change[1] % len(games)]
                kept = connection.execute(
                    select(seat_table.c.started, seat_table.c.rules_slug).where(
                        seat_table.c.game_id == changed
                    )
                ).first()
                if change[0] == "remove" or kept is None:
                    connection.execute(delete(seat_table).where(seat_table.c.game_id == changed))
                    connection.execute(delete(game_table).where(game_table.c.game_id == changed))
                elif change[0] == "points":
                    connection.execute(
                        update(seat_table)
                        .where(seat_table.c.game_id == changed)
                        .values(total=seat_table.c.total + change[2])
                    )
                elif change[0] == "move":
                    for table in (seat_table, game_table):
                        connection.execute(
                            update(table)
                            .where(table.c.game_id == changed)
                            .values(started=BASE + timedelta(days=change[2]))
                        )
                else:
                    day = (kept.started - BASE).days
                    seat(changed, day, change[2], kept.rules_slug)
            ratings.refresh(connection, [changed])
        # As the worker does: each part hands the next the ratings where it goes on.
        carried = ratings.Carried()
        while rating_worker.replay_marked(connection, household, chunk, carried=carried) == "more":
            pass
        assert not ratings.stale(connection, household)
        kept_rows = _rows(household)
        # Every game left has two players or more: something is rated where a game is left.
        left = connection.execute(select(func.count()).select_from(game_table)).scalar()
        assert bool(kept_rows["rating_steps"]) == bool(left)
        ratings.rebuild(household, connection)
        assert _rows(household) == kept_rows, changes
        db.session.rollback()
        db.session.remove()


def test_a_restored_backup_rates_as_the_household_it_came_from(
    app: Flask, client: FlaskClient
) -> None:
    from ..conftest import signed_in

    for table, winner in (
        (["Ann", "Ben", "Cy"], "Cy"),
        (["Ann", "Ben"], "Ann"),
        (["Ben", "Cy"], "Ben"),
    ):
        _play(client, table, winner)
    here = _ratings(app, family_id(app))
    download = client.get("/history/backup/games.jsonl").get_data()
    other = signed_in(app, "zoe", household="Others")
    answer = other.post(
        "/history/backup",
        data={"file": (io.BytesIO(download), "games.jsonl")},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 303
    assert other.get(answer.headers["Location"]).status_code == 200
    with app.app_context():
        others = db.session.scalar(select(Household.id).where(Household.name == "Others"))
    assert others is not None and others != family_id(app)
    there = _ratings(app, others)
    assert set(there) == {"Ann", "Ben", "Cy"}
    assert there == here
