"""Melds and how the referee reads cards as one: every legal arrangement of a set or a run.

A meld is its cards, not their order: these functions look for arrangements,
place each wild card, and say what each one stands for. When there is none
they return every problem found, as (rule, sentence) pairs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import AnyRank, AnySuit, Card, Rank, card_list
from .contracts import MeldKind
from .decks import STANDARD, Deck
from .messages import N_, Message, N_plural, listing
from .ruleset import Aces, RuleSet, Spacing

__all__ = [
    "Meld",
    "Placed",
    "Problem",
    "RunReading",
    "arrange_run",
    "color_least",
    "position_of",
    "rank_at",
    "read_color",
    "read_run",
    "read_set",
    "wild_limit_problems",
    "windows",
]

Problem = tuple[str, Message]
"""A problem found: the option key of the rule it breaks, and the sentence (as written, not
capitalized: a ruling may quote it inside a sentence of its own)."""


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
        ``"J♣(2♣)-Q♣-K♣-A♣"`` (in cards of one colour, a wild stands for no one card:
        ``"2R-4R-W"``)."""
        if self.kind is MeldKind.COLOR:
            return "-".join(placed.card.short for placed in self.placements)
        return "-".join(str(placed) for placed in self.placements)


def rank_at(position: int, deck: Deck = STANDARD) -> AnyRank:
    """The rank at a run position: 1 to 13 are ace (low) to king, 14 is the ace high; a run
    that turns the corner goes on past 14 (15 is the 2 after the ace, and so on). In a deck of
    another number of ranks (Phase 10's 1 to 12), the same with its own count."""
    return deck.ranks[(position - 1) % deck.period]


def position_of(rank: AnyRank, lo: int, hi: int, period: int = 13) -> int | None:
    """Where a card of ``rank`` sits in the run window lo…hi, or None if outside. A window
    holds each rank at most once (``period`` places at most: 13 ranks in a standard deck), so
    there is one place or none."""
    first = int(rank)
    for where in (first, first + period, first - period):
        if lo <= where <= hi:
            return where
    return None


def windows(length: int, rules: RuleSet) -> tuple[tuple[int, int], ...]:
    """Every run window of ``length`` places the ace rule allows: never turning the corner,
    or, where runs may (``runs_may_wrap``), starting at any rank, the ace then anywhere.
    Worked out once per rule set and length (a rule set is a value)."""
    cache = rules.window_cache
    found = cache.get(length)
    if found is None:
        found = cache[length] = tuple(_windows(length, rules))
    return found


def _windows(length: int, rules: RuleSet) -> list[tuple[int, int]]:
    period = rules.deck.period
    if length > period or length < 1:
        return []
    if rules.runs_may_wrap:
        return [(lo, lo + length - 1) for lo in range(1, period + 1)]
    if not rules.deck.ace:
        # No ace: a run stops at the lowest rank and at the highest.
        return [(lo, lo + length - 1) for lo in range(1, period - length + 2)]
    low = 1 if rules.aces in (Aces.HIGH_OR_LOW, Aces.LOW) else 2
    high = 14 if rules.aces in (Aces.HIGH_OR_LOW, Aces.HIGH) else 13
    return [(lo, lo + length - 1) for lo in range(low, high - length + 2)]


def wild_limit_problems(wild: int, real: int, rules: RuleSet) -> list[Problem]:
    """The wild-card count limits one meld of ``wild`` wild and ``real`` real cards breaks:
    never more wild cards than real ones (``wilds_at_most_naturals``), at most so many in one
    meld (``max_wilds_per_meld``)."""
    problems: list[Problem] = []
    if rules.wilds_at_most_naturals and wild > real:
        problems.append(
            (
                "wilds_at_most_naturals",
                N_(
                    "%(wild)s and only %(real)s: a meld never holds more wild cards than real ones",
                    wild=N_plural("%(num)s wild card", "%(num)s wild cards", num=wild),
                    real=N_plural("%(num)s real card", "%(num)s real cards", num=real),
                ),
            )
        )
    most = rules.max_wilds_per_meld
    if most is not None and wild > most:
        problems.append(
            (
                "max_wilds_per_meld",
                N_plural(
                    "a meld goes down with at most %(num)s wild card, and this has %(count)s",
                    "a meld goes down with at most %(num)s wild cards, and this has %(count)s",
                    num=most,
                    count=wild,
                ),
            )
        )
    return problems


