"""The pages around the game in Spanish (issue 41): the layout and its menu, the home page, sign
in, setup, the account, members, invitations, households, the household's settings, a game's
links, following another household's link, the bin, and every error page. Each page asked for
with ``Accept-Language: es-CL`` says what it says in Spanish, its form refusals too (the app's
own messages, zxcvbn's advice and WTForms' built-in ones), and none of the sentences the same
page shows in English is left in it.

The same pages without the header stay English (``english_left`` reads both, and the tests of
each page in English: test_sign_in.py, test_access.py, test_bin.py and the others).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.exc import OperationalError

from scorekeeper import create_app, scope
from scorekeeper.accounts import links
from scorekeeper.bin import services as bin_services
from scorekeeper.extensions import db
from scorekeeper.local_time import _zone_choices, zone_names
from scorekeeper.models import Game, LinkKind

from . import conftest
from .conftest import PASSWORD, add_member, family_id, signed_in
from .helpers import start_game

SPANISH = {"Accept-Language": "es-CL"}
# What reads the same in both languages: the app's name, and what the tests name.
# Each language is named in its own words on the language forms.
SAME_IN_BOTH = {
    "♠ Scorekeeper",
    "Scorekeeper",
    "Family",
    "owner",
    "Ann, Ben",
    "12-Step Rummy",
    "English",
    "Español",
}
# Where a person reads words besides the text: what a screen reader says, hints on hover.
READ_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")


class _Words(HTMLParser):
    """Every piece of text a person reads on a page, one per text node or attribute."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.extend(value for name, value in attrs if name in READ_ATTRIBUTES and value)

    def handle_data(self, data: str) -> None:
        self.found.append(data)


def words_of(html: str) -> list[str]:
    parser = _Words()
    parser.feed(html)
    tidy = (" ".join(text.split()) for text in parser.found)
    return [text for text in tidy if re.search(r"[A-Za-z]", text)]


def english_left(english: str, spanish: str, same: Iterable[str] = ()) -> list[str]:
    """The pieces of the English page found in the Spanish one: a whole piece of text, or a
    sentence of three words or more inside one."""
    allowed = SAME_IN_BOTH | set(same)
    in_spanish = words_of(spanish)
    whole, joined = set(in_spanish), " | ".join(in_spanish)
    return [
        text
        for text in words_of(english)
        if text not in allowed
        and (text in whole or (len(re.findall(r"[A-Za-z]+", text)) >= 3 and text in joined))
    ]


def both(
    client: FlaskClient, path: str, english: str, same: Iterable[str] = (), **kwargs: Any
) -> str:
    """The page at ``path`` in Spanish, after checking its English (``english`` in it); of
    its text only ``same`` (names, addresses, commands) may be as the English page has it."""
    in_english = client.get(path, **kwargs)
    assert english in in_english.get_data(as_text=True), path
    in_spanish = client.get(path, headers=SPANISH, **kwargs)
    page = in_spanish.get_data(as_text=True)
    assert in_spanish.status_code == in_english.status_code, path
    assert '<html lang="es">' in page, path
    left = english_left(in_english.get_data(as_text=True), page, same)
    assert not left, (path, left)
    return page


@pytest.fixture
def fresh(database_uri: str, instance_path: Path) -> Flask:
    """A server with no account yet."""
    settings = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_uri}
    return create_app({**settings, "WTF_CSRF_ENABLED": False, **conftest.FAST_PASSWORDS})


# --- before anyone is known ----------------------------------------------------------------------


def test_setup_speaks_spanish_with_its_refusals_and_the_password_advice(fresh: Flask) -> None:
    client = fresh.test_client()
    away = {"REMOTE_ADDR": "192.0.2.7"}  # asked for the setup code
    page = both(client, "/setup", "Welcome to Scorekeeper", environ_base=away)
    for spanish in (
        "Te damos la bienvenida a Scorekeeper",
        "Código de configuración",
        "Crear mi familia",
    ):
        assert spanish in page
    empty = client.post("/setup", data={}, headers=SPANISH, environ_base=away)
    text = empty.get_data(as_text=True)
    assert empty.status_code == 422
    for spanish in ("Ponle nombre a tu familia.", "Elige un nombre de usuario.", "Elige una"):
        assert spanish in text
    assert "Choose" not in text and "Name your" not in text
    # zxcvbn's own advice is English: it reaches the page in Spanish, every sentence of it.
    weak = {"household": "Quenby", "username": "ann", "password": "password"}
    weak["confirm"] = weak["password"]
    refused = client.post("/setup", data=weak, headers=SPANISH).get_data(as_text=True)
    for spanish in (
        "Esa contraseña sería fácil de adivinar.",
        "Es una de las 10 contraseñas más comunes.",
        "Agrega una o dos palabras más.",
    ):
        assert spanish in refused
    assert "easy to guess" not in refused and "common password" not in refused
    english = client.post("/setup", data=weak).get_data(as_text=True)
    assert "This is a top-10 common password. Add another word or two." in english
    made = client.post(
        "/setup",
        data={**weak, "password": PASSWORD, "confirm": PASSWORD},
        headers=SPANISH,
        follow_redirects=True,
    )
    assert "Te damos la bienvenida, ann. Todo listo para Quenby." in made.get_data(as_text=True)


