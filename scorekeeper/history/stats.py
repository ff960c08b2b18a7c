"""The statistics kept up to date: what the history, players and records pages read.

Three tables (``models.GameStat``, ``SeatStat``, ``PlayerStat``) hold what every game out of
the bin counts for, so that no page aggregates over every game, seat or hand:

- a game's ``GameStat`` and ``SeatStat`` rows are rewritten from that one game whenever it
  changes (cheap: one game), and removed while it is in the bin;
- each ``PlayerStat`` row is then recomputed from that player's ``SeatStat`` rows for every
  player of the game, before and after the change (``_player_rows``: a few aggregates grouped
  by player and one ordered read of their finished seat rows, for all of them at once).

The hook is ``versions.bump`` (and ``bump_games``), which every write to a game calls before
its commit: it marks the game, and the session's ``before_commit`` brings the statistics up to
date in the same transaction; a rollback forgets the marks. A household's rows are rebuilt by
``rebuild`` (after a restore, and by the migration that made the tables) in a few set-based
passes: its games a chunk at a time, then every player's row by the same ``_player_rows``.

Everything here is Core on the session's connection, which ``scope.py``'s hook does not see:
the household of every statement and row is named through ``scope.for_household`` (a game's
own, read with it, or the one ``rebuild`` is given).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import (
    Connection,
    Text,
    and_,
    case,
    cast,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Session

from .. import scope
from ..extensions import db
from ..models import (
    Game,
    GameStat,
    Hand,
    Household,
    Player,
    PlayerStat,
    Seat,
    SeatContract,
    SeatStat,
    StatsVersion,
)
from ..status import GameStatus
from ..versions import STATS_MARKS, STATS_TOUCHED

FINISHED = GameStatus.FINISHED.value
IN_PROGRESS = GameStatus.IN_PROGRESS.value
ABANDONED = GameStatus.ABANDONED.value
TWELVE_STEP = "twelve-step"
# Where each player keeps their own contract until they make it (the rules engine's
# ``contract_order == "own"``). The presets are listed too, for games stored before the
# frozen rules carried the option.
KEPT_CONTRACT_PRESETS = ("twelve-step", "russian-rummy")
# How many candidates for each record a player row keeps: the family's top 3 are among them.
TOP = 3

games_t = Game.__table__
seats_t = Seat.__table__
hands_t = Hand.__table__
players_t = Player.__table__
game_stats = GameStat.__table__
seat_stats = SeatStat.__table__
player_stats = PlayerStat.__table__
seat_contracts = SeatContract.__table__
versions = StatsVersion.__table__


# --- refreshing the games marked changed (versions.mark) -----------------------------------------


def refresh_marked(session: Session) -> None:
    """Before every commit: the statistics of the games ``versions.bump`` marked in this
    transaction are brought up to date in it (``refresh_games``)."""
    marked = session.info.pop(STATS_MARKS, None)
    touched = session.info.pop(STATS_TOUCHED, False)
    if marked is None:
        return
    session.flush()
    ids = sorted({item if isinstance(item, int) else item.id for item in marked} - {None})
    refresh_games(session.connection(), ids)
    if touched:
        household = scope.current()
        if isinstance(household, int) and household != scope.NOBODY:
            _bump_version(session.connection(), scope.for_household(household))


def forget_marks(session: Session) -> None:
    """After a rollback: the marks of the changes undone are forgotten."""
    session.info.pop(STATS_MARKS, None)
    session.info.pop(STATS_TOUCHED, None)


def forget_marks_soft(session: Session, _previous: Any) -> None:
    """After a rollback of a nested transaction, the same."""
    session.info.pop(STATS_MARKS, None)
    session.info.pop(STATS_TOUCHED, None)


# --- one game ----------------------------------------------------------------------------------


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


_GAME_COLUMNS = (
    games_t.c.id,
    games_t.c.household_id,
    games_t.c.status,
    games_t.c.started,
    games_t.c.rules_slug,
    games_t.c.rules_name,
    games_t.c.round_count,
    games_t.c.rules,
)
_SEAT_COLUMNS = (
    seats_t.c.id,
    seats_t.c.game_id,
    seats_t.c.player_id,
    seats_t.c.position,
    seats_t.c.total,
    seats_t.c.place,
    seats_t.c.is_winner,
)


def _rows_of_game(
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
    seat_rows = [
        {
            **common,
            "player_id": seat.player_id,
            "total": seat.total or 0,
            "place": seat.place,
            "is_winner": bool(seat.is_winner),
            "kept_contract": kept,
        }
        for seat in seats
    ]
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


def refresh_games(connection: Connection, game_ids: Iterable[int]) -> None:
    """Rewrite the statistics of these games, then of every player who sat at them."""
    touched: dict[int, set[int]] = defaultdict(set)
    finished: dict[int, set[int]] = defaultdict(set)
    for game_id in game_ids:
        _refresh_game(connection, game_id, touched, finished)
    for household_id, player_ids in touched.items():
        refresh_players(connection, household_id, player_ids, finished[household_id])
        _bump_version(connection, scope.for_household(household_id))


def _refresh_game(
    connection: Connection,
    game_id: int,
    touched: dict[int, set[int]],
    finished: dict[int, set[int]],
) -> None:
    """Rewrite one game's rows; add its players, before and after, to ``touched``, and to
    ``finished`` where the game was finished before or after (only then can a player's
    numbers over finished games change: head to head, streaks, best and worst)."""
    before = connection.execute(
        select(seat_stats.c.household_id, seat_stats.c.player_id, seat_stats.c.status).where(
            seat_stats.c.game_id == game_id
        )
    ).all()
    for household_id, player_id, status in before:
        touched[household_id].add(player_id)
        if status == FINISHED:
            finished[household_id].add(player_id)
    for table in (seat_contracts, seat_stats, game_stats):
        connection.execute(delete(table).where(table.c.game_id == game_id))
    game = connection.execute(
        select(*_GAME_COLUMNS).where(games_t.c.id == game_id, games_t.c.deleted_at.is_(None))
    ).first()
    if game is None:  # deleted, or in the bin: it counts for nothing
        return
    seats = connection.execute(select(*_SEAT_COLUMNS).where(seats_t.c.game_id == game_id)).all()
    contracts = _contracts_of(connection, hands_t.c.seat_id.in_([seat.id for seat in seats]))
    game_row, seat_rows, contract_rows = _rows_of_game(game, list(seats), contracts)
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


def _bump_version(connection: Connection, household: scope.CoreHousehold) -> None:
    """Move the household's version; its row is made by the first write (two first writes
    at once both get there: the second one's insert does nothing)."""
    from sqlalchemy.dialects import postgresql, sqlite

    upsert = (
        postgresql.insert(versions)
        if connection.dialect.name == "postgresql"
        else sqlite.insert(versions)
    )
    connection.execute(
        upsert.values(household.row(version=0)).on_conflict_do_nothing(
            index_elements=[versions.c.household_id]
        )
    )
    connection.execute(
        update(versions).where(household.owns(versions)).values(version=versions.c.version + 1)
    )


