"""The rating model's arithmetic: how one finished game moves its players' ratings, with nothing
of the database (``history.ratings`` reads the games and stores the steps).

OpenSkill's Plackett-Luce model: each seat is a team of one, ranked by its place in the game's
final standings (equal places are a tie), so a win over strong players counts for more than a
win over beginners, and a rating that rests on few games moves more. A player has one rating in
every pool: the pool of all rule sets (``ALL``) and one pool per rule set (its slug). The number
a person sees is ``shown``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from openskill.models import PlackettLuce

from .played import Stretches, last_round, plays

# The pool of every rule set; any other pool is one rule set's slug.
ALL = ""
ALL_NAME = "All rules"
# Below this many games a rating is marked provisional: it still moves a lot.
PROVISIONAL = 5
# OpenSkill's defaults: a new player's mu 25, sigma 25/3, so a shown rating starts at 0.
MODEL = PlackettLuce()

# Where a game stands in the order of play: (started, game id).
Position = tuple[datetime, int]
# A player's rating in one pool: (player id, pool).
Pair = tuple[int, str]


def shown(mu: float, sigma: float) -> float:
    """The rating a person sees: OpenSkill's ordinal, mu - 3 sigma, a cautious estimate that
    rises both with skill and with the games it rests on (0 for a new player)."""
    return mu - 3 * sigma


class Rated(NamedTuple):
    """A (player, pool)'s rating as the replay carries it: OpenSkill's own value (handed back to
    the next game as it is: making one afresh from mu and sigma costs as much as rating)."""

    rating: Any
    games: int
    pool_name: str

    @property
    def mu(self) -> float:
        return float(self.rating.mu)

    @property
    def sigma(self) -> float:
        return float(self.rating.sigma)


def rating_of(mu: float, sigma: float, games: int, pool_name: str) -> Rated:
    """A rating read back from a stored step."""
    return Rated(MODEL.rating(mu=mu, sigma=sigma), games, pool_name)


class Played(NamedTuple):
    """A finished game as the replay rates it: where it stands in the order of play, its rules,
    and each player's place (by player id; None where the game gave none); its rounds, and the
    rounds each player who left, joined or came back was dealt into (``away``, by player id:
    a player not in it sat through the whole game)."""

    game_id: int
    started: datetime
    rules_slug: str
    rules_name: str
    places: list[tuple[int, int | None]]
    rounds: int = 0
    away: dict[int, Stretches] = {}  # noqa: RUF012 (a NamedTuple's default, never changed)

    @property
    def position(self) -> Position:
        return (self.started, self.game_id)

    def pairs(self) -> list[Pair]:
        """The (player, pool) ratings the game moves: every rule set's and its own rules'."""
        return [(player, pool) for player, _ in self.places for pool in (ALL, self.rules_slug)]


def _rank(place: int | None, last: int) -> float:
    return float(place if place is not None else last)


def rate_game(
    game: Played, ratings: dict[Pair, Rated], pool: str, pool_name: str
) -> list[dict[str, Any]]:
    """Rate one game in one pool: update ``ratings`` and return the steps it makes. The
    players of the game's last round are rated on their standings among themselves: each seat
    a team of one, ranked by its place (equal places are a tie; a seat with no place comes
    last). A player who left before the end is rated as last among the players dealt into
    their own last round, from everyone's rating before the game; that match moves the
    leaver's rating alone. A player is never rated against one they shared no round with."""
    before = {player: ratings.get((player, pool)) for player, _ in game.places}

    def team(player: int) -> list[Any]:
        was = before[player]
        return [MODEL.rating() if was is None else was.rating]

    ends = {player: last_round(game.away.get(player), game.rounds) for player, _ in game.places}
    stayed = [(player, place) for player, place in game.places if ends[player] == game.rounds]
    new: dict[int, Any] = {}
    if len(stayed) >= 2:
        ranks = [_rank(place, len(stayed)) for _, place in stayed]
        after = MODEL.rate([team(player) for player, _ in stayed], ranks=ranks)
        new.update((player, rated) for (player, _), (rated,) in zip(stayed, after, strict=True))
    for player, _ in game.places:
        end = ends[player]
        if end == game.rounds or end == 0:
            continue
        table = [
            (other, place)
            for other, place in game.places
            if other != player and plays(game.away.get(other), end)
        ]
        if not table:
            continue
        ranks = [_rank(place, len(game.places)) for _, place in table]
        after = MODEL.rate(
            [team(player), *(team(other) for other, _ in table)],
            ranks=[max(ranks) + 1, *ranks],
        )
        new[player] = after[0][0]
    steps = []
    for player, _ in game.places:
        if player not in new:
            continue
        was, rated = before[player], new[player]
        games = (was.games if was else 0) + 1
        old_shown = shown(was.mu, was.sigma) if was else shown(MODEL.mu, MODEL.sigma)
        ratings[(player, pool)] = Rated(rated, games, pool_name)
        steps.append(
            {
                "game_id": game.game_id,
                "player_id": player,
                "pool": pool,
                "started": game.started,
                "mu": rated.mu,
                "sigma": rated.sigma,
                "games": games,
                "change": shown(rated.mu, rated.sigma) - old_shown,
            }
        )
    return steps


def rate_in_both_pools(game: Played, ratings: dict[Pair, Rated]) -> list[dict[str, Any]]:
    """The steps of one game: over all rule sets, then in its own rules' pool (none for a game
    of fewer than two players: nobody to be ranked against)."""
    if len(game.places) < 2:
        return []
    return [
        *rate_game(game, ratings, ALL, ALL_NAME),
        *rate_game(game, ratings, game.rules_slug, game.rules_name),
    ]
