"""Games in the database: start one, save, correct and delete rounds, abandon, May I (a game
file goes in and out through ``transfer``). Each public function that writes does it in one
transaction: it commits at the end, or rolls back and raises, so nothing is ever half-saved.

Everything shown about a game follows from its frozen rules (``Game.rules``), its seats and
its rounds through ``tally.tally_game``; ``recompute`` copies the result into the summary
columns that the history pages aggregate in SQL.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import ColumnElement, delete, select
from sqlalchemy.exc import IntegrityError

from scorekeeper import house_rules
from scorekeeper.extensions import db
from scorekeeper.models import (
    DraftHand,
    Game,
    GameEvent,
    Hand,
    Player,
    Round,
    Seat,
    new_uid,
    utcnow,
)
from scorekeeper.names import name_key, tidy_name
from scorekeeper.rules import RuleSet, get_ruleset
from scorekeeper.versions import bump

from .tally import (
    ABANDONED,
    IN_PROGRESS,
    HandEntry,
    HandResult,
    Problem,
    RoundEntry,
    RoundResult,
    Tally,
    check_table,
    names_in_words,
    tally_game,
)

__all__ = [
    "RoundConflict",
    "RoundRefused",
    "StaleSave",
    "abandon_game",
    "add_round",
    "delete_last_round",
    "describe_round",
    "edit_round",
    "game_players_matching",
    "recompute",
    "rounds_stamp",
    "rules_of",
    "same_round",
    "saved_under",
    "start_game",
    "tally_of",
    "undo_deadline",
    "undo_last_round",
    "use_may_i",
]


# How long after its saving the last round may be undone in one tap (later: correct it).
UNDO_WINDOW = timedelta(minutes=10)


class RoundRefused(ValueError):
    """A round that breaks the rules; ``problems`` says where and why. Nothing was saved."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(problem.message for problem in self.problems))


class RoundConflict(Exception):
    """Another phone changed the game since this form was opened. Nothing was saved."""


class StaleSave(RoundConflict):
    """The rounds changed on another phone since this form was opened (``rounds_stamp``
    differs): nothing was saved, so that no one's save is made on a game they have not seen."""


class GameRefused(ValueError):
    """A game that cannot start (players, rules); ``problems`` says why."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(problem.message for problem in self.problems))


def rules_of(game: Game) -> RuleSet:
    """The game's own frozen rules. A game's house rules are stored whole and built into a
    rule set once per process (a board, a save and a form each ask several times)."""
    rules = game.rules
    if not isinstance(rules, Mapping):
        return get_ruleset(rules)
    return _built_rules(json.dumps(rules, sort_keys=True))


@lru_cache(maxsize=256)
def _built_rules(rules: str) -> RuleSet:
    return get_ruleset(json.loads(rules))


def _resolve_rules(rules: Any) -> RuleSet:
    if isinstance(rules, str):
        return house_rules.load(rules.strip())
    return tidily_named(get_ruleset(rules))


def tidily_named(rules: RuleSet) -> RuleSet:
    """``rules`` under their name tidied as every name is (``names.tidy_name``: a game file's
    rules may be named with invisible or direction characters); under their base preset's name
    where nothing is left."""
    tidy = tidy_name(rules.name) or get_ruleset(rules.base).name
    return rules if tidy == rules.name else dataclasses.replace(rules, name=tidy)


def entries_of(game: Game) -> list[RoundEntry]:
    """The game's rounds as the tally reads them."""
    position = {seat.id: seat.position for seat in game.seats}
    entries: list[RoundEntry] = []
    for played in game.rounds:
        by_seat = {position[hand.seat_id]: hand for hand in played.hands}
        entries.append(
            RoundEntry(
                went_out=None if played.went_out_id is None else position[played.went_out_id],
                hands=tuple(
                    _entry_of(by_seat[seat]) if seat in by_seat else HandEntry()
                    for seat in range(len(game.seats))
                ),
            )
        )
    return entries


def _entry_of(hand: Hand) -> HandEntry:
    if hand.typed_total:
        return HandEntry(total=hand.points, made_contract=hand.made_contract)
    return HandEntry(cards=hand.cards, made_contract=hand.made_contract)


