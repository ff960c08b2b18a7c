"""The four published games as data (shared/spec/more-games.md): contracts, rounds, deal,
packs, values, players, who wins, "May I", going out, and the new options at their values,
the five family games keeping theirs."""

from __future__ import annotations

import pytest

from scorekeeper.rules import PRESETS, describe_options, get_ruleset, score_cards
from scorekeeper.rules.cards import parse_cards

FAMILY = ("twelve-step", "russian-rummy", "dummy-rummy", "bellevue", "contract-rummy")
PUBLISHED = ("shanghai", "liverpool", "carioca", "continental")

# The new options' values (more-games.md, "New options"): family games, then each new preset.
NEW_OPTIONS: dict[str, tuple[object, dict[str, object]]] = {
    "runs_may_wrap": (False, {"carioca": True, "continental": True}),
    "wilds_at_most_naturals": (False, {"shanghai": True}),
    "max_wilds_per_meld": (None, {"carioca": 1}),
    "max_wilds_per_laydown": (None, {"carioca": 2}),
    "wild_limits_on_layoff": (True, {"carioca": False}),
    "exact_meld_sizes": (False, {}),
    "same_rank_sets_allowed": (True, {"carioca": False}),
    "liberation_from": (
        "any meld",
        {"shanghai": "runs", "liverpool": "runs", "continental": "runs"},
    ),
    "liberation_before_contract": (
        "yes",
        {
            "shanghai": "if going down",
            "liverpool": "no",
            "carioca": "no",
            "continental": "no",
            "phase-10": "no",
        },
    ),
    "discard_after_contract": (True, {"liverpool": False, "carioca": False}),
    "down_and_out_bonus": (0, {"continental": -10}),
}


def test_the_presets_are_the_five_then_the_four() -> None:
    assert (*FAMILY, *PUBLISHED, "phase-10") == PRESETS
    assert [str(get_ruleset(slug).name) for slug in PUBLISHED] == [
        "Shanghai Rummy (10 deals)",
        "Liverpool Rummy (7 deals)",
        "Carioca (Chile, 8 rounds)",
        "Continental (7 hands)",
    ]


@pytest.mark.parametrize("option", NEW_OPTIONS)
def test_each_new_option_has_its_value_in_every_preset(option: str) -> None:
    family_value, published = NEW_OPTIONS[option]
    for slug in PRESETS:
        expected = published.get(slug, family_value)
        assert get_ruleset(slug).to_dict()[option] == expected, (slug, option)


def test_may_i_limits_count_per_contract_unless_the_house_says_game() -> None:
    for slug in PRESETS:
        assert get_ruleset(slug).may_i.limit_per == "contract"
    rules = get_ruleset({"base": "shanghai", "may_i": {"limit": 5, "limit_per": "game"}})
    assert str(rules.may_i.describe()).startswith("5 per game")
    assert rules.may_i.limit == 5 and rules.may_i.extra_cards == 1
    assert str(rules.source("may_i")) == "your house rules"


def test_contracts_rounds_and_the_game_end() -> None:
    summaries = {
        slug: [str(contract.summary) for contract in get_ruleset(slug).contracts]
        for slug in PUBLISHED
    }
    assert len(summaries["shanghai"]) == 10
    assert summaries["shanghai"][7] == "a set of 3 and a run of 10"
    assert summaries["shanghai"][9] == "three runs of 5"
    assert len(summaries["liverpool"]) == 7
    assert get_ruleset("liverpool").contract(7).going_out_only
    assert not any(c.going_out_only for c in get_ruleset("shanghai").contracts)
    assert summaries["carioca"][7] == "four sets of 3"
    assert len(summaries["carioca"]) == 8
    assert summaries["continental"][5] == "a set of 3 and two runs of 4"
    for slug, rounds in (("shanghai", 10), ("liverpool", 7), ("carioca", 8), ("continental", 7)):
        rules = get_ruleset(slug)
        assert rules.rounds_in_game == rounds
        assert not rules.keeps_contracts and not rules.nobody_out_allowed
        assert rules.winner == "lowest total"


def test_cards_dealt_each_round() -> None:
    assert [get_ruleset("shanghai").cards_dealt(n) for n in range(1, 11)] == [11] * 10
    assert [get_ruleset("liverpool").cards_dealt(n) for n in range(1, 8)] == [10] * 4 + [12] * 3
    assert [get_ruleset("carioca").cards_dealt(n) for n in range(1, 9)] == [12] * 8
    assert [get_ruleset("continental").cards_dealt(n) for n in range(1, 8)] == list(range(7, 14))


