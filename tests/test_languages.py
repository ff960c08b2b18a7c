"""Which language a page speaks (``shared/spec/languages.md``): a member's own choice, then the
browser's, then the household's, then English; that choice kept apart in everything kept
between requests (drawn boards, pages and their ETags, the fast lane's answers, result cards,
the rounds CSV); numbers and dates written by Babel in it; WTForms' own messages in it; and the
catalogues read once per process, never per request."""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from babel.support import Translations
from flask import Flask, request_started
from flask.testing import FlaskClient
from sqlalchemy import select, update
from werkzeug.test import TestResponse

from scorekeeper import languages, local_time, scope
from scorekeeper.accounts import links
from scorekeeper.extensions import db
from scorekeeper.games.transfer import import_game
from scorekeeper.models import Game, Household, LinkKind, User

from .conftest import HOUSEHOLD, family_id, sign_in, signed_in
from .helpers import game_document, save_round, twelve_step_to_the_end

SPANISH = {"Accept-Language": "es-CL,es;q=0.9"}
ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}
HTMX = {"HX-Request": "true"}
# Christmas Eve: "24 Dec 2025" in English, "24 dic 2025" in Spanish (the tests run in UTC).
EVE = datetime(2025, 12, 24, 19, 30, tzinfo=UTC)


def lang(answer: TestResponse) -> str:
    found = re.search(r'<html lang="([^"]*)"', answer.get_data(as_text=True))
    assert found, answer.get_data(as_text=True)[:500]
    return found.group(1)


def eve_game(app: Flask, finished: bool = False) -> int:
    """A game of the family's started on Christmas Eve (finished, or two rounds in)."""
    rounds = twelve_step_to_the_end() if finished else twelve_step_to_the_end()[:2]
    document = game_document("twelve-step", ["Ann", "Ben", "Cy"], rounds, started=EVE.isoformat())
    with app.app_context(), scope.household(family_id(app)):
        game_id = import_game(document).id
        db.session.remove()
    return game_id


def household_speaks(app: Flask, language: str | None, name: str = HOUSEHOLD) -> None:
    with app.app_context():
        db.session.execute(
            update(Household).where(Household.name == name).values(language=language)
        )
        db.session.commit()
        db.session.remove()


def link_to(app: Flask, kind: LinkKind, game_id: int | None = None, year: int | None = None) -> str:
    with app.test_request_context(), scope.household(family_id(app)):
        game = db.session.get(Game, game_id) if game_id is not None else None
        _, token = links.make_link(kind, "owner", game=game, year=year)
        db.session.remove()
    return token


@pytest.fixture
def through_flask(app: Flask) -> Iterator[list[str]]:
    """The paths Flask itself handled (the fast lane's answers never get there)."""
    seen: list[str] = []

    def handled(sender: Flask, **_: object) -> None:
        from flask import request

        seen.append(request.path)

    request_started.connect(handled, app)
    yield seen
    request_started.disconnect(handled, app)


# --- which language -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("es-CL", "es"),
        ("es-MX,es;q=0.9,en;q=0.5", "es"),
        ("es-419", "es"),
        ("en-GB,es;q=0.5", "en"),
        ("fr-FR,de;q=0.8", "en"),
        ("", "en"),
    ],
)
def test_the_sign_in_page_follows_the_browser_then_english(
    app: Flask, client: FlaskClient, header: str, expected: str
) -> None:
    """Before anyone is known: the browser's language, else English, never the household's."""
    household_speaks(app, "es")
    answer = app.test_client().get("/login", headers={"Accept-Language": header})
    assert answer.status_code == 200 and lang(answer) == expected
    if header:
        assert "Accept-Language" in answer.headers["Vary"]


