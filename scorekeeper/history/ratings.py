"""Skill ratings: who is playing best now, against the strength of the table. This module reads
the games and stores and reads the ratings; the arithmetic of one game is
``history.rating_model``'s.

Every finished game out of the bin moves a rating for each of its players, from the game's
own final standings (the places the tally gave its seats, kept in ``SeatStat``: contracts then
points where the rules keep contracts), in the pool of all rule sets and in its own rules' pool.

Ratings are derived data, kept in two tables: ``RatingStep`` (a player's rating in a pool just
after each of their games, the course the player's chart draws) and ``PlayerRating`` (the
latest, what the players list sorts by). A game replays in order of play (started, then game
id), so a change to an old game (corrected, deleted, put in the bin or brought back, its player
merged into another) changes every later rating: ``refresh`` replays the household's finished
games from the earliest changed game on, in place of their steps, starting from each player's
rating just before it. The result is the same as ``rebuild`` replaying the whole history
(``tests/history/test_ratings.py`` holds the two to each other).

A save replays at most ``RATINGS_REPLAYED_IN_SAVE`` games (a new game, or a correction near the
end of the history). A change to an earlier game leaves a ``RatingMark`` instead ("stale from
this game on") in the save's transaction, and ``history.rating_worker`` replays after the
commit, a short part a transaction, until the mark is gone; meanwhile every page that shows a
rating says they are being brought up to date (``state``), never a mix of old and new.

Core on the session's connection, as the kept statistics (``history.stats``) are: the
household of every statement is named through ``scope.for_household``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import current_app, has_app_context
from sqlalchemy import Connection, delete, exists, func, insert, or_, select, tuple_

from .. import scope
from ..db import insert_rows
from ..derived import (
    MIGRATING,
    RATINGS_WANTED,
    GameStat,
    PlayerRating,
    RatingMark,
    RatingStep,
    SeatStat,
)
from ..extensions import db
from ..models import Game, Household, Seat
from ..status import GameStatus
from .played import Stretches, stretches_of
from .rating_model import (
    ALL,
    ALL_NAME,
    Pair,
    Played,
    Position,
    Rated,
    rate_in_both_pools,
    rating_of,
    shown,
)

FINISHED = GameStatus.FINISHED.value
# Steps written per statement.
BATCH = 2000
# Games (and their seats) read per statement.
GAMES_READ = 100
# Games a save replays at most when no app says (``RATINGS_REPLAYED_IN_SAVE``).
REPLAYED_IN_SAVE = 100
# A key of PostgreSQL's advisory locks: one replay of a household's ratings at a time.
REPLAY_LOCK = 37_0020

steps_t = RatingStep.__table__
current_t = PlayerRating.__table__
seat_stats = SeatStat.__table__
game_stats = GameStat.__table__
games_t = Game.__table__
seats_t = Seat.__table__
marks_t = RatingMark.__table__


def _from(table: Any, start: Position | None, inclusive: bool = True) -> tuple[Any, ...]:
    """The condition on ``table``'s (started, game_id): at ``start`` or after it (strictly
    after, not ``inclusive``); none where ``start`` is None."""
    if start is None:
        return ()
    started, game_id = start
    # The first term alone is a range an index on (…, started, game_id) reads from.
    return (
        table.c.started >= started,
        or_(
            table.c.started > started,
            table.c.game_id >= game_id if inclusive else table.c.game_id > game_id,
        ),
    )


def _until(table: Any, end: Position | None, inclusive: bool) -> tuple[Any, ...]:
    """The condition on ``table``'s (started, game_id): before ``end`` (or at it, ``inclusive``);
    none where ``end`` is None (the end of the history)."""
    if end is None:
        return ()
    started, game_id = end
    return (
        table.c.started <= started,
        or_(
            table.c.started < started,
            table.c.game_id <= game_id if inclusive else table.c.game_id < game_id,
        ),
    )


# --- after a write ----------------------------------------------------------------------------


def refresh(connection: Connection, game_ids: Iterable[int]) -> set[int]:
    """Bring the ratings up to date after a change to these games: in each household, replay
    from the earliest of them, where it stood before the change (its steps) or stands now (its
    kept seat rows, if finished). A game that is not finished before or after changes nothing,
    and neither does one change to one finished game that rates it as before (``_rated_as_kept``:
    a correction of its cards that leaves its places be), so nothing after it is replayed.
    A replay longer than a save may run is left to the worker (``_defer``); returns the
    households left so, for the commit to wake it (``history.rating_worker``)."""
    ids = sorted(set(game_ids))
    if not ids:
        return set()
    starts: dict[int, Position] = {}
    changed: dict[int, set[int]] = defaultdict(set)
    for household_id, started, game_id in connection.execute(
        select(steps_t.c.household_id, func.min(steps_t.c.started), steps_t.c.game_id)
        .where(steps_t.c.game_id.in_(ids))
        .group_by(steps_t.c.household_id, steps_t.c.game_id)
    ):
        _earliest(starts, household_id, (started, game_id))
        changed[household_id].add(game_id)
    for household_id, started, game_id in connection.execute(
        select(seat_stats.c.household_id, seat_stats.c.started, seat_stats.c.game_id)
        .where(seat_stats.c.game_id.in_(ids), seat_stats.c.status == FINISHED)
        .distinct()
    ):
        _earliest(starts, household_id, (started, game_id))
        changed[household_id].add(game_id)
    queued: set[int] = set()
    for household_id, start in starts.items():
        if len(changed[household_id]) == 1 and _rated_as_kept(connection, household_id, start):
            continue
        if _defer(connection, household_id, start):
            queued.add(household_id)
        else:
            replay(connection, household_id, start)
    return queued


def _defer(connection: Connection, household_id: int, start: Position) -> bool:
    """Whether the replay from ``start`` is left to the worker: where the household's ratings
    are stale already (a replay is under way or waiting), or where it would replay more games
    than a save may. Then the mark is left, in the save's transaction."""
    household = scope.for_household(household_id)
    most = (
        int(current_app.config["RATINGS_REPLAYED_IN_SAVE"])
        if has_app_context()
        else REPLAYED_IN_SAVE
    )
    if not stale(connection, household_id):
        if connection.dialect.name == "postgresql":
            # A replay the worker runs at this moment is waited for (one chunk at most), and
            # one it left a mark for is joined below.
            connection.execute(select(func.pg_advisory_xact_lock(REPLAY_LOCK, household_id)))
        after = (
            select(game_stats.c.game_id)
            .where(
                household.owns(game_stats),
                game_stats.c.status == FINISHED,
                *_from(game_stats, start),
            )
            .limit(most + 1)
        )
        if not stale(connection, household_id) and (
            connection.execute(select(func.count()).select_from(after.subquery())).scalar_one()
            <= most
        ):
            return False
    started, game_id = start
    connection.execute(insert(marks_t), [household.row(started=started, game_id=game_id)])
    return True


