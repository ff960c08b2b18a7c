"""Rule sets: the types of a game's rules, and how options are read and checked.

A rule set is a value: every choice a family can make is an option with a
value and a source (a seed document, or the default a silent document takes).
Code asks the rule set; it never asks which preset it is. The presets' data
is in ``presets``.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any, TypeVar

from .cards import Card, Rank
from .contracts import Contract, MeldKind, MeldRequirement
from .messages import N_, Message, N_plural, Value, listing
from .presets import PRESET_DATA, PRESET_SOURCES, PRESETS
from .sources import HOUSE, Source

__all__ = [
    "PRESETS",
    "Aces",
    "ContractNumberError",
    "ContractOrder",
    "FreedWild",
    "GoingOut",
    "Liberation",
    "MayI",
    "OptionProblem",
    "PackRule",
    "Packs",
    "RuleSet",
    "RuleSetError",
    "RulesLike",
    "Spacing",
    "TieBreak",
    "UnknownRulesError",
    "WildSpacing",
    "Winner",
    "get_ruleset",
    "option_value",
]


@dataclass(frozen=True, slots=True)
class OptionProblem:
    """One bad option in house rules: the option, the value given, and what is wrong:
    ``message`` names the option (``"aces: 'up' is not one of …"``), ``detail`` says the
    same without it, for a form that shows it at the option's own field."""

    option: str
    value: object
    message: Message
    detail: Message | None = None


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
    """A contract number the rule set does not have; ``message`` says so."""

    def __init__(self, number: object, count: int) -> None:
        self.message = N_(
            "%(number)s is not a contract of these rules: they run from 1 to %(count)s",
            number=repr(number),
            count=count,
        )
        super().__init__(str(self.message))
        self.number = number


@dataclass(frozen=True, slots=True)
class MayI:
    """The "May I" rule: out of turn, a player takes the discard plus ``extra_cards``
    from the stock; ``limit`` is per player per contract (None: unlimited);
    ``discard`` says whether they then discard one."""

    allowed: bool
    limit: int | None
    extra_cards: int
    discard: bool

    def to_dict(self) -> dict[str, Any]:
        """The rule as house-rule data."""
        return {
            "allowed": self.allowed,
            "limit": self.limit,
            "extra_cards": self.extra_cards,
            "discard": self.discard,
        }

    def describe(self) -> Message:
        """The rule in words."""
        if not self.allowed:
            return N_("not played")
        times = (
            N_("as often as you like")
            if self.limit is None
            else N_plural("%(num)s per contract", "%(num)s per contract", num=self.limit)
        )
        extra = N_plural("%(num)s extra card", "%(num)s extra cards", num=self.extra_cards)
        if self.discard:
            return N_(
                "%(times)s; the discard plus %(extra)s from the stock, then discard one",
                times=times,
                extra=extra,
            )
        return N_(
            "%(times)s; the discard plus %(extra)s from the stock, no discard",
            times=times,
            extra=extra,
        )


@dataclass(frozen=True, slots=True)
class WildSpacing:
    """Where wild cards may stand: ``"free"`` or ``"not adjacent"`` (no two wild cards touch),
    in a set and in a run."""

    set: Spacing
    run: Spacing

    def to_dict(self) -> dict[str, Any]:
        """The rule as house-rule data."""
        return {"set": self.set.value, "run": self.run.value}