def test_sign_in_speaks_spanish_with_its_refusals(app: Flask) -> None:
    add_member(app, "ann")
    client = app.test_client()
    page = both(client, "/login", "Forgot your password?")
    for spanish in ("Entrar", "¿Olvidaste tu contraseña?", "TU_NOMBRE", "Nombre de usuario"):
        assert spanish in page
    empty = client.post("/login", data={}, headers=SPANISH).get_data(as_text=True)
    assert "Escribe tu nombre de usuario." in empty and "Escribe tu contraseña." in empty
    wrong = client.post("/login", data={"username": "ann", "password": "x" * 8}, headers=SPANISH)
    assert wrong.status_code == 401
    assert "no corresponden a ninguna cuenta" in wrong.get_data(as_text=True)
    for _ in range(9):
        client.post("/login", data={"username": "ann", "password": "x" * 8})
    held = client.post("/login", data={"username": "ann", "password": PASSWORD}, headers=SPANISH)
    text = held.get_data(as_text=True)
    assert held.status_code == 429
    assert "Se probaron demasiadas contraseñas equivocadas para esta cuenta" in text
    assert re.search(r"espera (un minuto|\d+ minutos) e inténtalo de nuevo", text)
    assert "Too many" not in text


# --- a member's pages ---------------------------------------------------------------------------


def test_the_menu_and_the_home_page_speak_spanish(client: FlaskClient) -> None:
    start_game(client, "twelve-step", ["Ann", "Ben"])
    page = both(client, "/", "Games in progress")
    for spanish in (
        "Saltar al contenido",
        "Menú",
        'aria-label="Principal"',
        ">Nueva partida<",
        ">Árbitro<",
        ">Historial<",
        ">Jugadores<",
        ">Reglas<",
        ">Miembros<",
        ">Papelera<",
        "Partidas en curso",
        "ronda 1 · empezada el",
    ):
        assert spanish in page, spanish
    # The words static/sw.js shows offline come from the page, in its language.
    assert 'data-offline-board="Sin conexión, actualizado por última vez a las {time}."' in page
    assert 'data-offline-round="Sin conexión: una ronda guardada ahora' in page
    manifest = client.get("/manifest.webmanifest", headers=SPANISH).get_json()
    assert manifest["lang"] == "es" and manifest["short_name"] == "Puntos"


def test_a_visitor_is_offered_sign_in_in_spanish(app: Flask) -> None:
    add_member(app, "ann")
    page = app.test_client().get("/rules", headers=SPANISH).get_data(as_text=True)
    assert ">Entrar</a>" in page and "Sign in" not in page


def test_the_account_page_speaks_spanish_with_its_refusals(client: FlaskClient) -> None:
    page = both(client, "/account", "Change your password")
    for spanish in ("Dueño de Family y administrador del servidor.", "Cambia tu contraseña"):
        assert spanish in page
    assert "Tu contraseña actual" in page and "Salir" in page
    refused = client.post("/account", data={"current": ""}, headers=SPANISH)
    text = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert "Escribe tu contraseña actual." in text and "Elige una contraseña." in text
    short = client.post(
        "/account",
        data={"current": PASSWORD, "password": "short", "confirm": "shirt"},
        headers=SPANISH,
    ).get_data(as_text=True)
    assert "Una contraseña tiene al menos 8 caracteres (y como máximo 256)." in short
    assert "Las dos no coinciden." in short
    new = "a rather quiet evening of cards"
    changed = client.post(
        "/account",
        data={"current": PASSWORD, "password": new, "confirm": new},
        headers=SPANISH,
        follow_redirects=True,
    )
    assert "Tu contraseña cambió; tus otras sesiones se cerraron." in changed.get_data(as_text=True)


