# ruff: noqa: E501  (rule tables read best one case a line)
"""The referee's rulings: every example of the spec and of the families' documents."""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    CardError,
    ContractNumberError,
    check_contract,
    check_layoff,
    check_liberation,
    check_meld,
    parse_cards,
)

# (preset, cards, valid, kind, arrangement or None, words every ruling must hold)
MELDS = [
    # The spec's table.
    ("twelve-step", "5S 2C JK", True, "set", "5♠-5(2♣)-5(JK)", ["Wild cards may sit side by side in a set (12-Step Rummy rules)"]),
    ("twelve-step", "5S 2C 7S JK", True, "run", "5♠-6♠(2♣)-7♠-8♠(JK)", ["In a run wild cards must be separated by a real card (12-Step Rummy rules)"]),
    ("twelve-step", "5S 2C JK 8S", False, None, None, ["Not a set because 5 and 8 differ", "as a run the two wild cards would have to sit side by side"]),
    ("twelve-step", "AH 2H 3H 4H", True, "run", "A♥-2♥-3♥-4♥", ["Aces may be high or low (12-Step Rummy rules)", "the ace is low", "2♥ sits in its own place"]),
    ("twelve-step", "JD QD KD AD", True, "run", "J♦-Q♦-K♦-A♦", ["Aces may be high or low (12-Step Rummy rules)", "the ace is high"]),
    ("twelve-step", "QC KC AC 2C", True, "run", "J♣(2♣)-Q♣-K♣-A♣", ["never turns the corner"]),
    # Greg's examples (001, 002): 5-*-* a set, 5-*-7-* of spades a run, not 5-*-*-8.
    ("twelve-step", "5S * *", True, "set", "5♠-5(JK)-5(JK)", ["Wild cards may sit side by side in a set"]),
    ("russian-rummy", "5S * 7S *", True, "run", "5♠-6♠(JK)-7♠-8♠(JK)", ["Russian Rummy rules"]),
    ("russian-rummy", "5S * * 8S", False, None, None, ["side by side"]),
    ("dummy-rummy", "5♠ 2♥ 2♦", True, "set", "5♠-5(2♥)-5(2♦)", []),
    # Any order of the cards.
    ("twelve-step", "JK 7S 2C 5S", True, "run", "5♠-6♠(2♣)-7♠-8♠(JK)", []),
    ("twelve-step", "4H AH 3H 2H", True, "run", "A♥-2♥-3♥-4♥", []),
    # Bellevue: wild cards alternate in sets too, may stand at either end.
    ("bellevue", "5S JK 5D 2C", True, "set", "5♠-5(2♣)-5♦-5(JK)", ["Bellevue family rules"]),
    ("bellevue", "5S JK 2C", True, "set", "5(2♣)-5♠-5(JK)", []),
    ("bellevue", "5S 5D JK 2C 2H", True, "set", "5(2♥)-5♠-5(2♣)-5♦-5(JK)", ["either end"]),
    ("bellevue", "5S 5D JK 2C 2H JK", False, None, None, ["may not sit side by side"]),
    ("bellevue", "AH AS", True, "pair", "A♠-A♥", ["pair"]),
    ("bellevue", "AH JK", True, "pair", "A♥-A(JK)", []),
    ("bellevue", "KH KS", False, None, None, ["at least 3 cards"]),
    ("bellevue", "JK 9H JK", True, "set", "9(JK)-9♥-9(JK)", []),
    ("bellevue", "JK 9H JK 10H", True, "run", "8♥(JK)-9♥-10♥-J♥(JK)", []),
    ("bellevue", "JK 9H 2C 10H", True, "run", "8♥(2♣)-9♥-10♥-J♥(JK)", []),
    ("bellevue", "9H JK JK 10H", True, "run", "8♥(JK)-9♥-10♥-J♥(JK)", []),
    ("bellevue", "9H 10H JK JK JK", False, None, None, ["side by side"]),
    # Contract Rummy: only jokers are wild, anywhere.
    ("contract-rummy", "5S JK JK 8S", True, "run", "5♠-6♠(JK)-7♠(JK)-8♠", ["Contract Rummy rules"]),
    ("contract-rummy", "2S 2D 2H", True, "set", "2♠-2♥-2♦", []),
    ("contract-rummy", "QC KC AC 2C", False, None, None, ["never turns the corner"]),
    ("contract-rummy", "2C 3C 4C 5C", True, "run", "2♣-3♣-4♣-5♣", []),
    # Real cards, wild 2s, rank-only cards.
    ("twelve-step", "2S 2D 2H", False, None, None, ["needs a real card"]),
    ("twelve-step", "2S 2D JK 2H", False, None, None, ["needs a real card"]),
    ("twelve-step", "K K KS", True, "set", "K-K-K♠", []),
    ("twelve-step", "K K JK", True, "set", "K-K-K(JK)", []),
    ("twelve-step", "5 6S 7S 8S", False, None, None, ["no suit", "cannot establish a run's suit"]),
    ("twelve-step", "5 6 7 8", False, None, None, ["no suit"]),
    ("twelve-step", "7H 7H 7S", True, "set", "7♠-7♥-7♥", []),
    ("twelve-step", "5H 6H 6H 7H", False, None, None, ["6♥ twice"]),
    ("twelve-step", "5H 6S 7H 8H", False, None, None, ["not of one suit"]),
    ("twelve-step", "5H 6H 7H", False, None, None, ["at least 4 cards"]),
    ("twelve-step", "5H 6H", False, None, None, ["at least 3 cards", "at least 4 cards"]),
    ("twelve-step", "5H 6H 9H QH", False, None, None, ["too far apart"]),
    ("twelve-step", "AH 2H 2H 4H", True, "run", "A♥-2♥-3♥(2♥)-4♥", []),
    ("twelve-step", "3H 2H 4H 5H", True, "run", "2♥-3♥-4♥-5♥", []),
    ("twelve-step", "10C JC QC KC AC", True, "run", "10♣-J♣-Q♣-K♣-A♣", []),
    ("twelve-step", "JK 3S 4S 5S", True, "run", "3♠-4♠-5♠-6♠(JK)", []),
    ("twelve-step", "JK JH QH KH", True, "run", "J♥-Q♥-K♥-A♥(JK)", ["the ace is high"]),
    ("twelve-step", "", False, None, None, ["no cards"]),
]  # fmt: skip


