"""The presets as data: each one's option values, and where each value comes from.

A preset is the rules as one family's document (``shared/seeds/``) writes them, with the
default of ``shared/spec/rules.md`` where the document is silent. ``ruleset.get_ruleset``
reads these into a ``RuleSet``; nothing here knows the types. The four published games
(``published.py``) follow the five family games.
"""

from __future__ import annotations

from typing import Any

from .messages import N_, N_plural
from .phase_ten import PHASE_10_DATA, PHASE_10_SLUG, PHASE_10_SOURCES
from .published import PUBLISHED, PUBLISHED_DATA, PUBLISHED_SOURCES
from .sources import DEFAULT, DOCUMENTS, Source

__all__ = ["OWN_WORDS", "PRESETS", "PRESET_DATA", "PRESET_SOURCES"]

# Games whose families word some things their own way, by preset: the name of their words,
# which each language's glossary may give (``translations/<code>/glossary.toml``, its
# ``[game.<name>]``: Chile's Carioca says "escala" for a run, Spain's Continental "robar de
# contra" for a May I). House rules made from one of them speak its words. A deck may have words
# of its own too (by its slug: Phase 10's sheet says "grupo" for a set, never "trío"), which any
# game on that deck speaks.
OWN_WORDS: dict[str, str] = {
    "carioca": "carioca",
    "continental": "continental",
    "phase-10": "phase-10",
}

PRESETS: tuple[str, ...] = (
    "twelve-step",
    "russian-rummy",
    "dummy-rummy",
    "bellevue",
    "contract-rummy",
    *PUBLISHED,
    PHASE_10_SLUG,
)
"""The preset slugs, in the order the app lists them: the five family games, the four
published ones, then Phase 10 (on its own deck)."""


def _twelve_contracts() -> list[Any]:
    s3, s4, s5, s8 = ({"kind": "set", "size": n} for n in (3, 4, 5, 8))
    r4, r5, r7, r10 = ({"kind": "run", "size": n} for n in (4, 5, 7, 10))
    return [
        [s3, s3],
        [s3, r4],
        [s4, s4],
        [r4, r4],
        [s3, s3, s3],
        [s4, r4],
        [s3, r7],
        [s3, s3, r4],
        [s5, s5],
        [r5, r5],
        [s8],
        [r10],
    ]


def _contracts_data(lists: list[Any], going_out_last: bool = False) -> list[dict[str, Any]]:
    return [
        {"melds": melds, "going_out_only": going_out_last and number == len(lists)}
        for number, melds in enumerate(lists, start=1)
    ]


def _values(joker: int, two: int, ace: int, ten: int, low: int | None) -> dict[str, int]:
    values = {"joker": joker, "A": ace, "2": two}
    for number in range(3, 10):
        values[str(number)] = number if low is None else low
    values.update({"10": ten, "J": 10, "Q": 10, "K": 10})
    return values


_S3 = {"kind": "set", "size": 3}
_R4 = {"kind": "run", "size": 4}

_TWELVE: dict[str, Any] = {
    "slug": "twelve-step",
    "name": "12-Step Rummy",
    "contracts": _contracts_data(_twelve_contracts()),
    "contract_order": "own",
    "winner": "last contract",
    "tie_break": "lowest total",
    "min_players": 2,
    "max_players": None,
    "packs": {
        "decks": 2,
        "decks_up_to_players": 5,
        "players_per_extra_deck": 2,
        "jokers_per_deck": 2,
        "jokers_per_player": 0,
        "jokers_extra": 0,
    },
    "cards_dealt": 13,
    "nobody_out_allowed": False,
    "may_i": {"allowed": True, "limit": None, "extra_cards": 1, "discard": False},
    "card_values": _values(joker=50, two=50, ace=20, ten=10, low=5),
    "wild_ranks": ["2"],
    "wild_as_itself": True,
    "wild_spacing": {"set": "free", "run": "not adjacent"},
    "min_real_cards": 1,
    "pair_all_real": False,
    "min_set": 3,
    "min_run": 4,
    "aces": "high or low",
    "same_suit_runs_may_continue": True,
    "extra_melds": False,
    "layoff_on_contract_turn": True,
    "liberation": "others",
    "freed_wild": "at once",
    "going_out": "discard",
}