def test_the_members_page_speaks_spanish_with_its_refusals(app: Flask, client: FlaskClient) -> None:
    add_member(app, "bea", "viewer")
    app.test_client().post("/login", data={"username": "bea", "password": "x" * 8})
    invited = client.post("/members/invite", data={"role": "scorer"}, headers=SPANISH)
    assert "Envía este enlace a la persona que invitas (como anotador):" in invited.get_data(
        as_text=True
    )
    page = both(client, "/members", "Refused sign-ins", same={"bea"})
    for spanish in (
        "Invitar a alguien",
        "Invitaciones abiertas",
        "Entradas rechazadas",
        ">espectador<",
        ">Espectador<",
        "Dueño: todo, también miembros y copias de seguridad",
        "un dispositivo nuevo",
        "Quitar a bea",
    ):
        assert spanish in page, spanish
    empty = client.post("/members", data={"role": "scorer"}, headers=SPANISH)
    assert empty.status_code == 422
    assert "Elige un nombre de usuario." in empty.get_data(as_text=True)
    # WTForms' own message, through Flask-WTF's translations.
    odd = client.post("/members", data={"username": "cy", "role": "king"}, headers=SPANISH)
    assert "Opción inválida." in odd.get_data(as_text=True)
    assert "Not a valid choice" in client.post("/members", data={"role": "king"}).get_data(
        as_text=True
    )
    added = client.post(
        "/members",
        data={"username": "cy", "role": "scorer", "password": PASSWORD},
        headers=SPANISH,
        follow_redirects=True,
    )
    assert "cy ya puede entrar, como anotador." in added.get_data(as_text=True)


def test_an_invitation_speaks_spanish(app: Flask, client: FlaskClient) -> None:
    answer = client.post("/members/invite", data={"role": "viewer"}).get_data(as_text=True)
    found = re.search(r'value="http://localhost(/invite/[^"]+)"', answer)
    assert found
    stranger = app.test_client()
    page = both(stranger, found.group(1), "Choose your username and password.")
    assert "Unirte a Family" in page and "Te invitan como espectador." in page
    empty = stranger.post(found.group(1), data={}, headers=SPANISH).get_data(as_text=True)
    assert "Elige un nombre de usuario." in empty and "Escribe la contraseña otra vez." in empty


def test_the_households_and_settings_pages_speak_spanish(client: FlaskClient) -> None:
    page = both(client, "/households", "Add a household")
    assert "Familias de este servidor" in page and "Agregar familia" in page
    empty = client.post("/households", data={}, headers=SPANISH).get_data(as_text=True)
    assert "Ponle nombre a la familia." in empty
    taken = client.post(
        "/households",
        data={"name": "Family", "username": "zed", "password": PASSWORD, "confirm": PASSWORD},
        headers=SPANISH,
    ).get_data(as_text=True)
    assert "Ya hay una familia llamada Family." in taken
    in_english = client.get("/household").get_data(as_text=True)
    settings = client.get("/household", headers=SPANISH).get_data(as_text=True)
    # Zones are offered by their places, as Babel names them in each language: a place both
    # languages write alike (Albania, Andorra) is no English left.
    zones = {name.replace("_", " ") for name in zone_names()} | {
        place for _zone, place in _zone_choices("en")
    }
    assert not english_left(in_english, settings, zones)
    for spanish in ("Ajustes de la familia", "Zona horaria", "Guardar la zona horaria"):
        assert spanish in settings
    odd = client.post("/household", data={"time_zone": "<b>Mars</b>"}, headers=SPANISH)
    # What was typed is quoted as text, in whichever language.
    assert "«&lt;b&gt;Mars&lt;/b&gt;» no es una zona horaria" in odd.get_data(as_text=True)
    saved = client.post(
        "/household", data={"time_zone": "America/Santiago"}, headers=SPANISH, follow_redirects=True
    )
    assert "Las horas se muestran ahora en America/Santiago." in saved.get_data(as_text=True)


