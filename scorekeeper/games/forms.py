"""The forms of a game: start one, enter or correct a round, upload a game file.

The round form is one plain HTML form that works without JavaScript: the card pad's keys are
submit buttons (``add-<seat>`` with a rank as value, ``remove-<seat>`` with a card's index)
that re-render the form with the card added or removed; htmx sends the same buttons and swaps
only that player's block. The text field of each hand is the source of truth.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from flask_babel import gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import FieldList, HiddenField, SelectField, StringField
from wtforms.validators import Length

from scorekeeper.inputs import whole_number
from scorekeeper.limits import CARDS_LENGTH, NAME_LENGTH
from scorekeeper.rules import (
    PHASE_10,
    STANDARD,
    Card,
    CardError,
    Colour,
    RuleSet,
    Special,
    parse_cards,
)
from scorekeeper.words import words

from ..text import lazy_gettext as _l
from .tally import MAX_TYPED_TOTAL, HandEntry, RoundEntry, Tally, points_of

# The pad's keys, in the order a hand is usually read: joker, ace, court cards, then down.
PAD_RANKS = ("JK", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
NOBODY = "nobody"
# Longer than any total that may be typed, short enough that no one pastes a novel into it.
TOTAL_LENGTH = 12
_SEPARATORS = re.compile(r"[\s,\-]+")
# A card a colour key may colour: a number, with or without a colour letter ("7", "7R").
_NUMBERED = re.compile(r"(\d+)[A-Za-z]?")


@dataclass(frozen=True)
class Pad:
    """The card pad of a deck: ``ranks``, the keys that add a card of a rank (a number), in
    the order the pad shows them; ``specials``, the keys that add a special card (a joker; a
    Wild, a Skip), shown before the ranks where ``specials_first``, else after them;
    ``colours``, the keys that give the last card typed its colour ("7", then R, is "7R"). A
    standard deck's pad has no suit keys (a suit is typed, and a rank alone scores); a Phase
    10 deck's has its four colours, drawn in their colour and labelled with their letter."""

    ranks: tuple[str, ...]
    specials: tuple[Special, ...]
    example: str
    """Cards as one would type them, shown in an empty cards field."""
    colours: tuple[Colour, ...] = ()
    specials_first: bool = False

    def adds(self, text: str, key: str) -> str:
        """The cards ``text`` as the key ``key`` leaves them: one more card, or the last
        number typed given the key's colour; unchanged for a key the pad does not have, or a
        colour with no number before it to take it."""
        tokens = card_tokens(text)
        if key in self.ranks or key in {special.notation for special in self.specials}:
            return " ".join([*tokens, key])
        colours = {colour.letter for colour in self.colours}
        if key in colours and tokens and (found := _NUMBERED.fullmatch(tokens[-1])):
            return " ".join([*tokens[:-1], found.group(1) + key])
        return text


# Each deck's pad, by the deck's slug: the standard pad's ranks in the order a hand is usually
# read (joker, ace, court cards, then down); Phase 10's numbers up, its colours, Wild and Skip.
PADS = {
    STANDARD.slug: Pad(PAD_RANKS[1:], STANDARD.specials, "K Q 9 JK", specials_first=True),
    PHASE_10.slug: Pad(
        tuple(rank.symbol for rank in PHASE_10.ranks),
        PHASE_10.specials,
        "7R 12G W S",
        tuple(suit for suit in PHASE_10.suits if isinstance(suit, Colour)),
    ),
}


def pad_of(rules: RuleSet) -> Pad:
    """The card pad of ``rules``' deck (the standard pad for a deck without one)."""
    return PADS.get(rules.deck.slug, PADS[STANDARD.slug])


def card_tokens(text: str) -> list[str]:
    """The tokens of card notation as typed (``"K, q-JK"`` → ``["K", "q", "JK"]``)."""
    return [token for token in _SEPARATORS.split(text) if token]


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
            # Where a tie is owed its tie-break hand, the next round entered is that hand.
            tie_break_hand=bool(tally.tie_break_owed) and number == len(tally.rounds) + 1,
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
