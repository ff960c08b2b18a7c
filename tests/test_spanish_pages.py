"""Nothing left in English, now or later (issue 41): every GET route of ``app.url_map`` asked
in Spanish (``Accept-Language: es-CL``) by each role (owner, scorer, viewer), a stranger, and a
phone holding a table, a watch or a review link, on a household with games (one six players
are playing, two finished), and every page that answers is read for English words: its text
and the attributes people read (``title``, ``aria-label``, ``placeholder``, ``alt``, a button's
``value``, a preview's ``content``), and the words a page hands its scripts. It also says
``<html lang="es">``.

The areas are being translated now: ``NOT_YET_TRANSLATED`` names the pages still in English
(by endpoint), and a page there that is Spanish already fails too, so the list only shrinks.

English is recognised by its words: the words of the catalogue's msgids (the app's own
English) and of a list of common English words, less the words Spanish shares (``a``, ``no``,
``total``...) and the fixture's data (names, the games' own names, card notation). Text an
element marks as another language (``lang="en"``: a quote of a family's rules document, a
language's own name) and ``<code>``, ``<kbd>``, ``<pre>`` (commands, notation) are not read.

SQLite only: the words of a page do not depend on the database it was read from, and the walk
(about a thousand requests) would double for no new finding.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper import catalogues, create_app, house_rules, scope
from scorekeeper.accounts import links
from scorekeeper.accounts import services as accounts
from scorekeeper.extensions import db
from scorekeeper.games.transfer import import_game
from scorekeeper.models import Game, HouseRules, LinkKind, Player, Role, User

from . import conftest
from .conftest import PASSWORD, add_member
from .helpers import game_document, save_round, start_game, twelve_step_to_the_end
from .test_access import YEAR, World, _address

# One worker walks the module (pytest-xdist's --dist loadgroup): its household is built once.
pytestmark = pytest.mark.xdist_group("spanish-pages")

SPANISH = {"Accept-Language": "es-CL,es;q=0.9"}
WHO = ("owner", "scorer", "viewer", "stranger", "table", "watch", "review")

# Pages still in English, by endpoint, and "error pages" (403, 404 and the like, one template
# for every route). Issue 41's areas remove theirs as they translate them: a page listed here
# that reads as Spanish fails the test, so the list never keeps a page that is done.
NOT_YET_TRANSLATED: set[str] = set()

# --- the household walked ------------------------------------------------------------------

HOUSEHOLD = "Los Rojas"
# People with names no English word shares, so that a name on a page is never taken for one.
MEMBERS = {"owner": "ana", "scorer": "beto", "viewer": "coco"}
PLAYERS = ["Ana", "Beto", "Coco", "Dani", "Eli", "Fer"]


def _make_world(
    uri: str,
    instance: Path,
    household: str = HOUSEHOLD,
    players: list[str] = PLAYERS,
    rules_name: str = "Reglas de Gran",
) -> World:
    """One household, Los Rojas: a game of six in progress (three rounds in), two finished
    games (six players and three), house rules, a spare member and link, an invitation, table,
    watch and review links; in ``test_access.World``'s shape, so that its addresses are built
    by ``test_access._address``. Another household's, players' or house rules' name may be
    given (``test_words_are_text``)."""
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = str(instance)
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": uri,
            "WTF_CSRF_ENABLED": False,
            "DAILY_BACKUPS": False,
            "RATINGS_IN_BACKGROUND": False,
            "TIME_ZONE": "UTC",
            **conftest.FAST_PASSWORDS,
        }
    )
    for role, name in MEMBERS.items():
        add_member(app, name, role, household=household)
    add_member(app, "dora", "viewer", household=household)
    owner = app.test_client()
    conftest.sign_in(app, owner, MEMBERS["owner"])
    playing = start_game(owner, "twelve-step", players)
    hands = dict(zip(players[1:], ["K", "5 5", "JK", "9", "Q 3"], strict=True))
    for _ in range(3):
        save_round(owner, playing, players[0], hands, {players[1]})
    tokens: dict[str, str] = {}
    with app.app_context():
        home = accounts.household_named(household)
        assert home is not None
        home_id = home.id
        db.session.remove()
    with app.test_request_context(), scope.household(home_id):
        house_rules.save(rules_name, {"base": "twelve-step"})
        finished = import_game(
            game_document("twelve-step", players, twelve_step_to_the_end(players))
        ).id
        import_game(game_document("twelve-step", players[:3], twelve_step_to_the_end(players[:3])))
        game = db.session.get(Game, playing)
        for kind in (LinkKind.TABLE, LinkKind.WATCH):
            _, tokens[kind.value] = links.make_link(kind, "ana", game=game)
        spare_link = links.make_link(LinkKind.TABLE, "ana", game=game)[0].id
        _, tokens["review"] = links.make_link(LinkKind.REVIEW, "ana", year=YEAR)
        spare_game = import_game(game_document("contract-rummy", players[:2], [])).id
        _, tokens["invite"] = links.make_link(LinkKind.INVITE, "ana", role=Role.VIEWER)
        player = db.session.scalar(select(Player.id).where(Player.name == players[0]))
        member = db.session.scalar(select(User.id).where(User.username == "dora"))
        slug = db.session.scalar(select(HouseRules.slug))
        db.session.remove()
    assert slug is not None and player is not None and member is not None
    return World(app, playing, finished, player, member, spare_link, slug, tokens, spare_game)


@dataclass
class Walk:
    world: World
    fresh: Flask  # a server with no account yet: its first-run setup page


@pytest.fixture(scope="module")
def walk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Walk]:
    folder = tmp_path_factory.mktemp("spanish")
    saved = os.environ.get("SCOREKEEPER_INSTANCE_PATH")
    world = _make_world(f"sqlite:///{folder / 'walk.db'}", folder / "instance")
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = str(folder / "fresh-instance")
    fresh = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'fresh.db'}"}
    )
    yield Walk(world, fresh)
    for app in (world.app, fresh):
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    if saved is None:
        os.environ.pop("SCOREKEEPER_INSTANCE_PATH", None)
    else:
        os.environ["SCOREKEEPER_INSTANCE_PATH"] = saved


def _phone(world: World, who: str) -> FlaskClient:
    """A phone set to Spanish, signed in as ``who`` or holding its link."""
    phone = world.app.test_client()
    if who in MEMBERS:
        answer = phone.post(
            "/login", data={"username": MEMBERS[who], "password": PASSWORD}, headers=SPANISH
        )
        assert answer.status_code == 303
    elif who in ("table", "watch"):
        path = "/t/" if who == "table" else "/w/"
        assert phone.get(path + world.tokens[who], headers=SPANISH).status_code in (200, 303)
    return phone


# --- what a page says, and which of it is English ------------------------------------------------

# Attributes whose values people read (a button's value only on a button: ``_Reader``).
READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
# Elements whose text is not the page's words: scripts and styles, commands and card notation.
NOT_READ = {"script", "style", "code", "kbd", "pre", "samp"}
# Elements (by id) whose text is names of places: the zones, named by Babel in the page's
# language, some as the place itself writes them ("Indiana (Tell City)", "New Salem").
DATA_ELEMENTS = {"time_zone"}
# The elements HTML never closes.
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class _Reader(HTMLParser):
    """The words of a page people read, less what an element marks as another language."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.read: list[str] = []
        self.lang = ""
        # (tag, whether its text is read, the language it is in) of each open element.
        self.open: list[tuple[str, bool, str]] = []
        self.json = False

    def _reading(self) -> bool:
        return all(reading for _tag, reading, _lang in self.open)

    def _in_spanish(self) -> bool:
        language = next((lang for _tag, _r, lang in reversed(self.open) if lang), "es")
        return language.split("-")[0] == "es"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "html":
            self.lang = values.get("lang", "")
            return
        if tag in VOID:
            if values.get("lang", "es").split("-")[0] != "es":
                return
        else:
            reading = tag not in NOT_READ and values.get("id") not in DATA_ELEMENTS
            self.open.append((tag, reading, values.get("lang", "")))
            self.json = tag == "script" and values.get("type") == "application/json"
        if not self._reading() or not self._in_spanish():
            return
        shown = [values.get(name, "") for name in READ_ATTRIBUTES]
        if tag == "input" and values.get("type") in ("submit", "button", "reset"):
            shown.append(values.get("value", ""))
        if tag == "meta" and (
            values.get("name") == "description" or values.get("property", "").startswith("og:")
        ):
            shown.append(values.get("content", ""))
        # Words a page hands its scripts: data attributes that hold a phrase.
        shown += [
            value for name, value in values.items() if name.startswith("data-") and " " in value
        ]
        self.read += [value for value in shown if value]

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.open and self.open[-1][0] == tag:
            self.open.pop()

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index][0] == tag:
                del self.open[index:]
                break
        self.json = False

    def handle_data(self, data: str) -> None:
        if self.json:
            self.read += _phrases(data)
        elif self._reading() and self._in_spanish():
            self.read.append(data)


