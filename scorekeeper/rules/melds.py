"""Melds and how the referee reads cards as one: every legal arrangement of a set or a run.

A meld is its cards, not their order: these functions look for arrangements,
place each wild card, and say what each one stands for. When there is none
they return every problem found, as (rule, sentence) pairs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, Rank, Suit, card_list
from .contracts import MeldKind
from .ruleset import Aces, RuleSet, Spacing

__all__ = [
    "Meld",
    "Placed",
    "Problem",
    "RunReading",
    "arrange_run",
    "position_of",
    "rank_at",
    "read_run",
    "read_set",
    "windows",
]

Problem = tuple[str, str]
"""A problem found: the option key of the rule it breaks, and the sentence."""


@dataclass(frozen=True, slots=True)
class Placed:
    """A card in its place in a meld; ``stands_for`` is the card a wild card stands for
    (None for a card read as itself). In a set a wild stands for a rank alone."""

    card: Card
    stands_for: Card | None = None

    @property
    def is_wild(self) -> bool:
        """True when the card is played as a wild card."""
        return self.stands_for is not None

    def __str__(self) -> str:
        if self.stands_for is None:
            return self.card.short
        return f"{self.stands_for.short}({self.card.short})"


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld as arranged: its kind and its cards in set or run order."""

    kind: MeldKind
    placements: tuple[Placed, ...]

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards, in meld order."""
        return tuple(placed.card for placed in self.placements)

    @property
    def wild_cards(self) -> tuple[Placed, ...]:
        """The wild cards with what they stand for."""
        return tuple(placed for placed in self.placements if placed.is_wild)

    def __len__(self) -> int:
        return len(self.placements)

    def __str__(self) -> str:
        """The meld, each wild shown as the card it stands for with itself in brackets:
        ``"J♣(2♣)-Q♣-K♣-A♣"``."""
        return "-".join(str(placed) for placed in self.placements)


def rank_at(position: int) -> Rank:
    """The rank at a run position: 1 to 13 are ace (low) to king, 14 is the ace high."""
    return Rank.ACE if position == 14 else Rank(position)


def position_of(rank: Rank, lo: int, hi: int) -> int | None:
    """Where a card of ``rank`` sits in the run window lo…hi, or None if outside."""
    if rank is Rank.ACE:
        if lo == 1:
            return 1
        return 14 if hi == 14 else None
    return int(rank) if lo <= rank <= hi else None


def windows(length: int, rules: RuleSet) -> list[tuple[int, int]]:
    """Every run window of ``length`` places the ace rule allows (never turning the corner)."""
    low = 1 if rules.aces in (Aces.HIGH_OR_LOW, Aces.LOW) else 2
    high = 14 if rules.aces in (Aces.HIGH_OR_LOW, Aces.HIGH) else 13
    if length > 13 or length < 1:
        return []
    return [(lo, lo + length - 1) for lo in range(low, high - length + 2)]


def read_set(
    cards: Sequence[Card],
    rules: RuleSet,
    *,
    kind: MeldKind = MeldKind.SET,
    rank: Rank | None = None,
) -> tuple[Meld | None, list[Problem]]:
    """Read ``cards`` as a set (or, with ``kind`` PAIR, a pair) of one rank, ``rank`` if given.

    Returns the arrangement (real cards first, wild cards between them where they
    may not touch) or None with every problem found.
    """
    problems: list[Problem] = []
    cards = sorted(cards)
    wild = [card for card in cards if rules.is_wild(card)]
    real = [card for card in cards if not rules.is_wild(card)]
    noun = "a pair" if kind is MeldKind.PAIR else "a set"
    least = 2 if kind is MeldKind.PAIR else rules.min_set
    if len(cards) < least:
        rule = "contracts" if kind is MeldKind.PAIR else "min_set"
        problems.append((rule, f"{noun} needs at least {least} cards, and this has {len(cards)}"))
    ranks = sorted({card.rank for card in real if card.rank is not None})
    if len(ranks) > 1:
        listed = _words([r.symbol for r in ranks])
        problems.append(("melds", f"not {noun} because {listed} differ"))
    elif rank is not None and ranks and ranks[0] != rank:
        problems.append(("contracts", f"not {noun} of {rank.plural}: these are {ranks[0].plural}"))
    if len(real) < rules.min_real_cards:
        problems.append(("min_real_cards", _real_needed(wild, rules)))
    if kind is MeldKind.PAIR and wild and len(real) < rules.real_cards_needed(kind, len(cards)):
        wild_words = card_list(wild)
        problems.append(
            (
                "pair_all_real",
                f"a pair must be real cards here, and {wild_words} "
                f"{'is' if len(wild) == 1 else 'are'} wild",
            )
        )
    spacing_ok = rules.wild_spacing.set is Spacing.FREE or not real or len(wild) <= len(real) + 1
    if not spacing_ok:
        problems.append(
            (
                "wild_spacing",
                f"{_count(len(wild), 'wild card')} and only {_count(len(real), 'real card')}: "
                "in a set wild cards may not sit side by side",
            )
        )
    if problems:
        return None, problems
    the_rank = ranks[0] if ranks else rank
    assert the_rank is not None
    stands = Card(the_rank, None)
    placed_real = [Placed(card) for card in real]
    placed_wild = [Placed(card, stands) for card in wild]
    if rules.wild_spacing.set is Spacing.FREE:
        order = placed_real + placed_wild
    else:
        order = []
        wild_first = len(wild) > len(real)
        queues = [placed_wild, placed_real] if wild_first else [placed_real, placed_wild]
        turn = 0
        while queues[0] or queues[1]:
            queue = queues[turn % 2] or queues[(turn + 1) % 2]
            order.append(queue.pop(0))
            turn += 1
    return Meld(kind, tuple(order)), []


@dataclass(frozen=True, slots=True)
class RunReading:
    """One legal arrangement of cards as a run: its suit, its places lo…hi (1 is the
    ace low, 14 the ace high) and the meld."""

    suit: Suit
    lo: int
    hi: int
    meld: Meld


def arrange_run(
    cards: Sequence[Card], rules: RuleSet, suit: Suit, lo: int, hi: int
) -> tuple[RunReading | None, str | None]:
    """Place ``cards`` as the run of ``suit`` over places lo…hi, if they fit.

    Real cards go to their places, a wild-rank card of the suit to its own place
    if free (read as itself), the other wild cards fill the gaps. Returns the
    reading, or None and which rule failed (``"span"``, ``"wild_spacing"``,
    ``"min_real_cards"``).
    """
    slots: dict[int, Placed] = {}
    wild: list[Card] = []
    naturals: list[Card] = []
    for card in sorted(cards):
        if card.rank is None or rules.is_wild_rank(card.rank):
            if card.rank is not None and card.suit is suit and rules.wild_as_itself:
                naturals.append(card)
            else:
                wild.append(card)
            continue
        where = position_of(card.rank, lo, hi)
        if where is None or where in slots or card.suit is not suit:
            return None, "span"
        slots[where] = Placed(card)
    for card in naturals:
        assert card.rank is not None
        where = position_of(card.rank, lo, hi)
        if where is None or where in slots:
            wild.append(card)
        else:
            slots[where] = Placed(card)
    if len(slots) < rules.min_real_cards:
        return None, "min_real_cards"
    wild.sort(key=lambda card: (card.rank is None, card.sort_key()))
    placements: list[Placed] = []
    previous_wild = False
    for where in range(lo, hi + 1):
        if where in slots:
            placements.append(slots[where])
            previous_wild = False
            continue
        if not wild:
            return None, "span"
        if previous_wild and rules.wild_spacing.run is Spacing.NOT_ADJACENT:
            return None, "wild_spacing"
        placements.append(Placed(wild.pop(0), Card(rank_at(where), suit)))
        previous_wild = True
    if wild:
        return None, "span"
    return RunReading(suit, lo, hi, Meld(MeldKind.RUN, tuple(placements))), None


def read_run(cards: Sequence[Card], rules: RuleSet) -> tuple[list[RunReading], list[Problem]]:
    """Every legal arrangement of ``cards`` as one run, best first, or every problem found.

    Best first: the fewest wild cards below the lowest real card (5-*-7-* before
    *-5-*-7), then the lowest.
    """
    cards = sorted(cards)
    problems: list[Problem] = []
    size = len(cards)
    if size < rules.min_run:
        problems.append(
            ("min_run", f"a run needs at least {rules.min_run} cards, and this has {size}")
        )
    real = [card for card in cards if not rules.is_wild(card)]
    suitless = [card for card in real if card.suit is None]
    if suitless:
        verb = "has" if len(suitless) == 1 else "have"
        problems.append(
            (
                "melds",
                f"{card_list(suitless)} {verb} no suit, so it cannot establish a run's suit "
                "(a run is of one suit; write the suit, like 7H)",
            )
        )
    suits = list(dict.fromkeys(card.suit for card in real if card.suit is not None))
    if len(suits) > 1:
        by_suit = [next(card for card in real if card.suit is suit) for suit in suits]
        problems.append(("melds", f"not a run because {card_list(by_suit)} are not of one suit"))
    candidates: list[Suit] = suits[:1] if len(suits) == 1 else []
    if not suits and not suitless and rules.wild_as_itself:
        candidates = list(
            dict.fromkeys(
                card.suit for card in cards if card.suit is not None and card.rank is not None
            )
        )
    if len(suits) == 1:
        repeated = [card for card, count in Counter(real).items() if count > 1]
        if repeated:
            problems.append(
                ("melds", f"a run holds each card once, and this has {card_list(repeated)} twice")
            )
    if not real and not candidates:
        problems.append(("min_real_cards", _real_needed(cards, rules)))
    if problems:
        return [], problems
    failures: set[str] = set()
    readings: list[RunReading] = []
    for suit in candidates:
        for lo, hi in windows(size, rules):
            reading, failure = arrange_run(cards, rules, suit, lo, hi)
            if reading is None:
                failures.add(failure or "span")
            else:
                readings.append(reading)
    if readings:
        readings.sort(key=_run_preference)
        return readings, []
    if "wild_spacing" in failures:
        wild_count = sum(1 for card in cards if rules.is_wild(card))
        the = "the two wild cards" if wild_count == 2 else "wild cards"
        rule_words = "in a run wild cards must be separated by a real card"
        problems.append(
            ("wild_spacing", f"as a run {the} would have to sit side by side, and {rule_words}")
        )
    elif "min_real_cards" in failures:
        problems.append(("min_real_cards", _real_needed(cards, rules)))
    else:
        problems.append(_span_problem(real, size, rules))
    return [], problems


def _run_preference(reading: RunReading) -> tuple[int, int, int]:
    below = 0
    for placed in reading.meld.placements:
        if not placed.is_wild:
            break
        below += 1
    return (len(reading.meld.wild_cards), below, reading.lo)


def _span_problem(real: Sequence[Card], size: int, rules: RuleSet) -> Problem:
    ranks = sorted({int(card.rank) for card in real if card.rank is not None})
    has_ace = 1 in ranks
    others = [rank for rank in ranks if rank != 1]
    if has_ace and others and rules.aces is Aces.HIGH_OR_LOW:
        low_fits = max(others) <= size
        high_fits = min(others) >= 15 - size
        near_low = any(rank <= size for rank in others)
        near_high = any(rank >= 15 - size for rank in others)
        if not low_fits and not high_fits and near_low and near_high:
            return (
                "aces",
                "a run never turns the corner: an ace is high (J-Q-K-A) or low (A-2-3-4), "
                "never both in one run",
            )
    if has_ace and rules.aces != "high or low":
        where = "low (A-2-3-4)" if rules.aces is Aces.LOW else "high (J-Q-K-A)"
        if others:
            return ("aces", f"aces are only {where} in a run, and these cards do not fit that way")
    low_card = min(real, key=lambda card: card.sort_key(), default=None)
    high_card = max(real, key=lambda card: card.sort_key(), default=None)
    if low_card is not None and high_card is not None and low_card != high_card:
        return (
            "melds",
            f"not a run: {low_card.short} and {high_card.short} are too far apart for "
            f"{size} cards in sequence",
        )
    return ("melds", "not a run: these cards are not in sequence")


def _real_needed(cards: Sequence[Card], rules: RuleSet) -> str:
    wild_words = _words(["jokers", *(f"{rank.symbol}s" for rank in rules.wild_ranks)])
    need = rules.min_real_cards
    cards_text = card_list(list(cards))
    every = "every" if need == 1 else "each"
    what = "a real card" if need == 1 else f"{need} real cards"
    return (
        f"{cards_text} {'is' if len(cards) == 1 else 'are all'} wild ({wild_words} are wild); "
        f"{every} meld needs {what}"
        if all(rules.is_wild(card) for card in cards)
        else f"{every} meld needs {what}"
    )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _words(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