PRESET_DATA: dict[str, dict[str, Any]] = {
    "twelve-step": _TWELVE,
    "russian-rummy": _TWELVE
    | {"slug": "russian-rummy", "name": "Russian Rummy", "freed_wild": "same round"},
    "dummy-rummy": _TWELVE
    | {
        "slug": "dummy-rummy",
        # A game's own name stays as it is; the words after it are translated.
        "name": N_(
            "%(game)s (%(base)s contracts, one per round)", game="Dummy Rummy", base="12-Step"
        ),
        "contract_order": "round",
        "winner": "lowest total",
        "tie_break": "share",
    },
    "bellevue": {
        "slug": "bellevue",
        "name": N_plural(
            "%(game)s, %(family)s family rules (%(num)s contract)",
            "%(game)s, %(family)s family rules (%(num)s contracts)",
            num=10,
            game="Contract Rummy",
            family="Bellevue",
        ),
        "contracts": _contracts_data(
            [
                [{"kind": "pair", "size": 2, "rank": "A"}, _S3],
                [_S3, _S3],
                [_S3, _R4],
                [_R4, _R4],
                [_S3, _S3, _S3],
                [_S3, _S3, _R4],
                [_S3, _R4, _R4],
                [{"kind": "run", "size": 5}, {"kind": "run", "size": 6}],
                [_S3, {"kind": "run", "size": 7}],
                [_R4, _R4, _R4],
            ],
            going_out_last=True,
        ),
        "contract_order": "round",
        "winner": "lowest total",
        "tie_break": "share",
        "min_players": 2,
        "max_players": None,
        "packs": {
            "decks": 2,
            "decks_up_to_players": 4,
            "players_per_extra_deck": 2,
            "jokers_per_deck": 2,
            "jokers_per_player": 0,
            "jokers_extra": 0,
        },
        "cards_dealt": 11,
        "nobody_out_allowed": False,
        "may_i": {"allowed": True, "limit": 3, "extra_cards": 2, "discard": False},
        "card_values": _values(joker=50, two=20, ace=15, ten=5, low=5),
        "wild_ranks": ["2"],
        "wild_as_itself": True,
        "wild_spacing": {"set": "not adjacent", "run": "not adjacent"},
        "min_real_cards": 1,
        "pair_all_real": False,
        "min_set": 3,
        "min_run": 4,
        "aces": "high or low",
        "same_suit_runs_may_continue": False,
        "extra_melds": False,
        "layoff_on_contract_turn": True,
        "liberation": "off",
        "freed_wild": "at once",
        "going_out": "play",
    },
    "contract-rummy": {
        "slug": "contract-rummy",
        "name": N_plural(
            "%(game)s (%(num)s deal)", "%(game)s (%(num)s deals)", num=7, game="Contract Rummy"
        ),
        "contracts": _contracts_data(
            [
                [_S3, _S3],
                [_S3, {"kind": "set", "size": 4}],
                [_R4, _R4],
                [_S3, _S3, _S3],
                [_S3, _S3, _R4],
                [_S3, _R4, _R4],
                [_R4, _R4, _R4],
            ],
            going_out_last=True,
        ),
        "contract_order": "round",
        "winner": "lowest total",
        "tie_break": "share",
        "min_players": 2,
        "max_players": 5,
        "packs": {
            "decks": 2,
            "decks_up_to_players": 5,
            "players_per_extra_deck": 0,
            "jokers_per_deck": 0,
            "jokers_per_player": 1,
            "jokers_extra": -1,
        },
        "cards_dealt": [10, 10, 10, 12, 12, 12, 12],
        "nobody_out_allowed": True,
        "may_i": {"allowed": True, "limit": None, "extra_cards": 1, "discard": False},
        "card_values": _values(joker=15, two=2, ace=15, ten=10, low=None),
        "wild_ranks": [],
        "wild_as_itself": True,
        "wild_spacing": {"set": "free", "run": "free"},
        "min_real_cards": 1,
        "pair_all_real": False,
        "min_set": 3,
        "min_run": 4,
        "aces": "high or low",
        "same_suit_runs_may_continue": True,
        "extra_melds": False,
        "layoff_on_contract_turn": False,
        "liberation": "any",
        "freed_wild": "at once",
        "going_out": "discard",
    },
}


def _q(key: str, quote: str) -> Source:
    return DOCUMENTS[key].quoting(quote)