@pytest.mark.parametrize(
    ("slug", "players", "decks", "jokers"),
    [
        ("shanghai", 2, 2, 4),
        ("shanghai", 4, 2, 4),
        ("shanghai", 5, 3, 6),
        ("shanghai", 6, 3, 6),
        ("shanghai", 7, 4, 8),
        ("shanghai", 8, 4, 8),
        ("liverpool", 3, 2, 4),
        ("liverpool", 4, 2, 4),
        ("liverpool", 5, 3, 6),
        ("liverpool", 8, 3, 6),
        ("carioca", 2, 2, 4),
        ("carioca", 5, 2, 4),
        ("continental", 2, 2, 6),
        ("continental", 4, 2, 6),
        ("continental", 5, 3, 9),
        ("continental", 6, 3, 9),
        ("continental", 7, 4, 12),
    ],
)
def test_packs_by_players(slug: str, players: int, decks: int, jokers: int) -> None:
    packs = get_ruleset(slug).packs(players)
    assert (packs.decks, packs.jokers) == (decks, jokers)


def test_players_min_and_max() -> None:
    limits = {
        slug: (get_ruleset(slug).min_players, get_ruleset(slug).max_players) for slug in PUBLISHED
    }
    assert limits == {
        "shanghai": (2, 8),
        "liverpool": (3, 8),
        "carioca": (2, 5),
        "continental": (2, None),
    }


@pytest.mark.parametrize(
    ("slug", "hand", "points"),
    [
        ("shanghai", "JK A K Q J 10 2 9", 50 + 20 + 40 + 2 + 9),
        ("liverpool", "JK A K 10 2 5", 15 + 15 + 10 + 10 + 2 + 5),
        ("carioca", "JK A Q 3", 50 + 20 + 10 + 3),
        ("continental", "JK JK A 7", 100 + 20 + 7),
    ],
)
def test_card_values(slug: str, hand: str, points: int) -> None:
    assert score_cards(parse_cards(hand), slug) == points


def test_who_wins_may_i_and_going_out() -> None:
    shanghai, liverpool, carioca, continental = (get_ruleset(slug) for slug in PUBLISHED)
    assert [r.tie_break for r in (shanghai, liverpool, carioca, continental)] == [
        "share",
        "share",
        "most rounds won",
        "share",
    ]
    assert (shanghai.may_i.allowed, shanghai.may_i.limit, shanghai.may_i.extra_cards) == (
        True,
        3,
        1,
    )
    assert (liverpool.may_i.limit, continental.may_i.limit) == (None, None)
    assert not carioca.may_i.allowed
    assert all(not r.may_i.discard for r in (shanghai, liverpool, continental))
    assert all(r.going_out == "discard" for r in (shanghai, liverpool, carioca, continental))
    assert shanghai.freed_wild == "kept"
    assert carioca.liberation == "off" and not carioca.layoff_on_contract_turn
    assert continental.wild_spacing.set == "free" and continental.wild_spacing.run == "not adjacent"
    assert carioca.wild_spacing.set == carioca.wild_spacing.run == "not adjacent"
    assert all(r.wild_ranks == () for r in (shanghai, liverpool, carioca, continental))
    assert continental.has_bonus and not any(r.has_bonus for r in (shanghai, liverpool, carioca))


@pytest.mark.parametrize("slug", PUBLISHED)
def test_sources_are_named_not_quoted_and_splits_say_so(slug: str) -> None:
    rules = get_ruleset(slug)
    for info in describe_options(rules):
        assert info.source.quote is None, info.key
    cited = str(rules.source("contracts"))
    assert (cited and "sources differ" not in cited) or slug == "carioca"
    assert str(rules.source("card_values")).startswith("sources differ; this preset follows")


def test_the_new_options_read_back_and_refuse_bad_values() -> None:
    rules = get_ruleset(
        {
            "base": "twelve-step",
            "runs_may_wrap": True,
            "max_wilds_per_meld": 2,
            "liberation_from": "runs",
            "liberation_before_contract": "if going down",
            "tie_break": "most rounds won",
            "freed_wild": "kept",
            "min_real_cards": 0,
            "down_and_out_bonus": -25,
        }
    )
    assert get_ruleset(rules.to_dict()) == rules
    assert rules.min_real_cards == 0 and rules.down_and_out_bonus == -25
    with pytest.raises(ValueError, match="max_wilds_per_meld"):
        get_ruleset({"base": "carioca", "max_wilds_per_meld": "one"})
    with pytest.raises(ValueError, match="liberation_before_contract"):
        get_ruleset({"base": "carioca", "liberation_before_contract": "maybe"})
    with pytest.raises(ValueError, match=r"may_i\.limit_per"):
        get_ruleset({"base": "carioca", "may_i": {"limit_per": "round"}})


def test_an_old_rules_object_without_the_new_options_reads_as_before() -> None:
    for slug in FAMILY:
        old = {
            key: value
            for key, value in get_ruleset(slug).to_dict().items()
            if key not in NEW_OPTIONS
        }
        old["may_i"] = {k: v for k, v in old["may_i"].items() if k != "limit_per"}
        assert get_ruleset(old) == get_ruleset(slug)
