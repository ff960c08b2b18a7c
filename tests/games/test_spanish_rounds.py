"""Issue 41: the round-entry side of a game in Spanish, for a browser that asks for it
(``Accept-Language: es-CL``): the round form and its refusals at their fields, a went-out
clash between two phones, the own-hand page, the close page, the seat picker, the change log
(kept as messages, read in the reader's language) and the words static/js/app.js shows; the
same pages still in English for a browser that asks for English."""

from __future__ import annotations

import html
import json
import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.games import changelog
from scorekeeper.models import GameEvent

from ..conftest import family_id
from ..helpers import round_form, save_round, start_game
from .test_drafts import hand_post, table_phone
from .test_merged_corrections import fields

FOUR = ("Ann", "Ben", "Cy", "Dee")
SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es-CL,es;q=0.9"}


def spanish(client: FlaskClient) -> FlaskClient:
    """``client`` asking for Spanish from now on, as a phone set to Spanish does."""
    client.environ_base.update(SPANISH)
    return client


def words(response: object) -> str:
    """What a person reads of the page: its text, tags and entities gone, spaces folded."""
    page = response.get_data(as_text=True)  # type: ignore[attr-defined]
    page = re.sub(r"<script[^>]*>.*?</script>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


def at_field(response: object, field: str) -> list[str]:
    """The messages shown at one field of the round form (``cards-2``, ``went-out``)."""
    page = response.get_data(as_text=True)  # type: ignore[attr-defined]
    found = re.findall(rf'<p class="field-error"[^>]*id="{field}-error">(.*?)</p>', page, re.S)
    return [html.unescape(message) for message in found]


def script_words(response: object) -> dict[str, str]:
    page = response.get_data(as_text=True)  # type: ignore[attr-defined]
    found = re.search(r'<script type="application/json" id="script-words">(.*?)</script>', page)
    assert found is not None, "no words for the script on the page"
    words: dict[str, str] = json.loads(found.group(1))
    return words


def test_the_round_form_speaks_spanish_and_says_each_refusal_at_its_field(
    client: FlaskClient,
) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    spanish(client)
    page = client.get(f"/games/{game_id}/rounds/new")
    assert '<html lang="es"' in page.get_data(as_text=True)
    said = words(page)
    for expected in (
        "Ronda 1",
        "Ann repartió 13 cartas",
        "¿Quién cerró?",
        "Cartas que quedan",
        "Anotar totales",
        "Guardar ronda 1",
        "← Marcador",
    ):
        assert expected in said, expected
    for english in ("Who went out", "Cards left", "Save round", "Type totals", "dealt"):
        assert english not in said, english

    # Five jokers where two packs hold four: said at Cy's cards as they are typed...
    typed = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK JK JK JK JK", "Dee": "5"})
    preview = client.post(
        f"/games/{game_id}/rounds/new",
        data=typed | {"preview": "2", "redraw": "1"},
        headers={"HX-Request": "true"},
    )
    assert "5 × Joker, pero estas barajas tienen solo 4 jokers." in words(preview)
    # ... and at Save, where nothing is stored and the typing stays.
    refused = save_round(client, game_id, "Ann", {"Ben": "7", "Cy": "JK JK JK JK JK"}, expect=422)
    said = words(refused)
    assert "No se guardó nada: hay 2 cosas que corregir." in said
    assert at_field(refused, "cards-2") == [
        "Ronda 1, Cy: 5 × Joker, pero estas barajas tienen solo 4 jokers."
    ]
    # Dee did not go out and holds nothing: the form asks for her cards.
    assert at_field(refused, "cards-3") == [
        "Ronda 1: Dee no cerró, así que Dee tiene cartas; anota las cartas que le quedan a Dee."
    ]
    assert "Round 1" not in said and "went out" not in said
    assert 'value="JK JK JK JK JK"' in refused.get_data(as_text=True)

    # Nobody said who went out.
    unsaid = client.post(f"/games/{game_id}/rounds/new", data={"hands-1-cards": "7", "save": "1"})
    assert unsaid.status_code == 422
    assert at_field(unsaid, "went-out") == ["Ronda 1: di quién cerró."]
    # A typed total that is no number.
    total = client.post(
        f"/games/{game_id}/rounds/new",
        data=round_form(FOUR, "Ann", {"Ben": "7", "Cy": "5", "Dee": "5"})
        | {"hands-1-total": "mucho", "save": "1"},
    )
    assert total.status_code == 422
    assert at_field(total, "total-1") == [
        "Ronda 1, Ben: un total es un número entero de 0 a 9999 (anotado: mucho)."
    ]


def test_a_went_out_clash_between_two_phones_is_asked_in_spanish(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "7", "Cy": "JK 5 5", "Dee": "A 10 3"})
    spanish(client)
    address = f"/games/{game_id}/rounds/1/edit"
    phone_b = fields(client.get(address).get_data(as_text=True))
    phone_d = fields(client.get(address).get_data(as_text=True))
    b_typed = round_form(FOUR, "Ben", {"Ann": "9", "Cy": "JK 5 5", "Dee": "A 10 3"})
    assert client.post(address, data=b_typed | phone_b | {"save": "1"}).status_code == 302
    d_typed = round_form(FOUR, "Cy", {"Ann": "9", "Ben": "7", "Dee": "A 10 3"})
    clash = client.post(address, data=d_typed | phone_d | {"save": "1"})
    assert clash.status_code == 409
    said = words(clash)
    assert "Corregir ronda 1" in said
    assert "Esta ronda se cambió en otro teléfono mientras tanto; no se guardó nada." in said
    assert "La ronda 1 ahora dice: Ben cerró; Ann 9, Cy JK 5 5, Dee A 10 3." in said
    assert "Quién cerró: ¿cuál es la correcta?" in said
    assert "Guardado ahora Ben cerró" in said and "Lo tuyo Cy cerró" in said
    assert "Volver a aplicar lo mío" in said
    # Saved again without choosing: asked again, in Spanish.
    unchosen = client.post(
        address, data=d_typed | fields(clash.get_data(as_text=True)) | {"save": "1"}
    )
    assert unchosen.status_code == 409
    assert "Elige para quién cerró: lo guardado ahora, o lo tuyo. No se guardó nada." in words(
        unchosen
    )