@pytest.mark.parametrize(("slug", "cards", "valid", "kind", "arrangement", "words"), MELDS)
def test_check_meld(
    slug: str, cards: str, valid: bool, kind: str | None, arrangement: str | None, words: list[str]
) -> None:
    ruling = check_meld(cards, slug)
    text = " ".join(ruling.reasons)
    assert ruling.valid is valid, text
    assert ruling.kind == kind
    assert ruling.reasons
    assert (str(ruling.meld) if ruling.meld else None) == arrangement
    for word in words:
        assert word.lower() in text.lower(), text
    for reason in ruling.reasons:
        assert reason.rule and reason.source is not None
        assert str(reason.source) in reason


def test_wild_stands_for_what_it_replaces() -> None:
    ruling = check_meld("QC KC AC 2C", "twelve-step")
    assert ruling.meld is not None
    wild = ruling.meld.wild_cards
    assert [(str(p.card), str(p.stands_for)) for p in wild] == [("2C", "JC")]
    assert ruling.meld.cards == tuple(parse_cards("2C QC KC AC"))


def test_bad_notation_raises_card_error() -> None:
    with pytest.raises(CardError, match="'1H'"):
        check_meld("5S 1H 7S", "twelve-step")


# (preset, meld on the table, cards added, valid, result, words)
LAYOFFS = [
    ("twelve-step", "4D 5D 6D 7D", "3D", True, "3♦-4♦-5♦-6♦-7♦", ["Laying off is allowed once your own contract is made"]),
    ("russian-rummy", "4♦ 5♦ 6♦ 7♦", "3♦", True, "3♦-4♦-5♦-6♦-7♦", ["Russian Rummy rules"]),
    ("twelve-step", "4D 5D 6D 7D", "8D 9D", True, "4♦-5♦-6♦-7♦-8♦-9♦", []),
    ("twelve-step", "4D 5D 6D 7D", "3D 8D", True, "3♦-4♦-5♦-6♦-7♦-8♦", []),
    ("twelve-step", "4D 5D 6D 7D", "3H", False, None, ["not of diamonds"]),
    ("twelve-step", "4D 5D 6D 7D", "9D", False, None, []),
    ("twelve-step", "4D JK 6D 7D", "5D", False, None, ["grows only at its ends"]),
    ("twelve-step", "JD QD KD AD", "10D", True, "10♦-J♦-Q♦-K♦-A♦", []),
    ("twelve-step", "JD QD KD AD", "3D", False, None, ["past an ace"]),
    ("twelve-step", "JD QD KD AD", "2D", True, "10♦(2♦)-J♦-Q♦-K♦-A♦", []),
    ("twelve-step", "4D JK 6D 7D", "JK", True, "4♦-5♦(JK)-6♦-7♦-8♦(JK)", []),
    ("twelve-step", "4D 5D 6D 7(JK)", "JK", True, "3♦(JK)-4♦-5♦-6♦-7♦(JK)", []),
    ("twelve-step", "4D 5D 6D 7(JK)", "JK 2C", False, None, ["separated by a real card"]),
    ("twelve-step", "5S 5H 5D", "5C", True, "5♠-5♥-5♦-5♣", []),
    ("twelve-step", "5S 5H 5D", "JK 2C", True, None, []),
    ("twelve-step", "5S 5H 5D", "6C", False, None, ["differ"]),
    ("bellevue", "5S JK 5H", "JK", True, None, []),
    ("bellevue", "5S JK 5H 2C", "JK", True, None, []),
    ("bellevue", "5S JK 5H 2C", "JK 2D", False, None, ["side by side"]),
    ("bellevue", "AH AS", "AD", True, "A♠-A♥-A♦", []),
    # Asked with no turn, the question is about a later turn: contract-rummy allows these.
    ("contract-rummy", "JD QD KD AD", "JK JK", True, "9♦(JK)-10♦(JK)-J♦-Q♦-K♦-A♦", ["from the turn after"]),
    ("contract-rummy", "3S 4S 5S 6S", "AS 2S", True, "A♠-2♠-3♠-4♠-5♠-6♠", ["from the turn after", "the ace is low"]),
    ("contract-rummy", "JS JD JC", "JH", True, "J♠-J♥-J♦-J♣", ["from the turn after"]),
]  # fmt: skip