def rounds_stamp(game: Game) -> str:
    """What a round form is made on: a short digest of the game's rounds as stored (who went
    out, each hand's cards, total and contract) and of its status.

    Not ``Game.version``: that moves on every change a scoreboard shows (a May I called, a
    player renamed, a seat's draft), and none of those changes the round being entered, so a
    save made on the rounds as they still are must not be refused. Worked out from the rows
    themselves rather than kept in a column of its own, so no write path can forget to move it,
    and a round undone and saved again exactly as it was leaves it as it was."""
    digest = hashlib.blake2b(str(game.status).encode(), digest_size=8)
    for entry in entries_of(game):
        digest.update(repr(entry).encode())
    return digest.hexdigest()


def names_of(game: Game) -> list[str]:
    return [seat.player.name for seat in game.seats]


def tally_of(
    game: Game, rounds: Sequence[RoundEntry] | None = None, *, abandoned: bool | None = None
) -> Tally:
    """The tally of ``game`` (or of ``game`` with ``rounds`` in place of its own)."""
    return tally_game(
        rules_of(game),
        names_of(game),
        game.first_dealer,
        entries_of(game) if rounds is None else rounds,
        abandoned=(game.status == ABANDONED) if abandoned is None else abandoned,
    )


def recompute(game: Game, tally: Tally | None = None) -> Tally:
    """Refresh the summary columns of ``game`` (seats, hands, status, ended, version) from its
    tally. Does not commit: the caller's transaction does."""
    tally = tally or tally_of(game)
    seats = list(game.seats)
    for standing in tally.standings:
        seat = seats[standing.seat]
        seat.total = standing.total
        seat.contract = standing.contract
        seat.contracts_made = standing.contracts_made
        seat.place = standing.place
        seat.is_winner = standing.is_winner
    seat_ids = {seat.id: seat.position for seat in seats}
    for played, result in zip(game.rounds, tally.rounds, strict=False):
        for hand in played.hands:
            computed = result.hands[seat_ids[hand.seat_id]]
            hand.contract = computed.contract
            hand.made_contract = computed.made_contract
            hand.cards = computed.cards
            hand.points = computed.points
            hand.typed_total = computed.typed_total
    was_over = game.status != IN_PROGRESS
    game.status = tally.status
    game.round_count = len(tally.rounds)
    game.tie_break = tally.tie_break
    if tally.is_over and not (was_over and game.ended):
        game.ended = utcnow()
    elif not tally.is_over:
        game.ended = None
    bump(game)
    return tally


def _log(game: Game, text: str) -> None:
    game.events.append(GameEvent(text=text))


def game_players_matching(names: Sequence[str]) -> list[Player]:
    """The players of these names: a name is matched to an existing player of the same name,
    ignoring case (``models.name_key``), or creates one. Does not commit."""
    players: list[Player] = []
    for name in names:
        key = name_key(name)
        player = db.session.scalar(select(Player).where(Player.name_key == key))
        if player is None:
            player = Player(name=tidy_name(name), name_key=key)
            db.session.add(player)
            db.session.flush()
        players.append(player)
    return players


def _new_game(
    rules: RuleSet,
    names: Sequence[str],
    first_dealer: int,
    started: datetime | None,
    uid: str | None = None,
) -> Game:
    players = game_players_matching(names)
    rules = tidily_named(rules)
    game = Game(
        uid=uid or new_uid(),
        rules=rules.to_dict(),
        rules_slug=rules.slug,
        rules_name=rules.name,
        status=IN_PROGRESS,
        first_dealer=first_dealer,
        version=0,
    )
    if started is not None:
        game.started = started
    for position, player in enumerate(players):
        game.seats.append(Seat(player=player, position=position))
    db.session.add(game)
    db.session.flush()
    return game


def start_game(
    rules: RuleSet, names: Sequence[str], first_dealer: int = 0, started: datetime | None = None
) -> Game:
    """Start a game at this table; raises GameRefused for too few/many players or a name twice."""
    problems = check_table(rules, names, first_dealer)
    if problems:
        raise GameRefused(problems)
    try:
        game = _new_game(rules, names, first_dealer, started)
        recompute(game)
        _log(
            game,
            f"Game started: {rules.name}; {names_in_words(list(names))}; "
            f"{names[first_dealer]} deals first.",
        )
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return game