def test_a_members_own_choice_comes_first_and_follows_them(app: Flask) -> None:
    phone = signed_in(app, "ann", "viewer")
    assert lang(phone.get("/account", headers=ENGLISH)) == "en"
    chosen = phone.post("/account/language", data={"language": "es"})
    assert chosen.status_code == 303 and chosen.headers["Location"] == "/account"
    page = phone.get("/account", headers=ENGLISH)
    assert lang(page) == "es"
    assert "Tus páginas están en español ahora." in page.get_data(as_text=True)
    assert '<option lang="es" selected value="es">Español</option>' in page.get_data(as_text=True)
    # Another phone of hers, set to English: Spanish too, for her choice is on her account.
    laptop = app.test_client()
    sign_in(app, laptop, "ann")
    assert lang(laptop.get("/history", headers=ENGLISH)) == "es"
    # English chosen on a Spanish phone; then back to what each browser says.
    assert phone.post("/account/language", data={"language": "en"}).status_code == 303
    assert lang(laptop.get("/history", headers=SPANISH)) == "en"
    assert phone.post("/account/language", data={"language": ""}).status_code == 303
    assert lang(laptop.get("/history", headers=SPANISH)) == "es"
    assert lang(laptop.get("/history", headers=ENGLISH)) == "en"
    with app.app_context():
        assert db.session.scalar(select(User.language).where(User.username == "ann")) is None
        db.session.remove()


@pytest.mark.parametrize("value", ["fr", "ES", "es-CL", "x" * 5000])
def test_a_language_the_list_does_not_hold_is_refused(app: Flask, value: str) -> None:
    phone = signed_in(app, "ann", "viewer")
    refused = phone.post("/account/language", data={"language": value}, headers=SPANISH)
    assert refused.status_code == 303
    page = phone.get("/account", headers=SPANISH).get_data(as_text=True)
    assert "Elige un idioma de la lista." in page
    with app.app_context():
        assert db.session.scalar(select(User.language).where(User.username == "ann")) is None
        db.session.remove()


def test_the_owner_sets_the_households_language(app: Flask, client: FlaskClient) -> None:
    form = client.get("/household").get_data(as_text=True)
    assert '<option lang="en" selected value="en">English</option>' in form
    answer = client.post("/household", data={"setting": "language", "language": "es"})
    assert answer.status_code == 303
    page = client.get("/household")  # the owner's browser names no language
    assert lang(page) == "es"
    assert "El idioma de la familia ahora es español." in page.get_data(as_text=True)
    # A value the list does not hold: refused at its field, in WTForms' own words in Spanish.
    refused = client.post(
        "/household", data={"setting": "language", "language": "xx"}, headers=SPANISH
    )
    assert refused.status_code == 422
    assert "Opción inválida." in refused.get_data(as_text=True)
    assert 'aria-invalid="true"' in refused.get_data(as_text=True)
    for role in ("scorer", "viewer"):
        member = signed_in(app, f"a-{role}", role)
        assert (
            member.post("/household", data={"setting": "language", "language": "en"}).status_code
            == 403
        )
    with app.app_context():
        assert (
            db.session.scalar(select(Household.language).where(Household.name == HOUSEHOLD)) == "es"
        )
        db.session.remove()


def test_a_link_phone_whose_browser_names_no_language_reads_the_households(
    app: Flask, client: FlaskClient
) -> None:
    eve_game(app, finished=True)  # the year 2025 in review has a game
    game_id = eve_game(app)
    table, watch = link_to(app, LinkKind.TABLE, game_id), link_to(app, LinkKind.WATCH, game_id)
    review = link_to(app, LinkKind.REVIEW, year=2025)
    household_speaks(app, "es")
    french = {"Accept-Language": "fr-FR"}
    phone = app.test_client()
    assert phone.get(f"/t/{table}", headers=french).status_code == 303
    for path in (f"/games/{game_id}", f"/games/{game_id}/tv"):
        assert lang(phone.get(path, headers=french)) == "es", path
        assert lang(phone.get(path, headers=ENGLISH)) == "en", path
    watcher = app.test_client()
    assert lang(watcher.get(f"/w/{watch}")) == "es"
    # The result card's words for a chat's robot, which sends no language: the household's.
    words = app.test_client().get(f"/w/{watch}/result").get_data(as_text=True)
    assert "24 dic 2025" in words and "24 Dec 2025" not in words
    assert lang(app.test_client().get(f"/y/{review}")) == "es"
    assert lang(app.test_client().get(f"/y/{review}", headers=ENGLISH)) == "en"
    # A member with no choice whose browser names none reads the household's too.
    assert lang(client.get("/history")) == "es"
    household_speaks(app, None)
    assert lang(watcher.get(f"/w/{watch}")) == "en"


