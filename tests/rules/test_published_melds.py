"""How the referee reads melds under the published games and their options
(shared/spec/more-games.md): the spec's examples, each new option against the five family
games (the default rules as before, the other value changes what it should), and the hand
check exact under them."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    PRESETS,
    Card,
    cards_short,
    check_contract,
    check_layoff,
    check_liberation,
    check_meld,
    find_contract,
    get_ruleset,
)

from ..nine import NINE_PRESETS
from .test_search import _assert_legal, _oracle
from .test_search_bounded import NEAR

FAMILY = PRESETS[:5]


def _words(ruling: Any) -> str:
    return " ".join(ruling.reasons)


# The spec's examples table, row by row.


def test_shanghai_examples() -> None:
    two_real = check_meld("8C 8D JK JK", "shanghai")
    assert two_real.valid and two_real.kind == "set"
    too_wild = check_meld("8C JK JK", "shanghai")
    assert not too_wild.valid
    assert "never holds more wild cards than real ones" in _words(too_wild)
    twos = check_meld("2C 2D 2H", "shanghai")
    assert twos.valid and twos.kind == "set" and not twos.meld.wild_cards  # type: ignore[union-attr]
    made = check_contract(["KC KD KH", "5H 6H 7H 8H 9H 10H JH QH KH AH"], "shanghai", 8)
    assert made.valid
    assert str(made.arrangement[1]) == "5♥-6♥-7♥-8♥-9♥-10♥-J♥-Q♥-K♥-A♥"
    in_a_set = check_liberation("9C 9D JK", "9S", "shanghai", own_meld=False)
    assert not in_a_set.valid
    assert [reason.rule for reason in in_a_set.reasons] == ["liberation_from"]
    assert "sources differ; this preset follows" in _words(in_a_set)


def test_liverpool_examples() -> None:
    assert check_meld("8C JK JK", "liverpool").valid
    corner = check_meld("QH KH AH 2H", "liverpool")
    assert not corner.valid and "never turns the corner" in _words(corner)
    melds = ["AC 2C 3C 4C", "5C 6C 7C 8C", "9H 10H JH QH KH"]
    made = check_contract(melds, "liverpool", 7)
    assert made.valid and "only while going out" in " ".join(made.notes)
    extra = check_contract([*melds, "KS KD KH"], "liverpool", 7)
    assert not extra.valid and "exactly 3 melds, and 4 were laid down" in _words(extra)
    two = check_layoff("4S 5S 6S 7S", "2S", "liverpool")
    assert not two.valid and "does not fit at either end" in _words(two)


def test_carioca_examples() -> None:
    corner = check_meld("QH KH AH 2H", "carioca")
    assert corner.valid and corner.kind == "run"
    assert "here the ace is between the king and the 2" in _words(corner)
    two_wild = check_meld("5H 5D JK JK", "carioca")
    assert not two_wild.valid
    assert "at most 1 wild card, and this has 2" in _words(two_wild)
    three = check_contract(["7C 7D JK", "9S 9H JK", "QC QD JK"], "carioca", 4)
    assert not three.valid
    assert [r.rule for r in three.reasons] == ["max_wilds_per_laydown"]
    sevens = check_contract(["7C 7D 7H", "7S 7C 7D"], "carioca", 1)
    assert not sevens.valid
    assert [r.rule for r in sevens.reasons] == ["same_rank_sets_allowed"]
    layoff = check_layoff("3C 4C 5C 6C", "JK JK", "carioca")
    assert layoff.valid and str(layoff.meld) == "2♣(JK)-3♣-4♣-5♣-6♣-7♣(JK)"


def test_continental_examples() -> None:
    corner = check_meld("KH AH 2H 3H", "continental")
    assert corner.valid and corner.kind == "run"
    side_by_side = check_meld("5S JK JK 8S", "continental")
    assert not side_by_side.valid and "side by side" in _words(side_by_side)
    trio = check_meld("9C JK JK", "continental")
    assert trio.valid and trio.kind == "set"
    past_the_ace = check_layoff("JD QD KD AD", "2D", "continental")
    assert past_the_ace.valid and str(past_the_ace.meld) == "J♦-Q♦-K♦-A♦-2♦"
    own = check_liberation("5S JK 7S 8S", "6S", "continental", own_meld=True)
    assert own.valid and str(own.freed) == "JK"
    assert "must be played at once" in " ".join(own.notes)


# Runs that turn the corner.


def test_a_corner_run_holds_each_rank_once_thirteen_at_most() -> None:
    every = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    assert check_meld(every, "continental").valid
    fourteen = check_meld(every + " JK", "continental")
    assert not fourteen.valid and "13 cards at most" in _words(fourteen)
    repeated = check_meld("QH KH AH 2H QH", "carioca")
    assert not repeated.valid
    full = check_layoff(every, "JK", "continental")
    assert not full.valid and "13 cards at most" in _words(full)
    # The aces option limits nothing once runs turn the corner.
    high_only = {"base": "continental", "aces": "high"}
    assert check_meld("AH 2H 3H 4H", high_only).valid


def test_runs_of_one_suit_continue_each_other_across_the_corner() -> None:
    melds = ["JH QH KH AH", "2H 3H 4H 5H", "7S 8S 9S"]
    assert check_contract(melds, "continental", 6).valid is False  # a trío is asked first
    trio_runs = ["7S 7D 7C", "JH QH KH AH", "2H 3H 4H 5H"]
    assert check_contract(trio_runs, "continental", 6).valid
    apart = {"base": "continental", "same_suit_runs_may_continue": False}
    refused = check_contract(trio_runs, apart, 6)
    assert not refused.valid
    assert [r.rule for r in refused.reasons] == ["same_suit_runs_may_continue"]
    assert check_contract(["7S 7D 7C", "JH QH KH AH", "3H 4H 5H 6H"], apart, 6).valid


@pytest.mark.parametrize("slug", FAMILY)
def test_runs_may_wrap_against_each_family_game(slug: str) -> None:
    wrap = {"base": slug, "runs_may_wrap": True}
    assert not check_meld("KS AS 3S 4S JK", slug).valid
    corner = check_meld("KS AS 3S 4S JK", wrap)
    assert corner.valid and str(corner.meld) == "K♠-A♠-2♠(JK)-3♠-4♠"
    assert check_meld("AS 2S 3S 4S", wrap).valid == check_meld("AS 2S 3S 4S", slug).valid
    assert check_meld("JS QS KS AS", wrap).valid and check_meld("JS QS KS AS", slug).valid
    assert not check_layoff("JD QD KD AD", "2D 3D", slug).valid
    assert check_layoff("JD QD KD AD", "2D 3D", wrap).valid


# Each new option against each of the five family games: the default rules as before (the
# five's own held-out tests run unchanged), the other value as it should.


@pytest.mark.parametrize("slug", FAMILY)
def test_wilds_at_most_naturals_against_each_family_game(slug: str) -> None:
    loose = check_meld("8C JK JK", slug)
    strict = check_meld("8C JK JK", {"base": slug, "wilds_at_most_naturals": True})
    assert loose.valid
    assert not strict.valid
    assert "wilds_at_most_naturals" in [reason.rule for reason in strict.reasons]
    assert check_meld("8C 8D JK JK", {"base": slug, "wilds_at_most_naturals": True}).valid == (
        check_meld("8C 8D JK JK", slug).valid
    )


@pytest.mark.parametrize("slug", FAMILY)
def test_max_wilds_per_meld_against_each_family_game(slug: str) -> None:
    cards = "5H JK 7H JK 9H"
    assert check_meld(cards, slug).valid
    one = {"base": slug, "max_wilds_per_meld": 1}
    refused = check_meld(cards, one)
    assert not refused.valid and "max_wilds_per_meld" in [r.rule for r in refused.reasons]
    assert check_meld("5H JK 7H 8H", one).valid
    # The limit holds as a meld goes down; on laying off only where the rules say so.
    assert check_layoff("5H JK 7H 8H", "JK", one).valid is False
    grows = {"base": slug, "max_wilds_per_meld": 1, "wild_limits_on_layoff": False}
    assert check_layoff("5H JK 7H 8H", "JK", grows).valid
    assert check_layoff("5H JK 7H 8H", "JK", slug).valid


@pytest.mark.parametrize("slug", FAMILY)
def test_max_wilds_per_laydown_against_each_family_game(slug: str) -> None:
    melds = ["5C 5D JK", "9S 9H JK", "QC QD JK"]
    number = 4 if slug == "contract-rummy" else 5  # three sets of 3
    assert check_contract(melds, slug, number).valid
    two = {"base": slug, "max_wilds_per_laydown": 2}
    refused = check_contract(melds, two, number)
    assert not refused.valid and [r.rule for r in refused.reasons] == ["max_wilds_per_laydown"]
    assert check_contract(["5C 5D JK", "9S 9H JK", "QC QD QH"], two, number).valid


@pytest.mark.parametrize("slug", FAMILY)
def test_exact_meld_sizes_against_each_family_game(slug: str) -> None:
    number = 2 if slug in ("bellevue", "contract-rummy") else 1
    melds = ["5C 5D 5H 5S", "9S 9H 9D"]
    if slug == "contract-rummy":
        melds = ["5C 5D 5H 5S", "9S 9H 9D"]
    assert check_contract(melds, slug, number).valid
    exact = {"base": slug, "exact_meld_sizes": True}
    ruling = check_contract(melds, exact, number)
    if slug == "contract-rummy":
        assert ruling.valid  # a set of 3 and a set of 4: both exactly as asked
    else:
        assert not ruling.valid and [r.rule for r in ruling.reasons] == ["exact_meld_sizes"]
    assert check_contract(["5C 5D 5H", "9S 9H 9D"], exact, 1 if slug != "bellevue" else 2).valid


def test_exact_meld_sizes_spare_a_contract_laid_down_while_going_out() -> None:
    exact = {"base": "contract-rummy", "exact_meld_sizes": True}
    melds = ["AC 2C 3C 4C", "5C 6C 7C 8C", "9H 10H JH QH KH"]
    assert check_contract(melds, exact, 7).valid
    assert not check_contract(["AC 2C 3C 4C 5C", "7S 7D 7C"], exact, 1).valid


@pytest.mark.parametrize("slug", FAMILY)
def test_same_rank_sets_against_each_family_game(slug: str) -> None:
    number = 2 if slug == "bellevue" else 1
    melds = ["7C 7D 7H", "7S 7C 7D"]
    assert check_contract(melds, slug, number).valid
    refused = check_contract(melds, {"base": slug, "same_rank_sets_allowed": False}, number)
    assert not refused.valid
    assert [r.rule for r in refused.reasons] == ["same_rank_sets_allowed"]


@pytest.mark.parametrize("slug", FAMILY)
def test_liberation_from_runs_against_each_family_game(slug: str) -> None:
    liberation = get_ruleset(slug).liberation
    in_a_set = check_liberation("9C 9D JK", "9S", slug, own_meld=False)
    assert in_a_set.valid == (liberation != "off")
    runs = {"base": slug, "liberation_from": "runs"}
    refused = check_liberation("9C 9D JK", "9S", runs, own_meld=False)
    assert not refused.valid and "liberation_from" in [r.rule for r in refused.reasons]
    in_a_run = check_liberation("5S JK 7S 8S", "6S", runs, own_meld=False)
    assert in_a_run.valid == (liberation != "off")


@pytest.mark.parametrize("slug", FAMILY)
def test_liberation_before_the_contract_against_each_family_game(slug: str) -> None:
    rules: dict[str, Any] = {"base": slug, "liberation": "any"}
    table = "5S JK 7S 8S"
    assert check_liberation(table, "6S", rules, own_meld=False, contract_made=False).valid
    going_down = rules | {"liberation_before_contract": "if going down"}
    assert not check_liberation(table, "6S", going_down, False, contract_made=False).valid
    assert check_liberation(table, "6S", going_down, False, contract_made=False, going_down=True)
    never = rules | {"liberation_before_contract": "no"}
    refused = check_liberation(table, "6S", never, False, contract_made=False, going_down=True)
    assert not refused.valid
    assert [r.rule for r in refused.reasons] == ["liberation_before_contract"]
    assert check_liberation(table, "6S", never, own_meld=False).valid


def test_a_freed_wild_kept_says_so() -> None:
    ruling = check_liberation("5S JK 7S 8S", "6S", "shanghai", own_meld=True)
    assert ruling.valid and "yours to keep" in " ".join(ruling.notes)
    # Shanghai liberates before the contract only on the turn it is made.
    assert not check_liberation("5S JK 7S 8S", "6S", "shanghai", True, contract_made=False).valid


@pytest.mark.parametrize("slug", FAMILY)
def test_min_real_cards_zero_against_each_family_game(slug: str) -> None:
    assert not check_meld("JK JK JK", slug).valid
    alone = check_meld("JK JK JK", {"base": slug, "min_real_cards": 0})
    # Where wild cards never sit side by side (bellevue), three alone still make no set.
    assert alone.valid == (get_ruleset(slug).wild_spacing.set == "free")
    assert alone.kind in ("set", None)


@pytest.mark.parametrize("slug", FAMILY)
def test_the_family_defaults_rule_as_the_preset(slug: str) -> None:
    defaults = {
        "base": slug,
        "runs_may_wrap": False,
        "wilds_at_most_naturals": False,
        "max_wilds_per_meld": None,
        "max_wilds_per_laydown": None,
        "wild_limits_on_layoff": True,
        "exact_meld_sizes": False,
        "same_rank_sets_allowed": True,
        "liberation_from": "any meld",
        "liberation_before_contract": "yes",
    }
    assert get_ruleset(defaults) == get_ruleset(slug)


def test_a_pair_of_aces_is_a_set_for_one_set_a_rank() -> None:
    """Bellevue's pair of aces is a set of 2 aces (rules.md): where each set needs a rank of
    its own, the set of 3 beside it is no aces. The check and the search agree (the search
    found no lay-down in five aces while the check let A-A and A-A-A down)."""
    one_a_rank = {"base": "bellevue", "same_rank_sets_allowed": False}
    refused = check_contract(["AH AS", "AH AS AD"], one_a_rank, 1)
    assert [r.rule for r in refused.reasons] == ["same_rank_sets_allowed"]
    assert check_contract(["AH AS", "KH KS KD"], one_a_rank, 1).valid
    assert check_contract(["AH AS", "AH AS AD"], "bellevue", 1).valid
    five_aces = "AH AH AH AH AH"
    assert find_contract(five_aces, one_a_rank, 1) is None
    assert find_contract(five_aces, "bellevue", 1) is not None


# "Can I make my contract?" stays exact under the new options.


@st.composite
def published_house_rules(draw: st.DrawFn) -> tuple[dict[str, Any], int]:
    base = draw(st.sampled_from(NINE_PRESETS))
    rules: dict[str, Any] = {"base": base}
    for option, values in (
        ("runs_may_wrap", st.booleans()),
        ("wilds_at_most_naturals", st.booleans()),
        ("max_wilds_per_meld", st.sampled_from([None, 0, 1, 2])),
        ("max_wilds_per_laydown", st.sampled_from([None, 1, 2])),
        ("same_rank_sets_allowed", st.booleans()),
        ("same_suit_runs_may_continue", st.booleans()),
        ("min_real_cards", st.integers(0, 2)),
    ):
        if draw(st.booleans()):
            rules[option] = draw(values)
    number = draw(st.integers(1, len(get_ruleset(base).contracts)))
    return rules, number


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=published_house_rules(), hand=st.lists(st.sampled_from(NEAR), min_size=3, max_size=8))
def test_the_search_agrees_with_brute_force_under_the_new_options(
    case: tuple[dict[str, Any], int], hand: list[Card]
) -> None:
    rules, number = case
    found = find_contract(hand, rules, number)
    assert (found is not None) == _oracle(hand, rules, number), found
    if found is not None:
        _assert_legal(found, hand, rules, number)
        assert cards_short(hand, rules, number) == 0