# A JSON document's values that are not words (the web manifest's icons: "any maskable").
NOT_WORDS = {"purpose", "sizes", "src", "type", "scope", "start_url", "display", "id"}


def _phrases(text: str) -> list[str]:
    """The strings holding a phrase in a JSON document."""
    try:
        found = json.loads(text)
    except ValueError:
        return []
    phrases: list[str] = []

    def visit(value: object) -> None:
        if isinstance(value, str) and " " in value:
            phrases.append(value)
        elif isinstance(value, dict):
            for key, each in value.items():
                if key not in NOT_WORDS:
                    visit(each)
        elif isinstance(value, list):
            for each in value:
                visit(each)

    visit(found)
    return phrases


WORD = re.compile(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ']*")

# Common English words a page left in English is sure to hold some of (the catalogue's own
# words are added to them).
_COMMON_ENGLISH = """
    the of and to in is it for on with at by this that be are was were or an not from your
    you all can has have will more new see here who what when how each one two back game
    games round rounds player players score scores points save cancel delete edit sign out
    next previous history records rules members settings share link links table watch start
    end won wins win left show hide help home menu open close add remove change name names
    password username account household family his her their they them these those there
    than then into over under after before about only just also still yet any some every
    other same own our we us my me if so do does done did go goes went up down off again
    yes want need may must should would could shall yours find found keep kept made make
    makes set sets run runs wild card cards contract contracts hand hands dealer deals deal
    turn went out lay laid day days year years time times week month today yesterday now
    page pages phone phones people person nobody everyone someone something nothing please
    try again enter entered saved waiting offline refused signal review season seasons rating
    ratings best worst most least first last longest streak streaks total totals average
    finished abandoned progress playing played play plays winner winners leader leaders
"""
COMMON_ENGLISH = set(_COMMON_ENGLISH.split())
# Words Spanish writes too (or that Spanish text keeps: the glossary's "joker", "app"), and
# abbreviations both share: never taken for English.
_SPANISH_TOO = """
    a no me he son solo sin era once red come dice pie fin mar par van ve sea has ten total
    final local real general normal error base color club hotel plan idea radio chat online
    ok app tv csv png pdf qr url wifi wi fi ctrl extra joker jokers mesa es el la de en un una
    los las as json jk utc provisional roles openskill jsonl
"""
SPANISH_TOO = set(_SPANISH_TOO.split())
# The fixture's data and the app's own name: never words of the page's language.
DATA = {name.lower() for name in (*PLAYERS, *MEMBERS.values(), "dora", "Rojas", "Gran")} | {
    "scorekeeper",
    "reglas",
    "jk",  # the joker in card notation
    "ben",  # the name in an example the app gives ("Ben +1.8")
    "windsor",  # a place a family's rules document names
    "bob",  # the names in the example of a merge ("Bob" into "Robert")
    "robert",
    # The published games' own names ("Shanghai Rummy", "Carioca (Chile, 8 rounds)").
    "rummy",
    "chile",
}
# A day as Spanish writes it ("3 may 2026"): the month is not English.
SPANISH_DAY = re.compile(
    r"\b\d{1,2}\.? (ene|feb|mar|abr|may|jun|jul|ago|sept?|oct|nov|dic)\b\.?", re.IGNORECASE
)
# An address shown as text (a link's, its random token holds any letters): not words.
ADDRESS = re.compile(r"\S*/\S*")
# Where a script puts a value into the words a page gave it ("a las {time}").
PLACEHOLDER = re.compile(r"\{\w+\}")
# IANA zones (America/New_York), named the same in every language.
ZONE = re.compile(r"\b[A-Z][A-Za-z_]+(/[A-Za-z_+-]+)+")
# An address (a chat's preview names the page and its card by theirs): not words.
ADDRESS = re.compile(r"\bhttps?://\S+")


# The games' own names, kept in every language (a description after one is translated).
GAME_NAMES = (
    "12-Step Rummy",
    "12-Step",
    "Russian Rummy",
    "Dummy Rummy",
    "Contract Rummy",
    "Bellevue",
    "Carioca",
    "Continental",
    "Shanghai",
    "Liverpool",
    "Phase 10",
    # Named together: "12-Step, Russian, Dummy, Contract Rummy, … Carioca y Continental".
    "12-Step",
    "Russian",
    "Dummy",
)


@pytest.fixture(scope="module")
def english() -> set[str]:
    """The words that are English only: the catalogue's msgids' and the common ones."""
    words = set(COMMON_ENGLISH)
    for language in catalogues.translated():
        for message in catalogues.read(catalogues.catalogue_of(language), language):
            for text in [message.id] if isinstance(message.id, str) else message.id:
                words |= {word.lower() for word in WORD.findall(re.sub(r"%\(\w+\)\w", " ", text))}
    return {word for word in words if len(word) > 1 and word.isascii()} - SPANISH_TOO - DATA


def english_in(text: str, english: set[str]) -> list[str]:
    """The English words of ``text`` (a page's words or a JSON answer's phrases)."""
    for name in GAME_NAMES:
        text = text.replace(name, " ")
    text = ZONE.sub(" ", SPANISH_DAY.sub(" ", PLACEHOLDER.sub(" ", ADDRESS.sub(" ", text))))
    return sorted({word.lower() for word in WORD.findall(text) if word.lower() in english})


@dataclass
class Page:
    who: str
    url: str
    status: int
    lang: str
    english: list[str]


def read_page(phone: FlaskClient, url: str, who: str, english: set[str]) -> Page | None:
    """The page at ``url`` in Spanish, as ``who`` reads it; None where no page answers (a
    redirect, a picture, a file)."""
    answer = phone.get(url, headers=SPANISH)
    body = answer.get_data(as_text=True) if answer.mimetype != "image/png" else ""
    answer.close()
    # A redirect's page is never shown; a file downloaded (a game file, a backup) is not read
    # here: its format is not in words.
    if 300 <= answer.status_code < 400 or "attachment" in answer.headers.get(
        "Content-Disposition", ""
    ):
        return None
    if answer.mimetype == "text/html":
        reader = _Reader()
        reader.feed(body)
        words = english_in(" ".join(reader.read), english)
        return Page(who, url, answer.status_code, reader.lang, words)
    if answer.mimetype in ("application/json", "application/manifest+json"):
        return Page(
            who, url, answer.status_code, "es", english_in(" ".join(_phrases(body)), english)
        )
    return None


def _where(page: Page, endpoint: str) -> str:
    """What a page counts towards: its endpoint, or the error pages every route shares."""
    return endpoint if page.status < 400 else "error pages"


@pytest.fixture(scope="module")
def pages(walk: Walk, english: set[str]) -> dict[str, list[Page]]:
    """Every page of every GET route for everyone, by what it counts towards."""
    world = walk.world
    found: dict[str, list[Page]] = {}
    rules = sorted(
        {
            (rule.endpoint, frozenset(rule.arguments))
            for rule in world.app.url_map.iter_rules()
            if "GET" in (rule.methods or ()) and rule.endpoint != "static"
        },
        key=lambda pair: pair[0],
    )
    phones = {who: _phone(world, who) for who in WHO}
    for endpoint, arguments in rules:
        worlds = [world]
        if "game_id" in arguments and endpoint != "games.delete":
            worlds.append(replace(world, playing=world.finished))
        for shown in worlds:
            url = _address(shown, endpoint, set(arguments))
            for who, phone in phones.items():
                page = read_page(phone, url, who, english)
                if page is not None:
                    found.setdefault(_where(page, endpoint), []).append(page)
    setup = read_page(walk.fresh.test_client(), "/setup", "stranger", english)
    assert setup is not None and setup.status == 200
    found.setdefault("accounts.setup", []).append(setup)
    return found


def test_every_page_says_it_is_spanish(pages: dict[str, list[Page]]) -> None:
    wrong = [
        f"{page.url} as {page.who}: lang={page.lang!r}"
        for listed in pages.values()
        for page in listed
        if page.lang != "es"
    ]
    assert wrong == []


def test_no_page_is_left_in_english(pages: dict[str, list[Page]]) -> None:
    left = {
        where: sorted(
            {
                f"{page.url} as {page.who}: {' '.join(page.english[:12])}"
                for page in listed
                if page.english
            }
        )
        for where, listed in pages.items()
        if where not in NOT_YET_TRANSLATED
    }
    left = {where: found for where, found in left.items() if found}
    assert left == {}, (
        "English left on pages (translate them, or list them as not yet):\n"
        + "\n".join(
            f"{where}:\n  " + "\n  ".join(found[:5]) for where, found in sorted(left.items())
        )
    )


def test_not_yet_translated_names_only_pages_still_in_english(
    pages: dict[str, list[Page]],
) -> None:
    """The list shrinks as the areas are translated: a page there that reads as Spanish for
    everyone fails, and so does a name that is no page at all."""
    done = sorted(
        where
        for where in NOT_YET_TRANSLATED
        if where in pages and not any(page.english for page in pages[where])
    )
    unknown = sorted(NOT_YET_TRANSLATED - set(pages))
    assert (done, unknown) == ([], []), (
        "remove these from NOT_YET_TRANSLATED: Spanish already, or no page at all"
    )


# --- the reader itself ----------------------------------------------------------------------


def test_the_reader_finds_english_where_people_read_it(english: set[str]) -> None:
    page = """<!doctype html><html lang="es"><head><title>Partidas</title>
    <meta property="og:description" content="Ana wins the game"></head><body>
    <p>Partida en curso, 3 may 2026. <span title="Delete this round">x</span></p>
    <input type="submit" value="Save"><input type="hidden" value="Save the world">
    <button aria-label="Cerrar">×</button><img alt="The result card">
    <code>flask --app scorekeeper users password</code>
    <blockquote lang="en">Runs of four or more, aces high or low</blockquote>
    <select><option value="es">Español</option>
    <option lang="en" value="en">English</option></select>
    <p data-offline="Saved on this phone">12-Step Rummy · Contract Rummy · America/New_York</p>
    <script type="application/json">{"waiting": "Waiting for the other phones", "n": 3}</script>
    <script>var the = "game";</script><p>Listo, <b>OK</b>.</p></body></html>"""
    reader = _Reader()
    reader.feed(page)
    found = english_in(" ".join(reader.read), english)
    assert reader.lang == "es"
    assert found == sorted(
        {"wins", "the", "game", "delete", "this", "round", "save", "result", "card", "saved"}
        | {"on", "phone", "waiting", "for", "other", "phones"}
    )