def describe_round(tally: Tally, number: int, *, cards: bool = False) -> str:
    """Round ``number`` in a line: who went out, then each other player's points (or, with
    ``cards``, the cards they were left holding)."""
    played = tally.rounds[number - 1]
    names = tally.names
    out = "nobody went out" if played.went_out is None else f"{names[played.went_out]} went out"
    parts = [
        f"{names[seat]} {_hand_text(hand)}"
        if cards
        else f"{names[seat]} {hand.points}{' (made contract)' if hand.made_contract else ''}"
        for seat, hand in enumerate(played.hands)
        if seat != played.went_out
    ]
    return f"{out}; " + ", ".join(parts)


def _hand_text(hand: HandResult) -> str:
    """The cards of a hand in a line, or its typed total."""
    if hand.typed_total:
        return f"total {hand.points} typed"
    return hand.cards or "none"


def add_round(
    game: Game,
    entry: RoundEntry,
    *,
    number: int | None = None,
    submission: str | None = None,
    stamp: str | None = None,
) -> Round | None:
    """Save the next round of ``game``.

    ``number`` is the round the form was opened for: when another phone saved it meanwhile,
    RoundConflict. ``stamp`` is the ``rounds_stamp`` the form was made on: when the rounds
    changed since (a round corrected or deleted elsewhere), StaleSave. ``submission`` is the
    form's one-time token: a form sent twice (a phone resending a save queued offline, whose
    first answer was lost) stores one round, and the second call returns None, before any
    check that the first save itself made stale. Raises RoundRefused when the round breaks the
    rules (nothing saved).
    """
    if submission and saved_under(submission) is not None:
        return None
    if game.status != IN_PROGRESS:
        raise RoundRefused(
            [Problem(None, "round", "This game is over: no more rounds can be entered.")]
        )
    next_number = len(game.rounds) + 1
    if number is not None and number != next_number:
        raise RoundConflict(
            f"Round {number} was saved on another phone meanwhile; "
            "check the scoreboard before entering the next round."
        )
    if stamp is not None and stamp != rounds_stamp(game):
        raise StaleSave(
            "The rounds were changed on another phone since this form was opened; nothing was "
            "saved."
        )
    rounds = [*entries_of(game), entry]
    tally = tally_of(game, rounds)
    problems = tally.problems_of_round(next_number)
    if problems:
        raise RoundRefused(problems)
    seats = list(game.seats)
    try:
        played = _append_round(game, seats, entry, tally.rounds[-1], submission)
        _drop_drafts(game, DraftHand.number <= next_number)
        db.session.flush()
        recompute(game, tally)
        _reset_may_i(game, tally)
        _log(game, f"Round {next_number} saved: {describe_round(tally, next_number)}.")
        if tally.is_over:
            _log(game, _ending(tally))
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        if submission and saved_under(submission) is not None:
            return None
        raise RoundConflict(
            f"Round {next_number} was saved on another phone meanwhile; "
            "check the scoreboard before entering the next round."
        ) from None
    except Exception:
        db.session.rollback()
        raise
    return played


def _drop_drafts(game: Game, which: ColumnElement[bool]) -> None:
    """Forget the phones' drafts (``which`` of them) of rounds that this change settles: a
    round stored (by any form) ends its draft and those before it, and a round deleted or
    undone ends the drafts begun after it, so an old draft never comes back to be stored."""
    db.session.execute(
        delete(DraftHand)
        .where(DraftHand.game_id == game.id, which)
        .execution_options(synchronize_session=False)
    )


def _append_round(
    game: Game,
    seats: Sequence[Seat],
    entry: RoundEntry,
    result: RoundResult,
    submission: str | None = None,
) -> Round:
    """Add the next round to ``game`` as the tally worked it out (``result``): who went out,
    and each player's contract, cards and points. Does not flush or commit."""
    played = Round(
        number=len(game.rounds) + 1,
        submission=submission or None,
        went_out=None if entry.went_out is None else seats[entry.went_out],
    )
    game.rounds.append(played)
    for seat, hand in zip(seats, result.hands, strict=True):
        played.hands.append(
            Hand(
                seat=seat,
                contract=hand.contract,
                made_contract=hand.made_contract,
                cards=hand.cards,
                points=hand.points,
                typed_total=hand.typed_total,
            )
        )
    return played


