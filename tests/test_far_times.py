"""A stored time the household's zone cannot show (issue 36, finding 1).

Every way a game's start comes in (an upload, ``flask game import``, a backup restored by
``flask history import``) refuses one outside ``limits.EARLIEST_TIME`` to ``LATEST_TIME`` with
a message naming the field (and the line), and stores nothing. The extremes it takes are shown
on every page of the household, its watch link and the rounds CSV under the zones at both ends
(UTC-12 and UTC+14); a time stored before the check (one far outside) is shown in UTC, and the
game can still be removed from the history that lists it.
"""

from __future__ import annotations

import dataclasses
import io
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import func, select, update

from scorekeeper import local_time, scope
from scorekeeper.accounts import links
from scorekeeper.extensions import db
from scorekeeper.models import Game, Household, LinkKind

from .conftest import family_id
from .helpers import game_document, twelve_step_to_the_end
from .test_hostile import _SEEDS, GONE, ROUTES, _endpoints, check, seeded

EARLIEST_TIME = datetime(1900, 1, 1, tzinfo=UTC)  # limits.EARLIEST_TIME
LATEST_TIME = datetime(2200, 1, 1, tzinfo=UTC)  # limits.LATEST_TIME, the first refused
WEST, EAST = "Etc/GMT+12", "Pacific/Kiritimati"  # UTC-12 and UTC+14
FIRST = "1900-01-01T00:00:00+00:00"
LAST = "2199-12-31T23:59:59+00:00"
OUTSIDE = [
    "1899-12-31T23:59:59+00:00",
    "2200-01-01T00:00:00+00:00",
    "2199-12-31T20:00:00-12:00",  # 2200 in UTC
    "9999-12-31T23:00:00+00:00",
    "0001-01-01T00:00:00+00:00",
    "9999-12-31T23:59:59-12:00",  # no UTC time at all
]


@pytest.fixture(autouse=True)
def _forget_seeds() -> Iterator[None]:
    """The walker's seeds are kept by the app's id, which a later test's app may take."""
    yield
    _SEEDS.clear()


def _file(started: str, players: tuple[str, ...] = ("Ann", "Ben", "Cy")) -> dict[str, object]:
    return game_document(
        "twelve-step", list(players), twelve_step_to_the_end(list(players)), started=started
    )


def _games(app: Flask) -> int:
    with app.app_context(), scope.household(family_id(app)):
        count = db.session.scalar(select(func.count()).select_from(Game))
        db.session.remove()
    return int(count or 0)


def _set_zone(app: Flask, zone: str) -> None:
    with app.app_context():
        db.session.execute(update(Household).values(time_zone=zone))
        db.session.commit()
        db.session.remove()


@pytest.mark.parametrize("started", OUTSIDE)
def test_an_upload_refuses_a_start_outside_the_years_at_the_field(
    app: Flask, client: FlaskClient, started: str
) -> None:
    raw = json.dumps(_file(started)).encode()
    response = client.post("/games/import", data={"file": (io.BytesIO(raw), "far.json")})
    assert response.status_code == 422
    assert f"&#34;started&#34; (&#39;{started}&#39;) is outside the years 1900 to 2199" in (
        response.get_data(as_text=True)
    )
    assert _games(app) == 0


@pytest.mark.parametrize("started", [OUTSIDE[0], OUTSIDE[3]])
def test_game_import_refuses_a_start_outside_the_years(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path, started: str
) -> None:
    path = tmp_path / "far.json"
    path.write_text(json.dumps(_file(started)))
    result = runner.invoke(args=["game", "import", str(path)])
    assert result.exit_code == 1
    assert f"\"started\" ('{started}') is outside the years 1900 to 2199" in result.output
    assert _games(app) == 0