# --- one player ---------------------------------------------------------------------------------


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
    runs.sort(key=lambda run: (-run[0], -run[2].timestamp()))
    return [[n, first.isoformat(), last.isoformat()] for n, first, last in runs[:TOP]]


def _finished_parts(rows: list[Any]) -> dict[str, Any]:
    """Best, worst, lowest, highest and streaks of one player from all their finished seat
    rows in order of play (started, game): the order the queries these replace asked for, the
    position in ``rows`` standing in for (started, game)."""
    scored = [(n, row) for n, row in enumerate(rows) if row.round_count > 0]
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


def _player_rows(
    connection: Connection,
    household_id: int,
    player_ids: list[int] | None,
    whole: set[int] | None,
    kept_details: dict[int, dict[str, Any]],
) -> Iterator[dict[str, Any]]:
    """The ``player_stats`` rows of these players (None: every player of the household) from
    their kept seat rows, all players at once: three aggregates grouped by player and one
    ordered read of their finished seat rows (never a query per player). ``whole`` (None:
    all) names the players whose parts over finished games are computed; the others keep
    those parts from ``kept_details`` (their row's detail as it was)."""

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
    contracts: dict[int, list[list[int]]] = defaultdict(list)
    for player_id, *contract in connection.execute(
        select(
            seat_contracts.c.player_id,
            seat_contracts.c.contract,
            func.count(),
            func.sum(seat_contracts.c.rounds),
            func.sum(seat_contracts.c.made),
        )
        .where(household.owns(seat_contracts), *chosen(seat_contracts.c.player_id))
        .group_by(seat_contracts.c.player_id, seat_contracts.c.contract)
        .order_by(seat_contracts.c.player_id, seat_contracts.c.contract)
    ):
        contracts[player_id].append([int(value) for value in contract])
    finished_parts: dict[int, dict[str, Any]] = {}
    wanted = sorted(groups) if whole is None else sorted(set(groups) & whole)
    if wanted:
        finished_parts = _finished_of(connection, household_id, wanted, player_ids is None)
    for player_id in sorted(groups):
        row = household.row(**_aggregate_row(player_id, groups[player_id], contracts[player_id]))
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
        select(seat_stats.c.player_id, seat_stats.c.round_count, *_RESULT_COLUMNS)
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
    head_to_head: dict[int, list[list[int]]] = defaultdict(list)
    for player_id, *counts in connection.execute(
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
        )
        .group_by(mine.c.player_id, theirs.c.player_id)
        .order_by(mine.c.player_id, theirs.c.player_id)
    ):
        head_to_head[player_id].append([int(value) for value in counts])
    for player_id in player_ids:
        parts = found.setdefault(player_id, _finished_parts([]))
        parts["head_to_head"] = head_to_head.get(player_id, [])
    return found