def same_round(game: Game, number: int, entry: RoundEntry) -> bool:
    """Whether ``entry`` is round ``number`` of ``game`` as stored: the same seat out and the
    same hands (cards as read, contracts, points), whatever spacing the cards were typed in."""
    entries = entries_of(game)
    if not 1 <= number <= len(entries):
        return False
    tally = tally_of(game, [*entries[: number - 1], entry])
    if tally.problems_of_round(number) or len(tally.rounds) < number:
        return False
    stored = tally_of(game).rounds[number - 1]
    again = tally.rounds[number - 1]
    return (stored.went_out, stored.hands) == (again.went_out, again.hands)


def saved_under(submission: str) -> tuple[int, int] | None:
    """The (game id, round number) of the round stored from the form with this one-time
    token, or None where none was."""
    found = db.session.execute(
        select(Round.game_id, Round.number).where(Round.submission == submission)
    ).first()
    return None if found is None else (found[0], found[1])


def _ending(tally: Tally) -> str:
    if not tally.winners:
        return "Game over."
    winners = names_in_words(list(tally.winner_names))
    text = f"Game over: {winners} {'wins' if len(tally.winners) == 1 else 'share the win'}."
    if tally.tie_break:
        text += f" {tally.tie_break}"
    return text


def _reset_may_i(game: Game, tally: Tally) -> None:
    """A new round starts every May I count afresh, except where the limit is per contract and
    a player is still on the contract they had (a kept-contract game, contract not made)."""
    last = tally.rounds[-1] if tally.rounds else None
    for seat in game.seats:
        still_on_it = (
            last is not None
            and tally.keeps_contracts
            and not last.hands[seat.position].made_contract
        )
        if not still_on_it:
            seat.may_i_used = 0


def _round(game: Game, number: int) -> Round:
    for played in game.rounds:
        if played.number == number:
            return played
    raise LookupError(f"Round {number} is not a round of this game.")


def edit_round(
    game: Game, number: int, entry: RoundEntry, *, version: int | None, stamp: str | None = None
) -> Round:
    """Correct round ``number``. ``version`` is the round's version the form was opened on:
    an older one means another phone changed it meanwhile (RoundConflict); ``stamp`` the
    ``rounds_stamp``: another round changed, added or deleted since is StaleSave (the totals
    the correction was made beside are not the game's any more). Raises RoundRefused when the
    corrected game breaks the rules (for this round or a later one)."""
    played = _round(game, number)
    if version is not None and version != played.version:
        raise RoundConflict("This round was changed on another phone meanwhile.")
    if stamp is not None and stamp != rounds_stamp(game):
        raise StaleSave(
            "Other rounds were changed on another phone since this form was opened; nothing "
            "was saved."
        )
    before = tally_of(game)
    rounds = entries_of(game)
    rounds[number - 1] = entry
    tally = tally_of(game, rounds)
    if tally.problems:
        raise RoundRefused(tally.problems)
    seats = list(game.seats)
    try:
        played.went_out = None if entry.went_out is None else seats[entry.went_out]
        by_seat = {hand.seat_id: hand for hand in played.hands}
        for seat, hand in zip(seats, tally.rounds[number - 1].hands, strict=True):
            stored = by_seat[seat.id]
            stored.cards = hand.cards
            stored.made_contract = hand.made_contract
            stored.points = hand.points
            stored.typed_total = hand.typed_total
        played.version += 1
        recompute(game, tally)
        _log(game, f"Round {number} corrected: {_changes(before, tally, number)}.")
        if tally.is_over and not before.is_over:
            _log(game, _ending(tally))
        elif before.is_over and not tally.is_over:
            _log(game, "The game is no longer over after this correction.")
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return played


def _changes(before: Tally, after: Tally, number: int) -> str:
    old, new = before.rounds[number - 1], after.rounds[number - 1]
    names = after.names
    changes: list[str] = []
    if old.went_out != new.went_out:
        was = "nobody" if old.went_out is None else names[old.went_out]
        now = "nobody" if new.went_out is None else names[new.went_out]
        changes.append(f"went out {was} → {now}")
    for seat, (was_hand, hand) in enumerate(zip(old.hands, new.hands, strict=True)):
        if (was_hand.cards, was_hand.typed_total, was_hand.points) != (
            hand.cards,
            hand.typed_total,
            hand.points,
        ):
            changes.append(
                f"{names[seat]}'s cards {_hand_text(was_hand)} → {_hand_text(hand)} "
                f"({was_hand.points} → {hand.points} points)"
            )
        if was_hand.made_contract != hand.made_contract:
            changes.append(
                f"{names[seat]} {'made' if hand.made_contract else 'did not make'} the contract"
            )
    return "; ".join(changes) or "nothing changed"