@dataclass(frozen=True, slots=True)
class PackRule:
    """How many decks and jokers a game uses for a number of players.

    ``decks`` decks for up to ``decks_up_to_players`` players, one more deck for
    each ``players_per_extra_deck`` more (0: never more); jokers are
    ``jokers_per_deck`` × decks + ``jokers_per_player`` × players + ``jokers_extra``.
    """

    decks: int
    decks_up_to_players: int
    players_per_extra_deck: int
    jokers_per_deck: int
    jokers_per_player: int
    jokers_extra: int

    def for_players(self, players: int) -> Packs:
        """The packs for ``players`` players."""
        decks = self.decks
        extra_players = players - self.decks_up_to_players
        if extra_players > 0 and self.players_per_extra_deck > 0:
            decks += math.ceil(extra_players / self.players_per_extra_deck)
        jokers = self.jokers_per_deck * decks + self.jokers_per_player * players + self.jokers_extra
        return Packs(decks=decks, jokers=max(0, jokers))

    def to_dict(self) -> dict[str, Any]:
        """The rule as house-rule data."""
        return {
            "decks": self.decks,
            "decks_up_to_players": self.decks_up_to_players,
            "players_per_extra_deck": self.players_per_extra_deck,
            "jokers_per_deck": self.jokers_per_deck,
            "jokers_per_player": self.jokers_per_player,
            "jokers_extra": self.jokers_extra,
        }

    def describe(self) -> Message:
        """The rule in words: "2 decks for up to 5 players, one more deck for each 2 more
        players; 2 jokers a deck"."""
        decks = N_plural(
            "%(num)s deck for %(players)s",
            "%(num)s decks for %(players)s",
            num=self.decks,
            players=N_plural(
                "up to %(num)s player", "up to %(num)s players", num=self.decks_up_to_players
            ),
        )
        jokers: list[Value] = []
        if self.jokers_per_deck:
            jokers.append(
                N_plural("%(num)s joker a deck", "%(num)s jokers a deck", num=self.jokers_per_deck)
            )
        if self.jokers_per_player:
            jokers.append(
                N_plural(
                    "%(num)s joker a player", "%(num)s jokers a player", num=self.jokers_per_player
                )
            )
        if self.jokers_extra > 0:
            jokers.append(
                N_plural("%(num)s more joker", "%(num)s more jokers", num=self.jokers_extra)
            )
        elif self.jokers_extra < 0:
            jokers.append(
                N_plural("%(num)s joker fewer", "%(num)s jokers fewer", num=-self.jokers_extra)
            )
        joker_words = listing(jokers) if jokers else N_("no jokers")
        if self.players_per_extra_deck:
            return N_(
                "%(decks)s, %(more)s; %(jokers)s",
                decks=decks,
                more=N_plural(
                    "one more deck for each %(num)s more player",
                    "one more deck for each %(num)s more players",
                    num=self.players_per_extra_deck,
                ),
                jokers=joker_words,
            )
        return N_("%(decks)s; %(jokers)s", decks=decks, jokers=joker_words)


@dataclass(frozen=True, slots=True)
class Packs:
    """The cards a game holds: ``decks`` standard decks and ``jokers`` jokers."""

    decks: int
    jokers: int

    @property
    def total(self) -> int:
        """How many cards in all."""
        return 52 * self.decks + self.jokers

    def overflow(self, cards: Iterable[Card]) -> list[Message]:
        """What in ``cards`` the packs cannot hold, e.g. ``"3 × 7♥, but 2 decks hold only 2"``.

        Rank-alone cards count with every card of their rank. Empty when all is possible.
        """
        cards = list(cards)
        problems: list[Message] = []
        by_card: dict[Card, int] = {}
        by_rank: dict[Rank, int] = {}
        jokers = 0
        for card in cards:
            if card.rank is None:
                jokers += 1
                continue
            by_rank[card.rank] = by_rank.get(card.rank, 0) + 1
            if card.suit is not None:
                by_card[card] = by_card.get(card, 0) + 1
        for card in sorted(by_card):
            if by_card[card] > self.decks:
                problems.append(self._too_many(by_card[card], card.label, self.decks))
        for rank in sorted(by_rank):
            if by_rank[rank] > 4 * self.decks:
                problems.append(self._too_many(by_rank[rank], rank.symbol, 4 * self.decks))
        if jokers > self.jokers:
            problems.append(
                N_plural(
                    "%(count)s × Joker, but these packs hold only %(num)s joker",
                    "%(count)s × Joker, but these packs hold only %(num)s jokers",
                    num=self.jokers,
                    count=jokers,
                )
            )
        return problems

    def _too_many(self, count: int, card: str, held: int) -> Message:
        return N_plural(
            "%(count)s × %(card)s, but %(num)s deck holds only %(held)s",
            "%(count)s × %(card)s, but %(num)s decks hold only %(held)s",
            num=self.decks,
            count=count,
            card=card,
            held=held,
        )


CARD_VALUE_KEYS: tuple[str, ...] = ("joker", *(rank.symbol for rank in Rank))


class Aces(StrEnum):
    """Where an ace may stand in a run."""

    HIGH_OR_LOW = "high or low"
    LOW = "low"
    HIGH = "high"