def test_outside_a_request_the_households_language_is_spoken_where_asked(app: Flask) -> None:
    home = family_id(app)
    household_speaks(app, "es")
    with app.app_context():
        assert languages.current() == "en"  # no household in scope: English
        with scope.household(home):
            assert languages.household_language(home) == "es"
            with languages.speaking(languages.household_language(home)):
                assert languages.current() == "es"
                assert local_time.day(EVE) == "24 dic 2025"
            assert languages.current() == "en"
        db.session.remove()


# --- kept apart, in every cache -----------------------------------------------------------------


def test_one_board_for_two_phones_in_two_languages(
    app: Flask, client: FlaskClient, through_flask: list[str]
) -> None:
    """Two viewers of one game, one phone in English and one in Spanish: each gets the page,
    the board polled and the 304 of its own language, through Flask and the fast lane."""
    game_id = eve_game(app)
    ann, bo = signed_in(app, "ann", "viewer"), signed_in(app, "bo", "viewer")
    page = f"/games/{game_id}"
    for phone, header in ((ann, ENGLISH), (bo, SPANISH)):
        phone.get(page, headers=header)  # the session's CSRF secret
    english, spanish = ann.get(page, headers=ENGLISH), bo.get(page, headers=SPANISH)
    assert (lang(english), lang(spanish)) == ("en", "es")
    assert "started 24 Dec 2025" in english.get_data(as_text=True)
    assert "24 dic 2025" in spanish.get_data(as_text=True)
    assert "24 Dec 2025" not in spanish.get_data(as_text=True)
    for answer in (english, spanish):
        assert "Accept-Language" in answer.headers["Vary"]
    # The board polled after a round: each phone its own language's drawing.
    with app.app_context():
        version = db.session.get(Game, game_id).version  # type: ignore[union-attr]
        db.session.remove()
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "K Q"}, {"Ben"})
    polls = [
        phone.get(f"{page}/board?v={version}", headers={**HTMX, **header})
        for phone, header in ((ann, ENGLISH), (bo, SPANISH))
    ]
    assert "24 Dec 2025" in polls[0].get_data(as_text=True)
    assert "24 dic 2025" in polls[1].get_data(as_text=True)
    # The same phone asks in the other language with the ETag it holds: no 304 (its page is
    # another language's), from Flask and from the fast lane alike.
    held = ann.get(page, headers=ENGLISH)
    assert (
        ann.get(page, headers={**ENGLISH, "If-None-Match": held.headers["ETag"]}).status_code == 304
    )
    through_flask.clear()
    assert (
        ann.get(page, headers={**ENGLISH, "If-None-Match": held.headers["ETag"]}).status_code == 304
    )
    assert through_flask == [], "the fast lane did not answer the 304"
    other = ann.get(page, headers={**SPANISH, "If-None-Match": held.headers["ETag"]})
    assert other.status_code == 200 and lang(other) == "es"
    assert other.headers["ETag"] != held.headers["ETag"]
    # The page the lane keeps for one language is never the other's.
    for header, expected in ((SPANISH, "es"), (ENGLISH, "en"), (SPANISH, "es")):
        served = ann.get(page, headers={**header, "Accept-Encoding": "gzip"})
        body = zlib.decompress(served.data, 31).decode()
        assert f'<html lang="{expected}">' in body


