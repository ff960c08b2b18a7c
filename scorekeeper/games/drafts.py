"""The round being played, entered hand by hand on each player's own phone.

Until it is stored, a round is a **draft** on the server: one ``DraftHand`` row a seat, written
only for that seat (a phone writes the seat it picked; a scorer may fill any). Two phones never
overwrite each other, and a reload, a restart or a phone changing hands loses nothing typed.

A hand is **in** once its player went out (one tap) or said "that's my hand" (``done``); the
others are still **counting**. When every hand is in and someone went out, the round closes by
itself: ``close`` stores it through ``rounds.add_round`` under a submission id made from the
game and the round number, so that two phones closing it at the same moment store one round,
and deletes the draft in the same transaction. A round the rules refuse keeps its draft.

Every change the scoreboard shows (who went out, whose hands are in, the round stored) bumps
the game's version; a card added to a hand still being counted changes nothing the board
shows, and so bumps nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from flask_babel import gettext as _
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from scorekeeper.extensions import db
from scorekeeper.limits import CARDS_LENGTH
from scorekeeper.models import DraftHand, Game, Round, utcnow
from scorekeeper.rules import N_, CardError, Message, parse_cards
from scorekeeper.rules.messages import Value, listing
from scorekeeper.status import GameStatus
from scorekeeper.versions import bump

from . import round_entry, rounds, services
from .forms import card_tokens
from .tally import (
    TABLE_CARDS_FIELD,
    HandEntry,
    Problem,
    RoundEntry,
    hand_problem,
    owners_of,
    points_of,
)

__all__ = [
    "Draft",
    "DraftClosed",
    "DraftRefused",
    "OutAlready",
    "Refusal",
    "close",
    "close_when_all_in",
    "draft_of",
    "entry_of",
    "go_out",
    "put_in_late",
    "submission_of",
    "why_refused",
    "write_hand",
]


class DraftClosed(Exception):
    """The round this phone was entering was stored (or the game ended) meanwhile. Its text
    is in the language of the page that asked, as the exceptions below."""


class OutAlready(Exception):
    """Another player went out in this round already."""


class DraftRefused(ValueError):
    """A hand that cannot be taken as typed (cards that are no cards); nothing was saved.
    ``message`` says why (``scorekeeper.words`` puts it into the page's language)."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


@dataclass(frozen=True)
class SeatDraft:
    """One seat's part of the draft as the pages show it."""

    position: int
    name: str
    cards: str
    points: int | None
    made_contract: bool
    went_out: bool
    done: bool
    # Went down and out in one turn (the rules' bonus, where they give one).
    in_one_turn: bool = False
    # When this seat's row was last written (None: nothing written yet).
    typed_at: datetime | None = None
    # False for a player not dealt into this round (issue 43): nobody waits for their hand.
    in_round: bool = True

    @property
    def is_in(self) -> bool:
        return self.went_out or self.done or not self.in_round


# A hand written within this long, and not in, is being typed: a close over it asks first.
TYPING_WINDOW = timedelta(minutes=1)


@dataclass(frozen=True)
class Draft:
    """The round in progress: its number and every seat's hand (empty where nothing is typed)."""

    number: int
    seats: tuple[SeatDraft, ...]
    # A phone said nobody went out (where the rules allow it): every hand is counted.
    nobody_out: bool = False

    @property
    def went_out(self) -> SeatDraft | None:
        return next((seat for seat in self.seats if seat.went_out), None)

    @property
    def out_said(self) -> bool:
        """Whether the round is over: someone went out, or a phone said nobody did."""
        return self.nobody_out or self.went_out is not None

    @property
    def counting(self) -> tuple[SeatDraft, ...]:
        return tuple(seat for seat in self.seats if not seat.is_in)

    @property
    def all_in(self) -> bool:
        return not self.counting

    def still_typing(self, now: datetime | None = None) -> tuple[SeatDraft, ...]:
        """The hands not in whose phone wrote them within ``TYPING_WINDOW``: a player typing
        their cards, whom a close would store as they stand."""
        since = (now or utcnow()) - TYPING_WINDOW
        return tuple(
            seat for seat in self.counting if seat.typed_at is not None and seat.typed_at >= since
        )

    @property
    def started(self) -> bool:
        """Whether anyone entered anything yet."""
        return any(seat.is_in or seat.cards for seat in self.seats)


def submission_of(game: Game, number: int) -> str:
    """The submission id a draft's round is stored under: the same for every phone. Named by
    the game's id, which no other game on this server has (its uid travels with copies of the
    game to other households), in a shape no form's token can take (a colon)."""
    return f"draft:{game.id}:{number}"


# The draft's row that says nobody went out (its ``went_out``): a position no seat has.
NOBODY_ROW = -1


def _number(game: Game) -> int:
    return len(game.rounds) + 1


def _rows(game: Game, number: int) -> dict[int, DraftHand]:
    rows = db.session.scalars(
        select(DraftHand).where(DraftHand.game_id == game.id, DraftHand.number == number)
    )
    return {row.position: row for row in rows}


def draft_of(game: Game) -> Draft:
    """The draft of the game's next round (every seat, typed or not)."""
    number = _number(game)
    rows = _rows(game, number)
    rules = services.rules_of(game)
    dealt_in = services.tally_of(game).dealt_in(number)
    seats = []
    for seat in game.seats:
        in_round = seat.position in dealt_in
        # What a seat not dealt into the round wrote (its phone before a leave, or before a
        # tie-break hand it sits out) is not its hand: nobody waits for it, and it never
        # says who went out.
        row = rows.get(seat.position) if in_round else None
        cards = row.cards if row is not None else ""
        went_out = row is not None and row.went_out
        in_one_turn = went_out and row is not None and row.in_one_turn and rules.has_bonus
        try:
            bonus = rules.down_and_out_bonus if in_one_turn else 0
            points: int | None = bonus if went_out else points_of(cards, rules)
        except CardError:
            points = None
        seats.append(
            SeatDraft(
                position=seat.position,
                name=seat.player.name,
                cards=cards,
                points=points,
                made_contract=row is not None and row.made_contract,
                went_out=went_out,
                done=row is not None and row.done,
                in_one_turn=in_one_turn,
                typed_at=row.updated_at if row is not None else None,
                in_round=in_round,
            )
        )
    nobody = rows.get(NOBODY_ROW)
    return Draft(number, tuple(seats), nobody_out=nobody is not None and nobody.went_out)


def _check_open(game: Game, number: int | None) -> int:
    """The draft's round number, or DraftClosed when ``number`` is not it any more."""
    current = _number(game)
    if game.status != GameStatus.IN_PROGRESS:
        raise DraftClosed(_("This game is over: no more rounds can be entered."))
    if number is not None and number != current:
        raise DraftClosed(stored_meanwhile(number, current))
    return current


def not_dealt_in(game: Game, position: int) -> Message:
    """What a phone on the seat of a player not at the table for the next round is told: it
    reads the game, but enters no hand and cannot go out."""
    tally = services.tally_of(game)
    lineup = tally.lineup
    name = game.seats[position].player.name
    if tally.tie_break_owed and position not in tally.tie_break_owed:
        return N_(
            "%(name)s sits this hand out: it is the tie-break hand of %(tied)s alone. This "
            "phone reads the game, but enters no hand.",
            name=name,
            tied=listing([tally.names[seat] for seat in tally.tie_break_owed]),
        )
    if position in lineup.left:
        return N_(
            "%(name)s left the game after round %(round)s: this phone reads the game, but "
            "enters no hand and cannot go out.",
            name=name,
            round=lineup.left[position],
        )
    return N_(
        "%(name)s is not at the table for this round: this phone reads the game, but enters "
        "no hand and cannot go out.",
        name=name,
    )


def _check_dealt_in(game: Game, number: int, position: int) -> None:
    """DraftRefused where seat ``position`` is not dealt into round ``number``."""
    if position not in services.tally_of(game).dealt_in(number):
        raise DraftRefused(not_dealt_in(game, position))


def stored_meanwhile(number: int, current: int) -> str:
    """What a page still on round ``number`` is told once round ``current`` is being played."""
    return _(
        "Round %(number)s was stored meanwhile; this is round %(current)s.",
        number=number,
        current=current,
    )


def _row_for(game: Game, number: int, position: int) -> DraftHand:
    """The seat's row of the draft, made where there is none yet (not flushed)."""
    row = db.session.scalar(
        select(DraftHand).where(
            DraftHand.game_id == game.id,
            DraftHand.number == number,
            DraftHand.position == position,
        )
    )
    if row is None:
        row = DraftHand(
            game_id=game.id,
            number=number,
            position=position,
            cards="",
            made_contract=False,
            went_out=False,
            in_one_turn=False,
            done=False,
        )
        db.session.add(row)
    return row


def _commit(game: Game, before: int) -> None:
    """Commit the draft write. Two first writes of one seat at once: the second is refused by
    the unique key and reads as a draft overtaken (the phone reloads it). A draft changes
    nothing the tally reads: the tally kept for the version ``before`` the write holds for the
    version it wrote (``services.carry_tally``)."""
    game_id, after = game.id, game.version
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise DraftClosed(_("This hand was written on another phone just now: check it.")) from None
    except StaleDataError:
        # The round was closed (its draft deleted) between reading this hand and writing it.
        db.session.rollback()
        raise DraftClosed(_("This round was just closed on another phone: check it.")) from None
    except Exception:
        db.session.rollback()
        raise
    if after != before:
        services.carry_tally(game_id, before, after)


def _tidy(cards: str, game: Game) -> str:
    """The cards as stored: every card readable, within the column's length, and a hand the
    game's packs can hold (``tally.hand_problem``)."""
    text = " ".join(cards.split())
    if len(text) > CARDS_LENGTH:
        raise DraftRefused(N_("At most %(most)s letters of cards.", most=CARDS_LENGTH))
    tally = services.tally_of(game)
    problem = hand_problem(tally.rules, tally.table_size(len(tally.rounds) + 1), text)
    if problem is not None:
        raise DraftRefused(problem.capitalized())
    return text


def write_hand(
    game: Game,
    position: int,
    *,
    number: int | None,
    cards: str | None = None,
    made_contract: bool | None = None,
    done: bool | None = None,
    closing: bool = True,
) -> bool:
    """Write seat ``position``'s hand of the draft (only what is given) and commit.

    ``cards`` may be half-typed while the hand is being counted; a hand said done must read
    as cards (DraftRefused otherwise). Returns whether the round was stored by this write
    (the last hand in, someone out; not tried with ``closing=False``). Raises DraftClosed
    when ``number`` is no longer the round being entered."""
    number = _check_open(game, number)
    if not 0 <= position < len(game.seats):
        raise DraftRefused(N_("No such seat at this table."))
    _check_dealt_in(game, number, position)
    row = _row_for(game, number, position)
    was_in = row.done or row.went_out
    was = (row.cards, row.made_contract)
    before = game.version
    if cards is not None:
        text = " ".join(cards.split())[: CARDS_LENGTH * 2]
        if done or (done is None and row.done):
            text = _tidy(text, game)
        row.cards = text[:CARDS_LENGTH]
    if made_contract is not None:
        row.made_contract = made_contract
    if done is not None:
        if done:
            row.cards = _tidy(row.cards, game)
        row.done = done
    # A hand in, changed, changes what the board says of the round (why the rules refuse it).
    changed_in = was_in and (row.cards, row.made_contract) != was
    if (row.done or row.went_out) != was_in or changed_in:
        bump(game, counts=False)  # a draft changes no statistic
    _commit(game, before)
    return close_when_all_in(game) if closing else False


def go_out(
    game: Game,
    position: int,
    *,
    number: int | None,
    went_out: bool = True,
    in_one_turn: bool = False,
) -> bool:
    """Seat ``position`` went out (or, with ``went_out=False``, did not after all) and commit;
    ``in_one_turn``: down and out in one turn, where the rules give a bonus for it (said again
    by a seat that is out, it changes only that). Raises OutAlready when another seat went out
    already. Returns whether the round was stored by this (every other hand was in)."""
    number = _check_open(game, number)
    if not 0 <= position < len(game.seats):
        raise DraftRefused(N_("No such seat at this table."))
    _check_dealt_in(game, number, position)
    rows = _rows(game, number)
    other = next(
        (
            row
            for row in rows.values()
            if row.went_out and row.position not in (position, NOBODY_ROW)
        ),
        None,
    )
    if went_out and other is not None:
        name = game.seats[other.position].player.name
        raise OutAlready(
            _("%(name)s went out already in round %(number)s.", name=name, number=number)
        )
    row = rows.get(position) or _row_for(game, number, position)
    before = game.version
    nobody = rows.get(NOBODY_ROW)
    if went_out and nobody is not None and nobody.went_out:
        nobody.went_out = False  # someone did go out after all
    one_turn = went_out and in_one_turn and services.rules_of(game).has_bonus
    if row.went_out != went_out or row.in_one_turn != one_turn:
        row.went_out = went_out
        row.in_one_turn = one_turn
        if went_out:
            row.done = False
        bump(game, counts=False)  # a draft changes no statistic
    _commit(game, before)
    return close_when_all_in(game) if went_out else False


def nobody_out(
    game: Game, *, number: int | None, nobody: bool = True, closing: bool = True
) -> bool:
    """A phone says nobody went out this round (or, ``nobody=False``, that was wrong), where
    the rules allow it, and commits: every phone then counts its own hand. Raises OutAlready
    when a player went out, DraftRefused where the rules want someone out. Returns whether
    the round was stored by this (every hand was in; ``closing=False``: never, as after a
    close the rules refused)."""
    number = _check_open(game, number)
    rules = services.rules_of(game)
    if nobody and not rules.nobody_out_allowed:
        raise DraftRefused(N_("%(rules)s needs someone to go out.", rules=rules.name))
    rows = _rows(game, number)
    out = next((row for row in rows.values() if row.went_out and row.position >= 0), None)
    if nobody and out is not None:
        name = game.seats[out.position].player.name
        raise OutAlready(
            _("%(name)s went out already in round %(number)s.", name=name, number=number)
        )
    row = rows.get(NOBODY_ROW) or _row_for(game, number, NOBODY_ROW)
    before = game.version
    if row.went_out != nobody:
        row.went_out = nobody
        bump(game, counts=False)  # a draft changes no statistic
    _commit(game, before)
    return close_when_all_in(game) if nobody and closing else False


def entry_of(game: Game, draft: Draft, went_out: int | None, one_turn: bool = False) -> RoundEntry:
    """The draft as the round the rules check: a contract made only by going out follows
    who went out, as on the round form. ``one_turn``: the close page said the player it
    named out went down and out in one turn."""
    tally = services.tally_of(game)
    contracts = tally.next_contracts
    hands = []
    for seat in draft.seats:
        made: bool | None = seat.made_contract
        if seat.position == went_out:
            made = None
        elif tally.rules.contract(contracts[seat.position]).going_out_only:
            made = False
        cards = "" if seat.position == went_out else seat.cards
        hands.append(HandEntry(cards=cards, made_contract=made))
    # The going-out phone claims the bonus; for a seat named out on the close page, the page.
    one_turn = one_turn or any(
        seat.in_one_turn for seat in draft.seats if seat.position == went_out
    )
    return RoundEntry(
        went_out=went_out,
        hands=tuple(hands),
        went_out_in_one_turn=one_turn,
        tie_break_hand=tally.is_tie_break(draft.number),
    )


def close(
    game: Game, *, number: int | None, went_out: int | str | None = "", one_turn: bool = False
) -> Round | None:
    """Store the draft as round ``number`` and delete it, in one transaction.

    ``went_out`` is the seat that went out where the draft names none (None: nobody, where
    the rules allow it; a seat named here goes before a phone's "nobody"); "" takes the
    draft's own. ``one_turn``: the seat that went out
    went down and out in one turn (as its own phone may have said already). Hands still
    being counted are stored as they stand. Returns the round, or None where another phone
    stored it first. Raises rounds.RoundRefused (nothing stored, the draft kept) and
    DraftClosed."""
    if rounds.saved_under(submission_of(game, number or _number(game))) is not None:
        return None
    number = _check_open(game, number)
    draft = draft_of(game)
    out = draft.went_out
    seat_out = out.position if out is not None else went_out
    if draft.nobody_out and out is None and went_out == "":
        # A phone said nobody went out, and the close page left it so (the page may name
        # someone instead: the scorer's choice at the close is the later word).
        seat_out = None
    if seat_out == "":
        raise rounds.RoundRefused([Problem(number, "went_out", N_("Say who went out."))])
    assert not isinstance(seat_out, str)
    entry = entry_of(game, draft, seat_out, one_turn=one_turn)
    db.session.execute(
        delete(DraftHand)
        .where(DraftHand.game_id == game.id, DraftHand.number <= number)
        .execution_options(synchronize_session=False)
    )
    try:
        stored = rounds.add_round(
            game, entry, number=number, submission=submission_of(game, number)
        )
    except rounds.RoundConflict as conflict:
        db.session.rollback()
        raise DraftClosed(str(conflict)) from None
    except Exception:
        db.session.rollback()
        raise
    if stored is None:
        db.session.commit()  # another phone stored it: its leftover draft goes too
    return stored


def close_when_all_in(game: Game) -> bool:
    """Close the draft where every hand is in and someone went out. A round the rules refuse
    stays a draft for the scorer to settle (their page shows why). Returns whether it was
    stored by this call."""
    draft = draft_of(game)
    if not draft.all_in or not draft.out_said:
        return False
    try:
        return close(game, number=draft.number) is not None
    except (rounds.RoundRefused, DraftClosed):
        return False


@dataclass(frozen=True)
class Refusal:
    """Why the rules refuse the round as every hand is in (``reasons``), and whose hands to
    change (``seats``; their names in ``names``)."""

    reasons: tuple[Message, ...]
    seats: tuple[int, ...]
    names: tuple[str, ...]

    @property
    def owners(self) -> Value:
        """Whose hands, for a sentence ("Ben's and Cy's")."""
        return owners_of(self.names)


def why_refused(game: Game, draft: Draft) -> Refusal | None:
    """Why the rules refuse the draft's round, where every hand is in and someone went out
    (it would close by itself otherwise), or None. A problem at a hand names that hand; one
    of the whole table (more cards than the packs hold) names every hand without which the
    table would hold fewer cards too many."""
    out = draft.went_out
    if not draft.all_in or not draft.out_said:
        return None
    problems = rounds.problems_of(
        game, entry_of(game, draft, None if out is None else out.position)
    )
    if not problems:
        return None
    seats: list[int] = []
    for problem in problems:
        _, _, seat = problem.field.partition("-")
        if seat.isdigit():
            seats.append(int(seat))
        elif problem.field == TABLE_CARDS_FIELD:
            seats.extend(_overflowing(game, draft))
    named = tuple(sorted(set(seats)))
    return Refusal(
        tuple(problem.message for problem in problems),
        named,
        tuple(draft.seats[seat].name for seat in named),
    )


def _overflowing(game: Game, draft: Draft) -> list[int]:
    """The hands holding a card the table has more of than the packs hold: the table without
    them is short of the packs by something else."""
    rules = services.rules_of(game)
    packs = services.tally_of(game).next_packs
    try:
        hands = [
            parse_cards(seat.cards, rules) if not seat.went_out else [] for seat in draft.seats
        ]
    except CardError:
        return []
    whole = packs.overflow(card for hand in hands for card in hand)
    return [
        seat
        for seat, hand in enumerate(hands)
        if hand
        and packs.overflow(
            card for other, cards in enumerate(hands) if other != seat for card in cards
        )
        != whole
    ]


def put_in_late(
    game: Game, number: int, position: int, *, cards: str, made: bool, was: str
) -> bool:
    """Put seat ``position``'s hand as its phone had typed it (``cards``, ``made``) into round
    ``number``, which was closed while that phone was still typing: a correction of that one
    hand (``rounds.edit_round``), merged as corrections are against the hand the phone was
    told was stored (``was``): the other hands stay as stored now, and where this hand was
    changed meanwhile, nothing is saved (RoundConflict). Returns False where the round holds
    that hand already. Raises DraftRefused for cards that are no hand, RoundRefused where
    the rules refuse the round so."""
    if not 1 <= number <= len(game.rounds):
        raise DraftClosed(_("Round %(number)s is not stored: nothing was saved.", number=number))
    if position not in services.tally_of(game).dealt_in(number):
        raise DraftClosed(
            _(
                "%(name)s was not dealt into round %(number)s: nothing was saved.",
                name=game.seats[position].player.name,
                number=number,
            )
        )
    text = _tidy(cards, game)
    entry = services.entries_of(game)[number - 1]
    if entry.went_out == position:
        raise DraftClosed(_("You went out in round %(number)s: nothing was saved.", number=number))
    tally = services.tally_of(game)
    if tally.rules.contract(tally.rounds[number - 1].hands[position].contract).going_out_only:
        made = False
    now = entry.hands[position]
    if (
        card_tokens(now.cards) == card_tokens(text)
        and now.total is None
        and (bool(now.made_contract) == made)
    ):
        return False
    if now.total is not None or card_tokens(now.cards) != card_tokens(was):
        raise rounds.RoundConflict(
            _(
                "Your hand in round %(number)s was changed on another phone meanwhile; nothing "
                "was saved. Check it on the scoreboard.",
                number=number,
            )
        )
    # That one hand changes: every other part of the round (the bonus too) stays as stored.
    late = round_entry.with_hand(entry, position, HandEntry(cards=text, made_contract=made))
    rounds.edit_round(game, number, late, version=None)
    return True
