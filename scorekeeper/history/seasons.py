"""Seasons: a year (or any range of days) of the family's games on its own: its ratings and
its records, beside the history of the same days (``/history?since=…&until=…``).

Days are the household's (``local_time``): a season of 2025 is every game started from
midnight on 1 January 2025 to midnight on 1 January 2026 where the family lives.

A season's ratings are not replayed from nothing: a rating rests on every game before, and a
rating started afresh each January would be provisional for everyone. A season shows where each
player stood at its end, and how far they climbed (or fell) within it: the sum of the moves
their games in it made (``RatingStep.change``), which is their rating at its end less their
rating before its first game.

A season's page is computed once per household, data version and season (``kept_season``, kept in
``extensions.Kept``): the data version (``services.data_version``) is what the page's ETag is
made of, and moves with every change to a game, a player, house rules or the time zone, so a
kept season is never stale and is never invalidated by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import func, select

from .. import local_time, scope
from ..derived import GameStat, PlayerRating, RatingStep, SeatStat
from ..extensions import Kept, db
from ..models import Player
from ..status import GameStatus
from .rating_model import ALL, PROVISIONAL, shown
from .records import PlayerCount

FINISHED = GameStatus.FINISHED.value
# A season's best win rate counts players with at least this many finished games in it.
RATE_FLOOR = 3
TOP = 3
_Ranked = TypeVar("_Ranked")
# Games whose seats are read in one statement.
CHUNK = 500

seat_stats = SeatStat.__table__


@dataclass(frozen=True)
class Season:
    since: date
    until: date

    @property
    def year(self) -> int | None:
        """The year this season is, if it is one whole year."""
        whole = self.since == date(self.since.year, 1, 1) and self.until == date(
            self.since.year, 12, 31
        )
        return self.since.year if whole else None

    @property
    def label(self) -> str:
        if self.year is not None:
            return str(self.year)
        if self.since == date.min:
            return f"until {self.until:%-d %b %Y}"
        if self.until == date.max:
            return f"since {self.since:%-d %b %Y}"
        return f"{self.since:%-d %b %Y} to {self.until:%-d %b %Y}"

    @property
    def history_args(self) -> dict[str, str]:
        """The history filter showing this season's games."""
        found = {}
        if self.since != date.min:
            found["since"] = self.since.isoformat()
        if self.until != date.max:
            found["until"] = self.until.isoformat()
        return found

    def conditions(self, started: Any) -> list[Any]:
        """The conditions keeping a ``started`` column to this season's days."""
        found = []
        since = local_time.midnight(self.since)
        if since is not None:
            found.append(started >= since)
        return found + self.by_end(started)

    def by_end(self, started: Any) -> list[Any]:
        """The condition keeping a ``started`` column before this season's end."""
        if self.until < date.max:
            until = local_time.midnight(self.until + timedelta(days=1))
            if until is not None:
                return [started < until]
        return []


def played_years(version: str) -> list[int]:
    """``years()``, kept under the household's data version (``services.data_version``)."""
    kept: list[int] = Kept.of().get_or_make(("season years", scope.current(), version), years)
    return kept


def kept_season(version: str, season: Season) -> tuple[list[SeasonRating], Records]:
    """The season's ratings and records, kept under the household, its data version
    (``services.data_version``, read by the caller in the same request) and the season."""
    kept: tuple[list[SeasonRating], Records] = Kept.of().get_or_make(
        ("season", scope.current(), version, season), lambda: (ratings(season), records(season))
    )
    return kept


def year(number: int) -> Season:
    return Season(date(number, 1, 1), date(number, 12, 31))


def years() -> list[int]:
    """The years a game was started in (any game out of the bin, whatever became of it), in
    the household's zone, latest first: a year nobody played in is not one (one read of the
    index on start per year played, never a walk of the whole index)."""
    return _years_with()


def _years_with(*where: Any, first_only: bool = False) -> list[int]:
    found: list[int] = []
    before: datetime | None = None
    while True:
        conditions = [*where] + ([] if before is None else [GameStat.started < before])
        last = db.session.scalar(
            select(GameStat.started).where(*conditions).order_by(GameStat.started.desc()).limit(1)
        )
        if last is None:
            return found
        number = local_time.local(last).year
        found.append(number)
        before = local_time.midnight(date(number, 1, 1))
        if before is None or first_only:
            return found