def test_a_changed_choice_is_never_answered_304(app: Flask, client: FlaskClient) -> None:
    """A member's new language, or the household's, makes every page they hold stale."""
    game_id = eve_game(app)
    page = f"/games/{game_id}"
    client.get(page)
    held = client.get(page)
    assert client.get(page, headers={"If-None-Match": held.headers["ETag"]}).status_code == 304
    assert client.get(page, headers={"If-None-Match": held.headers["ETag"]}).status_code == 304
    # (Each choice's page, with its message, is followed as a browser does.)
    client.post("/household", data={"setting": "language", "language": "es"}, follow_redirects=True)
    again = client.get(page, headers={"If-None-Match": held.headers["ETag"]})
    assert again.status_code == 200 and lang(again) == "es"
    client.post("/account/language", data={"language": "en"}, follow_redirects=True)
    again = client.get(page, headers={"If-None-Match": again.headers["ETag"]})
    assert again.status_code == 200 and lang(again) == "en"


def test_the_result_card_and_the_rounds_csv_are_kept_per_language(
    app: Flask, client: FlaskClient
) -> None:
    game_id = eve_game(app, finished=True)
    card = client.get(f"/games/{game_id}/card.png", headers=ENGLISH)
    spanish = client.get(
        f"/games/{game_id}/card.png", headers={**SPANISH, "If-None-Match": card.headers["ETag"]}
    )
    assert spanish.status_code == 200 and spanish.headers["ETag"] != card.headers["ETag"]
    assert "Accept-Language" in spanish.headers["Vary"]
    # The rounds CSV is written in the household's language, for whoever downloads it.
    rounds = client.get("/history/rounds.csv", headers=SPANISH)
    assert rounds.status_code == 200 and rounds.get_data()  # (streamed: built as it is read)
    kept = client.get("/history/rounds.csv", headers={"If-None-Match": rounds.headers["ETag"]})
    assert kept.status_code == 304
    client.post("/household", data={"setting": "language", "language": "es"}, follow_redirects=True)
    again = client.get("/history/rounds.csv", headers={"If-None-Match": rounds.headers["ETag"]})
    assert again.status_code == 200 and again.get_data()
    assert again.headers["ETag"] != rounds.headers["ETag"]


# --- numbers, dates, WTForms, the catalogue's cost ------------------------------------------------


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            ["1,250", "18.6", "0.0", "1,250.5", "42%", "41.7%", "+1.8", "\u22120.4", "±0.0", "–"],
        ),
        (
            "es",
            [
                "1.250",
                "18,6",
                "0,0",
                "1.250,5",
                "42\xa0%",
                "41,7\xa0%",
                "+1,8",
                "\u22120,4",
                "±0,0",
                "–",
            ],
        ),
    ],
)
def test_numbers_are_written_as_the_page_s_language_writes_them(
    app: Flask, language: str, expected: list[str]
) -> None:
    with app.test_request_context(headers={"Accept-Language": language}):
        written = [
            languages.number(1250),
            languages.decimal(18.6),
            languages.decimal(-0.04),
            languages.decimal(1250.5),
            languages.percent(0.4166),
            languages.percent(0.4166, 1),
            languages.signed(1.8),
            languages.signed(-0.4),
            languages.signed(0.04),
            languages.decimal(None),
        ]
    assert written == expected


@pytest.mark.parametrize(
    ("language", "day", "day_time", "short_day", "short_day_time", "weekday"),
    [
        ("en", "24 Dec 2025", "24 Dec 2025 19:30", "24 Dec", "24 Dec 19:30", "Wednesday"),
        ("es", "24 dic 2025", "24 dic 2025 19:30", "24 dic", "24 dic 19:30", "miércoles"),
    ],
)
def test_dates_are_written_in_the_page_s_language_and_the_households_zone(
    app: Flask,
    language: str,
    day: str,
    day_time: str,
    short_day: str,
    short_day_time: str,
    weekday: str,
) -> None:
    with app.test_request_context(headers={"Accept-Language": language}):
        assert local_time.day(EVE) == day
        assert local_time.day_time(EVE) == day_time
        assert local_time.short_day(EVE) == short_day
        assert local_time.short_day_time(EVE) == short_day_time
        assert local_time.weekday(EVE) == weekday
        # Early morning and September, where English and CLDR's Spanish differ most.
        morning = datetime(2026, 9, 5, 7, 5, tzinfo=UTC)
        assert local_time.day_time(morning) == (
            "5 Sep 2026 07:05" if language == "en" else "5 sept 2026 7:05"
        )


