"""The kept statistics (``scorekeeper.history.stats``) always equal the same numbers computed
from scratch over every game, seat and hand (``scratch.py``), whatever writes came before:
rounds saved, corrected, undone and deleted, games abandoned, put in the bin and brought back,
finished games imported, players renamed and merged. And ``rebuild`` makes the same rows."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper import scope
from scorekeeper.derived import GameStat, PlayerStat, SeatContract, SeatStat
from scorekeeper.extensions import db
from scorekeeper.history import records, stats
from scorekeeper.history.stats import households as rebuilding
from scorekeeper.models import Game, Player
from scorekeeper.players import services as players

from ..conftest import family_id
from ..helpers import game_document, players_of, round_form, save_round, start_game
from . import scratch

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve")
CARDS = ("", "K", "5", "K Q", "JK", "9 9", "A")
RULES = ("contract-rummy", "twelve-step", "bellevue", "russian-rummy")


def _games(app: Flask, household: int) -> list[tuple[int, str, int]]:
    """(id, status, rounds) of the household's games out of the bin."""
    with app.app_context(), scope.household(household):
        rows = db.session.execute(
            select(Game.id, Game.status, Game.round_count).order_by(Game.id)
        ).all()
        db.session.remove()
    return [(gid, status, rounds) for gid, status, rounds in rows]


def _binned(app: Flask, household: int) -> list[int]:
    with app.app_context(), scope.household(household), scope.with_bin():
        found = list(
            db.session.scalars(
                select(Game.id).where(Game.deleted_at.is_not(None)).order_by(Game.id)
            ).all()
        )
        db.session.remove()
    return found


def _player_ids(app: Flask, household: int) -> list[int]:
    with app.app_context(), scope.household(household):
        # In id order: a seed then draws the same writes on every database and every run
        # (PostgreSQL returns rows in the order they were last written).
        found = list(db.session.scalars(select(Player.id).order_by(Player.id)).all())
        db.session.remove()
    return found


def _marks(items: list[Any]) -> list[tuple[Any, ...]]:
    return [(m.value, m.started, m.game_id) for m in items]


def _records_view(found: records.Records) -> dict[str, Any]:
    """The records as the page shows them; where two seats of one game tie, either may come
    first, so the totals are compared by value and game."""
    return {
        "most_wins": found.most_wins,
        "best_rate": found.best_rate,
        "most_games": found.most_games,
        "lowest": sorted(_marks(found.lowest_totals)),
        "highest": sorted(_marks(found.highest_totals)),
        "streaks": sorted((s.length, s.first, s.last) for s in found.streaks),
        "fastest": [
            (m.player_id, m.name, m.value, m.tie_break_hands, m.game_id) for m in found.fastest
        ],
        "longest": [
            (m.player_id, m.name, m.value, m.tie_break_hands, m.game_id) for m in found.longest
        ],
    }


def assert_kept_equals_scratch(app: Flask, household: int, step: str) -> None:
    with app.app_context(), scope.household(household):
        assert players.player_rows() == scratch.player_rows(), step
        for player in db.session.scalars(select(Player)).all():
            assert players.profile(player) == scratch.profile(player), (step, player.name)
        assert _records_view(records.records()) == _records_view(scratch.records()), step
        db.session.remove()


def _kept_rows(household: int) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for model in (GameStat, SeatStat, SeatContract, PlayerStat):
        table = model.__table__
        columns = [c for c in table.c if c.name != "id"]
        rows = db.session.execute(select(*columns).where(table.c.household_id == household))
        found[table.name] = sorted(map(tuple, rows), key=repr)
    return found


