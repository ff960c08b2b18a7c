"""Properties that hold for every input: order does not matter, nothing crashes."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    JOKER,
    Card,
    CardError,
    Rank,
    Suit,
    cards_short,
    check_contract,
    check_layoff,
    check_liberation,
    check_meld,
    find_contract,
    format_cards,
    get_ruleset,
    parse_cards,
    score_cards,
)

from ..nine import NINE_PRESETS

CARDS = st.one_of(
    st.builds(Card, st.sampled_from(list(Rank)), st.sampled_from(list(Suit))),
    st.builds(Card, st.sampled_from(list(Rank)), st.none()),
    st.just(JOKER),
)
# Cards close together, so that melds come up often.
NEAR_CARDS = st.one_of(
    st.builds(Card, st.sampled_from([Rank(n) for n in (1, 2, 3, 4, 5, 6, 12, 13)]),
              st.sampled_from([Suit.HEARTS, Suit.SPADES])),
    st.builds(Card, st.sampled_from([Rank.FIVE, Rank.TWO]), st.none()),
    st.just(JOKER),
)  # fmt: skip
RULES = st.sampled_from(
    [
        *NINE_PRESETS,
        {"base": "twelve-step", "aces": "low", "min_real_cards": 2},
        {"base": "bellevue", "wild_spacing": {"set": "free", "run": "free"}, "aces": "high"},
        {"base": "contract-rummy", "wild_ranks": ["2", "K"], "wild_as_itself": False},
    ]
)


@settings(max_examples=150, deadline=None)
@given(rules=RULES, cards=st.lists(NEAR_CARDS, min_size=1, max_size=8), data=st.data())
def test_any_order_of_a_melds_cards_rules_the_same(
    rules: Any, cards: list[Card], data: st.DataObject
) -> None:
    shuffled = data.draw(st.permutations(cards))
    first, second = check_meld(cards, rules), check_meld(list(shuffled), rules)
    assert first.valid == second.valid
    assert first.kind == second.kind
    assert first.reasons == second.reasons
    assert first.arrangement == second.arrangement
    if first.valid:
        assert first.meld is not None and sorted(first.meld.cards) == sorted(cards)
    else:
        assert first.reasons


@settings(max_examples=100, deadline=None)
@given(rules=RULES, cards=st.lists(NEAR_CARDS, min_size=3, max_size=8))
def test_a_valid_meld_is_its_own_arrangement(rules: Any, cards: list[Card]) -> None:
    ruling = check_meld(cards, rules)
    if ruling.valid:
        assert ruling.meld is not None
        again = check_meld(list(ruling.meld.cards), rules)
        assert again.valid and again.kind == ruling.kind
        for placed in ruling.meld.placements:
            assert placed.is_wild == (placed.stands_for is not None)


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=40))
def test_random_text_only_raises_card_error(text: str) -> None:
    try:
        cards = parse_cards(text)
    except CardError as error:
        assert error.token and repr(error.token) in str(error)
        return
    assert parse_cards(format_cards(cards)) == cards


@settings(max_examples=100, deadline=None)
@given(cards=st.lists(CARDS, max_size=25), symbols=st.booleans())
def test_notation_round_trips(cards: list[Card], symbols: bool) -> None:
    assert parse_cards(format_cards(cards, symbols=symbols)) == cards


@settings(max_examples=60, deadline=None)
@given(
    rules=RULES,
    hand=st.lists(CARDS, max_size=21),
    table=st.lists(NEAR_CARDS, min_size=0, max_size=7),
    added=st.lists(NEAR_CARDS, min_size=0, max_size=3),
    data=st.data(),
)
def test_random_hands_never_crash(
    rules: Any,
    hand: list[Card],
    table: list[Card],
    added: list[Card],
    data: st.DataObject,
) -> None:
    ruleset = get_ruleset(rules)
    number = data.draw(st.integers(1, len(ruleset.contracts)))
    found = find_contract(hand, ruleset, number)
    short = cards_short(hand, ruleset, number)
    assert (found is None) == (short > 0)
    if found is not None:
        assert check_contract(found, ruleset, number).valid
    check_meld(hand, ruleset)
    split = data.draw(st.integers(0, len(hand)))
    ruling = check_contract([hand[:split], hand[split:]], ruleset, number)
    assert ruling.valid or ruling.reasons
    layoff = check_layoff(table, added, ruleset)
    assert layoff.valid or layoff.reasons
    for card in added:
        liberation = check_liberation(table, card, ruleset, data.draw(st.booleans()))
        assert liberation.valid or liberation.reasons
    assert score_cards(hand, ruleset) >= 0 or any(v < 0 for _, v in ruleset.card_values)
