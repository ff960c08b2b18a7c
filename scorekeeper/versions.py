"""The version rule: **every change to a game bumps its version**, before its commit.

A game's version lives in the database, so every process and every server agrees when what
was drawn from it is stale: its drawn board, its ETags and open scoreboards
(``games.scoreboard``), its result card. The same call marks the game for the kept statistics
(``history.stats``), whose ``before_commit`` listener (installed with every other by the
factory: ``scorekeeper.hooks``) brings them up to date in the same transaction, and with them
the key of the kept rounds file; the marks wait in the session's ``info`` (a rollback forgets
them there).

Every feature that writes to a game calls ``bump`` (a game in hand) or ``bump_games`` (a bulk
change such as a player's rename or merge): games, players, the bin, accounts (a household's
time zone). It sits below them all, as the models do.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import ColumnElement, select, update
from sqlalchemy.orm import Session

from .extensions import db
from .models import Game, utcnow

# The keys of the session's ``info`` the statistics read at commit (``history.stats``).
STATS_MARKS = "stats_games"
STATS_TOUCHED = "stats_touched"
# Set before a commit that left a household's ratings stale (``history.ratings``): the worker
# is woken after it (``history.rating_worker``).
RATINGS_QUEUED = "ratings_queued"


def bump(game: Game, *, counts: bool = True) -> None:
    """Mark ``game`` changed: its drawn board, its ETags and open scoreboards move on. Every
    write to a game calls this (or ``bump_games``) before its commit, which also brings the
    kept statistics up to date with the game (``history.stats``). ``counts=False`` says that
    nothing the statistics count changed (a phone's draft of the round in progress): the board
    moves on, the statistics are left be."""
    game.version = (game.version or 0) + 1
    if counts:
        mark(db.session(), game)


def bump_games(where: ColumnElement[bool], *, counts: bool = True) -> None:
    """Mark every game matching ``where`` changed, in one UPDATE (a rename or merge of a
    player redraws every game they sat at). Does not commit. ``counts=False`` says that no
    number of the games changes (a rename: the pages read names fresh), so the kept statistics
    need no refresh; their version moves all the same."""
    if counts:
        mark_ids(db.session(), db.session.scalars(select(Game.id).where(where)).all())
    else:
        touch(db.session())
    db.session.execute(
        update(Game)
        .where(where)
        .values(version=Game.version + 1, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    )


def mark(session: Session, game: Game) -> None:
    """``game`` changes in this transaction: its statistics are refreshed before the commit."""
    session.info.setdefault(STATS_MARKS, set()).add(game)


def mark_ids(session: Session, game_ids: Iterable[int]) -> None:
    session.info.setdefault(STATS_MARKS, set()).update(int(game_id) for game_id in game_ids)


def touch(session: Session) -> None:
    """Something the history pages show changed, though no number did: move the version."""
    session.info.setdefault(STATS_MARKS, set())
    session.info[STATS_TOUCHED] = True