_TWELVE_SOURCES: dict[str, Source] = {
    "slug": DEFAULT,
    "name": _q("000", "12-Step Rummy"),
    "contracts": _q("000", "Contracts: 1 2 sets of 3 … 12 1 run of 10"),
    "contract_order": _q(
        "000",
        "if a player does not complete the basic contract in one round, they must continue "
        "to work on that contract in the next round",
    ),
    "winner": _q(
        "000",
        "To be the first player to complete all twelve combinations or contracts. In the case "
        "of two players completing the 12th contract in the same round, the one with the "
        "least points wins.",
    ),
    "tie_break": _q(
        "000",
        "the accumulated score of all rounds leading up to that point is used as a tie breaker",
    ),
    "min_players": _q("000", "For a game with 2 to 5 players use 2 standard decks"),
    "max_players": _q("000", "Add another deck and its jokers for each 2 additional players."),
    "packs": _q(
        "000",
        "For a game with 2 to 5 players use 2 standard decks plus jokers (108 cards total). "
        "Add another deck and its jokers for each 2 additional players.",
    ),
    "cards_dealt": _q("000", "Deal 13 cards to each player"),
    "nobody_out_allowed": _q(
        "000",
        "If the stockpile runs out before play has finished, take all of the cards in the "
        "discard pile except for the top one, shuffle them and start a new stockpile.",
    ),
    "may_i": _q(
        "000",
        "The Buy or May I? step of Contract Rummy may be eliminated from this game if desired.",
    ),
    "card_values": _q(
        "000",
        "Wild card 50 points; Ace 20 points; Face cards 10 points; 3 to 9 5 points "
        "(a ten is counted with the face cards, since 3 to 9 count 5)",
    ),
    "wild_ranks": _q("000", "Deuces and jokers are wild cards."),
    "wild_as_itself": DEFAULT,
    "wild_spacing": _q(
        "000",
        "In a set wild cards may be placed side by side, but in a run they must be separated "
        "by a 'real' card.",
    ),
    "min_real_cards": DEFAULT,
    "pair_all_real": DEFAULT,
    "min_set": _q("001", "2 x 3 of a kind"),
    "min_run": _q("001", "2 runs of 4"),
    "aces": _q(
        "000",
        "Aces may be counted as high or low in runs (i.e., A-2-3-4 and J-Q-K-A are both "
        "legal combinations).",
    ),
    "same_suit_runs_may_continue": DEFAULT,
    "extra_melds": DEFAULT,
    "layoff_on_contract_turn": _q(
        "000",
        "A player may lay off cards on their own or another player's melds only after they "
        "have fulfilled their own contract, but they do not need to wait until the following "
        "turn to do so.",
    ),
    "liberation": _q(
        "000",
        "One player may 'liberate' another's wild card by replacing it with the card it "
        "represents. Players are not allowed to liberate their own wild cards",
    ),
    "freed_wild": _q(
        "000", "the wild card can not be kept in their hand and must be played immediately"
    ),
    "going_out": _q("001", "The round continues until one player discards her last card."),
    "melds": _q("001", "Sequences or runs must be in the same suit."),
    "lay_off": _q(
        "000",
        "A player may lay off cards on their own or another player's melds only after they "
        "have fulfilled their own contract, but they do not need to wait until the following "
        "turn to do so.",
    ),
}


def _russian_sources() -> dict[str, Source]:
    sources = {
        key: (DOCUMENTS["002"].quoting(source.quote) if source.document else source)
        for key, source in _TWELVE_SOURCES.items()
    }
    sources.update(
        {
            "name": _q("002", "Russian Rummy"),
            "contract_order": _q(
                "002",
                "If he does not make the contract in a given round, he must continue working "
                "on it in subsequent rounds until it is made",
            ),
            "freed_wild": _q(
                "002", "the wild card must be played in the round that it was picked up"
            ),
            "aces": _q("002", "Aces may be counted as high or low A-2-3 or Q-K-A."),
            "card_values": _q(
                "002", "Wildcard (Joker) 50; Ace 20; Facecard 10; 3-9 5 (a ten counts 10)"
            ),
            "may_i": DEFAULT,
            "layoff_on_contract_turn": DEFAULT,
            "lay_off": _q(
                "002",
                "Once a player has made his contract, he may also lay down cards on another "
                "player's tableau.",
            ),
        }
    )
    return sources


_DUMMY_SOURCES = _TWELVE_SOURCES | {
    "name": DOCUMENTS["dummy"].quoting("Dummy Rummy"),
    "contract_order": DOCUMENTS["dummy"].quoting(
        "the requirement to complete a contract before moving on to the next doesn't exist. "
        "In this version of the game the contracts are based on the round number"
    ),
    "winner": DEFAULT,
    "tie_break": DEFAULT,
}

