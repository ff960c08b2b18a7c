"""The statistics kept up to date: what the history, players and records pages read.

Three tables (``models.GameStat``, ``SeatStat``, ``PlayerStat``) hold what every game out of
the bin counts for, so that no page aggregates over every game, seat or hand:

- a game's ``GameStat`` and ``SeatStat`` rows are rewritten from that one game whenever it
  changes (cheap: one game), and removed while it is in the bin;
- each ``PlayerStat`` row is then recomputed from that player's ``SeatStat`` rows (read by
  ``ix_seat_stats_player``) for every player of the game, before and after the change.

The hook is ``scoreboard.bump`` (and ``bump_games``), which every write to a game calls before
its commit: it marks the game, and the session's ``before_commit`` brings the statistics up to
date in the same transaction; a rollback forgets the marks. A household's rows are rebuilt in
one pass by ``rebuild`` (after a restore, and by the migration that made the tables).

Everything here is Core on the session's connection, so the household is named explicitly in
every statement (``scope.py`` does not reach Core statements).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, case, delete, event, func, insert, select, update
from sqlalchemy.orm import Session

from .. import scope
from ..models import (
    Game,
    GameStat,
    Hand,
    Player,
    PlayerStat,
    Seat,
    SeatStat,
    StatsVersion,
)
from ..status import GameStatus

FINISHED = GameStatus.FINISHED.value
IN_PROGRESS = GameStatus.IN_PROGRESS.value
ABANDONED = GameStatus.ABANDONED.value
TWELVE_STEP = "twelve-step"
# Where each player keeps their own contract: see ``queries.kept_contract``.
KEPT_CONTRACT_PRESETS = ("twelve-step", "russian-rummy")
# How many candidates for each record a player row keeps: the family's top 3 are among them.
TOP = 3
_MARKS = "stats_games"
_TOUCHED = "stats_touched"
_deferred: ContextVar[bool] = ContextVar("scorekeeper_stats_deferred", default=False)

games_t = Game.__table__
seats_t = Seat.__table__
hands_t = Hand.__table__
players_t = Player.__table__
game_stats = GameStat.__table__
seat_stats = SeatStat.__table__
player_stats = PlayerStat.__table__
versions = StatsVersion.__table__


# --- marking games changed ----------------------------------------------------------------------


def mark(session: Session, game: Game) -> None:
    """``game`` changes in this transaction: its statistics are refreshed before the commit."""
    session.info.setdefault(_MARKS, set()).add(game)


def mark_ids(session: Session, game_ids: Iterable[int]) -> None:
    session.info.setdefault(_MARKS, set()).update(int(game_id) for game_id in game_ids)


def touch(session: Session) -> None:
    """Something the history pages show changed, though no number did: move the version."""
    session.info.setdefault(_MARKS, set())
    session.info[_TOUCHED] = True


@contextmanager
def deferred() -> Iterator[None]:
    """Leave the statistics be inside the block (a bulk load that ``rebuild`` follows)."""
    token = _deferred.set(True)
    try:
        yield
    finally:
        _deferred.reset(token)


@event.listens_for(Session, "before_commit")
def _before_commit(session: Session) -> None:
    marked = session.info.pop(_MARKS, None)
    touched = session.info.pop(_TOUCHED, False)
    if marked is None or _deferred.get():
        return
    session.flush()
    ids = sorted(
        {item if isinstance(item, int) else item.id for item in marked} - {None}  # type: ignore[arg-type]
    )
    refresh_games(session.connection(), ids)
    if touched:
        household = scope.current()
        if isinstance(household, int) and household != scope.NOBODY:
            _bump_version(session.connection(), household)


@event.listens_for(Session, "after_rollback")
def _after_rollback(session: Session) -> None:
    session.info.pop(_MARKS, None)
    session.info.pop(_TOUCHED, None)


@event.listens_for(Session, "after_soft_rollback")
def _after_soft_rollback(session: Session, _previous: Any) -> None:
    session.info.pop(_MARKS, None)
    session.info.pop(_TOUCHED, None)


# --- one game ----------------------------------------------------------------------------------


def kept_contract(rules: dict[str, Any] | None, slug: str) -> bool:
    """Each player works on their own contract until they make it (as ``queries.kept_contract``
    decides it in SQL)."""
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
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ``game_stats`` row and the ``seat_stats`` rows of one game."""
    kept = kept_contract(game.rules, game.rules_slug)
    seats = sorted(seats, key=lambda seat: seat.position)
    winner = next((seat.player_id for seat in seats if seat.is_winner), None)
    common = {
        "household_id": game.household_id,
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
            "contracts": contracts.get(seat.id, []) if kept else [],
        }
        for seat in seats
    ]
    return game_row, seat_rows


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
    for game_id in game_ids:
        for household_id, player_ids in _refresh_game(connection, game_id).items():
            touched[household_id] |= player_ids
    for household_id, player_ids in touched.items():
        refresh_players(connection, household_id, player_ids)
        _bump_version(connection, household_id)


