"""The rules engine for the Contract Rummy family: 12-Step, Russian, Dummy and Contract Rummy.

The game's words, as this package uses them:

meld
    Cards laid face up on the table together: a set, a run, or (where a
    contract asks for one) a pair.
set
    Cards of one rank, suits free (``5♠ 5♦ 5♣``); with several decks the same
    card may appear twice.
run
    Consecutive cards of one suit (``4♦ 5♦ 6♦ 7♦``); an ace is high or low,
    never both, and a run never turns the corner.
wild card
    A joker, or a card of a wild rank (2s in most presets); it stands for any
    card a meld needs. A 2 in its own place in a run of its suit may be read as
    itself.
contract
    The melds a player must lay down together, all at once, to make the
    round's (or their own) contract: "two sets of 3", "a set of 3 and a run of 7".
lay-off
    Adding cards to a meld already on the table, yours or another player's,
    once your own contract is made.
liberation
    Putting down the real card a wild card stands for in a meld on the table,
    and taking the wild card (which must then be played).
going out
    Getting rid of the last card, which ends the round; the others score what
    they still hold.
deck
    The cards a rule set is played with (option ``deck``, ``decks.py``): the standard 52
    and their jokers, or a Phase 10 deck (1 to 12 in four colours, Wilds and Skips), where
    a rank is a "number", a suit a "colour", a run's colours are free and cards of one colour
    are a meld of their own (``MeldKind.COLOR``). The notation, the copy check, the card
    values and the rulings' words follow it; a new deck is a ``Deck`` value.

Everything here is pure Python (no web, no database). The app uses only the
names exported below: ``parse_cards``/``format_cards`` for the card notation (in the
deck of the rules given: ``parse_cards("7R 12g W", rules)``; ``RuleSet.deck`` says which),
``get_ruleset`` for a preset or house rules, the ``check_*`` rulings,
``find_contract`` and ``cards_short`` for a hand (``SearchBudgetExceeded`` when a hand
is too much to decide), and ``score_cards``.

Words in any language
    The engine speaks no language: every sentence a person reads leaves it as a ``Message``
    (``messages.py``), a message id and its values whose ``str`` is the English sentence, so
    ``str(reason)`` reads as it always did. A ruling's reasons carry theirs as
    ``reason.message`` (the source, ``reason.source``, shown beside it); an option's
    ``label``, ``help`` and ``described``, a contract's ``description`` and ``summary``, a
    preset's ``name`` (its game's own name kept, the words after it translated), a source's
    ``title`` and ``label``, ``Packs.overflow``'s lines, and the errors' ``message``
    (``CardError``, ``ContractNumberError``, ``SearchBudgetExceeded``; a ``RuleSetError``'s
    ``problems``) are all messages. The web app puts them into the page's language
    (``scorekeeper.words``).

    New options, presets and sentences are written the same way: ``N_("a run of %(suit)s",
    suit=suit.plural)``, ``N_plural("%(num)s card", "%(num)s cards", num=n)``; always literal
    text (``pybabel extract -k N_ -k N_plural:1,2`` reads it from the code, and a test fails on
    anything else), whole sentences with named values, cards as notation, and a word that
    changes with the language (a suit, a rank, a count word) as a message of its own. A new
    option needs its ``_OPTION_TEXT`` entry (label and help) in ``options.py``, its choices'
    words in ``CHOICE_WORDS``; a new document its ``DOCUMENTS`` entry in ``sources.py`` (quotes
    stay in the document's language). Then the Spanish catalogue is updated
    (``docs/translating.md``).
"""

from __future__ import annotations

from .cards import (
    JOKER,
    SKIP,
    WILD,
    Card,
    CardError,
    Colour,
    Number,
    Rank,
    Special,
    Suit,
    format_cards,
)
from .contracts import Contract, MeldKind, MeldRequirement
from .decks import DECKS, PHASE_10, STANDARD, Deck
from .laydown import check_contract
from .melds import Meld, Placed
from .messages import N_, Message, N_plural
from .moves import check_layoff, check_liberation
from .options import CHOICE_WORDS, OptionInfo, describe_options
from .parts import PHASES_PLAYED
from .referee import Ruling, check_meld
from .ruleset import (
    OPTION_KEYS,
    PRESETS,
    Aces,
    ContractNumberError,
    ContractOrder,
    FreedWild,
    GoingOut,
    Liberation,
    LiberationBeforeContract,
    LiberationFrom,
    LimitPer,
    MayI,
    OptionProblem,
    PackRule,
    Packs,
    RuleSet,
    RuleSetError,
    Spacing,
    TieBreak,
    UnknownRulesError,
    WildSpacing,
    Winner,
    deck_words,
    get_ruleset,
    own_words,
    parse_cards,
)
from .scoring import score_cards
from .search import SearchBudgetExceeded, SearchNotYet, cards_short, find_contract
from .sources import Reason, Source

__all__ = [
    "CHOICE_WORDS",
    "DECKS",
    "JOKER",
    "N_",
    "OPTION_KEYS",
    "PHASES_PLAYED",
    "PHASE_10",
    "PRESETS",
    "SKIP",
    "STANDARD",
    "WILD",
    "Aces",
    "Card",
    "CardError",
    "Colour",
    "Contract",
    "ContractNumberError",
    "ContractOrder",
    "Deck",
    "FreedWild",
    "GoingOut",
    "Liberation",
    "LiberationBeforeContract",
    "LiberationFrom",
    "LimitPer",
    "MayI",
    "Meld",
    "MeldKind",
    "MeldRequirement",
    "Message",
    "N_plural",
    "Number",
    "OptionInfo",
    "OptionProblem",
    "PackRule",
    "Packs",
    "Placed",
    "Rank",
    "Reason",
    "RuleSet",
    "RuleSetError",
    "Ruling",
    "SearchBudgetExceeded",
    "SearchNotYet",
    "Source",
    "Spacing",
    "Special",
    "Suit",
    "TieBreak",
    "UnknownRulesError",
    "WildSpacing",
    "Winner",
    "cards_short",
    "check_contract",
    "check_layoff",
    "check_liberation",
    "check_meld",
    "deck_words",
    "describe_options",
    "find_contract",
    "format_cards",
    "get_ruleset",
    "own_words",
    "parse_cards",
    "score_cards",
]
