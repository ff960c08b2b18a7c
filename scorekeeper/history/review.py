"""The year in review (issue 26, item 3): one household's year, in its own time zone, told in a
few figures a family reads at a glance, and drawn on a 1200 x 630 card for the family chat.

The figures, each over the games started in the year (local midnight to local midnight, as a
season: ``seasons.year``), finished games only (the rating leader stands on every game before
the year's end):

- **most games played** and **most wins**, and the **longest winning streak** (wins in a row
  among a player's finished games of the year, in order of play): ``seasons.records``, from the
  kept seat rows;
- the **biggest comeback**: after every round but the last of a finished game, its players are
  ranked by the game's own ranking (most contracts made, then fewest points, where each keeps
  their own contract; fewest points otherwise). Where an eventual winner was not first, they
  were behind the leader by (contracts the leader had made more, points more than the
  leader's); the biggest comeback is the largest such deficit of any winner of any game,
  compared as the ranking does (contracts first, then points), the earliest game on a tie. Told
  as the ranking decides: in contracts where it was contracts behind, in points only where the
  contracts were level (or the rules rank by points alone);
- the **hardest contract**: the contract (of a rule set) with the lowest share made of the times
  it was tried, a try being one player's hand of one round played on it, among contracts tried
  at least ``MIN_TRIES`` times in the year (the most tried first on a tie), leaving out a
  contract made only by going out (the rules, not the family, make it hard);
- the **rating leader** at the year's end: the best rating over all rules of everyone rated by
  then (a rating rests on every game before; one who did not play in the year still stands
  where their last game left them), and the **biggest climber** over the year, among those who
  played in it (the sum of the moves of their games in it): ``seasons.standings_at`` and
  ``seasons.ratings``, from ``derived.RatingStep``;
- the **busiest evening**: the evening with most finished games, then most rounds played in
  them, the earliest on a tie. An evening runs from 05:00 to 05:00 local time
  (``EVENING_STARTS``), not midnight to midnight: a game started at 00:30 belongs to the
  evening before it, as the family who played it would say, and nobody starts a game for the
  evening before 05:00. A year's evenings are those of its days: New Year's Eve keeps the games
  played after its midnight, and the first hours of 1 January belong to the year before.

The headline counts the year's finished games and their rounds, as the figures do; the games
started but not finished (abandoned, or still being played) are named beside it.

The comeback and the hardest contract need each round's hands, which no kept table holds per
round: they are read for the year's finished games only, a chunk of games at a time. The whole
review is kept (``extensions.Kept``) under the household's data version
(``services.data_version``), which every change to a game, player or the time zone moves.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import MAXYEAR, MINYEAR, date, datetime, timedelta
from typing import Any

from sqlalchemy import or_, select

from .. import languages, local_time, scope
from ..derived import GameStat, SeatStat
from ..extensions import Kept, db
from ..games.phases import says_phases
from ..models import Game, Hand, Round, Seat
from ..rules import RuleSet, get_ruleset
from ..status import GameStatus
from . import rating_reads
from .records import PlayerCount
from .seasons import SeasonRating, Streak, kept_season, player_names, standings_at, year
from .words import _, format_decimal, ngettext

FINISHED = GameStatus.FINISHED.value
# The hardest contract counts only contracts tried at least this many times in the year.
MIN_TRIES = 10
# Games whose rounds are read in one statement.
CHUNK = 400
# An evening runs from this hour to the same hour the next day, local time.
EVENING_STARTS = 5

seat_stats = SeatStat.__table__
rounds_t = Round.__table__
hands_t = Hand.__table__
seats_t = Seat.__table__
# The years a review may be asked for: those a date holds (a season's bounds past them are
# left open, ``seasons.Season.conditions``).
FIRST_YEAR, LAST_YEAR = MINYEAR, MAXYEAR


def counted(number: int) -> str:
    """A count as the page's language groups it (1,250 / 1.250)."""
    return str(format_decimal(number, format="#,##0"))