@pytest.mark.parametrize(("slug", "table", "added", "valid", "result", "words"), LAYOFFS)
def test_check_layoff(
    slug: str, table: str, added: str, valid: bool, result: str | None, words: list[str]
) -> None:
    table = table.replace("7(JK)", "JK")
    ruling = check_layoff(table, added, slug)
    text = " ".join(ruling.reasons)
    assert ruling.valid is valid, text
    assert ruling.reasons
    if result is not None:
        assert str(ruling.meld) == result
    for word in words:
        assert word.lower() in text.lower(), text


# (meld on the table, cards added): lay-offs that fit, asked about in contract-rummy.
CONTRACT_RUMMY_LAYOFFS = [
    ("JD QD KD AD", "JK JK"),
    ("3S 4S 5S 6S", "AS 2S"),
    ("JS JD JC", "JH"),
]


@pytest.mark.parametrize(("table", "added"), CONTRACT_RUMMY_LAYOFFS)
def test_contract_rummy_refuses_a_layoff_on_the_contract_turn(table: str, added: str) -> None:
    ruling = check_layoff(table, added, "contract-rummy", contract_turn=True)
    assert not ruling.valid
    assert ruling.reasons[0].rule == "layoff_on_contract_turn"
    assert "You may not lay off on the turn you lay your contract down" in ruling.reasons[0]
    assert check_layoff(table, added, "contract-rummy", contract_turn=False).valid


# (preset, meld, real card, own meld, valid, freed, words)
LIBERATIONS = [
    ("twelve-step", "3H 4H JK 6H", "5H", False, True, "JK", ["The freed JK must be played at once (12-Step Rummy rules)"]),
    ("twelve-step", "3H 4H JK 6H", "5H", True, False, None, ["not your own"]),
    ("russian-rummy", "3-4-*-6♥".replace("3-4", "3H 4H"), "5♥", False, True, "JK", ["in the same round (Russian Rummy rules)"]),
    ("russian-rummy", "3H 4H JK 6H", "5H", True, False, None, ["not your own"]),
    ("dummy-rummy", "3H 4H JK 6H", "5H", False, True, "JK", ["at once"]),
    ("contract-rummy", "3H 4H JK 6H", "5H", True, True, "JK", ["at once (Contract Rummy rules)"]),
    ("contract-rummy", "3H 4H JK 6H", "5H", False, True, "JK", []),
    ("bellevue", "3H 4H JK 6H", "5H", False, False, None, ["not allowed", "your rules don't say"]),
    ("twelve-step", "3H 4H JK 6H", "5S", False, False, None, ["not the card"]),
    ("twelve-step", "3H 4H 5H 6H", "5H", False, False, None, ["no wild card"]),
    ("twelve-step", "5S 5H JK", "5D", False, True, "JK", []),
    ("twelve-step", "5S 5H 2C", "5", False, True, "2C", []),
    ("twelve-step", "5S 5H 2C", "6D", False, False, None, ["not the card"]),
    ("twelve-step", "JK JH QH KH", "AH", False, True, "JK", []),
    ("twelve-step", "JK JH QH KH", "10H", False, True, "JK", []),
]  # fmt: skip


