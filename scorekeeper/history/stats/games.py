"""One game's kept rows: its ``GameStat``, ``SeatStat`` and ``SeatContract`` rows, rewritten from
that one game whenever it changes (cheap: one game) and removed while it is in the bin; then
the rows of every player who sat at it, before and after the change (``players``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import (
    Connection,
    case,
    delete,
    func,
    insert,
    select,
)

from ... import scope
from ...games.phases import says_phases
from ...rules import get_ruleset
from .. import ratings
from ..played import plays, rounds_in, stretches_of
from .players import Moves, pairs_moved, refresh_players
from .tables import (
    FINISHED,
    KEPT_CONTRACT_PRESETS,
    TWELVE_STEP,
    bump_version,
    game_stats,
    games_t,
    hands_t,
    rounds_t,
    seat_contracts,
    seat_stats,
    seats_t,
)


def kept_contract(rules: dict[str, Any] | None, slug: str) -> bool:
    """Each player works on their own contract until they make it (the tests decide it in SQL
    too: ``tests/history/scratch.py``)."""
    rules = rules if isinstance(rules, dict) else {}
    order = rules.get("contract_order")
    if order is not None:
        return bool(order == "own")
    return rules.get("base") in KEPT_CONTRACT_PRESETS or slug in KEPT_CONTRACT_PRESETS


def phases_kept(rules: dict[str, Any] | None, slug: str) -> bool:
    """The game's contracts are phases (a Phase 10 deck's): kept apart from the standard
    games' contracts (``SeatContract.phases``), since a player's phase 2 is not their 12-Step
    contract 2. Rules that no longer read call them contracts, as the records do."""
    try:
        return says_phases(get_ruleset(rules if rules is not None else slug))
    except (ValueError, TypeError, KeyError):
        return False


def _is_twelve_step(rules: dict[str, Any] | None, slug: str) -> bool:
    base = rules.get("base") if isinstance(rules, dict) else None
    return slug == TWELVE_STEP or base == TWELVE_STEP


GAME_COLUMNS = (
    games_t.c.id,
    games_t.c.household_id,
    games_t.c.status,
    games_t.c.started,
    games_t.c.rules_slug,
    games_t.c.rules_name,
    games_t.c.round_count,
    games_t.c.rules,
)
SEAT_COLUMNS = (
    seats_t.c.id,
    seats_t.c.game_id,
    seats_t.c.player_id,
    seats_t.c.position,
    seats_t.c.total,
    seats_t.c.place,
    seats_t.c.is_winner,
    seats_t.c.left_after,
    seats_t.c.joined_before,
    seats_t.c.joined_total,
    seats_t.c.returns,
)


def _played(
    seat: Any, rounds: int, points: dict[int, int], tie_breaks: Sequence[int]
) -> tuple[int, int, Any]:
    """The rounds a seat played of a game of ``rounds``, the points it scored in them (its
    total but for the points it joined with) and its stretches at the table (None: it sat
    through the whole game). A seat that came back is counted over the rounds it played, its
    gaps left out; where a comeback set its total anew, its points are those of its hands
    (``points``, by seat: the total no longer adds them up). The game's tie-break hand (its
    number in ``tie_breaks``) is no round of its regular play: its points count in no total,
    and it counts in no seat's rounds, whether the seat was dealt into it or not."""
    returns = getattr(seat, "returns", None)
    stretches = stretches_of(seat.joined_before, seat.left_after, returns, rounds)
    brought = (seat.joined_total or 0) if seat.joined_before is not None else 0
    scored = (seat.total or 0) - brought
    if seat.id in points:
        scored = points[seat.id]
    extra = sum(1 for number in tie_breaks if number <= rounds and plays(stretches, number))
    return rounds_in(stretches, rounds) - extra, scored, stretches


def reset_seats(seats: list[Any]) -> list[int]:
    """The seats whose total a comeback set anew: their points scored are read from their
    hands."""
    return [
        seat.id
        for seat in seats
        if any(len(away) > 2 and away[2] is not None for away in seat.returns or ())
    ]


