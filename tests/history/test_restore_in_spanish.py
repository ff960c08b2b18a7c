"""A restore's report is kept as messages and read in the reader's language: a Spanish page
says in Spanish what the household's line brought, what it left out, and why lines were
refused (the household's problems and the lines' problems alike)."""

from __future__ import annotations

import html
import json

from flask import Flask
from flask.testing import FlaskClient

from .test_restore_jobs import upload

HOUSEHOLD = {
    "format": "scorekeeper-household",
    "version": 1,
    "household": {"name": "Smiths", "time_zone": "Mars/Olympus"},
    "players": ["Ann", "x" * 500],
}


def _restored(client: FlaskClient, language: str) -> str:
    raw = json.dumps(HOUSEHOLD).encode() + b"\n[1, 2]\nnot json\n"
    location = upload(client, raw)
    page = client.get(location, headers={"Accept-Language": language})
    assert page.status_code == 200
    return html.unescape(page.get_data(as_text=True))


def test_a_restore_reports_in_spanish(client: FlaskClient, app: Flask) -> None:
    page = _restored(client, "es")
    assert "1 jugador restaurado." in page
    assert "La zona horaria 'Mars/Olympus' no se conoce aquí: se dejó fuera." in page
    assert "está vacío o es demasiado largo." in page
    assert "Esta línea no es un documento de partida." in page
    assert "Esta línea no es JSON (Expecting value)." in page
    for english in ("restored", "left out", "This line is not", "too long"):
        assert english not in page


def test_the_same_report_reads_english_in_english(client: FlaskClient, app: Flask) -> None:
    page = _restored(client, "en")
    assert "1 player restored." in page
    assert "The time zone 'Mars/Olympus' is not known here: left out." in page
    assert "This line is not a game document." in page
