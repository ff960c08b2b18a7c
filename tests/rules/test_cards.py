"""Card notation: what it reads, what it refuses, and that writing reads back."""

from __future__ import annotations

import pytest

from scorekeeper.rules import JOKER, Card, CardError, Rank, Suit, format_cards, parse_cards


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10H", [Card(Rank.TEN, Suit.HEARTS)]),
        ("th", [Card(Rank.TEN, Suit.HEARTS)]),
        ("Q♠", [Card(Rank.QUEEN, Suit.SPADES)]),
        ("q♠", [Card(Rank.QUEEN, Suit.SPADES)]),
        ("as", [Card(Rank.ACE, Suit.SPADES)]),
        ("2♣", [Card(Rank.TWO, Suit.CLUBS)]),
        ("JK", [JOKER]),
        ("Joker", [JOKER]),
        ("*", [JOKER]),
        ("K", [Card(Rank.KING, None)]),
        ("10", [Card(Rank.TEN, None)]),
        ("A", [Card(Rank.ACE, None)]),
        ("J", [Card(Rank.JACK, None)]),
        ("jh", [Card(Rank.JACK, Suit.HEARTS)]),
        ("10♥️", [Card(Rank.TEN, Suit.HEARTS)]),
        (
            "5S, 2C-JK  8s",
            [
                Card(Rank.FIVE, Suit.SPADES),
                Card(Rank.TWO, Suit.CLUBS),
                JOKER,
                Card(Rank.EIGHT, Suit.SPADES),
            ],
        ),
        ("3-4-*-6♥", [Card(Rank(3)), Card(Rank(4)), JOKER, Card(Rank(6), Suit.HEARTS)]),
        ("", []),
        ("  ,  ", []),
    ],
)
def test_parse_cards_reads(text: str, expected: list[Card]) -> None:
    assert parse_cards(text) == expected


@pytest.mark.parametrize(
    ("text", "token", "words"),
    [
        ("1H", "1H", "write A for an ace"),
        ("11S", "11S", "11 is not a rank"),
        ("KX", "KX", "X is not a suit"),
        ("ZZ", "ZZ", "write a rank"),
        ("5S 1H 7S", "1H", "1 is not a rank"),
        ("5S, KX", "KX", "X is not a suit"),
        ("S", "S", "write a rank"),
        ("0H", "0H", "0 is not a rank"),
    ],
)
def test_parse_cards_refuses_and_names_the_token(text: str, token: str, words: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_cards(text)
    assert caught.value.token == token
    assert repr(token) in str(caught.value)
    assert words in str(caught.value)
    assert isinstance(caught.value, ValueError)


ALL_CARDS = [
    *(Card(rank, suit) for rank in Rank for suit in Suit),
    *(Card(rank, None) for rank in Rank),
    JOKER,
]


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_every_card_round_trips(card: Card) -> None:
    assert parse_cards(format_cards([card])) == [card]
    assert parse_cards(format_cards([card], symbols=True)) == [card]
    assert parse_cards(str(card)) == [card]
    assert Card.parse(card.label if not card.is_joker else "Joker") == card


def test_format_cards() -> None:
    cards = parse_cards("10H QS JK K")
    assert format_cards(cards) == "10H QS JK K"
    assert format_cards(cards, symbols=True) == "10♥ Q♠ JK K"
    assert [card.label for card in cards] == ["10♥", "Q♠", "Joker", "K"]


def test_card_values_are_ordered_and_hashable() -> None:
    cards = parse_cards("JK KS 2H AH 2S K")
    assert sorted(cards) == parse_cards("AH 2S 2H K KS JK")
    assert len({*parse_cards("7H 7H 7S")}) == 2
    assert Rank.ACE.symbol == "A" and Rank.TEN.symbol == "10"
    assert Suit.HEARTS.symbol == "♥" and Suit.HEARTS.letter == "H"
    assert JOKER.is_joker and JOKER.rank is None and JOKER.suit is None
