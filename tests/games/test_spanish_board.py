"""The board side of a game in Spanish (issue 41): the scoreboard in progress and finished (who
won, and the sentence saying why), the TV view, the result page and its card, the new-game form
and the upload page with their refusals. Each page asked for with ``Accept-Language: es-CL``
says what it says in Spanish, and none of the sentences the same page shows in English is left
in it (``english_left``); the English pages stay as they were (test_board.py, test_pages.py,
test_gamefile.py, test_contract_result.py and the others).
"""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Iterable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from PIL import Image, ImageDraw

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.games import card
from scorekeeper.games.card import draw_card, result_card
from scorekeeper.games.transfer import import_game
from scorekeeper.limits import NAME_LENGTH
from scorekeeper.words import words

from ..conftest import family_id
from ..helpers import save_round, start_game
from ..history import factory
from ..test_spanish_accounts import SPANISH, english_left
from .test_contract_result import ARTIFACTS
from .test_tally import NAMES, entry, everyone_holds, play, twelve_step_race

# What reads the same in both languages on these pages, besides the players' names: the
# games' own names, a count of jokers, the game file's format.
SAME = {"Total", "#", "12-Step Rummy", "Contract Rummy", "Russian Rummy", "4 jokers"}
SAME |= {"Ann, Ben, Cy, Dee", "Ann, Ben, Cy", "scorekeeper-game", "JSON"}


def _without_log(page: str) -> str:
    """The page without its change log: the log's lines are written by each write to the game
    and put into words by the log itself, not by the board."""
    return re.sub(r'<details class="log">.*?</details>', "", page, flags=re.S)


def _both(client: FlaskClient, path: str, english: str, same: Iterable[str] = ()) -> str:
    """The page at ``path`` in Spanish, after checking its English (``english`` in it): none of
    the English page's text is left in it but ``same`` and the names."""
    in_english = client.get(path)
    assert english in in_english.get_data(as_text=True), path
    in_spanish = client.get(path, headers=SPANISH)
    page = in_spanish.get_data(as_text=True)
    assert in_spanish.status_code == in_english.status_code == 200, path
    assert '<html lang="es">' in page, path
    left = english_left(
        _without_log(in_english.get_data(as_text=True)),
        _without_log(page),
        {*SAME, *NAMES, *same},
    )
    # A chart's last points ("Ann 25") are a name and a number in any language.
    left = [text for text in left if not re.fullmatch(r"\S+ [\d.,]+", text)]
    assert not left, (path, left)
    return page


