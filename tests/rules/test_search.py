# ruff: noqa: E501  (case tables read best one case a line)
"""find_contract and cards_short: table cases, and exactness against a brute-force referee."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    JOKER,
    Card,
    Rank,
    Suit,
    cards_short,
    check_contract,
    check_meld,
    find_contract,
    get_ruleset,
    parse_cards,
)

from ..nine import NINE_PRESETS

FIND = [
    ("twelve-step", 1, "5S 5D 5C 7H 7S JK 9D", True, 0),
    ("twelve-step", 1, "5S 5D 5C 7H 7S", False, 1),
    ("twelve-step", 1, "5S 5D 2C 2H 9D 9C", True, 0),
    ("twelve-step", 1, "5S 5D 2C 2H 9D KC", False, 1),
    ("twelve-step", 1, "2S 2D 2C 2H JK KC", False, 1),
    ("twelve-step", 1, "2S 2D 2C 2H JK KC QH", True, 0),
    ("twelve-step", 1, "2S 2D 2C 2H JK", False, 2),
    ("twelve-step", 2, "5S 5D 5C 7H 8H 9H 2C KD", True, 0),
    ("twelve-step", 2, "5S 5D 5C 7H 8H 2C 2D", True, 0),
    ("twelve-step", 4, "3H 4H 5H 6H 3H 4H 5H 6H", True, 0),
    ("twelve-step", 4, "3H 4H 5H 6H 7H 8H 9H", False, 1),
    ("twelve-step", 11, "5S 5D 5C 5H JK 2C 2D 5S", True, 0),
    ("twelve-step", 12, "AH 2H 3H 4H 5H 6H 7H 8H 9H JK", True, 0),
    ("twelve-step", 12, "AH 3H 5H 7H 9H JH KH 2C 2D 2S JK JK", True, 0),
    ("twelve-step", 12, "AH 3H 5H 8H 9H JH KH 2C 2D 2S JK JK", False, 1),
    ("twelve-step", 12, "", False, 10),
    ("twelve-step", 7, "K K K 3H 4H 5H 6H 7H 8H 9H", True, 0),
    ("twelve-step", 7, "K K KS 3H 4H 5H 6H 7H 8H", False, 1),
    ("bellevue", 1, "AH AS 7H 7S 7D", True, 0),
    ("bellevue", 1, "AH KS 7H 7S 7D", False, 1),
    ("bellevue", 4, "KH QH JH 10H 9H 8H 7H 6H", False, 1),
    ("bellevue", 4, "KH QH JH 10H 9H 8H 7H 6H 5H", True, 0),
    ("bellevue", 4, "KH QH JH JK 9H 8H 7H 6H", True, 0),
    ("bellevue", 2, "5S JK JK 9D 9H 9C", True, 0),
    ("bellevue", 2, "5S JK JK JK JK JK", False, 1),
    ("bellevue", 2, "5S JK 5D JK 9D 9H 9C", True, 0),
    ("contract-rummy", 7, "3H 4H 5H 6H 3S 4S 5S 6S 9D 10D JD QD", True, 0),
    ("contract-rummy", 1, "2S 2D 2C 7H 7S 7D", True, 0),
    ("contract-rummy", 3, "JK JK JK JK 5H 9S", False, 2),
    ("contract-rummy", 3, "JK JK JK JK JK JK 5H 9S", True, 0),
    ("contract-rummy", 3, "QC KC AC 2C 3C 4C", False, 2),
]


@pytest.mark.parametrize(("slug", "number", "hand", "makeable", "short"), FIND)
def test_find_contract(slug: str, number: int, hand: str, makeable: bool, short: int) -> None:
    found = find_contract(hand, slug, number)
    assert (found is not None) is makeable
    if found is not None:
        _assert_legal(found, parse_cards(hand), slug, number)
    assert cards_short(hand, slug, number) == short


def _assert_legal(
    found: Sequence[Sequence[Card]], hand: list[Card], rules: Any, number: int
) -> None:
    ruling = check_contract(found, rules, number)
    assert ruling.valid, (found, list(ruling.reasons))
    used = Counter(card for meld in found for card in meld)
    held = Counter(hand)
    assert all(used[card] <= held[card] for card in used), (found, hand)
    contract = get_ruleset(rules).contract(number)
    assert len(found) == len(contract.melds)


SMALL_UNIVERSE = [
    *(Card(Rank(r), s) for r in (1, 2, 3, 4, 5, 6, 12, 13) for s in (Suit.HEARTS, Suit.SPADES)),
    Card(Rank.FIVE, None),
    JOKER,
]
FULL_UNIVERSE = [
    *(Card(rank, suit) for rank in Rank for suit in Suit),
    Card(Rank.SEVEN, None),
    Card(Rank.TWO, None),
    JOKER,
]

ORACLE_CASES = [
    ("twelve-step", 1),
    ("twelve-step", 2),
    ("twelve-step", 4),
    ("bellevue", 1),
    ("bellevue", 2),
    ("bellevue", 3),
    ("bellevue", 4),
    ("contract-rummy", 2),
    ("contract-rummy", 3),
    ({"base": "twelve-step", "min_real_cards": 2, "aces": "low"}, 2),
    ({"base": "contract-rummy", "wild_ranks": ["2"], "wild_as_itself": False}, 3),
    ({"base": "bellevue", "contracts": [[{"kind": "run", "size": 4}, {"kind": "set", "size": 3}]]}, 1),
]  # fmt: skip


def _submultisets(hand: list[Card]) -> list[tuple[Card, ...]]:
    counts = Counter(hand)
    kinds = list(counts)
    result = []
    for amounts in itertools.product(*(range(counts[card] + 1) for card in kinds)):
        result.append(tuple(c for card, n in zip(kinds, amounts, strict=True) for c in [card] * n))
    return result


def _oracle(hand: list[Card], rules: Any, number: int) -> bool:
    """Is there any lay-down, melds of any length, from the hand? (Brute force.)"""
    contract = get_ruleset(rules).contract(number)
    least = min(requirement.size for requirement in contract.melds)
    melds = [
        sub
        for sub in _submultisets(hand)
        if (len(sub) >= least and check_meld(list(sub), rules).valid) or _is_run(sub, rules, least)
    ]
    held = Counter(hand)
    for combination in itertools.combinations_with_replacement(melds, len(contract.melds)):
        used = Counter(card for meld in combination for card in meld)
        if any(used[card] > held[card] for card in used):
            continue
        if check_contract([list(meld) for meld in combination], rules, number).valid:
            return True
    return False


def _is_run(sub: tuple[Card, ...], rules: Any, least: int) -> bool:
    from scorekeeper.rules.melds import read_run

    return len(sub) >= least and bool(read_run(list(sub), get_ruleset(rules))[0])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=st.sampled_from(ORACLE_CASES),
    hand=st.lists(st.sampled_from(SMALL_UNIVERSE), min_size=4, max_size=8),
)
def test_find_contract_is_exact(case: tuple[Any, int], hand: list[Card]) -> None:
    rules, number = case
    found = find_contract(hand, rules, number)
    assert (found is not None) == _oracle(hand, rules, number), found
    if found is not None:
        _assert_legal(found, hand, rules, number)
        assert cards_short(hand, rules, number) == 0


CONTRACTS = [
    (slug, n) for slug in NINE_PRESETS for n in range(1, len(get_ruleset(slug).contracts) + 1)
]


@settings(max_examples=80, deadline=None)
@given(
    case=st.sampled_from(CONTRACTS),
    hand=st.lists(st.sampled_from(FULL_UNIVERSE), min_size=0, max_size=21),
)
def test_found_lay_downs_are_legal(case: tuple[str, int], hand: list[Card]) -> None:
    slug, number = case
    found = find_contract(hand, slug, number)
    if found is not None:
        _assert_legal(found, hand, slug, number)
    short = cards_short(hand, slug, number)
    assert (short == 0) == (found is not None)


@settings(max_examples=40, deadline=None)
@given(
    case=st.sampled_from(CONTRACTS),
    hand=st.lists(st.sampled_from(FULL_UNIVERSE), min_size=1, max_size=13),
    data=st.data(),
)
def test_cards_short_moves_by_one_card_at_most(
    case: tuple[str, int], hand: list[Card], data: st.DataObject
) -> None:
    slug, number = case
    short = cards_short(hand, slug, number)
    without = list(hand)
    without.pop(data.draw(st.integers(0, len(hand) - 1)))
    assert short <= cards_short(without, slug, number) <= short + 1
