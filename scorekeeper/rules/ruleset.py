"""Rule sets: the types of a game's rules, and how options are read and checked.

A rule set is a value: every choice a family can make is an option with a
value and a source (a seed document, or the default a silent document takes).
Code asks the rule set; it never asks which preset it is. The presets' data
is in ``presets``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .cards import AnyRank, Card, Rank
from .cards import parse_cards as parse_standard_cards
from .contracts import Contract, MeldKind
from .decks import DECKS, STANDARD, Deck, deck_named
from .messages import N_, Message
from .parts import (
    Aces,
    ContractOrder,
    FreedWild,
    GoingOut,
    Liberation,
    LiberationBeforeContract,
    LiberationFrom,
    LimitPer,
    MayI,
    PackRule,
    Packs,
    PhasesPlayed,
    SkipTarget,
    Spacing,
    TieBreak,
    WildSpacing,
    Winner,
)
from .presets import OWN_WORDS, PRESET_DATA, PRESET_SOURCES, PRESETS
from .reading import OptionProblem, Reader
from .sources import HOUSE, Source

__all__ = [
    "PRESETS",
    "Aces",
    "ContractNumberError",
    "ContractOrder",
    "FreedWild",
    "GoingOut",
    "Liberation",
    "LiberationBeforeContract",
    "LiberationFrom",
    "LimitPer",
    "MayI",
    "OptionProblem",
    "PackRule",
    "Packs",
    "PhasesPlayed",
    "RuleSet",
    "RuleSetError",
    "RulesLike",
    "SkipTarget",
    "Spacing",
    "TieBreak",
    "UnknownRulesError",
    "WildSpacing",
    "Winner",
    "deck_words",
    "get_ruleset",
    "option_value",
]


class RuleSetError(ValueError):
    """House rules that cannot be read; ``problems`` lists every bad option.

    ``option`` and ``value`` are those of the first problem.
    """

    def __init__(self, problems: Iterable[OptionProblem]) -> None:
        self.problems = tuple(problems)
        first = self.problems[0]
        self.option = first.option
        self.value = first.value
        super().__init__("; ".join(problem.message for problem in self.problems))


class UnknownRulesError(RuleSetError):
    """A rule set slug that is none of the presets."""

    def __init__(self, slug: object) -> None:
        problem = N_(
            "%(slug)s is not a rule set: choose one of %(choices)s",
            slug=repr(slug),
            choices=tuple(PRESETS),
        )
        super().__init__([OptionProblem("base", slug, problem, problem)])


class ContractNumberError(ValueError):
    """A contract number the rule set does not have; ``message`` says so, in the words of the
    rule set's deck's games (a phase in Phase 10's)."""

    def __init__(self, number: object, count: int, deck: Deck = STANDARD) -> None:
        self.message = deck.wording.no_such_contract(repr(number), count)
        super().__init__(str(self.message))
        self.number = number


@dataclass(frozen=True)
class RuleSet:
    """A game's rules: every option's value (``==`` compares them) and its source.

    Build one with ``get_ruleset``; ``to_dict`` gives the data it reads back.
    """

    slug: str
    name: str
    base: str
    contracts: tuple[Contract, ...]
    contract_order: ContractOrder
    winner: Winner
    tie_break: TieBreak
    min_players: int
    max_players: int | None
    pack_rule: PackRule
    dealt: int | tuple[int, ...]
    nobody_out_allowed: bool
    may_i: MayI
    card_values: tuple[tuple[str, int], ...]
    wild_ranks: tuple[Rank, ...]
    wild_as_itself: bool
    wild_spacing: WildSpacing
    min_real_cards: int
    pair_all_real: bool
    min_set: int
    min_run: int
    aces: Aces
    same_suit_runs_may_continue: bool
    extra_melds: bool
    layoff_on_contract_turn: bool
    liberation: Liberation
    freed_wild: FreedWild
    going_out: GoingOut
    skip_target: SkipTarget
    runs_may_wrap: bool
    wilds_at_most_naturals: bool
    max_wilds_per_meld: int | None
    max_wilds_per_laydown: int | None
    wild_limits_on_layoff: bool
    exact_meld_sizes: bool
    same_rank_sets_allowed: bool
    liberation_from: LiberationFrom
    liberation_before_contract: LiberationBeforeContract
    discard_after_contract: bool
    down_and_out_bonus: int
    deck: Deck = STANDARD
    phases_played: PhasesPlayed | tuple[int, ...] = PhasesPlayed.ALL
    hands: int | None = None
    sources: Mapping[str, Source] = field(
        compare=False, repr=False, hash=False, default_factory=dict
    )

    def contract(self, number: int) -> Contract:
        """Contract ``number`` (from 1); raises ContractNumberError if there is none."""
        if isinstance(number, bool) or not isinstance(number, int):
            raise ContractNumberError(number, len(self.contracts), self.deck)
        if not 1 <= number <= len(self.contracts):
            raise ContractNumberError(number, len(self.contracts), self.deck)
        return self.contracts[number - 1]

    @cached_property
    def phases(self) -> tuple[int, ...]:
        """The numbers of the contracts the game plays, in order (``phases_played``): every
        contract, the even ones, the odd ones, or the house's list."""
        numbers = range(1, len(self.contracts) + 1)
        if self.phases_played is PhasesPlayed.EVEN:
            return tuple(number for number in numbers if number % 2 == 0)
        if self.phases_played is PhasesPlayed.ODD:
            return tuple(number for number in numbers if number % 2 == 1)
        if isinstance(self.phases_played, tuple):
            return self.phases_played
        return tuple(numbers)

    @property
    def last_contract(self) -> int:
        """The number of the last contract played (the last of ``phases``)."""
        return self.phases[-1]

    def contract_after(self, made: int) -> int:
        """The contract a player works on who has made ``made`` of the contracts played (their
        own, kept until made): the next in ``phases``, the last once all are made."""
        return self.phases[min(made, len(self.phases) - 1)]

    def contract_of_round(self, number: int) -> int:
        """The contract round ``number`` plays where the round sets it: the ``number``-th of
        ``phases``, the last for every round past them."""
        return self.phases[min(number, len(self.phases)) - 1]

    @property
    def keeps_contracts(self) -> bool:
        """Whether each player keeps their own contract until they make it (rather than
        round N playing contract N for everyone)."""
        return self.contract_order is ContractOrder.OWN

    @property
    def rounds_in_game(self) -> int | None:
        """How many rounds a game lasts: one per contract when the round sets the contract;
        None when each player keeps their own (the game ends after the round in which
        someone makes the last contract). A number of ``hands`` is how many rounds, whatever
        the contracts."""
        if self.hands is not None:
            return self.hands
        return len(self.phases) if self.contract_order is ContractOrder.ROUND else None

    @property
    def game_end(self) -> Message:
        """When the game ends, in words."""
        rounds = self.rounds_in_game
        if rounds is not None:
            return N_("after round %(round)s", round=rounds)
        return self.deck.wording.game_end(self.last_contract)

    @property
    def has_bonus(self) -> bool:
        """Whether going down and out on one turn scores a bonus (``down_and_out_bonus``)."""
        return self.down_and_out_bonus != 0

    def packs(self, players: int) -> Packs:
        """The decks and jokers for ``players`` players; ValueError below one player."""
        if isinstance(players, bool) or not isinstance(players, int) or players < 1:
            raise ValueError(f"{players!r} is not a number of players")
        return self.pack_rule.for_players(players, self.deck)

    def cards_dealt(self, round_number: int) -> int:
        """How many cards each player is dealt in round ``round_number`` (from 1).

        With a list per round, rounds past its end deal as its last entry.
        """
        if isinstance(round_number, bool) or not isinstance(round_number, int):
            raise ValueError(f"{round_number!r} is not a round number")
        if round_number < 1:
            raise ValueError(f"{round_number!r} is not a round number (rounds start at 1)")
        if isinstance(self.dealt, int):
            return self.dealt
        return self.dealt[min(round_number, len(self.dealt)) - 1]

    def card_points(self, card: Card) -> int:
        """What ``card`` counts when left in hand at the end of a round."""
        special = card.special
        if special is not None:
            return self.values_by_key[special.key]
        assert card.rank is not None
        return self.values_by_key[card.rank.symbol]

    @cached_property
    def values_by_key(self) -> dict[str, int]:
        """The card values by key, the deck's cards (``"joker"``, ``"A"``, ``"2"`` … ``"K"``;
        ``"1"`` … ``"12"``, ``"wild"``, ``"skip"``)."""
        return dict(self.card_values)

    @cached_property
    def wild_rank_list(self) -> tuple[Rank, ...]:
        """The ranks that are wild in this rule set's deck: ``wild_ranks``, where the deck's
        ranks may be wild at all (in a Phase 10 deck only the Wilds are wild)."""
        return self.wild_ranks if self.deck.ranks_may_be_wild else ()

    @cached_property
    def window_cache(self) -> dict[int, tuple[tuple[int, int], ...]]:
        """The run windows of each length, as ``melds.windows`` works them out (kept here:
        a rule set never changes)."""
        return {}

    @cached_property
    def smallest_color_group(self) -> int | None:
        """The fewest cards of one colour that make a meld outside a contract: the smallest
        group of one colour the contracts ask for (7 in Phase 10); None where none asks for
        one (then cards of one colour are no meld)."""
        sizes = [
            requirement.size
            for contract in self.contracts
            for requirement in contract.melds
            if requirement.kind is MeldKind.COLOR
        ]
        return min(sizes) if sizes else None

    def is_wild(self, card: Card) -> bool:
        """True for a joker (a Wild) and for a card of a wild rank."""
        if card.rank is None:
            return card.special is None or card.special.wild
        return card.rank in self.wild_rank_list

    def is_wild_rank(self, rank: AnyRank) -> bool:
        """True when cards of ``rank`` are wild."""
        return rank in self.wild_rank_list

    def real_cards_needed(self, kind: MeldKind, size: int) -> int:
        """The fewest cards that are not wild a meld of ``kind`` and ``size`` cards holds:
        ``min_real_cards``, or all of a pair's where the house asks for real cards
        (``pair_all_real``)."""
        if kind is MeldKind.PAIR and self.pair_all_real:
            return max(size, self.min_real_cards)
        return self.min_real_cards

    def source(self, option: str) -> Source:
        """Where ``option`` comes from; KeyError for an option that does not exist."""
        if option not in self.sources:
            raise KeyError(option)
        return self.sources[option]

    def to_dict(self) -> dict[str, Any]:
        """Every option as JSON-ready data, with ``"base"``; ``get_ruleset`` reads it back."""
        return {"base": self.base, **{key: _OPTION_OUT[key](self) for key in OPTION_KEYS}}

    def __repr__(self) -> str:
        return f"<RuleSet {self.slug!r} ({self.name})>"


RulesLike = RuleSet | str | Mapping[str, Any]
"""Rules as the functions take them: a RuleSet, a preset slug, or house rules data."""


def _merge(base: Any, override: Any) -> Any:
    if isinstance(base, Mapping) and isinstance(override, Mapping):
        return {**base, **override}
    return override


def _build(data: Mapping[str, Any], base: str, sources: Mapping[str, Source]) -> RuleSet:
    """A RuleSet from full option data; RuleSetError lists every problem."""
    read = Reader()
    deck = deck_named(data["deck"])
    if deck is None:
        read.fail(
            "deck",
            data["deck"],
            N_(
                "%(value)s is not one of %(choices)s",
                value=repr(data["deck"]),
                choices=tuple(repr(slug) for slug in DECKS),
            ),
        )
        deck = STANDARD
    contracts = read.contracts(data["contracts"])
    min_players = read.integer("min_players", data["min_players"], 1, 100)
    max_players: int | None = None
    if data["max_players"] is not None:
        max_players = read.integer("max_players", data["max_players"], 1, 100)
        if max_players < min_players:
            read.fail(
                "max_players",
                max_players,
                N_(
                    "%(value)s is fewer than the fewest players (%(fewest)s)",
                    value=repr(max_players),
                    fewest=min_players,
                ),
            )
    packs = read.mapping("packs", data["packs"], _PACK_KEYS)
    pack_rule = PackRule(
        decks=read.integer("packs.decks", packs.get("decks"), 1, 20),
        decks_up_to_players=read.integer(
            "packs.decks_up_to_players", packs.get("decks_up_to_players"), 1, 100
        ),
        players_per_extra_deck=read.integer(
            "packs.players_per_extra_deck", packs.get("players_per_extra_deck"), 0, 100
        ),
        jokers_per_deck=read.integer("packs.jokers_per_deck", packs.get("jokers_per_deck"), 0, 8),
        jokers_per_player=read.integer(
            "packs.jokers_per_player", packs.get("jokers_per_player"), 0, 8
        ),
        jokers_extra=read.integer("packs.jokers_extra", packs.get("jokers_extra"), -20, 20),
    )
    dealt_data = data["cards_dealt"]
    dealt: int | tuple[int, ...]
    if isinstance(dealt_data, list | tuple):
        if not dealt_data:
            read.fail(
                "cards_dealt",
                dealt_data,
                N_(
                    "%(value)s is an empty list (give at least one round)",
                    value=repr(dealt_data),
                ),
            )
        dealt = tuple(
            read.integer(f"cards_dealt[{index}]", value, 1, 40)
            for index, value in enumerate(dealt_data, start=1)
        ) or (1,)
    else:
        dealt = read.integer("cards_dealt", dealt_data, 1, 40)
    may_i_data = read.mapping(
        "may_i", data["may_i"], ("allowed", "limit", "extra_cards", "discard", "limit_per")
    )
    limit = may_i_data.get("limit")
    may_i = MayI(
        allowed=read.boolean("may_i.allowed", may_i_data.get("allowed")),
        limit=None if limit is None else read.integer("may_i.limit", limit, 1, 100),
        extra_cards=read.integer("may_i.extra_cards", may_i_data.get("extra_cards"), 0, 10),
        discard=read.boolean("may_i.discard", may_i_data.get("discard")),
        limit_per=read.option("may_i.limit_per", may_i_data.get("limit_per", "contract"), LimitPer),
    )
    aliases = deck.value_aliases
    values_data = read.mapping("card_values", data["card_values"], (*deck.value_keys, *aliases))
    values: dict[str, int] = {}
    for key, value in values_data.items():
        canonical = aliases.get(key, key)
        values[canonical] = read.integer(f"card_values.{canonical}", value, -1000, 1000)
    for key in deck.value_keys:
        if key not in values:
            read.fail(
                "card_values",
                key,
                N_(
                    "%(value)s has no value (every rank and the joker need one)",
                    value=repr(key),
                )
                if deck.has_jokers
                else N_(
                    "%(value)s has no value (every card of the deck needs one)",
                    value=repr(key),
                ),
            )
            values[key] = 0
    if not deck.has_jokers:
        for key in ("jokers_per_deck", "jokers_per_player", "jokers_extra"):
            if packs.get(key):
                read.fail(
                    f"packs.{key}",
                    packs[key],
                    N_("%(value)s jokers: this deck has no jokers", value=repr(packs[key])),
                )
    wild_data = data["wild_ranks"]
    wild_ranks: list[Rank] = []
    if not isinstance(wild_data, list | tuple):
        read.fail(
            "wild_ranks",
            wild_data,
            N_('%(value)s is not a list of ranks (like ["2"])', value=repr(wild_data)),
        )
    else:
        for item in wild_data:
            rank = read.rank("wild_ranks", item)
            if rank is not None and rank not in wild_ranks:
                wild_ranks.append(rank)
    spacing_data = read.mapping("wild_spacing", data["wild_spacing"], ("set", "run"))
    spacing = WildSpacing(
        set=read.option("wild_spacing.set", spacing_data.get("set"), Spacing),
        run=read.option("wild_spacing.run", spacing_data.get("run"), Spacing),
    )
    for contract in contracts:
        for requirement in contract.melds:
            if requirement.rank is not None and requirement.rank in wild_ranks:
                read.fail(
                    f"contracts[{contract.number}]",
                    requirement.rank.symbol,
                    N_(
                        "%(value)s asks for a meld of a wild rank, which no hand can make",
                        value=repr(requirement.rank.symbol),
                    ),
                )
    phases_played = _phases_played(read, data["phases_played"], len(contracts), deck)
    rules = RuleSet(
        slug=read.text("slug", data["slug"]),
        name=read.text("name", data["name"]),
        base=base,
        contracts=contracts,
        contract_order=read.option("contract_order", data["contract_order"], ContractOrder),
        winner=read.option("winner", data["winner"], Winner),
        tie_break=read.option("tie_break", data["tie_break"], TieBreak),
        min_players=min_players,
        max_players=max_players,
        pack_rule=pack_rule,
        dealt=dealt,
        nobody_out_allowed=read.boolean("nobody_out_allowed", data["nobody_out_allowed"]),
        may_i=may_i,
        card_values=tuple((key, values[key]) for key in deck.value_keys),
        wild_ranks=tuple(sorted(wild_ranks)),
        wild_as_itself=read.boolean("wild_as_itself", data["wild_as_itself"]),
        wild_spacing=spacing,
        min_real_cards=read.integer("min_real_cards", data["min_real_cards"], 0, 10),
        pair_all_real=read.boolean("pair_all_real", data["pair_all_real"]),
        min_set=read.integer("min_set", data["min_set"], 2, 20),
        min_run=read.integer("min_run", data["min_run"], 2, 13),
        aces=read.option("aces", data["aces"], Aces),
        same_suit_runs_may_continue=read.boolean(
            "same_suit_runs_may_continue", data["same_suit_runs_may_continue"]
        ),
        extra_melds=read.boolean("extra_melds", data["extra_melds"]),
        layoff_on_contract_turn=read.boolean(
            "layoff_on_contract_turn", data["layoff_on_contract_turn"]
        ),
        liberation=read.option("liberation", data["liberation"], Liberation),
        freed_wild=read.option("freed_wild", data["freed_wild"], FreedWild),
        going_out=read.option("going_out", data["going_out"], GoingOut),
        skip_target=read.option("skip_target", data["skip_target"], SkipTarget),
        runs_may_wrap=read.boolean("runs_may_wrap", data["runs_may_wrap"]),
        wilds_at_most_naturals=read.boolean(
            "wilds_at_most_naturals", data["wilds_at_most_naturals"]
        ),
        max_wilds_per_meld=read.optional_integer(
            "max_wilds_per_meld", data["max_wilds_per_meld"], 0, 40
        ),
        max_wilds_per_laydown=read.optional_integer(
            "max_wilds_per_laydown", data["max_wilds_per_laydown"], 0, 40
        ),
        wild_limits_on_layoff=read.boolean("wild_limits_on_layoff", data["wild_limits_on_layoff"]),
        exact_meld_sizes=read.boolean("exact_meld_sizes", data["exact_meld_sizes"]),
        same_rank_sets_allowed=read.boolean(
            "same_rank_sets_allowed", data["same_rank_sets_allowed"]
        ),
        liberation_from=read.option("liberation_from", data["liberation_from"], LiberationFrom),
        liberation_before_contract=read.option(
            "liberation_before_contract",
            data["liberation_before_contract"],
            LiberationBeforeContract,
        ),
        discard_after_contract=read.boolean(
            "discard_after_contract", data["discard_after_contract"]
        ),
        down_and_out_bonus=read.integer(
            "down_and_out_bonus", data["down_and_out_bonus"], -1000, 1000
        ),
        deck=deck,
        phases_played=phases_played,
        hands=read.optional_integer("hands", data["hands"], 1, 100),
        sources=dict(sources),
    )
    if read.problems:
        raise RuleSetError(read.problems)
    return rules


def _phases_played(
    read: Reader, value: object, count: int, deck: Deck
) -> PhasesPlayed | tuple[int, ...]:
    """``phases_played`` read: all, even, odd, or a list of contract numbers in order (each of
    the ``count`` contracts at most once); a problem where it leaves no contract to play, in
    the words of ``deck``'s games."""
    if isinstance(value, list | tuple):
        numbers: list[int] = []
        for index, item in enumerate(value, start=1):
            number = read.integer(f"phases_played[{index}]", item, 1, count)
            if numbers and number <= numbers[-1]:
                read.fail(
                    "phases_played",
                    list(value),
                    deck.wording.played_out_of_order(repr(list(value))),
                )
                break
            numbers.append(number)
        if not value:
            read.fail(
                "phases_played",
                value,
                deck.wording.played_none_listed(repr(value)),
            )
        return tuple(numbers) or (count,)
    named = read.option("phases_played", value, PhasesPlayed)
    if named is PhasesPlayed.EVEN and count < 2:
        read.fail(
            "phases_played",
            value,
            deck.wording.played_none_left(repr(value)),
        )
        return PhasesPlayed.ALL
    return named


_PACK_KEYS = (
    "decks",
    "decks_up_to_players",
    "players_per_extra_deck",
    "jokers_per_deck",
    "jokers_per_player",
    "jokers_extra",
)

_OPTION_OUT: dict[str, Any] = {
    "slug": lambda r: r.slug,
    "name": lambda r: r.name,
    "deck": lambda r: r.deck.slug,
    "contracts": lambda r: [contract.to_dict() for contract in r.contracts],
    "contract_order": lambda r: r.contract_order.value,
    "phases_played": lambda r: (
        list(r.phases_played) if isinstance(r.phases_played, tuple) else r.phases_played.value
    ),
    "hands": lambda r: r.hands,
    "winner": lambda r: r.winner.value,
    "tie_break": lambda r: r.tie_break.value,
    "min_players": lambda r: r.min_players,
    "max_players": lambda r: r.max_players,
    "packs": lambda r: r.pack_rule.to_dict(),
    "cards_dealt": lambda r: r.dealt if isinstance(r.dealt, int) else list(r.dealt),
    "nobody_out_allowed": lambda r: r.nobody_out_allowed,
    "may_i": lambda r: r.may_i.to_dict(),
    "card_values": lambda r: dict(r.card_values),
    "wild_ranks": lambda r: [rank.symbol for rank in r.wild_ranks],
    "wild_as_itself": lambda r: r.wild_as_itself,
    "wild_spacing": lambda r: r.wild_spacing.to_dict(),
    "min_real_cards": lambda r: r.min_real_cards,
    "wilds_at_most_naturals": lambda r: r.wilds_at_most_naturals,
    "max_wilds_per_meld": lambda r: r.max_wilds_per_meld,
    "max_wilds_per_laydown": lambda r: r.max_wilds_per_laydown,
    "wild_limits_on_layoff": lambda r: r.wild_limits_on_layoff,
    "pair_all_real": lambda r: r.pair_all_real,
    "min_set": lambda r: r.min_set,
    "min_run": lambda r: r.min_run,
    "aces": lambda r: r.aces.value,
    "runs_may_wrap": lambda r: r.runs_may_wrap,
    "same_suit_runs_may_continue": lambda r: r.same_suit_runs_may_continue,
    "extra_melds": lambda r: r.extra_melds,
    "exact_meld_sizes": lambda r: r.exact_meld_sizes,
    "same_rank_sets_allowed": lambda r: r.same_rank_sets_allowed,
    "layoff_on_contract_turn": lambda r: r.layoff_on_contract_turn,
    "liberation": lambda r: r.liberation.value,
    "liberation_from": lambda r: r.liberation_from.value,
    "liberation_before_contract": lambda r: r.liberation_before_contract.value,
    "freed_wild": lambda r: r.freed_wild.value,
    "going_out": lambda r: r.going_out.value,
    "skip_target": lambda r: r.skip_target.value,
    "discard_after_contract": lambda r: r.discard_after_contract,
    "down_and_out_bonus": lambda r: r.down_and_out_bonus,
}

OPTION_KEYS: tuple[str, ...] = tuple(_OPTION_OUT)
"""Every option of a rule set, in the order the rules pages show them."""


def option_value(rules: RuleSet, key: str) -> Any:
    """The value of option ``key`` as ``RuleSet.to_dict()`` gives it."""
    return _OPTION_OUT[key](rules)


_PRESETS_BUILT: dict[str, RuleSet] = {}


def _preset(slug: str) -> RuleSet:
    if slug not in _PRESETS_BUILT:
        _PRESETS_BUILT[slug] = _build(PRESET_DATA[slug], slug, PRESET_SOURCES[slug])
    return _PRESETS_BUILT[slug]


def get_ruleset(rules: RulesLike) -> RuleSet:
    """The rule set named by a preset slug, or house rules ``{"base": slug, option: value, …}``.

    House rules change any option of their base preset (a table option such as
    ``may_i`` may give only the settings it changes); options they change take
    the source "your house rules". ``"slug"`` and ``"name"`` default to the
    base's. Raises UnknownRulesError for an unknown slug and RuleSetError
    listing every bad option.
    """
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        slug = rules.strip().lower()
        if slug not in PRESETS:
            raise UnknownRulesError(rules)
        return _preset(slug)
    if not isinstance(rules, Mapping):
        raise UnknownRulesError(rules)
    base = rules.get("base")
    if not isinstance(base, str) or base.strip().lower() not in PRESETS:
        raise UnknownRulesError(base)
    base = base.strip().lower()
    preset_data = PRESET_DATA[base]
    unknown = [key for key in rules if key != "base" and key not in OPTION_KEYS]
    if unknown:
        raise RuleSetError(
            OptionProblem(key, rules[key], problem, problem)
            for key in unknown
            for problem in [N_('"%(key)s" is not an option of a rule set', key=str(key))]
        )
    data = copy.deepcopy(preset_data)
    deck = deck_named(rules.get("deck", data["deck"]))
    if deck is not None and deck is not deck_named(data["deck"]):
        # Another deck: its cards' values and packs, unless the house rules give their own.
        data["card_values"] = dict(deck.values)
        data["packs"] = dict(deck.packs)
    for key in OPTION_KEYS:
        if key in rules:
            data[key] = _merge(data[key], copy.deepcopy(rules[key]))
    built = _build(data, base, PRESET_SOURCES[base])
    preset = _preset(base)
    sources = dict(preset.sources)
    for key in OPTION_KEYS:
        if _OPTION_OUT[key](built) != _OPTION_OUT[key](preset):
            sources[key] = HOUSE
    object.__setattr__(built, "sources", sources)
    return built


def own_words(rules: RulesLike) -> str:
    """The name of the words ``rules``' game speaks its own way (``presets.OWN_WORDS``, by its
    deck where the deck has words of its own, else by the preset it was made from), "" where it
    speaks the language's own."""
    ruleset = get_ruleset(rules)
    return deck_words(ruleset.deck) or OWN_WORDS.get(ruleset.base, "")


def deck_words(deck: Deck) -> str:
    """The name of the words every game on ``deck`` speaks its own way (Phase 10's grupo for a
    set), "" where its games speak the language's own or their preset's."""
    return OWN_WORDS.get(deck.slug, "")


def parse_cards(text: str, rules: RulesLike | None = None) -> list[Card]:
    """Read cards separated by spaces, commas or hyphens (``"5S 2C JK"``, ``"3-4-5-6♥"``),
    in the notation of the deck of ``rules`` (a preset slug, house rules or a RuleSet; none:
    the standard deck): ``"7R 12g W S"`` for a Phase 10 deck.

    Returns them in the order written; an empty text gives no cards. Raises
    CardError naming the first token that is not a card.
    """
    if rules is None:
        return parse_standard_cards(text)
    return get_ruleset(rules).deck.parse(text)