def _shown(page: str) -> str:
    """The page's text as a person reads it, one space between words."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def _finished_tie(app: Flask) -> int:
    """A Contract Rummy game of seven rounds that Ann and Ben finish level on 25 points."""
    rounds = [("Ann", {"Ben": "5", "Cy": "K"})] * 3 + [("Ben", {"Ann": "5", "Cy": "K"})] * 3
    rounds.append(("Cy", {"Ann": "K", "Ben": "K"}))
    with app.app_context(), scope.household(family_id(app)):
        game_id = factory.play(["Ann", "Ben", "Cy"], rounds, rules="contract-rummy").id
        db.session.remove()
    return game_id


def test_the_board_in_progress_speaks_spanish(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", NAMES)
    before = _shown(_both(client, f"/games/{game_id}", "Before the first deal"))
    for spanish in (
        "Antes del primer reparto",
        "Mezcla 2 barajas con 4 jokers (108 cartas).",
        "Ann reparte la ronda 1: 13 cartas a cada uno.",
        "Anotar la ronda 1",
        "O empieza la ronda 1 con quién cerró:",
        "Posiciones",
        "Código QR para la mesa",
        "Vista para TV",
        "Tarjeta del resultado",
        "Descargar el archivo de la partida",
        "¿Borrar esta partida? Espera 30 días en la papelera, donde puedes recuperarla.",
        "contrato 1: dos tríos de 3",
    ):
        assert spanish in before, spanish
    save_round(client, game_id, "Ann", {"Ben": "K Q", "Cy": "5", "Dee": "10"}, made={"Ben"})
    after = _shown(_both(client, f"/games/{game_id}", "Undo round 1"))
    for spanish in (
        "sigue la ronda 2",
        "Ben reparte la ronda 2: 13 cartas a cada uno.",
        "Deshacer la ronda 1",
        "¿un error? hasta 10 minutos después de guardar",
        "1 de 12 cumplidos",
        "★ cerró · ✓ cumplió el contrato · toca el número de una ronda para corregirla.",
        "Rondas",
        "Gráficos",
        "Totales acumulados",
        "Carrera de contratos",
        "Puntos de cada jugador después de la ronda 1. Al final: Ann 0, Cy 5, Dee 10, Ben 20.",
        "Totales acumulados en una tabla",
        "Ordenados por contratos cumplidos (de más a menos) y luego por puntos (de menos a más).",
        "Historial de cambios (2)",
    ):
        assert spanish in after, spanish


def test_a_finished_board_says_who_won_and_why_in_spanish(app: Flask, client: FlaskClient) -> None:
    game_id = _finished_tie(app)
    english = _shown(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Ann and Ben share the win" in english
    assert "Ann and Ben both finished with 25 points, the lowest total, and share the win." in (
        english
    )
    page = _shown(_both(client, f"/games/{game_id}", "finished after round 7"))
    for spanish in (
        "terminada después de la ronda 7",
        "Ann y Ben comparten la victoria",
        "Ann y Ben terminaron con 25 puntos, el total más bajo, y comparten la victoria.",
        "ganó",
    ):
        assert spanish in page, spanish


def test_the_twelve_step_tie_breaks_read_spanish(app: Flask) -> None:
    """The sentences of a 12-Step ending where two made contract 12 in the same round: the
    lower total wins, or the two level share the win; the engine's English stays as it was."""
    won = play(
        "twelve-step",
        twelve_step_race(("Ben", "Ann", "Cy"), ["Ben", "Ann"], {"Ann": "K", "Cy": "5"}),
        names=("Ben", "Ann", "Cy"),
    )
    level = [
        entry(NAMES, out, everyone_holds(NAMES, "5", out), made={"Ann", "Ben"})
        for out in ["Ann", "Ben"] * 5 + ["Ann"]
    ]
    level.append(entry(NAMES, "Dee", {"Ann": "10", "Ben": "5", "Cy": "5"}, made={"Ann", "Ben"}))
    shared = play("twelve-step", level)
    assert str(won.why_won) == (
        "Ben and Ann both made contract 12 in round 12; Ben wins with 0 points to 65."
    )
    assert str(shared.why_won) == (
        "Ann and Ben both made contract 12 in round 12; Ann and Ben both have 35 points and "
        "share the win."
    )
    with app.test_request_context(headers=SPANISH):
        assert words(won.winner_words) == "Ben gana"
        assert words(won.why_won) == (
            "Ben y Ann cumplieron el contrato 12 en la ronda 12; Ben gana con 0 puntos contra 65."
        )
        assert words(shared.winner_words) == "Ann y Ben comparten la victoria"
        assert words(shared.why_won) == (
            "Ann y Ben cumplieron el contrato 12 en la ronda 12; Ann y Ben tienen 35 puntos y "
            "comparten la victoria."
        )
        assert words(shared.game_over).startswith("Esta partida terminó: Ann y Ben comparten")


