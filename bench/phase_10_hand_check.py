"""Benchmark of the hand check on a Phase 10 deck: "can I make my phase?" on the worst hands.

Run from the repository root:

    .venv/bin/python bench/phase_10_hand_check.py            # the full run
    .venv/bin/python bench/phase_10_hand_check.py --quick    # fewer hands

Hands of 10 cards (as dealt) and 11 (one drawn) come from one Phase 10 deck with a seeded
generator, in the shapes that make a search work hardest: many Wilds (up to all 8), many
duplicates (few numbers, each twice in a colour), mixed colours, colours not known, Skips, and
hands one card short of a long run or of seven of a colour. Every phase of the preset is asked,
by find_contract and by cards_short (what the referee asks when the phase is not there). It
prints, per phase and hand size, the median and the worst time of one call, and the slowest
hands; an answer that is "undecided" (the search's work budget, or a contract the search did
not know yet) is counted and shown as such. Each call is timed as the best of 3 with the
garbage collector off. Aim: every call under 1 s. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.rules import (
    SearchBudgetExceeded,
    cards_short,
    find_contract,
    format_cards,
    get_ruleset,
    parse_cards,
)

RULES = get_ruleset("phase-10")
COLOURS = "RBYG"
DECK = [f"{number}{colour}" for number in range(1, 13) for colour in COLOURS] * 2
DECK += ["W"] * 8 + ["S"] * 4


def wild_heavy(rng: random.Random, size: int) -> list[str]:
    """Up to all eight Wilds, the rest from the deck."""
    wilds = rng.randint(4, 8)
    rest = [card for card in DECK if card != "W"]
    return ["W"] * wilds + rng.sample(rest, size - wilds)


def duplicates(rng: random.Random, size: int) -> list[str]:
    """Few numbers, each card often twice (a deck holds two of each), some Wilds and Skips."""
    numbers = rng.sample(range(1, 13), rng.randint(2, 4))
    pool = [f"{n}{c}" for n in numbers for c in COLOURS] * 2 + ["W"] * 4 + ["S"] * 2
    return rng.sample(pool, size)


def unknown_colours(rng: random.Random, size: int) -> list[str]:
    """Numbers typed without their colour, mixed with coloured cards and Wilds."""
    hand = rng.sample(DECK, size)
    return [card[:-1] if card[-1] in COLOURS and rng.random() < 0.5 else card for card in hand]


def near_phase(rng: random.Random, size: int) -> list[str]:
    """One card short of a run of 9 or of seven of a colour, padded with Wilds, Skips and
    duplicates of what is there."""
    if rng.random() < 0.5:
        low = rng.randint(1, 4)
        numbers = list(range(low, low + 9))
        numbers.remove(rng.choice(numbers))
        hand = [f"{n}{rng.choice(COLOURS)}" for n in numbers]
    else:
        colour = rng.choice(COLOURS)
        hand = [f"{rng.randint(1, 12)}{colour}" for _ in range(6)]
    while len(hand) < size:
        hand.append(rng.choice(["W", "S", rng.choice(hand)]))
    return hand[:size]


SHAPES: dict[str, Callable[[random.Random, int], list[str]]] = {
    "many Wilds": wild_heavy,
    "duplicates": duplicates,
    "colours not known": unknown_colours,
    "one card short": near_phase,
}


def best_of(function: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """The fastest of 3 calls, and the answer ("undecided" when the search gave up)."""
    times = []
    answer: Any = None
    for _ in range(3):
        gc.disable()
        start = time.perf_counter()
        try:
            answer = function(*args)
        except SearchBudgetExceeded:
            answer = "undecided"
        finally:
            times.append(time.perf_counter() - start)
            gc.enable()
    return min(times), answer


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:8.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20 hands a shape, not 100")
    parser.add_argument("--seed", type=int, default=10)
    options = parser.parse_args()
    per_shape = 20 if options.quick else 100
    rng = random.Random(options.seed)
    hands = {
        size: [" ".join(shape(rng, size)) for shape in SHAPES.values() for _ in range(per_shape)]
        for size in (10, 11)
    }
    slowest: list[tuple[float, str, int, str]] = []
    every: list[float] = []
    print(f"{per_shape * len(SHAPES)} hands a size, {', '.join(SHAPES)}")
    for size, dealt in hands.items():
        for number in range(1, len(RULES.contracts) + 1):
            for question, function in (("find", find_contract), ("short", cards_short)):
                seconds = []
                undecided = 0
                for hand in dealt:
                    cards = parse_cards(hand, RULES)
                    elapsed, answer = best_of(function, cards, RULES, number)
                    seconds.append(elapsed)
                    undecided += answer == "undecided"
                    slowest.append((elapsed, question, number, format_cards(cards)))
                every.extend(seconds)
                print(
                    f"{size} cards  phase {number:2}  {question:5}  median "
                    f"{milliseconds(statistics.median(seconds))}  worst "
                    f"{milliseconds(max(seconds))}  undecided {undecided}"
                )
    median, worst = statistics.median(every), max(every)
    print(f"all calls: median {milliseconds(median)}, worst {milliseconds(worst)}")
    print("slowest:")
    for elapsed, question, number, hand in sorted(slowest, reverse=True)[:8]:
        print(f"  {milliseconds(elapsed)}  {question:5} phase {number:2}  {hand}")


if __name__ == "__main__":
    main()