def _aggregate_row(player_id: int, groups: list[Any], contracts: list[list[int]]) -> dict[str, Any]:
    """A ``player_stats`` row's counts from its groups (by rules and status), but for its
    household."""
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
        },
    }


def _insert_players(connection: Connection, rows: Iterable[dict[str, Any]]) -> None:
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
) -> None:
    """Recompute these players' rows from their kept seat rows; ``finished`` (default: all)
    names those for whom a finished game changed, the others keep their numbers over
    finished games as they were."""
    ids = sorted(set(player_ids))
    if not ids:
        return
    whole = set(ids if finished is None else finished)
    where = (
        scope.for_household(household_id).owns(player_stats),
        player_stats.c.player_id.in_(ids),
    )
    was: dict[int, dict[str, Any]] = {
        player_id: detail
        for player_id, detail in connection.execute(
            select(player_stats.c.player_id, player_stats.c.detail).where(
                *where, player_stats.c.player_id.not_in(whole)
            )
        )
    }
    # Without a row to keep them from, a player's parts over finished games are computed.
    whole |= set(ids) - set(was)
    connection.execute(delete(player_stats).where(*where))
    _insert_players(connection, list(_player_rows(connection, household_id, ids, whole, was)))


# --- a whole household ---------------------------------------------------------------------------


def _insert_contracts(connection: Connection, household_id: int, game_ids: list[int]) -> None:
    """The ``seat_contracts`` rows of these games (all kept-contract games out of the bin), as
    ``_rows_of_game`` makes them: per seat and contract, its rounds and those it was made."""
    seat = seats_t
    hand = hands_t
    household = scope.for_household(household_id)
    connection.execute(
        household.insert_from(
            seat_contracts,
            ["game_id", "player_id", "contract", "rounds", "made"],
            select(
                seat.c.game_id,
                seat.c.player_id,
                hand.c.contract,
                func.count(),
                func.count(case((hand.c.made_contract, 1))),
            )
            .select_from(hand)
            .join(seat, seat.c.id == hand.c.seat_id)
            .where(household.owns(seat), household.owns(hand), seat.c.game_id.in_(game_ids))
            .group_by(seat.c.id, seat.c.game_id, seat.c.player_id, hand.c.contract),
        )
    )


# Games read and written at a time by ``rebuild``: memory stays flat whatever the household.
CHUNK = 2000


class _Game(NamedTuple):
    """A game as ``_rows_of_game`` reads it (``_GAME_COLUMNS``)."""

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
    (``_player_rows``)."""
    if connection is None:
        db.session.flush()
        connection = db.session.connection()
    household = scope.for_household(household_id)
    for table in (player_stats, seat_contracts, seat_stats, game_stats):
        connection.execute(delete(table).where(household.owns(table)))
    # A household's games share a few rule sets: each one's JSON is read once.
    rule_sets: dict[str | None, Any] = {}
    columns = [column for column in _GAME_COLUMNS if column is not games_t.c.rules]
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
        for seat in connection.execute(select(*_SEAT_COLUMNS).where(*chunk)):
            seats_by_game[seat.game_id].append(seat)
        # Contracts are kept only where each player keeps their own: counted and written by
        # the database in one statement, no row of them passing through Python.
        keeping = [game.id for game in games if kept_contract(game.rules, game.rules_slug)]
        if keeping:
            _insert_contracts(connection, household_id, keeping)
        game_rows: list[dict[str, Any]] = []
        seat_rows: list[dict[str, Any]] = []
        for game in games:
            # No contracts given: they are in already.
            game_row, its_seats, _ = _rows_of_game(game, seats_by_game.get(game.id, []), {})
            game_rows.append(game_row)
            seat_rows += its_seats
        connection.execute(insert(game_stats), household.rows(game_rows))
        if seat_rows:
            connection.execute(insert(seat_stats), household.rows(seat_rows))
    _insert_players(connection, _player_rows(connection, household_id, None, None, {}))
    _bump_version(connection, household)


def rebuild_all(connection: Connection) -> None:
    """Every household's statistics (the migration that made the tables fills them so)."""
    for household_id in connection.execute(select(Household.__table__.c.id)).scalars():
        rebuild(household_id, connection)
