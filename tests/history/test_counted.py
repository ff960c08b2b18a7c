"""Figures a family never has to question (issue 37, items 1 to 4): the rating chart names the
true peak, no number shows a signed zero, counts agree in number, years are the years played,
an evening runs from 05:00 to 05:00 and counts finished games, figures side by side count the
same games, a contract game's comeback is told in contracts, and the rating leader is the best
of everyone rated at the year's end."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, update

from scorekeeper import scope
from scorekeeper.derived import PlayerRating, RatingStep
from scorekeeper.extensions import db
from scorekeeper.history import rating_chart, rating_model, review, review_words, services
from scorekeeper.history.formatting import decimal, quantity
from scorekeeper.models import Player

from ..conftest import family_id
from . import factory

FIRST = datetime(2024, 3, 1, 18, tzinfo=UTC)


def _play(app: Flask, players: list[str], rounds: list[Any], started: datetime, **kw: Any) -> int:
    with app.app_context(), scope.household(family_id(app)):
        game_id = factory.play(players, rounds, started=started, **kw).id
        db.session.remove()
    return game_id


def _win(app: Flask, players: list[str], winner: str, started: datetime) -> int:
    others = {name: "K" for name in players if name != winner}
    return _play(app, players, [(winner, others)] * 7, started)


def _review(app: Flask, year: int) -> review.Review:
    with app.test_request_context(), scope.household(family_id(app)):
        found = review.compute(year, services.data_version())
        db.session.remove()
    return found


def _sentence(found: review.Review, label: str, app: Flask | None = None) -> str:
    if app is not None:
        with app.test_request_context(), scope.household(family_id(app)):
            return _sentence(found, label)
    shown = [figure.sentence for figure in review_words.figures(found) if figure.label == label]
    return shown[0] if shown else ""


def _player_id(app: Flask, name: str) -> int:
    with app.app_context(), scope.household(family_id(app)):
        found = db.session.scalar(select(Player.id).where(Player.name == name))
        db.session.remove()
    assert found is not None
    return found


# --- 1. the chart's peak, signed zeros, counts in number -----------------------------------------


def test_the_rating_chart_names_the_true_peak_not_the_highest_sample(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ann wins five, then loses five: her peak is after game 5, which a chart of four points
    # drawn every fifth game (1, 6, 10) does not sample.
    for n in range(10):
        _win(app, ["Ann", "Ben"], "Ann" if n < 5 else "Ben", FIRST + timedelta(days=n))
    monkeypatch.setattr(rating_chart, "POINTS", 4)
    ann = _player_id(app, "Ann")
    with app.test_request_context(), scope.household(family_id(app)):
        steps = db.session.execute(
            select(RatingStep.games, RatingStep.mu, RatingStep.sigma, RatingStep.started).where(
                RatingStep.player_id == ann, RatingStep.pool == rating_model.ALL
            )
        ).all()
        chart = rating_chart.course(ann, "Ann")
        db.session.remove()
    games, mu, sigma, _started = max(steps, key=lambda s: rating_model.shown(s[1], s[2]))
    assert games == 5
    assert chart is not None and chart.every == 5
    assert chart.peak.games == 5 and chart.peak.rating == rating_model.shown(mu, sigma)
    assert f"highest {decimal(rating_model.shown(mu, sigma))} after game 5 (5 Mar 2024)" in (
        chart.description
    )
    assert 5 in [mark.games for mark in chart.marks]
    page = client.get(f"/players/{ann}").get_data(as_text=True)
    table = page.split("as a table</summary>")[1].split("</table>")[0]
    peak_row = table.split('<th scope="row" class="num">5</th>')[1].split("</tr>")[0]
    assert "highest" in peak_row


@pytest.mark.parametrize("total", [120, 1001])
def test_a_long_careers_chart_draws_sixty_points_at_most(app: Flask, total: int) -> None:
    """docs/using.md: at most 60 points. A course of 120 games with its peak after game 61
    drew 62 (the first, every second game, and the peak between two of them)."""
    peak = total // 2 + 1
    with app.app_context(), scope.household(family_id(app)):
        ann = Player(name="Ann", name_key="ann")
        db.session.add(ann)
        db.session.flush()
        for games in range(1, total + 1):
            # Up by a tenth a game to the peak, then down as fast.
            mu = 25 + 0.1 * (games if games <= peak else 2 * peak - games)
            db.session.add(
                RatingStep(
                    game_id=games,
                    player_id=ann.id,
                    pool=rating_model.ALL,
                    started=FIRST + timedelta(hours=games),
                    mu=mu,
                    sigma=1.0,
                    games=games,
                    change=0.1,
                )
            )
        db.session.add(
            PlayerRating(
                player_id=ann.id,
                pool=rating_model.ALL,
                pool_name=rating_model.ALL_NAME,
                mu=mu,
                sigma=1.0,
                shown=mu - 3,
                games=total,
            )
        )
        db.session.commit()
        ann_id = ann.id
        db.session.remove()
    with app.test_request_context(), scope.household(family_id(app)):
        chart = rating_chart.course(ann_id, "Ann")
        db.session.remove()
    assert chart is not None
    drawn = [mark.games for mark in chart.marks]
    assert len(drawn) <= 60, len(drawn)
    assert drawn[0] == 1 and drawn[-1] == total and chart.peak.games == peak in drawn
    # The line, and the table beside it, draw the marks.
    assert chart.path.count(" L") == len(drawn) - 1


def test_no_number_shows_a_signed_zero(app: Flask, client: FlaskClient) -> None:
    assert decimal(-0.04) == "0.0" and decimal(-0.06) == "-0.1" and decimal(0.04) == "0.0"
    _win(app, ["Ann", "Ben"], "Ann", FIRST)
    with app.app_context(), scope.household(family_id(app)):
        db.session.execute(
            update(PlayerRating).where(PlayerRating.pool == rating_model.ALL).values(shown=-0.03)
        )
        db.session.commit()
        db.session.remove()
    page = client.get("/players").get_data(as_text=True)
    assert "-0.0" not in page and "\u22120.0" not in page
    assert ">0.0 <" in page or ">0.0<" in page


def test_counts_agree_in_number(app: Flask, client: FlaskClient) -> None:
    assert quantity(1, "game") == "1 game" and quantity(1204, "game") == "1,204 games"
    _win(app, ["Ann", "Ben"], "Ann", FIRST)
    found = _review(app, 2024)
    assert _sentence(found, "Most wins") == "Ann won the most: 1 win (of 1 game)."
    page = client.get("/review/2024").get_data(as_text=True)
    assert "1 finished game and 7 rounds in 2024" in page and "1 games" not in page
    season = client.get("/seasons?year=2024").get_data(as_text=True)
    assert "of 1 game<" in season and "1 games" not in season
    assert "of 1 game<" in client.get("/records").get_data(as_text=True)


# --- 2. years as families count them -------------------------------------------------------------


def test_the_years_are_those_played_and_the_default_has_a_finished_game(
    app: Flask, client: FlaskClient
) -> None:
    _win(app, ["Ann", "Ben"], "Ann", datetime(2016, 6, 1, 18, tzinfo=UTC))
    _win(app, ["Ann", "Ben"], "Ben", datetime(2024, 6, 1, 18, tzinfo=UTC))
    # A game started in 2026 and not finished.
    _play(app, ["Ann", "Ben"], [("Ann", {"Ben": "K"})] * 2, datetime(2026, 1, 2, 18, tzinfo=UTC))
    page = client.get("/seasons").get_data(as_text=True)
    assert "Season 2024" in page  # the latest year with a finished game
    years = page.split('aria-label="Seasons by year"')[1].split("</nav>")[0]
    assert "2026" in years and "2024" in years and "2016" in years
    for empty in range(2017, 2024):
        assert str(empty) not in years
        assert client.get(f"/review/{empty}").status_code == 404
    assert client.get("/review/2026").status_code == 200
    assert 'href="/review/2024"' in client.get("/history").get_data(as_text=True)


# --- 3. evenings, and figures side by side counting the same games -------------------------------


def test_the_headline_counts_the_finished_games_the_figures_count(
    app: Flask, client: FlaskClient
) -> None:
    _win(app, ["Ann", "Ben"], "Ann", FIRST)
    _win(app, ["Ann", "Ben"], "Ann", FIRST + timedelta(days=1))
    _play(app, ["Ann", "Ben"], [("Ann", {"Ben": "K"})] * 3, FIRST + timedelta(days=2))
    _play(
        app,
        ["Ann", "Ben"],
        [("Ann", {"Ben": "K"})] * 2,
        FIRST + timedelta(days=3),
        abandoned=True,
    )
    found = _review(app, 2024)
    assert (found.games, found.finished, found.rounds, found.unfinished) == (4, 2, 14, 2)
    page = client.get("/review/2024").get_data(as_text=True)
    assert "2 finished games and 14 rounds in 2024" in page
    assert "2 not finished (abandoned, or still being played)" in page
    assert "Ann and Ben played the most: 2 finished games each." in page
    how = page.split("How these are counted")[1].split("</details>")[0]
    for figure in ("Most games", "Busiest evening", "Hardest contract", "Rating leader"):
        assert figure in how
    assert "finished games only" in how


def test_points_a_round_counts_the_finished_games_games_and_wins_count(
    app: Flask, client: FlaskClient
) -> None:
    _win(app, ["Ann", "Ben"], "Ann", FIRST)  # Ben: 7 rounds of a king, 70 points
    # An abandoned game in which Ben held 50 points a round.
    _play(app, ["Ann", "Ben"], [("Ann", {"Ben": "K K K K K"})] * 2, FIRST, abandoned=True)
    page = client.get(f"/players/{_player_id(app, 'Ben')}").get_data(as_text=True)
    stats = page.split('<dl class="stat-grid">')[1].split("</dl>")[0]
    assert "<dt>Games</dt><dd>1</dd>" in stats
    assert "<dt>Points a round</dt><dd>10.0</dd>" in stats
    assert "count finished games only" in page


def _twelve_step(made_first: bool) -> list[Any]:
    """12-Step: Ann goes out of round 1 (Ben holds a king, and makes his contract if
    ``made_first``), then Ben goes out of every round until one of them has made all twelve
    while Ann holds a king (and makes hers where Ben made his in round 1, so that both make
    twelve and points decide)."""
    first = ("Ann", {"Ben": "K"}, {"Ben"} if made_first else set())
    rest = [("Ben", {"Ann": "K"}, {"Ann"} if made_first else set())] * (11 if made_first else 12)
    return [first, *rest]


def test_a_contract_games_comeback_is_told_in_contracts(app: Flask, client: FlaskClient) -> None:
    game_id = _play(app, ["Ann", "Ben"], _twelve_step(False), FIRST, rules="twelve-step")
    found = _review(app, 2024)
    assert found.comeback is not None and found.comeback.game_id == game_id
    assert (found.comeback.contracts_behind, found.comeback.points_behind) == (1, 10)
    sentence = _sentence(found, "Biggest comeback", app)
    assert sentence.startswith("Ben was 1 contract behind Ann after round 1, and won")
    assert "point" not in sentence


def test_a_contract_games_comeback_names_points_where_they_decided_it(app: Flask) -> None:
    _play(app, ["Ann", "Ben"], _twelve_step(True), FIRST, rules="twelve-step")
    found = _review(app, 2024)
    assert found.comeback is not None and found.comeback.contracts_behind == 0
    sentence = _sentence(found, "Biggest comeback", app)
    assert sentence.startswith("Ben was 10 points behind Ann, level on contracts, after round 1")


# --- 4. the rating leader over everyone rated at the year's end ---------------------------------


def test_the_rating_leader_is_the_best_of_everyone_rated_at_the_years_end(
    app: Flask, client: FlaskClient
) -> None:
    # Ann wins six in 2023 and plays no more; in 2024 Ben and Cy share two games.
    for n in range(6):
        _win(app, ["Ann", "Ben"], "Ann", datetime(2023, 3, 1 + n, 18, tzinfo=UTC))
    _win(app, ["Ben", "Cy"], "Cy", datetime(2024, 3, 1, 18, tzinfo=UTC))
    _win(app, ["Ben", "Cy"], "Cy", datetime(2024, 3, 2, 18, tzinfo=UTC))
    found = _review(app, 2024)
    assert found.leader is not None and found.leader.name == "Ann"
    assert found.leader.games == 0 and not found.leader.provisional
    assert _sentence(found, "Rating leader").startswith("Ann ended the year with the best rating")
    assert "no game in 2024" in _sentence(found, "Rating leader")
    # The climb is over the year, among those who played in it.
    assert found.climber is not None and found.climber.name == "Cy"
    # A year whose only game is not finished still has its leader.
    _play(app, ["Ben", "Cy"], [("Ben", {"Cy": "K"})], datetime(2025, 3, 1, 18, tzinfo=UTC))
    later = _review(app, 2025)
    assert later.finished == 0 and later.leader is not None and later.leader.name == "Ann"
    assert "Rating leader" in client.get("/review/2025").get_data(as_text=True)
