"""The family's records: most wins, best and worst totals, winning streaks, fastest games.

Each record is one aggregate query over the finished games' summary (``game_summaries``) and
their seats, so the page costs the same with ten games or ten thousand. The winning streaks
need window functions over every seat of every finished game, the one costly step; the
records are therefore kept per app until a finished game changes: one finishes, one is
corrected or reopened by deleting its last round, or a merge moves it (every change to a game
moves ``games.updated_at``). Rounds saved in games still being played, the common case on a
game night, leave them be. Player names are always read fresh.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from threading import Lock
from typing import Any

from flask import current_app
from sqlalchemy import case, func, or_, select

from .. import scope
from ..extensions import db
from ..models import Game, HouseRules, Player, Seat
from .queries import FINISHED, game_summaries, rate

TOP = 3
# A win rate over fewer games than this says more about luck than about the player.
MIN_GAMES_FOR_RATE = 5
FASTEST_RULES = "twelve-step"
_lock = Lock()


@dataclass(frozen=True)
class PlayerCount:
    player_id: int
    name: str
    count: int
    games: int

    @property
    def win_rate(self) -> float | None:
        return rate(self.count, self.games)


@dataclass(frozen=True)
class GameMark:
    """One player's result in one game (a total), or a game's length and its first winner."""

    player_id: int | None
    name: str
    value: int
    game_id: int
    started: datetime
    rules_name: str


@dataclass(frozen=True)
class Streak:
    player_id: int
    name: str
    length: int
    first: datetime
    last: datetime


@dataclass(frozen=True)
class Records:
    most_wins: list[PlayerCount]
    best_rate: list[PlayerCount]
    most_games: list[PlayerCount]
    lowest_totals: list[GameMark]
    highest_totals: list[GameMark]
    streaks: list[Streak]
    fastest: list[GameMark]
    longest: list[GameMark]

    @property
    def empty(self) -> bool:
        return not self.most_games

    def named(self, names: dict[int, str]) -> Records:
        """The same records with each player's current name."""

        def fix(items: list[Any]) -> list[Any]:
            return [
                replace(item, name=names.get(item.player_id, item.name))
                if item.player_id is not None
                else item
                for item in items
            ]

        return Records(*(fix(getattr(self, f)) for f in self.__dataclass_fields__))


def _win_counts() -> list[tuple[int, int, int]]:
    """(player, wins, finished games) for everyone who finished a game."""
    games = game_summaries(Game.status == FINISHED)
    stmt = (
        select(Seat.player_id, func.count(case((Seat.is_winner, 1))), func.count())
        .select_from(games)
        .join(Seat, Seat.game_id == games.c.id)
        .group_by(Seat.player_id)
    )
    return [(pid, won, played) for pid, won, played in db.session.execute(stmt)]


def _totals(*, lowest: bool) -> list[GameMark]:
    games = game_summaries(Game.status == FINISHED, Game.round_count > 0)
    order = Seat.total.asc() if lowest else Seat.total.desc()
    stmt = (
        select(
            Seat.player_id,
            Seat.total,
            games.c.id,
            games.c.started,
            games.c.rules_name,
        )
        .select_from(games)
        .join(Seat, Seat.game_id == games.c.id)
        .order_by(order, games.c.started)
        .limit(TOP)
    )
    return [
        GameMark(pid, "", total, gid, started, rules)
        for pid, total, gid, started, rules in db.session.execute(stmt)
    ]


