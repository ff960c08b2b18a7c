"""Players leave and join a game in progress (issue 43): a player leaves after the last stored
round (dealt into no later round, kept in the standings, never the winner), and one joins
before the next round with the points the family decides. Each write is one transaction, and
a refusal (a table of one, a name at the table already) stores nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.limits import MAX_TOTAL
from scorekeeper.models import DraftHand, Game, Player, Seat
from scorekeeper.names import name_key, tidy_name, too_long
from scorekeeper.rules import N_, Message, N_plural

from . import changelog
from .phases import says_phases
from .rounds import RoundRefused, _commit, _drop_drafts
from .services import lineup_of, recompute, replay, tally_of
from .tally import IN_PROGRESS, Lineup, Problem, Tally

__all__ = [
    "away",
    "come_back",
    "comeback_offer",
    "highest_total",
    "join_game",
    "leave_game",
    "left_words",
    "undo_leave",
    "undoable_leaves",
]


def _refused(message: Message) -> RoundRefused:
    return RoundRefused([Problem(None, "players", message)])


def _not_before_a_tie_break(game: Game) -> None:
    """Nobody leaves, joins or comes back while a tie-break hand is owed (Phase 10's
    ``tie_break: replay``): the game's regular hands are over, and the hand owed is only the
    tied players'. Raises RoundRefused with what to do instead."""
    if tally_of(game).tie_break_owed:
        raise _refused(
            N_(
                "A tie-break hand is owed: nobody leaves or joins before it is entered. If a "
                "tied player cannot play it, enter it with another tied player going out."
            )
        )


def _settle(
    game: Game,
    line: Callable[[Tally], Message],
    refused: Callable[[Problem], bool] = lambda problem: True,
) -> None:
    """Store a change to who sits at ``game``: replayed with it, refused where the rules
    refuse it (the problems ``refused`` picks), its totals summed, its line in the change log
    (``line`` of the new tally) and committed. The caller rolls back whatever is raised."""
    db.session.flush()
    tally = replay(game)
    problems = [problem for problem in tally.problems if refused(problem)]
    if problems:
        raise RoundRefused(problems)
    recompute(game, tally)
    changelog.log(game, line(tally))
    _commit(game, tally)


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
    _not_before_a_tie_break(game)
    if rounds == 0:
        raise _refused(
            N_(
                "%(name)s can leave after a round; before the first, start the game again.",
                name=name,
            )
        )
    lineup = lineup_of(game)
    if not lineup.plays(position, rounds + 1):
        raise _refused(N_("%(name)s is not at the table.", name=name))
    if _first_round_now(lineup, position) == rounds + 1:
        # Not a round played since joining (or coming back): the join is taken back, as if it
        # never was (a leave comes after a round played: game-format.md).
        return _take_back(game, seat, rounds)
    try:
        seat.left_after = rounds
        # What the leaver's phone typed of the next round is no hand of it.
        _drop_drafts(game, (DraftHand.position == position) & (DraftHand.number > rounds))
        _settle(
            game,
            lambda tally: N_(
                "%(name)s left the game after round %(round)s.", name=name, round=rounds
            ),
            # Only what the leave changes: the next round's table.
            refused=lambda problem: problem.round == rounds + 1,
        )
    except Exception:
        db.session.rollback()
        raise
    return seat


def undoable_leaves(game: Game) -> list[Seat]:
    """The seats that left after the last stored round, while the game goes on: each leave
    is undone as a round is, until the next round is stored."""
    rounds = len(game.rounds)
    if game.status != IN_PROGRESS or rounds == 0:
        return []
    return [seat for seat in game.seats if seat.left_after == rounds]


def undo_leave(game: Game, position: int) -> Seat:
    """Take back the leave of the player at ``position`` after the last stored round (a
    mistaken tap): the player is at the table for the next round, as before it. Raises
    RoundRefused where that leave is not the last thing before the next round."""
    seats = list(game.seats)
    if not 0 <= position < len(seats):
        raise LookupError(position)
    seat = seats[position]
    name = seat.player.name
    rounds = len(game.rounds)
    if seat not in undoable_leaves(game):
        raise _refused(
            N_(
                "%(name)s's leave can be undone only until the next round is stored.",
                name=name,
            )
        )
    try:
        seat.left_after = None
        _settle(
            game,
            lambda tally: N_(
                "%(name)s does not leave after round %(round)s after all.",
                name=name,
                round=rounds,
            ),
        )
    except Exception:
        db.session.rollback()
        raise
    return seat


def away(game: Game) -> list[Seat]:
    """The seats that left before the last stored round, while the game goes on: each may
    come back before the next round (a leave after the last round is undone instead)."""
    rounds = len(game.rounds)
    if game.status != IN_PROGRESS:
        return []
    return [seat for seat in game.seats if seat.left_after is not None and seat.left_after < rounds]


def _first_round_now(lineup: Lineup, position: int) -> int:
    """The first round of the seat's stretch at the table now: 1, or the round it joined or
    came back before."""
    aways = lineup.returns.get(position)
    if aways:
        return aways[-1].before_round
    joined = lineup.joined.get(position)
    return 1 if joined is None else joined[0]


