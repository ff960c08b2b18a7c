"""Template filters for numbers and dates in the statistics."""

from __future__ import annotations

from datetime import datetime


def percent(value: float | None) -> str:
    """``0.4166`` -> ``"42%"``; nothing to show -> an en dash."""
    return "–" if value is None else f"{value * 100:.0f}%"


def decimal(value: float | None) -> str:
    """One decimal place, or an en dash."""
    return "–" if value is None else f"{value:.1f}"


def day(value: datetime | None) -> str:
    """``24 Dec 2025``, or an en dash."""
    return "–" if value is None else value.strftime("%d %b %Y").lstrip("0")
