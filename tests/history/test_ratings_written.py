"""A rating is written one way on every page (issue 43): below zero with a true minus sign
("−0.9", as a move is: "−0.4"), never a hyphen ("-0.9") on one page and a minus on the next."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from scorekeeper import languages

from ..helpers import save_round, start_game

# A number after a hyphen-minus, as a page's words show it (not inside an address or a name).
HYPHENATED = re.compile(r"(?<![\w/#-])-\d+(?:[.,]\d+)?(?![\w-])")


def _finished(client: FlaskClient) -> int:
    """Contract Rummy's seven rounds, Ben out every round, Cy holding the most: Cy's rating
    falls below zero."""
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben", "Cy"])
    for _ in range(7):
        save_round(client, game_id, went_out="Ben", cards={"Ann": "5", "Cy": "K Q"})
    return game_id


def _words(page: str) -> str:
    """What a person reads: the page less its scripts, styles and tags."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"<[^>]+>", " ", page)


def test_a_rating_below_zero_reads_with_a_minus_sign_everywhere(client: FlaskClient) -> None:
    game_id = _finished(client)
    players = client.get("/players").get_data(as_text=True)
    cy = re.search(r'href="(/players/\d+)">Cy<', players)
    assert cy is not None
    pages = {
        "players": players,
        "Cy's page": client.get(cy.group(1)).get_data(as_text=True),
        "seasons": client.get("/seasons").get_data(as_text=True),
        "the game's ratings": client.get(f"/history/games/{game_id}/ratings").get_data(
            as_text=True
        ),
    }
    hyphens = {name: HYPHENATED.findall(_words(page)) for name, page in pages.items()}
    assert hyphens == {name: [] for name in pages}
    assert all("\u2212" in _words(page) for page in pages.values()), "no rating below zero shown"


def test_the_rating_filter_writes_a_true_minus_sign(app: object) -> None:
    from flask import Flask

    assert isinstance(app, Flask)
    with app.test_request_context():
        assert languages.rating(-0.94) == "\u22120.9"
        assert languages.rating(1.25) == "1.2" or languages.rating(1.25) == "1.3"
        assert languages.rating(-0.04) == "0.0"
        assert languages.rating(None) == languages.NOTHING
