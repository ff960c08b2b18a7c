"""The course of one player's rating, drawn on the server as inline SVG like the game's charts
(``games/charts.py``): this module places the points and ticks, and
``templates/history/_rating_chart.html`` writes the markup, with a table of the same numbers
for screen readers.

A player of thousands of games would draw thousands of points: the course is read at most
``POINTS`` times (``sampled``): the first game and every so many after it, the latest and the
peak. The peak (the
highest rating, the first time it came) is read from every step, not from the points drawn, so
the sentence and the table name the true one."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from math import ceil, floor

from sqlalchemy import select

from .. import local_time
from ..derived import PlayerRating, RatingStep
from ..extensions import db
from ..games.charts import nice_step_of
from ..languages import rating as rating_words
from .rating_model import ALL, shown
from .words import _, format_decimal, grouped, ngettext

WIDTH = 360
HEIGHT = 200
LEFT = 40
RIGHT = 12
TOP = 12
BOTTOM = 34
POINTS = 60


@dataclass(frozen=True)
class Tick:
    label: str
    at: float


@dataclass(frozen=True)
class Mark:
    games: int
    started: datetime
    rating: float
    x: float
    y: float


@dataclass(frozen=True)
class RatingChart:
    title: str
    description: str
    marks: tuple[Mark, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    every: int
    peak: Mark
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM

    @property
    def path(self) -> str:
        return "M" + " L".join(f"{m.x:.1f} {m.y:.1f}" for m in self.marks)


def course(player_id: int, name: str, pool: str = ALL) -> RatingChart | None:
    """The chart of ``player_id``'s rating in ``pool`` after each game (None before 2 games)."""
    total = db.session.scalar(
        select(PlayerRating.games).where(
            PlayerRating.player_id == player_id, PlayerRating.pool == pool
        )
    )
    if not total or total < 2:
        return None
    peak_games = _peak_games(player_id, pool)
    every, games = sampled(total, peak_games)
    rows = db.session.execute(
        select(RatingStep.games, RatingStep.started, RatingStep.mu, RatingStep.sigma)
        .where(
            RatingStep.player_id == player_id,
            RatingStep.pool == pool,
            # The marks by their count of games: a seek each on the index of the course.
            RatingStep.games.in_(games),
        )
        .order_by(RatingStep.games)
    ).all()
    values = [(games, started, shown(mu, sigma)) for games, started, mu, sigma in rows]
    low = min(0.0, *(v for _, _, v in values))
    high = max(1.0, *(v for _, _, v in values))
    step = nice_step_of(high - low, 5)
    low, high = floor(low / step) * step, ceil(high / step) * step
    x_scale = (WIDTH - RIGHT - LEFT) / max(total - 1, 1)
    y_scale = (HEIGHT - BOTTOM - TOP) / (high - low)
    origin = HEIGHT - BOTTOM

    def y_of(value: float) -> float:
        return origin - (value - low) * y_scale

    marks = tuple(
        Mark(games, started, rating, LEFT + (games - 1) * x_scale, y_of(rating))
        for games, started, rating in values
    )
    y_ticks = tuple(
        Tick(rating_tick(low + n * step), y_of(low + n * step))
        for n in range(round((high - low) / step) + 1)
    )
    x_step = max(1, int(nice_step_of(total - 1, 6)))
    x_ticks = tuple(
        Tick(str(n), LEFT + (n - 1) * x_scale)
        for n in sorted({1, *range(x_step, total + 1, x_step)})
    )
    now = marks[-1].rating
    # The peak's own mark (the first of the highest where the steps could not say).
    best = next(
        (m for m in marks if m.games == peak_games), max(marks, key=lambda m: (m.rating, -m.games))
    )
    description = ngettext(
        "%(name)s's rating after each of %(count)s finished game: %(now)s now, highest "
        "%(best)s after game %(game)s (%(day)s).",
        "%(name)s's rating after each of %(count)s finished games: %(now)s now, highest "
        "%(best)s after game %(game)s (%(day)s).",
        total,
        name=name,
        count=grouped(total),
        now=rating_words(now),
        best=rating_words(best.rating),
        game=best.games,
        day=local_time.day(best.started),
    )
    return RatingChart(
        title=_("%(name)s's rating, game by game", name=name),
        description=description,
        marks=marks,
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        every=every,
        peak=best,
    )


def rating_tick(value: float) -> str:
    """A rating on the chart's axis, its minus sign the one every rating is written with."""
    return str(format_decimal(value, format="#,##0.##")).replace("-", "\u2212")


def sampled(total: int, peak: int | None) -> tuple[int, list[int]]:
    """The counts of games the chart of ``total`` games draws, at most ``POINTS``, and how many
    games apart they are: every game up to ``POINTS``; beyond, the first and every so many
    after it, leaving room for the latest and the peak (``peak``, where known), drawn too."""
    if total <= POINTS:
        return 1, list(range(1, total + 1))
    every = ceil((total - 1) / (POINTS - 2))
    games = {*range(1, total, every), total}
    if peak is not None:
        games.add(peak)
    return every, sorted(games)


def _peak_games(player_id: int, pool: str) -> int | None:
    """The count of games after which ``player_id``'s rating in ``pool`` was highest, the
    earliest of equals: the shown rating (mu - 3 sigma, as ``rating_model.shown``) ordered by the
    database over the player's steps in the pool, one row back."""
    value = RatingStep.mu - 3 * RatingStep.sigma
    found: int | None = db.session.scalar(
        select(RatingStep.games)
        .where(RatingStep.player_id == player_id, RatingStep.pool == pool)
        .order_by(value.desc(), RatingStep.games)
        .limit(1)
    )
    return found