def points_of(
    connection: Connection, seat_ids: list[int], rounds: dict[int, int]
) -> dict[int, int]:
    """Per seat of ``seat_ids``: the points of its hands in its game's rounds (by seat, the
    game's round count in ``rounds``)."""
    if not seat_ids:
        return {}
    found: dict[int, int] = defaultdict(int)
    for seat_id, number, points in connection.execute(
        select(hands_t.c.seat_id, rounds_t.c.number, hands_t.c.points)
        .join(rounds_t, rounds_t.c.id == hands_t.c.round_id)
        # A tie-break hand's points count in no total.
        .where(hands_t.c.seat_id.in_(seat_ids), rounds_t.c.tie_break_hand.is_(False))
    ):
        if number <= rounds.get(seat_id, number):
            found[seat_id] += int(points or 0)
    return {seat_id: found.get(seat_id, 0) for seat_id in seat_ids}


def tie_breaks_of(connection: Connection, game_ids: list[int]) -> dict[int, list[int]]:
    """Per game of ``game_ids`` that has one: the number of its tie-break hand (the tied
    players' extra hand after the last regular one, ``rounds.tie_break_hand``)."""
    found: dict[int, list[int]] = defaultdict(list)
    if game_ids:
        for game_id, number in connection.execute(
            select(rounds_t.c.game_id, rounds_t.c.number).where(
                rounds_t.c.game_id.in_(game_ids), rounds_t.c.tie_break_hand.is_(True)
            )
        ):
            found[game_id].append(number)
    return found


def rows_of_game(
    game: Any,
    seats: list[Any],
    contracts: dict[int, list[list[int]]],
    points: dict[int, int] | None = None,
    tie_breaks: Sequence[int] = (),
) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """The ``game_stats`` row, the ``seat_stats`` rows and the ``seat_contracts`` rows of one
    game, but for their household (``scope.for_household``'s ``rows`` gives it). A seat's
    rounds leave out the game's tie-break hand (``tie_breaks``: its number, if it has one);
    the game's ``round_count`` and each seat's stretches still hold it. Contracts are asked
    whether they are phases only where there are some to keep."""
    kept = kept_contract(game.rules, game.rules_slug)
    phases = bool(kept and contracts) and phases_kept(game.rules, game.rules_slug)
    seats = sorted(seats, key=lambda seat: seat.position)
    winner = next((seat.player_id for seat in seats if seat.is_winner), None)
    common = {
        "game_id": game.id,
        "status": game.status,
        "started": game.started,
        "rules_slug": game.rules_slug,
        "rules_name": game.rules_name,
        "round_count": game.round_count or 0,
        "players": len(seats),
    }
    game_row = {
        **common,
        "twelve_step": _is_twelve_step(game.rules, game.rules_slug),
        "winner_id": winner,
    }
    seat_rows = []
    for seat in seats:
        rounds, scored, stretches = _played(seat, common["round_count"], points or {}, tie_breaks)
        seat_rows.append(
            {
                **common,
                "player_id": seat.player_id,
                "round_count": rounds,
                "total": scored,
                "whole": stretches is None,
                "stretches": stretches,
                "place": seat.place,
                "is_winner": bool(seat.is_winner),
                "kept_contract": kept,
            }
        )
    contract_rows = [
        {
            "game_id": game.id,
            "player_id": seat.player_id,
            "contract": contract,
            "rounds": rounds,
            "made": made,
            "phases": phases,
        }
        for seat in (seats if kept else [])
        for contract, rounds, made in contracts.get(seat.id, [])
    ]
    return game_row, seat_rows, contract_rows


def _contracts_of(connection: Connection, *where: Any) -> dict[int, list[list[int]]]:
    """Per seat: [[contract, rounds on it, rounds it was made], ...] by contract. A tie-break
    hand (the tied players' extra hand on the last contract) is no round on a contract."""
    found: dict[int, list[list[int]]] = defaultdict(list)
    rows = connection.execute(
        select(
            hands_t.c.seat_id,
            hands_t.c.contract,
            func.count(),
            func.count(case((hands_t.c.made_contract, 1))),
        )
        .join(rounds_t, rounds_t.c.id == hands_t.c.round_id)
        .where(*where, rounds_t.c.tie_break_hand.is_(False))
        .group_by(hands_t.c.seat_id, hands_t.c.contract)
        .order_by(hands_t.c.seat_id, hands_t.c.contract)
    )
    for seat_id, contract, rounds, made in rows:
        found[seat_id].append([int(contract), int(rounds), int(made)])
    return found


