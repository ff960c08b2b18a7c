"""Issue 51, item 4: the history takes Phase 10 like any game. Finished Phase 10 games, stored from
game files by the CLI and by the import route (one ended by a tie-break hand, one on the even
phases only, one won by the most phases made), are counted in the ratings, the records (the
most phases made in one game, each rule set its own), the seasons and the year in review, in
English and Spanish. The tie-break hand's points count in no total and its hands in no count of
contracts tried or made."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.history.records import records
from scorekeeper.models import Player
from scorekeeper.players.services import profile

from ..conftest import family_id
from .factory import document, twelve_step_rounds
from .test_kept_stats import assert_kept_equals_scratch, assert_rebuilt_alike
from .test_spanish_history import SPANISH

THREE = ("Ann", "Ben", "Cy")
# Two phases played, 9 and 10: Ann and Ben both make phase 10 in round 2 with 5 points each,
# and the tie-break hand (Ann and Ben alone) is Ben's; Ann is left holding 50 points in it.
TIED = {"base": "phase-10", "phases_played": [9, 10]}
EVEN = {"base": "phase-10", "phases_played": "even"}
MOST = {"base": "phase-10", "hands": 3, "winner": "most contracts"}


def _hand(out: str | None, players: Sequence[str], cards: Mapping[str, str], made: set[str]) -> Any:
    return {
        "went_out": out,
        "players": {
            name: {
                "made_contract": name == out or name in made,
                "cards": "" if name == out else cards.get(name, ""),
            }
            for name in players
        },
    }


def _file(rules: Any, players: Sequence[str], rounds: list[Any], day: int) -> dict[str, Any]:
    return {
        "format": "scorekeeper-game",
        "version": 1,
        "rules": rules,
        "players": list(players),
        "rounds": rounds,
        "started": f"2025-03-{day:02d}T19:00:00+00:00",
    }


def tied_file(day: int = 1) -> dict[str, Any]:
    """Ann, Ben and Cy on phases 9 and 10, ended by the tie-break hand: totals 5, 5, 20, Ben
    wins; Ann's 50 points in the tie-break hand count in no total."""
    tie_break = _hand("Ben", ("Ann", "Ben"), {"Ann": "W W"}, set())
    tie_break["tie_break_hand"] = True
    return _file(
        TIED,
        THREE,
        [
            _hand("Ann", THREE, {"Ben": "5", "Cy": "10"}, {"Ben"}),
            _hand("Ben", THREE, {"Ann": "5", "Cy": "10"}, {"Ann"}),
            tie_break,
        ],
        day,
    )


def even_file() -> dict[str, Any]:
    """Ann goes out on phases 2, 4, 6, 8 and 10 (five phases made, all that were played); Ben
    holds a 5 each hand."""
    return _file(EVEN, ("Ann", "Ben"), [_hand("Ann", ("Ann", "Ben"), {"Ben": "5"}, set())] * 5, 2)


def most_file() -> dict[str, Any]:
    """Three hands, most phases made wins: Ann and Cy made 2 each, Cy with the lower total
    (55 to 80) wins; after hand 1 Cy was 50 points behind Ann, level on phases."""
    return _file(
        MOST,
        THREE,
        [
            _hand("Ann", THREE, {"Ben": "5", "Cy": "W W"}, {"Cy"}),
            _hand("Cy", THREE, {"Ann": "W W W", "Ben": "5"}, {"Ann"}),
            _hand("Ben", THREE, {"Ann": "5", "Cy": "5"}, set()),
        ],
        3,
    )


def _by_route(client: FlaskClient, game_file: Mapping[str, Any]) -> int:
    answer = client.post(
        "/games/import",
        data={"file": (io.BytesIO(json.dumps(game_file).encode()), "game.json")},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return int(answer.headers["Location"].rstrip("/").split("/")[-1])


def _by_cli(runner: FlaskCliRunner, tmp_path: Path, game_file: Mapping[str, Any]) -> int:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_file))
    result = runner.invoke(args=["game", "import", str(path)])
    assert result.exit_code == 0, result.output
    return int(result.stdout.strip().splitlines()[-1])


@dataclass(frozen=True)
class Games:
    tied: int
    even: int
    most: int
    twelve: int


