"""The family's records: most wins, best and worst totals, winning streaks, fastest games.

The records are read from the kept statistics (``history.stats``), updated in the same
transaction as every change to a game: one row per player (their wins, finished games, and
their own three best streaks, lowest and highest totals, of which the family's three best are
the best), and the fastest and longest games read in order from an index of the kept game
rows. Two queries, however many games; player names are always read fresh.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import select

from ..derived import GameStat, PlayerStat
from ..extensions import db
from ..models import Player
from .queries import FINISHED, rate

TOP = 3
# A win rate over fewer games than this says more about luck than about the player.
MIN_GAMES_FOR_RATE = 5


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


def _marks(kept: list[dict[str, Any]], player_id: int) -> list[GameMark]:
    return [
        GameMark(
            player_id,
            "",
            mark["total"],
            mark["game_id"],
            datetime.fromisoformat(mark["started"]),
            mark["rules_name"],
        )
        for mark in kept
    ]


def _rounds(*, fastest: bool) -> list[GameMark]:
    """Finished games by number of rounds, with their (first) winner: the fastest among
    12-Step games (and house rules built on it), the longest among all; read in order from
    an index of the kept game rows."""
    conditions = [GameStat.status == FINISHED, GameStat.round_count > 0]
    if fastest:
        conditions.append(GameStat.twelve_step.is_(True))
    order = GameStat.round_count.asc() if fastest else GameStat.round_count.desc()
    stmt = (
        select(
            GameStat.winner_id,
            GameStat.round_count,
            GameStat.game_id,
            GameStat.started,
            GameStat.rules_name,
        )
        .where(*conditions)
        .order_by(order, GameStat.started)
        .limit(TOP)
    )
    return [
        GameMark(pid, "", rounds, gid, started, rules)
        for pid, rounds, gid, started, rules in db.session.execute(stmt)
    ]


def records() -> Records:
    """Every record, with current names, from the kept statistics (``history.stats``): each
    player's row holds their own best candidates, of which the family's best are the best."""
    rows = db.session.execute(
        select(
            PlayerStat.player_id,
            PlayerStat.wins,
            PlayerStat.finished,
            PlayerStat.detail,
            Player.name,
        ).join(Player, Player.id == PlayerStat.player_id)
    ).all()
    counts = [(pid, won, played) for pid, won, played, _, _ in rows if played]
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
    lowest: list[GameMark] = []
    highest: list[GameMark] = []
    streaks: list[Streak] = []
    for pid, _won, _played, detail, _name in rows:
        lowest += _marks(detail.get("lowest", []), pid)
        highest += _marks(detail.get("highest", []), pid)
        streaks += [
            Streak(pid, "", n, datetime.fromisoformat(first), datetime.fromisoformat(last))
            for n, first, last in detail.get("streaks", [])
        ]
    lowest.sort(key=lambda m: (m.value, m.started, m.game_id))
    highest.sort(key=lambda m: (-m.value, m.started, m.game_id))
    streaks.sort(key=lambda s: (-s.length, -s.last.timestamp()))
    kept = Records(
        most_wins=most_wins,
        best_rate=best_rate,
        most_games=most_games,
        lowest_totals=lowest[:TOP],
        highest_totals=highest[:TOP],
        streaks=streaks[:TOP],
        fastest=_rounds(fastest=True),
        longest=_rounds(fastest=False),
    )
    names: dict[int, str] = {pid: name for pid, _, _, _, name in rows}
    missing = {
        mark.player_id
        for mark in (*kept.fastest, *kept.longest)
        if mark.player_id is not None and mark.player_id not in names
    }
    if missing:
        names.update(
            db.session.execute(
                select(Player.id, Player.name).where(Player.id.in_(missing))
            ).tuples()
        )
    return kept.named(names)
