"""Pieces the history, player and records pages share; the numbers themselves are the kept
statistics (``history.stats``)."""

from __future__ import annotations

from ..status import GameStatus

FINISHED = GameStatus.FINISHED
STATUSES = tuple((status.value, status.label) for status in GameStatus)
STATUS_LABELS = dict(STATUSES)


def rate(part: int, whole: int) -> float | None:
    """``part / whole``, or ``None`` where there is nothing to divide."""
    return part / whole if whole else None
