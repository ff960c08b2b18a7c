"""The examples of shared/spec/phase-10.md ("Examples (each must rule as shown)"), through the
engine's public interface, on a rule set of Phase 10's options.

The Phase 10 preset is not registered yet (its game options, skip_target, phases_played, hands,
the tie-break hand and going out either way, come with it): these examples take its deck, its
ten phases and its meld options as house rules over a base preset. What they rule on (melds,
phases, hits, liberation, scores and the notation) reads no other option.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules import (
    CardError,
    cards_short,
    check_contract,
    check_layoff,
    check_liberation,
    check_meld,
    find_contract,
    format_cards,
    parse_cards,
    score_cards,
)


def _sets(*sizes: int) -> list[dict[str, Any]]:
    return [{"kind": "set", "size": size} for size in sizes]


def _phase(*melds: dict[str, Any]) -> dict[str, Any]:
    return {"melds": list(melds), "going_out_only": False}


_RUN = {"kind": "run"}

PHASE_10: dict[str, Any] = {
    "base": "contract-rummy",
    "deck": "phase-10",
    "contracts": [
        _phase(*_sets(3, 3)),
        _phase(*_sets(3), _RUN | {"size": 4}),
        _phase(*_sets(4), _RUN | {"size": 4}),
        _phase(_RUN | {"size": 7}),
        _phase(_RUN | {"size": 8}),
        _phase(_RUN | {"size": 9}),
        _phase(*_sets(4, 4)),
        _phase({"kind": "color", "size": 7}),
        _phase(*_sets(5, 2)),
        _phase(*_sets(5, 3)),
    ],
    "contract_order": "own",
    "winner": "last contract",
    "min_players": 2,
    "max_players": 6,
    "cards_dealt": 10,
    "nobody_out_allowed": False,
    "may_i": {"allowed": False},
    "min_set": 2,
    "min_run": 4,
    "min_real_cards": 1,
    "wild_spacing": {"set": "free", "run": "free"},
    "runs_may_wrap": False,
    "extra_melds": False,
    "exact_meld_sizes": False,
    "same_rank_sets_allowed": True,
    "layoff_on_contract_turn": True,
    "liberation": "off",
    "liberation_before_contract": "no",
    "freed_wild": "at once",
}


def rules(**changes: Any) -> dict[str, Any]:
    return PHASE_10 | changes


def said(reasons: Any, words: str) -> bool:
    return any(words in str(reason) for reason in reasons)


RED = "2R 9R 12R W 4R 4R 7R"
FULL_RUN = "1R 2B 3G 4Y 5R 6B 7G 8Y 9R 10B 11G 12Y"

# (example, question, valid, kind, words one of the reasons says)
MELDS = [
    ("7R 7B 7G", {}, True, "set", "A set of 7s: cards of one number, colours free"),
    ("7R W W", {}, True, "set", "W is a Wild and stands for a 7"),
    ("W W W", {}, False, None, "every meld needs a real card"),
    ("7 7 7", {}, True, "set", "A set of 7s"),
    ("3R 4B W 6Y", {}, True, "run", "3R-4B-5(W)-6Y"),
    ("W 1R W 2B", {}, True, "run", "1R-2B-3(W)-4(W)"),
    ("11R 12B 1G 2Y", {}, False, None, "12 and 1 are not neighbours"),
    ("11R 12B 1G 2Y", {"runs_may_wrap": True}, True, "run", "11R-12B-1G-2Y"),
    ("5R 5B 6G 7Y", {}, False, None, "this has 5 twice"),
    ("S 7R 7B", {}, False, None, "A Skip is never part of a meld"),
    ("W W W", {"min_real_cards": 0}, True, "set", "A set of one number"),
]


@pytest.mark.parametrize(("cards", "changes", "valid", "kind", "words"), MELDS)
def test_a_meld_rules_as_the_spec_shows(
    cards: str, changes: dict[str, Any], valid: bool, kind: str | None, words: str
) -> None:
    ruling = check_meld(cards, rules(**changes))
    assert ruling.valid is valid, ruling
    assert ruling.kind == kind
    assert said(ruling.reasons, words), ruling.reasons + tuple(str(m) for m in ruling.arrangement)


def test_w_w_w_with_no_real_card_needed_is_too_few_for_a_run() -> None:
    ruling = check_meld("W W W", rules(min_real_cards=0))
    assert ruling.kind == "set"
    assert not check_meld("W W W", rules(min_real_cards=0, min_set=4)).valid


# (contract number, melds, made, words)
CONTRACTS = [
    (8, [RED], True, "7 cards of one colour (2R-4R-4R-7R-9R-12R-W)"),
    (8, ["2R 9R 12B W 4R 4R 7R"], False, "12B is blue"),
    (8, ["2 9 12 W 4 4 7"], False, "the colours of 2, 9, 12, 4, 4 and 7 are not known"),
    (8, ["S 2R 9R 12R 4R 4R 7R"], False, "a Skip is never part of a meld"),
    (8, ["7R 7R W W W W W"], True, "7 cards of one colour"),
    (1, ["10R 10B 10G", "10Y 10R 10B"], True, "two sets of 3"),
    (1, ["5R 5B 5G 5Y 5R", "7R 7B 7G"], True, "two sets of 3"),
    (1, ["5R 5B 5G", "7R 7B 7G", "10R 10B 10G"], False, "exactly 2 melds, and 3 were laid down"),
    (9, ["4R 4B 4G 4Y W", "11R 11B"], True, "a set of 5 and a set of 2"),
    (4, ["1R 2B 3G 4Y 5R 6B 7G 8Y 9R"], True, "a run of 7"),
    (6, ["4R 5B 6G 7Y 8R 9B 10G 11Y 12R W"], True, "3(W)-4R"),
]


@pytest.mark.parametrize(("number", "melds", "made", "words"), CONTRACTS)
def test_a_phase_rules_as_the_spec_shows(
    number: int, melds: list[str], made: bool, words: str
) -> None:
    ruling = check_contract(melds, PHASE_10, number)
    assert ruling.valid is made, ruling
    shown = ruling.reasons + tuple(str(meld) for meld in ruling.arrangement)
    assert said(shown, words), shown


def test_a_run_of_9_on_phase_4_makes_phase_4_only() -> None:
    # One phase a hand: the referee rules the phase asked; the score sheet moves the player
    # on by one (the same run would also be a run of 8 and of 9).
    run = ["1R 2B 3G 4Y 5R 6B 7G 8Y 9R"]
    assert check_contract(run, PHASE_10, 4).valid
    assert check_contract(run, PHASE_10, 6).valid


# (meld on the table, cards hit, changes, contract turn, allowed, words)
LAYOFFS = [
    ("3R 4B 5G 6Y 7R", "8R", {}, False, True, "3R-4B-5G-6Y-7R-8R"),
    ("9R 10B 11G 12Y", "W", {}, False, True, "8(W)-9R-10B-11G-12Y"),
    (FULL_RUN, "W", {}, False, False, "12 cards at most"),
    (RED, "5B", {}, False, False, "5B is blue"),
    (RED, "W", {}, False, True, "Cards of one colour: red"),
    ("7R 7B 7G", "S", {}, False, False, "A Skip never goes on a meld"),
    ("3R 4B 5G 6Y", "S", {}, False, False, "A Skip never goes on a meld"),
    (RED, "S", {}, False, False, "A Skip never goes on a meld"),
    ("3R 4B 5G 6Y", "2R", {}, True, True, "2R-3R-4B-5G-6Y"),
    ("3R 4B 5G 6Y", "2R", {"layoff_on_contract_turn": False}, True, False, "a later turn"),
]


@pytest.mark.parametrize(("table", "added", "changes", "turn", "allowed", "words"), LAYOFFS)
def test_a_hit_rules_as_the_spec_shows(
    table: str, added: str, changes: dict[str, Any], turn: bool, allowed: bool, words: str
) -> None:
    ruling = check_layoff(table, added, rules(**changes), contract_turn=turn)
    assert ruling.valid is allowed, ruling
    shown = ruling.reasons + tuple(str(meld) for meld in ruling.arrangement)
    assert said(shown, words), shown


def test_a_wild_once_down_stays_unless_the_house_says_otherwise() -> None:
    refused = check_liberation("3R 4B W 6Y", "5G", PHASE_10, own_meld=False)
    assert not refused.valid and said(refused.reasons, "Liberating a wild card is not allowed")
    allowed = check_liberation("3R 4B W 6Y", "5G", rules(liberation="any"), own_meld=False)
    assert allowed.valid and allowed.freed is not None and allowed.freed.notation == "W"
    assert str(allowed.meld) == "3R-4B-5G-6Y"


@pytest.mark.parametrize(
    ("cards", "changes", "points"),
    [("7 12 W S", {}, 55), ("1R 9G 10B 11Y 12G", {}, 40), ("W", {"card_values": {"wild": 20}}, 20)],
)
def test_a_hand_scores_as_the_spec_shows(cards: str, changes: dict[str, Any], points: int) -> None:
    assert score_cards(cards, rules(**changes)) == points


@pytest.mark.parametrize(
    ("token", "rules_", "why"),
    [
        ("13R", PHASE_10, "the numbers are 1 to 12"),
        ("7X", PHASE_10, "the colours are R, B, Y, G"),
        ("JK", PHASE_10, "this deck has no jokers"),
        ("7R", "contract-rummy", "R is not a suit"),
    ],
)
def test_notation_refused_as_the_spec_shows(token: str, rules_: Any, why: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_cards(token, rules_)
    assert repr(token) in str(caught.value) and why in str(caught.value)


def test_notation_read_as_the_spec_shows() -> None:
    assert format_cards(parse_cards("wr 12g skip *", PHASE_10)) == "W 12G S W"


def test_the_hand_check_finds_every_phase() -> None:
    found = find_contract("7R 7B W 9G 9Y 9B S 12R", PHASE_10, 1)
    assert found is not None and all("S" not in format_cards(meld).split() for meld in found)
    assert check_contract(found, PHASE_10, 1).valid
    # Runs of any colours and cards of one colour are searched too (search_colours).
    hand = "1R 2B 3G 4Y 5R 6B 7G 8Y 9R 10B"
    for number, makeable in ((2, False), (4, True), (8, False)):
        found = find_contract(hand, PHASE_10, number)
        assert (found is not None) is makeable
        assert (cards_short(hand, PHASE_10, number) == 0) is makeable