def test_numbers_and_days_kept_between_pages_never_cross_languages_zones_or_signs(
    app: Flask,
) -> None:
    """What a page wrote is kept for the next (a long history page writes the same figures
    and days again and again): by the locale, the sign and the wall clock, not by the value."""
    instant = datetime(2025, 12, 24, 23, 30, tzinfo=UTC)
    written: dict[str, tuple[str, ...]] = {}
    for language in ("en", "es-ES", "es-MX", "en", "es-ES"):
        with app.test_request_context(headers={"Accept-Language": language}):
            written[language] = (
                languages.number(1250.0),
                languages.number(-0.0),
                languages.number(0),
                languages.decimal(1250.55),
                languages.signed(-0.0),
            )
    assert written["en"] == ("1,250", "-0", "0", "1,250.6", "±0.0")
    assert written["es-ES"] == ("1.250", "-0", "0", "1.250,6", "±0,0")
    assert written["es-MX"] == ("1,250", "-0", "0", "1,250.6", "±0.0")
    # One instant, two zones: the same aware time, and two wall clocks.
    with app.test_request_context():
        at_home = local_time._written(instant.astimezone(ZoneInfo("America/Santiago")), "Hm")
        away = local_time._written(instant.astimezone(ZoneInfo("Asia/Tokyo")), "Hm")
    assert (at_home, away) == ("20:30", "08:30")


def test_wtforms_own_messages_are_in_the_page_s_language(app: Flask, client: FlaskClient) -> None:
    """A field's built-in refusal (LoginForm's ``Length`` has no message of the app's own)."""
    form = {"username": "x" * 300, "password": "whatever it is"}
    spanish = app.test_client().post("/login", data=form, headers=SPANISH)
    assert "El campo no puede tener más de 240 caracteres." in spanish.get_data(as_text=True)
    english = app.test_client().post("/login", data=form, headers=ENGLISH)
    assert "Field cannot be longer than 240 characters." in english.get_data(as_text=True)


def test_a_catalogue_is_read_from_disk_once_not_per_request(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = eve_game(app)
    client.get("/account", headers=SPANISH)  # the catalogue read, if no test read it before
    reads: list[object] = []
    real = Translations.load.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Translations], *args: object, **kwargs: object) -> object:
        reads.append(args)
        return real(cls, *args, **kwargs)

    monkeypatch.setattr(Translations, "load", classmethod(counted))
    for path in ("/account", f"/games/{game_id}", f"/games/{game_id}/tv", "/household"):
        assert client.get(path, headers=SPANISH).status_code == 200
    assert reads == []


def test_the_statistics_numbers_are_in_the_page_s_language(app: Flask, client: FlaskClient) -> None:
    eve_game(app, finished=True)  # Ann wins it: a win rate of 100%
    assert "100%" in client.get("/players", headers=ENGLISH).get_data(as_text=True)
    # Spain's Spanish writes a space before the sign (Chile's and Mexico's do not: CLDR).
    spanish = client.get("/players", headers={"Accept-Language": "es-ES"}).get_data(as_text=True)
    assert "100\xa0%" in spanish and "100%" not in spanish


# --- regions: one catalogue, the region's numbers -----------------------------------------------


