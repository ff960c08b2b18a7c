"""No history, players or records page reads games, rounds, seats or hands whole: every query
each page runs (with each filter) is explained by the database itself, and a full scan of one
of those tables fails the test. SQLite: ``EXPLAIN QUERY PLAN`` must not say ``SCAN games``
(with or without an index: a scan of a whole index grows with the games too); PostgreSQL:
``EXPLAIN`` with sequential scans discouraged must not say ``Seq Scan on games`` (with
tables this small it would otherwise always prefer one), after ``ANALYZE``. A search of one
of them by the household alone (and its status) reads every game of the household as surely,
and fails too:
``SEARCH games USING INDEX ... (household_id=?)``, or an ``Index Cond`` naming nothing else."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, select

from scorekeeper.extensions import db
from scorekeeper.models import Player

from ..helpers import players_of, round_form
from .factory import contract_rummy, day, play, twelve_step_rounds

# seat_stats grows with the seats; game_stats, one narrow row a game, is what an unfiltered
# history page counts and pages through by its index.
BIG_TABLES = ("games", "rounds", "seats", "hands", "seat_stats")
SQLITE_SCAN = re.compile(rf"\bSCAN ({'|'.join(BIG_TABLES)})\b")
POSTGRES_SCAN = re.compile(rf"Seq Scan on ({'|'.join(BIG_TABLES)})\b")
SQLITE_SEARCH = re.compile(rf"\bSEARCH ({'|'.join(BIG_TABLES)}) USING .*\((.*)\)")
POSTGRES_INDEX = re.compile(
    rf"(Index Scan|Index Only Scan|Bitmap Heap Scan).* on ({'|'.join(BIG_TABLES)})\b"
)
# A condition on these alone still reads every game of the household.
WHOLE_HOUSEHOLD = {"household_id", "status", "deleted_at"}


def _whole_household(condition: str) -> bool:
    columns = set(re.findall(r"(\w+)\)?\s*(?:=|<|>|IS\b)", condition))
    return bool(columns) and columns <= WHOLE_HOUSEHOLD


def full_reads(plan: str, dialect: str) -> list[str]:
    """The lines of ``plan`` that read one of the big tables whole (for the household)."""
    found = []
    lines = plan.splitlines()
    for n, line in enumerate(lines):
        if dialect == "sqlite":
            search = SQLITE_SEARCH.search(line)
            if SQLITE_SCAN.search(line) or (search and _whole_household(search.group(2))):
                found.append(line)
            continue
        if POSTGRES_SCAN.search(line):
            found.append(line)
        elif POSTGRES_INDEX.search(line):
            conditions = [
                later
                for later in lines[n + 1 : n + 4]
                if "Index Cond" in later or "Recheck Cond" in later
            ]
            if conditions and all(_whole_household(c.split(":", 1)[1]) for c in conditions):
                found.append(line)
    return found


def _games() -> None:
    table = ("Ann", "Ben", "Cy")
    for n in range(1, 13):
        winner = table[n % 3]
        held = {name: "K" for name in table if name != winner}
        contract_rummy(list(table), winner, held, day(n))
    play(
        ["Ann", "Dee"], twelve_step_rounds("Dee", {"Ann": "K"}), rules="twelve-step", started=day(9)
    )
    play(["Ann", "Ben"], [("Ben", {"Ann": "K Q"})], started=day(20))


def _pages(app: Flask) -> list[str]:
    with app.app_context():
        ann = db.session.scalar(select(Player.id).where(Player.name == "Ann"))
    return [
        "/history",
        "/history?page=2",
        f"/history?player={ann}",
        "/history?rules=twelve-step",
        "/history?status=finished",
        "/history?since=2025-01-02&until=2025-01-05",
        f"/history?player={ann}&rules=contract-rummy&status=finished&since=2025-01-01",
        "/players",
        f"/players/{ann}",
        "/records",
        "/seasons?year=2025",
        "/seasons?since=2025-01-02&until=2025-01-05",
        "/review/2025",
        "/review/2025/card.png",
    ]


def _explain(app: Flask, statement: str, parameters: Any) -> str:
    engine = db.engine
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        if engine.dialect.name == "sqlite":
            cursor.execute(f"EXPLAIN QUERY PLAN {statement}", parameters)
            return "\n".join(str(row[-1]) for row in cursor.fetchall())
        # With the tables' statistics, as autovacuum keeps them on a real server: without
        # them every index looks as good as any other on a handful of rows.
        cursor.execute("ANALYZE")
        cursor.execute("SET enable_seqscan = off")
        # Pages read at random cost what they cost on the disks a family's server has (an SSD,
        # as the PostgreSQL documentation advises for them): at the default, on a household of
        # fourteen games, reading its one page of games by the household index and filtering by
        # id costs a hair less than three look-ups by primary key, which a big household never
        # would.
        cursor.execute("SET random_page_cost = 1.1")
        cursor.execute(f"EXPLAIN {statement}", parameters)
        return "\n".join(str(row[0]) for row in cursor.fetchall())
    finally:
        raw.rollback()
        raw.close()


# A day of the history is the household's: its bounds are UTC moments all the same, compared
# with the bare column.
@pytest.mark.parametrize("zone", ["UTC", "America/New_York"])
def test_no_history_query_scans_games_rounds_seats_or_hands(
    app: Flask, client: FlaskClient, zone: str
) -> None:
    # Pages far shorter than the history: a page that holds every game reads them all.
    app.config["HISTORY_PAGE_SIZE"] = 3
    app.config["TIME_ZONE"] = zone
    with app.app_context():
        _games()
    captured: list[tuple[str, str, Any]] = []
    with app.app_context():
        engine = db.engine

    def capture(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith(("SELECT", "WITH")):
            captured.append((page, statement, parameters))

    pages = _pages(app)
    event.listen(engine, "before_cursor_execute", capture)
    try:
        for page in pages:
            answer = client.get(page)
            assert answer.status_code == 200, page
    finally:
        event.remove(engine, "before_cursor_execute", capture)
    explained = 0
    scans = []
    with app.app_context():
        for page, statement, parameters in captured:
            plan = _explain(app, statement, parameters)
            explained += 1
            if full_reads(plan, engine.dialect.name):
                scans.append(f"{page}\n{statement}\n{plan}")
    # Every page was seen asking for the games (a capture that saw nothing proves nothing).
    assert {page for page, _, _ in captured} == set(pages)
    assert explained >= 3 * len(pages)
    assert not scans, "\n\n".join(scans)


def test_the_plan_check_knows_a_full_read_when_it_sees_one() -> None:
    assert full_reads("SCAN games", "sqlite")
    assert full_reads("SCAN seats USING COVERING INDEX ix_seats_game_summary", "sqlite")
    assert full_reads(
        "SEARCH games USING COVERING INDEX ix (household_id=? AND status=?)", "sqlite"
    )
    assert not full_reads("SEARCH games USING INTEGER PRIMARY KEY (rowid=?)", "sqlite")
    assert not full_reads("SEARCH seats USING INDEX ix_seats_game_id (game_id=?)", "sqlite")
    assert not full_reads("SCAN game_stats USING COVERING INDEX ix_game_stats_started", "sqlite")
    assert full_reads("Seq Scan on hands  (cost=10000000000.00..1)", "postgresql")
    plan = "Index Scan using ix_games_household_id on games\n  Index Cond: (household_id = 1)"
    assert full_reads(plan, "postgresql")
    plan = "Index Scan using games_pkey on games\n  Index Cond: (id = ANY ('{1,2}'::integer[]))"
    assert not full_reads(plan, "postgresql")


def _rows_of(statement: str, parameters: Any) -> int:
    raw = db.engine.raw_connection()
    try:
        cursor = raw.cursor()
        cursor.execute(statement, parameters)
        return len(cursor.fetchall())
    finally:
        raw.rollback()
        raw.close()


def test_a_correction_reads_a_few_kept_rows_of_its_players_not_all_their_games(
    app: Flask, client: FlaskClient
) -> None:
    """Issue 37 item 5: a save that corrects a finished game moves its players' head to head
    by the game and reads their best, worst and streaks a few rows each, so it answers as fast
    with 10,000 games behind it: no read of the kept seat rows returns more than a handful of
    rows, where reading every finished game of the three players returns 3 x 20."""
    # As with 10,000 games behind it: the later games' ratings are replayed after the save.
    app.config["RATINGS_REPLAYED_IN_SAVE"] = 0
    table = ["Ann", "Ben", "Cy"]
    with app.app_context():
        games = [
            contract_rummy(table, table[n % 3], {name: "K" for name in table}, day(n)).id
            for n in range(1, 21)
        ]
        engine = db.engine
    captured: list[tuple[str, Any]] = []

    def capture(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith(("SELECT", "WITH")) and "seat_stats" in statement:
            captured.append((statement, parameters))

    seats = players_of(client, games[0])
    form = round_form(seats, seats[0], {seats[1]: "JK JK A A A A K K", seats[2]: "3"})
    event.listen(engine, "before_cursor_execute", capture)
    try:
        answer = client.post(f"/games/{games[0]}/rounds/1/edit", data={**form, "save": "Save"})
    finally:
        event.remove(engine, "before_cursor_execute", capture)
    assert answer.status_code in (302, 303), answer.get_data(as_text=True)
    with app.app_context():
        read = [(_rows_of(statement, parameters), statement) for statement, parameters in captured]
    assert read, "the save read no kept seat rows"
    most, statement = max(read, key=lambda item: item[0])
    assert most <= 10, f"{most} rows:\n{statement}"
    # And each read of a player's kept seat rows is found by an index, not a scan of the
    # household's seats.
    theirs = [
        (statement, parameters)
        for statement, parameters in captured
        if re.search(r"WHERE .*seat_stats\.player_id (=|IN)", statement, re.S)
    ]
    assert len(theirs) >= 3
    with app.app_context():
        plans = [
            (_explain(app, statement, parameters), statement) for statement, parameters in theirs
        ]
    scans = [
        f"{statement}\n{plan}" for plan, statement in plans if full_reads(plan, engine.dialect.name)
    ]
    assert not scans, "\n\n".join(scans)