_BELLEVUE_SOURCES: dict[str, Source] = {
    "slug": DEFAULT,
    "name": _q("003", "Rules for (our special version of) Contract Rummy"),
    "contracts": _q("003", "1) One pair of aces and three of a kind. … 10) Three runs of four"),
    "contract_order": _q("003", "Contracts 1) … 10)"),
    "winner": DEFAULT,
    "tie_break": DEFAULT,
    "min_players": _q("003", "Use 2 decks of cards for 2, 3, or 4 players"),
    "max_players": _q("003", "4 decks for 7 or 8 players, etc."),
    "packs": _q(
        "003",
        "Use 2 decks of cards for 2, 3, or 4 players, 3 decks for 5 or 6 players, 4 decks for "
        "7 or 8 players, etc. (Keep the 2 jokers in each deck.)",
    ),
    "cards_dealt": _q("003", "11 cards are dealt to each player."),
    "nobody_out_allowed": _q(
        "003",
        "In the event that the stockpile is exhausted, shuffle the discard pile (except the "
        "top card) to create a new stockpile.",
    ),
    "may_i": _q(
        "003",
        "This player adds the card to hir hand (but cannot discard one card, as in usual "
        'play) and picks up two additional cards … Only three "May I"s are permitted per '
        "person per contract",
    ),
    "card_values": _q(
        "003", "Points: Joker = 50, deuce = 20, aces = 15, face cards = 10, other cards = 5."
    ),
    "wild_ranks": _q("003", "The jokers and deuces are wild cards."),
    "wild_as_itself": DEFAULT,
    "wild_spacing": _q(
        "003",
        "Wild cards (deuces or jokers) must alternate with natural cards in sets or runs (i.e. "
        "one can't have two wild cards in a row). A wild card can be used at either end of "
        "each set or run.",
    ),
    "min_real_cards": DEFAULT,
    "pair_all_real": _q(
        "003", "1) One pair of aces and three of a kind. … The jokers and deuces are wild cards."
    ),
    "min_set": _q("003", "three of a kind"),
    "min_run": _q("003", "a run of four"),
    "aces": _q(
        "003",
        "Aces are used at either end of a run (ace, king, queen, jack etc.) or (ace, 2, "
        "3, 4 etc.).",
    ),
    "same_suit_runs_may_continue": _q(
        "003",
        "Runs of 4 or more cards in a suit must omit a continuing card: K, Q, J, 10 - 8, 7, 6, 5.",
    ),
    "extra_melds": DEFAULT,
    "layoff_on_contract_turn": _q(
        "003", "Extra cards can be laid down with each initial contract."
    ),
    "liberation": DEFAULT,
    "freed_wild": DEFAULT,
    "going_out": _q(
        "003",
        "A player must go out playing hir last cards on exposed cards on the table only, "
        "except for the 10th contract. In Contract 10, one must go out while laying down "
        "one's contract.",
    ),
    "melds": _q("003", "three of a kind … a run of four"),
    "lay_off": _q("003", "Extra cards can be laid down with each initial contract."),
}

