"""A restore stores its games in batches with Core inserts: what it stores is what storing the
games one by one stores, a uid twice in one file is one game, and a batch the database refuses
is stored again game by game, so one bad line never costs the others."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.games import transfer
from scorekeeper.history import backup, bulk_loader
from scorekeeper.models import Game, GameEvent, Hand, Player, Round

from ..conftest import household_id
from ..helpers import import_lines
from .factory import contract_rummy, day, document, play, twelve_step_rounds

VOLATILE = ("id", "exported")


def typed_total_game() -> dict[str, Any]:
    """A game counted on paper: round 1's points typed as totals, no cards."""
    made = {"made_contract": False, "cards": None}
    return {
        "format": "scorekeeper-game",
        "version": 1,
        "uid": "typed-totals-game-1",
        "rules": "contract-rummy",
        "players": ["Ann", "Ben", "Cy"],
        "started": day(5).isoformat(),
        "rounds": [
            {
                "went_out": "Ann",
                "players": {
                    "Ann": {"made_contract": True, "cards": None, "points": 0},
                    "Ben": {**made, "points": 35},
                    "Cy": {**made, "points": 5},
                },
            },
            {
                "went_out": "Ben",
                "players": {
                    "Ann": {"made_contract": False, "cards": "K"},
                    "Ben": {"made_contract": True, "cards": ""},
                    "Cy": {"made_contract": False, "cards": "5"},
                },
            },
        ],
    }


def backup_lines(app: Flask) -> list[str]:
    """Four games exported from household ``Source``: finished, made contracts, abandoned,
    typed totals; a player named in two case spellings."""
    with app.app_context(), scope.household(household_id(app, "Source")):
        contract_rummy(["Ann", "Ben"], "Ann", {"Ben": "K Q"}, day(1))
        play(
            ["Ann", "ben", "Cy"],
            twelve_step_rounds("Cy", {"Ann": "K", "ben": "5 5"}, {3: {"Ann"}}),
            rules="twelve-step",
            started=day(2),
        )
        play(["Ben", "Dee"], [("Dee", {"Ben": "JK"})], started=day(3), abandoned=True)
        transfer.import_game(typed_total_game())
        lines = list(backup.export_lines())
    assert len(lines) == 4
    return lines


def stream(lines: list[str]) -> io.BytesIO:
    return io.BytesIO(
        "".join(line if line.endswith("\n") else line + "\n" for line in lines).encode()
    )


def lasting(line: str) -> dict[str, Any]:
    return {key: value for key, value in json.loads(line).items() if key not in VOLATILE}


def stored_rows() -> list[Any]:
    """Everything stored about the household's games, without ids or times: by game uid."""
    games = db.session.scalars(select(Game).order_by(Game.uid)).all()
    found = []
    for game in games:
        found.append(
            (
                game.uid,
                game.rules,
                game.rules_slug,
                game.rules_name,
                game.status,
                game.started,
                game.ended is None,
                game.first_dealer,
                game.round_count,
                game.tie_break,
                game.version,
                [
                    (
                        seat.position,
                        seat.player.name,
                        seat.total,
                        seat.contract,
                        seat.contracts_made,
                        seat.place,
                        seat.is_winner,
                        seat.may_i_used,
                    )
                    for seat in game.seats
                ],
                [
                    (
                        played.number,
                        played.version,
                        None if played.went_out is None else played.went_out.position,
                        [
                            (
                                hand.seat.position,
                                hand.contract,
                                hand.made_contract,
                                hand.cards,
                                hand.points,
                                hand.typed_total,
                            )
                            for hand in played.hands
                        ],
                    )
                    for played in game.rounds
                ],
                [(event.text, event.actor) for event in game.events],
            )
        )
    players = sorted(db.session.execute(select(Player.name, Player.name_key)).all())
    return [found, players]


def test_a_batch_stores_what_storing_one_by_one_stores(app: Flask) -> None:
    lines = backup_lines(app)
    one_by_one, batched = household_id(app, "One by one"), household_id(app, "Batched")
    with app.app_context(), scope.acting_as("owner"):
        with scope.household(one_by_one):
            for line in lines:
                transfer.store_game_file(transfer.check_game_document(json.loads(line)))
            expected = stored_rows()
            expected_export = [lasting(line) for line in backup.export_lines()]
        with scope.household(batched):
            report = import_lines(stream(lines))
            assert [number for number, _ in report.stored] == [1, 2, 3, 4]
            assert stored_rows() == expected
            assert [lasting(line) for line in backup.export_lines()] == expected_export
    assert expected_export == [lasting(line) for line in lines]
    # Each household holds its own players: "ben" and "Ben" are one player in each.
    assert [name for name, _key in expected[1]] == ["Ann", "Ben", "Cy", "Dee"]


