"""Skill ratings: who is playing best now, against the strength of the table.

Every finished game out of the bin moves a rating for each of its players, from the game's
own final standings (the places the tally gave its seats, kept in ``SeatStat``: contracts then
points where the rules keep contracts), with OpenSkill's Plackett-Luce model: a win over
strong players counts for more than a win over beginners, and a rating that rests on few games
moves more. Each player has one rating in every pool: the pool of all rule sets (``ALL``) and
one pool per rule set (its slug).

Ratings are derived data, kept in two tables: ``RatingStep`` (a player's rating in a pool just
after each of their games, the course the player's chart draws) and ``PlayerRating`` (the
latest, what the players list sorts by). A game replays in order of play (started, then game
id), so a change to an old game (corrected, deleted, put in the bin or brought back, its player
merged into another) changes every later rating: ``refresh`` removes every step from the
earliest changed game onwards and replays the household's finished games from there, starting
from each player's rating just before it. The result is the same as ``rebuild`` replaying the
whole history (``tests/history/test_ratings.py`` holds the two to each other).

A save replays at most ``RATINGS_REPLAYED_IN_SAVE`` games (a new game, or a correction near the
end of the history). A change to an earlier game leaves a ``RatingMark`` instead ("stale from
this game on") in the save's transaction, and ``history.rating_worker`` replays after the
commit, a chunk of games a transaction, until the mark is gone; meanwhile every page that shows
a rating says they are being brought up to date (``state``), never a mix of old and new.

Core on the session's connection, as the kept statistics (``history.stats``) are: the
household of every statement is named through ``scope.for_household``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from flask import current_app, g, has_app_context, has_request_context
from openskill.models import PlackettLuce
from sqlalchemy import Connection, delete, exists, func, insert, or_, select, tuple_

from .. import scope
from ..db import insert_rows
from ..derived import GameStat, PlayerRating, RatingMark, RatingStep, SeatStat
from ..extensions import db
from ..models import Game, Household, Player, Seat
from ..status import GameStatus

FINISHED = GameStatus.FINISHED.value
# The pool of every rule set; any other pool is one rule set's slug.
ALL = ""
ALL_NAME = "All rules"
# Below this many games a rating is marked provisional: it still moves a lot.
PROVISIONAL = 5
# OpenSkill's defaults: a new player's mu 25, sigma 25/3, so a shown rating starts at 0.
MODEL = PlackettLuce()
# Steps written per statement.
BATCH = 2000
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


def shown(mu: float, sigma: float) -> float:
    """The rating a person sees: OpenSkill's ordinal, mu - 3 sigma, a cautious estimate that
    rises both with skill and with the games it rests on (0 for a new player)."""
    return mu - 3 * sigma


class Rated(NamedTuple):
    """A (player, pool)'s rating as the replay carries it: OpenSkill's own value (handed back to
    the next game as it is: making one afresh from mu and sigma costs as much as rating)."""

    rating: Any
    games: int
    pool_name: str

    @property
    def mu(self) -> float:
        return float(self.rating.mu)

    @property
    def sigma(self) -> float:
        return float(self.rating.sigma)


Position = tuple[datetime, int]
Pair = tuple[int, str]


def _from(table: Any, start: Position | None) -> tuple[Any, ...]:
    """The condition on ``table``'s (started, game_id): at ``start`` or after it."""
    if start is None:
        return ()
    started, game_id = start
    # The first term alone is a range an index on (…, started, game_id) reads from.
    return (
        table.c.started >= started,
        or_(table.c.started > started, table.c.game_id >= game_id),
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
    seats = sorted(
        _Seat(game_id, *row)
        for row in connection.execute(
            select(
                seat_stats.c.started,
                seat_stats.c.rules_slug,
                seat_stats.c.rules_name,
                seat_stats.c.player_id,
                seat_stats.c.place,
            ).where(
                household.owns(seat_stats),
                seat_stats.c.game_id == game_id,
                seat_stats.c.status == FINISHED,
            )
        )
    )
    if not kept or len(seats) < 2:
        return False
    slug = seats[0].rules_slug
    pairs = {(seat.player_id, pool) for seat in seats for pool in (ALL, slug)}
    rated = _before(connection, household, pairs, (seats[0].started, game_id))
    steps = [
        *rate_game(seats, rated, ALL, ALL_NAME),
        *rate_game(seats, rated, slug, seats[0].rules_name),
    ]
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
    """Every household's ratings (the migration that made the tables fills them so)."""
    for household_id in connection.execute(select(Household.__table__.c.id)).scalars():
        replay(connection, household_id, None)


# --- the replay ---------------------------------------------------------------------------------


class _Seat(NamedTuple):
    game_id: int
    started: datetime
    rules_slug: str
    rules_name: str
    player_id: int
    place: int | None


def _games(
    connection: Connection,
    household: scope.CoreHousehold,
    start: Position | None,
    from_games: bool = False,
    most: int | None = None,
) -> Iterator[list[_Seat]]:
    """The household's finished games from ``start`` on, in order of play, each as its seats
    (by player): the games from their kept rows' index by status and start, then their seats
    by game, a chunk of games at a time (no read of the household's every seat row).
    ``from_games`` (a whole replay only) reads the games out of the bin and their seats instead
    of their kept rows. ``most``: that many games at most."""
    if from_games:
        assert start is None and most is None, "a replay from the games is a whole one"
        games = connection.execute(
            select(games_t.c.id, games_t.c.started, games_t.c.rules_slug, games_t.c.rules_name)
            .where(
                household.owns(games_t),
                games_t.c.status == FINISHED,
                games_t.c.deleted_at.is_(None),
            )
            .order_by(games_t.c.started, games_t.c.id)
        ).all()
        # By game and household: the seats' own index (household, game, position) reads them.
        seat_filter: tuple[Any, ...] = (household.owns(seats_t),)
        seat_source = seats_t
    else:
        games = connection.execute(
            select(
                game_stats.c.game_id,
                game_stats.c.started,
                game_stats.c.rules_slug,
                game_stats.c.rules_name,
            )
            .where(
                household.owns(game_stats),
                game_stats.c.status == FINISHED,
                *_from(game_stats, start),
            )
            .order_by(game_stats.c.started, game_stats.c.game_id)
            .limit(most)
        ).all()
        # By game alone: the kept rows' index by game has no household to read it by.
        seat_filter = ()
        seat_source = seat_stats
    for chunk in _chunks(games, BATCH):
        seats: dict[int, list[tuple[int, int | None]]] = defaultdict(list)
        for game_id, player_id, place in connection.execute(
            select(seat_source.c.game_id, seat_source.c.player_id, seat_source.c.place).where(
                *seat_filter, seat_source.c.game_id.in_([game[0] for game in chunk])
            )
        ):
            seats[game_id].append((player_id, place))
        for game_id, started, rules_slug, rules_name in chunk:
            yield [
                _Seat(game_id, started, rules_slug, rules_name, player, place)
                for player, place in sorted(seats.get(game_id, []))
            ]


def _before(
    connection: Connection, household: scope.CoreHousehold, pairs: Iterable[Pair], start: Position
) -> dict[Pair, Rated]:
    """Each (player, pool)'s rating just before ``start``: their latest step before it."""
    started, game_id = start
    found: dict[Pair, Rated] = {}
    names: dict[str, str] = {}
    for player_id, pool in sorted(pairs):
        row = connection.execute(
            select(steps_t.c.mu, steps_t.c.sigma, steps_t.c.games)
            .where(
                household.owns(steps_t),
                steps_t.c.player_id == player_id,
                steps_t.c.pool == pool,
                steps_t.c.started <= started,
                or_(steps_t.c.started < started, steps_t.c.game_id < game_id),
            )
            .order_by(steps_t.c.started.desc(), steps_t.c.game_id.desc())
            .limit(1)
        ).first()
        if row is not None:
            if pool not in names:
                names[pool] = _pool_name(connection, household, pool)
            mu, sigma, games = row
            found[(player_id, pool)] = Rated(MODEL.rating(mu=mu, sigma=sigma), games, names[pool])
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


def rate_game(
    seats: list[_Seat], ratings: dict[Pair, Rated], pool: str, pool_name: str
) -> list[dict[str, Any]]:
    """Rate one game in one pool: update ``ratings`` and return the steps it makes. Each seat is
    a team of one, ranked by its place in the game (equal places are a tie); a seat with no
    place comes last."""
    before = [ratings.get((seat.player_id, pool)) for seat in seats]
    teams = [[MODEL.rating() if was is None else was.rating] for was in before]
    ranks = [float(seat.place if seat.place is not None else len(seats)) for seat in seats]
    after = MODEL.rate(teams, ranks=ranks)
    steps = []
    for seat, was, (new,) in zip(seats, before, after, strict=True):
        games = (was.games if was else 0) + 1
        old_shown = shown(was.mu, was.sigma) if was else shown(MODEL.mu, MODEL.sigma)
        ratings[(seat.player_id, pool)] = Rated(new, games, pool_name)
        steps.append(
            {
                "game_id": seat.game_id,
                "player_id": seat.player_id,
                "pool": pool,
                "started": seat.started,
                "mu": new.mu,
                "sigma": new.sigma,
                "games": games,
                "change": shown(new.mu, new.sigma) - old_shown,
            }
        )
    return steps


def replay(
    connection: Connection,
    household_id: int,
    start: Position | None,
    from_games: bool = False,
    most: int | None = None,
) -> Position | None:
    """Remove the household's steps from ``start`` (None: all) on and replay its finished games
    from there (read as ``_games`` says), then rewrite the current rating of every (player,
    pool) that changed. ``most``: replay that many games only, and return where the next
    replay goes on (None: at the end). Each part leaves the current ratings as they stand
    after its last game, so the last part leaves them as a whole replay does."""
    household = scope.for_household(household_id)
    after = (household.owns(steps_t), *_from(steps_t, start))
    changed: set[Pair] = set(
        connection.execute(
            select(steps_t.c.player_id, steps_t.c.pool).where(*after).distinct()
        ).all()
    )
    connection.execute(delete(steps_t).where(*after))
    games = list(
        _games(connection, household, start, from_games, None if most is None else most + 1)
    )
    following: Position | None = None
    if most is not None and len(games) > most:
        following = (games[most][0].started, games[most][0].game_id)
        games = games[:most]
    for seats in games:
        slug = seats[0].rules_slug
        for seat in seats:
            changed.add((seat.player_id, ALL))
            changed.add((seat.player_id, slug))
    ratings = _before(connection, household, changed, start) if start is not None else {}
    batch: list[dict[str, Any]] = []
    for seats in games:
        if len(seats) < 2:
            continue
        batch += rate_game(seats, ratings, ALL, ALL_NAME)
        batch += rate_game(seats, ratings, seats[0].rules_slug, seats[0].rules_name)
        if len(batch) >= BATCH:
            insert_rows(connection, steps_t, household.rows(batch))
            batch = []
    if batch:
        insert_rows(connection, steps_t, household.rows(batch))
    if start is None:
        connection.execute(delete(current_t).where(household.owns(current_t)))
    else:
        for chunk in _chunks(sorted(changed), 400):
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
    ]
    for chunk in _chunks(rows, BATCH):
        connection.execute(insert(current_t), chunk)
    return following


