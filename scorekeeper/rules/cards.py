"""Cards and the standard deck's notation: ``10H``, ``q♠``, ``JK``, a rank alone (``K``).

A card is a rank and a suit, a rank alone (suit not known), or a special card (a joker; a
Phase 10 deck's Wild and Skip). Which ranks, suits and special cards exist, how many copies a
pack holds and how cards are written is the deck's (``decks.py``): the standard deck's ranks
and suits are ``Rank`` and ``Suit``, a Phase 10 deck's numbers and colours ``Number`` and
``Colour``.

The standard notation: rank then suit, in any case: the ranks ``A 2 … 10 J Q K``
(``T`` for ten too) and the suits ``S H D C`` or ``♠ ♥ ♦ ♣``. A joker is ``JK``,
``Joker`` or ``*``. A rank alone is a card whose suit is not known: enough to
score it and to read it in a set, not in a run. Cards are separated by spaces,
commas or hyphens. ``ruleset.parse_cards(text, rules)`` reads the notation of a rule set's deck.
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .messages import N_, Message, Value, listing

__all__ = [
    "JOKER",
    "SKIP",
    "WILD",
    "AnyRank",
    "AnySuit",
    "Card",
    "CardError",
    "Colour",
    "Number",
    "Rank",
    "Special",
    "Suit",
    "as_cards",
    "format_cards",
    "parse_card",
    "parse_cards",
]


class CardError(ValueError):
    """A token of card notation that is not a card; ``token`` holds it as typed, ``why`` what
    is wrong and ``message`` the whole sentence (the error's text, in English)."""

    def __init__(self, token: str, why: Message) -> None:
        self.message = N_("%(token)s is not a card: %(why)s", token=repr(token), why=why)
        super().__init__(str(self.message))
        self.token = token
        self.why = why


class Rank(enum.IntEnum):
    """A card's rank, ace low in number (``ACE == 1``); runs may still read it high."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        """The rank as written: ``"A"``, ``"2"`` … ``"10"``, ``"J"``, ``"Q"``, ``"K"``."""
        return _RANK_SYMBOLS[self]

    @property
    def plural(self) -> Message:
        """The rank in words, many of it: ``"aces"``, ``"5s"``, ``"kings"``."""
        return _RANK_PLURALS[self]

    @classmethod
    def from_symbol(cls, text: str) -> Rank:
        """The rank written ``text`` (``"A"``, ``"10"``, ``"t"``, ``"k"``); ValueError if none."""
        rank = _RANKS_BY_TEXT.get(text.upper())
        if rank is None:
            raise ValueError(f"{text!r} is not a rank (A, 2 … 10, J, Q, K)")
        return rank


_RANK_SYMBOLS = {
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    **{Rank(number): str(number) for number in range(2, 11)},
}
# Each its own message: a language names some ranks in words of their own ("doses").
_RANK_PLURALS = {
    Rank.ACE: N_("aces"),
    Rank.TWO: N_("2s"),
    Rank.THREE: N_("3s"),
    Rank.FOUR: N_("4s"),
    Rank.FIVE: N_("5s"),
    Rank.SIX: N_("6s"),
    Rank.SEVEN: N_("7s"),
    Rank.EIGHT: N_("8s"),
    Rank.NINE: N_("9s"),
    Rank.TEN: N_("10s"),
    Rank.JACK: N_("jacks"),
    Rank.QUEEN: N_("queens"),
    Rank.KING: N_("kings"),
}
_RANKS_BY_TEXT = {symbol: rank for rank, symbol in _RANK_SYMBOLS.items()} | {"T": Rank.TEN}


class Suit(enum.Enum):
    """A card's suit, in the order spades, hearts, diamonds, clubs."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def letter(self) -> str:
        """The suit's letter: ``"S"``, ``"H"``, ``"D"``, ``"C"``."""
        return self.value

    @property
    def symbol(self) -> str:
        """The suit's sign: ``"♠"``, ``"♥"``, ``"♦"``, ``"♣"``."""
        return _SUIT_SYMBOLS[self]

    @property
    def index(self) -> int:
        """0 for spades … 3 for clubs (the order cards sort in)."""
        return _SUIT_ORDER[self]

    @property
    def plural(self) -> Message:
        """The suit in words: ``"spades"``."""
        return _SUIT_PLURALS[self]


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_ORDER = {suit: number for number, suit in enumerate(Suit)}
_SUIT_PLURALS = {
    Suit.SPADES: N_("spades"),
    Suit.HEARTS: N_("hearts"),
    Suit.DIAMONDS: N_("diamonds"),
    Suit.CLUBS: N_("clubs"),
}
_SUITS_BY_TEXT = (
    {suit.letter: suit for suit in Suit}
    | {symbol: suit for suit, symbol in _SUIT_SYMBOLS.items()}
    | {"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
)


class Number(enum.IntEnum):
    """A Phase 10 card's number, 1 to 12 (its deck has no ace, no court cards)."""

    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    ELEVEN = 11
    TWELVE = 12

    @property
    def symbol(self) -> str:
        """The number as written: ``"1"`` … ``"12"``."""
        return str(int(self))

    @property
    def plural(self) -> Message:
        """The number in words, many of it: ``"7s"``."""
        return _NUMBER_PLURALS[self]


# Each its own message, as the ranks' are.
_NUMBER_PLURALS = {
    Number.ONE: N_("1s"),
    Number.TWO: N_("2s"),
    Number.THREE: N_("3s"),
    Number.FOUR: N_("4s"),
    Number.FIVE: N_("5s"),
    Number.SIX: N_("6s"),
    Number.SEVEN: N_("7s"),
    Number.EIGHT: N_("8s"),
    Number.NINE: N_("9s"),
    Number.TEN: N_("10s"),
    Number.ELEVEN: N_("11s"),
    Number.TWELVE: N_("12s"),
}


class Colour(enum.Enum):
    """A Phase 10 card's colour, in the order red, blue, yellow, green. The letters are the
    same in every language (``B`` is never "blanco")."""

    RED = "R"
    BLUE = "B"
    YELLOW = "Y"
    GREEN = "G"

    @property
    def letter(self) -> str:
        """The colour's letter: ``"R"``, ``"B"``, ``"Y"``, ``"G"``."""
        return self.value

    @property
    def symbol(self) -> str:
        """The colour as a card shows it: its letter (a colour has no sign)."""
        return self.value

    @property
    def index(self) -> int:
        """0 for red … 3 for green (the order cards sort in)."""
        return _COLOUR_ORDER[self]

    @property
    def plural(self) -> Message:
        """The colour in words: ``"red"``."""
        return _COLOUR_WORDS[self]


_COLOUR_ORDER = {colour: number for number, colour in enumerate(Colour)}
_COLOUR_WORDS = {
    Colour.RED: N_("red"),
    Colour.BLUE: N_("blue"),
    Colour.YELLOW: N_("yellow"),
    Colour.GREEN: N_("green"),
}

AnyRank = Rank | Number
"""A card's rank in any deck: a standard rank, or a Phase 10 number."""
AnySuit = Suit | Colour
"""A card's suit in any deck: a standard suit, or a Phase 10 colour."""


@dataclass(frozen=True, slots=True)
class Special:
    """A card of no rank and no suit: a joker, a Phase 10 Wild or Skip.

    ``key`` names it in ``card_values`` (``"joker"``, ``"wild"``, ``"skip"``); ``notation``
    and ``label`` are how it is written and shown; ``wild`` says it stands for any card in a
    meld; ``in_melds`` False says it is never part of a meld (a Skip); ``order`` is its place
    after the numbered cards when cards are sorted; ``word`` the card in words ("a Wild"),
    ``plural`` many of it ("Wilds")."""

    key: str
    notation: str
    label: str
    wild: bool
    in_melds: bool
    order: int
    word: Message
    plural: Message

    def __str__(self) -> str:
        return self.notation


JOKER_CARD = Special("joker", "JK", "Joker", True, True, 14, N_("a joker"), N_("jokers"))
WILD_CARD = Special("wild", "W", "Wild", True, True, 14, N_("a Wild"), N_("Wilds"))
SKIP_CARD = Special("skip", "S", "Skip", False, False, 15, N_("a Skip"), N_("Skips"))


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a rank and a suit, a rank alone (suit not known), or a special card (a joker,
    a Wild, a Skip: ``special``, no rank, no suit). ``Card(None)`` is the joker.

    Cards are ordered by rank (ace low), then suit (♠ ♥ ♦ ♣, unknown first; a Phase 10
    deck's colours R B Y G), special cards last; equal cards (two decks hold two 7♥) compare
    equal.
    """

    rank: AnyRank | None
    suit: AnySuit | None = None
    special: Special | None = None

    def __post_init__(self) -> None:
        if self.rank is None:
            if self.suit is not None:
                raise ValueError("a joker has no suit")
            if self.special is None:
                object.__setattr__(self, "special", JOKER_CARD)
        elif self.special is not None:
            raise ValueError("a card with a rank is no special card")

    @property
    def is_joker(self) -> bool:
        """True for a card that is only ever wild: a joker (a Phase 10 Wild too)."""
        return self.rank is None and self.special is not None and self.special.wild

    @property
    def label(self) -> str:
        """The card for people: ``"10♥"``, ``"K"`` (suit unknown), ``"Joker"``, ``"7R"``."""
        if self.special is not None:
            return self.special.label
        assert self.rank is not None
        return self.rank.symbol + (self.suit.symbol if self.suit else "")

    @property
    def notation(self) -> str:
        """The card in notation: ``"10H"``, ``"K"``, ``"JK"``, ``"7R"``, ``"W"``."""
        if self.special is not None:
            return self.special.notation
        assert self.rank is not None
        return self.rank.symbol + (self.suit.letter if self.suit else "")

    @property
    def short(self) -> str:
        """The card with its suit sign, a special card in notation: ``"10♥"``, ``"K"``,
        ``"JK"``, ``"W"``."""
        return self.special.notation if self.special is not None else self.label

    def sort_key(self) -> tuple[int, int]:
        """The key cards sort by: rank (ace low, special cards last), then suit."""
        if self.rank is None:
            return (self.special.order if self.special is not None else 14, -1)
        return (int(self.rank), -1 if self.suit is None else self.suit.index)

    def __lt__(self, other: Card) -> bool:
        return self.sort_key() < other.sort_key()

    def __le__(self, other: Card) -> bool:
        return self.sort_key() <= other.sort_key()

    def __gt__(self, other: Card) -> bool:
        return self.sort_key() > other.sort_key()

    def __ge__(self, other: Card) -> bool:
        return self.sort_key() >= other.sort_key()

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"Card.parse({self.notation!r})"

    @classmethod
    def parse(cls, token: str) -> Card:
        """The card written ``token`` in the standard notation; raises CardError naming it
        if it is no card."""
        return parse_card(token)


JOKER = Card(None, None, JOKER_CARD)
WILD = Card(None, None, WILD_CARD)
SKIP = Card(None, None, SKIP_CARD)

_SEPARATORS = re.compile(r"[\s,\-]+")
_JOKERS = {"JK", "JOKER", "*", "🃏"}


# A restore reads hundreds of thousands of hands written with the same few dozen tokens; a
# card is immutable, so each token's card is kept (a refusal is not: it raises every time).
@functools.lru_cache(maxsize=1024)
def parse_card(token: str) -> Card:
    """Read one card (``"10H"``, ``"q♠"``, ``"K"``, ``"JK"``).

    Raises CardError, whose message quotes ``token`` and says what is wrong.
    """
    text = token.strip().replace("\ufe0f", "")
    if not text:
        raise CardError(token, N_("it is empty"))
    if text.upper() in _JOKERS:
        return JOKER
    upper = text.upper()
    rank_text, suit_text = upper, ""
    if len(upper) > 1 and upper not in _RANKS_BY_TEXT and not upper[-1].isdigit():
        rank_text, suit_text = upper[:-1], upper[-1]
    rank = _RANKS_BY_TEXT.get(rank_text)
    if rank is None:
        if rank_text == "1":
            why = N_("1 is not a rank (write A for an ace)")
        elif rank_text.isdigit():
            why = N_("%(rank)s is not a rank (the ranks are A, 2 … 10, J, Q, K)", rank=rank_text)
        else:
            why = N_("write a rank (A, 2 … 10, J, Q, K) then a suit (S, H, D, C or ♠ ♥ ♦ ♣)")
        raise CardError(token, why)
    if not suit_text:
        return Card(rank, None)
    suit = _SUITS_BY_TEXT.get(suit_text)
    if suit is None:
        raise CardError(
            token,
            N_("%(suit)s is not a suit (the suits are S, H, D, C or ♠ ♥ ♦ ♣)", suit=text[-1]),
        )
    return Card(rank, suit)


def parse_cards(text: str) -> list[Card]:
    """Read cards of the standard deck separated by spaces, commas or hyphens (``"5S 2C JK"``,
    ``"3-4-5-6♥"``); another deck's notation is its own (``rules.parse_cards(text, rules)``).

    Returns them in the order written; an empty text gives no cards. Raises
    CardError naming the first token that is not a card.
    """
    return [parse_card(token) for token in _SEPARATORS.split(text) if token]


def split_tokens(text: str) -> list[str]:
    """The tokens of card notation in ``text``, split at spaces, commas and hyphens."""
    return [token for token in _SEPARATORS.split(text) if token]


def format_cards(cards: Iterable[Card], *, symbols: bool = False) -> str:
    """Write cards in notation, space separated: ``"10H QS JK"``, ``"7R 12G W S"``.

    With ``symbols``, suits are signs: ``"10♥ Q♠ JK"``. ``parse_cards`` reads
    either back to the same cards (in the deck's notation).
    """
    return " ".join(card.short if symbols else card.notation for card in cards)


class Notation(Protocol):
    """What reads a deck's notation (``decks.Deck``, which this module does not import)."""

    def parse(self, text: str) -> list[Card]: ...


def as_cards(cards: str | Iterable[Card], deck: Notation | None = None) -> list[Card]:
    """Cards given as notation text (in the notation of ``deck``, a ``decks.Deck``; none:
    the standard deck) or as Card values, as a list of cards."""
    if isinstance(cards, str):
        if deck is None:
            return parse_cards(cards)
        return deck.parse(cards)
    result = list(cards)
    for card in result:
        if not isinstance(card, Card):
            raise TypeError(f"{card!r} is not a Card")
    return result


def card_list(cards: Sequence[Card]) -> Value:
    """Cards for a sentence: ``"5♠, JK and 8♠"`` (a message's value: the "and" is translated,
    the cards stay in notation)."""
    return listing([card.short for card in cards])
