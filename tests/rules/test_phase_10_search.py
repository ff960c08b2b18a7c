"""The hand check on a Phase 10 deck (phase-10.md): runs of any colours and cards of one colour,
through the public interface, against the spec's examples, against an exhaustive search written
here (hypothesis, hands from the Phase 10 deck), and on the worst hands a table can hold."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    Card,
    cards_short,
    check_contract,
    find_contract,
    get_ruleset,
    parse_cards,
)

P10 = "phase-10"

FIND = [
    # phase, hand, makeable, cards short
    (8, "2R 9R 12R W 4R 4R 7R", True, 0),
    (8, "2R 9R 12B W 4R 4R 7R", False, 1),
    (8, "2 9 12 W 4 4 7", False, 6),
    (8, "S 2R 9R 12R 4R 4R 7R", False, 1),
    (8, "1G 3G 5G 7G 9G 11G 12G S S W", True, 0),
    (8, "W W W W W W 7B 2R", True, 0),
    (8, "1R 2R 3R 1B 2B 3B 1Y 2Y 3Y 4G", False, 4),
    (4, "1R 2B 3G 4Y 5R 6B 7G 8Y 9R 10B", True, 0),
    (4, "1R 2B 3G 4Y 5R 6B 8Y 9R 10B 11G", False, 1),
    (4, "1R 2B 3G 5R 6B 8Y 9R 10B 11G S", False, 1),
    (5, "W W W W W W W 6R", True, 0),
    (6, "4R 5B 6G 7Y 8R 9B 10G 11Y 12R W", True, 0),
    (6, "1R 1B 2G 2Y 3R 3B 4G 4Y W W S", False, 3),
    (2, "7R 7B W 3G 4Y 6B 9R", False, 1),
    (2, "7R 7B W 3G 4Y 5B 6R", True, 0),
    (2, "7R 7B 7G 3G 4Y 5B 6R", True, 0),
    (2, "7R 7B 7G 4G 5Y 6B", False, 1),
    (2, "5R 5B 5G 5Y 6B 7R", False, 1),
    (3, "5R 5B 5G 5Y 6B 7R 8G W", True, 0),
    (3, "5R 5B 5G 5Y 6B 7R 8G", False, 1),
    (1, "10R 10B 10G 10Y 10R 10B", True, 0),
    (7, "W W W W W W 3R 9B", True, 0),
    (9, "4R 4B 4G 4Y W 11R 11B", True, 0),
    (10, "4R 4B 4G 4Y W 11R 11B", False, 1),
]


def _assert_legal(
    found: Sequence[Sequence[Card]], hand: Sequence[Card], rules: Any, number: int
) -> None:
    ruling = check_contract(found, rules, number)
    assert ruling.valid, (found, [str(reason) for reason in ruling.reasons])
    used = Counter(card for meld in found for card in meld)
    held = Counter(hand)
    assert all(used[card] <= held[card] for card in used), (found, hand)
    assert len(found) == len(get_ruleset(rules).contract(number).melds)


@pytest.mark.parametrize(("number", "hand", "makeable", "short"), FIND)
def test_the_hand_check_rules_phase_10_hands(
    number: int, hand: str, makeable: bool, short: int
) -> None:
    found = find_contract(hand, P10, number)
    assert (found is not None) is makeable
    if found is not None:
        _assert_legal(found, parse_cards(hand, P10), P10, number)
    assert cards_short(hand, P10, number) == short


# An exhaustive search, written from phase-10.md's definitions, not from the engine's.


def _is_meld(kind: str, size: int, cards: Sequence[Card], rules: Any) -> bool:
    ruleset = get_ruleset(rules)
    wilds = sum(1 for card in cards if card.rank is None)
    real = [card for card in cards if card.rank is not None]
    numbers = [int(card.rank) for card in real if card.rank is not None]
    if len(cards) < size or len(real) < ruleset.min_real_cards:
        return False
    if ruleset.wilds_at_most_naturals and wilds > len(real):
        return False
    if ruleset.max_wilds_per_meld is not None and wilds > ruleset.max_wilds_per_meld:
        return False
    if kind == "set":
        return len(cards) >= ruleset.min_set and len(set(numbers)) <= 1
    if kind == "color":
        return (
            all(card.suit is not None for card in real) and len({card.suit for card in real}) <= 1
        )
    # A run: each number once, all within a window of len(cards) consecutive numbers of 1…12
    # (across 12 and 1 where runs wrap).
    length = len(cards)
    if length < ruleset.min_run or length > 12 or len(set(numbers)) != len(numbers):
        return False
    starts = range(1, 13) if ruleset.runs_may_wrap else range(1, 14 - length)
    return any(all((number - start) % 12 < length for number in numbers) for start in starts)


def _submultisets(cards: list[Card]) -> Iterator[tuple[Card, ...]]:
    counts = Counter(cards)
    kinds = list(counts)

    def extend(index: int, chosen: tuple[Card, ...]) -> Iterator[tuple[Card, ...]]:
        if index == len(kinds):
            yield chosen
            return
        for amount in range(counts[kinds[index]] + 1):
            yield from extend(index + 1, chosen + (kinds[index],) * amount)

    yield from extend(0, ())


def _exhaustive(hand: list[Card], rules: Any, number: int) -> bool:
    """Whether any lay-down of the contract, melds of any length, comes from ``hand``."""
    requirements = get_ruleset(rules).contract(number).melds
    meldable = [card for card in hand if card.special is None or card.special.wild]
    subsets = list(_submultisets(meldable))
    options = [
        [sub for sub in subsets if _is_meld(req.kind.value, req.size, sub, rules)]
        for req in requirements
    ]
    held = Counter(meldable)

    def place(index: int, left: Counter[Card]) -> bool:
        if index == len(requirements):
            return True
        for meld in options[index]:
            wanted = Counter(meld)
            if all(left[card] >= amount for card, amount in wanted.items()) and place(
                index + 1, left - wanted
            ):
                return True
        return False

    return place(0, held)


def _run(size: int) -> dict[str, Any]:
    return {"kind": "run", "size": size}


def _set(size: int) -> dict[str, Any]:
    return {"kind": "set", "size": size}


def _colour(size: int) -> dict[str, Any]:
    return {"kind": "color", "size": size}


def _house(*contracts: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    return {"base": P10, "contracts": [list(melds) for melds in contracts], **options}


SMALL = _house(
    [_run(3), _colour(3)],
    [_colour(3), _colour(3)],
    [_set(2), _run(3), _colour(2)],
    [_run(3), _run(3)],
)
CASES = [
    (P10, 1),
    (P10, 2),
    (P10, 8),
    (SMALL, 1),
    (SMALL, 2),
    (SMALL, 3),
    (SMALL, 4),
    ({**SMALL, "runs_may_wrap": True}, 1),
    ({**SMALL, "runs_may_wrap": True}, 4),
    ({**SMALL, "min_real_cards": 0}, 1),
    ({**SMALL, "min_real_cards": 0}, 2),
    ({**SMALL, "min_real_cards": 2}, 1),
    ({**SMALL, "min_real_cards": 2}, 3),
    ({**SMALL, "wilds_at_most_naturals": True}, 1),
    ({**SMALL, "wilds_at_most_naturals": True}, 2),
    ({**SMALL, "max_wilds_per_meld": 1}, 2),
    ({**SMALL, "max_wilds_per_meld": 1}, 4),
]

# Few numbers and colours, so that hands of up to nine cards often hold a lay-down.
_DECK = parse_cards("1R 1B 2R 2B 3R 3B 4R 4B 11R 11B 12R 12B 3 12 W S", P10)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=st.sampled_from(CASES),
    hand=st.lists(st.sampled_from(_DECK), min_size=3, max_size=9),
)
def test_the_hand_check_agrees_with_an_exhaustive_search(
    case: tuple[Any, int], hand: list[Card]
) -> None:
    rules, number = case
    found = find_contract(hand, rules, number)
    assert (found is not None) == _exhaustive(hand, rules, number), found
    if found is not None:
        _assert_legal(found, hand, rules, number)
    assert (cards_short(hand, rules, number) == 0) == (found is not None)


@settings(max_examples=60, deadline=None)
@given(
    number=st.integers(1, 10),
    hand=st.lists(
        st.sampled_from(parse_cards("1R 2B 3G 4Y 5R 6B 7G 8Y 9R 10B 11G 12Y 7 W S", P10)),
        min_size=1,
        max_size=11,
    ),
    data=st.data(),
)
def test_one_card_less_is_at_most_one_card_more_short(
    number: int, hand: list[Card], data: st.DataObject
) -> None:
    short = cards_short(hand, P10, number)
    without = list(hand)
    without.pop(data.draw(st.integers(0, len(hand) - 1)))
    assert short <= cards_short(without, P10, number) <= short + 1