def _chunks(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for at in range(0, len(items), size):
        yield items[at : at + size]


# --- what the pages read ------------------------------------------------------------------------

# What the household's pages show of the ratings (``state``): the ratings; that they are being
# brought up to date (a replay is left to the worker: none is shown, never a mix of old and
# new); nothing (the household turned them off in its settings).
SHOWN = "shown"
STALE = "stale"
OFF = "off"


def state() -> str:
    """``SHOWN``, ``STALE`` or ``OFF`` for the household in scope (one query a request and
    household). Both move the household's data version (``services.data_version``) when they
    change: a mark is left and taken away with a move of its statistics version, the setting
    is read into it, so a page kept under a version shows the state it was drawn in."""
    household = scope.current()
    if not isinstance(household, int):
        return SHOWN
    known: dict[int, str] = g.setdefault("ratings_state", {}) if has_request_context() else {}
    if household not in known:
        wanted, waiting = db.session.execute(
            select(
                select(Household.ratings_shown).where(Household.id == household).scalar_subquery(),
                exists().where(scope.for_household(household).owns(marks_t)),
            )
        ).one()
        known[household] = OFF if wanted is False else STALE if waiting else SHOWN
    return known[household]


@dataclass(frozen=True)
class Rating:
    pool: str
    pool_name: str
    shown: float
    games: int

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL


def current() -> dict[int, Rating]:
    """Every player's rating now over all rule sets, by player id."""
    rows = db.session.execute(
        select(
            PlayerRating.player_id,
            PlayerRating.pool,
            PlayerRating.pool_name,
            PlayerRating.shown,
            PlayerRating.games,
        ).where(PlayerRating.pool == ALL)
    )
    return {
        player_id: Rating(pool, name, value, games) for player_id, pool, name, value, games in rows
    }


def ratings_of(player_id: int) -> list[Rating]:
    """A player's ratings now: every rule sets' first, then each rule set's, most games first."""
    rows = db.session.execute(
        select(
            PlayerRating.pool, PlayerRating.pool_name, PlayerRating.shown, PlayerRating.games
        ).where(PlayerRating.player_id == player_id)
    ).all()
    found = [Rating(*row) for row in rows]
    return sorted(found, key=lambda r: (r.pool != ALL, -r.games, r.pool_name))


@dataclass(frozen=True)
class Change:
    player_id: int
    name: str
    shown: float
    change: float
    games: int

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL


def changes_in(game_id: int) -> list[Change]:
    """How every player's rating over all rule sets moved in one finished game, most first."""
    rows = db.session.execute(
        select(
            RatingStep.player_id,
            Player.name,
            RatingStep.mu,
            RatingStep.sigma,
            RatingStep.change,
            RatingStep.games,
        )
        .join(Player, Player.id == RatingStep.player_id)
        .where(RatingStep.game_id == game_id, RatingStep.pool == ALL)
    ).all()
    found = [
        Change(pid, name, shown(mu, sigma), change, games)
        for pid, name, mu, sigma, change, games in rows
    ]
    return sorted(found, key=lambda c: (-c.change, c.name))


# --- the replay left to the worker --------------------------------------------------------------


def replay_marked(connection: Connection, household_id: int, most: int) -> str:
    """One part of the replay the household's marks ask for, in the caller's transaction:
    ``most`` games from the earliest mark on; the marks read are replaced by one where the next
    part starts, or taken away at the end. Returns "more" (a part is left), "done" (this was
    the last), "none" (no mark) or "busy" (PostgreSQL: another process replays it now; on
    SQLite the write lock every worker's transaction takes first keeps them apart)."""
    household = scope.for_household(household_id)
    if (
        connection.dialect.name == "postgresql"
        and not connection.execute(
            select(func.pg_try_advisory_xact_lock(REPLAY_LOCK, household_id))
        ).scalar()
    ):
        return "busy"
    marks = connection.execute(
        select(marks_t.c.id, marks_t.c.started, marks_t.c.game_id).where(household.owns(marks_t))
    ).all()
    if not marks:
        return "none"
    start = min((started, game_id) for _, started, game_id in marks)
    following = replay(connection, household_id, start, most=most)
    # The marks read, by id: one a save adds meanwhile (PostgreSQL) stays for the next part.
    connection.execute(delete(marks_t).where(marks_t.c.id.in_([mark.id for mark in marks])))
    if following is None:
        return "done"
    connection.execute(insert(marks_t), [household.row(started=following[0], game_id=following[1])])
    return "more"
