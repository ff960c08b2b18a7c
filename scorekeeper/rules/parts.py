"""The parts of a rule set: "May I", wild spacing, the packs, and the choice options' values.

``ruleset`` builds a ``RuleSet`` of these; they are value types that read and describe
themselves and know nothing of presets.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import AnyRank, Card
from .decks import STANDARD, Deck
from .messages import N_, Message, N_plural, Value, listing


class LimitPer(StrEnum):
    """What a "May I" limit counts over: each contract, or the whole game."""

    CONTRACT = "contract"
    GAME = "game"


@dataclass(frozen=True, slots=True)
class MayI:
    """The "May I" rule: out of turn, a player takes the discard plus ``extra_cards``
    from the stock; ``limit`` is per player per contract, or for the whole game where
    ``limit_per`` says so (None: unlimited); ``discard`` says whether they then discard one."""

    allowed: bool
    limit: int | None
    extra_cards: int
    discard: bool
    limit_per: LimitPer = LimitPer.CONTRACT

    def to_dict(self) -> dict[str, Any]:
        """The rule as house-rule data."""
        return {
            "allowed": self.allowed,
            "limit": self.limit,
            "extra_cards": self.extra_cards,
            "discard": self.discard,
            "limit_per": self.limit_per.value,
        }

    def describe(self, deck: Deck = STANDARD) -> Message:
        """The rule in words, as the games of ``deck`` say it (a limit per phase in Phase
        10's)."""
        if not self.allowed:
            return N_("not played")
        if self.limit is None:
            times = N_("as often as you like")
        elif self.limit_per is LimitPer.GAME:
            times = N_plural("%(num)s per game", "%(num)s per game", num=self.limit)
        else:
            times = deck.wording.per_contract(self.limit)
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

    def for_players(self, players: int, deck: Deck = STANDARD) -> Packs:
        """The packs of ``deck`` for ``players`` players."""
        decks = self.decks
        extra_players = players - self.decks_up_to_players
        if extra_players > 0 and self.players_per_extra_deck > 0:
            decks += math.ceil(extra_players / self.players_per_extra_deck)
        jokers = self.jokers_per_deck * decks + self.jokers_per_player * players + self.jokers_extra
        return Packs(decks=decks, jokers=max(0, jokers), deck=deck)

    def unused_above(self, most_players: int | None) -> bool:
        """Whether a cap of ``most_players`` leaves part of the rule unused: the decks are for
        more players than may play, or no game reaches the players that take one more deck."""
        return most_players is not None and most_players < self.decks_up_to_players + (
            1 if self.players_per_extra_deck else 0
        )

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

    def describe(self, most_players: int | None = None, deck: Deck = STANDARD) -> Message:
        """The rule in words: "2 decks for up to 5 players, one more deck for each 2 more
        players; 2 jokers a deck". Where at most ``most_players`` play, it says only what they
        meet: capped at 4, "2 decks for up to 4 players" and no line for more players. A
        ``deck`` whose games add no jokers (Phase 10's) names its packs and no jokers: "1
        Phase 10 deck for up to 6 players"."""
        up_to = self.decks_up_to_players
        if most_players is not None:
            up_to = min(up_to, most_players)
        decks = deck.wording.decks_for(
            self.decks, N_plural("up to %(num)s player", "up to %(num)s players", num=up_to)
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
        more = N_plural(
            "one more deck for each %(num)s more player",
            "one more deck for each %(num)s more players",
            num=self.players_per_extra_deck,
        )
        more_decks = self.players_per_extra_deck and not self.unused_above(most_players)
        if not deck.has_jokers and not jokers:
            # A deck whose games add no jokers says nothing of them.
            return N_("%(decks)s, %(more)s", decks=decks, more=more) if more_decks else decks
        joker_words = listing(jokers) if jokers else N_("no jokers")
        if more_decks:
            return N_("%(decks)s, %(more)s; %(jokers)s", decks=decks, more=more, jokers=joker_words)
        return N_("%(decks)s; %(jokers)s", decks=decks, jokers=joker_words)


@dataclass(frozen=True, slots=True)
class Packs:
    """The cards a game holds: ``decks`` packs of ``deck`` (standard decks unless it says
    otherwise) and ``jokers`` jokers."""

    decks: int
    jokers: int
    deck: Deck = STANDARD

    @property
    def total(self) -> int:
        """How many cards in all."""
        return self.deck.cards_per_pack * self.decks + self.jokers

    def overflow(self, cards: Iterable[Card]) -> list[Message]:
        """What in ``cards`` the packs cannot hold, e.g. ``"3 × 7♥, but 2 decks hold only 2"``.

        Rank-alone cards count with every card of their rank; each special card (a Wild, a
        Skip) against the copies its packs hold, jokers against ``jokers``. Empty when all is
        possible.
        """
        cards = list(cards)
        problems: list[Message] = []
        by_card: dict[Card, int] = {}
        by_rank: dict[AnyRank, int] = {}
        specials: dict[str, int] = {}
        jokers = 0
        for card in cards:
            if card.rank is None:
                special = card.special
                if special is None or special.key == "joker":
                    jokers += 1
                else:
                    specials[special.key] = specials.get(special.key, 0) + 1
                continue
            by_rank[card.rank] = by_rank.get(card.rank, 0) + 1
            if card.suit is not None:
                by_card[card] = by_card.get(card, 0) + 1
        copies = self.deck.copies * self.decks
        for card in sorted(by_card):
            if by_card[card] > copies:
                problems.append(self._too_many(by_card[card], card.label, copies))
        of_rank = self.deck.copies_of_rank * self.decks
        for rank in sorted(by_rank):
            if by_rank[rank] > of_rank:
                problems.append(self._too_many(by_rank[rank], rank.symbol, of_rank))
        for special in self.deck.specials:
            count = specials.get(special.key, 0)
            held = self.deck.specials_per_pack.get(special.key, 0) * self.decks
            if special.key != "joker" and count > held:
                # In words, as a sentence says them ("9 Wilds", "9 comodines").
                problems.append(
                    N_plural(
                        "%(count)s %(cards)s, but %(num)s deck holds only %(held)s",
                        "%(count)s %(cards)s, but %(num)s decks hold only %(held)s",
                        num=self.decks,
                        count=count,
                        cards=special.plural,
                        held=held,
                    )
                )
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
    """Who wins: whoever makes the last contract, the lowest total at the end, or whoever has
    made the most contracts when the game ends (tied: the lowest total; still tied: the
    tie-break)."""

    LAST_CONTRACT = "last contract"
    LOWEST_TOTAL = "lowest total"
    MOST_CONTRACTS = "most contracts"


class TieBreak(StrEnum):
    """How a tie is broken: by the lowest total, the tied players share the win, whoever
    went out in the most rounds wins (still tied: they share), or the lowest total and, still
    tied, one more hand of the tied players alone on the last contract, whoever goes out first
    winning (replay: Phase 10's tie-break hand)."""

    LOWEST_TOTAL = "lowest total"
    SHARE = "share"
    MOST_ROUNDS_WON = "most rounds won"
    REPLAY = "replay"


class PhasesPlayed(StrEnum):
    """Which contracts a game plays, named (a list of contract numbers is the other way):
    all, the even ones (2, 4, …) or the odd ones (1, 3, …)."""

    ALL = "all"
    EVEN = "even"
    ODD = "odd"


class Liberation(StrEnum):
    """Whether a wild card may be liberated: not at all, on others' melds, on any meld."""

    OFF = "off"
    OTHERS = "others"
    ANY = "any"


class FreedWild(StrEnum):
    """When a liberated wild card must be played: at once, in the same round, or never
    (kept: it joins the hand)."""

    AT_ONCE = "at once"
    SAME_ROUND = "same round"
    KEPT = "kept"


class LiberationFrom(StrEnum):
    """Which melds a wild card may be liberated from: any meld, or runs only (in a set a wild
    card stands for no one card)."""

    ANY_MELD = "any meld"
    RUNS = "runs"


class LiberationBeforeContract(StrEnum):
    """Whether a player whose contract is not made may liberate: yes, only on the turn they
    make it (if going down), or no."""

    YES = "yes"
    IF_GOING_DOWN = "if going down"
    NO = "no"


class GoingOut(StrEnum):
    """How a player goes out: by a discard, by playing the last cards onto the table, or either
    way (Phase 10: a hand empty at the end of the turn has gone out)."""

    DISCARD = "discard"
    PLAY = "play"
    EITHER = "either"


class SkipTarget(StrEnum):
    """Who loses a turn to a discarded Skip (a Phase 10 deck's): a player the discarder names
    (never themselves), or the next player in turn."""

    ANY = "any"
    NEXT = "next"


# The values of each choice option, in the order the editor offers them.
ACES: tuple[str, ...] = tuple(Aces)
SPACINGS: tuple[str, ...] = tuple(Spacing)
CONTRACT_ORDERS: tuple[str, ...] = tuple(ContractOrder)
WINNERS: tuple[str, ...] = tuple(Winner)
TIE_BREAKS: tuple[str, ...] = tuple(TieBreak)
LIBERATIONS: tuple[str, ...] = tuple(Liberation)
FREED_WILD: tuple[str, ...] = tuple(FreedWild)
GOING_OUT: tuple[str, ...] = tuple(GoingOut)
SKIP_TARGETS: tuple[str, ...] = tuple(SkipTarget)
PHASES_PLAYED: tuple[str, ...] = tuple(PhasesPlayed)
LIBERATION_FROM: tuple[str, ...] = tuple(LiberationFrom)
LIBERATION_BEFORE_CONTRACT: tuple[str, ...] = tuple(LiberationBeforeContract)
