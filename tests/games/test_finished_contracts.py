"""The finished board says which contract each player ended on in one way (issue 43): the one
they had still to make. "stopped on 3" meant contract 3 not made for one player and contract 3
made (in the last round) for another."""

from __future__ import annotations

import json
import re
from io import BytesIO

from flask.testing import FlaskClient

from ..helpers import game_document


def _board(client: FlaskClient, language: str) -> str:
    """A finished 12-Step game: Ann makes every contract; Ben makes contracts 1 to 3 in the
    last three rounds (the third in the very last); Cy makes none."""
    rounds = [("Ann", {"Ben": "K", "Cy": "K Q"}, {"Ben"} if n >= 9 else set()) for n in range(12)]
    document = game_document("twelve-step", ["Ann", "Ben", "Cy"], rounds)
    answer = client.post(
        "/games/import",
        data={"file": (BytesIO(json.dumps(document).encode()), "game.json")},
        content_type="multipart/form-data",
    )
    game_id = int(answer.headers["Location"].rstrip("/").split("/")[-1])
    page = client.get(f"/games/{game_id}", headers={"Accept-Language": language})
    return page.get_data(as_text=True)


def _lines(page: str) -> dict[str, str]:
    """Each player's contract line on the standings."""
    found = re.findall(
        r'<span class="player-name">([^<]+).*?<span class="contract-line[^"]*">([^<]+)</span>',
        page,
        flags=re.S,
    )
    return {name.strip(): " ".join(line.split()) for name, line in found}


def test_each_player_ended_on_the_contract_they_had_yet_to_make(client: FlaskClient) -> None:
    lines = _lines(_board(client, "en"))
    assert lines["Ann"] == "made every contract"
    # Ben made contract 3 in the last round: he ended on contract 4, not made.
    assert lines["Ben"].startswith("contract 4 not made yet:"), lines
    assert lines["Cy"].startswith("contract 1 not made yet:"), lines


def test_the_same_in_spanish(client: FlaskClient) -> None:
    lines = _lines(_board(client, "es"))
    assert lines["Ben"].startswith("contrato 4 aún sin cumplir:"), lines
