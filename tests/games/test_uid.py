"""A game's uid travels with its game file: importing or restoring a game the household holds
stores nothing, so restoring the same backup twice, or again after a restore cut short, ends
with every game exactly once (``game-format.md``, field ``uid``)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.games.gamefile import GameFileError
from scorekeeper.games.transfer import AlreadyStored, export_game, import_game
from scorekeeper.history import backup
from scorekeeper.models import Game, Round

from ..conftest import household_id
from ..helpers import game_document, import_lines, twelve_step_to_the_end


def _games() -> int:
    return int(db.session.scalar(select(func.count(Game.id))) or 0)


def _rounds() -> int:
    return int(db.session.scalar(select(func.count(Round.id))) or 0)


def test_export_carries_the_uid_and_a_held_game_is_not_stored_twice(app: Flask) -> None:
    with app.app_context():
        game = import_game(
            game_document("twelve-step", ["Ann", "Ben"], twelve_step_to_the_end(["Ann", "Ben"]))
        )
        exported = export_game(game)
        assert exported["uid"] == game.uid and len(game.uid) >= 8
        games, rounds = _games(), _rounds()
        with pytest.raises(AlreadyStored) as held:
            import_game(json.loads(json.dumps(exported)))
        assert held.value.game_id == game.id
        assert (_games(), _rounds()) == (games, rounds)


def test_a_game_file_written_by_hand_with_a_uid_is_stored_under_it(app: Flask) -> None:
    document = game_document("contract-rummy", ["Ann", "Ben"], [], uid="grans-game-2026")
    with app.app_context():
        assert import_game(document).uid == "grans-game-2026"


@pytest.mark.parametrize("uid", ["short", "has space in it", "x" * 65, 12345678, "ünïcödé-uid"])
def test_a_malformed_uid_is_refused_with_a_message(app: Flask, uid: object) -> None:
    with app.app_context(), pytest.raises(GameFileError) as refused:
        import_game(game_document("contract-rummy", ["Ann", "Ben"], [], uid=uid))
        assert _games() == 0
    assert any('"uid"' in problem for problem in refused.value.problems)


def test_another_household_may_hold_the_same_game(app: Flask) -> None:
    document = game_document("contract-rummy", ["Ann", "Ben"], [], uid="the-same-game-1")
    family, others = household_id(app, "Family"), household_id(app, "Others")
    with app.app_context():
        with scope.household(family):
            ours = import_game(document).id
        with scope.household(others):
            theirs = import_game(document).id
        assert ours != theirs


def test_the_command_line_says_so_and_prints_the_held_id_last(app: Flask, tmp_path: Path) -> None:
    runner = app.test_cli_runner()
    path = tmp_path / "game.json"
    path.write_text(
        json.dumps(game_document("contract-rummy", ["Ann", "Ben"], [], uid="cli-game-0001"))
    )
    first = runner.invoke(args=["game", "import", str(path)])
    assert first.exit_code == 0, first.output
    game_id = first.stdout.strip().splitlines()[-1]
    again = runner.invoke(args=["game", "import", str(path)])
    assert again.exit_code == 0, again.output
    assert again.stdout.strip().splitlines()[-1] == game_id
    assert "here already" in again.stderr
    with app.app_context():
        assert _games() == 1


def test_uploading_a_held_game_leads_to_it(client: FlaskClient, app: Flask) -> None:
    body = json.dumps(game_document("contract-rummy", ["Ann", "Ben"], [], uid="web-game-0001"))
    answers = [
        client.post(
            "/games/import",
            data={"file": (io.BytesIO(body.encode()), "game.json")},
            content_type="multipart/form-data",
        )
        for _ in range(2)
    ]
    assert [a.status_code for a in answers] == [302, 302]
    assert answers[0].headers["Location"] == answers[1].headers["Location"]
    assert "here already" in client.get(answers[1].headers["Location"]).get_data(as_text=True)
    with app.app_context():
        assert _games() == 1


def test_restoring_the_same_backup_twice_or_after_a_cut_changes_nothing(app: Flask) -> None:
    names = ["Ann", "Ben", "Cy"]
    family = household_id(app, "Family")
    with app.app_context(), scope.household(family):
        for rounds in (twelve_step_to_the_end(names), twelve_step_to_the_end(names)[:4], []):
            import_game(game_document("twelve-step", names, rounds))
        lines = list(backup.export_lines())
        assert len(lines) == 3
    restored_into = household_id(app, "Restored")
    with app.app_context(), scope.household(restored_into):

        def stream(chosen: list[str]) -> io.BytesIO:
            return io.BytesIO("".join(chosen).encode())

        cut_short = import_lines(stream(lines[:2]))  # a restore killed after two games
        assert len(cut_short.stored) == 2
        whole = import_lines(stream(lines))
        assert len(whole.stored) == 1 and len(whole.already) == 2
        again = import_lines(stream(lines))
        assert again.stored == [] and len(again.already) == 3
        assert "3 games were here already" in again.summary
        assert _games() == 3
        restored = sorted(json.loads(line)["uid"] for line in backup.export_lines())
    assert restored == sorted(json.loads(line)["uid"] for line in lines)