def read_set(
    cards: Sequence[Card],
    rules: RuleSet,
    *,
    kind: MeldKind = MeldKind.SET,
    rank: Rank | None = None,
    limits: bool = True,
) -> tuple[Meld | None, list[Problem]]:
    """Read ``cards`` as a set (or, with ``kind`` PAIR, a pair) of one rank, ``rank`` if given.

    Returns the arrangement (real cards first, wild cards between them where they
    may not touch) or None with every problem found. ``limits``: the wild-card count limits
    hold (a meld going down; on a meld grown by laying off, as ``wild_limits_on_layoff`` says).
    """
    problems: list[Problem] = []
    cards = sorted(cards)
    wild = [card for card in cards if rules.is_wild(card)]
    real = [card for card in cards if not rules.is_wild(card)]
    pair = kind is MeldKind.PAIR
    least = 2 if pair else rules.min_set
    if len(cards) < least:
        if pair:
            short = N_plural(
                "a pair needs at least %(num)s card, and this has %(count)s",
                "a pair needs at least %(num)s cards, and this has %(count)s",
                num=least,
                count=len(cards),
            )
        else:
            short = N_plural(
                "a set needs at least %(num)s card, and this has %(count)s",
                "a set needs at least %(num)s cards, and this has %(count)s",
                num=least,
                count=len(cards),
            )
        problems.append(("contracts" if pair else "min_set", short))
    ranks = sorted({card.rank for card in real if card.rank is not None})
    if len(ranks) > 1:
        listed = listing([r.symbol for r in ranks])
        problems.append(
            (
                "melds",
                N_("not a pair because %(ranks)s differ", ranks=listed)
                if pair
                else N_("not a set because %(ranks)s differ", ranks=listed),
            )
        )
    elif rank is not None and ranks and ranks[0] != rank:
        wanted, these = rank.plural, ranks[0].plural
        problems.append(
            (
                "contracts",
                N_("not a pair of %(rank)s: these are %(these)s", rank=wanted, these=these)
                if pair
                else N_("not a set of %(rank)s: these are %(these)s", rank=wanted, these=these),
            )
        )
    if len(real) < rules.min_real_cards:
        problems.append(("min_real_cards", _real_needed(wild, rules)))
    if limits:
        problems.extend(wild_limit_problems(len(wild), len(real), rules))
    if pair and wild and len(real) < rules.real_cards_needed(kind, len(cards)):
        problems.append(
            (
                "pair_all_real",
                N_plural(
                    "a pair must be real cards here, and %(cards)s is wild",
                    "a pair must be real cards here, and %(cards)s are wild",
                    num=len(wild),
                    cards=card_list(wild),
                ),
            )
        )
    spacing_ok = rules.wild_spacing.set is Spacing.FREE or len(wild) <= len(real) + 1
    if not spacing_ok:
        problems.append(
            (
                "wild_spacing",
                N_(
                    "%(wild)s and only %(real)s: in a set wild cards may not sit side by side",
                    wild=N_plural("%(num)s wild card", "%(num)s wild cards", num=len(wild)),
                    real=N_plural("%(num)s real card", "%(num)s real cards", num=len(real)),
                ),
            )
        )
    if problems:
        return None, problems
    the_rank = ranks[0] if ranks else rank
    # Wild cards alone (min_real_cards 0) stand for any one rank: shown as the joker (a Wild).
    stands = Card(the_rank, None) if the_rank is not None else _any_wild(rules.deck)
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


def _any_wild(deck: Deck) -> Card:
    """The card that shows "any card" where wild cards stand alone: the deck's first wild
    special card (a joker; a Wild)."""
    special = next(special for special in deck.specials if special.wild)
    return Card(None, None, special)


@dataclass(frozen=True, slots=True)
class RunReading:
    """One legal arrangement of cards as a run: its suit (None where a run's suits are free),
    its places lo…hi (1 is the ace low, 14 the ace high) and the meld."""

    suit: AnySuit | None
    lo: int
    hi: int
    meld: Meld


def arrange_run(
    cards: Sequence[Card], rules: RuleSet, suit: AnySuit | None, lo: int, hi: int
) -> tuple[RunReading | None, str | None]:
    """Place ``cards`` as the run of ``suit`` over places lo…hi, if they fit (``suit`` None:
    a run whose suits are free, Phase 10's).

    Real cards go to their places, a wild-rank card of the suit to its own place
    if free (read as itself), the other wild cards fill the gaps. Returns the
    reading, or None and which rule failed (``"span"``, ``"wild_spacing"``,
    ``"min_real_cards"``).
    """
    slots: dict[int, Placed] = {}
    wild: list[Card] = []
    naturals: list[Card] = []
    deck = rules.deck
    period = deck.period
    for card in sorted(cards):
        if card.rank is None or rules.is_wild_rank(card.rank):
            if card.rank is not None and card.suit is suit and rules.wild_as_itself:
                naturals.append(card)
            else:
                wild.append(card)
            continue
        where = position_of(card.rank, lo, hi, period)
        if where is None or where in slots or (card.suit is not suit and suit is not None):
            return None, "span"
        slots[where] = Placed(card)
    for card in naturals:
        assert card.rank is not None
        where = position_of(card.rank, lo, hi, period)
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
        placements.append(Placed(wild.pop(0), Card(rank_at(where, deck), suit)))
        previous_wild = True
    if wild:
        return None, "span"
    return RunReading(suit, lo, hi, Meld(MeldKind.RUN, tuple(placements))), None


