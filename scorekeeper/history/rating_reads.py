"""The ratings as the pages read them: whether to show them at all (``state``), every player's
rating now, one player's, and how one game moved its players. The ratings are kept by
``history.ratings``; while a replay is left to the worker, none is shown."""

from __future__ import annotations

from dataclasses import dataclass

from flask import g, has_request_context
from sqlalchemy import exists, select

from .. import scope
from ..derived import PlayerRating, RatingMark, RatingStep
from ..extensions import db
from ..models import Household, Player
from .rating_model import ALL, PROVISIONAL, shown

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
                exists().where(scope.for_household(household).owns(RatingMark.__table__)),
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