@pytest.mark.parametrize(("slug", "table", "card", "own", "valid", "freed", "words"), LIBERATIONS)
def test_check_liberation(
    slug: str,
    table: str,
    card: str,
    own: bool,
    valid: bool,
    freed: str | None,
    words: list[str],
) -> None:
    ruling = check_liberation(table, card, slug, own)
    text = " ".join(ruling.reasons)
    assert ruling.valid is valid, text
    assert ruling.reasons
    assert (str(ruling.freed) if ruling.freed else None) == freed
    if valid:
        assert ruling.meld is not None and parse_cards(card)[0] in ruling.meld.cards
        assert ruling.notes
    for word in words:
        assert word.lower() in text.lower(), text


# (preset, contract, melds, valid, words)
CONTRACTS = [
    ("twelve-step", 1, ["5S 5D 5C", "7H 7S JK"], True, ["Contract 1 asks for two sets of 3"]),
    ("twelve-step", 1, ["5S 5D 5C 5H", "7H 7S JK"], True, []),
    ("twelve-step", 1, ["5S 5D 5C", "7H 7S JK", "9S 9D 9H"], False, ["exactly 2 melds"]),
    ("twelve-step", 1, ["5S 5D 5C"], False, ["exactly 2 melds"]),
    ("twelve-step", 2, ["5S 5D 5C", "7H 8H 9H 10H"], True, []),
    ("twelve-step", 2, ["7H 8H 9H 10H", "5S 5D 5C"], True, []),
    ("twelve-step", 2, ["5S 5D 5C", "7H 7S 7D"], False, ["asks for a set of 3 and a run of 4"]),
    ("twelve-step", 2, ["5S 5D 7C", "7H 8H 9H 10H"], False, ["Meld 1", "differ"]),
    ("twelve-step", 3, ["5S 5D 5C", "7H 7S 7D 7C"], False, ["two sets of 4"]),
    ("twelve-step", 7, ["5S 5D 5C", "3H 4H 5H 6H 7H 8H 9H"], True, []),
    ("twelve-step", 7, ["5S 5D 5C", "3H 4H 5H 6H 7H 8H"], False, []),
    ("twelve-step", 11, ["5S 5D 5C 5H JK 2C 2D 5S"], True, []),
    ("twelve-step", 12, ["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H"], True, []),
    ("twelve-step", 4, ["KH QH JH 10H", "9H 8H 7H 6H"], True, []),
    ("bellevue", 4, ["KH QH JH 10H", "9H 8H 7H 6H"], False, ["may not continue each other"]),
    ("bellevue", 4, ["KH QH JH 10H", "8H 7H 6H 5H"], True, []),
    ("bellevue", 4, ["KH QH JH JK", "9H 8H 7H 6H"], True, []),
    ("bellevue", 4, ["KH QH JH 10H", "9S 8S 7S 6S"], True, []),
    ("bellevue", 1, ["AH AS", "7H 7S 7D"], True, ["a pair of aces and a set of 3"]),
    ("bellevue", 1, ["KH KS", "7H 7S 7D"], False, []),
    ("bellevue", 10, ["3H 4H 5H 6H", "3S 4S 5S 6S", "9D 10D JD QD"], True, ["going out"]),
    ("contract-rummy", 7, ["3H 4H 5H 6H", "3S 4S 5S 6S", "9D 10D JD QD"], True, ["going out"]),
    ("contract-rummy", 2, ["5S JK JK JK", "7H 7S 7D"], True, []),
    ("contract-rummy", 3, ["5S JK JK JK", "7H 8H 9H 10H"], True, []),
    ("contract-rummy", 3, ["5S JK JK JK", "7H 7S 7D 7H"], False, ["two runs of 4"]),
]  # fmt: skip


@pytest.mark.parametrize(("slug", "number", "melds", "valid", "words"), CONTRACTS)
def test_check_contract(
    slug: str, number: int, melds: list[str], valid: bool, words: list[str]
) -> None:
    ruling = check_contract(melds, slug, number)
    text = " ".join([*ruling.reasons, *ruling.notes])
    assert ruling.valid is valid, text
    assert ruling.reasons
    if valid:
        assert len(ruling.arrangement) == len(melds)
        assert sorted(c for m in ruling.arrangement for c in m.cards) == sorted(
            parse_cards(" ".join(melds))
        )
    for word in words:
        assert word.lower() in text.lower(), text


def test_check_contract_unknown_number() -> None:
    with pytest.raises(ContractNumberError, match="13"):
        check_contract(["5S 5D 5C"], "twelve-step", 13)


def test_extra_melds_house_rule() -> None:
    melds = ["5S 5D 5C", "7H 7S JK", "9S 9D 9H"]
    assert not check_contract(melds, "twelve-step", 1).valid
    assert check_contract(melds, {"base": "twelve-step", "extra_melds": True}, 1).valid
