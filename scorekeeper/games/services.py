"""Games in the database: start one, save, correct and delete rounds, abandon, May I, and the
game file (import and export). Each public function that writes does it in one transaction:
it commits at the end, or rolls back and raises, so nothing is ever half-saved.

Everything shown about a game follows from its frozen rules (``Game.rules``), its seats and
its rounds through ``tally.tally_game``; ``recompute`` copies the result into the summary
columns that the history pages aggregate in SQL.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from functools import lru_cache, partial
from typing import Any

from sqlalchemy import ColumnElement, delete, func, select
from sqlalchemy.exc import IntegrityError

from scorekeeper import house_rules, scope
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

from .gamefile import GameFile, GameFileError, read_game_file, write_game_file
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
    "AlreadyStored",
    "GameFileError",
    "RoundConflict",
    "RoundRefused",
    "StaleSave",
    "abandon_game",
    "add_round",
    "check_game_document",
    "delete_last_round",
    "describe_round",
    "edit_round",
    "export_game",
    "game_players_matching",
    "import_game",
    "recompute",
    "rounds_stamp",
    "rules_of",
    "same_round",
    "saved_under",
    "start_game",
    "store_game_file",
    "store_game_files",
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


def check_game_document(
    document: Mapping[str, Any],
    *,
    may_hold_nul: bool = True,
    rules_kept: dict[str, RuleSet] | None = None,
) -> GameFile:
    """The game a game file describes, checked by the rules engine (nothing is stored).

    ``may_hold_nul`` False (``text_may_hold_nul`` of the JSON text it was read from) skips
    looking for a NUL through the whole document. ``rules_kept``
    keeps the rule sets read so far by their JSON (a restore reads the same few rules in
    thousands of games; a rule set is never changed once built).
    Raises GameFileError (with ``.problems``) when the file is refused."""
    if may_hold_nul and _holds_nul(document):
        # No text in a game holds one, and PostgreSQL cannot store it.
        raise GameFileError(["The file holds a NUL character (\\u0000): no game file does."])
    resolve = _resolve_rules if rules_kept is None else partial(_resolve_kept, rules_kept)
    try:
        return read_game_file(document, resolve)
    except house_rules.UnknownRules as error:
        raise GameFileError([str(error)]) from None


# JSON text holds a NUL only as this escape (a raw one is refused by the JSON reader).
_NUL_ESCAPE = re.compile(r"\\u0000", re.IGNORECASE)


def text_may_hold_nul(text: str) -> bool:
    """Whether the document read from the JSON ``text`` may hold a NUL character."""
    return "\x00" in text or _NUL_ESCAPE.search(text) is not None


# The most rule sets a restore keeps at once (a backup with every game's rules its own).
_RULES_KEPT = 64


def _resolve_kept(kept: dict[str, RuleSet], rules: Any) -> RuleSet:
    key = json.dumps(rules, sort_keys=True)
    found = kept.get(key)
    if found is None:
        found = _resolve_rules(rules)
        if len(kept) < _RULES_KEPT:
            kept[key] = found
    return found


def import_game(document: Mapping[str, Any]) -> Game:
    """Store the game a game file describes, in one transaction, and return it.

    Raises GameFileError (with ``.problems``) and stores nothing when the file is refused."""
    return store_game_file(check_game_document(document))


def store_game_file(checked: GameFile) -> Game:
    """Store a checked game file's game, in one transaction, and return it. Raises
    AlreadyStored where the household holds its uid."""
    _refuse_a_game_held(checked.uid)
    try:
        game = _new_game(
            checked.rules, checked.names, checked.first_dealer, checked.started, checked.uid
        )
        seats = list(game.seats)
        for entry, result in zip(checked.rounds, checked.tally.rounds, strict=True):
            _append_round(game, seats, entry, result)
        db.session.flush()
        recompute(game, checked.tally)
        _log(game, _imported(checked))
        db.session.commit()
    except IntegrityError:
        # Another import of the same game got there first (the uid is unique per household).
        db.session.rollback()
        _refuse_a_game_held(checked.uid)
        raise
    except Exception:
        db.session.rollback()
        raise
    return game


def _imported(checked: GameFile) -> str:
    return f"Game imported from a game file ({len(checked.rounds)} rounds)."


# Rows per ``IN (...)`` list: well under SQLite's and PostgreSQL's limits on parameters.
_IN_CHUNK = 500


def store_game_files(files: Sequence[GameFile]) -> list[tuple[bool, int]]:
    """Store the games of many checked game files with a few Core inserts per table, and say
    for each file, in order, whether it was stored (True) or its uid is held already (False, a
    game held before or stored from an earlier file of ``files``), with the game's id.

    What is stored is what ``store_game_file`` stores, row for row (the tally's summary
    columns, a new game's version, the change log's line and its actor), without the ORM.
    Core statements are not seen by ``scorekeeper.scope``'s hook: every row is given the
    household in scope, and every look-up kept to it, through ``scope.for_writing``. Does not
    commit: the caller's transaction holds the batch, and a failure (a uid or player stored
    meanwhile by another writer) leaves it to be rolled back whole."""
    household = scope.for_writing(db.session)
    now = utcnow()
    actor = scope.actor()
    games, seats, rounds, hands, events = (
        Game.__table__,
        Seat.__table__,
        Round.__table__,
        Hand.__table__,
        GameEvent.__table__,
    )
    uids = [checked.uid or new_uid() for checked in files]
    held = _held_uids(household, set(uids))
    first_of: dict[str, int] = {}
    fresh: list[int] = []
    for index, uid in enumerate(uids):
        if uid not in held and uid not in first_of:
            first_of[uid] = index
            fresh.append(index)
    players = _players_by_key(household, [files[index] for index in fresh], now)
    game_ids: list[int] = []
    if fresh:
        game_rows = [_game_row(files[index], uids[index], now) for index in fresh]
        game_ids = _insert_with_ids(games, household.rows(game_rows))
        seat_rows = [
            _seat_row(files[index], position, name, game_id, players)
            for index, game_id in zip(fresh, game_ids, strict=True)
            for position, name in enumerate(files[index].names)
        ]
        seat_ids = iter(_insert_with_ids(seats, household.rows(seat_rows)))
        seats_of = [[next(seat_ids) for _ in files[index].names] for index in fresh]
        round_rows: list[dict[str, Any]] = []
        for index, game_id, game_seats in zip(fresh, game_ids, seats_of, strict=True):
            for number, entry in enumerate(files[index].rounds, start=1):
                out = None if entry.went_out is None else game_seats[entry.went_out]
                round_rows.append(
                    {
                        "game_id": game_id,
                        "number": number,
                        "went_out_id": out,
                        "version": 1,
                        "submission": None,
                        "created_at": now,
                        "updated_at": now,
                    }
                )
        round_ids = _insert_with_ids(rounds, household.rows(round_rows)) if round_rows else []
        # The rounds' ids in the order their rows were made: game by game, round by round.
        next_round = iter(round_ids)
        hand_rows = [
            {
                "round_id": round_id,
                "seat_id": game_seats[position],
                "contract": hand.contract,
                "made_contract": hand.made_contract,
                "cards": hand.cards,
                "points": hand.points,
                "typed_total": hand.typed_total,
            }
            for index, game_seats in zip(fresh, seats_of, strict=True)
            for result in files[index].tally.rounds
            for round_id in (next(next_round),)
            for position, hand in enumerate(result.hands)
        ]
        if hand_rows:
            _insert_many(hands, household.rows(hand_rows))
        db.session.execute(
            events.insert(),
            household.rows(
                {"game_id": game_id, "at": now, "text": _imported(files[index]), "actor": actor}
                for index, game_id in zip(fresh, game_ids, strict=True)
            ),
        )
    stored_as = dict(zip(fresh, game_ids, strict=True))
    outcome: list[tuple[bool, int]] = []
    for index, uid in enumerate(uids):
        if index in stored_as:
            outcome.append((True, stored_as[index]))
        elif uid in held:
            outcome.append((False, held[uid]))
        else:
            outcome.append((False, stored_as[first_of[uid]]))
    return outcome


def _copies(connection: Any) -> bool:
    """Whether rows go in by COPY on this connection: PostgreSQL through psycopg."""
    return bool(connection.dialect.name == "postgresql" and connection.dialect.driver == "psycopg")


def _insert_with_ids(table: Any, rows: list[dict[str, Any]]) -> list[int]:
    """Insert ``rows`` (all with the same keys, at least one) into ``table`` in the session's
    transaction, and give their new ids in the rows' order.

    On PostgreSQL through psycopg the ids are taken from the table's own sequence first, all in
    one statement, and the rows go in by COPY with them (an insert with ``RETURNING`` is a
    statement of thousands of parameters that psycopg converts anew for every batch, as the
    profile of a restore showed); elsewhere by an insert with ``RETURNING``."""
    connection = db.session.connection()
    if not _copies(connection):
        inserted = connection.execute(
            table.insert().returning(table.c.id, sort_by_parameter_order=True), rows
        )
        return [int(row[0]) for row in inserted]
    sequence = func.pg_get_serial_sequence(table.name, table.c.id.name)
    taken = connection.execute(
        select(func.nextval(sequence)).select_from(func.generate_series(1, len(rows)))
    )
    # Ascending, as the sequence would have given them to the rows one after another.
    ids = sorted(int(row[0]) for row in taken)
    _insert_many(table, [{"id": new_id, **row} for new_id, row in zip(ids, rows, strict=True)])
    return ids


def _insert_many(table: Any, rows: list[dict[str, Any]]) -> None:
    """Insert ``rows`` (all with the same keys) into ``table`` in the session's transaction:
    on PostgreSQL through psycopg, by COPY (its plain executemany sends one statement per
    row, and the hands of a batch are thousands); elsewhere by an executemany. Each value goes
    through its column's type as in an insert (aware times made naive UTC, JSON written)."""
    connection = db.session.connection()
    if not _copies(connection):
        connection.execute(table.insert(), rows)
        return
    columns = list(rows[0])
    names = ", ".join(table.c[column].name for column in columns)
    dialect = connection.dialect
    processors = [
        table.c[column].type.dialect_impl(dialect).bind_processor(dialect) for column in columns
    ]
    driver = connection.connection.driver_connection
    assert driver is not None
    with driver.cursor() as cursor, cursor.copy(f"COPY {table.name} ({names}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(
                [
                    row[column] if process is None else process(row[column])
                    for column, process in zip(columns, processors, strict=True)
                ]
            )


