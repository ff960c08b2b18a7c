"""A household's kept statistics rebuilt from its games (after a restore, and by the migration
that made the tables) in a few set-based passes: its games a chunk at a time, then every
player's row at once."""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import (
    Boolean,
    Connection,
    Text,
    case,
    cast,
    delete,
    func,
    literal,
    select,
)

from ... import scope
from ...db import insert_rows
from ...derived import MIGRATING, STATS_WANTED
from ...extensions import db
from ...models import (
    Household,
)
from .games import (
    GAME_COLUMNS,
    SEAT_COLUMNS,
    kept_contract,
    phases_kept,
    points_of,
    reset_seats,
    rows_of_game,
    tie_breaks_of,
)
from .players import insert_players, player_rows
from .tables import (
    bump_version,
    game_stats,
    games_t,
    hands_t,
    player_stats,
    rounds_t,
    seat_contracts,
    seat_stats,
    seats_t,
)


def _insert_contracts(
    connection: Connection, household_id: int, game_ids: list[int], phases: bool
) -> None:
    """The ``seat_contracts`` rows of these games (kept-contract games out of the bin, whose
    contracts are all ``phases`` or all not), as ``rows_of_game`` makes them: per seat and
    contract, its rounds and those it was made (a tie-break hand is no round on a contract)."""
    seat = seats_t
    hand = hands_t
    household = scope.for_household(household_id)
    connection.execute(
        household.insert_from(
            seat_contracts,
            ["game_id", "player_id", "contract", "rounds", "made", "phases"],
            select(
                seat.c.game_id,
                seat.c.player_id,
                hand.c.contract,
                func.count(),
                func.count(case((hand.c.made_contract, 1))),
                literal(phases, Boolean),
            )
            .select_from(hand)
            .join(seat, seat.c.id == hand.c.seat_id)
            .join(rounds_t, rounds_t.c.id == hand.c.round_id)
            .where(
                household.owns(seat),
                household.owns(hand),
                seat.c.game_id.in_(game_ids),
                rounds_t.c.tie_break_hand.is_(False),
            )
            .group_by(seat.c.id, seat.c.game_id, seat.c.player_id, hand.c.contract),
        )
    )


# Games read and written at a time by ``rebuild``: memory stays flat whatever the household.
CHUNK = 2000


class _Game(NamedTuple):
    """A game as ``rows_of_game`` reads it (``GAME_COLUMNS``)."""

    id: int
    household_id: int
    status: str
    started: datetime
    rules_slug: str
    rules_name: str
    round_count: int | None
    rules: Any


def rebuild(household_id: int, connection: Connection | None = None) -> None:
    """Recompute every kept statistic of one household (after a restore) in a few set-based
    passes: the games' rows a chunk of games at a time (two reads, two bulk inserts and one
    INSERT ... SELECT of the contracts each), then every player's row at once
    (``player_rows``)."""
    if connection is None:
        db.session.flush()
        connection = db.session.connection()
    household = scope.for_household(household_id)
    for table in (player_stats, seat_contracts, seat_stats, game_stats):
        connection.execute(delete(table).where(household.owns(table)))
    # A household's games share a few rule sets: each one's JSON is read once.
    rule_sets: dict[str | None, Any] = {}
    phases_of: dict[tuple[str | None, str], bool] = {}
    columns = [column for column in GAME_COLUMNS if column is not games_t.c.rules]
    last = 0
    while True:
        found = connection.execute(
            select(*columns, cast(games_t.c.rules, Text).label("rules_text"))
            .where(
                household.owns(games_t),
                games_t.c.deleted_at.is_(None),
                games_t.c.id > last,
            )
            .order_by(games_t.c.id)
            .limit(CHUNK)
        ).all()
        if not found:
            break
        last = found[-1].id
        games = []
        for row in found:
            text = row.rules_text
            if text not in rule_sets:
                rule_sets[text] = json.loads(text) if text is not None else None
            games.append(_Game._make((*row[:-1], rule_sets[text])))
        chunk = (household.owns(seats_t), seats_t.c.game_id.between(games[0].id, last))
        seats_by_game: dict[int, list[Any]] = defaultdict(list)
        for seat in connection.execute(select(*SEAT_COLUMNS).where(*chunk)):
            seats_by_game[seat.game_id].append(seat)
        # Contracts are kept only where each player keeps their own: counted and written by
        # the database in one statement, no row of them passing through Python.
        # Phase 10's are kept as phases, apart (a rule set is read once a household).
        keeping: dict[bool, list[int]] = defaultdict(list)
        for game, row in zip(games, found, strict=True):
            if kept_contract(game.rules, game.rules_slug):
                key = (row.rules_text, game.rules_slug)
                if key not in phases_of:
                    phases_of[key] = phases_kept(game.rules, game.rules_slug)
                keeping[phases_of[key]].append(game.id)
        for phases, game_ids in sorted(keeping.items()):
            _insert_contracts(connection, household_id, game_ids, phases)
        # Seats whose total a comeback set anew (rare): their points are their hands'.
        counts = {game.id: game.round_count or 0 for game in games}
        reset = {
            seat.id: counts.get(seat.game_id, 0)
            for seats in seats_by_game.values()
            for seat in seats
            if seat.id in set(reset_seats(seats))
        }
        points = points_of(connection, list(reset), reset)
        # Games ended by a tie-break hand (few): it is no seat's round.
        tie_breaks = tie_breaks_of(connection, [game.id for game in games])
        game_rows: list[dict[str, Any]] = []
        seat_rows: list[dict[str, Any]] = []
        for game in games:
            # No contracts given: they are in already.
            game_row, its_seats, _ = rows_of_game(
                game, seats_by_game.get(game.id, []), {}, points, tie_breaks.get(game.id, [])
            )
            game_rows.append(game_row)
            seat_rows += its_seats
        insert_rows(connection, game_stats, household.rows(game_rows))
        if seat_rows:
            insert_rows(connection, seat_stats, household.rows(seat_rows))
    insert_players(connection, player_rows(connection, household_id, None, None, {}))
    bump_version(connection, household)


def rebuild_all(connection: Connection) -> None:
    """Every household's statistics (the migrations that made or changed the tables fill them
    so). Asked from a migration, it is done once the last migration has run, in the same
    transaction: the rows are counted by today's code, which reads columns an older
    migration's tables do not have yet."""
    if connection.info.get(MIGRATING):
        connection.info[STATS_WANTED] = True
        return
    for household_id in connection.execute(select(Household.__table__.c.id)).scalars():
        rebuild(household_id, connection)