def test_games_stored_after_a_batch_take_new_ids(app: Flask) -> None:
    """The batch's ids come from the tables' own sequences (on PostgreSQL they are taken before
    the rows go in by COPY): they ascend in the file's order, and a game stored afterwards, with
    its seats, rounds and hands, takes ids after them rather than colliding."""
    lines = backup_lines(app)
    with app.app_context(), scope.household(household_id(app, "Restored")):
        report = import_lines(stream(lines))
        ids = [game_id for _, game_id in report.stored]
        assert ids == sorted(ids) and len(set(ids)) == 4
        rounds_before = db.session.scalar(select(func.max(Round.id))) or 0
        hands_before = db.session.scalar(select(func.max(Hand.id))) or 0
        later = json.loads(lines[1])
        later["uid"] = "stored-after-the-batch"
        game_id = transfer.store_game_file(transfer.check_game_document(later)).id
        assert game_id > max(ids)
        first_round = db.session.scalar(select(func.min(Round.id)).where(Round.game_id == game_id))
        first_hand = db.session.scalar(
            select(func.min(Hand.id)).join(Round).where(Round.game_id == game_id)
        )
        assert first_round is not None and first_round > rounds_before
        assert first_hand is not None and first_hand > hands_before
        assert db.session.scalar(select(func.count(Game.id))) == 5


def test_a_uid_twice_in_one_file_is_stored_once(app: Flask) -> None:
    lines = backup_lines(app)
    with app.app_context(), scope.household(household_id(app, "Restored")):
        report = import_lines(stream([lines[0], lines[1], lines[0], lines[1]]))
        assert [number for number, _ in report.stored] == [1, 2]
        assert report.already == [(3, report.stored[0][1]), (4, report.stored[1][1])]
        assert db.session.scalar(select(func.count(Game.id))) == 2
        # Once more, the whole file: every game is held already.
        again = import_lines(stream(lines))
        assert [number for number, _ in again.stored] == [3, 4]
        assert [number for number, _ in again.already] == [1, 2]


def test_refused_lines_inside_a_batch_leave_the_others_stored_in_order(app: Flask) -> None:
    lines = backup_lines(app)
    bad_card = json.dumps(document(["Ann", "Ben"], [("Ann", {"Ben": "1H"})]))
    with app.app_context(), scope.household(household_id(app, "Restored")):
        read = list(backup.read_backup(stream([lines[0], "[1]", bad_card, "", lines[1], "{no"])))
        assert [(line.number, line.outcome) for line in read] == [
            (1, "stored"),
            (2, "refused"),
            (3, "refused"),
            (5, "stored"),
            (6, "refused"),
        ]
        assert "1H" in " ".join(read[2].problems)
        assert db.session.scalar(select(func.count(Game.id))) == 2