def test_a_games_links_speak_spanish(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    page = both(client, f"/games/{game_id}/links", "Let the table score")
    assert "Aún no hay enlaces" in page and "Nuevo enlace para mirar" in page
    client.post(f"/games/{game_id}/links", data={"kind": "table"})
    commands = re.findall(r"<code>([^<]*)</code>", client.get(f"/games/{game_id}/links").text)
    addresses = re.findall(r'value="(http[^"]+)"', client.get(f"/games/{game_id}/links").text)
    page = both(client, f"/games/{game_id}/links", "Revoke this link", {*commands, *addresses})
    for spanish in (
        "<strong>enlace de mesa</strong> permite a un teléfono",
        ">Enlace de mesa<",
        'aria-label="Dirección del enlace de mesa"',
        "Revocar este enlace",
        "Ningún teléfono puede abrir estos enlaces todavía.",
    ):
        assert spanish in page, spanish
    refused = client.post(f"/games/{game_id}/links", data={"kind": "x"}, headers=SPANISH)
    assert "Elige un enlace de mesa o un enlace para mirar." in refused.get_data(as_text=True)
    with app.test_request_context(), scope.household(family_id(app)):
        _, token = links.make_link(LinkKind.WATCH, "ann", game=db.session.get(Game, game_id))
        db.session.remove()
    other = signed_in(app, "zed", household="Others")
    page = both(other, f"/w/{token}", "Sign out and follow the link", same={"zed"})
    assert "Este enlace para mirar abre una partida de otra familia." in page
    assert "este navegador sale de tu cuenta, zed" in page


def test_the_bin_speaks_spanish(client: FlaskClient) -> None:
    assert "La papelera está vacía." in client.get("/bin", headers=SPANISH).get_data(as_text=True)
    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    client.post(f"/games/{game_id}/delete")
    game = client.get("/bin").text.split('<div class="past-game-head">')[1].split("<")[0]
    page = both(client, "/bin", "Bring back", same={game})
    for spanish in ("esperan aquí 30 días", "Recuperar", "Vaciar la papelera", "por owner"):
        assert spanish in page, spanish
    back = client.post(f"/bin/games/{game_id}/restore", headers=SPANISH)
    assert back.status_code == 303
    shown = client.get(back.headers["Location"], headers=SPANISH).get_data(as_text=True)
    assert "La partida volvió, con todas sus rondas." in shown
    client.post(f"/games/{game_id}/delete")
    emptied = client.post("/bin/empty", headers=SPANISH, follow_redirects=True)
    assert "La papelera está vacía: 1 cosa borrada para siempre." in emptied.get_data(as_text=True)


# --- every error page ----------------------------------------------------------------------------


def _error(answer: Any, status: int, spanish: str) -> None:
    text = answer.get_data(as_text=True)
    assert answer.status_code == status, text[:500]
    assert spanish in text and "Volver al inicio" in text, text[:2000]
    assert "Back to the start" not in text


def test_every_error_page_speaks_spanish(app: Flask, client: FlaskClient) -> None:
    _error(client.get("/nowhere", headers=SPANISH), 404, "No hay nada en esta dirección.")
    _error(client.get("/logout", headers=SPANISH), 405, "Esta página no se puede usar así.")
    _error(client.get("/", headers={**SPANISH, "Host": "evil.example"}), 400, "No se pudo entender")
    viewer = signed_in(app, "val", "viewer")
    refused = viewer.get("/members", headers=SPANISH)
    _error(refused, 403, "Tu rol (espectador) no permite esto; no se cambió nada.")
    assert "Un espectador puede mirar" in refused.get_data(as_text=True)
    htmx = app.test_client().get("/history", headers={**SPANISH, "HX-Request": "true"})
    assert htmx.status_code == 401
    assert "Primero entra con tu cuenta" in htmx.get_data(as_text=True)
    app.config["MAX_CONTENT_LENGTH"] = 1024
    big = client.post("/members", data={"username": "x" * 5000}, headers=SPANISH)
    _error(big, 413, "Es demasiado grande: esta página acepta como máximo")
    app.config["WTF_CSRF_ENABLED"] = True
    _error(client.post("/bin/empty", headers=SPANISH), 400, "Este formulario venció")
    app.config["WTF_CSRF_ENABLED"] = False


def test_a_failing_server_says_so_in_spanish(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def busy() -> None:
        raise OperationalError("SELECT", {}, Exception("database is locked"))

    monkeypatch.setattr(bin_services, "contents", busy)
    _error(client.get("/bin", headers=SPANISH), 503, "La base de datos no pudo responder ahora")

    def broken() -> None:
        raise RuntimeError("a fault of ours")

    monkeypatch.setattr(bin_services, "contents", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    _error(client.get("/bin", headers=SPANISH), 500, "Algo salió mal de nuestro lado.")
