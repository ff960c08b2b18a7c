"""A second deck (shared/spec/phase-10.md, "The deck" and "Card notation for this deck"): a rule
set names its deck, and the notation, the copy check, the card values and the rulings' words
follow it; the standard deck's games read as before."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules import (
    Card,
    CardError,
    RuleSetError,
    check_layoff,
    check_meld,
    describe_options,
    find_contract,
    format_cards,
    get_ruleset,
    parse_cards,
    score_cards,
)
from scorekeeper.rules.cards import SKIP, WILD, Colour, Number
from scorekeeper.rules.decks import PHASE_10, STANDARD

from ..nine import NINE_PRESETS

# A rule set on a Phase 10 deck (the Phase 10 preset itself is not in yet): Contract Rummy's
# contracts, whose only wild cards are the deck's own.
P10: dict[str, Any] = {"base": "contract-rummy", "deck": "phase-10"}


def said(reasons: Any, sentence: str) -> bool:
    """Whether one of ``reasons`` says ``sentence`` (before the source it cites)."""
    return any(str(reason).startswith(sentence) for reason in reasons)


def card(number: int, colour: Colour | None = None) -> Card:
    return Card(Number(number), colour)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7R", [card(7, Colour.RED)]),
        ("12g", [card(12, Colour.GREEN)]),
        ("1B 9y", [card(1, Colour.BLUE), card(9, Colour.YELLOW)]),
        ("7", [card(7)]),
        ("12", [card(12)]),
        ("W", [WILD]),
        ("Wild", [WILD]),
        ("*", [WILD]),
        ("WR", [WILD]),
        ("S", [SKIP]),
        ("skip", [SKIP]),
        ("wr 12g skip *", [WILD, card(12, Colour.GREEN), SKIP, WILD]),
        ("3R-4B-5G-W", [card(3, Colour.RED), card(4, Colour.BLUE), card(5, Colour.GREEN), WILD]),
        ("", []),
    ],
)
def test_a_phase_10_rule_set_reads_its_deck_s_notation(text: str, expected: list[Card]) -> None:
    assert parse_cards(text, P10) == expected
    assert parse_cards(text, get_ruleset(P10)) == expected


@pytest.mark.parametrize(
    ("token", "why"),
    [
        ("0R", "the numbers are 1 to 12"),
        ("13R", "the numbers are 1 to 12"),
        ("7X", "the colours are R, B, Y, G"),
        ("7H", "the colours are R, B, Y, G"),
        ("JK", "this deck has no jokers: write W for a Wild"),
        ("Joker", "this deck has no jokers: write W for a Wild"),
        ("KH", "write a number 1 to 12, then a colour"),
        ("A", "write a number 1 to 12, then a colour"),
        ("T", "write a number 1 to 12, then a colour"),
        ("7RR", "write a number 1 to 12, then a colour"),
        ("SR", "write a number 1 to 12, then a colour"),
        ("W7", "write a number 1 to 12, then a colour"),
        ("Comodín", "write a number 1 to 12, then a colour"),
        ("Salto", "write a number 1 to 12, then a colour"),
    ],
)
def test_a_phase_10_rule_set_refuses_what_is_no_card_of_its_deck(token: str, why: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_cards(f"7R {token} W", P10)
    assert caught.value.token == token
    assert repr(token) in str(caught.value) and why in str(caught.value)


@pytest.mark.parametrize("text", ["7R", "W", "S", "12", "1H"])
def test_a_standard_rule_set_reads_as_before(text: str) -> None:
    with pytest.raises(CardError):
        parse_cards(text, "contract-rummy")
    with pytest.raises(CardError):
        parse_cards(text)
    assert parse_cards("10H JK K", "twelve-step") == parse_cards("10H JK K")


def test_phase_10_cards_are_written_back_and_sorted_as_the_spec_says() -> None:
    cards = parse_cards("S W 12g 7 7R 7G 1y 7B", P10)
    assert format_cards(sorted(cards)) == "1Y 7 7R 7B 7G 12G W S"
    assert format_cards(parse_cards("7R 12G W S", P10)) == "7R 12G W S"
    every = [Card(number, colour) for number in PHASE_10.ranks for colour in PHASE_10.suits]
    for one in [*every, WILD, SKIP, *(card(number) for number in range(1, 13))]:
        assert parse_cards(format_cards([one]), P10) == [one]
        assert parse_cards(format_cards([one], symbols=True), P10) == [one]


@pytest.mark.parametrize(
    ("cards", "rules", "points"),
    [
        ("7 12 W S", P10, 55),
        ("1R 9G 10B 11Y 12G", P10, 40),
        ("7R 12G W S", P10, 55),
        ("W", {**P10, "card_values": {"wild": 20}}, 20),
        ("S S", {**P10, "card_values": {"skip": 0}}, 0),
    ],
)
def test_phase_10_cards_score_by_the_deck_s_values(cards: str, rules: Any, points: int) -> None:
    assert score_cards(cards, rules) == points
    assert score_cards(parse_cards(cards, rules), rules) == points


def test_card_values_are_keyed_by_the_deck_s_cards() -> None:
    rules = get_ruleset(P10)
    assert dict(rules.card_values) == {
        **{str(number): 5 for number in range(1, 10)},
        "10": 10,
        "11": 10,
        "12": 10,
        "wild": 25,
        "skip": 15,
    }
    with pytest.raises(RuleSetError) as caught:
        get_ruleset({**P10, "card_values": {"joker": 20, "K": 10}})
    assert {problem.option for problem in caught.value.problems} == {
        "card_values.joker",
        "card_values.K",
    }
    assert "card_values.joker" in str(caught.value)
    with pytest.raises(RuleSetError) as caught:
        get_ruleset({"base": "twelve-step", "card_values": {"wild": 20}})
    assert caught.value.option == "card_values.wild"


def test_a_phase_10_deck_takes_no_jokers_in_its_packs() -> None:
    with pytest.raises(RuleSetError) as caught:
        get_ruleset({**P10, "packs": {"jokers_per_deck": 2}})
    assert caught.value.option == "packs.jokers_per_deck"


def test_the_copy_check_counts_the_deck_s_copies() -> None:
    rules = get_ruleset(P10)
    packs = rules.packs(4)
    assert (packs.decks, packs.jokers, packs.total) == (1, 0, 108)
    assert packs.overflow(parse_cards("7R 7R 7B 7B 7Y 7Y 7G 7G W W W W W W W W S S S S", P10)) == []
    refused = packs.overflow(parse_cards("7R 7R 7R 7 7 7 7 7 7 " + "W " * 9 + "S " * 5, P10))
    assert [str(problem) for problem in refused] == [
        "3 × 7R, but 1 deck holds only 2",
        "9 × 7, but 1 deck holds only 8",
        "9 Wilds, but 1 deck holds only 8",
        "5 Skips, but 1 deck holds only 4",
    ]
    seven = get_ruleset({**P10, "max_players": 12}).packs(7)
    assert (seven.decks, seven.total) == (2, 216)
    assert seven.overflow(parse_cards("7R 7R 7R 7R " + "W " * 16, P10)) == []
    # The standard deck counts as before.
    standard = get_ruleset("twelve-step").packs(4)
    assert standard.deck is STANDARD and standard.total == 108
    assert [str(p) for p in standard.overflow(parse_cards("7H 7H 7H"))] == [
        "3 × 7♥, but 2 decks hold only 2"
    ]


def test_the_deck_is_an_option_that_round_trips() -> None:
    for slug in NINE_PRESETS:
        assert get_ruleset(slug).to_dict()["deck"] == "standard"
        assert get_ruleset(slug).deck is STANDARD
    rules = get_ruleset(P10)
    data = rules.to_dict()
    assert data["deck"] == "phase-10"
    assert get_ruleset(data) == rules
    assert rules.source("deck").label == "your house rules"
    described = {option.key: option for option in describe_options(rules)}
    assert described["deck"].value == "phase-10"
    assert "Phase 10" in described["deck"].described
    assert "Wild 25" in described["card_values"].described
    with pytest.raises(RuleSetError) as caught:
        get_ruleset({"base": "twelve-step", "deck": "uno"})
    assert caught.value.option == "deck"


def test_a_phase_10_set_is_ruled_in_the_deck_s_words() -> None:
    ruling = check_meld("7R 7B 7G", P10)
    assert ruling.valid and ruling.kind == "set"
    assert said(ruling.reasons, "A set of 7s: cards of one number, colours free (7R-7B-7G)")
    wild = check_meld("7R W W", P10)
    assert wild.valid and said(wild.reasons, "W is a Wild and stands for a 7")
    assert not check_meld("W W W", P10).valid
    assert check_meld("7 7 7", P10).valid
    # Only the Wilds are wild: Contract Rummy's wild ranks mean nothing in this deck.
    two = get_ruleset({**P10, "wild_ranks": ["2"]})
    assert not two.is_wild(card(2, Colour.RED)) and two.is_wild(WILD)
    assert not check_meld("2R 2B 5G", two).valid


def test_a_skip_is_never_part_of_a_meld_nor_laid_off() -> None:
    ruling = check_meld("S 7R 7B", P10)
    assert not ruling.valid
    assert len(ruling.reasons) == 1 and said(ruling.reasons, "A Skip is never part of a meld")
    layoff = check_layoff("7R 7B 7G", "S", P10)
    assert not layoff.valid and said(layoff.reasons, "A Skip never goes on a meld")
    assert check_layoff("7R 7B 7G", "7Y W", P10).valid
    found = find_contract("7R 7B 7G S S 8R 8B W", P10, 1)
    assert found is not None and all(SKIP not in meld for meld in found)
    assert find_contract("7R 7B S S S 8R 8B 8G", P10, 1) is None
