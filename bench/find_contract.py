"""Benchmark of the hand check on adversarial house rules: find_contract on 30 cards.

Run from the repository root:

    .venv/bin/python bench/find_contract.py              # the full run
    .venv/bin/python bench/find_contract.py --quick      # one hand per rule variant
    .venv/bin/python bench/find_contract.py --cap 2      # give up on a call after 2 s
    .venv/bin/python bench/find_contract.py --published  # only the published games' hands

Every preset is loosened the way the house-rules editor allows it to be at its
hardest for a search: many wild ranks (read as themselves in their own place in a
run, so each is both a wild card and a possible real card), several real cards
required in every meld (so runs of every length must be tried), wild cards free to
touch. Hands of 30 cards are dealt with a seeded generator from two decks and the
jokers, and every contract of the preset is searched. It prints, per preset and
contract, the median and the worst time of one call; a call still running after
``--cap`` seconds is stopped and counted at the cap (before the search had a bound
this is what happened). ``find_contract`` may answer "undecided" (its work budget
ran out): those calls are counted too. This is a measurement, not a test: it never
fails.

The published games (Shanghai, Liverpool, Carioca, Continental) are then timed as dealt, at
their worst: 13 cards (Continental's last round, the most any of them deals), dealt from
their packs with every joker of six decks' worth in reach, and half the hands built around
a corner (Q K A 2 3 of one suit, where Carioca and Continental let a run turn it), for
``find_contract`` and for ``cards_short``.
"""

from __future__ import annotations

import argparse
import gc
import random
import signal
import statistics
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.rules import (
    JOKER,
    PRESETS,
    Card,
    Rank,
    RuleSet,
    Suit,
    get_ruleset,
    search,
)

HAND_SIZE = 30

# The hardest corners of what the editor accepts, applied on top of each preset.
VARIANTS: dict[str, dict[str, Any]] = {
    "8 wild ranks, 3 real": {
        "wild_ranks": ["2", "3", "4", "5", "6", "7", "8", "9"],
        "min_real_cards": 3,
        "wild_as_itself": True,
        "wild_spacing": {"set": "free", "run": "free"},
    },
    "11 wild ranks, 2 real": {
        "wild_ranks": ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q"],
        "min_real_cards": 2,
        "wild_as_itself": True,
        "wild_spacing": {"set": "free", "run": "free"},
    },
    "13 wild ranks, 3 real": {
        "wild_ranks": [rank.symbol for rank in Rank],
        "min_real_cards": 3,
        "wild_as_itself": True,
        "wild_spacing": {"set": "free", "run": "free"},
    },
    "6 wild ranks, 2 real, apart": {
        "wild_ranks": ["2", "3", "4", "5", "6", "7"],
        "min_real_cards": 2,
        "wild_as_itself": True,
        "wild_spacing": {"set": "not adjacent", "run": "not adjacent"},
    },
}


class Stopped(Exception):
    """A call ran past the cap."""


def _stop(signum: int, frame: FrameType | None) -> None:
    raise Stopped


def _loosened(slug: str, overrides: dict[str, Any]) -> RuleSet:
    """The preset with ``overrides``, leaving out wild ranks a contract names (a pair of
    aces cannot be asked for when aces are wild: the editor refuses it)."""
    named = {
        requirement.rank.symbol
        for contract in get_ruleset(slug).contracts
        for requirement in contract.melds
        if requirement.rank is not None
    }
    wild = [rank for rank in overrides["wild_ranks"] if rank not in named]
    return get_ruleset({"base": slug, **overrides, "wild_ranks": wild})


def pack(rules: RuleSet) -> list[Card]:
    """Two decks and their jokers (four players' packs, at least four jokers)."""
    packs = rules.packs(4)
    cards = [Card(rank, suit) for rank in Rank for suit in Suit] * packs.decks
    return cards + [JOKER] * max(4, packs.jokers)


def call(rules: RuleSet, hand: list[Card], number: int, cap: float) -> tuple[float, str]:
    """Seconds one call of find_contract takes (the cap if stopped), and its answer."""
    signal.setitimer(signal.ITIMER_PROF, cap)
    start = time.process_time()
    try:
        found = search.find_contract(hand, rules, number)
        answer = "made" if found is not None else "not made"
    except Stopped:
        return cap, "stopped"
    except getattr(search, "SearchBudgetExceeded", Stopped):
        answer = "undecided"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    return time.process_time() - start, answer