def _refresh_game(connection: Connection, game_id: int) -> dict[int, set[int]]:
    before = connection.execute(
        select(seat_stats.c.household_id, seat_stats.c.player_id).where(
            seat_stats.c.game_id == game_id
        )
    ).all()
    touched: dict[int, set[int]] = defaultdict(set)
    for household_id, player_id in before:
        touched[household_id].add(player_id)
    connection.execute(delete(seat_stats).where(seat_stats.c.game_id == game_id))
    connection.execute(delete(game_stats).where(game_stats.c.game_id == game_id))
    game = connection.execute(
        select(*_GAME_COLUMNS).where(games_t.c.id == game_id, games_t.c.deleted_at.is_(None))
    ).first()
    if game is None:  # deleted, or in the bin: it counts for nothing
        for household_id in {row[0] for row in before}:
            touched.setdefault(household_id, set())
        return touched
    seats = connection.execute(select(*_SEAT_COLUMNS).where(seats_t.c.game_id == game_id)).all()
    contracts = _contracts_of(connection, hands_t.c.seat_id.in_([seat.id for seat in seats]))
    game_row, seat_rows = _rows_of_game(game, list(seats), contracts)
    connection.execute(insert(game_stats), [game_row])
    if seat_rows:
        connection.execute(insert(seat_stats), seat_rows)
    touched[game.household_id] |= {row["player_id"] for row in seat_rows}
    return touched


def _bump_version(connection: Connection, household_id: int) -> None:
    moved = connection.execute(
        update(versions)
        .where(versions.c.household_id == household_id)
        .values(version=versions.c.version + 1)
    )
    if not moved.rowcount:
        connection.execute(insert(versions), [{"household_id": household_id, "version": 1}])


# --- one player ---------------------------------------------------------------------------------


@dataclass
class _ByRules:
    name: str = ""
    games: int = 0
    finished: int = 0
    wins: int = 0
    points: int = 0
    rounds: int = 0


@dataclass
class _Player:
    games: int = 0
    finished: int = 0
    wins: int = 0
    in_progress: int = 0
    abandoned: int = 0
    last_played: datetime | None = None
    by_rules: dict[str, _ByRules] = field(default_factory=dict)
    contracts: dict[int, list[int]] = field(default_factory=dict)
    scored: list[Any] = field(default_factory=list)  # finished games with rounds
    streaks: list[tuple[int, datetime, datetime]] = field(default_factory=list)


def _stamp(moment: datetime) -> str:
    return moment.isoformat()