def read_run(
    cards: Sequence[Card], rules: RuleSet, *, limits: bool = True
) -> tuple[list[RunReading], list[Problem]]:
    """Every legal arrangement of ``cards`` as one run, best first, or every problem found.

    Best first: the fewest wild cards below the lowest real card (5-*-7-* before
    *-5-*-7), then the lowest. ``limits`` as for ``read_set``.
    """
    cards = sorted(cards)
    problems: list[Problem] = []
    size = len(cards)
    if size < rules.min_run:
        problems.append(
            (
                "min_run",
                N_plural(
                    "a run needs at least %(num)s card, and this has %(count)s",
                    "a run needs at least %(num)s cards, and this has %(count)s",
                    num=rules.min_run,
                    count=size,
                ),
            )
        )
    real = [card for card in cards if not rules.is_wild(card)]
    one_suit = rules.deck.runs_of_one_suit
    suitless = [card for card in real if card.suit is None] if one_suit else []
    if suitless:
        problems.append(
            (
                "melds",
                N_plural(
                    "%(cards)s has no suit, so it cannot establish a run's suit "
                    "(a run is of one suit; write the suit, like 7H)",
                    "%(cards)s have no suit, so they cannot establish a run's suit "
                    "(a run is of one suit; write the suit, like 7H)",
                    num=len(suitless),
                    cards=card_list(suitless),
                ),
            )
        )
    suits = list(dict.fromkeys(card.suit for card in real if card.suit is not None))
    if len(suits) > 1 and one_suit:
        by_suit = [next(card for card in real if card.suit is suit) for suit in suits]
        problems.append(
            (
                "melds",
                N_("not a run because %(cards)s are not of one suit", cards=card_list(by_suit)),
            )
        )
    candidates: list[AnySuit | None] = [*suits[:1]] if len(suits) == 1 else []
    if not one_suit:
        candidates = [None]
    if not suits and not suitless and rules.wild_as_itself:
        candidates = list(
            dict.fromkeys(
                card.suit for card in cards if card.suit is not None and card.rank is not None
            )
        )
    if rules.runs_may_wrap and size > 13 and one_suit:
        problems.append(("runs_may_wrap", N_("a run holds each rank once, so 13 cards at most")))
    if not one_suit:
        twice = Counter(card.rank for card in real if card.rank is not None)
        repeated_ranks = sorted(rank for rank, count in twice.items() if count > 1)
        wording = rules.deck.wording.repeated_in_run
        if repeated_ranks and wording is not None:
            problems.append(("melds", wording(listing([rank.symbol for rank in repeated_ranks]))))
    elif len(suits) == 1:
        repeated = [card for card, count in Counter(real).items() if count > 1]
        if repeated:
            problems.append(
                (
                    "melds",
                    N_(
                        "a run holds each card once, and this has %(cards)s twice",
                        cards=card_list(repeated),
                    ),
                )
            )
    if not real and (not candidates or not one_suit):
        if rules.min_real_cards == 0:
            # Wild cards alone make a run of any suit.
            candidates = list(rules.deck.suits) if one_suit else [None]
        else:
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
    limited: list[Problem] = []
    if readings and limits:
        within = []
        for reading in readings:
            wild = len(reading.meld.wild_cards)
            broken = wild_limit_problems(wild, len(reading.meld) - wild, rules)
            if broken:
                limited = limited or broken
            else:
                within.append(reading)
        readings = within
    if readings:
        readings.sort(key=_run_preference)
        return readings, []
    if limited:
        return [], limited
    if "wild_spacing" in failures:
        wild_count = sum(1 for card in cards if rules.is_wild(card))
        problems.append(
            (
                "wild_spacing",
                N_(
                    "as a run the two wild cards would have to sit side by side, and in a run "
                    "wild cards must be separated by a real card"
                )
                if wild_count == 2
                else N_(
                    "as a run wild cards would have to sit side by side, and in a run wild "
                    "cards must be separated by a real card"
                ),
            )
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
    deck = rules.deck
    if not deck.ace:
        low, high = deck.ranks[0], deck.ranks[-1]
        words = deck.wording.not_neighbours
        if words is not None and not rules.runs_may_wrap and {int(low), int(high)} <= set(ranks):
            return ("runs_may_wrap", words(high.symbol, low.symbol))
    has_ace = 1 in ranks and deck.ace
    others = [rank for rank in ranks if rank != 1]
    if has_ace and others and rules.aces is Aces.HIGH_OR_LOW and not rules.runs_may_wrap:
        low_fits = max(others) <= size
        high_fits = min(others) >= 15 - size
        near_low = any(rank <= size for rank in others)
        near_high = any(rank >= 15 - size for rank in others)
        if not low_fits and not high_fits and near_low and near_high:
            return (
                "aces",
                N_(
                    "a run never turns the corner: an ace is high (J-Q-K-A) or low (A-2-3-4), "
                    "never both in one run"
                ),
            )
    if has_ace and rules.aces != "high or low" and others and not rules.runs_may_wrap:
        return (
            "aces",
            N_("aces are only low (A-2-3-4) in a run, and these cards do not fit that way")
            if rules.aces is Aces.LOW
            else N_("aces are only high (J-Q-K-A) in a run, and these cards do not fit that way"),
        )
    low_card = min(real, key=lambda card: card.sort_key(), default=None)
    high_card = max(real, key=lambda card: card.sort_key(), default=None)
    if low_card is not None and high_card is not None and low_card != high_card:
        return (
            "melds",
            N_plural(
                "not a run: %(low)s and %(high)s are too far apart for %(num)s card in sequence",
                "not a run: %(low)s and %(high)s are too far apart for %(num)s cards in sequence",
                num=size,
                low=low_card.short,
                high=high_card.short,
            ),
        )
    return ("melds", N_("not a run: these cards are not in sequence"))


def _real_needed(cards: Sequence[Card], rules: RuleSet) -> Message:
    needs = N_plural(
        "every meld needs a real card",
        "each meld needs %(num)s real cards",
        num=rules.min_real_cards,
    )
    if not cards or not all(rules.is_wild(card) for card in cards):
        return needs
    wilds = [special.plural for special in rules.deck.specials if special.wild]
    wild_words = listing([*wilds, *(rank.plural for rank in rules.wild_rank_list)])
    return N_plural(
        "%(cards)s is wild (%(wild)s are wild); %(needs)s",
        "%(cards)s are all wild (%(wild)s are wild); %(needs)s",
        num=len(cards),
        cards=card_list(list(cards)),
        wild=wild_words,
        needs=needs,
    )


def color_least(rules: RuleSet) -> int | None:
    """The fewest cards of one colour that make a meld outside a contract (``RuleSet.
    smallest_color_group``), or None where cards of one colour are no meld."""
    return rules.smallest_color_group


def read_color(
    cards: Sequence[Card], rules: RuleSet, least: int, *, limits: bool = True
) -> tuple[Meld | None, list[Problem]]:
    """Read ``cards`` as a group of one colour (one suit), any ranks in any order, repeats
    allowed, at least ``least`` cards; a wild card stands for a card of the group's colour.

    Returns the arrangement (real cards first, then the wild cards) or None with every
    problem found. ``limits`` as for ``read_set``.
    """
    problems: list[Problem] = []
    unknown = [card for card in cards if not rules.is_wild(card) and card.suit is None]
    cards = sorted(cards)
    wild = [card for card in cards if rules.is_wild(card)]
    real = [card for card in cards if not rules.is_wild(card)]
    if len(cards) < least:
        problems.append(
            (
                "contracts",
                N_plural(
                    "cards of one colour need at least %(num)s card here, and these are %(count)s",
                    "cards of one colour need at least %(num)s cards here, and these are %(count)s",
                    num=least,
                    count=len(cards),
                ),
            )
        )
    if unknown:
        problems.append(
            (
                "melds",
                N_plural(
                    "the colour of %(cards)s is not known (write it, like 7R)",
                    "the colours of %(cards)s are not known (write them, like 7R)",
                    num=len(unknown),
                    cards=card_list(unknown),
                ),
            )
        )
    colours = list(dict.fromkeys(card.suit for card in real if card.suit is not None))
    if len(colours) > 1:
        each = [
            N_(
                "%(card)s is %(colour)s",
                card=next(card for card in real if card.suit is colour).short,
                colour=colour.plural,
            )
            for colour in colours
        ]
        problems.append(("melds", N_("not cards of one colour: %(cards)s", cards=listing(each))))
    if len(real) < rules.min_real_cards:
        problems.append(("min_real_cards", _real_needed(wild, rules)))
    if limits:
        problems.extend(wild_limit_problems(len(wild), len(real), rules))
    if problems:
        return None, problems
    placements = [Placed(card) for card in real] + [Placed(card, card) for card in wild]
    return Meld(MeldKind.COLOR, tuple(placements)), []
