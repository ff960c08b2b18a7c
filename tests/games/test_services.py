"""Games in the database: import and export of the game file (round trip for every preset),
the command line, recompute, and the round services' guards (duplicates, stale versions)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner
from sqlalchemy import func, select

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.games import changelog, rounds, services
from scorekeeper.games.gamefile import GameFileError
from scorekeeper.games.tally import HandEntry, RoundEntry
from scorekeeper.games.transfer import export_game, import_game
from scorekeeper.models import Game, GameEvent, Player, Round, Seat
from scorekeeper.names import name_key
from scorekeeper.rules import get_ruleset

from ..conftest import household_id
from ..helpers import game_document, twelve_step_to_the_end
from ..nine import NINE_PRESETS

NAMES = ("Ann", "Ben", "Cy")


def without_ids(document: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in document.items() if key not in ("id", "exported")}


def count(model: type) -> int:
    return db.session.scalar(select(func.count()).select_from(model)) or 0


def some_rounds(slug: str) -> list[Any]:
    return [
        ("Ann", {"Ben": "K Q JK", "Cy": "5 5"}, {"Ben"}),
        ("Ben", {"Ann": "A", "Cy": "10H 9S"}, set()),
    ]


# Standard cards in every round (Phase 10's own game file round-trips in
# tests/games/test_phase_10_options.py).
@pytest.mark.parametrize("slug", NINE_PRESETS)
def test_export_import_export_gives_the_same_document(app: Flask, slug: str) -> None:
    elsewhere, family = household_id(app, "Elsewhere"), household_id(app, "Family")
    with app.app_context(), scope.household(family):
        first = import_game(game_document(slug, NAMES, some_rounds(slug), first_dealer="Cy"))
        exported = export_game(first)
        # The same game (its uid) imports again as itself into another household; here it
        # would be the game held already.
        with scope.household(elsewhere):
            second = import_game(json.loads(json.dumps(exported)))
            again = export_game(second)
        assert second.id != first.id
        assert without_ids(again) == without_ids(exported)
        assert exported["id"] == first.id and again["id"] == second.id
        assert exported["rules"]["base"] == slug
        assert exported["rounds"][0]["dealer"] == "Cy"


def test_round_trip_of_a_finished_game_with_a_tie_break_and_house_rules(app: Flask) -> None:
    elsewhere, family = household_id(app, "Elsewhere"), household_id(app, "Family")
    rules = {"base": "twelve-step", "name": "Grandma's rules", "slug": "grandma"}
    with app.app_context(), scope.household(family):
        game = import_game(game_document(rules, NAMES, twelve_step_to_the_end(NAMES)))
        exported = export_game(game)
        assert exported["status"] == "finished"
        assert exported["winners"] == ["Ann"]
        assert exported["tie_break"] == (
            "Ann and Ben both made contract 12 in round 12; Ann wins with 0 points to 60."
        )
        assert exported["rules"]["name"] == "Grandma's rules"
        with scope.household(elsewhere):
            again = export_game(import_game(exported))
        assert without_ids(again) == without_ids(exported)
        assert game.rules_slug == "grandma" and game.rules_name == "Grandma's rules"


def test_round_trip_of_an_abandoned_game(app: Flask) -> None:
    elsewhere, family = household_id(app, "Elsewhere"), household_id(app, "Family")
    with app.app_context(), scope.household(family):
        game = import_game(
            game_document("bellevue", NAMES, some_rounds("bellevue"), abandoned=True)
        )
        exported = export_game(game)
        assert exported["status"] == "abandoned" and exported["abandoned"] is True
        assert exported["winners"] == []
        with scope.household(elsewhere):
            assert without_ids(export_game(import_game(exported))) == without_ids(exported)


def test_import_fills_the_summary_columns(app: Flask) -> None:
    with app.app_context():
        game = import_game(game_document("twelve-step", NAMES, twelve_step_to_the_end(NAMES)))
        assert game.status == "finished" and game.round_count == 12 and game.ended is not None
        seats = {seat.player.name: seat for seat in game.seats}
        assert (seats["Ann"].total, seats["Ann"].place, seats["Ann"].is_winner) == (0, 1, True)
        assert (seats["Ben"].total, seats["Ben"].contracts_made, seats["Ben"].place) == (60, 12, 2)
        assert (seats["Cy"].total, seats["Cy"].contract, seats["Cy"].contracts_made) == (240, 1, 0)
        assert game.tie_break is not None and "Ann wins" in game.tie_break
        assert game.rounds[0].hands[0].points in (0, 5, 20)
        assert count(GameEvent) == 1


def test_import_matches_players_ignoring_case_or_creates_them(app: Flask) -> None:
    with app.app_context():
        db.session.add(Player(name="Ann", name_key=name_key("Ann")))
        db.session.commit()
        game = import_game(game_document("twelve-step", ["ANN", "Ben"], []))
        assert [seat.player.name for seat in game.seats] == ["Ann", "Ben"]
        assert count(Player) == 2


def test_a_refused_import_stores_nothing(app: Flask) -> None:
    document = game_document(
        "twelve-step", NAMES, [("Ann", {"Ben": "K", "Cy": "1H"}, set())], first_dealer="Ben"
    )
    with app.app_context():
        with pytest.raises(GameFileError) as refused:
            import_game(document)
        assert refused.value.problems == [
            "Round 1, Cy: '1H' is not a card: 1 is not a rank (write A for an ace)."
        ]
        assert (count(Game), count(Player), count(Round)) == (0, 0, 0)


def test_import_reads_saved_house_rules_by_slug(app: Flask) -> None:
    from scorekeeper.models import HouseRules

    with app.app_context():
        db.session.add(
            HouseRules(
                slug="grandma",
                name="Grandma's rules",
                base="bellevue",
                options={"base": "bellevue", "slug": "grandma", "name": "Grandma's rules"},
            )
        )
        db.session.commit()
        game = import_game(game_document("grandma", NAMES, []))
        assert game.rules_name == "Grandma's rules" and game.rules["base"] == "bellevue"
        with pytest.raises(GameFileError) as refused:
            import_game(game_document("grandpa", NAMES, []))
        assert "grandpa" in refused.value.problems[0]


def test_cli_import_prints_the_id_last_and_export_prints_the_document(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_document("contract-rummy", NAMES, some_rounds("x"))))
    result = runner.invoke(args=["game", "import", str(path)])
    assert result.exit_code == 0, result.output
    game_id = int(result.output.strip().splitlines()[-1])
    exported = runner.invoke(args=["game", "export", str(game_id)])
    assert exported.exit_code == 0
    document = json.loads(exported.output)
    assert document["id"] == game_id and document["players"] == list(NAMES)
    assert [s["total"] for s in document["standings"]] == [15, 29, 35]


def test_cli_refuses_a_bad_file_on_stderr_with_a_non_zero_status(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_document("contract-rummy", NAMES, [], version=2)))
    result = runner.invoke(args=["game", "import", str(path)])
    assert result.exit_code != 0
    assert "this app reads version 1 of the game file only" in result.stderr
    assert result.stdout == ""
    path.write_text("{not json")
    result = runner.invoke(args=["game", "import", str(path)])
    assert result.exit_code != 0 and "not a JSON document" in result.stderr
    missing = runner.invoke(args=["game", "export", "999"])
    assert missing.exit_code != 0 and "There is no game 999" in missing.stderr
    with app.app_context():
        assert count(Game) == 0


def entry(went_out: int | None, *cards: str, made: tuple[int, ...] = ()) -> RoundEntry:
    return RoundEntry(
        went_out,
        tuple(
            HandEntry(cards, None if seat == went_out else seat in made)
            for seat, cards in enumerate(cards)
        ),
    )


def test_the_same_form_sent_twice_stores_one_round(app: Flask) -> None:
    with app.app_context():
        game = services.start_game(get_ruleset("twelve-step"), NAMES)
        version = game.version
        assert rounds.add_round(game, entry(0, "", "K", "5"), number=1, submission="t1")
        assert rounds.add_round(game, entry(0, "", "K", "5"), number=1, submission="t1") is None
        assert count(Round) == 1
        assert game.version == version + 1
        with pytest.raises(rounds.RoundConflict):
            rounds.add_round(game, entry(0, "", "K", "5"), number=1, submission="t2")
        assert count(Round) == 1


def test_a_refused_round_stores_nothing(app: Flask) -> None:
    with app.app_context():
        game = services.start_game(get_ruleset("twelve-step"), NAMES)
        with pytest.raises(rounds.RoundRefused) as refused:
            rounds.add_round(game, entry(0, "K", "", "5"), number=1)
        assert [problem.field for problem in refused.value.problems] == ["cards-0", "cards-1"]
        assert count(Round) == 0 and game.version == 1


def test_edit_against_an_older_version_is_refused(app: Flask) -> None:
    with app.app_context():
        game = services.start_game(get_ruleset("twelve-step"), NAMES)
        rounds.add_round(game, entry(0, "", "K", "5"), number=1)
        rounds.edit_round(game, 1, entry(0, "", "K Q", "5"), version=1)
        assert game.rounds[0].version == 2
        with pytest.raises(rounds.RoundConflict):
            rounds.edit_round(game, 1, entry(0, "", "A", "5"), version=1)
        seats = {seat.player.name: seat.total for seat in game.seats}
        assert seats == {"Ann": 0, "Ben": 20, "Cy": 5}
        log = [str(changelog.read(event.text)) for event in game.events]
        assert log[-1] == "Round 1 corrected: Ben's cards K → K Q (10 → 20 points)."


def test_only_the_last_round_can_be_deleted_and_totals_follow(app: Flask) -> None:
    with app.app_context():
        game = services.start_game(get_ruleset("twelve-step"), NAMES)
        rounds.add_round(game, entry(0, "", "K", "5"), number=1)
        rounds.add_round(game, entry(1, "A", "", "5"), number=2)
        with pytest.raises(rounds.RoundConflict):
            rounds.delete_last_round(game, 1)
        rounds.delete_last_round(game, 2)
        assert [seat.total for seat in game.seats] == [0, 10, 5]
        assert db.session.scalar(select(func.count()).select_from(Seat)) == 3
        assert game.round_count == 1


def test_may_i_counts_up_to_the_limit_and_resets_with_a_new_round(app: Flask) -> None:
    with app.app_context():
        game = services.start_game(get_ruleset("bellevue"), NAMES)
        for _ in range(3):
            rounds.use_may_i(game, 1, +1)
        with pytest.raises(rounds.RoundRefused):
            rounds.use_may_i(game, 1, +1)
        assert services.may_i_left(game, game.seats[1]) == 0
        rounds.add_round(game, entry(0, "", "K", "5"), number=1)
        assert services.may_i_left(game, game.seats[1]) == 3


def test_may_i_in_a_kept_contract_game_carries_over_while_on_the_same_contract(
    app: Flask,
) -> None:
    with app.app_context():
        rules = get_ruleset({"base": "twelve-step", "may_i": {"limit": 2}})
        game = services.start_game(rules, NAMES)
        rounds.use_may_i(game, 1, +1)
        rounds.use_may_i(game, 2, +1)
        rounds.add_round(game, entry(0, "", "K", "5", made=(1,)), number=1)
        assert [seat.may_i_used for seat in game.seats] == [0, 0, 1]


def test_import_reads_a_preset_slug_in_any_case(app: Flask) -> None:
    document = game_document("twelve-step", ["Ann", "Ben"], [])
    document["rules"] = " Twelve-Step "
    with app.app_context():
        game = import_game(document)
        assert export_game(game)["rules"] == get_ruleset("twelve-step").to_dict()