def _summarise(rows: list[Any]) -> _Player:
    """A player's numbers from their seat rows, in the order they played them."""
    kept = _Player()
    run: list[datetime] = []

    def close_run() -> None:
        if len(run) > 1:
            kept.streaks.append((len(run), run[0], run[-1]))
        run.clear()

    for row in rows:
        kept.games += 1
        kept.wins += bool(row.is_winner)
        if kept.last_played is None or row.started > kept.last_played:
            kept.last_played = row.started
        rules = kept.by_rules.setdefault(row.rules_slug, _ByRules(row.rules_name))
        rules.name = max(rules.name, row.rules_name)
        rules.games += 1
        rules.wins += bool(row.is_winner)
        rules.points += row.total
        rules.rounds += row.round_count
        if row.status == FINISHED:
            kept.finished += 1
            rules.finished += 1
            if row.round_count > 0:
                kept.scored.append(row)
            if row.is_winner:
                run.append(row.started)
            else:
                close_run()
        elif row.status == IN_PROGRESS:
            kept.in_progress += 1
        elif row.status == ABANDONED:
            kept.abandoned += 1
        if row.kept_contract:
            for contract, rounds, made in row.contracts or []:
                held = kept.contracts.setdefault(int(contract), [0, 0, 0])
                held[0] += 1
                held[1] += rounds
                held[2] += made
    close_run()
    return kept


def _result(row: Any) -> dict[str, Any]:
    return {
        "game_id": row.game_id,
        "started": _stamp(row.started),
        "rules_name": row.rules_name,
        "total": row.total,
        "place": row.place,
        "is_winner": bool(row.is_winner),
        "players": row.players,
    }


def _detail(kept: _Player, head_to_head: list[list[int]]) -> dict[str, Any]:
    # The same order as the records and the profile ask: ties go to the earlier (records) or
    # the later (best and worst game) start.
    lowest = sorted(kept.scored, key=lambda r: (r.total, r.started, r.game_id))[:TOP]
    highest = sorted(kept.scored, key=lambda r: (-r.total, r.started, r.game_id))[:TOP]
    best = min(kept.scored, key=lambda r: (r.total, -r.started.timestamp()), default=None)
    worst = min(kept.scored, key=lambda r: (-r.total, -r.started.timestamp()), default=None)
    streaks = sorted(kept.streaks, key=lambda s: (-s[0], -s[2].timestamp()))[:TOP]
    return {
        "by_rules": [
            [slug, r.name, r.games, r.finished, r.wins, r.points, r.rounds]
            for slug, r in sorted(kept.by_rules.items())
        ],
        "contracts": [[number, *held] for number, held in sorted(kept.contracts.items())],
        "head_to_head": head_to_head,
        "best": _result(best) if best is not None else None,
        "worst": _result(worst) if worst is not None else None,
        "lowest": [_result(r) for r in lowest],
        "highest": [_result(r) for r in highest],
        "streaks": [[n, _stamp(first), _stamp(last)] for n, first, last in streaks],
    }


_PLAYER_ROW_COLUMNS = (
    seat_stats.c.player_id,
    seat_stats.c.game_id,
    seat_stats.c.status,
    seat_stats.c.started,
    seat_stats.c.rules_slug,
    seat_stats.c.rules_name,
    seat_stats.c.round_count,
    seat_stats.c.players,
    seat_stats.c.total,
    seat_stats.c.place,
    seat_stats.c.is_winner,
    seat_stats.c.kept_contract,
    seat_stats.c.contracts,
)


def _head_to_head(
    connection: Connection, household_id: int, player_id: int | None = None
) -> dict[int, Any]:
    """Per player (or for one): [[opponent, games together, ahead, behind, level], ...] over
    finished games."""
    mine = seat_stats.alias("mine")
    theirs = seat_stats.alias("theirs")
    where = [] if player_id is None else [mine.c.player_id == player_id]
    rows = connection.execute(
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
        .where(mine.c.household_id == household_id, mine.c.status == FINISHED, *where)
        .group_by(mine.c.player_id, theirs.c.player_id)
    )
    found: dict[int, list[list[int]]] = defaultdict(list)
    for player_id, other, games, ahead, behind, level in rows:
        found[player_id].append([other, games, ahead, behind, level])
    return found