@dataclass(frozen=True)
class Comeback:
    """An eventual winner's largest deficit to the leader after a round of one game."""

    player_id: int
    name: str
    leader: str
    game_id: int
    started: datetime
    rules_name: str
    round_number: int
    contracts_behind: int
    points_behind: int
    keeps: bool = False
    # The game's contracts are phases (a Phase 10 deck's): "2 phases", "level on phases".
    phases: bool = False

    @property
    def behind(self) -> str:
        """The deficit in words, as the game's ranking decided it: "2 contracts" where the
        winner was contracts behind (the points then decided nothing), "85 points" where the
        contracts were level or the rules rank by points alone."""
        if self.contracts_behind and self.phases:
            return ngettext(
                "%(count)s phase",
                "%(count)s phases",
                self.contracts_behind,
                count=counted(self.contracts_behind),
            )
        if self.contracts_behind:
            return ngettext(
                "%(count)s contract",
                "%(count)s contracts",
                self.contracts_behind,
                count=counted(self.contracts_behind),
            )
        return ngettext(
            "%(count)s point",
            "%(count)s points",
            self.points_behind,
            count=counted(self.points_behind),
        )

    @property
    def level_on_contracts(self) -> bool:
        """Whether points decided it in a game that ranks by contracts first."""
        return self.keeps and not self.contracts_behind


@dataclass(frozen=True)
class HardContract:
    rules_name: str
    contract: int
    description: str
    tries: int
    made: int
    # The rule set's contracts are phases (a Phase 10 deck's): "Hardest phase", "phase 9".
    phases: bool = False

    @property
    def share(self) -> float:
        return self.made / self.tries


@dataclass(frozen=True)
class Evening:
    day: date
    games: int
    rounds: int


@dataclass(frozen=True)
class Review:
    year: int
    games: int
    finished: int
    # The rounds of the year's finished games.
    rounds: int
    most_games: tuple[PlayerCount, ...]
    most_wins: tuple[PlayerCount, ...]
    streaks: tuple[Streak, ...]
    comeback: Comeback | None
    hardest: HardContract | None
    leader: SeasonRating | None
    climber: SeasonRating | None
    busiest: Evening | None

    @property
    def empty(self) -> bool:
        return self.games == 0

    @property
    def unfinished(self) -> int:
        """The year's games not finished: abandoned, or still being played."""
        return self.games - self.finished


def review_of(number: int, version: str) -> Review:
    """The year ``number`` of the household in scope, kept under its data version ``version``
    (read by the caller for its ETag), its zone (which the version names too) and the page's
    language."""
    key = ("review", scope.current(), number, version, languages.locale())
    made = Kept.of().get_or_make(key, lambda: compute(number, version))
    # The rating leader and climber where the household shows ratings, up to date (the
    # version names both: ``rating_reads.state``); never on the page or its card otherwise.
    if rating_reads.state() != rating_reads.SHOWN:
        return replace(made, leader=None, climber=None)
    return made


def compute(number: int, version: str) -> Review:
    """The year ``number`` of the household in scope, from its kept rows and its finished
    games' hands (see the module's docstring for each figure); the year's records and ratings
    are the season page's, kept under the same data version (``seasons.kept_season``)."""
    season = year(number)
    games = db.session.execute(
        select(GameStat.game_id, GameStat.started, GameStat.round_count, GameStat.status).where(
            *season.conditions(GameStat.started)
        )
    ).all()
    if not games:
        return Review(number, 0, 0, 0, (), (), (), None, None, None, None, None)
    done = [row for row in games if row.status == FINISHED]
    finished = [row.game_id for row in done]
    rated, kept = kept_season(version, season)
    comeback, hardest = _from_hands(finished)
    climbers = sorted(rated, key=lambda r: (-r.climb, r.name))
    standing = standings_at(season)
    return Review(
        year=number,
        games=len(games),
        finished=len(finished),
        rounds=sum(row.round_count for row in done),
        most_games=_tied(kept.most_games, lambda r: r.count),
        most_wins=_tied(kept.most_wins, lambda r: r.count),
        streaks=_tied(kept.streaks, lambda s: s.length),
        comeback=comeback,
        hardest=hardest,
        leader=standing[0] if standing else None,
        climber=climbers[0] if climbers and climbers[0].climb > 0 else None,
        busiest=busiest_evening(_evenings_in(number)),
    )


def _evenings_in(number: int) -> list[Any]:
    """The (started, rounds) of the finished games whose evening (``evening_of``) is a day of
    the year ``number``: started from 05:00 on its 1 January to 05:00 on the next one, local
    time (one read of the index on start)."""
    since = local_time.at(date(number, 1, 1), EVENING_STARTS)
    until = local_time.at(date(number + 1, 1, 1), EVENING_STARTS) if number < MAXYEAR else None
    conditions = [GameStat.status == FINISHED]
    if since is not None:
        conditions.append(GameStat.started >= since)
    if until is not None:
        conditions.append(GameStat.started < until)
    rows = db.session.execute(select(GameStat.started, GameStat.round_count).where(*conditions))
    return list(rows)


