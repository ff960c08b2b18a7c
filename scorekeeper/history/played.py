"""The rounds a seat was dealt into, from its comings and goings (``game-format.md``): what the
history counts as played. Two players are compared (head to head, ratings) only where they were
dealt into a round together."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# A seat's stretches at the table: [[first round, last round], ...] in order; None where the
# seat sat from the game's first round to its last (a whole game).
Stretches = list[list[int]] | None


def stretches_of(
    joined_before: int | None,
    left_after: int | None,
    returns: Sequence[Sequence[Any]] | None,
    rounds: int,
) -> Stretches:
    """The rounds of a game of ``rounds`` a seat was dealt into: from the start (or its first
    join) to each leave it came back from, from each comeback on, and to its last leave (or
    the end). None where it played the whole game (nobody left or joined)."""
    if joined_before is None and left_after is None and not returns:
        return None
    found: list[list[int]] = []
    first = joined_before if joined_before is not None else 1
    for away in returns or ():
        found.append([first, int(away[0])])
        first = int(away[1])
    found.append([first, left_after if left_after is not None else rounds])
    return [[a, min(b, rounds)] for a, b in found if a <= min(b, rounds)]


def rounds_in(stretches: Stretches, rounds: int) -> int:
    """How many rounds these stretches hold (of a game of ``rounds``)."""
    if stretches is None:
        return rounds
    return sum(b - a + 1 for a, b in stretches)


def last_round(stretches: Stretches, rounds: int) -> int:
    """The last round played: the game's last for a whole game, or where the seat came back and
    stayed to the end; 0 where it played none."""
    if stretches is None:
        return rounds
    return stretches[-1][1] if stretches else 0


def plays(stretches: Stretches, number: int) -> bool:
    """Whether the seat was dealt into round ``number``."""
    if stretches is None:
        return True
    return any(a <= number <= b for a, b in stretches)


def shared(mine: Stretches, theirs: Stretches, rounds: int) -> bool:
    """Whether two seats of a game of ``rounds`` were dealt into at least one round together.
    Two whole seats always were (even in a game of no rounds: they sat down together)."""
    if mine is None and theirs is None:
        return True
    if mine is None or theirs is None:
        other = theirs if mine is None else mine
        return bool(other)
    return any(a <= d and c <= b for a, b in mine for c, d in theirs)