class Spacing(StrEnum):
    """Where wild cards may stand in a meld: side by side, or never touching."""

    FREE = "free"
    NOT_ADJACENT = "not adjacent"


class ContractOrder(StrEnum):
    """Which contract a player works on: their own (kept until made) or the round's."""

    OWN = "own"
    ROUND = "round"


class Winner(StrEnum):
    """Who wins: whoever makes the last contract, or the lowest total at the end."""

    LAST_CONTRACT = "last contract"
    LOWEST_TOTAL = "lowest total"


class TieBreak(StrEnum):
    """How a tie is broken: by the lowest total, or the tied players share the win."""

    LOWEST_TOTAL = "lowest total"
    SHARE = "share"


class Liberation(StrEnum):
    """Whether a wild card may be liberated: not at all, on others' melds, on any meld."""

    OFF = "off"
    OTHERS = "others"
    ANY = "any"


class FreedWild(StrEnum):
    """When a liberated wild card must be played."""

    AT_ONCE = "at once"
    SAME_ROUND = "same round"


class GoingOut(StrEnum):
    """How a player goes out: by a discard, or by playing the last cards onto the table."""

    DISCARD = "discard"
    PLAY = "play"


# The values of each choice option, in the order the editor offers them.
ACES: tuple[str, ...] = tuple(Aces)
SPACINGS: tuple[str, ...] = tuple(Spacing)
CONTRACT_ORDERS: tuple[str, ...] = tuple(ContractOrder)
WINNERS: tuple[str, ...] = tuple(Winner)
TIE_BREAKS: tuple[str, ...] = tuple(TieBreak)
LIBERATIONS: tuple[str, ...] = tuple(Liberation)
FREED_WILD: tuple[str, ...] = tuple(FreedWild)
GOING_OUT: tuple[str, ...] = tuple(GoingOut)


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
    sources: Mapping[str, Source] = field(compare=False, repr=False, hash=False)

    def contract(self, number: int) -> Contract:
        """Contract ``number`` (from 1); raises ContractNumberError if there is none."""
        if isinstance(number, bool) or not isinstance(number, int):
            raise ContractNumberError(number, len(self.contracts))
        if not 1 <= number <= len(self.contracts):
            raise ContractNumberError(number, len(self.contracts))
        return self.contracts[number - 1]

    @property
    def keeps_contracts(self) -> bool:
        """Whether each player keeps their own contract until they make it (rather than
        round N playing contract N for everyone)."""
        return self.contract_order is ContractOrder.OWN

    @property
    def rounds_in_game(self) -> int | None:
        """How many rounds a game lasts: one per contract when the round sets the contract;
        None when each player keeps their own (the game ends after the round in which
        someone makes the last contract)."""
        return len(self.contracts) if self.contract_order is ContractOrder.ROUND else None

    @property
    def game_end(self) -> Message:
        """When the game ends, in words."""
        last = len(self.contracts)
        if self.contract_order is ContractOrder.ROUND:
            return N_("after round %(round)s", round=last)
        return N_("after the round in which someone makes contract %(number)s", number=last)

    def packs(self, players: int) -> Packs:
        """The decks and jokers for ``players`` players; ValueError below one player."""
        if isinstance(players, bool) or not isinstance(players, int) or players < 1:
            raise ValueError(f"{players!r} is not a number of players")
        return self.pack_rule.for_players(players)

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
        key = "joker" if card.rank is None else card.rank.symbol
        return self.values_by_key[key]

    @cached_property
    def values_by_key(self) -> dict[str, int]:
        """The card values by key (``"joker"``, ``"A"``, ``"2"`` … ``"K"``)."""
        return dict(self.card_values)

    def is_wild(self, card: Card) -> bool:
        """True for a joker and for a card of a wild rank."""
        return card.rank is None or card.rank in self.wild_ranks

    def is_wild_rank(self, rank: Rank) -> bool:
        """True when cards of ``rank`` are wild."""
        return rank in self.wild_ranks

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


_Choice = TypeVar("_Choice", bound=StrEnum)


