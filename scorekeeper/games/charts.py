"""Charts of one game, drawn on the server as inline SVG (no chart library in the browser).

This module does the arithmetic (scales, ticks, where each line and label goes) and
``templates/games/_charts.html`` writes the markup. Colours and line styles come from classes
in ``static/css/app.css`` (the Content-Security-Policy allows no inline styles), and every
chart carries a title, a description and a table with the same numbers.

Two charts: everyone's running total round by round, and, where each player keeps their own
contract until they make it, the race of contracts made.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil, floor, log10

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.languages import number
from scorekeeper.models import Game
from scorekeeper.rules import RuleSet, get_ruleset

WIDTH = 360
HEIGHT = 230
LEFT = 38
# Room for the lines' end labels ("Bartol… 240") at 14 units, 12 px on a 360 px phone.
RIGHT = 108
TOP = 12
BOTTOM = 34
LABEL_GAP = 16
STYLES = 8
MAX_TICKS = 6


@dataclass(frozen=True)
class Tick:
    value: int
    at: float

    @property
    def label(self) -> str:
        """The tick's number, written as the page's language writes numbers (1,250 / 1.250)."""
        return number(self.value)


@dataclass(frozen=True)
class Series:
    name: str
    style: int
    values: tuple[int, ...]
    points: tuple[tuple[float, float], ...]
    label_y: float

    @property
    def path(self) -> str:
        return "M" + " L".join(f"{x:.1f} {y:.1f}" for x, y in self.points)

    @property
    def last(self) -> int:
        return self.values[-1]


@dataclass(frozen=True)
class LineChart:
    key: str
    title: str
    description: str
    y_label: str
    rounds: int
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    series: tuple[Series, ...]
    goal: Tick | None = None
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM

    @property
    def label_x(self) -> int:
        return self.right + 6

    @property
    def rows(self) -> list[tuple[int, list[int]]]:
        """The table fallback: for each round, every series' value after it."""
        return [
            (number, [series.values[number] for series in self.series])
            for number in range(1, self.rounds + 1)
        ]


def nice_step_of(span: float, most: int) -> float:
    """The smallest step of 1, 2 or 5 times a power of ten (a tenth, a half, ... too) that cuts
    ``span`` into at most ``most`` intervals: the ticks of every chart, a game's and a rating's
    (``history.rating_chart``)."""
    rough = max(span / most, 1e-9)
    power = 10.0 ** floor(log10(rough))
    for factor in (1, 2, 5):
        if factor * power >= rough:
            return factor * power
    return 10 * power


def nice_step(span: float, most: int = MAX_TICKS) -> int:
    """``nice_step_of`` for a chart of whole points: at least 1."""
    if span <= 0:
        return 1
    return max(1, round(nice_step_of(span, most)))


def _ticks(top_value: int, scale: float, origin: float, most: int = MAX_TICKS) -> tuple[Tick, ...]:
    step = nice_step(top_value, most)
    return tuple(Tick(v, origin - v * scale) for v in range(0, top_value + 1, step))


def _spread(wanted: Sequence[float], low: float, high: float, gap: float) -> list[float]:
    """Label positions as close to ``wanted`` as possible, at least ``gap`` apart, within
    [low, high] (end labels of lines that finish close together would overlap)."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [0.0] * len(wanted)
    previous = low - gap
    for i in order:
        placed[i] = max(wanted[i], previous + gap)
        previous = placed[i]
    overflow = previous - high
    if overflow > 0:
        following = high + gap
        for i in reversed(order):
            placed[i] = min(placed[i], following - gap)
            following = placed[i]
    return placed


def _line_chart(
    key: str,
    title: str,
    y_label: str,
    names: Sequence[str],
    columns: Sequence[Sequence[int]],
    goal: int | None = None,
    higher_is_better: bool = False,
) -> LineChart:
    """``columns[i]`` holds player i's value after each round, starting with 0 before the
    first round."""
    rounds = len(columns[0]) - 1
    highest = max([*(max(column) for column in columns), goal or 0, 1])
    step = nice_step(highest)
    top_value = ceil(highest / step) * step
    plot_width = WIDTH - RIGHT - LEFT
    plot_height = HEIGHT - BOTTOM - TOP
    x_scale = plot_width / max(rounds, 1)
    y_scale = plot_height / top_value
    origin = HEIGHT - BOTTOM

    def point(round_number: int, value: int) -> tuple[float, float]:
        return (LEFT + round_number * x_scale, origin - value * y_scale)

    label_ys = _spread(
        [point(rounds, column[-1])[1] + 4 for column in columns], TOP + 4, origin + 4, LABEL_GAP
    )
    series = tuple(
        Series(
            name=name,
            style=index % STYLES,
            values=tuple(column),
            points=tuple(point(n, v) for n, v in enumerate(column)),
            label_y=label_y,
        )
        for index, (name, column, label_y) in enumerate(zip(names, columns, label_ys, strict=True))
    )
    x_step = nice_step(rounds, 8)
    x_ticks = tuple(Tick(n, point(n, 0)[0]) for n in range(0, rounds + 1, x_step))
    ranked = sorted(series, key=lambda s: -s.last if higher_is_better else s.last)
    finals = ", ".join(f"{s.name} {number(s.last)}" for s in ranked)
    description = ngettext(
        "%(values)s of each player after round %(num)s. At the end: %(finals)s.",
        "%(values)s of each player after each of the %(num)s rounds. At the end: %(finals)s.",
        rounds,
        values=y_label,
        finals=finals,
    )
    return LineChart(
        key=key,
        title=title,
        description=description,
        y_label=y_label,
        rounds=rounds,
        x_ticks=x_ticks,
        y_ticks=_ticks(top_value, y_scale, origin),
        series=series,
        goal=Tick(goal, origin - goal * y_scale) if goal else None,
    )


def game_charts(game: Game) -> list[LineChart]:
    """The charts of one game: running totals, and the contract race where each player keeps
    their own contract. Nothing before the first round. In the page's language: their titles,
    descriptions and numbers are words a person reads."""
    rounds = sorted(game.rounds, key=lambda r: r.number)
    if not rounds:
        return []
    seats = sorted(game.seats, key=lambda s: s.position)
    names = [seat.player.name for seat in seats]
    totals: list[list[int]] = [[0] for _ in seats]
    made: list[list[int]] = [[0] for _ in seats]
    for played in rounds:
        hands = {hand.seat_id: hand for hand in played.hands}
        for index, seat in enumerate(seats):
            hand = hands.get(seat.id)
            # A joiner's points brought count from the round they joined before (issue 43).
            brought = seat.joined_total if played.number == seat.joined_before else 0
            totals[index].append(totals[index][-1] + brought + (hand.points if hand else 0))
            made[index].append(made[index][-1] + (1 if hand and hand.made_contract else 0))
    charts = [_line_chart("totals", _("Running totals"), _("Points"), names, totals)]
    rules = _rules_of(game)
    if rules is not None and rules.keeps_contracts:
        goal = len(rules.contracts)
        charts.append(
            _line_chart(
                "race",
                _("Contract race"),
                _("Contracts made"),
                names,
                made,
                goal=goal,
                higher_is_better=True,
            )
        )
    return charts


def _rules_of(game: Game) -> RuleSet | None:
    """The game's frozen rules (options they lack read as their preset's), or its preset's
    where they cannot be read; None when neither can: the page then draws the totals only."""
    for rules in (game.rules, game.rules_slug):
        try:
            return get_ruleset(rules)
        except ValueError:
            continue
    return None
