"""Local time: every date and time is shown in the household's zone, and the history's days
are its days; times are stored in UTC, and the owner alone sets the zone."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, update

from scorekeeper import local_time, scope
from scorekeeper.extensions import db
from scorekeeper.games.transfer import import_game
from scorekeeper.models import Game, GameEvent, Household, Link

from .conftest import HOUSEHOLD, family_id, signed_in
from .helpers import game_document, twelve_step_to_the_end

# A family in New York plays in the evening of 20 November: in UTC it is the 21st by then.
STARTED = datetime(2026, 11, 21, 1, 0, tzinfo=UTC)  # 20:00 in New York
ENDED = datetime(2026, 11, 21, 2, 30, tzinfo=UTC)  # 21:30 in New York
EVENING = "20 Nov 2026"
NEXT_DAY = "21 Nov 2026"
NEW_YORK = "America/New_York"


def evening_game(app: Flask) -> int:
    """A finished game of the family's, started at 01:00 UTC and ended (its log too) at
    02:30 UTC."""
    document = game_document(
        "twelve-step",
        ["Ann", "Ben", "Cy"],
        twelve_step_to_the_end(),
        started=STARTED.isoformat(),
    )
    with app.app_context(), scope.household(family_id(app)):
        game_id = import_game(document).id
        db.session.execute(update(Game).where(Game.id == game_id).values(ended=ENDED))
        db.session.execute(update(GameEvent).where(GameEvent.game_id == game_id).values(at=ENDED))
        db.session.commit()
        db.session.remove()
    return game_id


def choose_zone(client: FlaskClient, name: str) -> None:
    answer = client.post("/household", data={"time_zone": name})
    assert answer.status_code == 303, answer.get_data(as_text=True)


def zone_of_family(app: Flask) -> str | None:
    with app.app_context():
        chosen = db.session.scalar(select(Household.time_zone).where(Household.name == HOUSEHOLD))
        db.session.remove()
    return chosen


@pytest.fixture
def evening(app: Flask, client: FlaskClient) -> int:
    game_id = evening_game(app)
    choose_zone(client, NEW_YORK)
    return game_id


# --- what the family sees ---------------------------------------------------------------------


def test_the_board_dates_an_evening_game_on_its_evening(client: FlaskClient, evening: int) -> None:
    page = client.get(f"/games/{evening}").get_data(as_text=True)
    assert f"started {EVENING}" in page and NEXT_DAY not in page
    assert "20 Nov 21:30" in page  # the change log's times
    assert 'datetime="2026-11-20T21:30:00-05:00"' in page


def test_the_result_card_and_the_preview_date_the_evening(
    client: FlaskClient, evening: int
) -> None:
    from scorekeeper.games.card import result_card

    head = client.get(f"/games/{evening}").get_data(as_text=True).split("</head>")[0]
    assert f"· {EVENING} · 12 rounds played" in head and NEXT_DAY not in head
    app = client.application
    with app.test_request_context(), scope.household(family_id(app)):
        words, png = result_card(evening, with_png=True)
    assert EVENING in words.subline and NEXT_DAY not in words.subline
    assert png is not None and png.startswith(b"\x89PNG")


def test_the_history_dates_it_and_its_days_are_the_familys(
    client: FlaskClient, evening: int
) -> None:
    page = client.get("/history").get_data(as_text=True)
    assert EVENING in page and NEXT_DAY not in page
    that_evening = client.get("/history?since=2026-11-20&until=2026-11-20").get_data(as_text=True)
    assert f"/games/{evening}" in that_evening
    next_day = client.get("/history?since=2026-11-21&until=2026-11-21").get_data(as_text=True)
    assert f"/games/{evening}" not in next_day
    # "From" the next day alone, and "to" the day before, leave it out too.
    assert f"/games/{evening}" not in client.get("/history?since=2026-11-21").get_data(as_text=True)
    assert f"/games/{evening}" in client.get("/history?until=2026-11-20").get_data(as_text=True)
    assert f"/games/{evening}" not in client.get("/history?until=2026-11-19").get_data(as_text=True)


def test_the_rounds_csv_gives_local_times(client: FlaskClient, evening: int) -> None:
    answer = client.get("/history/rounds.csv")
    assert answer.status_code == 200
    rows = list(csv.DictReader(io.StringIO(answer.get_data(as_text=True))))
    assert rows and {row["started"] for row in rows} == {"2026-11-20T20:00:00-05:00"}


def test_the_players_and_records_pages_date_the_evening(client: FlaskClient, evening: int) -> None:
    players = client.get("/players").get_data(as_text=True)
    assert EVENING in players and NEXT_DAY not in players
    records = client.get("/records").get_data(as_text=True)
    assert NEXT_DAY not in records


def test_the_members_and_links_pages_give_local_times(
    app: Flask, client: FlaskClient, evening: int
) -> None:
    assert client.post("/members/invite", data={"role": "viewer"}).status_code in (200, 303)
    assert client.post(f"/games/{evening}/links", data={"kind": "watch"}).status_code == 303
    with app.app_context():
        db.session.execute(update(Link).values(created_at=ENDED))
        db.session.commit()
        db.session.remove()
    members = client.get("/members").get_data(as_text=True)
    assert "20 Nov 2026 21:30" in members and NEXT_DAY not in members
    links = client.get(f"/games/{evening}/links").get_data(as_text=True)
    assert f"started {EVENING}" in links and "20 Nov 2026 21:30" in links
    assert "UTC" not in links


def test_the_home_page_dates_a_game_in_progress_on_its_evening(
    app: Flask, client: FlaskClient
) -> None:
    document = game_document("twelve-step", ["Ann", "Ben"], [], started=STARTED.isoformat())
    with app.app_context(), scope.household(family_id(app)):
        import_game(document)
        db.session.remove()
    choose_zone(client, NEW_YORK)
    page = client.get("/").get_data(as_text=True)
    assert f"started {EVENING}" in page


def test_in_utc_the_same_game_is_dated_the_next_day(app: Flask, client: FlaskClient) -> None:
    game_id = evening_game(app)
    assert f"started {NEXT_DAY}" in client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f"/games/{game_id}" in client.get("/history?since=2026-11-21&until=2026-11-21").get_data(
        as_text=True
    )


# --- stored times stay UTC, and the game file is as the spec says ------------------------------


def test_stored_times_and_the_game_file_stay_utc(
    app: Flask, client: FlaskClient, evening: int
) -> None:
    with app.app_context():
        assert db.session.get(Game, evening).started == STARTED
        db.session.remove()
    document = client.get(f"/games/{evening}/export").get_json()
    assert document["started"] == "2026-11-21T01:00:00+00:00"
    assert "time_zone" not in document


# --- a change of zone shows at once, wherever a page was kept -----------------------------------


def test_a_new_zone_redraws_kept_boards_pages_and_files(app: Flask, client: FlaskClient) -> None:
    game_id = evening_game(app)
    board = client.get(f"/games/{game_id}")
    history = client.get("/history")
    rounds = client.get("/history/rounds.csv")
    assert f"started {NEXT_DAY}" in board.get_data(as_text=True)
    choose_zone(client, NEW_YORK)
    again = client.get(f"/games/{game_id}", headers={"If-None-Match": board.headers["ETag"]})
    assert again.status_code == 200 and f"started {EVENING}" in again.get_data(as_text=True)
    again = client.get("/history", headers={"If-None-Match": history.headers["ETag"]})
    assert again.status_code == 200 and EVENING in again.get_data(as_text=True)
    again = client.get("/history/rounds.csv", headers={"If-None-Match": rounds.headers["ETag"]})
    assert again.status_code == 200 and "-05:00" in again.get_data(as_text=True)


# --- who sets it, and what is refused -----------------------------------------------------------


def test_the_owner_sets_the_zone_from_the_members_page(app: Flask, client: FlaskClient) -> None:
    members = client.get("/members").get_data(as_text=True)
    assert 'href="/household"' in members
    form = client.get("/household").get_data(as_text=True)
    assert "The server&#39;s (UTC)" in form and 'value="America/New_York"' in form
    choose_zone(client, NEW_YORK)
    assert zone_of_family(app) == NEW_YORK
    form = client.get("/household").get_data(as_text=True)
    assert '<option selected value="America/New_York">' in form
    assert "in America/New_York now" in form
    choose_zone(client, "")  # back to the server's
    assert zone_of_family(app) is None


@pytest.mark.parametrize("role", ["scorer", "viewer"])
def test_a_scorer_or_a_viewer_cannot_set_it(app: Flask, client: FlaskClient, role: str) -> None:
    member = signed_in(app, f"a-{role}", role)
    assert member.get("/household").status_code == 403
    refused = member.post("/household", data={"time_zone": NEW_YORK})
    assert refused.status_code == 403 and "does not allow" in refused.get_data(as_text=True)
    assert zone_of_family(app) is None


@pytest.mark.parametrize(
    "name", ["Mars/Olympus_Mons", "america/new_york", "../../etc/passwd", "X" * 5000, "Local"]
)
def test_an_unknown_zone_is_refused_at_its_field(
    app: Flask, client: FlaskClient, name: str
) -> None:
    answer = client.post("/household", data={"time_zone": name})
    assert answer.status_code == 422
    page = answer.get_data(as_text=True)
    assert "is not a time zone: choose one from the list" in page
    assert 'aria-invalid="true"' in page and 'id="time_zone-error"' in page
    assert len(page) < 200_000
    assert zone_of_family(app) is None


def test_another_households_owner_sets_only_their_own(app: Flask, client: FlaskClient) -> None:
    other = signed_in(app, "olga", "owner", household="Others")
    choose_zone(other, "Asia/Tokyo")
    assert zone_of_family(app) is None
    with app.app_context():
        assert (
            db.session.scalar(select(Household.time_zone).where(Household.name == "Others"))
            == "Asia/Tokyo"
        )
        db.session.remove()


# --- the server's zone, and days at the edges ---------------------------------------------------


def test_the_servers_zone_is_the_default(database_uri: str, instance_path: object) -> None:
    from scorekeeper import create_app

    from .conftest import FAST_PASSWORDS

    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_uri,
            "WTF_CSRF_ENABLED": False,
            "TIME_ZONE": NEW_YORK,
            **FAST_PASSWORDS,
        }
    )
    try:
        client = signed_in(app, "owner")
        game_id = evening_game(app)
        assert f"started {EVENING}" in client.get(f"/games/{game_id}").get_data(as_text=True)
        assert "The server&#39;s (America/New_York)" in client.get("/household").get_data(
            as_text=True
        )
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def test_a_wrong_server_zone_falls_back_to_the_machines(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(local_time, "machine_zone_name", lambda: "Europe/Berlin")
    app.config["TIME_ZONE"] = "Nowhere/Special"
    assert local_time.server_zone_name(app) == "Europe/Berlin"
    monkeypatch.setattr(local_time, "machine_zone_name", lambda: None)
    assert local_time.server_zone_name(app) == "UTC"
    app.config["TIME_ZONE"] = "Asia/Kolkata"
    assert local_time.server_zone_name(app) == "Asia/Kolkata"


@pytest.mark.parametrize(
    ("zone", "day", "starts"),
    [
        (NEW_YORK, date(2026, 11, 20), datetime(2026, 11, 20, 5, tzinfo=UTC)),
        (NEW_YORK, date(2026, 7, 1), datetime(2026, 7, 1, 4, tzinfo=UTC)),  # summer time
        ("Asia/Tokyo", date(2026, 11, 20), datetime(2026, 11, 19, 15, tzinfo=UTC)),
        # Santiago's clocks jumped from 00:00 to 01:00 that day: it began at the jump.
        ("America/Santiago", date(2024, 9, 8), datetime(2024, 9, 8, 4, tzinfo=UTC)),
        ("Asia/Tokyo", date.min, None),  # before the years a datetime holds
        (NEW_YORK, date.max, datetime(9999, 12, 31, 5, tzinfo=UTC)),
    ],
)
def test_a_day_starts_at_local_midnight(
    app: Flask, zone: str, day: date, starts: datetime | None
) -> None:
    with app.test_request_context(), scope.household(family_id(app)):
        household = db.session.scalar(select(Household).where(Household.name == HOUSEHOLD))
        household.time_zone = zone
        db.session.commit()
        assert local_time.midnight(day) == starts


@pytest.mark.parametrize("zone", ["Asia/Tokyo", "Pacific/Kiritimati", "Pacific/Pago_Pago"])
@pytest.mark.parametrize(
    "query",
    ["since=0001-01-01", "until=0001-01-01", "since=9999-12-31", "until=9999-12-30"],
)
def test_days_at_the_ends_of_the_calendar_answer(
    client: FlaskClient, evening: int, zone: str, query: str
) -> None:
    choose_zone(client, zone)
    assert client.get(f"/history?{query}").status_code == 200
