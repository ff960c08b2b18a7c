"""One game's kept rows: its ``GameStat``, ``SeatStat`` and ``SeatContract`` rows, rewritten from
that one game whenever it changes (cheap: one game) and removed while it is in the bin; then
the rows of every player who sat at it, before and after the change (``players``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
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
from .. import ratings
from .players import Moves, pairs_moved, refresh_players
from .tables import (
    FINISHED,
    KEPT_CONTRACT_PRESETS,
    TWELVE_STEP,
    bump_version,
    game_stats,
    games_t,
    hands_t,
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
)


def _played(seat: Any, rounds: int) -> tuple[int, int, bool]:
    """The rounds a seat played of a game of ``rounds``, the points it scored in them (its
    total but for the points it joined with) and whether it sat through the whole game."""
    joined, left = seat.joined_before, seat.left_after
    first = joined if joined is not None else 1
    last = min(left, rounds) if left is not None else rounds
    brought = (seat.joined_total or 0) if joined is not None else 0
    scored = (seat.total or 0) - brought
    return max(last - first + 1, 0), scored, joined is None and left is None


def rows_of_game(
    game: Any, seats: list[Any], contracts: dict[int, list[list[int]]]
) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """The ``game_stats`` row, the ``seat_stats`` rows and the ``seat_contracts`` rows of one
    game, but for their household (``scope.for_household``'s ``rows`` gives it)."""
    kept = kept_contract(game.rules, game.rules_slug)
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
        rounds, scored, whole = _played(seat, common["round_count"])
        seat_rows.append(
            {
                **common,
                "player_id": seat.player_id,
                "round_count": rounds,
                "total": scored,
                "whole": whole,
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
        }
        for seat in (seats if kept else [])
        for contract, rounds, made in contracts.get(seat.id, [])
    ]
    return game_row, seat_rows, contract_rows


def _contracts_of(connection: Connection, *where: Any) -> dict[int, list[list[int]]]:
    """Per seat: [[contract, rounds on it, rounds it was made], ...] by contract."""
    found: dict[int, list[list[int]]] = defaultdict(list)
    rows = connection.execute(
        select(
            hands_t.c.seat_id,
            hands_t.c.contract,
            func.count(),
            func.count(case((hands_t.c.made_contract, 1))),
        )
        .where(*where)
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
        ).where(seat_stats.c.game_id == game_id)
    ).all()
    for household_id, player_id, status, _place in before:
        touched[household_id].add(player_id)
        if status == FINISHED:
            finished[household_id].add(player_id)
    for household_id in {row.household_id for row in before if row.status == FINISHED}:
        places = [(row.player_id, row.place) for row in before if row.household_id == household_id]
        pairs_moved(moved[household_id], places, -1)
    for table in (seat_contracts, seat_stats, game_stats):
        connection.execute(delete(table).where(table.c.game_id == game_id))
    game = connection.execute(
        select(*GAME_COLUMNS).where(games_t.c.id == game_id, games_t.c.deleted_at.is_(None))
    ).first()
    if game is None:  # deleted, or in the bin: it counts for nothing
        return
    seats = connection.execute(select(*SEAT_COLUMNS).where(seats_t.c.game_id == game_id)).all()
    contracts = _contracts_of(connection, hands_t.c.seat_id.in_([seat.id for seat in seats]))
    game_row, seat_rows, contract_rows = rows_of_game(game, list(seats), contracts)
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
        seats_now = [(row["player_id"], row["place"]) for row in seat_rows]
        pairs_moved(moved[game.household_id], seats_now, 1)