def test_the_own_hand_page_the_close_page_and_the_seat_picker_speak_spanish(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    phones = [spanish(table_phone(app, game_id, seat)) for seat in range(3)]
    spanish(client)

    picker = words(phones[0].get(f"/games/{game_id}/seat"))
    assert "¿Quién tiene este teléfono?" in picker and "Soy Ben" in picker
    assert "Ben: en otro teléfono" in picker
    asked = phones[0].post(f"/games/{game_id}/seat", data={"seat": "1"})
    assert "El puesto de Ben está en otro teléfono. ¿Quieres tomarlo?" in words(asked)
    assert "Sí, este teléfono es de Ben" in words(asked)

    waiting = words(phones[1].get(f"/games/{game_id}/hand"))
    assert "Mano de Ben" in waiting and "Cerré" in waiting
    assert "Jugando. Cuando alguien cierre, este teléfono te pedirá las cartas que te quedan." in (
        waiting
    )
    hand_post(phones[0], game_id, 0, went_out="1")
    counting = phones[1].get(f"/games/{game_id}/hand")
    said = words(counting)
    assert "Ann cerró. Toca las cartas que te quedan y luego si cumpliste o no." in said
    assert "Las cartas que te quedan" in said and "Cumplido ✓" in said and "No cumplido ✗" in said
    assert "Contando: Ben, Cy, Dee." in said
    assert 'aria-label="Agregar un joker"' in counting.get_data(as_text=True)
    # Six jokers on Ben's phone: refused at his cards, in Spanish, the typing kept.
    status, page = hand_post(phones[1], game_id, 1, cards="JK JK JK JK JK", done="not")
    assert status == 422
    assert "5 × Joker, pero estas barajas tienen solo 4 jokers." in html.unescape(page)
    status, page = hand_post(phones[1], game_id, 1, cards="K Q", done="made")
    said = words(phones[1].get(f"/games/{game_id}/hand"))
    assert "Tu mano está anotada: K Q = 20 puntos, contrato cumplido ✓." in said
    assert "Cambiar mi mano" in said and "Terminar la ronda 1…" in said

    close = client.get(f"/games/{game_id}/close")
    said = words(close)
    for expected in (
        "Terminar la ronda 1",
        "Todavía cuentan sus cartas: Cy, Dee.",
        "Cartas que le quedan a Cy (aún contando)",
        "K Q = 20 puntos, contrato cumplido ✓",
        "Cambiar",
    ):
        assert expected in said, expected
    refused = client.post(
        f"/games/{game_id}/close", data={"number": "1", "close": "1", "cards-3": "K Z"}
    )
    assert refused.status_code == 422
    assert "'Z' no es una carta" in words(refused)
    closed = client.post(
        f"/games/{game_id}/close",
        data={"number": "1", "close": "1", "cards-2": "5", "cards-3": "A"},
    )
    assert closed.status_code == 303
    assert "Ronda 1 guardada." in words(client.get(f"/games/{game_id}"))
    after = words(phones[1].get(f"/games/{game_id}/hand"))
    assert "Ronda 1: Ann cerró; Ben 20 (cumplió el contrato), Cy 5, Dee 20." in after


def test_the_change_log_is_kept_as_messages_and_read_in_each_readers_language(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "7", "Cy": "JK 5 5", "Dee": "A 10 3"}, ["Ben"])
    address = f"/games/{game_id}/rounds/1/edit"
    form = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK 5", "Dee": "A 10 3"}, ["Ben"])
    opened = fields(client.get(address).get_data(as_text=True))
    assert client.post(address, data=form | opened | {"save": "1"}).status_code == 302
    # A line written before the log kept messages: shown as it was written.
    with app.app_context(), scope.household(family_id(app)):
        db.session.add(GameEvent(game_id=game_id, text="Round 1 saved: an old line."))
        db.session.commit()
        stored = [
            event.text
            for event in db.session.query(GameEvent)
            .filter_by(game_id=game_id)
            .order_by(GameEvent.id)
        ]
        db.session.remove()
    spanish(client)
    board = words(client.get(f"/games/{game_id}"))
    assert "Partida empezada: 12-Step Rummy; Ann, Ben, Cy y Dee; Ann reparte primero." in board
    assert "Ronda 1 guardada: Ann cerró; Ben 5 (cumplió el contrato), Cy 60, Dee 35." in board
    assert "Ronda 1 corregida: cartas de Cy JK 5 5 → JK 5 (60 → 55 puntos)." in board
    assert "Round 1 saved: an old line." in board
    # The same lines, read on an English page.
    with app.test_request_context(headers={"Accept-Language": "en-GB"}):
        assert [changelog.line(text) for text in stored] == [
            "Game started: 12-Step Rummy; Ann, Ben, Cy and Dee; Ann deals first.",
            "Round 1 saved: Ann went out; Ben 5 (made contract), Cy 60, Dee 35.",
            "Round 1 corrected: Cy's cards JK 5 5 → JK 5 (60 → 55 points).",
            "Round 1 saved: an old line.",
        ]


def test_the_words_the_script_shows_come_from_the_page_in_its_language(
    client: FlaskClient,
) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    english = script_words(client.get(f"/games/{game_id}/rounds/new"))
    assert english["roundQueued"] == "Saved on this phone; will send when the signal returns."
    assert english["keptMade"] == (
        "Your hand: {cards}, contract made ✓. It is sent when the signal returns."
    )
    spanish(client)
    words_es = script_words(client.get(f"/games/{game_id}/rounds/new"))
    assert set(words_es) == set(english)
    assert (
        words_es["roundQueued"] == "Guardada en este teléfono; se enviará cuando vuelva la señal."
    )
    assert words_es["handRefused"] == (
        "Una mano anotada sin señal no se pudo aceptar tal como estaba: {link}"
    )
    assert all(words_es[key] != english[key] for key in english)