PUBLISHED = ("shanghai", "liverpool", "carioca", "continental")
PUBLISHED_HAND = 13


def published_hand(rules: RuleSet, rng: random.Random) -> list[Card]:
    """A worst hand of a published game: 13 cards, jokers plenty, a corner half the time."""
    packs = rules.packs(8)
    cards = [Card(rank, suit) for rank in Rank for suit in Suit] * packs.decks
    cards += [JOKER] * packs.jokers
    if rng.random() < 0.5:
        return rng.sample(cards, PUBLISHED_HAND)
    suit = rng.choice(list(Suit))
    corner = [Card(rank, suit) for rank in (Rank.QUEEN, Rank.KING, Rank.ACE, Rank.TWO)]
    return corner + [JOKER] * 2 + rng.sample(cards, PUBLISHED_HAND - 6)


def published_call(
    rules: RuleSet, hand: list[Card], number: int, cap: float, short: bool
) -> tuple[float, str]:
    """Like ``call``, for find_contract or (``short``) cards_short."""
    if not short:
        return call(rules, hand, number, cap)
    signal.setitimer(signal.ITIMER_PROF, cap)
    start = time.process_time()
    try:
        answer = f"{search.cards_short(hand, rules, number)} short"
    except Stopped:
        return cap, "stopped"
    except search.SearchBudgetExceeded:
        answer = "undecided"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    return time.process_time() - start, answer


def published(hands: int, seed: int, cap: float) -> None:
    """The published games' worst hands, every contract, both questions."""
    rng = random.Random(seed)
    print(f"published games: {PUBLISHED_HAND} cards, {hands} hand(s) per contract")
    print(f"{'preset':15} {'question':>12} {'median ms':>10} {'worst ms':>10}")
    for slug in PUBLISHED:
        rules = get_ruleset(slug)
        for short in (False, True):
            seconds: list[float] = []
            for number in range(1, len(rules.contracts) + 1):
                for _ in range(hands):
                    elapsed, _answer = published_call(
                        rules, published_hand(rules, rng), number, cap, short
                    )
                    seconds.append(elapsed)
            question = "cards_short" if short else "find_contract"
            print(
                f"{slug:15} {question:>12} {statistics.median(seconds) * 1000:>10.2f}"
                f" {max(seconds) * 1000:>10.2f}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one hand per rule variant")
    parser.add_argument("--seed", type=int, default=20250113)
    parser.add_argument("--cap", type=float, default=5.0, help="seconds before a call is stopped")
    parser.add_argument(
        "--published", action="store_true", help="only the published games' worst hands"
    )
    options = parser.parse_args()
    signal.signal(signal.SIGPROF, _stop)
    gc.disable()  # as timeit does: a collection pause is not the search's time
    hands = 1 if options.quick else 3
    if options.published:
        published(10 if options.quick else 40, options.seed, options.cap)
        return
    rng = random.Random(options.seed)
    every: list[float] = []
    answers: dict[str, int] = {}
    print(f"{HAND_SIZE} cards, {hands} hand(s) per rule variant, cap {options.cap} s (CPU time)")
    print(f"{'preset':15} {'contract':>8} {'median ms':>10} {'worst ms':>10}  answers")
    for slug in PRESETS:
        base = get_ruleset(slug)
        for number in range(1, len(base.contracts) + 1):
            seconds: list[float] = []
            tally: dict[str, int] = {}
            for overrides in VARIANTS.values():
                rules = _loosened(slug, overrides)
                cards = pack(rules)
                for _ in range(hands):
                    hand = rng.sample(cards, HAND_SIZE)
                    elapsed, answer = call(rules, hand, number, options.cap)
                    seconds.append(elapsed)
                    tally[answer] = tally.get(answer, 0) + 1
            every.extend(seconds)
            for answer, count in tally.items():
                answers[answer] = answers.get(answer, 0) + count
            listed = ", ".join(f"{count} {answer}" for answer, count in sorted(tally.items()))
            print(
                f"{slug:15} {number:>8} {statistics.median(seconds) * 1000:>10.1f}"
                f" {max(seconds) * 1000:>10.1f}  {listed}",
                flush=True,
            )
    listed = ", ".join(f"{count} {answer}" for answer, count in sorted(answers.items()))
    print(
        f"all: {len(every)} calls, median {statistics.median(every) * 1000:.1f} ms,"
        f" worst {max(every) * 1000:.1f} ms; {listed}"
    )
    published(10 if options.quick else 40, options.seed, options.cap)


if __name__ == "__main__":
    main()
