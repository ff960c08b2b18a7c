"""Past games: the filtered, paginated list, newest first.

The list is found in the kept ``game_stats`` rows (``history.stats``), one narrow indexed row
per game out of the bin, and only the page's games are then read whole."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from math import ceil
from typing import Any

from flask import g, has_request_context
from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import defer, selectinload

from .. import local_time, scope
from ..derived import GameStat, RestoreMark, SeatStat, StatsVersion
from ..extensions import db
from ..games.services import comebacks_of
from ..games.tally import comings_in_words
from ..models import Game, Household, HouseRules, Player, Round, Seat
from ..rules import Message

# In ``g``: whether the household's history waits for a restore's games (``data_version``).
RESTORING = "restore_under_way"


@dataclass(frozen=True)
class Filters:
    player: int | None = None
    rules: str | None = None
    since: date | None = None
    until: date | None = None
    status: str | None = None

    def source(self) -> type[GameStat] | type[SeatStat]:
        """Where the games are found: the kept game rows, or, for one player's games, their
        kept seat rows (which carry the same columns, in an index by player and date)."""
        return SeatStat if self.player else GameStat

    def conditions(self) -> list[ColumnElement[bool]]:
        kept = self.source()
        conditions: list[ColumnElement[bool]] = []
        if self.player:
            conditions.append(SeatStat.player_id == self.player)
        if self.rules:
            conditions.append(kept.rules_slug == self.rules)
        # A day is the household's, midnight to midnight, compared as the UTC moments it
        # starts and ends at: the stored column stays bare, so its index is used. A bound
        # beyond the years a datetime holds (a day next to 0001-01-01 or 9999-12-31) leaves
        # out nothing a game could have.
        since = local_time.midnight(self.since) if self.since else None
        if since is not None:
            conditions.append(kept.started >= since)
        if self.until and self.until < date.max:
            until = local_time.midnight(self.until + timedelta(days=1))
            if until is not None:
                conditions.append(kept.started < until)
        if self.status:
            conditions.append(kept.status == self.status)
        return conditions

    def args(self) -> dict[str, Any]:
        """The filters as query-string arguments (for the links between pages)."""
        args: dict[str, Any] = {
            "player": self.player,
            "rules": self.rules,
            "since": self.since.isoformat() if self.since else None,
            "until": self.until.isoformat() if self.until else None,
            "status": self.status,
        }
        return {key: value for key, value in args.items() if value}


@dataclass(frozen=True)
class Page:
    games: list[Game]
    number: int
    pages: int
    total: int
    # The games of the page that ended on a tie-break hand, and how many they played (one):
    # their rounds are said apart from it ("10 rounds and a tie-break hand").
    tie_break_hands: dict[int, int] = field(default_factory=dict)

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.pages


def past_games(filters: Filters, page: int, per_page: int) -> Page:
    """One page of the games that pass ``filters``, newest first, with their seats and players
    loaded (four queries, and one to count). A page past the end shows the last one."""
    conditions = filters.conditions()
    kept = filters.source()
    total = db.session.scalar(select(func.count(kept.game_id)).where(*conditions)) or 0
    pages = max(1, ceil(total / per_page))
    number = min(max(page, 1), pages)
    ids = list(
        db.session.scalars(
            select(kept.game_id)
            .where(*conditions)
            .order_by(kept.started.desc(), kept.game_id.desc())
            .limit(per_page)
            .offset((number - 1) * per_page)
        )
    )
    games = db.session.scalars(
        select(Game)
        .where(Game.id.in_(ids))
        .options(defer(Game.rules), selectinload(Game.seats).selectinload(Seat.player))
    ).all()
    order = {game_id: n for n, game_id in enumerate(ids)}
    tie_break_hands = {
        game_id: hands
        for game_id, hands in db.session.execute(
            select(Round.game_id, func.count(Round.id))
            .where(Round.game_id.in_(ids), Round.tie_break_hand)
            .group_by(Round.game_id)
        )
    }
    return Page(
        sorted(games, key=lambda game: order[game.id]), number, pages, total, tie_break_hands
    )


def standings(game: Game) -> list[Seat]:
    """The game's seats, best first (by place where there is one, else by seat)."""
    return sorted(game.seats, key=lambda seat: (seat.place is None, seat.place or 0, seat.position))


def seat_comings(seat: Seat) -> Message | None:
    """Where the seat's total came from (a join, each leave and comeback, the last leave), from
    its own columns: no query."""
    joined = None if seat.joined_before is None else (seat.joined_before, seat.joined_total or 0)
    returns = comebacks_of(seat.returns) if seat.returns else ()
    return comings_in_words(joined, returns, seat.left_after)


def player_choices() -> list[tuple[int, str]]:
    return [
        (pid, name)
        for pid, name in db.session.execute(
            select(Player.id, Player.name).order_by(Player.name_key)
        )
    ]


def rules_choices() -> list[tuple[str, str]]:
    """(slug, name) of every rule set a game out of the bin was played under: each slug with
    the name of its latest game, read from the ``ix_game_stats_rules_name`` index alone."""
    rows = db.session.execute(
        select(GameStat.rules_slug, GameStat.rules_name, func.max(GameStat.game_id)).group_by(
            GameStat.rules_slug, GameStat.rules_name
        )
    )
    latest: dict[str, tuple[int, str]] = {}
    for slug, name, last in rows:
        if slug not in latest or last > latest[slug][0]:
            latest[slug] = (last, name)
    return sorted(((slug, name) for slug, (_, name) in latest.items()), key=lambda c: c[1])


def restore_under_way() -> bool:
    """Whether the household in scope has games a restore stored and has not counted yet
    (``restore_end``): read with ``data_version``, which every history page asks first."""
    known = g.get(RESTORING) if has_request_context() else None
    if known is None:
        known = db.session.scalar(select(RestoreMark.id).limit(1)) is not None
    return bool(known)


def data_version() -> str:
    """What every history page is drawn from, in a few aggregates (one query): it changes
    whenever a game is added, changed or deleted (each moves the household's kept statistics'
    version, ``history.stats``), and when players or house rules are added, renamed or
    removed, and the time zone its dates are shown in, and when a restore's games wait to be
    counted or are counted (``restore_under_way``). The ETag of the history pages is made
    of it."""
    aggregates = (
        func.coalesce(func.max(StatsVersion.version), 0),
        func.count(Player.id),
        func.max(Player.id),
        func.coalesce(func.sum(func.length(Player.name)), 0),
        func.count(HouseRules.id),
        func.max(HouseRules.updated_at),
        # Games a restore stored and has not counted yet (``restore_end``): the pages say so.
        func.count(RestoreMark.id),
    )
    # The dates shown are in the household's zone: read here too (none outside a household).
    household = scope.current()
    household_id = household if isinstance(household, int) else scope.NOBODY
    chosen = select(Household.time_zone).where(Household.id == household_id).scalar_subquery()
    # Whether it shows ratings at all (a ratings replay left to the worker moves the
    # statistics version when it is left and when it is done).
    rated = select(Household.ratings_shown).where(Household.id == household_id).scalar_subquery()
    row = db.session.execute(
        select(*(select(aggregate).scalar_subquery() for aggregate in aggregates), chosen, rated)
    ).one()
    *counted, zone, shown = row
    if has_request_context():
        g.setdefault(RESTORING, bool(counted[-1]))
    return "h" + ".".join(
        [
            *(str(v.timestamp()) if isinstance(v, datetime) else str(v) for v in counted),
            local_time.chosen_zone(household_id, zone),
            *([] if shown is not False else ["unrated"]),
        ]
    )
