"""The family's records: most wins, best and worst totals, winning streaks, fastest games, and
the most contracts made in one game under each rule set where each player keeps their own
(a Phase 10 game's are phases: "most phases in one game").

The records are read from the kept statistics (``history.stats``), updated in the same
transaction as every change to a game: one row per player (their wins, finished games, and
their own three best streaks, lowest and highest totals, of which the family's three best are
the best), and the fastest and longest games read in order from an index of the kept game
rows (each with the tie-break hand it ended on, if any, said apart). Two queries, however
many games, and two for the most contracts made in one game (the kept contracts, then the
rules of one game a rule set); player names are always read fresh.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from ..derived import GameStat, PlayerStat, SeatContract
from ..extensions import db
from ..games.phases import says_phases
from ..models import Game, Player, Round
from ..rules import get_ruleset
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
    # A game's length: the tie-break hand it ended on, said apart from its rounds (``value``
    # counts the rounds without it): "10 rounds and a tie-break hand".
    tie_break_hands: int = 0


@dataclass(frozen=True)
class Streak:
    player_id: int
    name: str
    length: int
    first: datetime
    last: datetime


@dataclass(frozen=True)
class MostMade:
    """The most contracts one player made in one finished game of one rule set where each
    keeps their own contract (a rule set's contracts are its own: 12-Step's twelve are not
    Phase 10's ten, so each rule set has its record). ``phases``: the rule set's contracts are
    phases (a Phase 10 deck's game), and the record is worded so."""

    rules_name: str
    phases: bool
    marks: tuple[GameMark, ...]


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
    most_made: list[MostMade] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.most_games

    def named(self, names: dict[int, str]) -> Records:
        """The same records with each player's current name."""

        def fix(items: list[Any]) -> list[Any]:
            return [
                replace(item, marks=tuple(fix(list(item.marks))))
                if isinstance(item, MostMade)
                else replace(item, name=names.get(item.player_id, item.name))
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
    an index of the kept game rows. A game's rounds are every hand dealt, a tie-break hand
    too (it was dealt and played); its mark says the hand apart from the rounds."""
    conditions = [GameStat.status == FINISHED, GameStat.round_count > 0]
    if fastest:
        conditions.append(GameStat.twelve_step.is_(True))
    order = GameStat.round_count.asc() if fastest else GameStat.round_count.desc()
    # The kept count holds every hand dealt, a tie-break hand too (the head to head and the
    # ratings read the rounds so): each game listed says its own apart, read by the rounds'
    # index by game.
    tie_break_hands = (
        select(func.count(Round.id))
        .where(Round.game_id == GameStat.game_id, Round.tie_break_hand)
        .correlate(GameStat)
        .scalar_subquery()
    )
    stmt = (
        select(
            GameStat.winner_id,
            GameStat.round_count,
            GameStat.game_id,
            GameStat.started,
            GameStat.rules_name,
            tie_break_hands,
        )
        .where(*conditions)
        .order_by(order, GameStat.started)
        .limit(TOP)
    )
    return [
        GameMark(pid, "", rounds - hands, gid, started, rules, hands)
        for pid, rounds, gid, started, rules, hands in db.session.execute(stmt)
    ]


def _most_made() -> list[MostMade]:
    """Per rule set of the finished games where each player keeps their own contract: the
    ``TOP`` most contracts one player made in one game (the earlier game first on a tie, then the
    player entered first), from
    the kept contracts (``SeatContract``: a row a contract a player worked on, ``made`` 1 where
    they made it). Only the contracts the game played are there (Phase 10's ``phases_played``),
    and a tie-break hand makes none. Rule sets in order of their name."""
    made = func.count().label("made")
    stmt = (
        select(
            GameStat.rules_slug,
            GameStat.rules_name,
            SeatContract.game_id,
            SeatContract.player_id,
            GameStat.started,
            made,
        )
        .join(GameStat, GameStat.game_id == SeatContract.game_id)
        .where(GameStat.status == FINISHED, SeatContract.made > 0)
        .group_by(
            GameStat.rules_slug,
            GameStat.rules_name,
            SeatContract.game_id,
            SeatContract.player_id,
            GameStat.started,
        )
    )
    by_rules: dict[str, list[tuple[str, GameMark]]] = {}
    for slug, rules_name, game_id, player_id, started, count in db.session.execute(stmt):
        by_rules.setdefault(slug, []).append(
            (rules_name, GameMark(player_id, "", int(count), game_id, started, rules_name))
        )
    tops = [
        sorted(
            marks,
            key=lambda item: (
                -item[1].value,
                item[1].started,
                item[1].game_id,
                item[1].player_id or 0,
            ),
        )
        for marks in by_rules.values()
    ]
    phases = _phases([top[0][1].game_id for top in tops])
    found = [
        MostMade(top[0][0], top[0][1].game_id in phases, tuple(mark for _, mark in top[:TOP]))
        for top in tops
    ]
    return sorted(found, key=lambda record: (record.rules_name, record.marks[0].game_id))


def _phases(game_ids: list[int]) -> set[int]:
    """Those of ``game_ids`` whose rules call their contracts phases (one query; rules that no
    longer read call them contracts)."""
    if not game_ids:
        return set()
    found = set()
    for game_id, rules in db.session.execute(
        select(Game.id, Game.rules).where(Game.id.in_(game_ids))
    ):
        try:
            if rules is not None and says_phases(get_ruleset(rules)):
                found.add(game_id)
        except (ValueError, TypeError, KeyError):
            continue
    return found


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
        most_made=_most_made(),
    )
    names: dict[int, str] = {pid: name for pid, _, _, _, name in rows}
    missing = {
        mark.player_id
        for mark in (
            *kept.fastest,
            *kept.longest,
            *(mark for record in kept.most_made for mark in record.marks),
        )
        if mark.player_id is not None and mark.player_id not in names
    }
    if missing:
        names.update(
            db.session.execute(
                select(Player.id, Player.name).where(Player.id.in_(missing))
            ).tuples()
        )
    return kept.named(names)