def latest_year() -> int | None:
    """The season shown when none is asked for: the latest year with a finished game (in the
    household's zone), else the latest with any game (None before the first game)."""
    finished = _years_with(GameStat.status == FINISHED, first_only=True)
    if finished:
        return finished[0]
    started = _years_with(first_only=True)
    return started[0] if started else None


@dataclass(frozen=True)
class SeasonRating:
    player_id: int
    name: str
    shown: float
    climb: float
    games: int
    rests_on: int

    @property
    def provisional(self) -> bool:
        return self.rests_on < PROVISIONAL


def ratings(season: Season) -> list[SeasonRating]:
    """Every player who played a rated game in the season: their rating over all rules at its
    end, their climb in it and their games in it, best rated first (one ordered read of the
    season's steps)."""
    rows = db.session.execute(
        select(
            RatingStep.player_id,
            RatingStep.mu,
            RatingStep.sigma,
            RatingStep.games,
            RatingStep.change,
        )
        .where(RatingStep.pool == ALL, *season.conditions(RatingStep.started))
        .order_by(RatingStep.started, RatingStep.game_id)
    )
    found: dict[int, list[Any]] = {}
    for player_id, mu, sigma, games, change in rows:
        kept = found.setdefault(player_id, [0.0, 0.0, 0, 0])
        kept[0] = shown(mu, sigma)
        kept[1] += change
        kept[2] += 1
        kept[3] = games
    names = player_names(found)
    rated = [
        SeasonRating(pid, names[pid], value, climb, games, rests_on)
        for pid, (value, climb, games, rests_on) in found.items()
        if pid in names
    ]
    return sorted(rated, key=lambda r: (-r.shown, r.name))


def standings_at(season: Season) -> list[SeasonRating]:
    """Everyone rated by the season's end, at their rating over all rules then (their latest
    step before it: a rating rests on every game before), best first; the climb and games are
    the season's (0 for one who did not play in it). A seek a player on the index of their
    course by start (a household has tens of players, and thousands of steps each)."""
    found = []
    within = {rated.player_id: rated for rated in ratings(season)}
    rated_ever = db.session.scalars(
        select(PlayerRating.player_id).where(PlayerRating.pool == ALL)
    ).all()
    names = player_names(rated_ever)
    for player_id in sorted(rated_ever):
        last = db.session.execute(
            select(RatingStep.mu, RatingStep.sigma, RatingStep.games)
            .where(
                RatingStep.player_id == player_id,
                RatingStep.pool == ALL,
                *season.by_end(RatingStep.started),
            )
            .order_by(RatingStep.started.desc(), RatingStep.game_id.desc())
            .limit(1)
        ).first()
        if last is None or player_id not in names:
            continue
        mu, sigma, games = last
        played = within.get(player_id)
        found.append(
            SeasonRating(
                player_id,
                names[player_id],
                shown(mu, sigma),
                played.climb if played else 0.0,
                played.games if played else 0,
                games,
            )
        )
    return sorted(found, key=lambda r: (-r.shown, r.name))


def player_names(player_ids: Any) -> dict[int, str]:
    """The names of these players of the household in scope, by id."""
    if not player_ids:
        return {}
    rows = db.session.execute(select(Player.id, Player.name).where(Player.id.in_(list(player_ids))))
    return {player_id: name for player_id, name in rows}


@dataclass(frozen=True)
class Total:
    player_id: int
    name: str
    total: int
    game_id: int
    started: datetime
    rules_name: str


@dataclass(frozen=True)
class Streak:
    player_id: int
    name: str
    length: int
    last: datetime


@dataclass(frozen=True)
class Records:
    games: int
    finished: int
    most_wins: list[PlayerCount]
    most_games: list[PlayerCount]
    best_rate: list[PlayerCount]
    lowest: list[Total]
    streaks: list[Streak]

    @property
    def empty(self) -> bool:
        return self.finished == 0