def stale(connection: Connection, household_id: int) -> bool:
    """Whether the household's ratings wait for a replay (a ``RatingMark`` is left)."""
    household = scope.for_household(household_id)
    return bool(connection.execute(select(exists().where(household.owns(marks_t)))).scalar())


def _rated_as_kept(connection: Connection, household_id: int, start: Position) -> bool:
    """Whether the game at ``start``, rated now from its players' ratings just before it,
    makes exactly the steps it made before its change (same players, pools, start, and every
    mu, sigma, count and change float for float). Then every later game starts from the same
    ratings as before, and a replay from it would write what is kept already."""
    household = scope.for_household(household_id)
    game_id = start[1]
    kept = connection.execute(
        select(
            steps_t.c.player_id,
            steps_t.c.pool,
            steps_t.c.started,
            steps_t.c.mu,
            steps_t.c.sigma,
            steps_t.c.games,
            steps_t.c.change,
        ).where(household.owns(steps_t), steps_t.c.game_id == game_id)
    ).all()
    rows = connection.execute(
        select(
            seat_stats.c.started,
            seat_stats.c.rules_slug,
            seat_stats.c.rules_name,
            game_stats.c.round_count,
            seat_stats.c.player_id,
            seat_stats.c.place,
            seat_stats.c.stretches,
        )
        .join(game_stats, game_stats.c.game_id == seat_stats.c.game_id)
        .where(
            household.owns(seat_stats),
            seat_stats.c.game_id == game_id,
            seat_stats.c.status == FINISHED,
        )
    ).all()
    if not kept or len(rows) < 2:
        return False
    started, rules_slug, rules_name, rounds = rows[0][:4]
    places = sorted((row.player_id, row.place) for row in rows)
    away = {row.player_id: row.stretches for row in rows if row.stretches is not None}
    game = Played(game_id, started, rules_slug, rules_name, places, rounds or 0, away)
    steps = rate_in_both_pools(game, _before(connection, household, game.pairs(), game.position))
    made = sorted(
        (s["player_id"], s["pool"], s["started"], s["mu"], s["sigma"], s["games"], s["change"])
        for s in steps
    )
    return made == sorted(tuple(row) for row in kept)