def _chunks(values: Sequence[str]) -> list[Sequence[str]]:
    return [values[start : start + _IN_CHUNK] for start in range(0, len(values), _IN_CHUNK)]


def _held_uids(household: scope.CoreHousehold, uids: set[str]) -> dict[str, int]:
    """The games of the household holding these uids (those in the bin too), by uid."""
    table = Game.__table__
    held: dict[str, int] = {}
    for chunk in _chunks(sorted(uids)):
        found = db.session.execute(
            select(table.c.uid, table.c.id).where(household.owns(table), table.c.uid.in_(chunk))
        )
        held.update({uid: int(game_id) for uid, game_id in found})
    return held


def _players_by_key(
    household: scope.CoreHousehold, files: Sequence[GameFile], now: datetime
) -> dict[str, int]:
    """The household's player of each name in ``files`` (``game_players_matching``: the same
    name ignoring case is the same player), made where missing; by name key."""
    table = Player.__table__
    names: dict[str, str] = {}
    for checked in files:
        for name in checked.names:
            names.setdefault(name_key(name), name)
    found: dict[str, int] = {}
    for chunk in _chunks(sorted(names)):
        rows = db.session.execute(
            select(table.c.name_key, table.c.id).where(
                household.owns(table), table.c.name_key.in_(chunk)
            )
        )
        found.update({key: int(player_id) for key, player_id in rows})
    missing = [key for key in names if key not in found]
    if missing:
        made = db.session.execute(
            table.insert().returning(table.c.id, sort_by_parameter_order=True),
            [
                household.row(name=tidy_name(names[key]), name_key=key, created_at=now)
                for key in missing
            ],
        )
        found.update(zip(missing, (int(row[0]) for row in made), strict=True))
    return found


