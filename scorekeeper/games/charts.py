"""Charts of one game, drawn on the server as inline SVG (no chart library in the browser).

This module does the arithmetic (scales, ticks, where each line and label goes) and
``templates/games/_charts.html`` writes the markup. Colours and line styles come from classes
in ``static/css/app.css`` (the Content-Security-Policy allows no inline styles), and every
chart carries a title, a description and a table with the same numbers.

Two charts: everyone's running total round by round, and, where each player keeps their own
contract until they make it, the race of contracts made.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import ceil, floor, log10
from typing import NamedTuple

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.languages import number
from scorekeeper.models import Game
from scorekeeper.rules import RuleSet, get_ruleset
from scorekeeper.words import words

from . import services
from .phases import says_phases
from .tally import RoundResult, Tally

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


# A line from one point to another: (x, y), (x, y).
Leader = tuple[tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class Series:
    """One player's line: ``values[n]`` their value after round n (``values[0]`` before the
    first), None where they were at the table neither for round n nor for round n + 1 (a
    joiner before joining, a leaver while away); ``played[n]`` whether they were dealt into
    round n, the stretch the line is drawn over. ``last`` is their value now."""

    name: str
    style: int
    values: tuple[int | None, ...]
    played: tuple[bool, ...]
    points: tuple[tuple[float, float] | None, ...]
    label_y: float
    last: int
    # Where the line ends before the chart does (a leaver's), the leader from that end to the
    # label in the right-hand column, so the label reads as that line's: None for a line that
    # runs to the last round.
    leader: Leader | None = None

    @property
    def leader_path(self) -> str:
        """The leader as a path (empty where there is none)."""
        if self.leader is None:
            return ""
        (x1, y1), (x2, y2) = self.leader
        return f"M{x1:.1f} {y1:.1f} L{x2:.1f} {y2:.1f}"

    @property
    def path(self) -> str:
        """The line, over the rounds the player was dealt into: a joiner's starts at the
        round joined, at the points joined with; a leaver's stops at the leave and starts again
        at the comeback (empty before a player's first round)."""
        parts: list[str] = []
        drawing = False
        for n in range(1, len(self.points)):
            start, end = self.points[n - 1], self.points[n]
            if not self.played[n] or start is None or end is None:
                drawing = False
                continue
            if not drawing:
                parts.append(f"M{start[0]:.1f} {start[1]:.1f}")
            parts.append(f"L{end[0]:.1f} {end[1]:.1f}")
            drawing = True
        return " ".join(parts)

    @property
    def dots(self) -> tuple[tuple[float, float], ...]:
        """A dot after each round the player was dealt into."""
        return tuple(
            point
            for point, played in zip(self.points[1:], self.played[1:], strict=True)
            if played and point is not None
        )


@dataclass(frozen=True)
class ChartRow:
    """A row of a chart's table: a round's values after it (None: not in that round), or
    (``arrival`` set) the players who joined or came back before round ``number``, with the
    value each started it with (None for the others)."""

    number: int
    values: tuple[int | None, ...]
    arrival: bool = False
    comeback: bool = False
    # Each arrival in a sentence, for a screen reader (None for the others).
    sentences: tuple[str | None, ...] = ()


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
    rows: tuple[ChartRow, ...] = ()
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


class Column(NamedTuple):
    """One player's values for a chart (``Series``): after each round, None where not at the
    table; whether dealt into each round; the value now."""

    values: list[int | None]
    played: list[bool]
    last: int


def _line_chart(
    key: str,
    title: str,
    y_label: str,
    names: Sequence[str],
    columns: Sequence[Column],
    goal: int | None = None,
    higher_is_better: bool = False,
    arrivals: Sequence[ChartRow] = (),
) -> LineChart:
    """``columns[i]`` holds player i's value after each round, starting with the value before
    the first round; ``arrivals`` the table's rows of who joined or came back, each put
    before its round's row."""
    rounds = len(columns[0].values) - 1
    defined = [value for column in columns for value in column.values if value is not None]
    highest = max([*defined, goal or 0, 1])
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
        [point(rounds, column.last)[1] + 4 for column in columns], TOP + 4, origin + 4, LABEL_GAP
    )

    def leader(column: Column, label_y: float) -> Leader | None:
        """From the line's end, where it stops before the last round, to the middle of the
        left edge of its label (a label's ``y`` is its baseline, 4 below its middle)."""
        ended = max((n for n, played in enumerate(column.played) if played), default=None)
        if ended is None or ended == rounds or column.values[ended] is None:
            return None
        value = column.values[ended]
        assert value is not None
        return point(ended, value), (WIDTH - RIGHT + 3, label_y - 4)

    series = tuple(
        Series(
            name=name,
            style=index % STYLES,
            values=tuple(column.values),
            played=tuple(column.played),
            points=tuple(
                None if value is None else point(n, value) for n, value in enumerate(column.values)
            ),
            label_y=label_y,
            last=column.last,
            leader=leader(column, label_y),
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
    rows: list[ChartRow] = []
    for n in range(1, rounds + 1):
        rows.extend(row for row in arrivals if row.number == n)
        rows.append(
            ChartRow(
                n,
                tuple(column.values[n] if column.played[n] else None for column in columns),
            )
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
        rows=tuple(rows),
        goal=Tick(goal, origin - goal * y_scale) if goal else None,
    )


# What a chart reads of a round: each seat's value after it, and what the round added to a
# seat's value (so the value it started with is the one after, less that).
Reading = Callable[[RoundResult], tuple[int, ...]]
Added = Callable[[RoundResult, int], int]


def _columns(tally: Tally, of: Reading, added: Added, now: list[int]) -> list[Column]:
    """Each player's values (``of`` a round's results) after each round, defined where the
    player was dealt into that round or the next: before a round the player arrived for (the
    first, a join, a comeback), the value they started it with (a joiner's points brought, a
    comeback's total)."""
    results = tally.rounds
    count = len(results)
    columns = []
    for seat in range(len(tally.names)):
        played = [False] + [result.hands[seat].in_round for result in results]
        values: list[int | None] = []
        for n in range(count + 1):
            if played[n]:
                values.append(of(results[n - 1])[seat])
            elif n < count and played[n + 1]:
                values.append(of(results[n])[seat] - added(results[n], seat))
            else:
                values.append(None)
        columns.append(Column(values, played, now[seat]))
    return columns


def _totals(result: RoundResult) -> tuple[int, ...]:
    return result.totals


def _points(result: RoundResult, seat: int) -> int:
    return result.hands[seat].points


def _made(result: RoundResult) -> tuple[int, ...]:
    return result.contracts_made


def _made_in(result: RoundResult, seat: int) -> int:
    return int(result.hands[seat].made_contract)


def game_charts(game: Game) -> list[LineChart]:
    """The charts of one game, from its tally (kept by game version): running totals, and the
    contract race where each player keeps their own contract. Nothing before the first round.
    A player who joined or came back is drawn from the round they arrived before, at the
    points they arrived with, and the running totals' table gives them a row of their own.
    In the page's language: their titles, descriptions and numbers are words a person reads."""
    tally = services.tally_of(game)
    if not tally.rounds:
        return []
    names = list(tally.names)
    now = [tally.standing(seat).total for seat in range(len(names))]
    arrivals = [
        ChartRow(
            number,
            tuple(here[seat].total if seat in here else None for seat in range(len(names))),
            arrival=True,
            comeback=comeback,
            sentences=tuple(
                words(here[seat].message) if seat in here else None for seat in range(len(names))
            ),
        )
        for number in range(1, len(tally.rounds) + 1)
        for comeback, here in tally.arrivals_before(number)
    ]
    charts = [
        _line_chart(
            "totals",
            _("Running totals"),
            _("Points"),
            names,
            _columns(tally, _totals, _points, now),
            arrivals=arrivals,
        )
    ]
    rules = _rules_of(game)
    if rules is not None and rules.keeps_contracts:
        goal = len(rules.phases)  # of the phases played (phases_played)
        made = [tally.standing(seat).contracts_made for seat in range(len(names))]
        phases = says_phases(rules)
        charts.append(
            _line_chart(
                "race",
                _("Phase race") if phases else _("Contract race"),
                _("Phases made") if phases else _("Contracts made"),
                names,
                _columns(tally, _made, _made_in, made),
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
