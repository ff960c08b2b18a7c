"""The forms of a game: start one, enter or correct a round, upload a game file.

The round form is one plain HTML form that works without JavaScript: the card pad's keys are
submit buttons (``add-<seat>`` with a rank as value, ``remove-<seat>`` with a card's index)
that re-render the form with the card added or removed; htmx sends the same buttons and swaps
only that player's block. The text field of each hand is the source of truth.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from flask_babel import gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import FieldList, HiddenField, SelectField, StringField
from wtforms.validators import Length

from scorekeeper.inputs import whole_number
from scorekeeper.limits import CARDS_LENGTH, NAME_LENGTH
from scorekeeper.pads import Pad, card_tokens
from scorekeeper.pads import pad_of as pad_of
from scorekeeper.rules import (
    Card,
    CardError,
    RuleSet,
    parse_cards,
)
from scorekeeper.words import words

from ..text import lazy_gettext as _l
from .tally import MAX_TYPED_TOTAL, HandEntry, RoundEntry, Tally, points_of

NOBODY = "nobody"
# Longer than any total that may be typed, short enough that no one pastes a novel into it.
TOTAL_LENGTH = 12


def remove_card(text: str, index: str) -> str:
    """The cards ``text`` without the card at position ``index`` (0 first)."""
    tokens = card_tokens(text)
    position = whole_number(index, below=len(tokens))
    if position is not None:
        del tokens[position]
    return " ".join(tokens)


def pad_key(
    sent: Mapping[str, str], players: int, cards_of: Callable[[int], str], pad: Pad
) -> tuple[int, str] | None:
    """The seat whose key of ``pad`` or chip (``add-<seat>``, ``remove-<seat>``: a form sent
    without JavaScript) sent ``sent``, and its cards (``cards_of`` the seat) as the key leaves
    them; None for any other send."""
    for key, value in sent.items():
        for prefix, change in (("add-", pad.adds), ("remove-", remove_card)):
            seat = whole_number(key.removeprefix(prefix), below=players)
            if key.startswith(prefix) and seat is not None:
                return seat, change(cards_of(seat), value)
    return None


def read_hand(text: str, rules: RuleSet) -> tuple[list[Card], int | None, str | None]:
    """A cards field as the cards block (``games/_cards.html``) shows it: its cards, their
    points, and what is wrong with them (no cards and no points then)."""
    try:
        return parse_cards(text, rules), points_of(text, rules), None
    except CardError as error:
        return [], None, words(error)


@dataclass
class HandInput:
    """One player's part of the round form: the leftover cards as typed, whether they made
    the contract, and a total typed instead of cards (fields ``hands-<seat>-cards``,
    ``hands-<seat>-made`` and ``hands-<seat>-total``; an empty total means "count the cards")."""

    cards: str = ""
    made: bool = False
    total: str = ""


class RoundForm(FlaskForm):
    """A round: who went out, then one hand a player in seating order (``hands``, read from
    the ``hands-<seat>-…`` fields by ``read_hands``; seats without a field are empty)."""

    number = HiddenField()
    token = HiddenField()
    version = HiddenField()
    # The rounds the form was made on (services.rounds_stamp): a save made on older ones is
    # refused, 409, with the entries kept and a way to re-apply them.
    rounds_version = HiddenField()
    # A correction's round as the phone first saw it (``merging.encode``), and the parts of it
    # that clash with another phone's correction, for the person to choose (``merging``).
    base = HiddenField()
    clashes = HiddenField()
    # This phone's entries as the clashes were first shown (``merging.encode``): what its side
    # of each choice says, whatever the fields below hold once a side is picked.
    yours = HiddenField()
    went_out = StringField(_l("Who went out"))

    def read_hands(self, players: int, submitted: Mapping[str, str]) -> None:
        # Whoever went out went down and out in one turn (the box shows only where the rules
        # give a bonus for it).
        self.one_turn = bool(submitted.get("went_out_in_one_turn"))
        self.hands = [
            HandInput(
                cards=submitted.get(f"hands-{seat}-cards", "")[: CARDS_LENGTH * 2],
                made=bool(submitted.get(f"hands-{seat}-made")),
                total=submitted.get(f"hands-{seat}-total", "")[:TOTAL_LENGTH].strip(),
            )
            for seat in range(players)
        ]

    def clear_went_out(self, names: list[str]) -> str | None:
        """Empty the cards and total typed for whoever is chosen as out (they hold none), and
        say so in the page's language; None where nothing was typed for them (issue 43: the
        choice clears, rather than Save refusing)."""
        seat = self.went_out_seat(len(names))
        if not isinstance(seat, int):
            return None
        hand = self.hands[seat]
        typed = " ".join(hand.cards.split()) or hand.total
        if not typed:
            return None
        hand.cards, hand.total = "", ""
        return gettext(
            "%(name)s went out, so the cards typed for %(name)s (%(cards)s) were cleared.",
            name=names[seat],
            cards=typed,
        )

    def went_out_seat(self, players: int) -> int | str | None:
        """The seat that went out, None for nobody, or "" when nothing was picked."""
        value = (self.went_out.data or "").strip()
        if value == NOBODY:
            return None
        seat = whole_number(value, below=players)
        if seat is not None:
            return seat
        return ""

    def entry(self, tally: Tally, number: int) -> RoundEntry:
        """Round ``number`` as entered, for the game ``tally`` holds. The toggle of whoever
        went out is on whatever the form says, and a contract made only by going out follows
        who went out, as the page shows them."""
        contracts = round_contracts(tally, number)
        seat_out = self.went_out_seat(len(tally.names))
        went_out = None if seat_out in ("", None) else int(seat_out)
        hands = []
        for seat, hand in enumerate(self.hands):
            made: bool | None = hand.made
            if seat == went_out:
                made = None
            elif tally.rules.contract(contracts[seat]).going_out_only:
                made = False
            total = typed_total(hand.total) if hand.total else None
            hands.append(HandEntry(cards=hand.cards, made_contract=made, total=total))
        return RoundEntry(
            went_out=went_out,
            hands=tuple(hands),
            went_out_in_one_turn=self.one_turn and went_out is not None,
            # Where a tie is owed its tie-break hand, the next round entered is that hand; a
            # stored one, corrected, stays one.
            tie_break_hand=tally.is_tie_break(number),
        )


def typed_total(text: str) -> int | None:
    """A total typed on the round form, or None when it is no whole number 0 to 9999."""
    total = whole_number(text)
    return None if total is None or total > MAX_TYPED_TOTAL else total


def round_contracts(tally: Tally, number: int) -> tuple[int, ...]:
    """The contract each seat works on in round ``number`` (played, or the next one)."""
    if number <= len(tally.rounds):
        return tuple(hand.contract for hand in tally.rounds[number - 1].hands)
    return tally.next_contracts


class NewGameForm(FlaskForm):
    """A new game: the rules, the players in seating order, and who deals first."""

    rules = SelectField(_l("Rules"), choices=[])
    players = FieldList(
        StringField(_l("Player"), validators=[Length(max=NAME_LENGTH)]), min_entries=0
    )
    first_dealer = HiddenField()


class UploadForm(FlaskForm):
    """A game file to import."""

    file = FileField(_l("Game file (.json)"), validators=[FileRequired(_l("Choose a game file."))])
