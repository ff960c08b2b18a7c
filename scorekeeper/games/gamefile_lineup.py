"""The game file's comings and goings (issue 43): ``left`` (``{NAME: N}``, the player left after
round N) and ``joined`` (``{NAME: {"before_round": N, "total": T}}``, the player joined before
round N with T points), read into the tally's ``Lineup`` and written back. Pure, no database.
See ``shared/spec/game-format.md``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.names import name_key
from scorekeeper.rules import N_

from .tally import Lineup

# The most points a joiner may bring: far above any total a game reaches.
MAX_JOINING_TOTAL = 999_999


def read_lineup(
    document: Mapping[str, Any],
    names: list[str],
    keys: dict[str, int],
    rounds: int,
    problems: list[str],
) -> Lineup:
    """The ``left`` and ``joined`` of ``document`` for a game of ``names`` and ``rounds``
    rounds; each problem, naming the player, goes to ``problems``."""
    left = _read_left(document.get("left", {}), names, keys, rounds, problems)
    joined = _read_joined(document.get("joined", {}), names, keys, rounds, problems)
    for seat, last in left.items():
        if seat in joined and last < joined[seat][0]:
            problems.append(
                N_(
                    "%(name)s left after round %(left)s, before joining before round %(joined)s.",
                    name=names[seat],
                    left=last,
                    joined=joined[seat][0],
                )
            )
    return Lineup(left=left, joined=joined)


def _seat(name: Any, keys: dict[str, int]) -> int | None:
    return keys.get(name_key(name)) if isinstance(name, str) else None


def _whole(value: Any, fewest: int, most: int) -> int | None:
    """``value`` where it is a whole number from ``fewest`` to ``most``, else None."""
    if isinstance(value, int) and not isinstance(value, bool) and fewest <= value <= most:
        return value
    return None


def _read_left(
    data: Any, names: list[str], keys: dict[str, int], rounds: int, problems: list[str]
) -> dict[int, int]:
    if not isinstance(data, Mapping):
        problems.append(N_('"left" must be an object {NAME: the last round played}.'))
        return {}
    left: dict[int, int] = {}
    for name, last in data.items():
        seat = _seat(name, keys)
        if seat is None:
            problems.append(
                N_('"left" names %(name)s, who is not a player of this game.', name=repr(name))
            )
        elif _whole(last, 1, rounds) is None:
            problems.append(
                N_(
                    '"left": %(name)s left after round %(value)s; give a round played, 1 to '
                    "%(rounds)s.",
                    name=names[seat],
                    value=repr(last),
                    rounds=rounds,
                )
            )
        else:
            left[seat] = last
    return left


def _read_joined(
    data: Any, names: list[str], keys: dict[str, int], rounds: int, problems: list[str]
) -> dict[int, tuple[int, int]]:
    if not isinstance(data, Mapping):
        problems.append(N_('"joined" must be an object {NAME: {"before_round": N, "total": T}}.'))
        return {}
    joined: dict[int, tuple[int, int]] = {}
    for name, entry in data.items():
        seat = _seat(name, keys)
        if seat is None:
            problems.append(
                N_('"joined" names %(name)s, who is not a player of this game.', name=repr(name))
            )
            continue
        given = entry if isinstance(entry, Mapping) else {}
        before = _whole(given.get("before_round"), 2, rounds + 1)
        total = _whole(given.get("total"), 0, MAX_JOINING_TOTAL)
        if before is None:
            problems.append(
                N_(
                    '"joined": %(name)s joined before round %(value)s; give a round from 2 to '
                    "%(rounds)s.",
                    name=names[seat],
                    value=repr(given.get("before_round")),
                    rounds=rounds + 1,
                )
            )
        elif total is None:
            problems.append(
                N_(
                    '"joined": %(name)s joined with %(value)s points; give a whole number from '
                    "0 to %(most)s.",
                    name=names[seat],
                    value=repr(given.get("total")),
                    most=str(MAX_JOINING_TOTAL),
                )
            )
        else:
            joined[seat] = (before, total)
    return joined


def absent_problem(number: int, name: str, seat: int, lineup: Lineup) -> str:
    """Why ``name`` may not appear in round ``number``: they left before it or joined after."""
    if seat in lineup.left and number > lineup.left[seat]:
        return N_(
            "Round %(round)s: %(name)s left after round %(left)s and is in no later round.",
            round=number,
            name=name,
            left=lineup.left[seat],
        )
    return N_(
        "Round %(round)s: %(name)s joined before round %(joined)s and is in no earlier round.",
        round=number,
        name=name,
        joined=lineup.joined[seat][0],
    )


def write_lineup(lineup: Lineup, names: tuple[str, ...]) -> dict[str, Any]:
    """The document's ``left`` and ``joined``, only where someone came or went (a file of a game
    without either reads as before)."""
    written: dict[str, Any] = {}
    if lineup.left:
        written["left"] = {names[seat]: last for seat, last in sorted(lineup.left.items())}
    if lineup.joined:
        written["joined"] = {
            names[seat]: {"before_round": before, "total": total}
            for seat, (before, total) in sorted(lineup.joined.items())
        }
    return written
