"""How the rules page groups a rule set's options, and the tables it derives from the rule set."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel.speaklater import LazyString

from ..rules import PHASE_10, STANDARD, Deck, RuleSet, Source
from ..text import lazy_gettext as _l

Section = tuple[str, LazyString, tuple[str, ...]]

# Every option of a rule set, in the page's sections ("slug" is the app's filing name only).
SECTIONS: tuple[Section, ...] = (
    (
        "contracts",
        _l("Contracts"),
        ("contracts", "contract_order", "phases_played", "hands", "winner", "tie_break"),
    ),
    ("scoring", _l("Scoring the cards left in hand"), ("card_values", "down_and_out_bonus")),
    (
        "packs",
        _l("Packs and deal"),
        ("deck", "min_players", "max_players", "packs", "cards_dealt", "nobody_out_allowed"),
    ),
    (
        "wild",
        _l("Wild cards"),
        (
            "wild_ranks",
            "wild_as_itself",
            "wild_spacing",
            "min_real_cards",
            "pair_all_real",
            "wilds_at_most_naturals",
            "max_wilds_per_meld",
            "max_wilds_per_laydown",
            "wild_limits_on_layoff",
        ),
    ),
    (
        "melds",
        _l("Melds"),
        (
            "min_set",
            "min_run",
            "aces",
            "runs_may_wrap",
            "same_suit_runs_may_continue",
            "extra_melds",
            "exact_meld_sizes",
            "same_rank_sets_allowed",
            "layoff_on_contract_turn",
        ),
    ),
    (
        "special",
        _l("Special rules"),
        (
            "liberation",
            "liberation_from",
            "liberation_before_contract",
            "freed_wild",
            "may_i",
            "discard_after_contract",
            "going_out",
            "skip_target",
        ),
    ),
)
# The options only one deck's cards can mean (phase-10.md, "The deck"): a standard deck's
# aces, wild ranks and suits, which a Phase 10 rule set keeps at rules.md's defaults, and the
# Skip, which only a Phase 10 deck has. The editor and the rules page show them only for that
# deck (the editor keeps their values in hidden inputs).
DECK_ONLY: dict[str, str] = {
    **dict.fromkeys(
        (
            "aces",
            "wild_ranks",
            "wild_as_itself",
            "pair_all_real",
            "same_suit_runs_may_continue",
        ),
        STANDARD.slug,
    ),
    "skip_target": PHASE_10.slug,
}


# The sections' titles where a deck's games call a contract a phase (Phase 10's).
PHASE_TITLES: dict[str, LazyString] = {"contracts": _l("Phases")}


def sections_for(deck: Deck) -> tuple[Section, ...]:
    """The page's sections, titled in the words of ``deck``'s games."""
    if not deck.wording.phases:
        return SECTIONS
    return tuple((slug, PHASE_TITLES.get(slug, title), keys) for slug, title, keys in SECTIONS)


def applies(key: str, deck: Deck) -> bool:
    """Whether the option ``key`` means anything on ``deck`` (the packs' jokers: where the
    deck's games may add jokers at all)."""
    if key.startswith("packs-jokers"):
        return deck.has_jokers
    only = DECK_ONLY.get(key)
    return only is None or only == deck.slug


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
        if source is not None and source.publications:
            # A published game's pages, each once, rather than each option's list of them.
            for title in source.publications:
                seen.setdefault(title, Source(source.document, title, publications=(title,)))
        elif source is not None and source.document and source.title not in seen:
            seen[source.title] = source
    return list(seen.values())


# The values of the choice options in words (the rule set stores them as short codes).
VALUE_WORDS: dict[str, dict[str, LazyString]] = {
    "deck": {
        "standard": _l("Standard cards (52 a deck, with jokers as the rules say)"),
        "phase-10": _l("Phase 10 cards (1 to 12 in four colours, 8 Wilds, 4 Skips)"),
    },
    "phases_played": {
        "all": _l("Every contract, in order"),
        "even": _l("The even contracts only (2, 4, 6 and so on), each keeping its number"),
        "odd": _l("The odd contracts only (1, 3, 5 and so on), each keeping its number"),
    },
    "contract_order": {
        "own": _l("Each player works on their own contract, kept until made"),
        "round": _l("Round N plays contract N, for everyone"),
    },
    "winner": {
        "last contract": _l("Whoever makes the last contract"),
        "lowest total": _l("The lowest total when the game ends"),
        "most contracts": _l(
            "Whoever has made the most contracts when the game ends; tied, the lowest total; "
            "still tied, the tie-break"
        ),
    },
    "tie_break": {
        "lowest total": _l("The lowest total wins; still tied, they share the win"),
        "share": _l("Tied players share the win"),
        "replay": _l(
            "The lowest total wins; still tied, the tied players alone play one more round on "
            "the last contract, and the first of them to go out wins"
        ),
        "most rounds won": _l(
            "Of the tied players, whoever went out in the most rounds wins; still tied, they "
            "share the win"
        ),
    },
    "aces": {
        "high or low": _l("High or low (A-2-3-4 and J-Q-K-A), never both in one run"),
        "low": _l("Low only (A-2-3-4)"),
        "high": _l("High only (J-Q-K-A)"),
    },
    "liberation": {
        "off": _l("Not allowed"),
        "others": _l("Only on another player's meld"),
        "any": _l("On any meld, your own too"),
    },
    "freed_wild": {
        "at once": _l("The freed wild card must be played at once"),
        "same round": _l("The freed wild card must be played in the same round"),
        "kept": _l("The freed wild card joins the hand, with no duty to play it"),
    },
    "liberation_from": {
        "any meld": _l("From any meld"),
        "runs": _l("From runs only: in a set a wild card stands for no one card"),
    },
    "liberation_before_contract": {
        "yes": _l("Yes: a player whose contract is not made may liberate a wild card too"),
        "if going down": _l("Only on the turn you make your contract"),
        "no": _l("No: only once your contract is made"),
    },
    "going_out": {
        "discard": _l("By discarding the last card"),
        "play": _l("By playing the last cards onto the table, never by a discard"),
        "either": _l("By discarding the last card or by playing it onto the table"),
    },
    "skip_target": {
        "any": _l("A player the discarder names, never themselves, loses their next turn"),
        "next": _l("The next player in turn loses their next turn"),
    },
    "spacing": {
        "free": _l("may sit side by side"),
        "not adjacent": _l("never side by side"),
    },
}

# The same values in the words of a deck whose games call a contract a phase (Phase 10's).
PHASE_VALUE_WORDS: dict[str, dict[str, LazyString]] = VALUE_WORDS | {
    "phases_played": {
        "all": _l("Every phase, in order"),
        "even": _l("The even phases only (2, 4, 6 and so on), each keeping its number"),
        "odd": _l("The odd phases only (1, 3, 5 and so on), each keeping its number"),
    },
    "contract_order": {
        "own": _l("Each player works on their own phase, kept until made"),
        "round": _l("Round N plays phase N, for everyone"),
    },
    "winner": VALUE_WORDS["winner"]
    | {
        "last contract": _l("Whoever makes the last phase"),
        "most contracts": _l(
            "Whoever has made the most phases when the game ends; tied, the lowest total; "
            "still tied, the tie-break"
        ),
    },
    "tie_break": VALUE_WORDS["tie_break"]
    | {
        "replay": _l(
            "The lowest total wins; still tied, the tied players alone play one more round on "
            "the last phase, and the first of them to go out wins"
        ),
    },
    "liberation_before_contract": {
        "yes": _l("Yes: a player whose phase is not made may liberate a wild card too"),
        "if going down": _l("Only on the turn you make your phase"),
        "no": _l("No: only once your phase is made"),
    },
}


def value_words_for(deck: Deck) -> dict[str, dict[str, LazyString]]:
    """The choice options' values in the words of ``deck``'s games."""
    return PHASE_VALUE_WORDS if deck.wording.phases else VALUE_WORDS
