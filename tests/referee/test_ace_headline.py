"""Issue 50 item 4: the referee's headline places the ace where its reasons do. A run that
turns the corner with the ace inside it (K-A-2-3) read "ace high" above a reason saying the
ace is between the king and the 2."""

from __future__ import annotations

import html

import pytest
from flask.testing import FlaskClient


@pytest.mark.parametrize(
    ("cards", "headline", "where"),
    [
        ("KH AH 2H 3H", "A run of hearts, the ace between the king and the 2", "between the king"),
        ("QC KC AC 2C", "A run of clubs, the ace between the king and the 2", "between the king"),
        ("JD QD KD AD", "A run of diamonds, ace high", "here the ace is high"),
        ("AS 2S 3S 4S", "A run of spades, ace low", "here the ace is low"),
        (
            "JH QH KH AH 2H 3H 4H 5H 6H 7H 8H 9H 10H",
            "A run of hearts, ace low",
            "here the ace is low",
        ),
    ],
)
def test_the_headline_places_the_ace_as_the_reasons_do(
    client: FlaskClient, cards: str, headline: str, where: str
) -> None:
    page = html.unescape(
        client.get("/referee", query_string={"rules": "carioca", "cards": cards}).get_data(
            as_text=True
        )
    )
    assert headline in page
    assert where in page
    if "between" in headline:
        assert "ace high" not in page and "ace low" not in page
