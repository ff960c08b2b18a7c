"""Family records, checked against games whose outcome is known by hand."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.history.records import records

from .factory import contract_rummy, day, play, twelve_step_rounds


def games() -> None:
    contract_rummy(["Ann", "Ben"], "Ann", {"Ben": "K Q"}, day(1))  # Ben 140
    contract_rummy(["Ann", "Ben", "Cy"], "Ann", {"Ben": "5", "Cy": "K"}, day(2))  # 35, 70
    contract_rummy(["Ben", "Ann"], "Ann", {"Ben": "3"}, day(3))  # Ben 21
    contract_rummy(["Ann", "Ben"], "Ben", {"Ann": "K"}, day(4))  # Ann 70
    play(
        ["Ann", "Cy"],
        twelve_step_rounds("Cy", {"Ann": "K"}),
        rules="twelve-step",
        started=day(5),
    )  # Cy wins in 12 rounds, Ann 120
    play(["Ann", "Ben"], [("Ben", {"Ann": "K Q K Q K Q K Q"})], started=day(6))  # in progress


def test_records_follow_from_the_games(app: Flask) -> None:
    with app.app_context():
        games()
        found = records()
    assert [(r.name, r.count, r.games) for r in found.most_wins] == [
        ("Ann", 3, 5),
        ("Cy", 1, 2),  # the same wins in fewer games rank higher
        ("Ben", 1, 4),
    ]
    assert [(s.name, s.length) for s in found.streaks] == [("Ann", 3)]
    assert found.streaks[0].first == day(1) and found.streaks[0].last == day(3)
    assert [(m.name, m.value) for m in found.highest_totals] == [
        ("Ben", 140),
        ("Ann", 120),
        ("Cy", 70),  # level with Ann's 70, but earlier
    ]
    assert [(m.name, m.value, m.started) for m in found.lowest_totals] == [
        ("Ann", 0, day(1)),
        ("Ann", 0, day(2)),
        ("Ann", 0, day(3)),
    ]
    assert [(m.name, m.value) for m in found.fastest] == [("Cy", 12)]
    assert [(m.value) for m in found.longest] == [12, 7, 7]
    assert [(r.name, r.count) for r in found.most_games] == [("Ann", 5), ("Ben", 4), ("Cy", 2)]
    # Only Ann has the 5 finished games a win rate needs.
    assert [(r.name, r.win_rate) for r in found.best_rate] == [("Ann", 3 / 5)]


def test_records_page(client: FlaskClient, app: Flask) -> None:
    assert "No finished game yet" in client.get("/records").get_data(as_text=True)
    with app.app_context():
        games()
    page = client.get("/records").get_data(as_text=True)
    assert "3 in a row" in page
    assert "12 rounds</strong>, won by Cy" in page
    assert "<strong>140</strong>" in page


def test_records_read_the_kept_statistics_in_six_queries_and_follow_every_change(
    client: FlaskClient, app: Flask
) -> None:
    from sqlalchemy import event

    from scorekeeper.extensions import db

    from ..helpers import save_round, start_game

    with app.app_context():
        games()
        engine = db.engine
    game_id = start_game(client, "contract-rummy", ["Dee", "Eve"])
    statements: list[str] = []

    def count(*args: object) -> None:
        statement = str(args[2])
        # Who is asking (their session, and the access version it is kept under) is looked up
        # once per request, whatever the page.
        if not statement.startswith(("BEGIN", "SAVEPOINT", "RELEASE")) and not any(
            gate in statement for gate in ("FROM user_sessions", "FROM access_versions")
        ):
            statements.append(statement)

    def queries_for_records() -> int:
        statements.clear()
        event.listen(engine, "before_cursor_execute", count)
        page = client.get("/records")
        event.remove(engine, "before_cursor_execute", count)
        assert page.status_code == 200
        return len(statements)

    # The ETag's data version, the players' kept rows, the fastest and the longest games, the
    # most contracts made in one game (the 12-Step game's) and the rules they were made under.
    assert queries_for_records() == 6
    save_round(client, game_id, went_out="Dee", cards={"Eve": "K"})
    assert queries_for_records() == 6
    # A game that finishes shows at once: Eve's first win.
    assert "Eve" not in client.get("/records").get_data(as_text=True).split("Most wins")[1]
    for _ in range(6):
        save_round(client, game_id, went_out="Eve", cards={"Dee": "K Q"})
    assert queries_for_records() == 6
    assert "Eve" in client.get("/records").get_data(as_text=True).split("Most wins")[1]
