"""Benchmark of the rules engine: check_meld and find_contract over generated hands.

Run from the repository root:

    .venv/bin/python bench/rules_bench.py            # the full run
    .venv/bin/python bench/rules_bench.py --quick    # fewer hands

Hands are dealt with a seeded random generator from the packs of each preset
(four players): 13-card hands as dealt, and 21-card hands (the most a Bellevue
player may hold) with up to 8 wild cards. Every preset and every contract is
searched. It prints the median and the worst time of check_meld (on random 3
to 10 card groups of the hands) and of find_contract, per hand size, and the
slowest cases. Aim: find_contract under 1 ms median on 13 cards, under 50 ms
worst on 21 cards. Each call is timed as the best of 3 (the machine may be
shared with other work) with the garbage collector off, as timeit does. This
is a measurement, not a test: it never fails.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.rules import (
    JOKER,
    PRESETS,
    Card,
    Rank,
    RuleSet,
    Suit,
    check_meld,
    find_contract,
    format_cards,
    get_ruleset,
)


def pack(rules: RuleSet, players: int = 4) -> list[Card]:
    """Every card of the game's packs for ``players`` players."""
    packs = rules.packs(players)
    cards = [Card(rank, suit) for rank in Rank for suit in Suit] * packs.decks
    return cards + [JOKER] * packs.jokers


def deal(rng: random.Random, rules: RuleSet, size: int, most_wild: int) -> list[Card]:
    """A hand of ``size`` cards from the packs with at most ``most_wild`` wild cards."""
    cards = pack(rules)
    wild = [card for card in cards if rules.is_wild(card)]
    real = [card for card in cards if not rules.is_wild(card)]
    wild_count = min(rng.randint(0, most_wild), len(wild))
    return rng.sample(wild, wild_count) + rng.sample(real, size - wild_count)


def timed(function: object, *arguments: object) -> float:
    """Seconds one call takes."""
    start = time.perf_counter()
    function(*arguments)  # type: ignore[operator]
    return time.perf_counter() - start


def best_of(function: object, *arguments: object, repeat: int = 3) -> float:
    """The least of ``repeat`` timings of one call: the machine is shared, and a call
    that another process interrupts is not slower code."""
    return min(timed(function, *arguments) for _ in range(repeat))


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:8.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands")
    parser.add_argument("--seed", type=int, default=20240601)
    options = parser.parse_args()
    gc.disable()  # as timeit does: a collection pause is not the engine's time
    hands_per_contract = 10 if options.quick else 40
    rng = random.Random(options.seed)
    shapes = [("13 cards", 13, 4), ("21 cards, up to 8 wild", 21, 8)]
    for label, size, most_wild in shapes:
        find_times: list[tuple[float, str, int, str, bool]] = []
        meld_times: list[float] = []
        found = 0
        for slug in PRESETS:
            rules = get_ruleset(slug)
            for number in range(1, len(rules.contracts) + 1):
                for _ in range(hands_per_contract):
                    hand = deal(rng, rules, size, most_wild)
                    result = find_contract(hand, rules, number)
                    elapsed = best_of(find_contract, hand, rules, number)
                    found += result is not None
                    find_times.append(
                        (elapsed, slug, number, format_cards(hand), result is not None)
                    )
                    group = rng.sample(hand, rng.randint(3, 10))
                    meld_times.append(best_of(check_meld, group, rules))
        seconds = [entry[0] for entry in find_times]
        print(f"{label}: {len(seconds)} hands, {found} make their contract")
        print(
            f"  find_contract  median {milliseconds(statistics.median(seconds))}"
            f"  worst {milliseconds(max(seconds))}"
        )
        print(
            f"  check_meld     median {milliseconds(statistics.median(meld_times))}"
            f"  worst {milliseconds(max(meld_times))}"
        )
        for elapsed, slug, number, hand, made in sorted(find_times, reverse=True)[:3]:
            verdict = "made" if made else "not made"
            print(f"    slowest: {milliseconds(elapsed)}  {slug} {number} ({verdict}): {hand}")
    for slug in PRESETS:
        rules = get_ruleset(slug)
        per_preset = []
        for number in range(1, len(rules.contracts) + 1):
            for _ in range(hands_per_contract // 2):
                hand = deal(rng, rules, 21, 8)
                per_preset.append(best_of(find_contract, hand, rules, number))
        print(
            f"  {slug:15} 21 cards: median {milliseconds(statistics.median(per_preset))}"
            f"  worst {milliseconds(max(per_preset))}"
        )


if __name__ == "__main__":
    main()
