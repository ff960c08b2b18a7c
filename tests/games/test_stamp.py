"""A game's stamp (its version, asked at every poll) is read with one Core statement, which the
ORM's household filter does not see: ``scope.core_read`` must hide another household's games
and the bin's, exactly as the filter does."""

from __future__ import annotations

from flask import Flask

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.games.scoreboard import stamp_of
from scorekeeper.games.transfer import import_game
from scorekeeper.models import Game, utcnow

from ..conftest import family_id, household_id


def _game(app: Flask, home: int) -> int:
    document = {"format": "scorekeeper-game", "version": 1, "rules": "twelve-step",
                "players": ["Ann", "Ben", "Cy"], "rounds": []}  # fmt: skip
    with app.app_context(), scope.household(home):
        game_id = import_game(document).id
        db.session.remove()
    return game_id


def test_a_stamp_is_the_household_s_own(app: Flask) -> None:
    ours, theirs = family_id(app), household_id(app, "Neighbours")
    game = _game(app, ours)
    with app.app_context():
        with scope.household(ours):
            stamp = stamp_of(game)
            assert stamp is not None and stamp.game_id == game
            assert stamp.version == db.session.get(Game, game).version  # type: ignore[union-attr]
            assert stamp.rules_name
        with scope.household(theirs):
            assert stamp_of(game) is None
        with scope.household(scope.NOBODY):
            assert stamp_of(game) is None
        with scope.server_wide(scope.ServerWide.COMMAND_LINE):
            assert stamp_of(game) is not None
        with scope.household(ours):
            assert stamp_of(game + 1000) is None


def test_a_game_in_the_bin_has_no_stamp(app: Flask) -> None:
    ours = family_id(app)
    game = _game(app, ours)
    with app.app_context(), scope.household(ours):
        held = db.session.get(Game, game)
        assert held is not None
        held.deleted_at = utcnow()
        db.session.commit()
        assert stamp_of(game) is None
        with scope.with_bin():
            assert stamp_of(game) is not None


def test_a_stamp_moves_with_the_version(app: Flask) -> None:
    from scorekeeper.versions import bump

    ours = family_id(app)
    game = _game(app, ours)
    with app.app_context(), scope.household(ours):
        before = stamp_of(game)
        held = db.session.get(Game, game)
        assert held is not None and before is not None
        bump(held)
        db.session.commit()
        after = stamp_of(game)
        assert after is not None and after.version == before.version + 1
