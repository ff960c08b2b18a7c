"""Issue 51: a game decided by a tie-break hand says what was played, its rounds and the
tie-break hand apart ("2 rounds and a tie-break hand played"), on the board, the TV, the result
page, the result card's picture, the history's list and the records' longest game, in English
and Spanish: the hand is played after the game's last round by the tied players alone, and its
points count in no total (phase-10.md), so it is not one more round of the game. A game with no
tie-break hand says its rounds as before."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import ImageDraw

from scorekeeper import house_rules, scope
from scorekeeper.extensions import db

from ..conftest import family_id
from ..helpers import save_round, start_game
from .test_phase_10_options import THREE, _house_rules

ES = {"Accept-Language": "es"}

# What each page says of a game of 2 rounds and a tie-break hand (round 3), by language.
SAID = {
    "en": {
        "sub": "2 rounds and a tie-break hand played",
        "board": "finished after round 2 and a tie-break hand",
        "history": "2 rounds and a tie-break hand",
        "record": "2 rounds and a tie-break hand, won by Ben",
        "wrong": ("3 rounds played", "finished after round 3", "· 3 rounds", "3 rounds, won"),
    },
    "es": {
        "sub": "2 rondas y una mano de desempate jugadas",
        "board": "terminada después de la ronda 2 y una mano de desempate",
        "history": "2 rondas y una mano de desempate",
        "record": "2 rondas y una mano de desempate, ganó Ben",
        "wrong": (
            "3 rondas jugadas",
            "terminada después de la ronda 3",
            "· 3 rondas",
            "3 rondas, ganó",
        ),
    },
}


def _plain(page: str) -> str:
    """A page's words, tags out, spaces as one."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)).replace("&#39;", "'").strip()


def _get(client: FlaskClient, path: str, language: str) -> str:
    answer = client.get(path, headers=ES if language == "es" else {})
    assert answer.status_code == 200, path
    return _plain(answer.get_data(as_text=True))


def _drawn(client: FlaskClient, game_id: int, language: str, monkeypatch: Any) -> list[str]:
    """Every text the result card's picture draws."""
    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: str, *args: Any, **kwargs: Any) -> None:
        drawn.append(text)
        original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    card = client.get(f"/games/{game_id}/card.png", headers=ES if language == "es" else {})
    assert card.status_code == 200 and card.mimetype == "image/png"
    assert drawn
    return drawn


def _decided_by_a_tie_break_hand(app: Flask, client: FlaskClient) -> int:
    """Ann, Ben and Cy on phases 9 and 10: Ann and Ben both make phase 10 in round 2 on 5
    points each, and Ben goes out first in the tie-break hand, round 3."""
    game_id = start_game(client, _house_rules(app, "Two phases", {"phases_played": [9, 10]}), THREE)
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "10"}, {"Ben"})
    save_round(client, game_id, "Ben", {"Ann": "5", "Cy": "10"}, {"Ann"})
    save_round(client, game_id, "Ben", {"Ann": "W W"})
    return game_id


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_game_decided_by_a_tie_break_hand_says_its_rounds_apart(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    game_id = _decided_by_a_tie_break_hand(app, client)
    said = SAID[language]
    board = _get(client, f"/games/{game_id}", language)
    assert said["board"] in board
    tv = _get(client, f"/games/{game_id}/tv", language)
    assert f"· {said['sub']}" in tv
    result = _get(client, f"/games/{game_id}/result", language)
    assert f"· {said['sub']}" in result
    drawn = _drawn(client, game_id, language, monkeypatch)
    assert any(f"· {said['sub']}" in line for line in drawn), drawn
    history = _get(client, "/history", language)
    assert f"· {said['history']}" in history
    # Records' longest game: the kept count holds every hand dealt, so a game of 2 rounds and
    # a tie-break hand ranks beside one of 3 rounds, and says what it was.
    # (The number of rounds is in bold: its tag out leaves a space before the comma.)
    records = _get(client, "/records", language).replace(" ,", ",")
    assert said["record"] in records
    for page in (board, tv, result, " ".join(drawn), history, records):
        for wrong in said["wrong"]:
            assert wrong not in page


def _standard_rules(app: Flask) -> str:
    """Contract Rummy of two hands: a standard deck's game, over after round 2."""
    with app.test_request_context(), scope.household(family_id(app)):
        slug = house_rules.save("Two hands", {"base": "contract-rummy", "hands": 2}).slug
        db.session.commit()
    return slug


@pytest.mark.parametrize(
    ("language", "sub", "board", "history"),
    [
        ("en", "2 rounds played", "finished after round 2", "· 2 rounds"),
        ("es", "2 rondas jugadas", "terminada después de la ronda 2", "· 2 rondas"),
    ],
)
def test_a_game_with_no_tie_break_hand_says_its_rounds_as_before(
    app: Flask,
    client: FlaskClient,
    monkeypatch: pytest.MonkeyPatch,
    language: str,
    sub: str,
    board: str,
    history: str,
) -> None:
    game_id = start_game(client, _standard_rules(app), THREE)
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "10"})
    save_round(client, game_id, "Ben", {"Ann": "5", "Cy": "10"})
    page = _get(client, f"/games/{game_id}", language)
    assert f"{board} " in page and "desempate" not in page and "tie-break" not in page
    for path in ("tv", "result"):
        assert f"· {sub}" in _get(client, f"/games/{game_id}/{path}", language)
    assert any(f"· {sub}" in line for line in _drawn(client, game_id, language, monkeypatch))
    assert history in _get(client, "/history", language)
    records = _get(client, "/records", language).replace(" ,", ",")
    assert f"{history.lstrip('· ')}, " in records and "desempate" not in records
    assert "tie-break" not in records