def test_a_batch_the_database_refuses_is_stored_game_by_game(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another writer stored one of the batch's games after the batch looked (a race): the
    batch's insert fails on the uid; its games are then stored one by one, the raced one
    counted as already there."""
    lines = backup_lines(app)
    with app.app_context(), scope.household(household_id(app, "Restored")):
        raced = transfer.import_game(json.loads(lines[2])).id
        monkeypatch.setattr(bulk_loader, "_held_uids", lambda household, uids: {})
        report = import_lines(stream(lines))
        assert [number for number, _ in report.stored] == [1, 2, 4]
        assert report.already == [(3, raced)] and report.refused == []
        assert db.session.scalar(select(func.count(Game.id))) == 4
        # Nothing of the failed batch was left half-written.
        assert db.session.scalar(select(func.count(Round.id))) == sum(
            len(json.loads(line)["rounds"]) for line in lines
        )
        assert db.session.scalar(select(func.count(GameEvent.id))) == 4


def test_a_game_the_database_refuses_costs_only_its_own_line(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = backup_lines(app)
    real = transfer.store_game_file

    def refuse_the_third(checked: Any) -> Game:
        if checked.uid == json.loads(lines[2])["uid"]:
            raise RuntimeError("the database went away for this game")
        return real(checked)

    def refuse_the_batch(files: Any) -> Any:
        raise RuntimeError("the database refused the batch")

    monkeypatch.setattr(backup, "store_game_files", refuse_the_batch)
    monkeypatch.setattr(backup, "store_game_file", refuse_the_third)
    with app.app_context(), scope.household(household_id(app, "Restored")):
        report = import_lines(stream(lines))
        assert [number for number, _ in report.stored] == [1, 2, 4]
        assert report.refused == [(3, ["This game could not be stored (an error in the app)."])]
        assert db.session.scalar(select(func.count(Game.id))) == 3


def test_batches_split_a_long_file_and_each_is_committed(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = backup_lines(app)
    monkeypatch.setattr(backup, "BATCH_GAMES", 3)
    with app.app_context(), scope.household(household_id(app, "Restored")):
        batches = backup.read_backup_batches(stream(lines))
        first = next(batches)
        assert [line.number for line in first] == [1, 2, 3]
        # The first batch is committed before the second is read.
        db.session.rollback()
        assert db.session.scalar(select(func.count(Game.id))) == 3
        assert [line.number for line in next(batches)] == [4]
        assert db.session.scalar(select(func.count(Hand.id))) == sum(
            len(json.loads(line)["rounds"]) * len(json.loads(line)["players"]) for line in lines
        )


def test_a_nul_in_a_name_or_in_the_rules_is_refused(app: Flask) -> None:
    escape = "\\u0000"
    lines = backup_lines(app)
    key_nul = lines[0].replace('"Ben"', '"Be' + escape + 'n"', 1)
    rules_nul = lines[1].replace('"base":', '"ba' + escape + 'se":', 1)
    assert escape in key_nul and escape in rules_nul
    with app.app_context(), scope.household(household_id(app, "Restored")):
        report = import_lines(stream([key_nul, rules_nul, lines[2]]))
        assert [number for number, _ in report.refused] == [1, 2]
        assert all("NUL character" in problems[0] for _, problems in report.refused)
        assert [number for number, _ in report.stored] == [3]


def test_a_batched_restore_leaves_the_kept_statistics_right(app: Flask) -> None:
    """Batches of Core inserts do not mark their games: the restore's end rebuilds the
    household's kept statistics once, so the players, profiles and records count every game
    restored, as a computation from scratch does."""
    from .test_kept_stats import assert_kept_equals_scratch

    lines = backup_lines(app)
    target = household_id(app, "Target")
    with app.app_context(), scope.household(target):
        report = import_lines(stream(lines))
        assert len(report.stored) == 4
        db.session.remove()
    with app.app_context(), scope.household(target):
        from scorekeeper.players import services as players

        assert {row.name for row in players.player_rows()} >= {"Ann", "Ben", "Cy", "Dee"}
        db.session.remove()
    assert_kept_equals_scratch(app, target, "after a batched restore")


@pytest.mark.parametrize("failing", ["statistics", "ratings"])
def test_a_restore_whose_end_was_cut_short_is_counted_when_run_again(
    app: Flask, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    """The kept statistics and the ratings are rebuilt once, at a restore's end (on PostgreSQL
    side by side, each in a transaction of its own); where either rebuild failed (a busy
    database, a server stopped), neither is kept and the error is raised, and running the
    restore again, which docs/backups.md calls safe, stores nothing but still rebuilds both, so
    every game counts."""
    from sqlalchemy.exc import OperationalError

    from scorekeeper.derived import GameStat, PlayerRating, RatingStep
    from scorekeeper.history import ratings, stats

    lines = backup_lines(app)
    target = household_id(app, "Target")
    module = {"statistics": stats, "ratings": ratings}[failing]
    real = module.rebuild

    def busy(*_: object, **__: object) -> None:
        raise OperationalError("rebuild", {}, Exception("database is locked"))

    def kept() -> list[int]:
        return [
            int(db.session.scalar(select(func.count()).select_from(model)) or 0)
            for model in (GameStat, RatingStep, PlayerRating)
        ]

    with app.app_context(), scope.household(target):
        monkeypatch.setattr(module, "rebuild", busy)
        with pytest.raises(OperationalError):
            import_lines(stream(lines))
        db.session.rollback()
        assert db.session.scalar(select(func.count()).select_from(Game)) == 4
        assert kept() == [0, 0, 0]
        monkeypatch.setattr(module, "rebuild", real)
        again = import_lines(stream(lines))
        assert not again.stored and len(again.already) == 4
        games_kept, steps, current = kept()
        assert games_kept == 4 and steps > 0 and current > 0
        db.session.remove()
