"""Issue 49 item 4: the history counts what was played. Two players are compared (head to
head, ratings) only where they were dealt into a round together; the players of the last round
are rated among themselves, a leaver as last among the players of their own last round (that
match moving the leaver's rating alone); a seat that came back counts the rounds it played."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from openskill.models import PlackettLuce
from sqlalchemy import select

from scorekeeper import scope
from scorekeeper.derived import RatingStep
from scorekeeper.extensions import db
from scorekeeper.history import ratings, stats
from scorekeeper.models import Player, Seat
from scorekeeper.players import services as players

from ..conftest import family_id
from ..games.test_leaving_and_joining import document
from .test_kept_stats import assert_kept_equals_scratch

ALL = ""
# Rounds 1-2: Ann Ben Cy Dee Fay; 3-5: Ann Ben Cy Eve Gus; 6-7: Ann Ben Cy Eve Fay. Dee left
# after round 2, Eve joined before round 3 with 40, Gus joined before round 3 with 30 and left
# after round 5, Fay left after round 2 and came back before round 6.
ROUNDS = [
    ("Ann", {"Ben": "K", "Cy": "K Q", "Dee": "5", "Fay": "9"}),
    ("Ben", {"Ann": "5", "Cy": "K", "Dee": "5", "Fay": "9 9"}),
    *[("Cy", {"Ann": "9", "Ben": "9", "Eve": "K", "Gus": "5"})] * 3,
    *[("Ann", {"Ben": "5", "Cy": "9", "Eve": "K", "Fay": "5"})] * 2,
]
GAME = document(
    "contract-rummy",
    ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"],
    ROUNDS,
    left={"Dee": 2, "Fay": 2, "Gus": 5},
    joined={
        "Eve": {"before_round": 3, "total": 40},
        "Gus": {"before_round": 3, "total": 30},
        "Fay": {"before_round": 6},
    },
)


def _imported(app: Flask) -> tuple[int, dict[str, int], dict[str, int | None]]:
    from scorekeeper.games.transfer import import_game

    with app.app_context(), scope.household(family_id(app)):
        game = import_game(GAME)
        assert game.status == "finished"
        seats = db.session.scalars(select(Seat).where(Seat.game_id == game.id)).all()
        ids = {seat.player.name: seat.player_id for seat in seats}
        places = {seat.player.name: seat.place for seat in seats}
        game_id = game.id
        db.session.remove()
    return game_id, ids, places


def _steps(app: Flask, game_id: int) -> dict[int, RatingStep]:
    with app.app_context(), scope.household(family_id(app)):
        found = {
            step.player_id: step
            for step in db.session.scalars(
                select(RatingStep).where(RatingStep.game_id == game_id, RatingStep.pool == ALL)
            )
        }
        db.session.expunge_all()
        db.session.remove()
    return found


def _expected(names: list[str], ranks: list[float]) -> dict[str, Any]:
    model = PlackettLuce()
    after = model.rate([[model.rating()] for _ in names], ranks=ranks)
    return {name: rated for name, (rated,) in zip(names, after, strict=True)}


def test_ratings_compare_only_players_who_shared_a_round(app: Flask) -> None:
    game_id, ids, places = _imported(app)
    steps = _steps(app, game_id)
    assert set(steps) == set(ids.values())
    stayed = ["Ann", "Ben", "Cy", "Eve", "Fay"]
    assert all(places[name] is not None for name in ids)
    # The players of the last round, among themselves (Fay came back and stayed to the end).
    among = _expected(stayed, [float(places[name] or 0) for name in stayed])
    # Dee: last among the players of round 2; Gus: last among those of round 5.
    dee_table = ["Ann", "Ben", "Cy", "Fay"]
    dee_ranks = [float(places[name] or 0) for name in dee_table]
    dee = _expected(["Dee", *dee_table], [max(dee_ranks) + 1, *dee_ranks])["Dee"]
    gus_table = ["Ann", "Ben", "Cy", "Eve"]
    gus_ranks = [float(places[name] or 0) for name in gus_table]
    gus = _expected(["Gus", *gus_table], [max(gus_ranks) + 1, *gus_ranks])["Gus"]
    for name, rated in [*among.items(), ("Dee", dee), ("Gus", gus)]:
        step = steps[ids[name]]
        assert step.mu == pytest.approx(rated.mu), name
        assert step.sigma == pytest.approx(rated.sigma), name
    # The whole replay rates the game as the save did, from the games or from the kept rows.
    for from_games in (False, True):
        with app.app_context(), scope.household(family_id(app)):
            ratings.rebuild(family_id(app), from_games=from_games)
            db.session.commit()
            db.session.remove()
        again = _steps(app, game_id)
        assert set(again) == set(steps)
        for player, step in steps.items():
            assert (again[player].mu, again[player].sigma) == pytest.approx((step.mu, step.sigma))


def test_head_to_head_counts_only_players_who_shared_a_round(app: Flask) -> None:
    _imported(app)
    household = family_id(app)
    with app.app_context(), scope.household(household):
        met = {
            player.name: {row.opponent for row in players.profile(player).head_to_head}
            for player in db.session.scalars(select(Player))
        }
        fay = players.profile(db.session.scalars(select(Player).filter_by(name="Fay")).one())
        db.session.remove()
    assert met["Dee"] == {"Ann", "Ben", "Cy", "Fay"}
    assert met["Eve"] == {"Ann", "Ben", "Cy", "Fay", "Gus"}
    assert met["Gus"] == {"Ann", "Ben", "Cy", "Eve"}
    assert met["Fay"] == {"Ann", "Ben", "Cy", "Dee", "Eve"}
    # Fay's game counts the four rounds she played, not the gap between.
    assert fay.overall.rounds == 4
    assert fay.overall.points == 9 + 18 + 5 + 5
    assert fay.best is None
    assert_kept_equals_scratch(app, household, "comings")
    # Counted again from nothing, the same.
    with app.app_context(), scope.household(household):
        stats.rebuild(household)
        db.session.commit()
        db.session.remove()
    assert_kept_equals_scratch(app, household, "comings rebuilt")


def test_a_comeback_that_sets_the_total_anew_counts_the_points_played(app: Flask) -> None:
    """Fay came back before round 6 with 10 points (the family's choice, below her 27): her
    points scored are those of her four hands, not her total less anything."""
    game = {**GAME, "joined": {**GAME["joined"], "Fay": {"before_round": 6, "total": 10}}}
    from scorekeeper.games.transfer import import_game

    household = family_id(app)
    with app.app_context(), scope.household(household):
        assert import_game(game).status == "finished"
        fay = players.profile(db.session.scalars(select(Player).filter_by(name="Fay")).one())
        db.session.remove()
    assert (fay.overall.rounds, fay.overall.points) == (4, 9 + 18 + 5 + 5)
    assert_kept_equals_scratch(app, household, "comeback with a total")


@pytest.mark.parametrize(
    ("value", "places", "shown"),
    [(34.45, 1, "34.5"), (1.85, 1, "1.9"), (-1.85, 1, "-1.9"), (2.25, 1, "2.3"), (0.5, 0, "1")],
)
def test_figures_round_halves_away_from_zero(
    app: Flask, value: float, places: int, shown: str
) -> None:
    """As families count: 34.45 shows 34.5 and 1.85 shows 1.9 (neither float is exactly that,
    and Babel's own rounding takes a half to the even digit)."""
    from scorekeeper import languages

    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert languages.decimal(value, places) == shown
        assert languages.percent(value / 100, places) == f"{shown}%"


def test_the_seasons_lowest_total_is_of_whole_games_only(app: Flask) -> None:
    """A joiner's points since joining and a leaver's few rounds are no game total: the
    season's lowest totals are those of Ann, Ben and Cy, who sat through the whole game."""
    from scorekeeper.games.transfer import import_game
    from scorekeeper.history import seasons

    with app.app_context(), scope.household(family_id(app)):
        game = import_game({**GAME, "started": "2026-03-01T19:00:00+00:00"})
        totals = {seat.player.name: seat.total for seat in game.seats}
        lowest = seasons.records(seasons.year(2026)).lowest
        db.session.remove()
    assert sorted((mark.total, mark.name) for mark in lowest) == sorted(
        (totals[name], name) for name in ("Ann", "Ben", "Cy")
    )


def test_the_biggest_comeback_ranks_only_the_players_at_the_table() -> None:
    """Ann (1) leads after round 1 and leaves; Cy (3) joins before round 2 with 50. After round
    2 the leader is Ben (2), at the table, not Ann who has gone; Cy counts from 50, not 0."""
    from scorekeeper.history import review

    hands = [
        (1, 1, 0, True, 1),
        (1, 2, 30, False, 1),
        (2, 2, 0, True, 1),
        (2, 3, 10, False, 1),
        (3, 3, 0, True, 1),
        (3, 2, 5, False, 1),
    ]
    starts = {3: {2: 50}}
    assert review.biggest_deficit(hands, {3}, False, starts) == ((0, 30), 2, 3, 2)
    moved = [(2, 2, 5, False, 1) if hand[:2] == (2, 2) else hand for hand in hands]
    # Ben, the winner here, trails Ann by 30 after round 1 (both at the table), never after.
    assert review.biggest_deficit(moved, {2}, False, starts) == ((0, 30), 1, 2, 1)