def _earliest(starts: dict[int, Position], household_id: int, position: Position) -> None:
    if household_id not in starts or position < starts[household_id]:
        starts[household_id] = position


def rebuild(
    household_id: int, connection: Connection | None = None, *, from_games: bool = False
) -> None:
    """Replay one household's whole history. ``from_games`` reads the finished games and their
    places from the games themselves rather than from their kept statistics (``SeatStat``), the
    same places: a restore replays the ratings so while the kept statistics are rebuilt beside
    them (``backup.restored``)."""
    if connection is None:
        db.session.flush()
        connection = db.session.connection()
    replay(connection, household_id, None, from_games=from_games)


def rebuild_all(connection: Connection) -> None:
    """Every household's ratings (the migration that made the tables fills them so). Asked
    from a migration, they are replayed once the last migration has run, after the kept
    statistics they read are counted again (``stats.households.rebuild_all``)."""
    if connection.info.get(MIGRATING):
        connection.info[RATINGS_WANTED] = True
        return
    for household_id in connection.execute(select(Household.__table__.c.id)).scalars():
        replay(connection, household_id, None)


# --- the replay ---------------------------------------------------------------------------------


def _games(
    connection: Connection,
    household: scope.CoreHousehold,
    start: Position | None,
    from_games: bool = False,
    most: int | None = None,
) -> Iterator[Played]:
    """The household's finished games from ``start`` on, in order of play: the games from their
    kept rows' index by status and start, then their seats by game, ``GAMES_READ`` games at a
    time, each read where the one before ended (no read of the household's every seat row, and
    a part of a replay reads little more than it rates). ``from_games`` (a whole replay only)
    reads the games out of the bin and their seats instead of their kept rows. ``most``: that
    many games at most."""
    if from_games:
        assert start is None and most is None, "a replay from the games is a whole one"
        games = connection.execute(
            select(
                games_t.c.id,
                games_t.c.started,
                games_t.c.rules_slug,
                games_t.c.rules_name,
                games_t.c.round_count,
            )
            .where(
                household.owns(games_t),
                games_t.c.status == FINISHED,
                games_t.c.deleted_at.is_(None),
            )
            .order_by(games_t.c.started, games_t.c.id)
        ).all()
        # By game and household: the seats' own index (household, game, position) reads them.
        for chunk in _chunks(games, GAMES_READ):
            yield from _seated(connection, chunk, seats_t, (household.owns(seats_t),))
        return
    after, inclusive, left = start, True, most
    while left is None or left > 0:
        size = GAMES_READ if left is None else min(GAMES_READ, left)
        chunk = connection.execute(
            select(
                game_stats.c.game_id,
                game_stats.c.started,
                game_stats.c.rules_slug,
                game_stats.c.rules_name,
                game_stats.c.round_count,
            )
            .where(
                household.owns(game_stats),
                game_stats.c.status == FINISHED,
                *_from(game_stats, after, inclusive),
            )
            .order_by(game_stats.c.started, game_stats.c.game_id)
            .limit(size)
        ).all()
        # By game alone: the kept rows' index by game has no household to read it by.
        yield from _seated(connection, chunk, seat_stats, ())
        if len(chunk) < size:
            return
        after, inclusive = (chunk[-1].started, chunk[-1].game_id), False
        left = None if left is None else left - size


