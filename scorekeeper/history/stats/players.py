"""Each player's kept sums (``PlayerStat``), recomputed from their kept seat rows: a few
aggregates grouped by player and, for a rebuild, one ordered read of their finished seat rows,
for all the players asked at once (never a query per player). A save that changed a finished
game moves its players' head to head by the game and reads their best, worst and streaks a
few rows each (``_narrow_parts``): never every finished game of theirs."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Connection,
    and_,
    case,
    delete,
    func,
    insert,
    or_,
    select,
)

from ... import scope
from ..played import Stretches, shared
from .tables import (
    ABANDONED,
    FINISHED,
    IN_PROGRESS,
    TOP,
    player_stats,
    players_t,
    seat_contracts,
    seat_stats,
)


def _result(row: Any) -> dict[str, Any]:
    return {
        "game_id": row.game_id,
        "started": row.started.isoformat(),
        "rules_name": row.rules_name,
        "total": row.total,
        "place": row.place,
        "is_winner": bool(row.is_winner),
        "players": row.players,
    }


_RESULT_COLUMNS = (
    seat_stats.c.game_id,
    seat_stats.c.started,
    seat_stats.c.rules_name,
    seat_stats.c.total,
    seat_stats.c.place,
    seat_stats.c.is_winner,
    seat_stats.c.players,
)


def _runs(rows: Iterable[tuple[bool, datetime]]) -> list[list[Any]]:
    """The three longest runs of finished games won in a row (of two or more) in ``rows``
    (won, started) in order of play, longest first, then latest first:
    [[length, first start, last start], ...]."""
    runs: list[tuple[int, datetime, datetime]] = []
    length, first, last = 0, None, None
    for won, started in rows:
        if won:
            length, first, last = length + 1, first or started, started
            continue
        if length > 1 and first is not None and last is not None:
            runs.append((length, first, last))
        length, first, last = 0, None, None
    if length > 1 and first is not None and last is not None:
        runs.append((length, first, last))
    return _longest(runs)


def _longest(runs: list[tuple[int, datetime, datetime]]) -> list[list[Any]]:
    """The three longest of ``runs`` (length, first start, last start; in order of play),
    then latest first."""
    runs = sorted(runs, key=lambda run: (-run[0], -run[2].timestamp()))
    return [[n, first.isoformat(), last.isoformat()] for n, first, last in runs[:TOP]]


def _finished_parts(rows: list[Any]) -> dict[str, Any]:
    """Best, worst, lowest, highest and streaks of one player from all their finished seat
    rows in order of play (started, game): the order the queries these replace asked for, the
    position in ``rows`` standing in for (started, game)."""
    # A game left early or joined late is no total to compare (``SeatStat.whole``).
    scored = [(n, row) for n, row in enumerate(rows) if row.round_count > 0 and row.whole]
    best = min(scored, key=lambda item: (item[1].total, -item[0]), default=None)
    worst = min(scored, key=lambda item: (-item[1].total, -item[0]), default=None)
    lowest = sorted(scored, key=lambda item: (item[1].total, item[0]))[:TOP]
    highest = sorted(scored, key=lambda item: (-item[1].total, item[0]))[:TOP]
    return {
        "best": _result(best[1]) if best else None,
        "worst": _result(worst[1]) if worst else None,
        # Each player's own best candidates: the family's best are among them.
        "lowest": [_result(row) for _, row in lowest],
        "highest": [_result(row) for _, row in highest],
        "streaks": _runs((bool(row.is_winner), row.started) for row in rows),
    }


# What only finished games decide: kept as it was while none of the player's finished games
# changed (a round saved in a game still being played, the common write).
FINISHED_PARTS = ("head_to_head", "best", "worst", "lowest", "highest", "streaks")


def player_rows(
    connection: Connection,
    household_id: int,
    player_ids: list[int] | None,
    whole: set[int] | None,
    kept_details: dict[int, dict[str, Any]],
    moved: Moves | None = None,
) -> Iterator[dict[str, Any]]:
    """The ``player_stats`` rows of these players (None: every player of the household) from
    their kept seat rows, all players at once: three aggregates grouped by player and one
    ordered read of their finished seat rows (never a query per player). ``whole`` (None:
    all) names the players whose parts over finished games are computed; the others keep
    those parts from ``kept_details`` (their row's detail as it was). With ``moved`` (the
    changed games' head to head), those of ``whole`` with a kept row move their head to head
    by it and read the other parts narrowly (``_narrow_parts``): a save reads a few rows of
    each player, not every finished game of theirs."""

    def chosen(column: Any) -> tuple[Any, ...]:
        return () if player_ids is None else (column.in_(player_ids),)

    household = scope.for_household(household_id)
    mine = (household.owns(seat_stats), *chosen(seat_stats.c.player_id))
    existing = set(
        connection.execute(
            select(players_t.c.id).where(household.owns(players_t), *chosen(players_t.c.id))
        ).scalars()
    )
    groups: dict[int, list[Any]] = defaultdict(list)
    for player_id, *group in connection.execute(
        select(
            seat_stats.c.player_id,
            seat_stats.c.rules_slug,
            seat_stats.c.status,
            func.max(seat_stats.c.rules_name),
            func.count(),
            func.count(case((seat_stats.c.is_winner, 1))),
            func.coalesce(func.sum(seat_stats.c.total), 0),
            func.coalesce(func.sum(seat_stats.c.round_count), 0),
            func.max(seat_stats.c.started),
        )
        .where(*mine)
        .group_by(seat_stats.c.player_id, seat_stats.c.rules_slug, seat_stats.c.status)
    ):
        if player_id in existing:
            groups[player_id].append(group)
    # The standard games' contracts and Phase 10's phases apart: never summed together.
    contracts: dict[int, list[list[int]]] = defaultdict(list)
    phases: dict[int, list[list[int]]] = defaultdict(list)
    for player_id, is_phase, *contract in connection.execute(
        select(
            seat_contracts.c.player_id,
            seat_contracts.c.phases,
            seat_contracts.c.contract,
            func.count(),
            func.sum(seat_contracts.c.rounds),
            func.sum(seat_contracts.c.made),
        )
        .where(household.owns(seat_contracts), *chosen(seat_contracts.c.player_id))
        .group_by(seat_contracts.c.player_id, seat_contracts.c.phases, seat_contracts.c.contract)
        .order_by(seat_contracts.c.player_id, seat_contracts.c.phases, seat_contracts.c.contract)
    ):
        (phases if is_phase else contracts)[player_id].append([int(value) for value in contract])
    finished_parts: dict[int, dict[str, Any]] = {}
    wanted = set(groups) if whole is None else set(groups) & whole
    narrow = sorted(wanted & set(kept_details)) if moved is not None else []
    if narrow:
        finished_parts = _narrow_parts(connection, household_id, narrow)
        opponents = set(
            connection.execute(select(players_t.c.id).where(household.owns(players_t))).scalars()
        )
        for player_id in narrow:
            kept = kept_details[player_id].get("head_to_head")
            finished_parts[player_id]["head_to_head"] = _head_to_head_moved(
                kept, player_id, moved or {}, opponents
            )
    if wanted - set(narrow):
        finished_parts |= _finished_of(
            connection, household_id, sorted(wanted - set(narrow)), player_ids is None
        )
    for player_id in sorted(groups):
        row = household.row(
            **_aggregate_row(player_id, groups[player_id], contracts[player_id], phases[player_id])
        )
        if whole is None or player_id in whole:
            parts = finished_parts.get(player_id) or _finished_parts([])
            row["detail"].update({"head_to_head": [], **parts})
        else:
            kept = kept_details.get(player_id) or {}
            row["detail"].update({part: kept.get(part) for part in FINISHED_PARTS})
        yield row


def _finished_of(
    connection: Connection, household_id: int, player_ids: list[int], everyone: bool
) -> dict[int, dict[str, Any]]:
    """The parts over finished games of these players: head to head in one aggregate, the
    others from one ordered read of their finished seat rows, a player at a time."""

    def chosen(column: Any) -> tuple[Any, ...]:
        return () if everyone else (column.in_(player_ids),)

    household = scope.for_household(household_id)
    found: dict[int, dict[str, Any]] = {}
    rows = connection.execute(
        select(
            seat_stats.c.player_id, seat_stats.c.round_count, seat_stats.c.whole, *_RESULT_COLUMNS
        )
        .where(
            household.owns(seat_stats),
            seat_stats.c.status == FINISHED,
            *chosen(seat_stats.c.player_id),
        )
        .order_by(seat_stats.c.player_id, seat_stats.c.started, seat_stats.c.game_id)
        .execution_options(yield_per=2000)
    )
    current: int | None = None
    theirs_rows: list[Any] = []
    for row in rows:
        if row.player_id != current:
            if current is not None:
                found[current] = _finished_parts(theirs_rows)
            current, theirs_rows = row.player_id, []
        theirs_rows.append(row)
    if current is not None:
        found[current] = _finished_parts(theirs_rows)
    rows.close()
    mine = seat_stats.alias("mine")
    theirs = seat_stats.alias("theirs")
    head_to_head: dict[int, dict[int, list[int]]] = defaultdict(dict)
    # Pairs where one sat through the whole game: they shared a round wherever the other
    # played one. Pairs that both came or went are read apart (few) and their rounds compared.
    for player_id, opponent, *counts in connection.execute(
        select(
            mine.c.player_id,
            theirs.c.player_id,
            func.count(),
            func.count(case((mine.c.place < theirs.c.place, 1))),
            func.count(case((mine.c.place > theirs.c.place, 1))),
            func.count(case((mine.c.place == theirs.c.place, 1))),
        )
        .select_from(mine)
        .join(
            theirs,
            and_(theirs.c.game_id == mine.c.game_id, theirs.c.player_id != mine.c.player_id),
        )
        .where(
            household.owns(mine),
            mine.c.status == FINISHED,
            *chosen(mine.c.player_id),
            or_(
                and_(mine.c.whole, or_(theirs.c.whole, theirs.c.round_count > 0)),
                and_(theirs.c.whole, mine.c.round_count > 0),
            ),
        )
        .group_by(mine.c.player_id, theirs.c.player_id)
    ):
        head_to_head[player_id][opponent] = [int(value) for value in counts]
    partial: Moves = {}
    for player_id, opponent, my_place, their_place, my_rounds, their_rounds in connection.execute(
        select(
            mine.c.player_id,
            theirs.c.player_id,
            mine.c.place,
            theirs.c.place,
            mine.c.stretches,
            theirs.c.stretches,
        )
        .select_from(mine)
        .join(
            theirs,
            and_(theirs.c.game_id == mine.c.game_id, theirs.c.player_id != mine.c.player_id),
        )
        .where(
            household.owns(mine),
            mine.c.status == FINISHED,
            *chosen(mine.c.player_id),
            mine.c.whole.is_(False),
            theirs.c.whole.is_(False),
        )
    ):
        if not shared(my_rounds, their_rounds, 0):
            continue
        counts = partial.setdefault((player_id, opponent), [0, 0, 0, 0])
        counts[0] += 1
        if my_place is not None and their_place is not None:
            counts[1] += my_place < their_place
            counts[2] += my_place > their_place
            counts[3] += my_place == their_place
    for (player_id, opponent), counts in partial.items():
        was = head_to_head[player_id].get(opponent, [0, 0, 0, 0])
        head_to_head[player_id][opponent] = [a + b for a, b in zip(was, counts, strict=True)]
    for player_id in player_ids:
        parts = found.setdefault(player_id, _finished_parts([]))
        parts["head_to_head"] = [
            [opponent, *counts] for opponent, counts in sorted(head_to_head[player_id].items())
        ]
    return found


# A change of head to head: (player, opponent) -> [games, won, lost, tied] to add.
Moves = dict[tuple[int, int], list[int]]


def pairs_moved(
    moved: Moves, seats: Iterable[tuple[int, int | None, Stretches]], sign: int, rounds: int
) -> None:
    """Add (``sign`` 1) or take away (-1) to ``moved`` one finished game's head to head from
    its seats (player, place, stretches) in a game of ``rounds``: what the aggregate of
    ``_finished_of`` counts for it. Two players count only where they were dealt into a round
    together."""
    seats = list(seats)
    for mine, my_place, my_rounds in seats:
        for theirs, their_place, their_rounds in seats:
            if theirs == mine or not shared(my_rounds, their_rounds, rounds):
                continue
            counts = moved.setdefault((mine, theirs), [0, 0, 0, 0])
            counts[0] += sign
            if my_place is not None and their_place is not None:
                counts[1] += sign * (my_place < their_place)
                counts[2] += sign * (my_place > their_place)
                counts[3] += sign * (my_place == their_place)


def _head_to_head_moved(
    kept: list[list[int]] | None, player_id: int, moved: Moves, existing: set[int]
) -> list[list[int]]:
    """A player's kept head to head with the changed games' counts moved: a sum, so the
    games' old counts taken away and their new ones added give what the aggregate over all
    their games would. Opponents no longer in the household (merged away) are left out."""
    counts = {int(row[0]): [int(value) for value in row[1:]] for row in kept or []}
    for (mine, theirs), change in moved.items():
        if mine == player_id:
            was = counts.setdefault(theirs, [0, 0, 0, 0])
            counts[theirs] = [a + b for a, b in zip(was, change, strict=True)]
    return [
        [theirs, *counts[theirs]]
        for theirs in sorted(counts)
        if counts[theirs][0] > 0 and theirs in existing
    ]


def _narrow_parts(
    connection: Connection, household_id: int, player_ids: list[int]
) -> dict[int, dict[str, Any]]:
    """Best, worst, lowest, highest and streaks of these players as ``_finished_parts`` gives
    them, without reading their finished games into Python: each total a few rows read by the
    totals' index in its order, the streaks counted by the database over the finished games'
    index (a player's wins with as many losses before them are one run)."""
    household = scope.for_household(household_id)
    found: dict[int, dict[str, Any]] = {}
    for player_id in player_ids:
        scored = select(*_RESULT_COLUMNS).where(
            household.owns(seat_stats),
            seat_stats.c.player_id == player_id,
            seat_stats.c.status == FINISHED,
            seat_stats.c.round_count > 0,
            seat_stats.c.whole,
        )
        total, started, game_id = seat_stats.c.total, seat_stats.c.started, seat_stats.c.game_id
        # Ties go to the latest game for the best and worst, the earliest for the candidates.
        best = connection.execute(scored.order_by(total, started.desc(), game_id.desc()).limit(1))
        worst = connection.execute(
            scored.order_by(total.desc(), started.desc(), game_id.desc()).limit(1)
        )
        lowest = connection.execute(scored.order_by(total, started, game_id).limit(TOP))
        highest = connection.execute(scored.order_by(total.desc(), started, game_id).limit(TOP))
        best_row, worst_row = best.first(), worst.first()
        found[player_id] = {
            "best": _result(best_row) if best_row else None,
            "worst": _result(worst_row) if worst_row else None,
            "lowest": [_result(row) for row in lowest],
            "highest": [_result(row) for row in highest],
            "streaks": _longest(_runs_of(connection, household, player_id)),
        }
    return found


def _runs_of(
    connection: Connection, household: scope.CoreHousehold, player_id: int
) -> list[tuple[int, datetime, datetime]]:
    """One player's runs of finished games won in a row (of two or more), in order of play:
    their wins after as many losses are one run, counted by the database over the finished
    games' index in its order (one player at a time: so the index gives the order)."""
    losses = func.sum(case((seat_stats.c.is_winner, 0), else_=1)).over(
        order_by=(seat_stats.c.started, seat_stats.c.game_id)
    )
    games = (
        select(seat_stats.c.started, seat_stats.c.is_winner, losses.label("losses"))
        .where(
            household.owns(seat_stats),
            seat_stats.c.player_id == player_id,
            seat_stats.c.status == FINISHED,
        )
        .subquery()
    )
    return [
        (int(length), first, last)
        for length, first, last in connection.execute(
            select(func.count(), func.min(games.c.started), func.max(games.c.started))
            .where(games.c.is_winner.is_(True))
            .group_by(games.c.losses)
            .having(func.count() > 1)
            .order_by(games.c.losses)
        )
    ]


def _aggregate_row(
    player_id: int, groups: list[Any], contracts: list[list[int]], phases: list[list[int]]
) -> dict[str, Any]:
    """A ``player_stats`` row's counts from its groups (by rules and status), but for its
    household; its contracts of the standard games and its phases of Phase 10's apart."""
    by_rules: dict[str, list[Any]] = {}
    statuses: dict[str, int] = defaultdict(int)
    last_played: datetime | None = None
    for slug, status, name, games, wins, points, rounds, latest in groups:
        statuses[status] += games
        kept = by_rules.setdefault(slug, [slug, name, 0, 0, 0, 0, 0])
        kept[1] = max(kept[1], name)
        kept[2] += games
        kept[3] += games if status == FINISHED else 0
        kept[4] += wins
        if status == FINISHED:
            # Points a round sits beside games and wins: it counts the same, finished, games.
            kept[5] += int(points)
            kept[6] += int(rounds)
        if last_played is None or latest > last_played:
            last_played = latest
    return {
        "player_id": player_id,
        "games": sum(statuses.values()),
        "finished": statuses[FINISHED],
        "wins": sum(kept[4] for kept in by_rules.values()),
        "in_progress": statuses[IN_PROGRESS],
        "abandoned": statuses[ABANDONED],
        "last_played": last_played,
        "detail": {
            "by_rules": [by_rules[slug] for slug in sorted(by_rules)],
            "contracts": contracts,
            "phases": phases,
        },
    }


def insert_players(connection: Connection, rows: Iterable[dict[str, Any]]) -> None:
    batch: list[dict[str, Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= 1000:
            connection.execute(insert(player_stats), batch)
            batch = []
    if batch:
        connection.execute(insert(player_stats), batch)


def refresh_players(
    connection: Connection,
    household_id: int,
    player_ids: Iterable[int],
    finished: Iterable[int] | None = None,
    moved: Moves | None = None,
) -> None:
    """Recompute these players' rows from their kept seat rows; ``finished`` (default: all)
    names those for whom a finished game changed, the others keep their numbers over
    finished games as they were. ``moved`` (the changed games' head to head, old taken away
    and new added) lets those of ``finished`` move their kept head to head rather than count
    it again over all their games."""
    ids = sorted(set(player_ids))
    if not ids:
        return
    whole = set(ids if finished is None else finished)
    where = (
        scope.for_household(household_id).owns(player_stats),
        player_stats.c.player_id.in_(ids),
    )
    reading = select(player_stats.c.player_id, player_stats.c.detail).where(*where)
    if moved is None:
        reading = reading.where(player_stats.c.player_id.not_in(whole))
    # Locked (in one order, as the delete below would lock them): a save beside this one
    # finds them rewritten after this one commits, and computes them afresh.
    locked = reading.order_by(player_stats.c.player_id).with_for_update()
    was: dict[int, dict[str, Any]] = dict(connection.execute(locked).all())
    # Without a row to keep them from, a player's parts over finished games are computed.
    whole |= set(ids) - set(was)
    connection.execute(delete(player_stats).where(*where))
    insert_players(connection, list(player_rows(connection, household_id, ids, whole, was, moved)))