def undo_deadline(game: Game) -> datetime | None:
    """Until when the last round may be undone in one tap (None: there is no round)."""
    if not game.rounds:
        return None
    return game.rounds[-1].created_at + UNDO_WINDOW


def undo_last_round(game: Game, number: int, now: datetime | None = None) -> None:
    """Take back round ``number``, the last one, within UNDO_WINDOW of its saving: a slip of
    the thumb at the table. Later, or for another round, RoundConflict says why."""
    deadline = undo_deadline(game)
    if deadline is None or game.rounds[-1].number != number:
        raise RoundConflict(
            f"Round {number} is not the last round any more; only the last round can be undone."
        )
    if (now or utcnow()) > deadline:
        minutes = int(UNDO_WINDOW.total_seconds() // 60)
        raise RoundConflict(
            f"Round {number} was saved more than {minutes} minutes ago and cannot be undone "
            "any more: tap its number to correct it."
        )
    delete_last_round(game, number, log=f"Round {number} undone.")


def delete_last_round(
    game: Game, number: int, *, log: str | None = None, stamp: str | None = None
) -> None:
    """Delete round ``number``, which must be the last one (else RoundConflict). ``log`` is
    the change log's line (by default "Round N deleted."). ``stamp`` is the ``rounds_stamp``
    the page asking was made on: when the rounds changed since, StaleSave (nobody deletes a
    correction they have not seen)."""
    if not game.rounds or game.rounds[-1].number != number:
        raise RoundConflict(
            f"Round {number} is not the last round any more; only the last round can be deleted."
        )
    if stamp is not None and stamp != rounds_stamp(game):
        raise StaleSave(
            f"Round {number} was changed on another phone since this page was opened; nothing "
            "was deleted. Here it is as it is now."
        )
    played = game.rounds[-1]
    try:
        db.session.delete(played)
        _drop_drafts(game, DraftHand.number >= number)
        db.session.flush()
        db.session.expire(game, ["rounds"])
        for seat in game.seats:
            db.session.expire(seat, ["hands"])
        recompute(game)
        _log(game, log or f"Round {number} deleted.")
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise


def abandon_game(game: Game) -> None:
    """Stop the game before its end: it keeps its rounds and has no winner."""
    if game.status != IN_PROGRESS:
        return
    try:
        recompute(game, tally_of(game, abandoned=True))
        _log(game, "Game abandoned.")
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise


def may_i_left(game: Game, seat: Seat) -> int | None:
    """How many May I the player has left (None: no limit)."""
    limit = rules_of(game).may_i.limit
    return None if limit is None else max(0, limit - seat.may_i_used)


def use_may_i(game: Game, position: int, change: int) -> Seat:
    """Count a May I for the player at ``position`` (``change`` +1) or take one back (-1).

    Raises RoundRefused when the rules do not allow it or the player has none left."""
    rules = rules_of(game)
    seats = list(game.seats)
    if not 0 <= position < len(seats):
        raise LookupError(position)
    seat = seats[position]
    name = seat.player.name
    if not rules.may_i.allowed:
        raise RoundRefused([Problem(None, "may_i", f"{rules.name} does not play May I.")])
    if game.status != IN_PROGRESS:
        raise RoundRefused([Problem(None, "may_i", "This game is over.")])
    used = seat.may_i_used + change
    if used < 0:
        return seat
    limit = rules.may_i.limit
    if limit is not None and used > limit:
        raise RoundRefused(
            [
                Problem(
                    None,
                    f"may_i-{position}",
                    f"{name} has used all {limit} May I for this contract.",
                )
            ]
        )
    try:
        seat.may_i_used = used
        bump(game)
        _log(game, f"{name} {'called' if change > 0 else 'took back'} a May I ({used} used).")
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return seat