def _seated(
    connection: Connection, games: Sequence[Any], source: Any, condition: tuple[Any, ...]
) -> Iterator[Played]:
    """``games`` (id, started, rules' slug and name, rounds) with their players' places and
    the rounds of those who came or went, read from ``source`` (the seats, or their kept rows)
    in one statement."""
    seats: dict[int, list[tuple[int, int | None]]] = defaultdict(list)
    away: dict[int, dict[int, Stretches]] = defaultdict(dict)
    rounds = {game[0]: game[4] or 0 for game in games}
    if source is seats_t:
        columns: tuple[Any, ...] = (
            source.c.joined_before,
            source.c.left_after,
            source.c.returns,
        )
    else:
        columns = (source.c.stretches,)
    for game_id, player_id, place, *coming in connection.execute(
        select(source.c.game_id, source.c.player_id, source.c.place, *columns).where(
            *condition, source.c.game_id.in_([game[0] for game in games])
        )
    ):
        seats[game_id].append((player_id, place))
        if len(coming) == 1:
            stretches = coming[0]
        else:
            joined_before, left_after, returns = coming
            stretches = stretches_of(joined_before, left_after, returns, rounds[game_id])
        if stretches is not None:
            away[game_id][player_id] = stretches
    for game_id, started, rules_slug, rules_name, count in games:
        yield Played(
            game_id,
            started,
            rules_slug,
            rules_name,
            sorted(seats.get(game_id, [])),
            count or 0,
            away.get(game_id, {}),
        )


def _before(
    connection: Connection,
    household: scope.CoreHousehold,
    pairs: Iterable[Pair],
    start: Position,
    names: dict[str, str] | None = None,
) -> dict[Pair, Rated]:
    """Each (player, pool)'s rating just before ``start``: their latest step before it.
    ``names``: the pools' names known already (filled in)."""
    found: dict[Pair, Rated] = {}
    names = {} if names is None else names
    for player_id, pool in sorted(pairs):
        row = connection.execute(
            select(steps_t.c.mu, steps_t.c.sigma, steps_t.c.games)
            .where(
                household.owns(steps_t),
                steps_t.c.player_id == player_id,
                steps_t.c.pool == pool,
                *_until(steps_t, start, inclusive=False),
            )
            .order_by(steps_t.c.started.desc(), steps_t.c.game_id.desc())
            .limit(1)
        ).first()
        if row is not None:
            if pool not in names:
                names[pool] = _pool_name(connection, household, pool)
            mu, sigma, games = row
            found[(player_id, pool)] = rating_of(mu, sigma, games, names[pool])
    return found


def _pool_name(connection: Connection, household: scope.CoreHousehold, pool: str) -> str:
    if pool == ALL:
        return ALL_NAME
    name = connection.execute(
        select(current_t.c.pool_name)
        .where(household.owns(current_t), current_t.c.pool == pool)
        .limit(1)
    ).scalar()
    return name or pool


class _Rewrite:
    """The steps a replay from ``start`` takes away and writes, a batch at a time: before a
    batch of new steps is written, the old steps up to its last game are taken away (and the
    old steps of its games, wherever they stood), so an old step is never beside its new one,
    one batch at most is held, and a part of a replay takes away only the steps of its own
    stretch of games. ``changed``: every (player, pool) whose steps were taken away (not
    gathered for a whole replay, which rewrites every current rating)."""

    def __init__(
        self, connection: Connection, household: scope.CoreHousehold, start: Position | None
    ) -> None:
        self.connection = connection
        self.household = household
        self.start = start
        # The old steps up to this game (itself included) are gone; None: none yet.
        self.cleared: Position | None = None
        self.changed: set[Pair] = set()
        self.steps: list[dict[str, Any]] = []
        self.games: list[int] = []

    def add(self, game: Played, steps: list[dict[str, Any]]) -> None:
        self.steps += steps
        self.games.append(game.game_id)
        if len(self.steps) >= BATCH:
            self._write(game.position, inclusive=True)

    def finish(self, following: Position | None) -> None:
        """The last batch, and every old step left before ``following`` (None: the end)."""
        self._write(following, inclusive=False)

    def _write(self, end: Position | None, inclusive: bool) -> None:
        owned = self.household.owns(steps_t)
        stretch = (
            owned,
            *(
                _from(steps_t, self.start)
                if self.cleared is None
                else _from(steps_t, self.cleared, inclusive=False)
            ),
            *_until(steps_t, end, inclusive),
        )
        for old in (stretch, (owned, steps_t.c.game_id.in_(self.games))):
            if self.start is not None:
                self.changed.update(
                    (player_id, pool)
                    for player_id, pool in self.connection.execute(
                        select(steps_t.c.player_id, steps_t.c.pool).where(*old).distinct()
                    )
                )
            self.connection.execute(delete(steps_t).where(*old))
        if self.steps:
            insert_rows(self.connection, steps_t, self.household.rows(self.steps))
        self.cleared = end
        self.steps, self.games = [], []