def _game_row(checked: GameFile, uid: str, now: datetime) -> dict[str, Any]:
    """A game's row but for its household (``scope.CoreHousehold.rows`` gives it)."""
    tally = checked.tally
    return {
        "uid": uid,
        "rules": checked.rules.to_dict(),
        "rules_slug": checked.rules.slug,
        "rules_name": checked.rules.name,
        "status": tally.status,
        "started": checked.started or now,
        "ended": now if tally.is_over else None,
        "first_dealer": checked.first_dealer,
        "round_count": len(tally.rounds),
        "tie_break": tally.tie_break,
        # A new game's first version, as ``versions.bump`` leaves a game made by the ORM.
        "version": 1,
        "created_at": now,
        "updated_at": now,
        "deleted_at": None,
        "deleted_by": None,
    }


def _seat_row(
    checked: GameFile,
    position: int,
    name: str,
    game_id: int,
    players: Mapping[str, int],
) -> dict[str, Any]:
    """A seat's row but for its household (``scope.CoreHousehold.rows`` gives it)."""
    row: dict[str, Any] = {
        "game_id": game_id,
        "player_id": players[name_key(name)],
        "position": position,
        "total": 0,
        "contract": 1,
        "contracts_made": 0,
        "place": None,
        "is_winner": False,
        "may_i_used": 0,
    }
    for standing in checked.tally.standings:
        if standing.seat == position:
            row.update(
                total=standing.total,
                contract=standing.contract,
                contracts_made=standing.contracts_made,
                place=standing.place,
                is_winner=standing.is_winner,
            )
    return row


class AlreadyStored(Exception):
    """The household holds this game already (the same ``uid``): nothing was stored."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"This game is here already, as game {game_id}; nothing was stored.")
        self.game_id = game_id


def _refuse_a_game_held(uid: str | None) -> None:
    if uid is None:
        return
    # A game in the bin holds its uid too (it is unique per household, binned or not).
    with scope.with_bin():
        held = db.session.scalar(select(Game.id).where(Game.uid == uid))
    if held is not None:
        raise AlreadyStored(held)


def _holds_nul(value: Any, depth: int = 0) -> bool:
    """Whether any text (key or value) in a decoded JSON document holds a NUL character."""
    if isinstance(value, str):
        return "\x00" in value
    if depth > 100:
        return False  # deeper than any game file: read_game_file refuses its shape
    if isinstance(value, Mapping):
        return any(_holds_nul(k) or _holds_nul(v, depth + 1) for k, v in value.items())
    if isinstance(value, list):
        return any(_holds_nul(item, depth + 1) for item in value)
    return False


def export_game(game: Game) -> dict[str, Any]:
    """The game file of ``game``: the full export document (see game-format.md)."""
    return write_game_file(
        tally_of(game),
        game.rules,
        started=game.started,
        game_id=game.id,
        exported=utcnow(),
        uid=game.uid,
    )