def _tied(ranked: Sequence[Any], value: Any) -> tuple[Any, ...]:
    """The first of ``ranked`` and every other equal to it by ``value``."""
    if not ranked:
        return ()
    return tuple(each for each in ranked if value(each) == value(ranked[0]))


def evening_of(started: datetime) -> date:
    """The evening a game started at ``started`` belongs to, named by the day it began: local
    time from ``EVENING_STARTS`` o'clock to the same hour the next day (wall-clock hours, so a
    change of clocks in the night moves nothing)."""
    return (local_time.local(started) - timedelta(hours=EVENING_STARTS)).date()


def busiest_evening(games: Any) -> Evening | None:
    """The evening (``evening_of``) with most games, then most rounds, the earliest on a tie,
    from the (started, rounds) pairs of the games to count (the caller's finished ones)."""
    days: dict[date, list[int]] = defaultdict(lambda: [0, 0])
    for started, rounds in games:
        day = evening_of(started)
        days[day][0] += 1
        days[day][1] += rounds
    if not days:
        return None
    day, (count, rounds) = min(days.items(), key=lambda item: (-item[1][0], -item[1][1], item[0]))
    return Evening(day, count, rounds)


@dataclass
class _Game:
    started: datetime
    rules_slug: str
    rules_name: str
    keeps: bool
    winners: set[int]
    # (round number, player id, points, made, contract)
    hands: list[tuple[int, int, int, bool, int]]
    # Per player who joined or came back with a total: {round number: total from then on}.
    starts: dict[int, dict[int, int]] = field(default_factory=dict)


def _from_hands(finished: list[int]) -> tuple[Comeback | None, HardContract | None]:
    """The biggest comeback and the hardest contract of these finished games."""
    found: dict[int, _Game] = {}
    for at in range(0, len(finished), CHUNK):
        chunk = finished[at : at + CHUNK]
        # Core, by the ids of the household's own games just read under the scope (as
        # ``seasons.records``): the scope's condition on the household would lead SQLite to the
        # household's index, a read of its every row.
        for row in db.session.execute(
            select(
                seat_stats.c.game_id,
                seat_stats.c.player_id,
                seat_stats.c.is_winner,
                seat_stats.c.kept_contract,
                seat_stats.c.started,
                seat_stats.c.rules_slug,
                seat_stats.c.rules_name,
            ).where(seat_stats.c.game_id.in_(chunk))
        ):
            game = found.setdefault(
                row.game_id,
                _Game(row.started, row.rules_slug, row.rules_name, row.kept_contract, set(), []),
            )
            if row.is_winner:
                game.winners.add(row.player_id)
        # A joiner counts from the points joined with, a comeback with a total from that total.
        for game_id, player_id, joined, brought, returns in db.session.execute(
            select(
                seats_t.c.game_id,
                seats_t.c.player_id,
                seats_t.c.joined_before,
                seats_t.c.joined_total,
                seats_t.c.returns,
            ).where(
                seats_t.c.game_id.in_(chunk),
                or_(seats_t.c.joined_before.is_not(None), seats_t.c.returns.is_not(None)),
            )
        ):
            if game_id not in found:
                continue
            starts: dict[int, int] = {}
            if joined is not None:
                starts[joined] = brought or 0
            for away in returns or ():
                if len(away) > 2 and away[2] is not None:
                    starts[int(away[1])] = int(away[2])
            if starts:
                found[game_id].starts[player_id] = starts
        for game_id, number, player_id, points, made, contract in db.session.execute(
            select(
                rounds_t.c.game_id,
                rounds_t.c.number,
                seats_t.c.player_id,
                hands_t.c.points,
                hands_t.c.made_contract,
                hands_t.c.contract,
            )
            .select_from(rounds_t)
            .join(hands_t, hands_t.c.round_id == rounds_t.c.id)
            .join(seats_t, seats_t.c.id == hands_t.c.seat_id)
            # A tie-break hand is no try at a contract, and the game was over before it: the
            # comeback counts to its last regular round.
            .where(rounds_t.c.game_id.in_(chunk), rounds_t.c.tie_break_hand.is_(False))
        ):
            if game_id in found:
                found[game_id].hands.append((number, player_id, points, bool(made), contract))
    best: tuple[tuple[int, int], int, int, int, int] | None = None
    tries: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
    rules_of: dict[str, tuple[str, int]] = {}
    for game_id, game in sorted(found.items(), key=lambda item: (item[1].started, item[0])):
        rules_of.setdefault(game.rules_slug, (game.rules_name, game_id))
        for _number, _player, _points, made, contract in game.hands:
            counted = tries[(game.rules_slug, contract)]
            counted[0] += 1
            counted[1] += made
        deficit = biggest_deficit(game.hands, game.winners, game.keeps, game.starts)
        if deficit is not None and (best is None or deficit[0] > best[0]):
            best = (deficit[0], game_id, *deficit[1:])
    comeback = None
    if best is not None:
        (contracts, points), game_id, round_number, winner, leader = best
        game = found[game_id]
        names = player_names({winner, leader})
        comeback = Comeback(
            winner,
            names.get(winner, "?"),
            names.get(leader, "?"),
            game_id,
            game.started,
            game.rules_name,
            round_number,
            contracts,
            points,
            game.keeps,
            _says_phases(_rules(game_id)),
        )
    return comeback, _hardest(tries, rules_of)