def _player_row(household_id: int, player_id: int, rows: list[Any], h2h: Any) -> dict[str, Any]:
    kept = _summarise(rows)
    return {
        "household_id": household_id,
        "player_id": player_id,
        "games": kept.games,
        "finished": kept.finished,
        "wins": kept.wins,
        "in_progress": kept.in_progress,
        "abandoned": kept.abandoned,
        "last_played": kept.last_played,
        "detail": _detail(kept, sorted(h2h or [])),
    }


def refresh_players(connection: Connection, household_id: int, player_ids: Iterable[int]) -> None:
    """Recompute these players' rows from their seat rows (one indexed read per player)."""
    ids = sorted(set(player_ids))
    if not ids:
        return
    connection.execute(
        delete(player_stats).where(
            player_stats.c.household_id == household_id, player_stats.c.player_id.in_(ids)
        )
    )
    existing = set(
        connection.execute(
            select(players_t.c.id).where(
                players_t.c.household_id == household_id, players_t.c.id.in_(ids)
            )
        ).scalars()
    )
    made = []
    for player_id in ids:
        if player_id not in existing:
            continue
        rows = connection.execute(
            select(*_PLAYER_ROW_COLUMNS)
            .where(seat_stats.c.player_id == player_id, seat_stats.c.household_id == household_id)
            .order_by(seat_stats.c.started, seat_stats.c.game_id)
        ).all()
        if not rows:
            continue
        h2h = _head_to_head(connection, household_id, player_id)
        made.append(_player_row(household_id, player_id, list(rows), h2h.get(player_id)))
    if made:
        connection.execute(insert(player_stats), made)


# --- a whole household ---------------------------------------------------------------------------


def rebuild(household_id: int, connection: Connection | None = None) -> None:
    """Recompute every kept statistic of one household in one pass (after a restore)."""
    if connection is None:
        from ..extensions import db

        db.session.flush()
        connection = db.session.connection()
    for table in (player_stats, seat_stats, game_stats):
        connection.execute(delete(table).where(table.c.household_id == household_id))
    games = connection.execute(
        select(*_GAME_COLUMNS).where(
            games_t.c.household_id == household_id, games_t.c.deleted_at.is_(None)
        )
    ).all()
    seats_by_game: dict[int, list[Any]] = defaultdict(list)
    for seat in connection.execute(
        select(*_SEAT_COLUMNS).where(seats_t.c.household_id == household_id)
    ):
        seats_by_game[seat.game_id].append(seat)
    contracts = _contracts_of(connection, hands_t.c.household_id == household_id)
    game_rows: list[dict[str, Any]] = []
    seat_rows: list[dict[str, Any]] = []
    for game in games:
        game_row, rows = _rows_of_game(game, seats_by_game.get(game.id, []), contracts)
        game_rows.append(game_row)
        seat_rows.extend(rows)
    for start in range(0, len(game_rows), 5000):
        connection.execute(insert(game_stats), game_rows[start : start + 5000])
    for start in range(0, len(seat_rows), 5000):
        connection.execute(insert(seat_stats), seat_rows[start : start + 5000])
    by_player: dict[int, list[Any]] = defaultdict(list)
    for row in connection.execute(
        select(*_PLAYER_ROW_COLUMNS)
        .where(seat_stats.c.household_id == household_id)
        .order_by(seat_stats.c.player_id, seat_stats.c.started, seat_stats.c.game_id)
    ):
        by_player[row.player_id].append(row)
    h2h = _head_to_head(connection, household_id)
    made = [
        _player_row(household_id, player_id, rows, h2h.get(player_id))
        for player_id, rows in by_player.items()
    ]
    for start in range(0, len(made), 1000):
        connection.execute(insert(player_stats), made[start : start + 1000])
    _bump_version(connection, household_id)


def rebuild_all(connection: Connection) -> None:
    """Every household's statistics (the migration that made the tables fills them so)."""
    from ..models import Household

    for household_id in connection.execute(select(Household.__table__.c.id)).scalars():
        rebuild(household_id, connection)