def refresh_games(connection: Connection, game_ids: Iterable[int]) -> set[int]:
    """Rewrite the statistics of these games, then of every player who sat at them; bring
    the ratings up to date, or mark them stale: returns the households marked so."""
    touched: dict[int, set[int]] = defaultdict(set)
    finished: dict[int, set[int]] = defaultdict(set)
    moved: dict[int, Moves] = defaultdict(dict)
    for game_id in game_ids:
        _refresh_game(connection, game_id, touched, finished, moved)
    for household_id, player_ids in touched.items():
        refresh_players(
            connection, household_id, player_ids, finished[household_id], moved[household_id]
        )
        bump_version(connection, scope.for_household(household_id))
    # Ratings replay from the earliest of these games (issue 26): their one hook.
    return ratings.refresh(connection, game_ids)


def _refresh_game(
    connection: Connection,
    game_id: int,
    touched: dict[int, set[int]],
    finished: dict[int, set[int]],
    moved: dict[int, Moves],
) -> None:
    """Rewrite one game's rows; add its players, before and after, to ``touched``, and to
    ``finished`` where the game was finished before or after (only then can a player's
    numbers over finished games change: head to head, streaks, best and worst); its head to
    head before (taken away) and after (added) to ``moved``."""
    before = connection.execute(
        select(
            seat_stats.c.household_id,
            seat_stats.c.player_id,
            seat_stats.c.status,
            seat_stats.c.place,
            seat_stats.c.stretches,
            game_stats.c.round_count,
        )
        .join(game_stats, game_stats.c.game_id == seat_stats.c.game_id)
        .where(seat_stats.c.game_id == game_id)
    ).all()
    for household_id, player_id, status, *_rest in before:
        touched[household_id].add(player_id)
        if status == FINISHED:
            finished[household_id].add(player_id)
    for household_id in {row.household_id for row in before if row.status == FINISHED}:
        places = [
            (row.player_id, row.place, row.stretches)
            for row in before
            if row.household_id == household_id
        ]
        pairs_moved(moved[household_id], places, -1, before[0].round_count)
    for table in (seat_contracts, seat_stats, game_stats):
        connection.execute(delete(table).where(table.c.game_id == game_id))
    game = connection.execute(
        select(*GAME_COLUMNS).where(games_t.c.id == game_id, games_t.c.deleted_at.is_(None))
    ).first()
    if game is None:  # deleted, or in the bin: it counts for nothing
        return
    seats = connection.execute(select(*SEAT_COLUMNS).where(seats_t.c.game_id == game_id)).all()
    contracts = _contracts_of(connection, hands_t.c.seat_id.in_([seat.id for seat in seats]))
    reset = reset_seats(list(seats))
    points = points_of(connection, reset, dict.fromkeys(reset, game.round_count or 0))
    tie_breaks = tie_breaks_of(connection, [game.id]).get(game.id, [])
    game_row, seat_rows, contract_rows = rows_of_game(
        game, list(seats), contracts, points, tie_breaks
    )
    theirs = scope.for_household(game.household_id)
    connection.execute(insert(game_stats), theirs.rows([game_row]))
    if seat_rows:
        connection.execute(insert(seat_stats), theirs.rows(seat_rows))
    if contract_rows:
        connection.execute(insert(seat_contracts), theirs.rows(contract_rows))
    players = {row["player_id"] for row in seat_rows}
    touched[game.household_id] |= players
    if game.status == FINISHED:
        finished[game.household_id] |= players
        seats_now = [(row["player_id"], row["place"], row["stretches"]) for row in seat_rows]
        pairs_moved(moved[game.household_id], seats_now, 1, game.round_count or 0)