_CONTRACT_RUMMY_SOURCES: dict[str, Source] = {
    "slug": DEFAULT,
    "name": _q("004", "Contract Rummy Rules"),
    "contracts": _q("004", "1. 2 groups of 3s … 7. 3 sequences of 4 and no discard"),
    "contract_order": _q(
        "004", "Every round you are allowed to put down a different set of cards."
    ),
    "winner": _q(
        "004", "At the end of all 7 rounds the person with the least amount of points wins."
    ),
    "tie_break": DEFAULT,
    "min_players": DEFAULT,
    "max_players": _q("004", "can be played with 5 or less people"),
    "packs": _q(
        "004",
        "You need 2 decks of cards, with the jokers included. The number of jokers you have in "
        "the deck is 1 less than the number of players.",
    ),
    "cards_dealt": _q(
        "004",
        "During the first 3 rounds everyone gets dealt 10 cards. During the last 4 rounds "
        "everyone gets dealt 12 cards.",
    ),
    "nobody_out_allowed": _q(
        "004", "If you run out of cards with no one going out everyone gets points."
    ),
    "may_i": _q(
        "004",
        "they can draw the card from the discard pile, but must draw 1 card from the deck as a "
        "penalty. … Once they finish another player may ask",
    ),
    "card_values": _q(
        "004",
        "For 2-10 points are face value. For J-K you get 10 points. For Ace's and Jokers you "
        "get 15 points.",
    ),
    "wild_ranks": _q("004", "Jokers are wild; you can use them in place of any card."),
    "wild_as_itself": DEFAULT,
    "wild_spacing": _q("004", "Jokers are wild; you can use them in place of any card."),
    "min_real_cards": DEFAULT,
    "pair_all_real": DEFAULT,
    "min_set": _q("004", "2 groups of 3s (ex 3,3,3 and 8,8,8)"),
    "min_run": _q("004", "2 Sequences of 4 (ex 2,3,4,5 of the same suit …)"),
    "aces": DEFAULT,
    "same_suit_runs_may_continue": DEFAULT,
    "extra_melds": DEFAULT,
    "layoff_on_contract_turn": _q(
        "004",
        "If you don't have the right cards to lie down, but have put cards down on another "
        "turn you can lay off of something else.",
    ),
    "liberation": _q(
        "004",
        "if a player has played a Joker for a card they didn't have, and you have it. You may "
        "replace it with that card and take the joker yourself.",
    ),
    "freed_wild": _q("004", "you must play the Joker immediately if you do this."),
    "going_out": _q("004", "7. 3 sequences of 4 and no discard"),
    "melds": _q("004", "2,3,4,5 of the same suit"),
    "lay_off": _q(
        "004",
        "If you don't have the right cards to lie down, but have put cards down on another "
        "turn you can lay off of something else.",
    ),
}

PRESET_SOURCES: dict[str, dict[str, Source]] = {
    "twelve-step": _TWELVE_SOURCES,
    "russian-rummy": _russian_sources(),
    "dummy-rummy": _DUMMY_SOURCES,
    "bellevue": _BELLEVUE_SOURCES,
    "contract-rummy": _CONTRACT_RUMMY_SOURCES,
}

# The options the published games brought (shared/spec/more-games.md), at the values that
# leave every ruling of the five family games as it was; their documents are silent on them.
_FAMILY_DEFAULTS: dict[str, Any] = {
    "runs_may_wrap": False,
    "wilds_at_most_naturals": False,
    "max_wilds_per_meld": None,
    "max_wilds_per_laydown": None,
    "wild_limits_on_layoff": True,
    "exact_meld_sizes": False,
    "same_rank_sets_allowed": True,
    "liberation_from": "any meld",
    "liberation_before_contract": "yes",
    "discard_after_contract": True,
    "down_and_out_bonus": 0,
}
for _slug in tuple(PRESET_DATA):
    PRESET_DATA[_slug] = PRESET_DATA[_slug] | _FAMILY_DEFAULTS
    PRESET_DATA[_slug]["may_i"] = PRESET_DATA[_slug]["may_i"] | {"limit_per": "contract"}
    PRESET_SOURCES[_slug] = {key: DEFAULT for key in _FAMILY_DEFAULTS} | PRESET_SOURCES[_slug]
PRESET_DATA.update(PUBLISHED_DATA)
PRESET_SOURCES.update(PUBLISHED_SOURCES)
# Every game so far is played with standard cards: what the packs' sentence says of the decks
# is where the deck comes from.
for _slug in tuple(PRESET_DATA):
    PRESET_DATA[_slug] = {"deck": "standard"} | PRESET_DATA[_slug]
    PRESET_SOURCES[_slug] = {"deck": PRESET_SOURCES[_slug]["packs"]} | PRESET_SOURCES[_slug]
    # A standard deck has no Skip: the option is unused there, at the value of rules.md.
    PRESET_DATA[_slug] = PRESET_DATA[_slug] | {"skip_target": "any"}
    PRESET_SOURCES[_slug] = PRESET_SOURCES[_slug] | {"skip_target": DEFAULT}
    # Every contract, and no fixed number of hands: the game ends as its contracts say.
    PRESET_DATA[_slug] = PRESET_DATA[_slug] | {"phases_played": "all", "hands": None}
    PRESET_SOURCES[_slug] = PRESET_SOURCES[_slug] | {"phases_played": DEFAULT, "hands": DEFAULT}
PRESET_DATA[PHASE_10_SLUG] = PHASE_10_DATA
PRESET_SOURCES[PHASE_10_SLUG] = PHASE_10_SOURCES