class _Reader:
    """Reads option values, collecting every problem."""

    def __init__(self) -> None:
        self.problems: list[OptionProblem] = []

    def fail(self, option: str, value: object, why: Message) -> None:
        """A problem with ``option``: ``why`` says what is wrong, naming the value given."""
        message = N_("%(option)s: %(problem)s", option=option, problem=why)
        self.problems.append(OptionProblem(option, value, message, why))

    def boolean(self, option: str, value: object) -> bool:
        if not isinstance(value, bool):
            self.fail(option, value, N_("%(value)s is not true or false", value=repr(value)))
            return False
        return value

    def integer(self, option: str, value: object, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(option, value, N_("%(value)s is not a whole number", value=repr(value)))
            return low
        if not low <= value <= high:
            self.fail(
                option,
                value,
                N_(
                    "%(value)s is not between %(low)s and %(high)s",
                    value=repr(value),
                    low=low,
                    high=high,
                ),
            )
            return low
        return value

    def option(self, option: str, value: object, kind: type[_Choice]) -> _Choice:
        """A choice option's value as its enum; the first value (and a problem) if it is none."""
        return kind(self.choice(option, value, tuple(kind)))

    def choice(self, option: str, value: object, choices: tuple[str, ...]) -> str:
        text = value.replace("_", " ").strip().lower() if isinstance(value, str) else value
        if text not in choices:
            listed = tuple(repr(choice) for choice in choices)
            self.fail(
                option,
                value,
                N_("%(value)s is not one of %(choices)s", value=repr(value), choices=listed),
            )
            return choices[0]
        assert isinstance(text, str)
        return text

    def text(self, option: str, value: object) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(
                option,
                value,
                N_("%(value)s is not a name (it must be some text)", value=repr(value)),
            )
            return "?"
        if len(value) > 120:
            self.fail(
                option,
                value,
                N_(
                    "%(value)s is too long (at most %(most)s characters)",
                    value=repr(value),
                    most=120,
                ),
            )
        stripped = value.strip()
        # A preset's name is a message (its words translated): kept as it is when already tidy.
        return value if stripped == value else stripped

    def mapping(self, option: str, value: object, keys: Iterable[str]) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            self.fail(option, value, N_("%(value)s is not a table of settings", value=repr(value)))
            return {}
        allowed = list(keys)
        for key in value:
            if key not in allowed:
                self.fail(
                    f"{option}.{key}",
                    value[key],
                    N_(
                        "%(value)s is no setting of %(option)s",
                        value=repr(value[key]),
                        option=option,
                    ),
                )
        return dict(value)

    def rank(self, option: str, value: object) -> Rank | None:
        if isinstance(value, str):
            try:
                return Rank.from_symbol(value.strip())
            except ValueError:
                pass
        self.fail(
            option, value, N_("%(value)s is not a rank (A, 2 … 10, J, Q, K)", value=repr(value))
        )
        return None

    def requirement(self, option: str, value: object) -> MeldRequirement | None:
        data = self.mapping(option, value, ("kind", "size", "rank"))
        if not data:
            if isinstance(value, Mapping):
                self.fail(option, value, N_("%(value)s needs a kind and a size", value=repr(value)))
            return None
        kind_text = self.choice(f"{option}.kind", data.get("kind"), ("set", "run", "pair"))
        kind = MeldKind(kind_text)
        high = 13 if kind is MeldKind.RUN else 40
        low = 2 if kind is MeldKind.PAIR else 1
        size = self.integer(f"{option}.size", data.get("size"), low, high)
        if kind is MeldKind.PAIR and size != 2:
            self.fail(
                f"{option}.size",
                size,
                N_("%(value)s is not 2 (a pair is two cards)", value=repr(size)),
            )
        rank = None
        if data.get("rank") is not None:
            if kind is MeldKind.RUN:
                self.fail(
                    f"{option}.rank",
                    data["rank"],
                    N_("%(value)s makes no sense for a run", value=repr(data["rank"])),
                )
            else:
                rank = self.rank(f"{option}.rank", data["rank"])
        return MeldRequirement(kind, size, rank)

    def contracts(self, value: object) -> tuple[Contract, ...]:
        option = "contracts"
        if not isinstance(value, list | tuple) or not value:
            self.fail(
                option,
                value,
                N_("%(value)s is not a list of contracts (at least one)", value=repr(value)),
            )
            return ()
        if len(value) > 30:
            self.fail(
                option,
                f"{len(value)} contracts",
                N_plural(
                    "%(num)s contract is too many (at most %(most)s)",
                    "%(num)s contracts are too many (at most %(most)s)",
                    num=len(value),
                    most=30,
                ),
            )
        contracts = []
        for number, item in enumerate(value, start=1):
            where = f"contracts[{number}]"
            going_out_only = False
            melds_data: object = item
            if isinstance(item, Mapping):
                data = self.mapping(where, item, ("melds", "going_out_only"))
                melds_data = data.get("melds")
                going_out_only = self.boolean(
                    f"{where}.going_out_only", data.get("going_out_only", False)
                )
            if not isinstance(melds_data, list | tuple) or not melds_data:
                self.fail(
                    where,
                    melds_data,
                    N_("%(value)s is not a list of melds (at least one)", value=repr(melds_data)),
                )
                continue
            if len(melds_data) > 6:
                self.fail(
                    where,
                    f"{len(melds_data)} melds",
                    N_plural(
                        "%(num)s meld is too many (at most %(most)s)",
                        "%(num)s melds are too many (at most %(most)s)",
                        num=len(melds_data),
                        most=6,
                    ),
                )
            melds = []
            for index, meld in enumerate(melds_data, start=1):
                requirement = self.requirement(f"{where}.melds[{index}]", meld)
                if requirement is not None:
                    melds.append(requirement)
            contracts.append(Contract(number, tuple(melds), going_out_only))
        return tuple(contracts)


def _merge(base: Any, override: Any) -> Any:
    if isinstance(base, Mapping) and isinstance(override, Mapping):
        return {**base, **override}
    return override


def _build(data: Mapping[str, Any], base: str, sources: Mapping[str, Source]) -> RuleSet:
    """A RuleSet from full option data; RuleSetError lists every problem."""
    read = _Reader()
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
                    "%(value)s is fewer than min_players (%(fewest)s)",
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
        "may_i", data["may_i"], ("allowed", "limit", "extra_cards", "discard")
    )
    limit = may_i_data.get("limit")
    may_i = MayI(
        allowed=read.boolean("may_i.allowed", may_i_data.get("allowed")),
        limit=None if limit is None else read.integer("may_i.limit", limit, 1, 100),
        extra_cards=read.integer("may_i.extra_cards", may_i_data.get("extra_cards"), 0, 10),
        discard=read.boolean("may_i.discard", may_i_data.get("discard")),
    )
    values_data = read.mapping("card_values", data["card_values"], (*CARD_VALUE_KEYS, "JK", "T"))
    values: dict[str, int] = {}
    for key, value in values_data.items():
        canonical = {"JK": "joker", "T": "10"}.get(key, key)
        values[canonical] = read.integer(f"card_values.{canonical}", value, -1000, 1000)
    for key in CARD_VALUE_KEYS:
        if key not in values:
            read.fail(
                "card_values",
                key,
                N_(
                    "%(value)s has no value (every rank and the joker need one)",
                    value=repr(key),
                ),
            )
            values[key] = 0
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
        card_values=tuple((key, values[key]) for key in CARD_VALUE_KEYS),
        wild_ranks=tuple(sorted(wild_ranks)),
        wild_as_itself=read.boolean("wild_as_itself", data["wild_as_itself"]),
        wild_spacing=spacing,
        min_real_cards=read.integer("min_real_cards", data["min_real_cards"], 1, 10),
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
        sources=dict(sources),
    )
    if read.problems:
        raise RuleSetError(read.problems)
    return rules


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
    "contracts": lambda r: [contract.to_dict() for contract in r.contracts],
    "contract_order": lambda r: r.contract_order.value,
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
    "pair_all_real": lambda r: r.pair_all_real,
    "min_set": lambda r: r.min_set,
    "min_run": lambda r: r.min_run,
    "aces": lambda r: r.aces.value,
    "same_suit_runs_may_continue": lambda r: r.same_suit_runs_may_continue,
    "extra_melds": lambda r: r.extra_melds,
    "layoff_on_contract_turn": lambda r: r.layoff_on_contract_turn,
    "liberation": lambda r: r.liberation.value,
    "freed_wild": lambda r: r.freed_wild.value,
    "going_out": lambda r: r.going_out.value,
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
            for problem in [N_("%(key)s is not an option of a rule set", key=repr(key))]
        )
    data = copy.deepcopy(preset_data)
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
