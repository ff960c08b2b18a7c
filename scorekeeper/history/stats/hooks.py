"""What a commit does for the kept statistics: the listeners ``scorekeeper.hooks`` installs.

``versions.bump`` (and ``bump_games``), which every write to a game calls before its commit,
marks the game in the session's ``info``; before the commit the marked games' rows are
rewritten in the same transaction (``games.refresh_games``), which moves the household's
statistics version, and so the kept rounds file's key (``history.rounds_file``). A rollback
forgets the marks."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from ... import scope
from ...versions import RATINGS_QUEUED, STATS_MARKS, STATS_TOUCHED
from .games import refresh_games
from .tables import bump_version


def refresh_marked(session: Session) -> None:
    """Before every commit: the statistics of the games ``versions.bump`` marked in this
    transaction are brought up to date in it (``refresh_games``)."""
    marked = session.info.pop(STATS_MARKS, None)
    touched = session.info.pop(STATS_TOUCHED, False)
    if marked is None:
        return
    session.flush()
    ids = sorted({item if isinstance(item, int) else item.id for item in marked} - {None})
    if refresh_games(session.connection(), ids):
        # After the commit, the worker replays what the save left (``history.rating_worker``).
        session.info[RATINGS_QUEUED] = True
    if touched:
        household = scope.current()
        if isinstance(household, int) and household != scope.NOBODY:
            bump_version(session.connection(), scope.for_household(household))


def forget_marks(session: Session) -> None:
    """After a rollback: the marks of the changes undone are forgotten."""
    session.info.pop(STATS_MARKS, None)
    session.info.pop(STATS_TOUCHED, None)
    session.info.pop(RATINGS_QUEUED, None)


def forget_marks_soft(session: Session, _previous: Any) -> None:
    """After a rollback of a nested transaction, the same."""
    session.info.pop(STATS_MARKS, None)
    session.info.pop(STATS_TOUCHED, None)
    session.info.pop(RATINGS_QUEUED, None)
