"""Seasons (``scorekeeper.history.seasons``): a year or any range of days, in the household's
time zone, with its ratings and records."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper import scope
from scorekeeper.derived import RatingStep
from scorekeeper.extensions import db
from scorekeeper.games.transfer import import_game
from scorekeeper.history import rating_model, seasons

from ..conftest import family_id, household_id, signed_in
from ..helpers import game_document
from .test_kept_stats import _named

NEW_YORK = "America/New_York"


def _import(app: Flask, table: list[str], winner: str, started: datetime) -> None:
    rounds = [(winner, {n: "K Q" for n in table if n != winner}, set()) for _ in range(7)]
    document = game_document("contract-rummy", table, rounds, started=started.isoformat())
    with app.app_context(), scope.household(family_id(app)):
        import_game(document)
        db.session.remove()


def _history(app: Flask) -> None:
    # 2024: Ann wins three, Ben one; 2025: Ben wins two.
    for day, winner in ((3, "Ann"), (4, "Ann"), (5, "Ann"), (6, "Ben")):
        _import(app, ["Ann", "Ben"], winner, datetime(2024, 3, day, 18, tzinfo=UTC))
    for day in (1, 2):
        _import(app, ["Ann", "Ben", "Cy"], "Ben", datetime(2025, 5, day, 18, tzinfo=UTC))


def test_a_year_shows_its_own_records_and_the_years_played(app: Flask, client: FlaskClient) -> None:
    _history(app)
    page = client.get("/seasons?year=2024").get_data(as_text=True)
    assert "Season 2024" in page
    assert (
        'href="/seasons?year=2025"' in page and '<strong aria-current="page">2024</strong>' in page
    )
    wins = page.split("<h3>Most wins</h3>")[1].split("</ol>")[0]
    assert ">Ann</a> <strong>3</strong>" in wins and ">Ben</a> <strong>1</strong>" in wins
    assert ">Cy<" not in page.split("<h2>Ratings</h2>")[1]
    assert "since=2024-01-01" in page and "until=2024-12-31" in page
    later = client.get("/seasons?year=2025").get_data(as_text=True)
    wins = later.split("<h3>Most wins</h3>")[1].split("</ol>")[0]
    assert ">Ben</a> <strong>2</strong>" in wins and ">Ann<" not in wins
    # Without a year: the latest one played.
    assert "Season 2025" in client.get("/seasons").get_data(as_text=True)
    # A year nobody played in is no season (as it has no review).
    assert client.get("/seasons?year=2023").status_code == 404


def test_a_seasons_climb_is_its_rating_at_the_end_less_before_its_first_game(
    app: Flask, client: FlaskClient
) -> None:
    _history(app)
    household = family_id(app)
    with app.app_context(), scope.household(household):
        ids = {name: pid for pid, name in _named(app, household)}
        found = {r.name: r for r in seasons.ratings(seasons.year(2025))}
        steps = db.session.execute(
            select(RatingStep.started, RatingStep.mu, RatingStep.sigma)
            .where(RatingStep.player_id == ids["Ann"], RatingStep.pool == rating_model.ALL)
            .order_by(RatingStep.started)
        ).all()
        db.session.remove()
    before = [rating_model.shown(mu, sigma) for started, mu, sigma in steps if started.year == 2024]
    after = [rating_model.shown(mu, sigma) for started, mu, sigma in steps if started.year == 2025]
    assert found["Ann"].climb == pytest.approx(after[-1] - before[-1])
    assert found["Ann"].shown == pytest.approx(after[-1])
    assert (found["Ann"].games, found["Ann"].rests_on) == (2, 6)
    assert found["Cy"].provisional and found["Cy"].games == 2
    assert found["Ben"].climb > 0 > found["Ann"].climb


def test_a_season_is_counted_in_the_households_time_zone(app: Flask, client: FlaskClient) -> None:
    # 02:00 UTC on 1 January 2025 is the evening of 31 December 2024 in New York.
    _import(app, ["Ann", "Ben"], "Ann", datetime(2025, 1, 1, 2, tzinfo=UTC))
    assert client.post("/household", data={"time_zone": NEW_YORK}).status_code in (200, 303)
    page = client.get("/seasons?year=2024").get_data(as_text=True)
    assert ">Ann</a> <strong>1</strong>" in page
    # No game was started in 2025 in New York: no season 2025 there.
    assert client.get("/seasons?year=2025").status_code == 404


def test_any_range_of_days(app: Flask, client: FlaskClient) -> None:
    _history(app)
    page = client.get("/seasons?since=2024-03-05&until=2025-05-01").get_data(as_text=True)
    assert "Season 5 Mar 2024 to 1 May 2025" in page
    games = page.split("<h3>Most games played</h3>")[1].split("</ol>")[0]
    assert ">Ann</a> <strong>3</strong>" in games and ">Cy</a> <strong>1</strong>" in games
    open_ended = client.get("/seasons?since=2025-01-01").get_data(as_text=True)
    assert "Season since 1 Jan 2025" in open_ended


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("year=abc", "Type a year like 2025."),
        ("year=0", "Type a year like 2025."),
        ("year=99999999999999999999", "Type a year like 2025."),
        ("since=2025-13-01", "Type a date like 2025-12-24."),
        ("since=2025-05-01&until=2025-04-01", "The end date is before the start date."),
    ],
)
def test_a_bad_season_is_refused_at_the_field(
    client: FlaskClient, query: str, message: str
) -> None:
    answer = client.get(f"/seasons?{query}")
    assert answer.status_code == 422
    assert message in answer.get_data(as_text=True)


# --- a season kept under the household's data version -------------------------------------------


def _wins(page: str) -> str:
    return page.split("<h3>Most wins</h3>")[1].split("</ol>")[0]


def _without_token(page: str) -> str:
    """The page without its CSRF token, which is signed with the second it was made in."""
    return re.sub(r'"X-CSRFToken": "[^"]*"', "", page)


def test_a_season_is_computed_once_per_data_version(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    _history(app)
    made: list[seasons.Season] = []
    records = seasons.records

    def counted(season: seasons.Season) -> seasons.Records:
        made.append(season)
        return records(season)

    monkeypatch.setattr(seasons, "records", counted)
    first = _without_token(client.get("/seasons?year=2024").get_data(as_text=True))
    assert "Most wins" in first
    assert _without_token(client.get("/seasons?year=2024").get_data(as_text=True)) == first
    assert client.get("/seasons?year=2025").status_code == 200
    assert made == [seasons.year(2024), seasons.year(2025)]
    # A new game moves the data version: the season is made again, with it.
    _import(app, ["Ann", "Ben"], "Ben", datetime(2024, 6, 1, 18, tzinfo=UTC))
    again = client.get("/seasons?year=2024").get_data(as_text=True)
    assert len(made) == 3
    assert ">Ben</a> <strong>2</strong>" in _wins(again)


def test_a_kept_season_follows_every_change(app: Flask, client: FlaskClient) -> None:
    _history(app)
    household = family_id(app)
    assert ">Ann</a> <strong>3</strong>" in _wins(client.get("/seasons?year=2024").text)
    assert client.get("/seasons?year=2023").status_code == 404  # nobody played in 2023
    # Renamed, the player is shown by the new name.
    ids = {name: pid for pid, name in _named(app, household)}
    renamed = client.post(f"/players/{ids['Ann']}/rename", data={"name": "Anna"})
    assert renamed.status_code in (302, 303), renamed.text
    page = client.get("/seasons?year=2024").text
    assert ">Anna</a> <strong>3</strong>" in _wins(page) and ">Ann</a>" not in page
    # In the bin, a game no longer counts.
    with app.app_context(), scope.household(household):
        first = db.session.scalar(select(RatingStep.game_id).order_by(RatingStep.started))
        db.session.remove()
    assert client.post(f"/games/{first}/delete").status_code in (302, 303)
    assert ">Anna</a> <strong>2</strong>" in _wins(client.get("/seasons?year=2024").text)
    # Another time zone moves a game across the new year.
    _import(app, ["Ann", "Ben"], "Ben", datetime(2024, 1, 1, 2, tzinfo=UTC))
    assert client.get("/seasons?year=2023").status_code == 404  # in UTC, still 2024
    assert client.post("/household", data={"time_zone": NEW_YORK}).status_code in (200, 303)
    assert ">Ben</a> <strong>1</strong>" in _wins(client.get("/seasons?year=2023").text)


def test_a_kept_season_is_its_households_own(app: Flask, client: FlaskClient) -> None:
    _history(app)
    assert ">Ann</a>" in client.get("/seasons?year=2024").text
    others = signed_in(app, "zed", household="Others")
    # The same history, by other names.
    rounds = [("Zed", {"Yan": "K Q"}, set()) for _ in range(7)]
    for day in (3, 4, 5, 6):
        started = datetime(2024, 3, day, 18, tzinfo=UTC).isoformat()
        document = game_document("contract-rummy", ["Zed", "Yan"], rounds, started=started)
        with app.app_context(), scope.household(household_id(app, "Others")):
            import_game(document)
            db.session.remove()
    page = others.get("/seasons?year=2024").text
    assert ">Zed</a> <strong>4</strong>" in _wins(page)
    assert "Ann" not in page and "Ben" not in page
    assert ">Ann</a> <strong>3</strong>" in _wins(client.get("/seasons?year=2024").text)
