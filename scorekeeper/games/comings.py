"""Players leave and join a game in progress (issue 43): a player leaves after the last stored
round (dealt into no later round, kept in the standings, never the winner), and one joins
before the next round with the points the family decides. Each write is one transaction, and
a refusal (a table of one, a name at the table already) stores nothing."""

from __future__ import annotations

from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Game, Player, Seat
from scorekeeper.names import name_key, tidy_name, too_long
from scorekeeper.rules import N_, Message, N_plural

from . import changelog
from .rounds import RoundRefused, _commit
from .services import lineup_of, recompute, replay, tally_of
from .tally import IN_PROGRESS, Problem, Tally

__all__ = ["highest_total", "join_game", "leave_game", "left_words"]


def _refused(message: Message) -> RoundRefused:
    return RoundRefused([Problem(None, "players", message)])


def leave_game(game: Game, position: int) -> Seat:
    """The player at ``position`` leaves after the last stored round. Raises RoundRefused where
    the game is over, has no round yet, or would keep fewer than two players."""
    seats = list(game.seats)
    if not 0 <= position < len(seats):
        raise LookupError(position)
    seat = seats[position]
    name = seat.player.name
    rounds = len(game.rounds)
    if game.status != IN_PROGRESS:
        raise _refused(N_("This game is over."))
    if rounds == 0:
        raise _refused(
            N_(
                "%(name)s can leave after a round; before the first, start the game again.",
                name=name,
            )
        )
    if not lineup_of(game).plays(position, rounds + 1):
        raise _refused(N_("%(name)s is not at the table.", name=name))
    try:
        seat.left_after = rounds
        tally = replay(game)
        problems = [problem for problem in tally.problems if problem.round == rounds + 1]
        if problems:
            raise RoundRefused(problems)
        recompute(game, tally)
        changelog.log(
            game, N_("%(name)s left the game after round %(round)s.", name=name, round=rounds)
        )
        _commit(game, tally)
    except Exception:
        db.session.rollback()
        raise
    return seat


def highest_total(game: Game) -> int:
    """The highest total so far of the players at the table: the points a joiner may bring."""
    staying = tally_of(game).standings
    return max((standing.total for standing in staying if standing.left_after is None), default=0)


def join_game(game: Game, name: str, total: int) -> Seat:
    """``name`` joins before the next round with ``total`` points, seated last (to the right
    of the first dealer). Raises RoundRefused for an empty or long name, a player at the table
    already, or a game that is over or has no round yet."""
    name = tidy_name(name)
    if game.status != IN_PROGRESS:
        raise _refused(N_("This game is over."))
    if not name:
        raise _refused(N_("Give the new player's name."))
    if too_long(name):
        raise _refused(N_("That name is too long."))
    rounds = len(game.rounds)
    if rounds == 0:
        raise _refused(N_("A player joins after a round; before the first, start the game again."))
    key = name_key(name)
    seated = [seat.player.name for seat in game.seats if seat.player.name_key == key]
    if seated:
        raise _refused(N_("%(name)s is at this table already.", name=seated[0]))
    try:
        player = db.session.scalar(select(Player).where(Player.name_key == key))
        if player is None:
            player = Player(name=name, name_key=key)
            db.session.add(player)
            db.session.flush()
        seat = Seat(
            player=player,
            position=len(game.seats),
            joined_before=rounds + 1,
            joined_total=total,
        )
        game.seats.append(seat)
        db.session.flush()
        tally = replay(game)
        if tally.problems:
            raise RoundRefused(list(tally.problems))
        recompute(game, tally)
        changelog.log(
            game,
            N_plural(
                "%(name)s joined the game before round %(round)s with %(num)s point.",
                "%(name)s joined the game before round %(round)s with %(num)s points.",
                num=total,
                name=player.name,
                round=rounds + 1,
            ),
        )
        _commit(game, tally)
    except Exception:
        db.session.rollback()
        raise
    return seat


def left_words(tally: Tally, position: int) -> Message | None:
    """What the own-hand page of a player who left says while the game goes on (None: the
    player is at the table, or the game is over)."""
    if position not in tally.lineup.left or tally.is_over:
        return None
    return N_(
        "%(name)s left the game after round %(round)s.",
        name=tally.names[position],
        round=tally.lineup.left[position],
    )
