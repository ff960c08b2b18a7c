"""The family's records: most wins, best and worst totals, winning streaks, fastest games.

Each record is one aggregate query (the streak one uses window functions, which SQLite has
had since 3.25), so the page costs the same with ten games or ten thousand.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import case, func, or_, select

from ..extensions import db
from ..models import Game, Player, Seat
from .queries import FINISHED, rate

TOP = 3
# A win rate over fewer games than this says more about luck than about the player.
MIN_GAMES_FOR_RATE = 5
FASTEST_RULES = "twelve-step"


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
    """One player's result in one game: a total, or the rounds a game took."""

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


def _win_counts() -> list[tuple[int, str, int, int]]:
    wins = func.count(case((Seat.is_winner, 1)))
    stmt = (
        select(Player.id, Player.name, wins, func.count(Seat.id))
        .join(Seat, Seat.player_id == Player.id)
        .join(Game, Game.id == Seat.game_id)
        .where(Game.status == FINISHED)
        .group_by(Player.id, Player.name)
    )
    return [(pid, name, won, games) for pid, name, won, games in db.session.execute(stmt)]


def _totals(*, lowest: bool) -> list[GameMark]:
    order = Seat.total.asc() if lowest else Seat.total.desc()
    stmt = (
        select(Player.id, Player.name, Seat.total, Game.id, Game.started, Game.rules_name)
        .join(Game, Game.id == Seat.game_id)
        .join(Player, Player.id == Seat.player_id)
        .where(Game.status == FINISHED, Game.round_count > 0)
        .order_by(order, Game.started)
        .limit(TOP)
    )
    return [GameMark(*row) for row in db.session.execute(stmt)]


def _streaks() -> list[Streak]:
    """Longest runs of finished games won in a row (the games each player played, by date).

    The classic gaps-and-islands count: within one player's games, the position among all
    games minus the position among the games with the same result is constant along a run.
    """
    ordering = (Game.started, Game.id)
    results = (
        select(
            Seat.player_id,
            Seat.is_winner,
            Game.started,
            (
                func.row_number().over(partition_by=Seat.player_id, order_by=ordering)
                - func.row_number().over(
                    partition_by=(Seat.player_id, Seat.is_winner), order_by=ordering
                )
            ).label("island"),
        )
        .join(Game, Game.id == Seat.game_id)
        .where(Game.status == FINISHED)
        .subquery()
    )
    length = func.count().label("length")
    stmt = (
        select(
            Player.id,
            Player.name,
            length,
            func.min(results.c.started),
            func.max(results.c.started),
        )
        .join(Player, Player.id == results.c.player_id)
        .where(results.c.is_winner)
        .group_by(Player.id, Player.name, results.c.island)
        .having(func.count() > 1)
        .order_by(length.desc(), func.max(results.c.started).desc())
        .limit(TOP)
    )
    return [Streak(*row) for row in db.session.execute(stmt)]


def _rounds(*, fastest: bool) -> list[GameMark]:
    """Finished games by number of rounds, with their (first) winner: fastest ones are of
    12-Step games (or house rules built on it), longest ones of any rules."""
    winner = (
        select(Player.name)
        .join(Seat, Seat.player_id == Player.id)
        .where(Seat.game_id == Game.id, Seat.is_winner)
        .order_by(Seat.position)
        .limit(1)
        .correlate(Game)
        .scalar_subquery()
    )
    conditions = [Game.status == FINISHED, Game.round_count > 0]
    if fastest:
        conditions.append(
            or_(
                Game.rules_slug == FASTEST_RULES,
                Game.rules["base"].as_string() == FASTEST_RULES,
            )
        )
    order = Game.round_count.asc() if fastest else Game.round_count.desc()
    stmt = (
        select(func.coalesce(winner, ""), Game.round_count, Game.id, Game.started, Game.rules_name)
        .where(*conditions)
        .order_by(order, Game.started)
        .limit(TOP)
    )
    return [GameMark(None, *row) for row in db.session.execute(stmt)]


def records() -> Records:
    """Every record on the page, in seven queries."""
    counts = _win_counts()
    most_wins = sorted(
        (PlayerCount(pid, name, won, games) for pid, name, won, games in counts if won),
        key=lambda r: (-r.count, r.games, r.name),
    )[:TOP]
    best_rate = sorted(
        (
            PlayerCount(pid, name, won, games)
            for pid, name, won, games in counts
            if games >= MIN_GAMES_FOR_RATE
        ),
        key=lambda r: (-(r.win_rate or 0), -r.games, r.name),
    )[:TOP]
    most_games = sorted(
        (PlayerCount(pid, name, games, games) for pid, name, _won, games in counts),
        key=lambda r: (-r.count, r.name),
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
