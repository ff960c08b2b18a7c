"""Issue 52, item 4: the second reading of the tour in Spanish, as a Chilean, a Mexican and a
Spanish family read it. What it found that reads as translated (a calque, English word
order, a word one country alone uses, a noun's gender lost in a term's change) is pinned here
where a page shows it, and the glossary's rules that now name every other message saying it
are checked to catch the words found."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Message
from flask.testing import FlaskClient

from scorekeeper import catalogues

from .helpers import save_round, start_game

FAMILIES = ("es-CL", "es-MX", "es-ES")


def _text(client: FlaskClient, url: str, language: str) -> str:
    page = client.get(url, headers={"Accept-Language": language}).get_data(as_text=True)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


@pytest.mark.parametrize("language", FAMILIES)
def test_the_tour_reads_as_written_in_spanish(client: FlaskClient, language: str) -> None:
    game_id = start_game(client, "twelve-step", ["Ana", "Beto", "Coco"])
    save_round(client, game_id, "Ana", {"Beto": "5", "Coco": "K"}, {"Ana"})
    board = _text(client, f"/games/{game_id}", language)
    # "(most first)": English word order.
    assert "(de más a menos)" in board and "(de menos a más)" in board
    assert "más primero" not in board
    phase_10 = start_game(client, "phase-10", ["Ana", "Beto", "Coco"])
    board = _text(client, f"/games/{phase_10}", language)
    assert "Ordenados por fases cumplidas (de más a menos) y luego por puntos" in board
    assert "primero)" not in board
    referee = _text(client, "/referee?rules=contract-rummy&cards=4H+5H+6H+7H", language)
    # A ruling is el fallo: "esta fallo" kept decisión's gender.
    assert "Enlace a este fallo" in referee and not re.search(r"\b(la|esta) fallo\b", referee)
    household = _text(client, "/household", language)
    # "Ahora son las 7 dic 21:45": son las names an hour, never a day.
    assert "Hora actual en UTC:" in household and "Ahora son las" not in household
    members = _text(client, "/members", language)
    assert "Contraseñas incorrectas escritas últimamente" in members
    assert "Ninguna últimamente." in members
    account = _text(client, "/account", language)
    # No comma before y where English has one before "and".
    assert "y administrador del servidor." in account and ", y administrador" not in account
    players = _text(client, "/players", language)
    # "Abre un jugador": a player is not opened.
    assert "Toca un jugador para ver sus estadísticas" in players
    manifest = client.get("/manifest.webmanifest", headers={"Accept-Language": language}).json
    assert manifest is not None
    # Puntaje is Chile's and Mexico's word, puntuación Spain's: the app says puntos.
    assert manifest["short_name"] == "Puntos"
    assert "untaje" not in manifest["description"]


@pytest.mark.parametrize(
    ("english", "spanish"),
    [
        ("Link to this ruling", "Enlace a esta fallo"),
        ("Their scores do not change.", "Su puntaje no cambia."),
        ("Their scores do not change.", "Su puntuación no cambia."),
        ("Ratings are kept to yourselves now.", "Los niveles quedan entre ustedes."),
        ("Ratings are kept to yourselves now.", "Los niveles quedan entre vosotros."),
    ],
)
def test_the_glossary_names_what_the_reading_found(english: str, spanish: str) -> None:
    words = catalogues.glossary("es")
    assert words is not None
    found = list(catalogues.word_problems(Message(english, spanish), words))
    assert any(problem.startswith("ruled out") for problem in found), found
