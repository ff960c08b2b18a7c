"""Past games: order, filters, pagination, fragments, and a constant number of queries."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, select

from scorekeeper.extensions import db
from scorekeeper.models import Player

from .factory import contract_rummy, day, play, twelve_step_rounds


def family(start: int, count: int) -> None:
    """``count`` games from day ``start``: alternating winners and rules, one abandoned."""
    for n in range(start, start + count):
        if n % 3 == 0:
            play(
                ["Ann", "Ben", "Cy"],
                twelve_step_rounds("Cy", {"Ann": "K", "Ben": "5"}, {2: {"Ann"}}),
                rules="twelve-step",
                started=day(n),
            )
        elif n % 5 == 0:
            play(["Ann", "Dee"], [("Dee", {"Ann": "K"})], started=day(n), abandoned=True)
        else:
            winner, other = ("Ann", "Ben") if n % 2 else ("Ben", "Ann")
            contract_rummy([winner, other], winner, {other: "K 5"}, day(n))


def test_newest_first_with_winners_and_totals(client: FlaskClient, app: Flask) -> None:
    with app.app_context():
        contract_rummy(["Ann", "Ben"], "Ann", {"Ben": "K Q"}, day(1))
        contract_rummy(["Ben", "Cy"], "Cy", {"Ben": "5"}, day(9))
    page = client.get("/history").get_data(as_text=True)
    assert page.index("9 Jan 2025") < page.index("1 Jan 2025")
    assert "Won by <strong>Cy</strong>" in page and "Won by <strong>Ann</strong>" in page
    assert '<span>Ben</span> <span class="num">140</span>' in page
    assert "Contract Rummy" in page


def test_filters_and_pages(client: FlaskClient, app: Flask) -> None:
    app.config["HISTORY_PAGE_SIZE"] = 4
    with app.app_context():
        family(1, 10)  # days 1..10: twelve-step on 3, 6, 9; abandoned on 5, 10
        dee = db.session.scalar(select(Player.id).where(Player.name == "Dee"))
    first = client.get("/history").get_data(as_text=True)
    assert "10 games, page 1 of 3" in first and 'rel="next" href="/history?page=2"' in first
    last = client.get("/history?page=3").get_data(as_text=True)
    assert "page 3 of 3" in last and "1 Jan 2025" in last
    assert "page 3 of 3" in client.get("/history?page=99").get_data(as_text=True)

    twelve = client.get("/history?rules=twelve-step").get_data(as_text=True)
    assert "3 games" in twelve and "12-Step Rummy" in twelve
    assert "2 games" in client.get(f"/history?player={dee}").get_data(as_text=True)
    assert "2 games" in client.get("/history?status=abandoned").get_data(as_text=True)
    dated = client.get("/history?since=2025-01-02&until=2025-01-04").get_data(as_text=True)
    assert "3 games" in dated and "4 Jan 2025" in dated and "1 Jan 2025" not in dated
    paged = client.get("/history?status=finished&page=2").get_data(as_text=True)
    assert 'href="/history?page=1&amp;status=finished"' in paged

    fragment = client.get("/history?rules=twelve-step", headers={"HX-Request": "true"})
    assert fragment.status_code == 200 and "<html" not in fragment.get_data(as_text=True)
    assert 'id="history-body"' in fragment.get_data(as_text=True)
    assert "HX-Request" in fragment.headers["Vary"]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("since=24/12/2025", "Type a date like 2025-12-24."),
        ("player=9999", "There is no such player"),
        ("player=abc", "There is no such player"),
        ("since=2025-02-01&until=2025-01-01", "The end date is before the start date."),
        ("status=lost", "Choose a status from the list."),
        ("rules=poker", "No game was played under those rules"),
    ],
)
def test_bad_filters_are_refused_at_the_field(
    client: FlaskClient, query: str, message: str
) -> None:
    response = client.get(f"/history?{query}")
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert message in text and 'aria-invalid="true"' in text


@contextmanager
def counted(app: Flask) -> Iterator[list[str]]:
    """The SQL statements run inside the block (the requests of a test client included)."""
    with app.app_context():
        engine = db.engine
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", count)


def pages(app: Flask) -> list[str]:
    with app.app_context():
        ann = db.session.scalar(select(Player.id).where(Player.name == "Ann"))
    return [
        "/history",
        "/history?rules=contract-rummy&status=finished",
        f"/history?player={ann}",
        "/players",
        f"/players/{ann}",
        "/records",
    ]


def test_queries_do_not_grow_with_the_games(client: FlaskClient, app: Flask) -> None:
    # Every request checks its session here: a session held from an earlier request
    # (kept under the access version) would save a query on some pages and not others.
    app.config["SESSION_CHECK_SECONDS"] = 0

    def count_each_page() -> dict[str, int]:
        counts = {}
        for url in pages(app):
            with counted(app) as statements:
                assert client.get(url).status_code == 200
            counts[url] = len(statements)
        return counts

    with app.app_context():
        family(1, 4)
    before = count_each_page()
    with app.app_context():
        family(5, 8)  # three times as many games
    assert count_each_page() == before
    assert 0 < max(before.values()) <= 12