def _streaks() -> list[Streak]:
    """Longest runs of finished games won in a row (the games each player played, by date).

    Counting a player's losses so far along their games gives every run of wins between two
    losses the same number: each (player, number) group of wins is one streak.
    """
    games = game_summaries(Game.status == FINISHED)
    losses_so_far = func.sum(case((Seat.is_winner, 0), else_=1)).over(
        partition_by=Seat.player_id,
        order_by=(games.c.started, games.c.id),
        rows=(None, 0),
    )
    results = (
        select(
            Seat.player_id,
            Seat.is_winner,
            games.c.started,
            losses_so_far.label("island"),
        )
        .select_from(games)
        .join(Seat, Seat.game_id == games.c.id)
        .subquery()
    )
    length = func.count().label("length")
    stmt = (
        select(
            results.c.player_id,
            length,
            func.min(results.c.started),
            func.max(results.c.started),
        )
        .where(results.c.is_winner)
        .group_by(results.c.player_id, results.c.island)
        .having(func.count() > 1)
        .order_by(length.desc(), func.max(results.c.started).desc())
        .limit(TOP)
    )
    return [Streak(pid, "", n, first, last) for pid, n, first, last in db.session.execute(stmt)]


def _rounds(*, fastest: bool) -> list[GameMark]:
    """Finished games by number of rounds, with their (first) winner: the fastest among
    12-Step games (and house rules built on it), the longest among all."""
    winner = (
        select(Seat.player_id)
        .where(Seat.game_id == Game.id, Seat.is_winner)
        .order_by(Seat.position)
        .limit(1)
        .correlate(Game)
        .scalar_subquery()
    )
    conditions = [Game.status == FINISHED, Game.round_count > 0]
    if fastest:
        house = select(HouseRules.slug).where(HouseRules.base == FASTEST_RULES)
        conditions.append(or_(Game.rules_slug == FASTEST_RULES, Game.rules_slug.in_(house)))
    order = Game.round_count.asc() if fastest else Game.round_count.desc()
    stmt = (
        select(winner, Game.round_count, Game.id, Game.started, Game.rules_name)
        .where(*conditions)
        .order_by(order, Game.started)
        .limit(TOP)
    )
    return [
        GameMark(pid, "", rounds, gid, started, rules)
        for pid, rounds, gid, started, rules in db.session.execute(stmt)
    ]


def _compute() -> Records:
    counts = _win_counts()
    most_wins = sorted(
        (PlayerCount(pid, "", won, games) for pid, won, games in counts if won),
        key=lambda r: (-r.count, r.games, r.player_id),
    )[:TOP]
    best_rate = sorted(
        (
            PlayerCount(pid, "", won, games)
            for pid, won, games in counts
            if games >= MIN_GAMES_FOR_RATE
        ),
        key=lambda r: (-(r.win_rate or 0), -r.games, r.player_id),
    )[:TOP]
    most_games = sorted(
        (PlayerCount(pid, "", games, games) for pid, _won, games in counts),
        key=lambda r: (-r.count, r.player_id),
    )[:TOP]
    return Records(
        most_wins=most_wins,
        best_rate=best_rate,
        most_games=most_games,
        lowest_totals=_totals(lowest=True),
        highest_totals=_totals(lowest=False),
        streaks=_streaks(),
        fastest=_rounds(fastest=True),
        longest=_rounds(fastest=False),
    )


def records() -> Records:
    """Every record, with current names: two small queries while no finished game has
    changed since the last time, nine when one has."""
    # Every record is over finished games (and, for the fastest 12-Step games, over the house
    # rules built on it), so only a change among those can change them.
    finished = Game.status == FINISHED
    fingerprint = tuple(
        db.session.execute(
            select(
                select(func.count(Game.id)).where(finished).scalar_subquery(),
                select(func.max(Game.updated_at)).where(finished).scalar_subquery(),
                select(func.count(HouseRules.id)).scalar_subquery(),
                select(func.max(HouseRules.updated_at)).scalar_subquery(),
            )
        ).one()
    )
    # Kept per household: two families' fingerprints may well be alike (both empty, say).
    cache: dict[Any, tuple[Any, Records]] = current_app.extensions.setdefault("history_records", {})
    household = scope.current()
    with _lock:
        held = cache.get(household)
        kept = held[1] if held is not None and held[0] == fingerprint else None
    if kept is None:
        kept = _compute()
        with _lock:
            cache[household] = (fingerprint, kept)
    names: dict[int, str] = {
        pid: name for pid, name in db.session.execute(select(Player.id, Player.name))
    }
    return kept.named(names)