def test_history_import_refuses_the_lines_outside_the_years_by_number(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    lines = [_file(FIRST), _file(OUTSIDE[1]), _file(LAST, ("Dee", "Eve")), _file(OUTSIDE[4])]
    path = tmp_path / "backup.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = runner.invoke(args=["history", "import", str(path), "--household", "Family"])
    assert result.exit_code == 1
    assert f"line 2: \"started\" ('{OUTSIDE[1]}') is outside the years 1900 to 2199" in (
        result.output
    )
    assert f"line 4: \"started\" ('{OUTSIDE[4]}') is outside the years 1900 to 2199" in (
        result.output
    )
    assert "Stored 2 games" in result.output
    with app.app_context(), scope.household(family_id(app)):
        kept = sorted(db.session.scalars(select(Game.started)))
        db.session.remove()
    assert kept == [EARLIEST_TIME, datetime(2199, 12, 31, 23, 59, 59, tzinfo=UTC)]


def _walk(
    app: Flask, client: FlaskClient, far: tuple[int, ...], token: str, years: tuple[int, ...]
) -> None:
    """Every GET address of the hostile walker's map, its game pages on the far games, and the
    far games' watch link: no 5xx, every page whole, the CSV read to its end. ``years``: those
    the far games were played in, in the household's zone (each has a review and a season)."""
    seeds = seeded(app, client)
    seeds = dataclasses.replace(
        seeds,
        playing=far[0],
        finished=far[1],
        abandoned=far[-1],
        tokens={**seeds.tokens, "watch": token},
    )
    for endpoint in [*_endpoints(app, "GET"), "static"]:
        urls = ROUTES[endpoint](seeds)
        if endpoint in ("history.review_page", "history.season"):
            urls += [f"/review/{y}" for y in years] + [f"/seasons?year={y}" for y in years]
        for url in urls:
            for headers in ({}, {"HX-Request": "true"}):
                response = client.get(url, headers=headers)
                check(response, f"GET {url} {headers}")
                if endpoint not in GONE:
                    assert response.status_code < 400, f"GET {url}: {response.status_code}"
    rows = client.get("/history/rounds.csv").get_data(as_text=True).splitlines()
    assert len(rows) > 1 + 2 * 12 * 3


@pytest.mark.parametrize("zone", [WEST, EAST])
def test_the_extremes_show_on_every_page_in_the_zones_at_both_ends(
    app: Flask, client: FlaskClient, zone: str
) -> None:
    _set_zone(app, zone)
    far = []
    for started in (FIRST, LAST):
        raw = json.dumps(_file(started)).encode()
        response = client.post("/games/import", data={"file": (io.BytesIO(raw), "far.json")})
        assert response.status_code in (302, 303), response.get_data(as_text=True)
        far.append(int(response.headers["Location"].rstrip("/").rsplit("/", 1)[-1]))
    with app.test_request_context(), scope.household(family_id(app)):
        game = db.session.get(Game, far[1])
        _, token = links.make_link(LinkKind.WATCH, "owner", game=game)
        db.session.remove()
    # A year is the household's: in UTC-12 the first game was played in 1899, and in UTC+14
    # the last in 2200 (a year with no game has no review: issue 37).
    years = tuple(
        datetime.fromisoformat(each).astimezone(ZoneInfo(zone)).year for each in (FIRST, LAST)
    )
    _walk(app, client, tuple(far), token, years)
    # 1900 began in UTC-12 (and in Kiritimati, then at UTC-10:40) on the last day of 1899.
    assert "31 Dec 1899" in client.get("/history").get_data(as_text=True)


@pytest.mark.parametrize(
    ("zone", "stored"),
    [
        (EAST, datetime(9999, 12, 31, 23, tzinfo=UTC)),
        (WEST, datetime(1, 1, 1, tzinfo=UTC)),
        (WEST, datetime(9999, 12, 31, 23, tzinfo=UTC)),
        (EAST, datetime(1, 1, 1, tzinfo=UTC)),
    ],
)
def test_a_time_stored_before_the_check_shows_and_its_game_can_be_removed(
    app: Flask, client: FlaskClient, zone: str, stored: datetime
) -> None:
    """As older data would hold it: written straight into the table."""
    _set_zone(app, zone)
    raw = json.dumps(_file(FIRST)).encode()
    response = client.post("/games/import", data={"file": (io.BytesIO(raw), "far.json")})
    far = int(response.headers["Location"].rstrip("/").rsplit("/", 1)[-1])
    with app.test_request_context(), scope.household(family_id(app)):
        db.session.execute(update(Game).where(Game.id == far).values(started=stored))
        db.session.commit()
        game = db.session.get(Game, far)
        _, token = links.make_link(LinkKind.WATCH, "owner", game=game)
        db.session.remove()
    _walk(app, client, (far, far), token, ())
    # Its year is no year the app can count in (issue 37: a review only for a year played in
    # the range a game may start in): the review says so, the season page answers.
    for url in (f"/review/{stored.year}", f"/seasons?year={stored.year}"):
        check(client.get(url), f"GET {url}")
    # Shown as stored, in UTC, on the page of the game and in the history that lists it.
    assert stored.strftime("%b %Y").lstrip() in client.get(f"/games/{far}").get_data(as_text=True)
    history = client.get("/history").get_data(as_text=True)
    assert f"/games/{far}" in history
    removed = client.post(f"/games/{far}/delete", data={"confirm": "yes"})
    assert removed.status_code in (302, 303)
    assert f'/games/{far}"' not in client.get("/history").get_data(as_text=True)
    check(client.get("/bin"), "GET /bin")


@pytest.mark.parametrize("zone", [WEST, EAST])
def test_local_never_raises_for_any_time_a_column_can_hold(
    app: Flask, zone: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(local_time, "zone", lambda: local_time.zone_named(zone))
    with app.test_request_context():
        for moment in (datetime.min, datetime.max, EARLIEST_TIME, LATEST_TIME):
            aware = moment.replace(tzinfo=UTC)
            try:
                expected = aware.astimezone(local_time.zone_named(zone))
            except OverflowError:
                expected = aware  # past the years a datetime holds there: shown in UTC
            assert local_time.local(aware).isoformat() == expected.isoformat()
            assert local_time.day_time(aware)