@dataclass
class Carried:
    """What a part of a replay hands the next part of the same replay: where it goes on, and
    the ratings there of every (player, pool) it has looked at, so that the next part need not
    read them again. ``replay``: which replay (the worker's own token, checked by it)."""

    position: Position | None = None
    ratings: dict[Pair, Rated] = field(default_factory=dict)
    looked: set[Pair] = field(default_factory=set)
    replay: Any = None

    def forget(self) -> None:
        self.position = None
        self.ratings.clear()
        self.looked.clear()


def replay(
    connection: Connection,
    household_id: int,
    start: Position | None,
    from_games: bool = False,
    most: int | None = None,
    enough: Callable[[], bool] | None = None,
    carried: Carried | None = None,
) -> Position | None:
    """Replay the household's finished games from ``start`` (None: all) on (read as ``_games``
    says), each from its players' ratings just before it, in place of the steps there, then
    rewrite the current rating of every (player, pool) that changed. A part only: ``most``
    games at most, and no more once ``enough()`` says so (asked after each game); returns where
    the next part goes on (None: at the end), and hands the ratings there on in ``carried``
    (taken up where it was left at ``start``). Each part leaves the current ratings as they
    stand after its last game, so the last part leaves them as a whole replay does."""
    household = scope.for_household(household_id)
    rewrite = _Rewrite(connection, household, start)
    if carried is None:
        carried = Carried()
    elif start is None or carried.position != start:
        carried.forget()
    ratings, looked = carried.ratings, carried.looked
    names: dict[str, str] = {}
    # The (player, pool)s whose current rating this part rewrites.
    moved: set[Pair] = set()

    def look_up(pairs: Iterable[Pair]) -> None:
        # A player's rating before the replay, read where the replay first needs it.
        wanted = set(pairs) - looked
        if start is not None and wanted:
            ratings.update(_before(connection, household, wanted, start, names))
        looked.update(wanted)
        moved.update(pairs)

    following: Position | None = None
    limit = None if most is None else most + 1
    for count, game in enumerate(_games(connection, household, start, from_games, limit)):
        if count == most or (count and enough is not None and enough()):
            following = game.position
            break
        look_up(game.pairs())
        rewrite.add(game, rate_in_both_pools(game, ratings))
    rewrite.finish(following)
    if start is None:
        connection.execute(delete(current_t).where(household.owns(current_t)))
        moved = set(ratings)
    else:
        look_up(rewrite.changed)
        for chunk in _chunks(sorted(moved), 400):
            connection.execute(
                delete(current_t).where(
                    household.owns(current_t),
                    tuple_(current_t.c.player_id, current_t.c.pool).in_(chunk),
                )
            )
    rows = [
        household.row(
            player_id=player_id,
            pool=pool,
            pool_name=rated.pool_name,
            mu=rated.mu,
            sigma=rated.sigma,
            shown=shown(rated.mu, rated.sigma),
            games=rated.games,
        )
        for (player_id, pool), rated in sorted(ratings.items())
        if (player_id, pool) in moved
    ]
    for chunk in _chunks(rows, BATCH):
        connection.execute(insert(current_t), chunk)
    carried.position = following
    return following


def _chunks(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for at in range(0, len(items), size):
        yield items[at : at + size]