def _take_back(game: Game, seat: Seat, rounds: int) -> Seat:
    """Take back the join (or the comeback) of ``seat`` before round ``rounds`` + 1, which it
    has played no round since: a comeback is undone (the player is away as before), a joiner
    is unseated, the last seat (a seat after it stays where its phone knows it)."""
    name = seat.player.name
    seats = list(game.seats)
    position = seat.position
    if not seat.returns and position != len(seats) - 1:
        after = seats[-1].player.name
        raise _refused(
            N_(
                "%(name)s has played no round yet: take back %(after)s's joining first "
                "(%(after)s leaves the same way).",
                name=name,
                after=after,
            )
        )
    try:
        if seat.returns:
            gone = seat.returns[-1][0]
            seat.returns = seat.returns[:-1] or None
            seat.left_after = gone
        else:
            _drop_drafts(game, DraftHand.position == position)
            game.seats.remove(seat)
        _settle(
            game,
            lambda tally: N_(
                "%(name)s does not join before round %(round)s after all.",
                name=name,
                round=rounds + 1,
            ),
        )
    except Exception:
        db.session.rollback()
        raise
    return seat


def highest_total(game: Game) -> int:
    """The highest total so far of the players at the table: the points a joiner may bring (0
    where every total is below it, as the game file takes no less; never more than
    ``MAX_TOTAL``, the most a total the app computes reaches)."""
    staying = tally_of(game).standings
    highest = max(
        (standing.total for standing in staying if standing.left_after is None), default=0
    )
    return min(max(highest, 0), MAX_TOTAL)


def join_game(game: Game, name: str, total: int, *, keep_total: bool = True) -> Seat:
    """``name`` joins before the next round with ``total`` points, seated last (to the right
    of the first dealer). A player who left comes back instead (``come_back``), with the total
    they had where ``keep_total``, else with ``total``. Raises RoundRefused for an empty or
    long name, a player at the table already, or a game that is over or has no round yet."""
    name = tidy_name(name)
    if game.status != IN_PROGRESS:
        raise _refused(N_("This game is over."))
    _not_before_a_tie_break(game)
    if not name:
        raise _refused(N_("Give the new player's name."))
    if too_long(name):
        raise _refused(N_("That name is too long."))
    rounds = len(game.rounds)
    if rounds == 0:
        raise _refused(N_("A player joins after a round; before the first, start the game again."))
    key = name_key(name)
    seated = [seat for seat in game.seats if seat.player.name_key == key]
    if seated and seated[0].left_after is not None:
        # A player who left comes back (issue 49): on the contract they were working on.
        return come_back(game, seated[0], total if keep_total is False else None)
    if seated:
        raise _refused(N_("%(name)s is at this table already.", name=seated[0].player.name))
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
        _settle(
            game,
            lambda tally: N_plural(
                "%(name)s joined the game before round %(round)s with %(num)s point.",
                "%(name)s joined the game before round %(round)s with %(num)s points.",
                num=total,
                name=player.name,
                round=rounds + 1,
            ),
        )
    except Exception:
        db.session.rollback()
        raise
    return seat


def come_back(game: Game, seat: Seat, total: int | None) -> Seat:
    """The player of ``seat``, who left, comes back before the next round, on the contract
    they were working on, with ``total`` points (None: the total they had when they left),
    stored as the game file's comeback (``seats.returns``). A leave after the last round is
    simply undone (``undo_leave``). Raises RoundRefused where the game is over, the player is
    at the table, or the table would hold more than the rules' (or the app's) most players."""
    rounds = len(game.rounds)
    gone = seat.left_after
    if game.status != IN_PROGRESS:
        raise _refused(N_("This game is over."))
    _not_before_a_tie_break(game)
    if gone is None:
        raise _refused(N_("%(name)s is at this table already.", name=seat.player.name))
    if gone == rounds:
        return undo_leave(game, seat.position)  # no round missed: the leave never was
    name = seat.player.name
    try:
        seat.returns = [*(seat.returns or ()), [gone, rounds + 1, total]]
        seat.left_after = None
        _settle(
            game,
            lambda tally: N_plural(
                "%(name)s came back before round %(round)s with %(num)s point.",
                "%(name)s came back before round %(round)s with %(num)s points.",
                num=tally.rounds[-1].totals[seat.position] if total is None else total,
                name=name,
                round=rounds + 1,
            ),
        )
    except Exception:
        db.session.rollback()
        raise
    return seat


def comeback_offer(game: Game, position: int) -> dict[str, Any]:
    """What the comeback page of the seat at ``position`` shows: the player's name, the round
    they left after (None: at the table, nothing to offer), the total they had then, the
    highest total so far (the family's other choice, as for a joiner), the next round and,
    where each player keeps their own contract, the one they go back to (a phase, on a Phase 10
    deck)."""
    tally = tally_of(game)
    standing = next(standing for standing in tally.standings if standing.seat == position)
    away_now = game.seats[position] in away(game)
    return {
        "game": game,
        "seat": position,
        "name": standing.name,
        "left_after": standing.left_after if away_now else None,
        "had": standing.total,
        "highest": highest_total(game),
        "next_round": tally.next_round,
        "contract": standing.contract if tally.rules.keeps_contracts else None,
        "phases": says_phases(tally.rules),
    }


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