def assert_rebuilt_alike(household: int, monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    """A rebuild of ``household``'s kept rows from its games gives the rows its saves wrote,
    whole and read in chunks of ``chunk`` games (the chunks' edges change nothing)."""
    with scope.household(household):
        kept = _kept_rows(household)
        assert kept["game_stats"], "no game was counted"
        stats.rebuild(household)
        db.session.commit()
        assert _kept_rows(household) == kept
        monkeypatch.setattr(rebuilding, "CHUNK", chunk)
        stats.rebuild(household)
        db.session.commit()
        assert _kept_rows(household) == kept
        db.session.remove()


def _write(app: Flask, client: FlaskClient, household: int, rng: random.Random) -> str:
    """One random write through the pages (or an import); returns what it was."""
    games = _games(app, household)
    playing = [g for g in games if g[1] == "in_progress"]
    with_rounds = [g for g in games if g[2] > 0]
    choice = rng.random()
    if choice < 0.12 or not games:
        rules = rng.choice(RULES)
        table = rng.sample(NAMES, rng.randint(2, 4))
        return f"start {start_game(client, rules, table)} {rules} {table}"
    if choice < 0.45 and playing:
        game_id = rng.choice(playing)[0]
        table = players_of(client, game_id)
        out = rng.choice([*table, None]) if rng.random() < 0.9 else None
        cards = {name: rng.choice(CARDS[1:]) for name in table if name != out}
        made = {name for name in table if rng.random() < 0.5}
        if out is None:
            made = set()
        save_round(client, game_id, out, cards, made, expect=None)
        return f"round in {game_id}"
    if choice < 0.55 and with_rounds:
        game_id, _, rounds = rng.choice(with_rounds)
        table = players_of(client, game_id)
        out = rng.choice(table)
        cards = {name: rng.choice(CARDS[1:]) for name in table if name != out}
        form = round_form(table, out, cards, {n for n in table if rng.random() < 0.5})
        number = rng.randint(1, rounds)
        client.post(f"/games/{game_id}/rounds/{number}/edit", data={**form, "save": "Save"})
        return f"edit round {number} of {game_id}"
    if choice < 0.62 and with_rounds:
        game_id, _, rounds = rng.choice(with_rounds)
        verb = rng.choice(("delete", "undo"))
        client.post(f"/games/{game_id}/rounds/{rounds}/{verb}")
        return f"{verb} round {rounds} of {game_id}"
    if choice < 0.67 and playing:
        game_id = rng.choice(playing)[0]
        client.post(f"/games/{game_id}/abandon")
        return f"abandon {game_id}"
    if choice < 0.74:
        game_id = rng.choice(games)[0]
        client.post(f"/games/{game_id}/delete")
        return f"bin {game_id}"
    binned = _binned(app, household)
    if choice < 0.82 and binned:
        game_id = rng.choice(binned)
        client.post(f"/bin/games/{game_id}/restore")
        return f"bring back {game_id}"
    if choice < 0.92:
        # A finished game from another day: streaks and records need a history.
        table = rng.sample(NAMES, rng.randint(2, 3))
        winner = rng.choice(table)
        rounds = [
            (winner, {name: rng.choice(CARDS[1:]) for name in table if name != winner}, set())
            for _ in range(7)
        ]
        started = datetime(2024, 1, 1, 12, tzinfo=UTC) + timedelta(days=rng.randint(0, 400))
        document = game_document("contract-rummy", table, rounds, started=started.isoformat())
        with app.app_context(), scope.household(household):
            from scorekeeper.games.transfer import import_game

            import_game(document)
            db.session.remove()
        return f"import {table} won by {winner}"
    ids = _player_ids(app, household)
    if len(ids) >= 2 and rng.random() < 0.6:
        keep, absorb = rng.sample(ids, 2)
        client.post(f"/players/{keep}/merge", data={"other": absorb, "confirm": "y"})
        return f"merge {absorb} into {keep}"
    if ids:
        player_id = rng.choice(ids)
        client.post(f"/players/{player_id}/rename", data={"name": f"P{rng.randint(1, 999)}"})
        return f"rename {player_id}"
    return "nothing"


@pytest.mark.parametrize("seed", [1, 2])
def test_kept_numbers_equal_a_computation_from_scratch_after_random_writes(
    app: Flask, client: FlaskClient, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    household = family_id(app)
    rng = random.Random(seed)
    done: list[str] = []
    for step in range(70):
        done.append(_write(app, client, household, rng))
        if step % 10 == 9:
            assert_kept_equals_scratch(app, household, "; ".join(done[-10:]))
    assert_kept_equals_scratch(app, household, "at the end")
    # Every kind of write happened, so the comparison covered them all.
    kinds = {entry.split()[0] for entry in done}
    assert {"start", "round", "edit", "bin", "bring", "import"} <= kinds, kinds
    # Read in chunks of a few games, the chunks' edges (and the binned games between them)
    # change nothing either.
    with app.app_context():
        assert_rebuilt_alike(household, monkeypatch, chunk=3)


def test_a_binned_game_stops_counting_and_counts_again_when_brought_back(
    app: Flask, client: FlaskClient
) -> None:
    household = family_id(app)
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben"])
    for _ in range(7):
        save_round(client, game_id, went_out="Ann", cards={"Ben": "K"})

    def ann() -> tuple[int, int]:
        with app.app_context(), scope.household(household):
            row = next(r for r in players.player_rows() if r.name == "Ann")
            db.session.remove()
        return row.games, row.wins

    assert ann() == (1, 1)
    assert client.post(f"/games/{game_id}/delete").status_code == 303
    assert ann() == (0, 0)
    assert "Ann" not in client.get("/records").get_data(as_text=True).split("Most wins")[-1]
    assert client.post(f"/bin/games/{game_id}/restore").status_code == 303
    assert ann() == (1, 1)
    assert_kept_equals_scratch(app, household, "brought back")


def test_another_households_games_count_only_for_it(app: Flask, client: FlaskClient) -> None:
    from ..conftest import signed_in

    other = signed_in(app, "zoe", household="Others")
    game_id = start_game(other, "contract-rummy", ["Ann", "Ben"])
    for _ in range(7):
        save_round(other, game_id, went_out="Ann", cards={"Ben": "K"})
    assert "Ann" not in client.get("/players").get_data(as_text=True)
    assert "Ann" in other.get("/players").get_data(as_text=True)
    assert f'/games/{game_id}"' not in client.get("/history").get_data(as_text=True)
    assert f'/games/{game_id}"' in other.get("/history").get_data(as_text=True)


def test_a_merge_moves_the_kept_numbers_with_the_games(app: Flask, client: FlaskClient) -> None:
    household = family_id(app)
    first = start_game(client, "contract-rummy", ["Ann", "Ben"])
    for _ in range(7):
        save_round(client, first, went_out="Ben", cards={"Ann": "K"})
    second = start_game(client, "twelve-step", ["Robert", "Cy"])
    save_round(client, second, went_out="Robert", cards={"Cy": "K Q"})
    ids = {name: pid for pid, name in _named(app, household)}
    answer = client.post(
        f"/players/{ids['Ben']}/merge", data={"other": ids["Robert"], "confirm": "y"}
    )
    assert answer.status_code == 303
    with app.app_context(), scope.household(household):
        rows = {row.name: (row.games, row.finished, row.wins) for row in players.player_rows()}
        db.session.remove()
    assert rows == {"Ann": (1, 1, 0), "Ben": (2, 1, 1), "Cy": (1, 0, 0)}
    assert_kept_equals_scratch(app, household, "merged")


def _named(app: Flask, household: int) -> list[tuple[int, str]]:
    with app.app_context(), scope.household(household):
        found = [(pid, name) for pid, name in db.session.execute(select(Player.id, Player.name))]
        db.session.remove()
    return found


def test_a_game_left_early_or_joined_late_counts_its_own_rounds_and_sets_no_record(
    app: Flask, client: FlaskClient
) -> None:
    """Issue 43 item 3: a leaver's few rounds are no game total to hold a record (Dee left after
    round 2 with 10 points: the family's lowest total is still a whole game's), and points a
    round count the rounds each played, without the points a joiner was given (Eve joined
    before round 3 with 40)."""
    from scorekeeper.games.transfer import import_game

    from ..games.test_leaving_and_joining import document

    household = family_id(app)
    rounds = [
        ("Ann", {"Ben": "K", "Cy": "K Q", "Dee": "5"}),
        ("Ben", {"Ann": "5", "Cy": "K", "Dee": "5"}),
        *[("Cy", {"Ann": "9", "Ben": "9", "Eve": "K"})] * 5,
    ]
    game_file = document(
        "contract-rummy",
        ["Ann", "Ben", "Cy", "Dee", "Eve"],
        rounds,
        left={"Dee": 2},
        joined={"Eve": {"before_round": 3, "total": 40}},
    )
    with app.app_context(), scope.household(household):
        game = import_game(game_file)
        assert game.status == "finished"
        db.session.remove()
    with app.app_context(), scope.household(household):
        profiles = {p.name: players.profile(p) for p in db.session.scalars(select(Player))}
        found = records.records()
        db.session.remove()
    dee, eve, ann = profiles["Dee"], profiles["Eve"], profiles["Ann"]
    assert (dee.overall.points, dee.overall.rounds) == (10, 2)
    assert dee.best is None and dee.worst is None
    assert (eve.overall.points, eve.overall.rounds) == (50, 5)
    assert eve.best is None
    assert (ann.overall.points, ann.overall.rounds) == (5 + 45, 7)
    assert ann.best is not None and ann.best.total == 50
    # The family's lowest totals are whole games only (Cy 30, Ann 50, Ben 55), not Dee's 10.
    assert [mark.value for mark in found.lowest_totals] == [30, 50, 55]
    assert_kept_equals_scratch(app, household, "left and joined")
