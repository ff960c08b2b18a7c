"""The game file's comings and goings (issue 43, issue 49): ``left`` (``{NAME: N}``, the player
left after round N, or ``{NAME: [N1, N2]}`` where they left more than once) and ``joined``
(``{NAME: {"before_round": N, "total": T}}``, the player joined before round N with T points,
or a list of such objects), read into the tally's ``Lineup`` and written back. A join after
that player's leave is a comeback. Pure, no database. See ``shared/spec/game-format.md``."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise
from typing import Any

from scorekeeper.limits import MAX_TOTAL
from scorekeeper.names import name_key
from scorekeeper.rules import N_

from .tally import Comeback, Lineup

# The most points a joiner may bring: the most a total the app computes can reach.
MAX_JOINING_TOTAL = MAX_TOTAL

# A join as the file gives it: the round it comes before, and the total (None: not given).
_Join = tuple[int, int | None]


def read_lineup(
    document: Mapping[str, Any],
    names: list[str],
    keys: dict[str, int],
    rounds: int,
    problems: list[str],
) -> Lineup:
    """The ``left`` and ``joined`` of ``document`` for a game of ``names`` and ``rounds``
    rounds; each problem, naming the player, goes to ``problems``."""
    leaves = _read_left(document.get("left", {}), names, keys, rounds, problems)
    joins = _read_joined(document.get("joined", {}), names, keys, rounds, problems)
    left: dict[int, int] = {}
    joined: dict[int, tuple[int, int]] = {}
    returns: dict[int, tuple[Comeback, ...]] = {}
    for seat in sorted({*leaves, *joins}):
        if not _follow(names[seat], leaves.get(seat, []), joins.get(seat, []), problems):
            continue
        last, first, aways = _stretches(leaves.get(seat, []), joins.get(seat, []))
        if last is not None:
            left[seat] = last
        if first is not None:
            joined[seat] = first
        if aways:
            returns[seat] = aways
    return Lineup(left=left, joined=joined, returns=returns)


def _seat(name: Any, keys: dict[str, int]) -> int | None:
    return keys.get(name_key(name)) if isinstance(name, str) else None


def _whole(value: Any, fewest: int, most: int) -> int | None:
    """``value`` where it is a whole number from ``fewest`` to ``most``, else None."""
    if isinstance(value, int) and not isinstance(value, bool) and fewest <= value <= most:
        return value
    return None


def _in_order(key: str, name: str, rounds: list[int], problems: list[str]) -> bool:
    """Whether ``rounds`` (a player's leaves or joins) come in the order played, each once."""
    if all(earlier < later for earlier, later in pairwise(rounds)):
        return True
    problems.append(
        N_(
            '"%(key)s": give %(name)s\'s rounds in the order they were played, each once.',
            key=key,
            name=name,
        )
    )
    return False


def _read_left(
    data: Any, names: list[str], keys: dict[str, int], rounds: int, problems: list[str]
) -> dict[int, list[int]]:
    if not isinstance(data, Mapping):
        problems.append(N_('"left" must be an object {NAME: the last round played}.'))
        return {}
    left: dict[int, list[int]] = {}
    for name, given in data.items():
        seat = _seat(name, keys)
        if seat is None:
            problems.append(
                N_('"left" names %(name)s, who is not a player of this game.', name=repr(name))
            )
            continue
        # One leave, or a list of them where the player came back in between.
        lasts = given if isinstance(given, list) and given else [given]
        read = [_whole(last, 1, rounds) for last in lasts]
        for last, whole in zip(lasts, read, strict=True):
            if whole is None:
                problems.append(
                    N_(
                        '"left": %(name)s left after round %(value)s; give a round played, 1 '
                        "to %(rounds)s.",
                        name=names[seat],
                        value=repr(last),
                        rounds=rounds,
                    )
                )
        wholes = [whole for whole in read if whole is not None]
        if len(wholes) == len(read) and _in_order("left", names[seat], wholes, problems):
            left[seat] = wholes
    return left


def _read_joined(
    data: Any, names: list[str], keys: dict[str, int], rounds: int, problems: list[str]
) -> dict[int, list[_Join]]:
    if not isinstance(data, Mapping):
        problems.append(N_('"joined" must be an object {NAME: {"before_round": N, "total": T}}.'))
        return {}
    joined: dict[int, list[_Join]] = {}
    for name, given in data.items():
        seat = _seat(name, keys)
        if seat is None:
            problems.append(
                N_('"joined" names %(name)s, who is not a player of this game.', name=repr(name))
            )
            continue
        # One join, or a list of them: the later ones are comebacks.
        entries = given if isinstance(given, list) and given else [given]
        read = [_read_join(names[seat], entry, rounds, problems) for entry in entries]
        joins = [join for join in read if join is not None]
        if len(joins) == len(read) and _in_order(
            "joined", names[seat], [before for before, _ in joins], problems
        ):
            joined[seat] = joins
    return joined


def _read_join(name: str, entry: Any, rounds: int, problems: list[str]) -> _Join | None:
    given = entry if isinstance(entry, Mapping) else {}
    before = _whole(given.get("before_round"), 2, rounds + 1)
    total = given.get("total")
    if before is None:
        problems.append(
            N_(
                '"joined": %(name)s joined before round %(value)s; give a round from 2 to '
                "%(rounds)s.",
                name=name,
                value=repr(given.get("before_round")),
                rounds=rounds + 1,
            )
        )
        return None
    if total is not None and _whole(total, 0, MAX_JOINING_TOTAL) is None:
        problems.append(_total_problem(name, total))
        return None
    return before, total


def _total_problem(name: str, total: Any) -> str:
    return N_(
        '"joined": %(name)s joined with %(value)s points; give a whole number from 0 to %(most)s.',
        name=name,
        value=repr(total),
        most=str(MAX_JOINING_TOTAL),
    )


def _leaves_first(leaves: list[int], joins: list[_Join], at_table: bool) -> bool:
    """Whether the next of ``leaves`` comes before the next of ``joins``: a leave after round
    N and a join before round N + 1 fall between the same rounds, and the one the player can
    make (leave while at the table, join while away) comes first."""
    if not joins:
        return True
    if not leaves:
        return False
    return leaves[0] < joins[0][0] - 1 or (leaves[0] == joins[0][0] - 1 and at_table)


def _starts_away(leaves: list[int], joins: list[_Join]) -> bool:
    """Whether the player's first join comes before any leave (then they are in no earlier
    round); else they were at the table from round 1."""
    return bool(joins) and not _leaves_first(leaves, joins, at_table=True)


def _follow(name: str, leaves: list[int], joins: list[_Join], problems: list[str]) -> bool:
    """Whether one player's leaves and joins can be, in the order they happen: a leave comes
    after a round the player was in, a join (a comeback too) while they are away, and a
    first join gives the points brought. The first problem goes to ``problems``."""
    leaves, joins = list(leaves), list(joins)
    at_table = not _starts_away(leaves, joins)
    first = 1
    gone: int | None = None
    while leaves or joins:
        if _leaves_first(leaves, joins, at_table):
            last = leaves.pop(0)
            if not at_table:
                problems.append(
                    N_(
                        "%(name)s left after round %(round)s, but had left after round "
                        "%(left)s and not come back.",
                        name=name,
                        round=last,
                        left=gone or 0,
                    )
                )
                return False
            if last < first:
                problems.append(
                    N_(
                        "%(name)s left after round %(left)s, before joining before round "
                        "%(joined)s.",
                        name=name,
                        left=last,
                        joined=first,
                    )
                )
                return False
            at_table, gone = False, last
        else:
            before, total = joins.pop(0)
            if at_table:
                problems.append(
                    N_(
                        "%(name)s joined before round %(round)s while at the table already.",
                        name=name,
                        round=before,
                    )
                )
                return False
            if gone is None and total is None:
                problems.append(_total_problem(name, total))
                return False
            at_table, first = True, before
    return True


def _stretches(
    leaves: list[int], joins: list[_Join]
) -> tuple[int | None, tuple[int, int] | None, tuple[Comeback, ...]]:
    """One player's last leave (None: at the table at the end), first join (None: there from
    round 1) and comebacks, read in the order they happen (``_follow`` says what is wrong)."""
    leaves, joins = list(leaves), list(joins)
    first: tuple[int, int] | None = None
    if _starts_away(leaves, joins):
        before, total = joins.pop(0)
        first = (before, total or 0)
    aways: list[Comeback] = []
    while leaves and joins:
        last = leaves.pop(0)
        before, total = joins.pop(0)
        aways.append(Comeback(last, before, total))
    return (leaves[-1] if leaves else None), first, tuple(aways)


def write_lineup(lineup: Lineup, names: tuple[str, ...]) -> dict[str, Any]:
    """The document's ``left`` and ``joined``, only where someone came or went (a file of a game
    without either reads as before). A player who left or joined once is written in the
    single form (``{NAME: N}``, ``{NAME: {...}}``) that files of the earlier form hold; a list
    only where there are more."""
    left: dict[str, Any] = {}
    joined: dict[str, Any] = {}
    for seat in sorted({*lineup.left, *lineup.joined, *lineup.returns}):
        aways = lineup.returns.get(seat, ())
        leaves: list[int] = [away.left_after for away in aways]
        if seat in lineup.left:
            leaves.append(lineup.left[seat])
        joins: list[dict[str, int]] = []
        if seat in lineup.joined:
            before, total = lineup.joined[seat]
            joins.append({"before_round": before, "total": total})
        for away in aways:
            back = {"before_round": away.before_round}
            if away.total is not None:
                back["total"] = away.total
            joins.append(back)
        if leaves:
            left[names[seat]] = leaves[0] if len(leaves) == 1 else leaves
        if joins:
            joined[names[seat]] = joins[0] if len(joins) == 1 else joins
    written: dict[str, Any] = {}
    if left:
        written["left"] = left
    if joined:
        written["joined"] = joined
    return written


def absent_problem(number: int, name: str, seat: int, lineup: Lineup) -> str:
    """Why ``name`` may not appear in round ``number``: they left before it or joined after."""
    for away in lineup.returns.get(seat, ()):
        if away.left_after < number < away.before_round:
            return N_(
                "Round %(round)s: %(name)s left after round %(left)s and came back before round "
                "%(back)s.",
                round=number,
                name=name,
                left=away.left_after,
                back=away.before_round,
            )
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
