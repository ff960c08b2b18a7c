"""The bounded hand check: exact on every hand it decides, and it decides every hand dealt
under a preset with room to spare; past its work budget it says so instead of answering."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    JOKER,
    Card,
    Rank,
    RuleSet,
    SearchBudgetExceeded,
    Suit,
    cards_short,
    find_contract,
    get_ruleset,
    search,
)

from ..nine import NINE_PRESETS
from .test_search import _assert_legal, _oracle

# Near cards in two suits (wild-rank cards among them, read as themselves or not), a rank
# alone and jokers: melds come up often in 8 cards.
NEAR = [
    *(Card(Rank(r), s) for r in (1, 2, 3, 4, 5, 6, 12, 13) for s in (Suit.HEARTS, Suit.SPADES)),
    Card(Rank.FIVE, None),
    Card(Rank.THREE, None),
    JOKER,
]


@st.composite
def house_rules(draw: st.DrawFn) -> tuple[dict[str, Any], int]:
    """A preset loosened or tightened the way the house-rules editor allows, and a contract."""
    base = draw(st.sampled_from(NINE_PRESETS))
    preset = get_ruleset(base)
    named = {r.rank for c in preset.contracts for r in c.melds if r.rank is not None}
    wild_choices = [rank.symbol for rank in Rank if rank not in named]
    rules: dict[str, Any] = {"base": base}
    if draw(st.booleans()):
        rules["wild_ranks"] = draw(st.lists(st.sampled_from(wild_choices), max_size=4))
        rules["wild_as_itself"] = draw(st.booleans())
    if draw(st.booleans()):
        rules["min_real_cards"] = draw(st.integers(1, 3))
    if draw(st.booleans()):
        spacing = st.sampled_from(["free", "not adjacent"])
        rules["wild_spacing"] = {"set": draw(spacing), "run": draw(spacing)}
    if draw(st.booleans()):
        rules["aces"] = draw(st.sampled_from(["high or low", "low", "high"]))
    if draw(st.booleans()):
        rules["same_suit_runs_may_continue"] = draw(st.booleans())
    if draw(st.booleans()):
        rules["min_set"] = draw(st.integers(2, 4))
        rules["min_run"] = draw(st.integers(2, 5))
    number = draw(st.integers(1, len(preset.contracts)))
    return rules, number


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=house_rules(), hand=st.lists(st.sampled_from(NEAR), min_size=3, max_size=8))
# Found by hypothesis: four cards, aces wild and themselves, three runs of 4. How many cards
# are short is past the budget (every ace may stand anywhere in any run): it says so.
@example(
    case=({"base": "contract-rummy", "wild_ranks": ["A"], "wild_as_itself": True}, 7),
    hand=[Card(Rank.ACE, Suit.HEARTS)] * 3 + [Card(Rank.FIVE, None)],
)
def test_the_search_agrees_with_brute_force_under_house_rules(
    case: tuple[dict[str, Any], int], hand: list[Card]
) -> None:
    rules, number = case
    found = find_contract(hand, rules, number)
    assert (found is not None) == _oracle(hand, rules, number), found
    if found is not None:
        _assert_legal(found, hand, rules, number)
    try:
        short = cards_short(hand, rules, number)
    except SearchBudgetExceeded as undecided:
        # Past its budget the search says so, and the page says to check by hand: never a
        # wrong count.
        assert "check by hand" in str(undecided)
        return
    except ValueError:
        # No hand at all makes this contract under these rules (a run of 10 where the only
        # 5s and 6s are wild and two wild cards may not touch, say).
        assert found is None
        assert _no_hand_at_all(rules, number)
        return
    assert (short == 0) == (found is not None)


def _no_hand_at_all(rules: dict[str, Any], number: int) -> bool:
    """Whether no hand of two whole decks and their jokers makes the contract."""
    ruleset = get_ruleset(rules)
    every_card = [Card(rank, suit) for rank in Rank for suit in Suit] * 2 + [JOKER] * 4
    try:
        return find_contract(every_card, ruleset, number) is None
    except SearchBudgetExceeded:
        return True  # too many possibilities to say: cards_short's ValueError stands


def _pack(rules: RuleSet, players: int) -> list[Card]:
    packs = rules.packs(players)
    return [Card(rank, suit) for rank in Rank for suit in Suit] * packs.decks + [
        JOKER
    ] * packs.jokers


# The budget is never near: these hands must be decided within half of it
# (find_contract takes at most about 3,000 steps; cards_short, counting several searches, up to
# about 55,000 on Bellevue contract 10, three runs that may not touch).
MARGIN = 2
HANDS_PER_CONTRACT = 25


@pytest.mark.parametrize("slug", NINE_PRESETS)
def test_hands_dealt_under_a_preset_never_come_near_the_budget(
    slug: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search, "WORK_BUDGET", search.WORK_BUDGET // MARGIN)
    rules = get_ruleset(slug)
    rng = random.Random(f"bounded-{slug}")
    for number in range(1, len(rules.contracts) + 1):
        # The round that plays this contract when the round sets it, else any round.
        dealt = rules.cards_dealt(number if rules.contract_order == "round" else 1)
        for _ in range(HANDS_PER_CONTRACT):
            players = rng.randint(rules.min_players, rules.max_players or 8)
            drawn = rng.randint(0, 9)  # a turn's draw, and "May I"s taken
            hand = rng.sample(_pack(rules, players), dealt + drawn)
            found = find_contract(hand, rules, number)
            if found is not None:
                _assert_legal(found, hand, slug, number)
            assert (cards_short(hand, rules, number) == 0) == (found is not None)


# All ranks wild but those read as themselves, three real cards a meld, 30 cards: the
# hardest corner the editor allows (bench/find_contract.py times it).
EXTREME = {
    "base": "contract-rummy",
    "wild_ranks": [rank.symbol for rank in Rank],
    "min_real_cards": 3,
    "wild_spacing": {"set": "free", "run": "free"},
}


def _extreme_hand() -> list[Card]:
    rng = random.Random("extreme")
    return rng.sample(_pack(get_ruleset(EXTREME), 4) + [JOKER] * 3, 30)


def test_past_its_budget_the_search_says_it_cannot_decide(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(search, "WORK_BUDGET", 50)
    hand = _extreme_hand()
    with pytest.raises(SearchBudgetExceeded, match="check by hand") as raised:
        find_contract(hand, EXTREME, 6)
    assert raised.value.contract == get_ruleset(EXTREME).contract(6)
    with pytest.raises(SearchBudgetExceeded):
        cards_short(hand, EXTREME, 6)


def test_the_extreme_corner_is_decided_or_refused_never_anything_else() -> None:
    hand = _extreme_hand()
    for number in range(1, 8):
        try:
            found = find_contract(hand, EXTREME, number)
        except SearchBudgetExceeded:
            continue
        if found is not None:
            _assert_legal(found, hand, EXTREME, number)
