# ruff: noqa: E501  (rule tables read best one case a line)
"""The five presets as data, house rules over them, and how they read back."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorekeeper.rules import (
    PRESETS,
    ContractNumberError,
    RuleSetError,
    UnknownRulesError,
    describe_options,
    get_ruleset,
    parse_cards,
    score_cards,
)

from ..nine import NINE_PRESETS

TWELVE_CONTRACTS = [
    "two sets of 3",
    "a set of 3 and a run of 4",
    "two sets of 4",
    "two runs of 4",
    "three sets of 3",
    "a set of 4 and a run of 4",
    "a set of 3 and a run of 7",
    "two sets of 3 and a run of 4",
    "two sets of 5",
    "two runs of 5",
    "a set of 8",
    "a run of 10",
]
BELLEVUE_CONTRACTS = [
    "a pair of aces and a set of 3",
    "two sets of 3",
    "a set of 3 and a run of 4",
    "two runs of 4",
    "three sets of 3",
    "two sets of 3 and a run of 4",
    "a set of 3 and two runs of 4",
    "a run of 5 and a run of 6",
    "a set of 3 and a run of 7",
    "three runs of 4",
]
CONTRACT_RUMMY_CONTRACTS = [
    "two sets of 3",
    "a set of 3 and a set of 4",
    "two runs of 4",
    "three sets of 3",
    "two sets of 3 and a run of 4",
    "a set of 3 and two runs of 4",
    "three runs of 4",
]


@pytest.mark.parametrize(
    ("slug", "descriptions", "going_out_only"),
    [
        ("twelve-step", TWELVE_CONTRACTS, []),
        ("russian-rummy", TWELVE_CONTRACTS, []),
        ("dummy-rummy", TWELVE_CONTRACTS, []),
        ("bellevue", BELLEVUE_CONTRACTS, [10]),
        ("contract-rummy", CONTRACT_RUMMY_CONTRACTS, [7]),
    ],
)
def test_preset_contracts(slug: str, descriptions: list[str], going_out_only: list[int]) -> None:
    rules = get_ruleset(slug)
    assert [contract.description for contract in rules.contracts] == descriptions
    assert [c.number for c in rules.contracts if c.going_out_only] == going_out_only
    assert [c.number for c in rules.contracts] == list(range(1, len(descriptions) + 1))
    assert rules.contract(1) is rules.contracts[0]


@pytest.mark.parametrize(
    ("slug", "name", "order", "rounds", "winner", "tie_break", "players", "nobody_out"),
    [
        ("twelve-step", "12-Step Rummy", "own", None, "last contract", "lowest total", (2, None), False),
        ("russian-rummy", "Russian Rummy", "own", None, "last contract", "lowest total", (2, None), False),
        ("dummy-rummy", "Dummy Rummy (12-Step contracts, one per round)", "round", 12, "lowest total", "share", (2, None), False),
        ("bellevue", "Contract Rummy, Bellevue family rules (10 contracts)", "round", 10, "lowest total", "share", (2, None), False),
        ("contract-rummy", "Contract Rummy (7 deals)", "round", 7, "lowest total", "share", (2, 5), True),
    ],
)  # fmt: skip
def test_how_the_game_runs(
    slug: str,
    name: str,
    order: str,
    rounds: int | None,
    winner: str,
    tie_break: str,
    players: tuple[int, int | None],
    nobody_out: bool,
) -> None:
    rules = get_ruleset(slug)
    assert rules.slug == slug and rules.base == slug
    assert rules.name == name
    assert rules.contract_order == order
    assert rules.rounds_in_game == rounds
    assert rules.winner == winner
    assert rules.tie_break == tie_break
    assert (rules.min_players, rules.max_players) == players
    assert rules.nobody_out_allowed is nobody_out


@pytest.mark.parametrize(
    ("slug", "dealt"),
    [
        ("twelve-step", [13] * 14),
        ("russian-rummy", [13] * 14),
        ("dummy-rummy", [13] * 12),
        ("bellevue", [11] * 10),
        ("contract-rummy", [10, 10, 10, 12, 12, 12, 12]),
    ],
)
def test_cards_dealt(slug: str, dealt: list[int]) -> None:
    rules = get_ruleset(slug)
    assert [rules.cards_dealt(n) for n in range(1, len(dealt) + 1)] == dealt
    with pytest.raises(ValueError, match="round"):
        rules.cards_dealt(0)


@pytest.mark.parametrize(
    ("slug", "players", "decks", "jokers"),
    [
        ("twelve-step", 2, 2, 4),
        ("twelve-step", 5, 2, 4),
        ("twelve-step", 6, 3, 6),
        ("twelve-step", 7, 3, 6),
        ("twelve-step", 8, 4, 8),
        ("dummy-rummy", 9, 4, 8),
        ("bellevue", 2, 2, 4),
        ("bellevue", 4, 2, 4),
        ("bellevue", 5, 3, 6),
        ("bellevue", 6, 3, 6),
        ("bellevue", 7, 4, 8),
        ("bellevue", 8, 4, 8),
        ("contract-rummy", 2, 2, 1),
        ("contract-rummy", 3, 2, 2),
        ("contract-rummy", 5, 2, 4),
    ],
)
def test_packs(slug: str, players: int, decks: int, jokers: int) -> None:
    packs = get_ruleset(slug).packs(players)
    assert (packs.decks, packs.jokers) == (decks, jokers)
    # A suited card, one a deck; a rank alone, four a deck; a joker, the jokers.
    for cards, held in (("7H", decks), ("7", 4 * decks), ("JK", jokers)):
        assert packs.overflow(parse_cards(" ".join([cards] * held))) == []
        assert packs.overflow(parse_cards(" ".join([cards] * (held + 1)))) != []


def test_packs_overflow_names_impossible_cards() -> None:
    packs = get_ruleset("twelve-step").packs(4)
    assert packs.overflow(parse_cards("7H 7H 5S")) == []
    assert packs.overflow(parse_cards("7H 7H 7H")) == ["3 × 7♥, but 2 decks hold only 2"]
    assert packs.overflow(parse_cards("9 9 9 9 9 9 9 9 9")) == ["9 × 9, but 2 decks hold only 8"]
    assert packs.overflow(parse_cards("JK JK JK JK JK")) == [
        "5 × Joker, but these packs hold only 4 jokers"
    ]
    with pytest.raises(ValueError):
        get_ruleset("twelve-step").packs(0)


@pytest.mark.parametrize(
    ("slug", "allowed", "limit", "extra", "discard"),
    [
        ("twelve-step", True, None, 1, False),
        ("russian-rummy", True, None, 1, False),
        ("dummy-rummy", True, None, 1, False),
        ("bellevue", True, 3, 2, False),
        ("contract-rummy", True, None, 1, False),
    ],
)
def test_may_i(slug: str, allowed: bool, limit: int | None, extra: int, discard: bool) -> None:
    may_i = get_ruleset(slug).may_i
    assert (may_i.allowed, may_i.limit, may_i.extra_cards, may_i.discard) == (
        allowed,
        limit,
        extra,
        discard,
    )


TWELVE_VALUES = {"JK": 50, "2": 50, "A": 20, "K": 10, "Q": 10, "J": 10, "10": 10}
TWELVE_VALUES |= {str(n): 5 for n in range(3, 10)}
BELLEVUE_VALUES = {"JK": 50, "2": 20, "A": 15, "K": 10, "Q": 10, "J": 10, "10": 5}
BELLEVUE_VALUES |= {str(n): 5 for n in range(3, 10)}
CONTRACT_VALUES = {"JK": 15, "A": 15, "K": 10, "Q": 10, "J": 10}
CONTRACT_VALUES |= {str(n): n for n in range(2, 11)}

SCORING = [
    (slug, card, value)
    for slug, table in [
        ("twelve-step", TWELVE_VALUES),
        ("russian-rummy", TWELVE_VALUES),
        ("dummy-rummy", TWELVE_VALUES),
        ("bellevue", BELLEVUE_VALUES),
        ("contract-rummy", CONTRACT_VALUES),
    ]
    for card, value in table.items()
]


@pytest.mark.parametrize(("slug", "card", "value"), SCORING)
def test_scoring_table(slug: str, card: str, value: int) -> None:
    assert score_cards(card, slug) == value
    if card != "JK":
        for suit in "SHDC":
            assert score_cards(card + suit, slug) == value


@pytest.mark.parametrize(
    ("slug", "cards", "total"),
    [
        ("twelve-step", "", 0),
        ("twelve-step", "JK 2H AS KD 10C 5S", 50 + 50 + 20 + 10 + 10 + 5),
        ("bellevue", "JK 2H AS KD 10C 5S", 50 + 20 + 15 + 10 + 5 + 5),
        ("contract-rummy", "JK 2H AS KD 10C 5S", 15 + 2 + 15 + 10 + 10 + 5),
    ],
)
def test_score_cards_sums(slug: str, cards: str, total: int) -> None:
    assert score_cards(cards, slug) == total
    assert score_cards(parse_cards(cards), get_ruleset(slug)) == total


@pytest.mark.parametrize(
    ("slug", "wild"),
    [
        ("twelve-step", True),
        ("russian-rummy", True),
        ("dummy-rummy", True),
        ("bellevue", True),
        ("contract-rummy", False),
    ],
)
def test_wild_cards(slug: str, wild: bool) -> None:
    rules = get_ruleset(slug)
    assert rules.is_wild(parse_cards("JK")[0])
    assert rules.is_wild(parse_cards("2H")[0]) is wild
    assert not rules.is_wild(parse_cards("3H")[0])


@pytest.mark.parametrize("slug", PRESETS)
def test_presets_round_trip(slug: str) -> None:
    rules = get_ruleset(slug)
    data = rules.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert get_ruleset(data) == rules
    assert get_ruleset(data).to_dict() == data
    assert {key: str(rules.source(key)) for key in data if key != "base"} == {
        key: str(get_ruleset(data).source(key)) for key in data if key != "base"
    }


@pytest.mark.parametrize("slug", PRESETS)
def test_every_option_names_its_source(slug: str) -> None:
    rules = get_ruleset(slug)
    for info in describe_options(rules):
        source = info.source
        # A family game cites its seed document; a published game names its rule pages.
        assert (
            source.is_default
            or (source.document or "").endswith(".txt")
            or (source.publications and not source.quote)
        ), info.key
        assert str(source)
        assert info.label and info.help
        assert info.value == rules.to_dict()[info.key]


def test_sources_cite_documents_or_say_default() -> None:
    twelve = get_ruleset("twelve-step")
    assert twelve.source("aces").document == "000_0a3037e9499a681d.txt"
    assert str(twelve.source("aces")) == "12-Step Rummy rules"
    assert twelve.source("aces").quote and "high or low" in twelve.source("aces").quote
    assert twelve.source("min_real_cards").is_default
    assert (
        str(twelve.source("min_real_cards")) == "your rules don't say; most tables play it this way"
    )
    assert get_ruleset("bellevue").source("liberation").is_default
    assert get_ruleset("russian-rummy").source("freed_wild").document == "002_eea21be3d0bfd216.txt"
    with pytest.raises(KeyError):
        twelve.source("no such option")


HOUSE_OVERRIDES: list[dict[str, Any]] = [
    {"name": "Grandma's rules", "slug": "grandma"},
    {"contracts": [[{"kind": "set", "size": 3}], {"melds": [{"kind": "run", "size": 5}], "going_out_only": True}]},
    {"card_values": {"joker": 25, "A": 1}},
    {"wild_ranks": ["2", "K"]},
    {"wild_ranks": []},
    {"wild_spacing": {"set": "not adjacent", "run": "free"}},
    {"aces": "low"},
    {"aces": "high"},
    {"same_suit_runs_may_continue": False},
    {"extra_melds": True},
    {"liberation": "any", "freed_wild": "same round"},
    {"liberation": "off"},
    {"may_i": {"allowed": False}},
    {"may_i": {"limit": 2, "extra_cards": 0, "discard": True}},
    {"cards_dealt": [7, 8, 9]},
    {"cards_dealt": 11},
    {"nobody_out_allowed": True},
    {"min_players": 3, "max_players": 6},
    {"packs": {"decks": 3, "jokers_per_deck": 0}},
    {"contract_order": "round", "winner": "lowest total", "tie_break": "share"},
    {"min_real_cards": 2, "min_set": 3, "min_run": 3},
    {"going_out": "play"},
    {"wild_as_itself": False},
    {"pair_all_real": True},
    {"pair_all_real": False},
    {"layoff_on_contract_turn": False},
    {"layoff_on_contract_turn": True},
]  # fmt: skip


@pytest.mark.parametrize("base", NINE_PRESETS)
@pytest.mark.parametrize("overrides", HOUSE_OVERRIDES, ids=lambda o: "+".join(o))
def test_house_rules_override_and_round_trip(base: str, overrides: dict[str, Any]) -> None:
    rules = get_ruleset({"base": base, **overrides})
    preset = get_ruleset(base)
    data = rules.to_dict()
    assert get_ruleset(data) == rules
    assert get_ruleset(json.loads(json.dumps(data))).to_dict() == data
    for key, value in overrides.items():
        if isinstance(value, dict):
            for inner, inner_value in value.items():
                assert data[key][inner] == inner_value
        elif key != "contracts":
            assert data[key] == value
        if data[key] != preset.to_dict()[key]:
            assert str(rules.source(key)) == "your house rules"
    untouched = [key for key in data if key not in overrides and key != "base"]
    for key in untouched:
        assert data[key] == preset.to_dict()[key]
        assert rules.source(key) == preset.source(key)


def test_house_contracts() -> None:
    rules = get_ruleset(
        {
            "base": "twelve-step",
            "contracts": [
                [{"kind": "set", "size": 3}],
                {"melds": [{"kind": "run", "size": 5}], "going_out_only": True},
            ],
        }
    )
    assert [c.description for c in rules.contracts] == ["a set of 3", "a run of 5"]
    assert [c.going_out_only for c in rules.contracts] == [False, True]
    with pytest.raises(ContractNumberError):
        rules.contract(3)


def test_name_and_slug_default_to_the_base() -> None:
    rules = get_ruleset({"base": "bellevue", "aces": "low"})
    assert rules.slug == "bellevue" and rules.name == get_ruleset("bellevue").name
    assert rules != get_ruleset("bellevue")
    assert get_ruleset({"base": "bellevue"}) == get_ruleset("bellevue")


@pytest.mark.parametrize(
    ("data", "option", "words"),
    [
        ({"base": "twelve-step", "aces": "sideways"}, "aces", "'sideways' is not one of"),
        ({"base": "twelve-step", "wild_ranks": ["X"]}, "wild_ranks", "'X' is not a rank"),
        ({"base": "twelve-step", "wild_spacing": {"run": "close"}}, "wild_spacing.run", "'close'"),
        ({"base": "twelve-step", "may_i": {"limit": 0}}, "may_i.limit", "between 1 and 100"),
        ({"base": "twelve-step", "may_i": {"allowed": "yes"}}, "may_i.allowed", "true or false"),
        ({"base": "twelve-step", "cards_dealt": []}, "cards_dealt", "empty"),
        ({"base": "twelve-step", "cards_dealt": "13"}, "cards_dealt", "whole number"),
        ({"base": "twelve-step", "min_players": 4, "max_players": 3}, "max_players", "fewer"),
        ({"base": "twelve-step", "contracts": []}, "contracts", "list of contracts"),
        ({"base": "twelve-step", "contracts": [[{"kind": "flush", "size": 3}]]}, "contracts[1].melds[1].kind", "'flush'"),
        ({"base": "twelve-step", "contracts": [[{"kind": "run", "size": 14}]]}, "contracts[1].melds[1].size", "14"),
        ({"base": "twelve-step", "card_values": {"Z": 3}}, "card_values.Z", "no setting"),
        ({"base": "twelve-step", "card_values": {"A": "lots"}}, "card_values.A", "whole number"),
        ({"base": "twelve-step", "liberation": "sometimes"}, "liberation", "'sometimes'"),
        ({"base": "twelve-step", "nobody_out_allowed": 1}, "nobody_out_allowed", "true or false"),
        ({"base": "twelve-step", "colour": "red"}, "colour", "not an option"),
        ({"base": "twelve-step", "name": ""}, "name", "not a name"),
        ({"base": "twelve-step", "packs": {"decks": 0}}, "packs.decks", "between"),
    ],
)  # fmt: skip
def test_bad_options_are_named(data: dict[str, Any], option: str, words: str) -> None:
    with pytest.raises(RuleSetError) as caught:
        get_ruleset(data)
    assert caught.value.option == option
    assert option in str(caught.value)
    assert words in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_every_bad_option_is_listed() -> None:
    with pytest.raises(RuleSetError) as caught:
        get_ruleset({"base": "bellevue", "aces": "up", "extra_melds": "no", "min_set": 0})
    assert {problem.option for problem in caught.value.problems} == {
        "aces",
        "extra_melds",
        "min_set",
    }


@pytest.mark.parametrize("rules", ["poker", {"base": "poker"}, {"aces": "low"}, 42])
def test_unknown_rules(rules: Any) -> None:
    with pytest.raises(UnknownRulesError, match="not a rule set"):
        get_ruleset(rules)


def test_describe_options_kinds() -> None:
    infos = {info.key: info for info in describe_options("contract-rummy")}
    assert infos["aces"].kind == "choice" and "high or low" in infos["aces"].choices
    assert infos["contracts"].kind == "contracts"
    assert infos["card_values"].value["joker"] == 15
    assert infos["liberation"].value == "any"
