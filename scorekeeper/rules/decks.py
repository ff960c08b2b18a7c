"""The decks a rule set may name (option ``deck``): which cards exist, how many copies one pack
holds, how they are written and what they are called.

A deck is a value, and everything in the engine that reads cards asks the rule set's deck
rather than assuming one: ``parse_cards`` reads its notation, ``Packs.overflow`` counts its
copies, ``card_values`` are keyed by its cards, and the rulings use its words ("rank" and
"suit" in a standard deck, "number" and "colour" in a Phase 10 deck). A new deck (an Uno-like
numbers deck, a Spanish 40- or 48-card deck) is a new ``Deck`` here: its ranks and suits (an
enum each, in ``cards.py``), its special cards, its copies, its notation (one function reading
one token) and its card values.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .cards import (
    JOKER_CARD,
    SKIP,
    SKIP_CARD,
    WILD,
    WILD_CARD,
    AnyRank,
    AnySuit,
    Card,
    CardError,
    Colour,
    Number,
    Rank,
    Special,
    Suit,
    parse_card,
    split_tokens,
)
from .messages import N_, Message, N_plural, Value

__all__ = ["DECKS", "PHASE_10", "STANDARD", "Deck", "Wording", "deck_named"]


@dataclass(frozen=True, slots=True)
class Wording:
    """The words a deck's rulings use where decks differ: the sentences that say "rank" and
    "suit" in a standard deck say "number" and "colour" in a Phase 10 deck. Each is a whole
    sentence (a language words it as it likes); the rulings give the values."""

    set_of: Callable[[Value, str], Message]
    """A set explained: its rank in words and the meld (``"A set of 7s: …"``)."""
    set_of_one: Callable[[str], Message]
    """A set of wild cards only explained, the meld given."""
    stands_for: Callable[[str, str], Message]
    """A wild card in a set: the card, and the rank alone it stands for."""
    two_sets: Message
    """A lay-down that may not hold two sets of one rank."""
    contract_asks: Callable[[Value, Value, Value], Message]
    """A contract made: its number, its melds in words and the melds that make it."""
    contract_exactly: Callable[[int, Value, Value, Value], Message]
    """A lay-down of too few or too many melds: how many the contract asks for, its number,
    its melds in words and how many were laid down."""
    contract_laid: Callable[[Value, Value, Value], Message]
    """A lay-down of melds of other kinds than asked: the number, the melds asked, those laid."""
    layoff_not_on_contract_turn: Message
    """A lay-off refused on the turn the player's contract went down."""
    layoff_same_turn: Message
    """Laying off allowed once the player's contract is made, that turn too."""
    layoff_later_turn: Message
    """Laying off allowed from the turn after the contract went down."""
    game_end: Callable[[Value], Message]
    """When a game whose players keep their contract ends: after the round in which someone
    makes the last contract (its number given)."""
    no_such_contract: Callable[[Value, Value], Message]
    """A contract number the rules do not have (the number as written, how many they have)."""
    undecided: Callable[[Value, Value], Message]
    """The hand check gave up on a contract (its number and its melds in words)."""
    per_contract: Callable[[int], Message]
    """How often a "May I" limit counted each contract allows it (the count)."""
    decks_for: Callable[[int, Value], Message]
    """How many packs of the deck a game holds, and for how many players."""
    played_out_of_order: Callable[[Value], Message]
    """``phases_played`` refused for a list not in the order played (the list given)."""
    played_none_listed: Callable[[Value], Message]
    """``phases_played`` refused for an empty list (the list given)."""
    played_none_left: Callable[[Value], Message]
    """``phases_played`` refused for leaving no contract to play (the value given)."""
    options: Mapping[str, tuple[Message, Message]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    """Options named and explained in the deck's own words, by key: their name and their help,
    where those of ``options._OPTION_TEXT`` say contract, rank or lay off."""
    choices: Mapping[str, Message] = field(default_factory=lambda: MappingProxyType({}))
    """Choice options' values in the deck's own words, where ``options.CHOICE_WORDS``' say
    contract (a rule set keeps the value's code: "last contract" is Phase 10's last phase)."""
    run_free: Callable[[str], Message] | None = None
    """A run of a deck whose runs are of any suits explained, the meld given."""
    repeated_in_run: Callable[[Value], Message] | None = None
    """A run of any suits refused for a rank it holds twice (the ranks given)."""
    not_neighbours: Callable[[str, str], Message] | None = None
    """A run refused for holding the deck's highest and lowest ranks, which are not
    neighbours where runs do not turn the corner (the highest and the lowest given)."""
    phases: bool = False
    """Whether the deck's games call a contract a phase and a lay-off a hit (Phase 10's), on
    every page about them: the rulings' sentences above, and the pages' own words."""


STANDARD_WORDING = Wording(
    set_of=lambda rank, meld: N_(
        "A set of %(rank)s: cards of one rank, suits free (%(meld)s)", rank=rank, meld=meld
    ),
    set_of_one=lambda meld: N_(
        "A set of one rank: cards of one rank, suits free (%(meld)s)", meld=meld
    ),
    stands_for=lambda card, rank: N_(
        "%(card)s is wild and stands for a %(rank)s", card=card, rank=rank
    ),
    two_sets=N_("One lay-down may not hold two sets of one rank: each set needs a rank of its own"),
    contract_asks=lambda number, contract, melds: N_(
        "Contract %(number)s asks for %(contract)s: %(melds)s",
        number=number,
        contract=contract,
        melds=melds,
    ),
    contract_exactly=lambda wanted, number, contract, laid: N_plural(
        "Contract %(number)s asks for %(contract)s: exactly %(num)s meld, and %(laid)s",
        "Contract %(number)s asks for %(contract)s: exactly %(num)s melds, and %(laid)s",
        num=wanted,
        number=number,
        contract=contract,
        laid=laid,
    ),
    contract_laid=lambda number, contract, laid: N_(
        "Contract %(number)s asks for %(contract)s, and this lay-down is %(laid)s",
        number=number,
        contract=contract,
        laid=laid,
    ),
    layoff_not_on_contract_turn=N_(
        "You may not lay off on the turn you lay your contract down: wait for a later turn"
    ),
    layoff_same_turn=N_(
        "Laying off is allowed once your own contract is made, on the same turn too"
    ),
    layoff_later_turn=N_(
        "Laying off is allowed from the turn after the one you laid your contract down"
    ),
    game_end=lambda number: N_(
        "after the round in which someone makes contract %(number)s", number=number
    ),
    no_such_contract=lambda number, count: N_(
        "%(number)s is not a contract of these rules: they run from 1 to %(count)s",
        number=number,
        count=count,
    ),
    undecided=lambda number, contract: N_(
        "too many possibilities to decide whether this hand makes contract %(number)s "
        "(%(contract)s): check by hand",
        number=number,
        contract=contract,
    ),
    per_contract=lambda limit: N_plural("%(num)s per contract", "%(num)s per contract", num=limit),
    decks_for=lambda decks, players: N_plural(
        "%(num)s deck for %(players)s", "%(num)s decks for %(players)s", num=decks, players=players
    ),
    played_out_of_order=lambda value: N_(
        "%(value)s is not in order: each contract once, in the order played", value=value
    ),
    played_none_listed=lambda value: N_(
        "%(value)s is an empty list (give at least one contract)", value=value
    ),
    played_none_left=lambda value: N_("%(value)s leaves no contract to play", value=value),
)

PHASE_10_WORDING = Wording(
    set_of=lambda rank, meld: N_(
        "A set of %(rank)s: cards of one number, colours free (%(meld)s)", rank=rank, meld=meld
    ),
    set_of_one=lambda meld: N_(
        "A set of one number: cards of one number, colours free (%(meld)s)", meld=meld
    ),
    stands_for=lambda card, rank: N_(
        "%(card)s is a Wild and stands for a %(number)s", card=card, number=rank
    ),
    two_sets=N_(
        "One lay-down may not hold two sets of one number: each set needs a number of its own"
    ),
    contract_asks=lambda number, contract, melds: N_(
        "Phase %(number)s asks for %(contract)s: %(melds)s",
        number=number,
        contract=contract,
        melds=melds,
    ),
    contract_exactly=lambda wanted, number, contract, laid: N_plural(
        "Phase %(number)s asks for %(contract)s: exactly %(num)s meld, and %(laid)s",
        "Phase %(number)s asks for %(contract)s: exactly %(num)s melds, and %(laid)s",
        num=wanted,
        number=number,
        contract=contract,
        laid=laid,
    ),
    contract_laid=lambda number, contract, laid: N_(
        "Phase %(number)s asks for %(contract)s, and this lay-down is %(laid)s",
        number=number,
        contract=contract,
        laid=laid,
    ),
    layoff_not_on_contract_turn=N_(
        "You may not hit on the turn you lay your phase down: wait for a later turn"
    ),
    layoff_same_turn=N_("Hitting is allowed once your own phase is made, on the same turn too"),
    layoff_later_turn=N_("Hitting is allowed from the turn after the one you laid your phase down"),
    game_end=lambda number: N_(
        "after the round in which someone makes phase %(number)s", number=number
    ),
    no_such_contract=lambda number, count: N_(
        "%(number)s is not a phase of these rules: they run from 1 to %(count)s",
        number=number,
        count=count,
    ),
    undecided=lambda number, contract: N_(
        "too many possibilities to decide whether this hand makes phase %(number)s "
        "(%(contract)s): check by hand",
        number=number,
        contract=contract,
    ),
    per_contract=lambda limit: N_plural("%(num)s per phase", "%(num)s per phase", num=limit),
    decks_for=lambda decks, players: N_plural(
        "%(num)s Phase 10 deck for %(players)s",
        "%(num)s Phase 10 decks for %(players)s",
        num=decks,
        players=players,
    ),
    played_out_of_order=lambda value: N_(
        "%(value)s is not in order: each phase once, in the order played", value=value
    ),
    played_none_listed=lambda value: N_(
        "%(value)s is an empty list (give at least one phase)", value=value
    ),
    played_none_left=lambda value: N_("%(value)s leaves no phase to play", value=value),
    choices=MappingProxyType(
        {"last contract": N_("last phase"), "most contracts": N_("most phases")}
    ),
    options=MappingProxyType(
        {
            "contracts": (
                N_("Phases"),
                N_("The melds each phase asks for, in the order they are played."),
            ),
            "contract_order": (
                N_("Which phase a player works on"),
                N_(
                    "own: each player keeps their phase until they make it; round: round N "
                    "plays phase N for everyone."
                ),
            ),
            "phases_played": (
                N_("Which phases are played"),
                N_(
                    "all: every phase in order; even: 2, 4, 6 and so on; odd: 1, 3, 5 and so "
                    "on; or a list of phase numbers in order (1, 2, 3, 4, 5). Each keeps its "
                    "number; a player starts on the first and moves to the next in the list, "
                    "and the last in the list is the last phase."
                ),
            ),
            "hands": (
                N_("Rounds in a game"),
                N_(
                    "The game ends after this many rounds, whoever has made what (empty: it "
                    "ends as the phases and who wins say)."
                ),
            ),
            "winner": (
                N_("Who wins"),
                N_(
                    "Whoever makes the last phase first; or the lowest score when the game "
                    "ends; or whoever has made the most phases when the game ends (tied: the "
                    "lowest total; still tied: the tie-break)."
                ),
            ),
            "tie_break": (
                N_("Tie-break"),
                N_(
                    "Of those tied, the lowest score wins (still tied: they share); or tied "
                    "players share the win; or whoever went out in the most rounds wins (still "
                    "tied: they share); or the lowest score wins, and still tied they alone "
                    "play one more round on the last phase, the first of them to go out "
                    "winning."
                ),
            ),
            "packs": (
                N_("Packs"),
                N_("How many Phase 10 decks the game uses for its players."),
            ),
            "max_wilds_per_laydown": (
                N_("Most wild cards in one lay-down"),
                N_("The most wild cards in all the melds of one phase (empty: no limit)."),
            ),
            "wild_limits_on_layoff": (
                N_("Wild card limits hold when hitting"),
                N_("Whether the three limits above still hold on a meld that grows by hitting."),
            ),
            "runs_may_wrap": (
                N_("Runs may turn the corner"),
                N_(
                    "A run may go on from 12 to 1 (11-12-1-2); each number once, so 12 cards "
                    "at most."
                ),
            ),
            "extra_melds": (
                N_("Extra melds with a phase"),
                N_("Whether a lay-down may hold more melds than the phase asks."),
            ),
            "exact_meld_sizes": (
                N_("Melds exactly as long as asked"),
                N_(
                    "A phase's melds go down exactly as long as asked (a phase laid down while "
                    "going out excepted)."
                ),
            ),
            "same_rank_sets_allowed": (
                N_("Two sets of one number"),
                N_("Whether one lay-down may hold two sets of one number."),
            ),
            "layoff_on_contract_turn": (
                N_("Hitting on the turn you lay down your phase"),
                N_(
                    "Whether you may hit on the very turn you lay your phase down, or only "
                    "from a later turn."
                ),
            ),
            "liberation_before_contract": (
                N_("Liberating before your phase"),
                N_(
                    "Whether a player whose phase is not made may liberate: yes; if going "
                    "down: only on the turn they make it; no."
                ),
            ),
            "discard_after_contract": (
                N_("Taking the discard once your phase is made"),
                N_(
                    "Whether a player whose phase is made may still take the discard, on "
                    'their turn or by "May I".'
                ),
            ),
            "down_and_out_bonus": (
                N_("Going down and out in one turn"),
                N_(
                    "Points for making the phase and going out on the same turn (0: no bonus; "
                    "-10 takes 10 points off)."
                ),
            ),
        }
    ),
    run_free=lambda meld: N_(
        "A run: cards of consecutive numbers, colours free (%(meld)s)", meld=meld
    ),
    repeated_in_run=lambda numbers: N_(
        "not a run: a run holds each number once, and this has %(numbers)s twice",
        numbers=numbers,
    ),
    not_neighbours=lambda high, low: N_(
        "not a run: %(high)s and %(low)s are not neighbours (a run stops at %(low)s and at "
        "%(high)s)",
        high=high,
        low=low,
    ),
    phases=True,
)


@dataclass(frozen=True, eq=False)
class Deck:
    """A kind of deck: its cards, one pack's copies of them, its notation and its words.

    ``ranks`` and ``suits`` in their order (a card is one of each, or a rank alone);
    ``specials`` the cards of no rank (a joker; a Wild, a Skip); ``copies`` how many of each
    card of a rank and a suit one pack holds, and ``specials_per_pack`` how many of each special
    card (a joker is not counted here: the rule set's ``packs`` say how many jokers a game
    adds). ``read_card`` reads one token of the deck's notation (a CardError names a token
    that is no card). ``value_keys`` are the keys of ``card_values`` (every one needs a value),
    ``value_aliases`` other spellings read as them, and ``values`` the values a rule set that
    changes to this deck starts from, as ``packs`` the packs. ``ranks_may_be_wild``: the option
    ``wild_ranks`` may make ranks wild (a Phase 10 deck has its Wilds and nothing else is
    wild). ``ace``: the lowest rank is an ace, which a run may also put above the highest (as
    the option ``aces`` says); otherwise a run stops at the lowest and the highest rank.
    ``runs_of_one_suit``: a run is of one suit (a Phase 10 run's colours are free).
    ``wording``: the sentences that differ from deck to deck.
    """

    slug: str
    name: Message
    ranks: tuple[AnyRank, ...]
    suits: tuple[AnySuit, ...]
    specials: tuple[Special, ...]
    copies: int
    specials_per_pack: Mapping[str, int]
    read_card: Callable[[str], Card]
    value_keys: tuple[str, ...]
    value_aliases: Mapping[str, str]
    values: Mapping[str, int]
    packs: Mapping[str, int]
    ranks_may_be_wild: bool
    ace: bool
    runs_of_one_suit: bool
    wording: Wording
    period: int = field(init=False)
    """How many ranks a run may hold at most: one of each (13; 12 in a Phase 10 deck)."""
    all_in_melds: bool = field(init=False)
    """Whether every card may be part of a meld (not in a Phase 10 deck: its Skips)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "period", len(self.ranks))
        object.__setattr__(self, "all_in_melds", all(special.in_melds for special in self.specials))

    @property
    def has_jokers(self) -> bool:
        """Whether the deck's games may add jokers (the rule set's ``packs`` count them)."""
        return JOKER_CARD in self.specials

    @property
    def cards_per_pack(self) -> int:
        """How many cards one pack holds, jokers apart."""
        return self.copies * len(self.ranks) * len(self.suits) + sum(
            self.specials_per_pack.values()
        )

    @property
    def copies_of_rank(self) -> int:
        """How many cards of one rank one pack holds, every suit together."""
        return self.copies * len(self.suits)

    def parse(self, text: str) -> list[Card]:
        """Read cards separated by spaces, commas or hyphens in this deck's notation; raises
        CardError naming the first token that is not a card."""
        return [self.read_card(token) for token in split_tokens(text)]

    def __repr__(self) -> str:
        return f"<Deck {self.slug!r}>"


# The Phase 10 notation: a number 1 to 12 then a colour letter, or a number alone; W (Wild,
# also "Wild", "*" and the old coloured Wilds "WR"…), S (Skip, also "Skip").
_PHASE_10_TOKEN = re.compile(r"(\d+)([A-Z]*)")
_PHASE_10_SPECIAL = {"W": WILD, "WILD": WILD, "*": WILD, "S": SKIP, "SKIP": SKIP} | {
    "W" + colour.letter: WILD for colour in Colour
}
_COLOUR_BY_LETTER = {colour.letter: colour for colour in Colour}


@functools.lru_cache(maxsize=1024)
def read_phase_10_card(token: str) -> Card:
    """Read one Phase 10 card (``"7R"``, ``"12g"``, ``"7"``, ``"W"``, ``"S"``).

    Raises CardError, whose message quotes ``token`` and says what is wrong.
    """
    text = token.strip().replace("\ufe0f", "")
    if not text:
        raise CardError(token, N_("it is empty"))
    upper = text.upper()
    if upper in _PHASE_10_SPECIAL:
        return _PHASE_10_SPECIAL[upper]
    if upper in ("JK", "JOKER", "🃏"):
        raise CardError(token, N_("this deck has no jokers: write W for a Wild"))
    found = _PHASE_10_TOKEN.fullmatch(upper)
    if found is None:
        raise CardError(
            token,
            N_("write a number 1 to 12, then a colour (R, B, Y, G); W for a Wild, S for a Skip"),
        )
    digits, letters = found.groups()
    if not 1 <= int(digits) <= 12:
        raise CardError(
            token, N_("%(number)s is not a number (the numbers are 1 to 12)", number=digits)
        )
    number = Number(int(digits))
    if not letters:
        return Card(number, None)
    colour = _COLOUR_BY_LETTER.get(letters)
    if colour is None:
        if len(letters) == 1:
            raise CardError(
                token,
                N_("%(colour)s is not a colour (the colours are R, B, Y, G)", colour=letters),
            )
        raise CardError(
            token,
            N_("write a number 1 to 12, then a colour (R, B, Y, G); W for a Wild, S for a Skip"),
        )
    return Card(number, colour)


def _standard_values() -> dict[str, int]:
    # rules.md's most usual table (12-Step's): a deck changed to the standard one starts here.
    values = {"joker": 50, "A": 20, "2": 50}
    values.update({str(number): 5 for number in range(3, 10)})
    return values | {"10": 10, "J": 10, "Q": 10, "K": 10}


STANDARD = Deck(
    slug="standard",
    name=N_("standard (52 cards, with jokers as the rules say)"),
    ranks=tuple(Rank),
    suits=tuple(Suit),
    specials=(JOKER_CARD,),
    copies=1,
    specials_per_pack=MappingProxyType({}),
    read_card=parse_card,
    value_keys=("joker", *(rank.symbol for rank in Rank)),
    value_aliases=MappingProxyType({"JK": "joker", "T": "10"}),
    values=MappingProxyType(_standard_values()),
    packs=MappingProxyType(
        {
            "decks": 2,
            "decks_up_to_players": 5,
            "players_per_extra_deck": 2,
            "jokers_per_deck": 2,
            "jokers_per_player": 0,
            "jokers_extra": 0,
        }
    ),
    ranks_may_be_wild=True,
    ace=True,
    runs_of_one_suit=True,
    wording=STANDARD_WORDING,
)

PHASE_10 = Deck(
    slug="phase-10",
    name=N_("Phase 10 (108 cards: 1 to 12 in four colours, 8 Wilds, 4 Skips)"),
    ranks=tuple(Number),
    suits=tuple(Colour),
    specials=(WILD_CARD, SKIP_CARD),
    copies=2,
    specials_per_pack=MappingProxyType({"wild": 8, "skip": 4}),
    read_card=read_phase_10_card,
    value_keys=(*(number.symbol for number in Number), "wild", "skip"),
    value_aliases=MappingProxyType({}),
    values=MappingProxyType(
        {number.symbol: 5 if number <= 9 else 10 for number in Number} | {"wild": 25, "skip": 15}
    ),
    packs=MappingProxyType(
        {
            "decks": 1,
            "decks_up_to_players": 6,
            "players_per_extra_deck": 6,
            "jokers_per_deck": 0,
            "jokers_per_player": 0,
            "jokers_extra": 0,
        }
    ),
    ranks_may_be_wild=False,
    ace=False,
    runs_of_one_suit=False,
    wording=PHASE_10_WORDING,
)

DECKS: Mapping[str, Deck] = MappingProxyType({deck.slug: deck for deck in (STANDARD, PHASE_10)})
"""Every deck, by the slug the option ``deck`` names it with."""


def deck_named(slug: object) -> Deck | None:
    """The deck ``slug`` names (``"standard"``, ``"phase-10"``, any case), or None."""
    if not isinstance(slug, str):
        return None
    return DECKS.get(slug.strip().lower().replace("_", "-").replace(" ", "-"))
