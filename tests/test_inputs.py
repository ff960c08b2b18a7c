"""Regressions found by tests/test_hostile.py: each input that once ended in a 500."""

from __future__ import annotations

import io
import json
import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.inputs import LARGEST_ID, whole_number
from scorekeeper.models import Game, Player

from .helpers import game_document, save_round, start_game


def _upload(client: FlaskClient, url: str, raw: bytes) -> str:
    """The refusal of an upload: a game file's at once (422); a backup's on its restore's
    progress page, which the upload leads to."""
    response = client.post(url, data={"file": (io.BytesIO(raw), "file.json")})
    if url == "/history/backup":
        assert response.status_code == 303, response.status_code
        response = client.get(response.headers["Location"])
        assert response.status_code == 200, response.status_code
    else:
        assert response.status_code == 422, response.status_code
    return response.get_data(as_text=True)


def test_uploads_nested_too_deep_or_with_huge_numbers_are_refused(client: FlaskClient) -> None:
    for raw in (b"[" * 100_000, b'{"version": ' + b"1" * 5000 + b"}"):
        assert "far too large" in _upload(client, "/games/import", raw)
        assert "far too large" in _upload(client, "/history/backup", raw)


def test_whole_number_takes_only_plain_digits_in_range() -> None:
    assert whole_number("12") == 12
    assert whole_number(" 3 ") == 3
    assert whole_number(str(LARGEST_ID)) == LARGEST_ID
    for text in ("²", "٣", "9" * 5000, str(LARGEST_ID + 1), "-1", "1.5", "", None):
        assert whole_number(text) is None, text
    assert whole_number("4", below=4) is None
    assert whole_number("3", below=4) == 3


def test_digits_int_refuses_are_refused_at_the_field_not_crashed(client: FlaskClient) -> None:
    form = {"rules": "twelve-step", "players-0": "Ann", "players-1": "Ben", "start": "y"}
    for odd in ("²", "9" * 5000):
        response = client.post("/games/new", data={**form, "first_dealer": odd})
        assert response.status_code == 302  # the first seat deals, as when nothing was picked
        response = client.post("/games/new", data={**form, "up": odd})
        assert response.status_code < 500
        assert client.get("/referee", query_string={"game": odd}).status_code == 404
    game_id = start_game(client)
    for odd in ("²", "9" * 5000):
        response = client.post(
            f"/games/{game_id}/rounds/new",
            data={"went_out": odd, "number": odd, "hands-0-cards": "K", "save": "y"},
        )
        assert response.status_code == 422
        assert "say who went out" in response.get_data(as_text=True)
        response = client.post(
            f"/games/{game_id}/rounds/new", data={f"remove-{odd}": "0", "remove-0": odd}
        )
        assert response.status_code == 200


def test_ids_beyond_the_columns_are_404(client: FlaskClient) -> None:
    for path in (f"/games/{2**31}", f"/games/{2**63}/rounds/1/edit", f"/players/{2**64}"):
        assert client.get(path).status_code == 404, path
    assert client.get("/rules/a%00b").status_code == 404


def test_a_number_written_with_leading_zeros_is_no_address(client: FlaskClient) -> None:
    """One page, one address (issue 43): ``/review/02025`` served the year 2025 under an
    address of its own; a number in an address is written as the app writes it, or is 404."""
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben"])
    save_round(client, game_id, "Ann", {"Ben": "K"})
    year = client.get(f"/games/{game_id}/export").get_json()["started"][:4]
    for page in (f"/games/{game_id}", f"/review/{year}", f"/review/{year}/card.png"):
        assert client.get(page).status_code == 200, page
        padded = re.sub(r"/(\d+)", r"/0\1", page, count=1)
        assert client.get(padded).status_code == 404, padded


def test_nul_is_dropped_from_fields_and_refused_in_game_files(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, players=["A\x00nn", "Ben", "Cy\x00"])
    assert client.get(f"/games/{game_id}/export").get_json()["players"][:3] == ["Ann", "Ben", "Cy"]
    with app.app_context():
        games = db.session.scalar(select(func.count(Game.id)))
    document = game_document("twelve-step", ["Dee\x00", "Eve", "Fay"], [])
    raw = json.dumps(document).encode()
    assert "NUL character" in _upload(client, "/games/import", raw)
    assert "NUL character" in _upload(client, "/history/backup", raw)
    with app.app_context():
        assert db.session.scalar(select(func.count(Game.id))) == games
        assert not db.session.scalars(select(Player).where(Player.name.like("Dee%"))).all()
