"""Template filters for numbers in the statistics (dates: ``scorekeeper.local_time``)."""

from __future__ import annotations


def percent(value: float | None) -> str:
    """``0.4166`` -> ``"42%"``; nothing to show -> an en dash."""
    return "–" if value is None else f"{value * 100:.0f}%"


def decimal(value: float | None) -> str:
    """One decimal place, or an en dash."""
    return "–" if value is None else f"{value:.1f}"
