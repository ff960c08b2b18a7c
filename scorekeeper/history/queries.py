"""Pieces the history, player and records pages share; the numbers themselves are the kept
statistics (``history.stats``)."""

from __future__ import annotations

from ..status import GameStatus
from ..text import lazy_gettext as _l

FINISHED = GameStatus.FINISHED
# Each status as the history's filter and badges name it, in the page's language.
STATUSES = (
    (GameStatus.IN_PROGRESS.value, _l("In progress")),
    (GameStatus.FINISHED.value, _l("Finished")),
    (GameStatus.ABANDONED.value, _l("Abandoned")),
)
STATUS_LABELS = dict(STATUSES)


def rate(part: int, whole: int) -> float | None:
    """``part / whole``, or ``None`` where there is nothing to divide."""
    return part / whole if whole else None