@pytest.fixture
def games(client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path) -> Iterator[Games]:
    tied = _by_cli(runner, tmp_path, tied_file())
    even = _by_route(client, even_file())
    most = _by_route(client, most_file())
    # A 12-Step game beside them: Cy goes out every round and makes all twelve contracts, Ann
    # makes contract 1 in round 1 and nothing after.
    twelve = document(
        ["Ann", "Cy"],
        twelve_step_rounds("Cy", {"Ann": "K"}, {1: {"Ann"}}),
        rules="twelve-step",
    )
    twelve["started"] = "2025-03-04T19:00:00+00:00"
    yield Games(tied, even, most, _by_route(client, twelve))


def _text(client: FlaskClient, url: str, **headers: str) -> str:
    answer = client.get(url, headers=headers)
    assert answer.status_code == 200
    page = re.sub(r"<script.*?</script>", " ", answer.get_data(as_text=True), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_most_phases_in_one_game_is_a_record_of_its_rule_set(
    app: Flask, client: FlaskClient, games: Games
) -> None:
    with app.app_context(), scope.household(family_id(app)):
        found = records()
    by_rules = {record.rules_name: record for record in found.most_made}
    assert set(by_rules) == {"Phase 10 (10 phases)", "12-Step Rummy"}
    phase_10 = by_rules["Phase 10 (10 phases)"]
    assert phase_10.phases
    # Ann made every phase the even game played (2, 4, 6, 8 and 10): five, not ten. Then the
    # two of the tie-break game (the tie-break hand made none) before the most-phases game's.
    assert [(m.name, m.value, m.game_id) for m in phase_10.marks] == [
        ("Ann", 5, games.even),
        ("Ann", 2, games.tied),
        ("Ben", 2, games.tied),
    ]
    twelve = by_rules["12-Step Rummy"]
    assert not twelve.phases
    assert [(m.name, m.value) for m in twelve.marks] == [("Cy", 12), ("Ann", 1)]
    # The tie-break hand's 50 points are in no total: Ann's 5 (level with Ben's in the same
    # game, in either order) is the lowest after two 0s.
    assert [(m.value, m.game_id) for m in found.lowest_totals] == [
        (0, games.even),
        (0, games.twelve),
        (5, games.tied),
    ]
    assert found.lowest_totals[2].name in ("Ann", "Ben")
    assert [(r.name, r.count) for r in found.most_wins][:1] == [("Cy", 2)]
    english = _text(client, "/records")
    assert "Most phases in one game Phase 10 (10 phases) Ann 5 phases made" in english
    assert "Most contracts in one game 12-Step Rummy Cy 12 contracts made" in english
    assert "Ann 1 contract made" in english
    spanish = _text(client, "/records", **SPANISH)
    assert "Más fases en una partida Phase 10 (10 fases) Ann 5 fases cumplidas" in spanish
    assert "Más contratos en una partida" in spanish and "Cy 12 contratos cumplidos" in spanish
    assert "Most" not in spanish and "phases made" not in spanish


def test_the_tie_break_hand_counts_in_no_total_and_no_contract(
    app: Flask, client: FlaskClient, games: Games
) -> None:
    rounds_csv = client.get("/history/rounds.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(rounds_csv)))
    tied = [row for row in rows if row["game"] == str(games.tied)]
    # Round 3 is the tie-break hand, so marked: Ann held 50 points in it, her total stays 5.
    assert [
        (row["round"], row["player"], row["points"], row["running_total"], row["tie_break_hand"])
        for row in tied
        if row["round"] != "1"
    ] == [
        ("2", "Ann", "5", "5", "no"),
        ("2", "Ben", "0", "5", "no"),
        ("2", "Cy", "10", "20", "no"),
        ("3", "Ann", "50", "5", "yes"),
        ("3", "Ben", "0", "5", "yes"),
    ]
    with app.test_request_context(), scope.household(family_id(app)):
        ann = db.session.query(Player).filter_by(name="Ann").one()
        phases = {c.number: (c.games, c.rounds, c.made) for c in profile(ann).phases}
    # Phase 10: one hand in the tie-break game and one in the even game, both made; the
    # tie-break hand is no try at phase 10.
    assert phases[10] == (2, 2, 2)
    # The board's charts of the tied game end on the totals, and the ratings follow the
    # places the tie-break hand gave.
    board = _text(client, f"/games/{games.tied}")
    assert "Round Ann Ben Cy 1 0 5 10 2 5 5 20 3 5 5" in board
    ratings = _text(client, f"/history/games/{games.tied}/ratings")
    assert ratings.index("Ben") < ratings.index("Ann") < ratings.index("Cy")


def test_the_tie_break_hand_is_no_round_of_points_a_round(
    app: Flask, client: FlaskClient, games: Games, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Phase 10's points a round over the tied game (2 regular hands and the tie-break hand),
    # the even game (5) and the most-phases game (3): Cy, not dealt into the tie-break hand,
    # scored 20 + 55 in 2 + 3 rounds, Ann 5 + 0 + 80 in 2 + 5 + 3, Ben 5 + 25 + 10 in
    # 2 + 5 + 3. Counting the tie-break hand as a round read 12.5, 7.7 and 3.6.
    household = family_id(app)
    with app.test_request_context(), scope.household(household):
        found = {}
        for name in THREE:
            player = db.session.query(Player).filter_by(name=name).one()
            phase_10 = next(r for r in profile(player).by_rules if r.name.startswith("Phase 10"))
            found[name] = (phase_10.points, phase_10.rounds, phase_10.points_per_round)
        db.session.remove()
    assert found == {"Ann": (85, 10, 8.5), "Ben": (40, 10, 4.0), "Cy": (75, 5, 15.0)}
    with app.test_request_context(), scope.household(household):
        cy = db.session.query(Player).filter_by(name="Cy").one().id
        db.session.remove()
    page = _text(client, f"/players/{cy}")
    # Beside the 12-Step game's 0 points in 12 rounds: 75 in 17 (18 read 4.2).
    assert "Points a round 4.4" in page
    assert "Phase 10 (10 phases) 2 1 50% 15.0" in page
    # The kept numbers are those counted from scratch, and the full rebuild (in chunks too)
    # keeps the rows each save wrote.
    assert_kept_equals_scratch(app, household, "Phase 10")
    with app.app_context():
        assert_rebuilt_alike(household, monkeypatch, chunk=1)


def two_tied_file(day: int) -> dict[str, Any]:
    """Ann and Ben on phases 9 and 10, both making each: level on phase 10 and on 5 points, the
    tie-break hand is Ben's (Ann holds a Wild in it, and made nothing in it)."""
    pair = ("Ann", "Ben")
    tie_break = _hand("Ben", pair, {"Ann": "W"}, set())
    tie_break["tie_break_hand"] = True
    return _file(
        TIED,
        pair,
        [
            _hand("Ann", pair, {"Ben": "5"}, {"Ben"}),
            _hand("Ben", pair, {"Ann": "5"}, {"Ann"}),
            tie_break,
        ],
        day,
    )


def test_the_year_in_review_tells_phases_and_tries_no_tie_break_hand(
    client: FlaskClient,
) -> None:
    # Five games ended by a tie-break hand: phases 9 and 10 each made every time they were
    # tried in a regular hand (10 of 10); the tie-break hands' 10 hands made nothing, and are
    # no tries (they would make phase 10 the hardest, 10 of 20).
    for day in range(10, 15):
        _by_route(client, two_tied_file(day))
    # The most-phases game's comeback: Cy 50 points behind Ann after hand 1, level on phases.
    _by_route(client, most_file())
    english = _text(client, "/review/2025")
    assert (
        "Cy was 50 points behind Ann, level on phases, after round 1, and won "
        "(Phase 10 (10 phases), 3 Mar)." in english
    )
    assert (
        "Hardest phase A set of 5 and a set of 2 (Phase 10 (10 phases), phase 9): made 10 of "
        "the 10 times it was tried (100%)." in english
    )
    assert "contract" not in english.split("Hardest phase")[1].split("How these")[0]
    spanish = _text(client, "/review/2025", **SPANISH)
    assert "Cy iba 50 puntos detrás de Ann, empatados en fases, después de la ronda 1" in spanish
    assert "Fase más difícil" in spanish and "fase 9): se cumplió 10 de las 10 veces" in spanish
    # The seasons page counts the same games: six finished, Ben's five wins first.
    season = _text(client, "/seasons?year=2025")
    assert "The season's games (6, 6 finished)." in season
    assert "Most wins Ben 5 of 6 games" in season
