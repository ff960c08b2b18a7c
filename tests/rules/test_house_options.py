"""The two readings the seed documents leave open: a wild card in Bellevue's pair of aces
(``pair_all_real``) and laying off on the turn the contract goes down
(``layoff_on_contract_turn``), each under every preset where it applies, both ways."""

from __future__ import annotations

import json

import pytest

from scorekeeper.rules import (
    PRESETS,
    check_contract,
    check_layoff,
    check_meld,
    find_contract,
    get_ruleset,
    parse_cards,
)

from ..nine import NINE_PRESETS

BELLEVUE_SENTENCE = "One pair of aces and three of a kind."
CONTRACT_RUMMY_SENTENCE = "have put cards down on another turn you can lay off of something else"


@pytest.mark.parametrize(
    ("slug", "pair_all_real", "layoff_on_contract_turn"),
    [
        ("twelve-step", False, True),
        ("russian-rummy", False, True),
        ("dummy-rummy", False, True),
        ("bellevue", False, True),
        ("contract-rummy", False, False),
    ],
)
def test_preset_values(slug: str, pair_all_real: bool, layoff_on_contract_turn: bool) -> None:
    rules = get_ruleset(slug)
    assert rules.pair_all_real is pair_all_real
    assert rules.layoff_on_contract_turn is layoff_on_contract_turn
    assert rules.to_dict()["pair_all_real"] is pair_all_real
    assert rules.to_dict()["layoff_on_contract_turn"] is layoff_on_contract_turn


@pytest.mark.parametrize(
    ("slug", "option", "quoted"),
    [
        ("bellevue", "pair_all_real", BELLEVUE_SENTENCE),
        ("contract-rummy", "layoff_on_contract_turn", CONTRACT_RUMMY_SENTENCE),
        ("twelve-step", "layoff_on_contract_turn", "do not need to wait until the following turn"),
        (
            "bellevue",
            "layoff_on_contract_turn",
            "Extra cards can be laid down with each initial contract.",
        ),
    ],
)
def test_each_option_cites_its_sentence(slug: str, option: str, quoted: str) -> None:
    source = get_ruleset(slug).source(option)
    assert source.document is not None
    assert source.quote is not None and quoted in source.quote


# (pair_all_real, cards, valid): Bellevue's contract 1, its pair laid down alone and with the set.
PAIRS = [
    (False, "AH AD", True),
    (False, "AH 2C", True),
    (False, "AH JK", True),
    (False, "JK 2C", False),
    (True, "AH AD", True),
    (True, "AH 2C", False),
    (True, "AH JK", False),
    (True, "2C JK", False),
]


@pytest.mark.parametrize(("pair_all_real", "pair", "valid"), PAIRS)
def test_pair_of_aces(pair_all_real: bool, pair: str, valid: bool) -> None:
    rules = get_ruleset({"base": "bellevue", "pair_all_real": pair_all_real})
    meld = check_meld(pair, rules)
    contract = check_contract([pair, "5S 5D 5C"], rules, 1)
    assert meld.valid is valid
    assert contract.valid is valid
    if valid:
        assert meld.kind is not None and meld.kind.value == "pair"
    elif pair_all_real and "A" in pair:
        for ruling in (meld, contract):
            refusal = next(r for r in ruling.reasons if r.rule == "pair_all_real")
            assert "“A pair is all real cards”" in refusal
            assert BELLEVUE_SENTENCE in refusal


# (pair_all_real, hand, what the pair found is): find_contract under both readings.
HANDS = [
    (False, "AH AD 5S 5D 5C 9H", "AH AD"),
    (True, "AH AD 5S 5D 5C 9H", "AH AD"),
    (False, "AH 2C 5S 5D 5C 9H", "AH 2C"),
    (True, "AH 2C 5S 5D 5C 9H", None),
    (False, "AH JK 5S 5D 5C 9H", "AH JK"),
    (True, "AH JK 5S 5D 5C 9H", None),
    (True, "AH AD JK 5S 5D 9H", "AH AD"),
]