def records(season: Season) -> Records:
    """The season's records from the kept seat rows of its finished games: most wins, most
    games, best win rate (at least ``RATE_FLOOR`` games), lowest total in a game and longest
    run of wins."""
    games, finished = db.session.execute(
        select(func.count(), func.count().filter(GameStat.status == FINISHED)).where(
            *season.conditions(GameStat.started)
        )
    ).one()
    # The season's finished games by the kept games' index on (status, started), then their
    # seats by game, a chunk at a time: never a read of the household's every seat row.
    game_ids = db.session.scalars(
        select(GameStat.game_id).where(
            GameStat.status == FINISHED, *season.conditions(GameStat.started)
        )
    ).all()
    rows: list[Any] = []
    for at in range(0, len(game_ids), CHUNK):
        # Core, by the ids of the household's own games just read under the scope: the
        # scope's condition on the household would lead SQLite to the household's index.
        rows += db.session.execute(
            select(
                seat_stats.c.player_id,
                seat_stats.c.is_winner,
                seat_stats.c.total,
                seat_stats.c.round_count,
                seat_stats.c.game_id,
                seat_stats.c.started,
                seat_stats.c.rules_name,
                seat_stats.c.whole,
            ).where(seat_stats.c.game_id.in_(game_ids[at : at + CHUNK]))
        ).all()
    rows.sort(key=lambda row: (row.player_id, row.started, row.game_id))
    counts: dict[int, list[int]] = {}
    runs: dict[int, tuple[int, datetime]] = {}
    lowest: list[tuple[int, datetime, int, int, str]] = []
    current: tuple[int, int, datetime | None] = (0, 0, None)
    for player_id, won, total, round_count, game_id, started, rules_name, whole in rows:
        kept = counts.setdefault(player_id, [0, 0])
        kept[0] += 1
        kept[1] += 1 if won else 0
        # Whole games only: a leaver's few rounds or a joiner's points since joining are no
        # game total (``SeatStat.whole``), as the records count them.
        if round_count > 0 and whole:
            lowest.append((total, started, game_id, player_id, rules_name))
        length = current[1] + 1 if won and current[0] == player_id else (1 if won else 0)
        current = (player_id, length, started)
        best = runs.get(player_id)
        if length > 1 and (best is None or length > best[0]):
            runs[player_id] = (length, started)
    names = player_names(counts)

    def count(pid: int, value: int, played: int) -> PlayerCount:
        return PlayerCount(pid, names.get(pid, "?"), value, played)

    by_wins = sorted(
        counts.items(), key=lambda item: (-item[1][1], item[1][0], names.get(item[0], ""))
    )
    by_games = sorted(counts.items(), key=lambda item: (-item[1][0], names.get(item[0], "")))
    by_rate = sorted(
        ((pid, c) for pid, c in counts.items() if c[0] >= RATE_FLOOR),
        key=lambda item: (-item[1][1] / item[1][0], -item[1][0], names.get(item[0], "")),
    )
    lowest.sort(key=lambda mark: (mark[0], mark[1], mark[2]))
    return Records(
        games=int(games),
        finished=int(finished),
        most_wins=_top([count(pid, c[1], c[0]) for pid, c in by_wins if c[1]], _count),
        most_games=_top([count(pid, c[0], c[0]) for pid, c in by_games], _count),
        best_rate=[count(pid, c[1], c[0]) for pid, c in by_rate[:TOP]],
        lowest=[
            Total(pid, names.get(pid, "?"), total, game_id, started, rules_name)
            for total, started, game_id, pid, rules_name in lowest[:TOP]
        ],
        streaks=_top(
            sorted(
                (
                    Streak(pid, names.get(pid, "?"), length, last)
                    for pid, (length, last) in runs.items()
                ),
                key=lambda s: (-s.length, s.last),
            ),
            lambda streak: streak.length,
        ),
    )


def _count(row: PlayerCount) -> int:
    return row.count


def _top(ranked: list[_Ranked], value: Callable[[_Ranked], int]) -> list[_Ranked]:
    """The first ``TOP`` of ``ranked`` (best first), and any after them tied with the first by
    ``value``: a tie for the lead names everyone in it (the year in review says who)."""
    lead = value(ranked[0]) if ranked else None
    return ranked[:TOP] + [each for each in ranked[TOP:] if value(each) == lead]
