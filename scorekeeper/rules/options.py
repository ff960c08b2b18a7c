"""Every option of a rule set for people: its name, what it does, and its value in words
(``describe_options``), for the rules pages and the house-rules editor. All of it messages
(``messages.py``): a page puts them into its own language. A new option needs its entry in
``_OPTION_TEXT`` (and its choices' words in ``CHOICE_WORDS``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .decks import DECKS, STANDARD, Deck
from .messages import N_, Message, N_plural, Value
from .parts import (
    ACES,
    CONTRACT_ORDERS,
    FREED_WILD,
    GOING_OUT,
    LIBERATION_BEFORE_CONTRACT,
    LIBERATION_FROM,
    LIBERATIONS,
    PHASES_PLAYED,
    SKIP_TARGETS,
    SPACINGS,
    TIE_BREAKS,
    WINNERS,
)
from .ruleset import OPTION_KEYS, RuleSet, RulesLike, get_ruleset, option_value
from .sources import Source

__all__ = ["CHOICE_WORDS", "OptionInfo", "describe_options", "option_label"]


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """One option of a rule set, for the rules pages and the house-rules editor.

    ``value`` is as in ``RuleSet.to_dict()``; ``kind`` says how to edit it
    (``"text"``, ``"bool"``, ``"int"``, ``"optional_int"``, ``"choice"``,
    ``"contracts"``, ``"card_values"``, ``"wild_ranks"``, ``"cards_dealt"``,
    ``"may_i"``, ``"wild_spacing"``, ``"packs"``, ``"phases_played"``); ``choices`` for a
    choice (and the named values of ``phases_played``).
    """

    key: str
    label: Message
    value: Any
    kind: str
    choices: tuple[str, ...]
    help: Message
    source: Source
    described: str = ""


_OPTION_TEXT: dict[str, tuple[Message, str, tuple[str, ...], Message]] = {
    "slug": (N_("Short name"), "text", (), N_("The name the app files these rules under.")),
    "name": (N_("Name"), "text", (), N_("The name shown for these rules.")),
    "deck": (
        N_("Deck"),
        "choice",
        tuple(DECKS),
        N_(
            "Which cards the game is played with: standard cards, or a Phase 10 deck. The card "
            "notation, the card values, the copies of each card and every ruling follow it."
        ),
    ),
    "contracts": (
        N_("Contracts"),
        "contracts",
        (),
        N_("The melds each contract asks for, in the order they are played."),
    ),
    "contract_order": (
        N_("Which contract a player works on"),
        "choice",
        CONTRACT_ORDERS,
        N_(
            "own: each player keeps their contract until they make it; round: round N plays "
            "contract N for everyone."
        ),
    ),
    "phases_played": (
        N_("Which contracts are played"),
        "phases_played",
        PHASES_PLAYED,
        N_(
            "all: every contract in order; even: 2, 4, 6 and so on; odd: 1, 3, 5 and so on; or "
            "a list of contract numbers in order (1, 2, 3, 4, 5). Each keeps its number; a "
            "player starts on the first and moves to the next in the list, and the last in the "
            "list is the last contract."
        ),
    ),
    "hands": (
        N_("Rounds in a game"),
        "optional_int",
        (),
        N_(
            "The game ends after this many rounds, whoever has made what (empty: it ends as "
            "the contracts and who wins say)."
        ),
    ),
    "winner": (
        N_("Who wins"),
        "choice",
        WINNERS,
        N_(
            "last contract: whoever makes the last contract first; lowest total: the lowest "
            "score when the game ends; most contracts: whoever has made the most contracts "
            "when the game ends (tied: the lowest total; still tied: the tie-break)."
        ),
    ),
    "tie_break": (
        N_("Tie-break"),
        "choice",
        TIE_BREAKS,
        N_(
            "lowest total: of those tied, the lowest score wins (still tied: they share); "
            "share: tied players share the win; most rounds won: of those tied, whoever went "
            "out in the most rounds wins (still tied: they share); replay: of those tied, the "
            "lowest score wins, and still tied they alone play one more round on the last "
            "contract, the first of them to go out winning."
        ),
    ),
    "min_players": (N_("Fewest players"), "int", (), N_("The fewest players a game may have.")),
    "max_players": (
        N_("Most players"),
        "optional_int",
        (),
        N_("The most players a game may have (empty: no limit)."),
    ),
    "packs": (
        N_("Packs"),
        "packs",
        (),
        N_("How many decks and jokers the game uses for its players."),
    ),
    "cards_dealt": (
        N_("Cards dealt"),
        "cards_dealt",
        (),
        N_("How many cards each player is dealt: one number, or one per round."),
    ),
    "nobody_out_allowed": (
        N_("A round may end with nobody out"),
        "bool",
        (),
        N_(
            "When the stock runs out, the round ends and everyone scores what they hold "
            "(otherwise the discards are reshuffled)."
        ),
    ),
    "may_i": (
        N_('"May I"'),
        "may_i",
        (),
        N_(
            "Taking the discard out of turn: whether it is allowed, how often, and how many "
            "extra cards it costs."
        ),
    ),
    "card_values": (
        N_("Card values"),
        "card_values",
        (),
        N_("What each card left in hand counts at the end of a round."),
    ),
    "wild_ranks": (
        N_("Wild ranks"),
        "wild_ranks",
        (),
        N_("The ranks that are wild, besides the jokers."),
    ),
    "wild_as_itself": (
        N_("A wild card in its own place is real"),
        "bool",
        (),
        N_(
            "A card of a wild rank in its own place in a run of its own suit (A♥ 2♥ 3♥) may "
            "be read as itself."
        ),
    ),
    "wild_spacing": (
        N_("Wild card spacing"),
        "wild_spacing",
        SPACINGS,
        N_("free: wild cards may sit side by side; not adjacent: two wild cards never touch."),
    ),
    "min_real_cards": (
        N_("Real cards a meld needs"),
        "int",
        (),
        N_(
            "How many cards that are not wild every meld must hold (0: a meld of wild cards "
            "only is allowed)."
        ),
    ),
    "wilds_at_most_naturals": (
        N_("Never more wild cards than real ones"),
        "bool",
        (),
        N_("A meld never holds more wild cards than real ones (8-8-*-* yes, 8-*-* no)."),
    ),
    "max_wilds_per_meld": (
        N_("Most wild cards in one meld"),
        "optional_int",
        (),
        N_("The most wild cards one meld holds as it goes down (empty: no limit)."),
    ),
    "max_wilds_per_laydown": (
        N_("Most wild cards in one lay-down"),
        "optional_int",
        (),
        N_("The most wild cards in all the melds of one contract (empty: no limit)."),
    ),
    "wild_limits_on_layoff": (
        N_("Wild card limits hold when laying off"),
        "bool",
        (),
        N_("Whether the three limits above still hold on a meld that grows by laying off."),
    ),
    "pair_all_real": (
        N_("A pair is all real cards"),
        "bool",
        (),
        N_(
            "Where a contract asks for a pair (of aces), both cards must be real: no wild card "
            "may stand for one."
        ),
    ),
    "min_set": (N_("Smallest set"), "int", (), N_("The fewest cards in a set.")),
    "min_run": (N_("Shortest run"), "int", (), N_("The fewest cards in a run.")),
    "aces": (
        N_("Aces in runs"),
        "choice",
        ACES,
        N_(
            "Whether an ace may go below the 2 (A-2-3-4), above the king (J-Q-K-A), or either; "
            "never both in one run."
        ),
    ),
    "runs_may_wrap": (
        N_("Runs may turn the corner"),
        "bool",
        (),
        N_(
            "A run may turn the corner (Q-K-A-2), the ace between the king and the 2; each "
            "rank once, so 13 cards at most."
        ),
    ),
    "same_suit_runs_may_continue": (
        N_("Runs of one suit may continue each other"),
        "bool",
        (),
        N_("Whether two runs of one suit in one lay-down may touch (K-Q-J-10 and 9-8-7-6)."),
    ),
    "extra_melds": (
        N_("Extra melds with a contract"),
        "bool",
        (),
        N_("Whether a lay-down may hold more melds than the contract asks."),
    ),
    "exact_meld_sizes": (
        N_("Melds exactly as long as asked"),
        "bool",
        (),
        N_(
            "A contract's melds go down exactly as long as asked (a contract laid down while "
            "going out excepted)."
        ),
    ),
    "same_rank_sets_allowed": (
        N_("Two sets of one rank"),
        "bool",
        (),
        N_("Whether one lay-down may hold two sets of one rank."),
    ),
    "layoff_on_contract_turn": (
        N_("Laying off on the turn you lay down"),
        "bool",
        (),
        N_(
            "Whether you may lay off on the very turn you lay your contract down, or only from "
            "a later turn."
        ),
    ),
    "liberation": (
        N_("Liberating a wild card"),
        "choice",
        LIBERATIONS,
        N_(
            "Putting down the real card a wild stands for and taking the wild: off, on others' "
            "melds only, or on any meld."
        ),
    ),
    "liberation_from": (
        N_("Liberating from which melds"),
        "choice",
        LIBERATION_FROM,
        N_(
            "Which melds a wild card may be liberated from: any meld, or runs only (in a set "
            "a wild card stands for no one card)."
        ),
    ),
    "liberation_before_contract": (
        N_("Liberating before your contract"),
        "choice",
        LIBERATION_BEFORE_CONTRACT,
        N_(
            "Whether a player whose contract is not made may liberate: yes; if going down: "
            "only on the turn they make it; no."
        ),
    ),
    "freed_wild": (
        N_("A freed wild card is played"),
        "choice",
        FREED_WILD,
        N_(
            "When a liberated wild card must be played: at once, in the same round, or kept: "
            "it joins the hand, with no duty to play it."
        ),
    ),
    "going_out": (
        N_("Going out"),
        "choice",
        GOING_OUT,
        N_(
            "discard: by discarding the last card; play: by playing the last cards onto the "
            "table, never by a discard; either: by discarding the last card or by playing it "
            "onto the table."
        ),
    ),
    "skip_target": (
        N_("Who loses a turn to a Skip"),
        "choice",
        SKIP_TARGETS,
        N_(
            "any: the player who discards a Skip names another player, who loses their next "
            "turn; next: the next player in turn loses it. Only a Phase 10 deck has Skips."
        ),
    ),
    "discard_after_contract": (
        N_("Taking the discard once your contract is made"),
        "bool",
        (),
        N_(
            "Whether a player whose contract is made may still take the discard, on their "
            'turn or by "May I".'
        ),
    ),
    "down_and_out_bonus": (
        N_("Going down and out in one turn"),
        "int",
        (),
        N_(
            "Points for making the contract and going out on the same turn (0: no bonus; "
            "-10 takes 10 points off)."
        ),
    ),
}

# The choice options' values in words (the rule set keeps them as these short codes).
CHOICE_WORDS: dict[str, Message] = {
    "high or low": N_("high or low"),
    "low": N_("low"),
    "high": N_("high"),
    "free": N_("free"),
    "not adjacent": N_("not adjacent"),
    "own": N_("own"),
    "round": N_("round"),
    "last contract": N_("last contract"),
    "lowest total": N_("lowest total"),
    "share": N_("share"),
    "off": N_("off"),
    "others": N_("others"),
    "any": N_("any"),
    "next": N_("next"),
    "either": N_("either"),
    "at once": N_("at once"),
    "same round": N_("same round"),
    "discard": N_("discard"),
    "play": N_("play"),
    "most rounds won": N_("most rounds won"),
    "most contracts": N_("most contracts"),
    "replay": N_("replay"),
    "all": N_("all"),
    "even": N_("even"),
    "odd": N_("odd"),
    "kept": N_("kept"),
    "any meld": N_("any meld"),
    "runs": N_("runs"),
    "yes": N_("yes"),
    "if going down": N_("if going down"),
    "no": N_("no"),
}


def _described(rules: RuleSet, key: str) -> str:
    if key == "contracts":
        described: Message | None = None
        for contract in reversed(rules.contracts):
            one = N_("%(number)s: %(contract)s", number=contract.number, contract=contract.summary)
            described = (
                one if described is None else N_("%(first)s; %(rest)s", first=one, rest=described)
            )
        return described or ""
    if key == "deck":
        return rules.deck.name
    if key == "packs":
        return rules.pack_rule.describe(rules.max_players, rules.deck)
    if key == "may_i":
        return rules.may_i.describe(rules.deck)
    if key == "card_values":
        return _joined(
            [
                N_(
                    "%(card)s %(points)s",
                    card=_SPECIAL_WORDS.get(card, card),
                    points=value,
                )
                for card, value in rules.card_values
            ]
        )
    if key == "wild_ranks":
        return _joined([N_("jokers"), *(rank.plural for rank in rules.wild_ranks)])
    if key == "phases_played":
        if isinstance(rules.phases_played, tuple):
            return _joined(list(map(str, rules.phases_played)))
        return CHOICE_WORDS[rules.phases_played.value]
    if key == "hands" and rules.hands is None:
        return N_("as the phases say") if rules.deck.wording.phases else N_("as the contracts say")
    if key == "wild_spacing":
        return N_(
            "in a set: %(set)s; in a run: %(run)s",
            set=CHOICE_WORDS[rules.wild_spacing.set],
            run=CHOICE_WORDS[rules.wild_spacing.run],
        )
    if key == "cards_dealt":
        if isinstance(rules.dealt, int):
            return N_plural("%(num)s card", "%(num)s cards", num=rules.dealt)
        return _joined(
            [
                N_("round %(round)s: %(cards)s", round=number, cards=dealt)
                for number, dealt in enumerate(rules.dealt, start=1)
            ]
        )
    value = option_value(rules, key)
    if isinstance(value, bool):
        return N_("yes") if value else N_("no")
    if value is None:
        return N_("no limit")
    if isinstance(value, str) and value in CHOICE_WORDS and key in _CHOICE_KEYS:
        return rules.deck.wording.choices.get(value, CHOICE_WORDS[value])
    return value if isinstance(value, str) else str(value)


# The special cards' keys of card_values in words (a rank's or a number's key is itself).
_SPECIAL_WORDS: dict[str, Message] = {"joker": N_("joker"), "wild": N_("Wild"), "skip": N_("Skip")}

_CHOICE_KEYS = (
    "contract_order",
    "winner",
    "tie_break",
    "aces",
    "liberation",
    "liberation_from",
    "liberation_before_contract",
    "freed_wild",
    "going_out",
    "skip_target",
)


def _joined(items: list[Value]) -> Message:
    """Messages for a sentence, the last after "and": ``"jokers and 2s"``."""
    if len(items) == 1:
        return items[0] if isinstance(items[0], Message) else N_("%(text)s", text=items[0])
    return N_("%(items)s and %(last)s", items=tuple(items[:-1]), last=items[-1])


def _words(key: str, deck: Deck) -> tuple[Message, Message]:
    """The option's name and help in the words of ``deck``'s games (Phase 10's say phase and
    hit where the others say contract and lay off)."""
    label, _kind, _choices, help_text = _OPTION_TEXT[key]
    return deck.wording.options.get(key, (label, help_text))


def option_label(key: str, deck: Deck = STANDARD) -> Message:
    """An option's name in the referee's words ("A pair is all real cards"), not its key, as
    the games of ``deck`` say it."""
    return _words(key, deck)[0]


def describe_options(rules: RulesLike) -> list[OptionInfo]:
    """Every option of ``rules`` with its label, value, how to edit it, help and source, in the
    words of its deck's games."""
    rules = get_ruleset(rules)
    return [
        OptionInfo(
            key=key,
            label=_words(key, rules.deck)[0],
            value=option_value(rules, key),
            kind=_OPTION_TEXT[key][1],
            choices=_OPTION_TEXT[key][2],
            help=_words(key, rules.deck)[1],
            source=rules.source(key),
            described=_described(rules, key),
        )
        for key in OPTION_KEYS
    ]
