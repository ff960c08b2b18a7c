"""Template filters for numbers in the statistics (dates: ``scorekeeper.local_time``)."""

from __future__ import annotations


def percent(value: float | None) -> str:
    """``0.4166`` -> ``"42%"``; nothing to show -> an en dash."""
    return "–" if value is None else f"{value * 100:.0f}%"


def decimal(value: float | None) -> str:
    """One decimal place, or an en dash; never a signed zero (a rating of -0.04 is "0.0")."""
    if value is None:
        return "–"
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def quantity(count: int, word: str) -> str:
    """A count and its noun agreeing in number: "1 game", "2 games", "1,204 games"."""
    return f"{count:,} {word}{'' if count == 1 else 's'}"
