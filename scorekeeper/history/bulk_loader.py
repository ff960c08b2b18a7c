"""The bulk loader of a restore: the games of many checked game files stored with a few Core
inserts per table (on PostgreSQL through psycopg, by COPY), what ``games.transfer``'s
``store_game_file`` stores one game at a time, row for row. Used only by ``backup`` (an
import-linter contract says so). The hook of ``scope`` does not see these statements: every
row names its household through ``scope.for_writing``, as ``scope.CORE_MODULES`` records.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from .. import scope
from ..db import insert_rows
from ..extensions import db
from ..games.gamefile import GameFile
from ..games.gamefile_out import imported_end
from ..games.round_entry import hand_columns, round_columns
from ..games.services import stored_returns
from ..games.transfer import import_log_line
from ..models import Game, GameEvent, Hand, Player, Round, Seat, new_uid, utcnow
from ..names import name_key, tidy_name

__all__ = ["store_game_files"]


# Rows per ``IN (...)`` list: well under SQLite's and PostgreSQL's limits on parameters.
_IN_CHUNK = 500


def store_game_files(files: Sequence[GameFile]) -> list[tuple[bool, int]]:
    """Store the games of many checked game files with a few Core inserts per table, and say
    for each file, in order, whether it was stored (True) or its uid is held already (False, a
    game held before or stored from an earlier file of ``files``), with the game's id.

    What is stored is what ``transfer.store_game_file`` stores, row for row (the tally's summary
    columns, a new game's version, the change log's line and its actor), without the ORM.
    Core statements are not seen by ``scorekeeper.scope``'s hook: every row is given the
    household in scope, and every look-up kept to it, through ``scope.for_writing``. Does not
    commit: the caller's transaction holds the batch, and a failure (a uid or player stored
    meanwhile by another writer) leaves it to be rolled back whole."""
    household = scope.for_writing(db.session)
    now = utcnow()
    actor = scope.actor()
    games, seats, rounds, hands, events = (
        Game.__table__,
        Seat.__table__,
        Round.__table__,
        Hand.__table__,
        GameEvent.__table__,
    )
    uids = [checked.uid or new_uid() for checked in files]
    held = _held_uids(household, set(uids))
    first_of: dict[str, int] = {}
    fresh: list[int] = []
    for index, uid in enumerate(uids):
        if uid not in held and uid not in first_of:
            first_of[uid] = index
            fresh.append(index)
    players = _players_by_key(household, [files[index] for index in fresh], now)
    game_ids: list[int] = []
    if fresh:
        # A restore's games share a few rule sets (one object each, ``check_game_document``'s
        # ``rules_kept``): each one's data is made once.
        rules_data: dict[int, dict[str, Any]] = {}
        game_rows = [_game_row(files[index], uids[index], now, rules_data) for index in fresh]
        game_ids = _insert_with_ids(games, household.rows(game_rows))
        seat_rows = [
            _seat_row(files[index], position, name, game_id, players)
            for index, game_id in zip(fresh, game_ids, strict=True)
            for position, name in enumerate(files[index].names)
        ]
        seat_ids = iter(_insert_with_ids(seats, household.rows(seat_rows)))
        seats_of = [[next(seat_ids) for _ in files[index].names] for index in fresh]
        round_rows: list[dict[str, Any]] = []
        for index, game_id, game_seats in zip(fresh, game_ids, seats_of, strict=True):
            for number, result in enumerate(files[index].tally.rounds, start=1):
                out = None if result.went_out is None else game_seats[result.went_out]
                round_rows.append(
                    {
                        "game_id": game_id,
                        "number": number,
                        "went_out_id": out,
                        **round_columns(result),
                        "version": 1,
                        "submission": None,
                        "created_at": now,
                        "updated_at": now,
                    }
                )
        round_ids = _insert_with_ids(rounds, household.rows(round_rows)) if round_rows else []
        # The rounds' ids in the order their rows were made: game by game, round by round.
        next_round = iter(round_ids)
        hand_rows = [
            {
                "round_id": round_id,
                "seat_id": game_seats[position],
                **hand_columns(hand),
            }
            for index, game_seats in zip(fresh, seats_of, strict=True)
            for result in files[index].tally.rounds
            for round_id in (next(next_round),)
            for position, hand in enumerate(result.hands)
            if hand.in_round
        ]
        if hand_rows:
            insert_rows(db.session.connection(), hands, household.rows(hand_rows))
        insert_rows(
            db.session.connection(),
            events,
            household.rows(
                {
                    "game_id": game_id,
                    "at": now,
                    "text": import_log_line(files[index]),
                    "actor": actor,
                }
                for index, game_id in zip(fresh, game_ids, strict=True)
            ),
        )
    stored_as = dict(zip(fresh, game_ids, strict=True))
    outcome: list[tuple[bool, int]] = []
    for index, uid in enumerate(uids):
        if index in stored_as:
            outcome.append((True, stored_as[index]))
        elif uid in held:
            outcome.append((False, held[uid]))
        else:
            outcome.append((False, stored_as[first_of[uid]]))
    return outcome


def _copies(connection: Any) -> bool:
    """Whether rows go in by COPY on this connection: PostgreSQL through psycopg."""
    return bool(connection.dialect.name == "postgresql" and connection.dialect.driver == "psycopg")


def _insert_with_ids(table: Any, rows: list[dict[str, Any]]) -> list[int]:
    """Insert ``rows`` (all with the same keys, at least one) into ``table`` in the session's
    transaction, and give their new ids in the rows' order.

    On PostgreSQL through psycopg the ids are taken from the table's own sequence first, all in
    one statement, and the rows go in by COPY with them (an insert with ``RETURNING`` is a
    statement of thousands of parameters that psycopg converts anew for every batch, as the
    profile of a restore showed); elsewhere by an insert with ``RETURNING``."""
    connection = db.session.connection()
    if not _copies(connection):
        inserted = connection.execute(
            table.insert().returning(table.c.id, sort_by_parameter_order=True), rows
        )
        return [int(row[0]) for row in inserted]
    sequence = func.pg_get_serial_sequence(table.name, table.c.id.name)
    taken = connection.execute(
        select(func.nextval(sequence)).select_from(func.generate_series(1, len(rows)))
    )
    # Ascending, as the sequence would have given them to the rows one after another.
    ids = sorted(int(row[0]) for row in taken)
    with_ids = [{"id": new_id, **row} for new_id, row in zip(ids, rows, strict=True)]
    insert_rows(connection, table, with_ids)
    return ids


def _chunks(values: Sequence[str]) -> list[Sequence[str]]:
    return [values[start : start + _IN_CHUNK] for start in range(0, len(values), _IN_CHUNK)]


def _held_uids(household: scope.CoreHousehold, uids: set[str]) -> dict[str, int]:
    """The games of the household holding these uids (those in the bin too), by uid."""
    table = Game.__table__
    held: dict[str, int] = {}
    for chunk in _chunks(sorted(uids)):
        found = db.session.execute(
            select(table.c.uid, table.c.id).where(household.owns(table), table.c.uid.in_(chunk))
        )
        held.update({uid: int(game_id) for uid, game_id in found})
    return held


def _players_by_key(
    household: scope.CoreHousehold, files: Sequence[GameFile], now: datetime
) -> dict[str, int]:
    """The household's player of each name in ``files`` (as ``services.game_players_matching``:
    the same name ignoring case is the same player), made where missing; by name key."""
    table = Player.__table__
    names: dict[str, str] = {}
    for checked in files:
        for name in checked.names:
            names.setdefault(name_key(name), name)
    found: dict[str, int] = {}
    for chunk in _chunks(sorted(names)):
        rows = db.session.execute(
            select(table.c.name_key, table.c.id).where(
                household.owns(table), table.c.name_key.in_(chunk)
            )
        )
        found.update({key: int(player_id) for key, player_id in rows})
    missing = [key for key in names if key not in found]
    if missing:
        made = db.session.execute(
            table.insert().returning(table.c.id, sort_by_parameter_order=True),
            [
                household.row(name=tidy_name(names[key]), name_key=key, created_at=now)
                for key in missing
            ],
        )
        found.update(zip(missing, (int(row[0]) for row in made), strict=True))
    return found


def _game_row(
    checked: GameFile, uid: str, now: datetime, rules_data: dict[int, dict[str, Any]]
) -> dict[str, Any]:
    """A game's row but for its household (``scope.CoreHousehold.rows`` gives it);
    ``rules_data`` keeps each rule set's data by the rule set (never changed once built)."""
    tally = checked.tally
    rules = rules_data.get(id(checked.rules))
    if rules is None:
        rules = rules_data[id(checked.rules)] = checked.rules.to_dict()
    return {
        "uid": uid,
        "rules": rules,
        "rules_slug": checked.rules.slug,
        "rules_name": checked.rules.name,
        "status": tally.status,
        "started": checked.started or now,
        "ended": imported_end(checked.started, tally.is_over, now),
        "first_dealer": checked.first_dealer,
        "round_count": len(tally.rounds),
        "tie_break": tally.tie_break,
        # A new game's first version, as ``versions.bump`` leaves a game made by the ORM.
        "version": 1,
        "created_at": now,
        "updated_at": now,
        "deleted_at": None,
        "deleted_by": None,
    }


def _seat_row(
    checked: GameFile,
    position: int,
    name: str,
    game_id: int,
    players: Mapping[str, int],
) -> dict[str, Any]:
    """A seat's row but for its household (``scope.CoreHousehold.rows`` gives it)."""
    row: dict[str, Any] = {
        "game_id": game_id,
        "player_id": players[name_key(name)],
        "position": position,
        "total": 0,
        "contract": 1,
        "contracts_made": 0,
        "place": None,
        "is_winner": False,
        "may_i_used": 0,
        "left_after": checked.tally.lineup.left.get(position),
        "joined_before": None,
        "joined_total": 0,
    }
    joined = checked.tally.lineup.joined.get(position)
    if joined is not None:
        row.update(joined_before=joined[0], joined_total=joined[1])
    row["returns"] = stored_returns(checked.tally.lineup, position)
    for standing in checked.tally.standings:
        if standing.seat == position:
            row.update(
                total=standing.total,
                contract=standing.contract,
                contracts_made=standing.contracts_made,
                place=standing.place,
                is_winner=standing.is_winner,
            )
    return row