@pytest.mark.parametrize(("pair_all_real", "hand", "pair"), HANDS)
def test_find_contract_obeys_pair_all_real(
    pair_all_real: bool, hand: str, pair: str | None
) -> None:
    rules = get_ruleset({"base": "bellevue", "pair_all_real": pair_all_real})
    found = find_contract(hand, rules, 1)
    if pair is None:
        assert found is None
        return
    assert found is not None
    assert sorted(found[0]) == sorted(parse_cards(pair))
    assert check_contract(found, rules, 1).valid


def test_a_house_pair_in_another_preset_obeys_the_option() -> None:
    contracts = [[{"kind": "pair", "size": 2, "rank": "K"}, {"kind": "set", "size": 3}]]
    loose = get_ruleset({"base": "twelve-step", "contracts": contracts})
    strict = get_ruleset({"base": "twelve-step", "contracts": contracts, "pair_all_real": True})
    assert check_meld("KH 2C", loose).valid
    refused = check_meld("KH 2C", strict)
    assert not refused.valid
    assert any(reason.rule == "pair_all_real" for reason in refused.reasons)
    assert find_contract("KH 2C 5S 5D 5C", loose, 1) is not None
    assert find_contract("KH 2C 5S 5D 5C", strict, 1) is None


# (preset, option value, contract_turn, allowed): a lay-off that fits (J♥ on three jacks).
LAYOFFS = [
    (slug, value, turn, value or not turn)
    for slug in NINE_PRESETS
    for value in (True, False)
    for turn in (True, False)
]


@pytest.mark.parametrize(("slug", "value", "contract_turn", "allowed"), LAYOFFS)
def test_layoff_on_contract_turn(
    slug: str, value: bool, contract_turn: bool, allowed: bool
) -> None:
    rules = get_ruleset({"base": slug, "layoff_on_contract_turn": value})
    ruling = check_layoff("JS JD JC", "JH", rules, contract_turn=contract_turn)
    assert ruling.valid is allowed
    if not allowed:
        refusal = ruling.reasons[0]
        assert refusal.rule == "layoff_on_contract_turn"
        # Named in the referee's words, not by its key.
        assert "“Laying off on the turn you lay down”" in refusal
        quote = get_ruleset(slug).source("layoff_on_contract_turn").quote
        if quote and slug == "contract-rummy":
            assert quote in refusal


@pytest.mark.parametrize("slug", NINE_PRESETS)
@pytest.mark.parametrize("value", [True, False])
def test_contract_turn_defaults_to_a_later_turn(slug: str, value: bool) -> None:
    rules = get_ruleset({"base": slug, "layoff_on_contract_turn": value})
    asked = check_layoff("JS JD JC", "JH", rules)
    assert asked.valid
    assert asked == check_layoff("JS JD JC", "JH", rules, contract_turn=False)


def test_a_refused_layoff_lists_every_problem() -> None:
    ruling = check_layoff("JS JD JC", "5H", "contract-rummy", contract_turn=True)
    assert not ruling.valid
    assert ruling.reasons[0].rule == "layoff_on_contract_turn"
    assert len(ruling.reasons) > 1


@pytest.mark.parametrize("slug", PRESETS)
@pytest.mark.parametrize("option", ["pair_all_real", "layoff_on_contract_turn"])
def test_each_option_changed_round_trips(slug: str, option: str) -> None:
    preset = get_ruleset(slug)
    changed = get_ruleset({"base": slug, option: not getattr(preset, option)})
    data = json.loads(json.dumps(changed.to_dict()))
    assert data[option] is not getattr(preset, option)
    assert get_ruleset(data) == changed
    assert str(get_ruleset(data).source(option)) == "your house rules"


@pytest.mark.parametrize("slug", PRESETS)
def test_frozen_rules_without_the_options_take_the_preset_value(slug: str) -> None:
    data = get_ruleset(slug).to_dict()
    del data["pair_all_real"], data["layoff_on_contract_turn"]
    rules = get_ruleset(data)
    assert rules == get_ruleset(slug)
