"""Template filters for numbers in the statistics (dates: ``scorekeeper.local_time``), in the
page's language (``scorekeeper.languages``: 18.6 / 18,6)."""

from __future__ import annotations

from .. import languages


def percent(value: float | None) -> str:
    """``0.4166`` -> ``"42%"`` (``42 %``); nothing to show -> an en dash."""
    return languages.percent(value)


def decimal(value: float | None) -> str:
    """One decimal place, or an en dash; never a signed zero (a rating of -0.04 is "0.0")."""
    return languages.decimal(value)


def quantity(count: int, word: str) -> str:
    """A count and its noun agreeing in number: "1 game", "2 games", "1,204 games"."""
    return f"{count:,} {word}{'' if count == 1 else 's'}"