@pytest.mark.parametrize(
    ("header", "decimal", "percent"),
    [
        ("es-MX,es;q=0.9", "1,250.6", "42%"),
        ("es-US", "1,250.6", "42%"),
        ("es-419", "1,250.6", "42%"),
        ("es-ES", "1.250,6", "42\xa0%"),
        ("es-AR,es;q=0.9", "1.250,6", "42%"),
        ("es-CL", "1.250,6", "42%"),
        ("es", "1.250,6", "42\xa0%"),
        # A region Babel has no data for: the language's own way.
        ("es-ZZ", "1.250,6", "42\xa0%"),
        ("en-GB,es-MX;q=0.5", "1,250.6", "42%"),
    ],
)
def test_numbers_follow_the_browser_s_region_with_the_one_catalogue(
    app: Flask, header: str, decimal: str, percent: str
) -> None:
    with app.test_request_context(headers={"Accept-Language": header}):
        written = (languages.decimal(1250.6), languages.percent(0.4166))
        spoken = languages.current()
        from flask_babel import gettext

        word = gettext("Save the language")
    assert written == (decimal, percent)
    assert spoken == header[:2]
    assert (word != "Save the language") == (spoken == "es")


def test_a_member_s_own_spanish_takes_the_browser_s_region(app: Flask) -> None:
    phone = signed_in(app, "ana", "viewer")
    phone.post("/account/language", data={"language": "es"}, follow_redirects=True)
    mexican = phone.get("/players", headers={"Accept-Language": "es-MX,en;q=0.5"})
    assert lang(mexican) == "es"
    english_browser = phone.get("/players", headers={"Accept-Language": "en-US"})
    assert lang(english_browser) == "es"


def test_pages_kept_per_region_where_numbers_differ(app: Flask, client: FlaskClient) -> None:
    """The same page asked from Spain and then from Mexico with Spain's ETag is Mexico's own:
    a page, its ETag and a drawn board are kept per region as well as per language."""
    game_id = eve_game(app, finished=True)  # Ann wins it: a win rate of 100%
    spain, mexico = {"Accept-Language": "es-ES"}, {"Accept-Language": "es-MX"}
    spanish = client.get("/players", headers=spain).get_data(as_text=True)
    mexican = client.get("/players", headers=mexico).get_data(as_text=True)
    assert "100\xa0%" in spanish and "100%" in mexican and "100\xa0%" not in mexican
    page = f"/games/{game_id}"
    held = client.get(page, headers=spain)
    assert (
        client.get(page, headers={**spain, "If-None-Match": held.headers["ETag"]}).status_code
        == 304
    )
    other = client.get(page, headers={**mexico, "If-None-Match": held.headers["ETag"]})
    assert other.status_code == 200 and lang(other) == "es"
    assert other.headers["ETag"] != held.headers["ETag"]
    assert "Accept-Language" in other.headers["Vary"]
    # The result card, drawn with the game's figures, is kept per region too.
    card = client.get(f"/games/{game_id}/card.png", headers=spain)
    again = client.get(
        f"/games/{game_id}/card.png", headers={**mexico, "If-None-Match": card.headers["ETag"]}
    )
    assert again.status_code == 200


@pytest.fixture
def fresh(database_uri: str, instance_path: object) -> Flask:
    """A server with no account yet."""
    from scorekeeper import create_app

    from .conftest import FAST_PASSWORDS

    settings = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_uri}
    return create_app({**settings, "WTF_CSRF_ENABLED": False, **FAST_PASSWORDS})


@pytest.mark.parametrize(("header", "expected"), [("es-MX,es;q=0.9", "es"), ("en-US", None)])
def test_a_household_set_up_from_a_spanish_browser_speaks_spanish(
    fresh: Flask, header: str, expected: str | None
) -> None:
    from .conftest import PASSWORD

    phone = fresh.test_client()
    setup = {"household": "Los Rojas", "username": "ana", "password": PASSWORD}
    answer = phone.post(
        "/setup", data={**setup, "confirm": PASSWORD}, headers={"Accept-Language": header}
    )
    assert answer.status_code == 303
    with fresh.app_context():
        assert db.session.scalar(select(Household.language)) == expected
        db.session.remove()