def test_the_tv_view_speaks_spanish(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", NAMES)
    save_round(client, game_id, "Ann", {"Ben": "K Q", "Cy": "5", "Dee": "10"}, made={"Ben"})
    page = _shown(_both(client, f"/games/{game_id}/tv", "Back to the scoreboard"))
    for spanish in (
        "Vista para TV, partida",
        "Ronda 2: Ben reparte",
        "1 ronda jugada",
        "Por contratos cumplidos y luego por menos puntos",
        "contrato 2",
        "Volver al marcador",
    ):
        assert spanish in page, spanish
    finished = _shown(_both(client, f"/games/{_finished_tie(app)}/tv", "share the win"))
    assert "Ann y Ben comparten la victoria" in finished
    assert "7 rondas jugadas" in finished
    assert "Ann y Ben terminaron con 25 puntos, el total más bajo" in finished


def test_the_new_game_form_and_its_refusals_speak_spanish(app: Flask, client: FlaskClient) -> None:
    page = _shown(_both(client, "/games/new", "Players, in seating order"))
    for spanish in ("Nueva partida", "Jugadores, en el orden en que se sientan", "Reglas"):
        assert spanish in page, spanish
    assert "Marca quién reparte primero." in page and "Empezar la partida" in page
    form = {"rules": "no-such-rules", "start": "1", "first_dealer": "0"}
    form.update({"players-0": "Ann", "players-1": "B" * (NAME_LENGTH + 1)})
    english = client.post("/games/new", data=form)
    assert english.status_code == 422
    assert "Choose the rules you play." in english.get_data(as_text=True)
    refused = client.post("/games/new", data=form, headers=SPANISH)
    shown = _shown(refused.get_data(as_text=True))
    assert refused.status_code == 422
    assert "Elige las reglas con que juegan." in shown
    assert f"Un nombre tiene como máximo {NAME_LENGTH} letras." in shown
    left = english_left(english.get_data(as_text=True), refused.get_data(as_text=True), SAME)
    assert not [text for text in left if "B" * 20 not in text], left


def _upload(client: FlaskClient, document: Any, **kwargs: Any) -> Any:
    body = document if isinstance(document, bytes) else json.dumps(document).encode()
    data = {"file": (io.BytesIO(body), "game.json")}
    return client.post("/games/import", data=data, content_type="multipart/form-data", **kwargs)


def test_the_upload_page_and_a_refused_file_speak_spanish(app: Flask, client: FlaskClient) -> None:
    page = _shown(_both(client, "/games/import", "Upload a game"))
    assert "Subir una partida" in page and "se guarda como una partida nueva" in page
    document = factory.document(["Ann", "ann", "Ben"], [("Ann", {"Ben": "K"})])
    document.update({"started": "yesterday", "abandoned": "no"})
    english = _upload(client, document)
    assert english.status_code == 422
    spanish = _upload(client, document, headers=SPANISH)
    shown = _shown(spanish.get_data(as_text=True))
    assert spanish.status_code == 422
    for sentence in (
        "Este archivo se rechazó; no se guardó nada:",
        "ann aparece dos veces entre los jugadores (Ann y ann); los nombres deben ser distintos",
        "«started» ('yesterday') no es una hora en ISO 8601",
        "«abandoned» debe ser true o false.",
    ):
        assert sentence in shown, sentence
    left = english_left(english.get_data(as_text=True), spanish.get_data(as_text=True), SAME)
    assert not left, left
    stranger = factory.document(["Ann", "Ben"], [("Ann", {"Ben": "K"})])
    stranger["rounds"].append({"went_out": "Zed", "players": {}})
    round_refused = _shown(_upload(client, stranger, headers=SPANISH).get_data(as_text=True))
    assert "Ronda 2: «went_out» nombra a 'Zed', que no es jugador de esta partida." in round_refused
    not_json = _shown(_upload(client, b"{nope", headers=SPANISH).get_data(as_text=True))
    assert "Este archivo no es un documento JSON (no se puede leer en la línea 1, columna 2)." in (
        not_json
    )


def test_an_upload_held_already_and_one_stored_say_so_in_spanish(
    app: Flask, client: FlaskClient
) -> None:
    document = factory.document(["Ann", "Ben"], [("Ann", {"Ben": "K"})])
    document["uid"] = "a-game-of-ours-1"
    stored = _upload(client, document, headers=SPANISH, follow_redirects=True)
    assert "La partida se importó." in stored.get_data(as_text=True)
    again = _upload(client, document, headers=SPANISH, follow_redirects=True)
    assert re.search(r"Esta partida ya está aquí, como partida \d+; no se guardó nada.", again.text)


def test_the_result_page_and_card_speak_spanish(app: Flask, client: FlaskClient) -> None:
    game_id = _finished_tie(app)
    page = html.unescape(_both(client, f"/games/{game_id}/result", "Download the card"))
    for spanish in (
        "Ann y Ben comparten la victoria: Contract Rummy",
        "Ann 25; Ben 25; Cy 60. Contract Rummy",
        "7 rondas jugadas. Ann y Ben terminaron con 25 puntos",
        "Descargar la tarjeta",
        "Volver al marcador",
        "Compartir",
    ):
        assert spanish in page, spanish
    english_png = client.get(f"/games/{game_id}/card.png").data
    spanish_png = client.get(f"/games/{game_id}/card.png", headers=SPANISH).data
    assert Image.open(io.BytesIO(spanish_png)).size == (1200, 630)
    assert spanish_png != english_png


def test_the_card_draws_spanish_accents_and_its_words_fit(app: Flask) -> None:
    """Every letter of a Spanish card is drawn as itself (not the box of a letter the font
    lacks), and its lines fit the card without being cut short."""
    headline = "¿Quién ganó? Ñandú Álvarez"
    result = card.Result(
        title=headline,
        description="",
        headline=headline,
        subline="Contract Rummy (7 manos) · 27 nov 2026 · 7 rondas jugadas",
        totals=(("Ñandú Álvarez", 35, True), ("Íñigo Núñez", 35, True), ("Zoë", 70, False)),
        why="¡Ñandú e Íñigo terminaron con 35 puntos, el total más bajo, y comparten la victoria!",
    )

    def drawn(letter: str) -> bytes:
        image = Image.new("L", (60, 60))
        ImageDraw.Draw(image).text((5, 5), letter, font=card.font(40), fill=255)
        return image.tobytes()

    lacking = drawn("\u4e00")  # a letter the card's font has not: drawn as a box
    for letter in sorted(set("".join((headline, result.subline, result.why or ""))) - {" "}):
        assert drawn(letter) != lacking, letter
    png = draw_card(result)
    assert Image.open(io.BytesIO(png)).size == (1200, 630)
    draw = ImageDraw.Draw(Image.new("RGB", (card.WIDTH, card.HEIGHT)))
    inner = card.WIDTH - 2 * card.MARGIN
    assert card.fit(draw, headline, 72, inner) == (headline, 72)
    assert card.fit(draw, result.subline, 34, inner)[0] == result.subline
    assert "…" not in "".join(card.lines_of(draw, result.why or "", 24, inner, 3))
    game_id = _finished_tie(app)
    with app.test_request_context(headers=SPANISH), scope.household(family_id(app)):
        words_now, spanish = result_card(game_id, with_png=True)
        db.session.remove()
    assert words_now.headline == "Ann y Ben comparten la victoria"
    assert spanish is not None and Image.open(io.BytesIO(spanish)).size == (1200, 630)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "result-card-spanish.png").write_bytes(draw_card(result))


def test_numbers_on_the_board_are_written_as_spanish_writes_them(
    app: Flask, client: FlaskClient
) -> None:
    """A total past a thousand (typed at the table, 250 a round): 1.250 in Spanish, 1,250 in
    English."""
    document = factory.document(["Ann", "Ben"], [("Ann", {})] * 5)
    for played in document["rounds"]:
        played["players"]["Ben"] = {"made_contract": False, "cards": None, "points": 250}
    with app.app_context(), scope.household(family_id(app)):
        game_id = import_game(document).id
        db.session.remove()
    assert ">1,250<" in client.get(f"/games/{game_id}").get_data(as_text=True)
    spanish = client.get(f"/games/{game_id}", headers=SPANISH).get_data(as_text=True)
    assert ">1.250<" in spanish