def biggest_deficit(
    hands: Sequence[tuple[int, int, int, bool, int]],
    winners: set[int],
    keeps: bool,
    starts: Mapping[int, Mapping[int, int]] | None = None,
) -> tuple[tuple[int, int], int, int, int] | None:
    """The largest deficit of a winner to the leader after any round but the last, from the
    game's hands as (round number, player, points, made, contract): ((contracts behind, points
    behind), round number, winner, leader), or None where no winner was ever behind. After
    each round only the players dealt into it are ranked (a leader who has left is nobody's
    leader); ``starts`` gives, per player, the total they joined or came back with before a
    round (a joiner counts from the points joined with, not from 0)."""
    starts = starts or {}
    by_round: dict[int, list[tuple[int, int, bool]]] = defaultdict(list)
    for number, player, points, made, _contract in hands:
        by_round[number].append((player, points, made))
    numbers = sorted(by_round)
    totals: dict[int, int] = defaultdict(int)
    made_count: dict[int, int] = defaultdict(int)
    best: tuple[tuple[int, int], int, int, int] | None = None
    for number in numbers[:-1]:
        for player, points, made in by_round[number]:
            if number in starts.get(player, {}):
                totals[player] = starts[player][number]
            totals[player] += points
            made_count[player] += made
        table = {player for player, _, _ in by_round[number]}

        def rank(player: int) -> tuple[int, int]:
            return (-made_count[player] if keeps else 0, totals[player])

        leader = min(table, key=lambda player: (rank(player), player))
        for winner in sorted(winners):
            if winner not in table or rank(winner) <= rank(leader):
                continue
            deficit = (
                made_count[leader] - made_count[winner] if keeps else 0,
                totals[winner] - totals[leader],
            )
            if best is None or deficit > best[0]:
                best = (deficit, number, winner, leader)
    return best


def _hardest(
    tries: dict[tuple[str, int], list[int]], rules_of: dict[str, tuple[str, int]]
) -> HardContract | None:
    """The least made contract tried at least ``MIN_TRIES`` times. A contract made only by going
    out is left out: the rules make it once a round whatever the family does."""
    rulesets = {slug: _rules(game_id) for slug, (_name, game_id) in rules_of.items()}
    enough = [
        (key, counted)
        for key, counted in tries.items()
        if counted[0] >= MIN_TRIES and _described(rulesets[key[0]], key[1]) is not None
    ]
    if not enough:
        return None
    (slug, contract), (tried, made) = min(
        enough, key=lambda item: (item[1][1] / item[1][0], -item[1][0], item[0])
    )
    described = _described(rulesets[slug], contract)
    assert described is not None
    return HardContract(
        rules_of[slug][0], contract, described, tried, made, _says_phases(rulesets[slug])
    )


def _says_phases(rules: RuleSet | None) -> bool:
    """Whether ``rules`` call their contracts phases (rules that no longer read do not)."""
    return rules is not None and says_phases(rules)


def _rules(game_id: int) -> RuleSet | None:
    """The rules game ``game_id`` was played by (None where they no longer read)."""
    rules = db.session.scalar(select(Game.rules).where(Game.id == game_id))
    if rules is None:
        return None
    try:
        return get_ruleset(rules)
    except (ValueError, TypeError, KeyError):
        return None


def _described(rules: RuleSet | None, contract: int) -> str | None:
    """What contract ``contract`` asks, or None where it is made only by going out."""
    if rules is None:
        return _("contract %(number)s", number=contract)
    try:
        found = rules.contract(contract)
    except ValueError:
        return _("contract %(number)s", number=contract)
    return None if found.going_out_only else found.description
