"""The game page's charts: server-drawn SVG, accessible, no inline styles."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from flask import Flask, render_template_string

from scorekeeper.games.charts import _spread, game_charts, nice_step

from .factory import contract_rummy, day, play, twelve_step_rounds


@pytest.mark.parametrize(
    ("span", "most", "step"),
    [(0, 6, 1), (5, 6, 1), (12, 6, 2), (12, 8, 2), (140, 6, 50), (1000, 6, 200), (35, 6, 10)],
)
def test_nice_steps(span: int, most: int, step: int) -> None:
    assert nice_step(span, most) == step


def test_end_labels_never_overlap() -> None:
    placed = _spread([100.0, 101.0, 50.0, 102.0], 10.0, 200.0, 13.0)
    assert placed[2] == 50.0
    ordered = sorted(placed)
    assert all(b - a >= 13.0 for a, b in pairwise(ordered))
    squeezed = _spread([198.0, 199.0, 200.0], 10.0, 200.0, 13.0)
    assert max(squeezed) <= 200.0 and min(squeezed) >= 10.0 - 0.001


def charts_of(app: Flask, game_id: int) -> str:
    from scorekeeper import scope
    from scorekeeper.extensions import db
    from scorekeeper.models import Game

    from ..conftest import family_id

    with app.test_request_context(), scope.household(family_id(app)):
        game = db.session.get(Game, game_id)
        return render_template_string(
            '{% include "games/_charts.html" %}', game=game, charts=game_charts(game)
        )


def test_running_totals_and_contract_race(app: Flask) -> None:
    with app.app_context():
        game = play(
            ["Ann", "Ben", "Cy"],
            twelve_step_rounds("Cy", {"Ann": "K", "Ben": "5 5"}, {3: {"Ann"}}),
            rules="twelve-step",
            started=day(1),
        )
        game_id = game.id
    html = charts_of(app, game_id)
    assert html.count("<svg") == 2
    assert html.count('role="img"') == 2 and "viewBox=" in html
    assert "<title" in html and "<desc" in html
    assert "style=" not in html and "<style" not in html and "<script" not in html
    assert "At the end: Cy 0, Ann 120, Ben 120." in html
    assert "Contract race" in html and "At the end: Cy 12, Ann 1, Ben 0." in html
    # One point for the start and one for each of the 12 rounds, per player and chart.
    paths = re.findall(r'<path d="([^"]+)"', html)
    assert len(paths) == 6 and all(p.count("L") == 12 for p in paths)
    # The table fallback: a row per round, with the running totals after it.
    table = html[html.index("Running totals as a table") :]
    assert '<th scope="row" class="num">12</th><td class="num">120</td>' in table
    assert '<th scope="row" class="num">1</th><td class="num">10</td>' in table


def test_round_contract_games_have_no_race_and_new_games_no_chart(app: Flask) -> None:
    with app.app_context():
        finished = contract_rummy(["Ann", "Ben"], "Ann", {"Ben": "K"}, day(1)).id
        empty = play(["Ann", "Ben"], [], started=day(2)).id
    html = charts_of(app, finished)
    assert html.count("<svg") == 1 and "Contract race" not in html
    assert charts_of(app, empty).strip() == ""


@pytest.mark.parametrize(
    ("frozen", "race"),
    [
        ({"base": "twelve-step"}, True),
        ({"base": "dummy-rummy"}, False),
        ({"base": "dummy-rummy", "contract_order": "own"}, True),
        ({"base": "twelve-step", "contract_order": "round"}, False),
    ],
)
def test_the_race_is_drawn_where_the_rule_set_keeps_contracts(
    app: Flask, frozen: dict[str, str], race: bool
) -> None:
    """The rule set answers (options the frozen rules lack read as their preset's)."""
    from scorekeeper.extensions import db

    with app.app_context():
        game = play(
            ["Ann", "Ben"],
            [("Ann", {"Ben": "K"})],
            rules="twelve-step",
            started=day(1),
        )
        game.rules = frozen
        db.session.commit()
        game_id = game.id
    html = charts_of(app, game_id)
    assert ("Contract race" in html) is race
