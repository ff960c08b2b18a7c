"""How the rules page groups a rule set's options, and the tables it derives from the rule set."""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import RuleSet, Source

# Every option of a rule set, in the page's sections ("slug" is the app's filing name only).
SECTIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("contracts", "Contracts", ("contracts", "contract_order", "winner", "tie_break")),
    ("scoring", "Scoring the cards left in hand", ("card_values",)),
    (
        "packs",
        "Packs and deal",
        ("min_players", "max_players", "packs", "cards_dealt", "nobody_out_allowed"),
    ),
    (
        "wild",
        "Wild cards",
        ("wild_ranks", "wild_as_itself", "wild_spacing", "min_real_cards", "pair_all_real"),
    ),
    (
        "melds",
        "Melds",
        (
            "min_set",
            "min_run",
            "aces",
            "same_suit_runs_may_continue",
            "extra_melds",
            "layoff_on_contract_turn",
        ),
    ),
    ("special", "Special rules", ("liberation", "freed_wild", "may_i", "going_out")),
)
# Players counts the packs table shows.
PACKS_FOR = range(2, 9)


@dataclass(frozen=True)
class PacksRow:
    players: int
    decks: int
    jokers: int
    cards: int


def packs_table(ruleset: RuleSet) -> list[PacksRow]:
    """Decks and jokers for each number of players the rules allow (up to 8)."""
    highest = min(ruleset.max_players or max(PACKS_FOR), max(PACKS_FOR))
    rows = []
    for players in range(max(ruleset.min_players, 2), highest + 1):
        packs = ruleset.packs(players)
        rows.append(PacksRow(players, packs.decks, packs.jokers, packs.total))
    return rows


def sources_of(ruleset: RuleSet) -> list[Source]:
    """The family documents the rule set cites, each once, in the order first cited."""
    seen: dict[str, Source] = {}
    for key in ("name", *ruleset.sources):
        source = ruleset.sources.get(key)
        if source is not None and source.document and source.title not in seen:
            seen[source.title] = source
    return list(seen.values())


# The values of the choice options in words (the rule set stores them as short codes).
VALUE_WORDS: dict[str, dict[str, str]] = {
    "contract_order": {
        "own": "Each player works on their own contract, kept until made",
        "round": "Round N plays contract N, for everyone",
    },
    "winner": {
        "last contract": "Whoever makes the last contract",
        "lowest total": "The lowest total when the game ends",
    },
    "tie_break": {
        "lowest total": "The lowest total wins; still tied, they share the win",
        "share": "Tied players share the win",
    },
    "aces": {
        "high or low": "High or low (A-2-3-4 and J-Q-K-A), never both in one run",
        "low": "Low only (A-2-3-4)",
        "high": "High only (J-Q-K-A)",
    },
    "liberation": {
        "off": "Not allowed",
        "others": "Only on another player's meld",
        "any": "On any meld, your own too",
    },
    "freed_wild": {
        "at once": "The freed wild card must be played at once",
        "same round": "The freed wild card must be played in the same round",
    },
    "going_out": {
        "discard": "By discarding the last card",
        "play": "By playing the last cards onto the table, never by a discard",
    },
    "spacing": {
        "free": "may sit side by side",
        "not adjacent": "never side by side",
    },
}
