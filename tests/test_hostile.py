"""Hostile input: random and malformed values sent to every form and endpoint.

Every endpoint in ``app.url_map`` is reached (a new one fails ``test_every_endpoint_is_covered``
until it is listed in ``ROUTES``), against seeded data: a game in progress played under saved
house rules, a finished game, an abandoned one, players. Whatever is sent, the answer is a 4xx
with a message, or a normal 2xx/3xx where the input is acceptable, never a 500 (the app runs
with TESTING on, so an error in a view raises here with its traceback). Names holding HTML are
shown as text everywhere they appear.
"""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import escape
from sqlalchemy import func, select, update
from werkzeug.test import TestResponse

from scorekeeper import house_rules, scope
from scorekeeper.accounts import links
from scorekeeper.bin import services as bin_services
from scorekeeper.extensions import db
from scorekeeper.games import drafts
from scorekeeper.games.transfer import import_game
from scorekeeper.history import backup_files
from scorekeeper.limits import EARLIEST_YEAR, LATEST_YEAR
from scorekeeper.models import (
    Game,
    GameEvent,
    Hand,
    HouseRules,
    LinkKind,
    Player,
    RestoreJob,
    Role,
    Round,
    Seat,
    User,
)

from .conftest import add_member, family_id, signed_in
from .helpers import game_document, save_round, start_game, twelve_step_to_the_end

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
RULES_NAME = "<b onmouseover=alert(1)>Gran's</b>"
HOSTILE_NAMES = (SCRIPT, IMG)


def budget(examples: int) -> settings:
    """Hypothesis settings for a test of ``examples`` requests (sized for a quick suite)."""
    return settings(
        max_examples=examples,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        deadline=None,
        database=None,
        derandomize=os.environ.get("CI") == "true",
    )


# --- seeded data -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Seeds:
    playing: int  # in progress, under saved house rules, two rounds played
    finished: int
    abandoned: int
    spare: int  # in progress, for the requests that change a game (abandon, delete a round)
    rules: str  # the saved house rules' slug
    players: tuple[int, ...]
    member: int  # a second account of the household
    link: int  # a table link of the game in progress
    tokens: dict[str, str]  # a live token of each kind: table, watch, invite, review
    binned: int  # a game in the bin
    restore_job: int  # a restore shown as running (no thread reads it): its page has Cancel
    kept_backup: str = "2026-01-01.jsonl"  # the name of a backup the server keeps


_SEEDS: dict[int, Seeds] = {}


def seeded(app: Flask, client: FlaskClient) -> Seeds:
    """Seed ``app`` once (hypothesis calls the test many times with the same app)."""
    if id(app) in _SEEDS:
        return _SEEDS[id(app)]
    with app.app_context():
        record = house_rules.save(RULES_NAME, {"base": "twelve-step"})
        slug = record.slug
        finished = import_game(
            game_document(
                "twelve-step", [SCRIPT, IMG, "Cy"], twelve_step_to_the_end([SCRIPT, IMG, "Cy"])
            )
        ).id
    names = [SCRIPT, IMG, "Ann", "Ben"]
    playing = start_game(client, slug, names)
    for _ in range(2):
        save_round(client, playing, SCRIPT, {IMG: "5", "Ann": "K Q", "Ben": "JK"}, {IMG})
    # This phone is Ann's at the game in play, where someone went out: her pad is open.
    assert client.post(f"/games/{playing}/seat", data={"seat": "2"}).status_code == 303
    with app.test_request_context(), scope.household(family_id(app)):
        in_play = db.session.get(Game, playing)
        assert in_play is not None
        drafts.go_out(in_play, 0, number=3)
    abandoned = start_game(client, "twelve-step", ["Ann", "Ben", "Cy", "Dee"])
    assert client.post(f"/games/{abandoned}/abandon").status_code == 302
    spare = start_game(client, "twelve-step", ["Ann", IMG, "Dee", "Eve"])
    save_round(client, spare, "Ann", {IMG: "5", "Dee": "K", "Eve": "Q"}, {IMG})
    with app.app_context():
        players = tuple(db.session.scalars(select(Player.id).order_by(Player.id)))
    add_member(app, "seeded-scorer", "scorer")
    tokens: dict[str, str] = {}
    with app.test_request_context(), scope.household(family_id(app)):
        game = db.session.get(Game, playing)
        made = {}
        for kind in (LinkKind.TABLE, LinkKind.WATCH, LinkKind.INVITE):
            link, tokens[kind.value] = links.make_link(
                kind, "owner", game=None if kind == LinkKind.INVITE else game, role=Role.VIEWER
            )
            made[kind] = link.id
        _review, tokens["review"] = links.make_link(LinkKind.REVIEW, "owner", year=2026)
        member = db.session.scalar(select(User.id).where(User.username == "seeded-scorer"))
        thrown = import_game(game_document("contract-rummy", ["Ann", IMG], []))
        binned = thrown.id
        bin_services.bin_game(thrown)
        job = RestoreJob(status="running")
        db.session.add(job)
        db.session.commit()
        restore_job = job.id
        db.session.remove()
    with app.app_context():
        kept_backup = backup_files.write(family_id(app), "2026-01-01.jsonl").name
        db.session.remove()
    seeds = Seeds(
        playing,
        finished,
        abandoned,
        spare,
        slug,
        players,
        member,
        made[LinkKind.TABLE],
        tokens,
        binned,
        restore_job,
        kept_backup,
    )
    _SEEDS[id(app)] = seeds
    return seeds


@pytest.fixture(autouse=True)
def _forget_seeds() -> Any:
    yield
    _SEEDS.clear()


# --- every endpoint, with the addresses to reach it -------------------------------------------

Urls = Callable[[Seeds], list[str]]


def _games(s: Seeds) -> list[int]:
    return [s.playing, s.finished, s.abandoned]


ROUTES: dict[str, Urls] = {
    "main.index": lambda s: ["/"],
    "main.health": lambda s: ["/healthz"],
    "games.new": lambda s: ["/games/new"],
    "games.show": lambda s: [f"/games/{g}" for g in _games(s)],
    "games.board": lambda s: [f"/games/{g}/board" for g in _games(s)],
    "games.new_round": lambda s: [f"/games/{g}/rounds/new" for g in _games(s)],
    "games.edit_round": lambda s: [
        f"/games/{s.playing}/rounds/1/edit",
        f"/games/{s.finished}/rounds/12/edit",
    ],
    "games.delete_round": lambda s: [
        f"/games/{s.spare}/rounds/1/delete",
        f"/games/{s.finished}/rounds/3/delete",
    ],
    "games.undo_round": lambda s: [
        f"/games/{s.spare}/rounds/1/undo",
        f"/games/{s.finished}/rounds/3/undo",
    ],
    "games.put_back_round": lambda s: [
        f"/games/{s.spare}/rounds/1/put-back",
        f"/games/{s.finished}/rounds/3/put-back",
    ],
    "games.abandon": lambda s: [f"/games/{s.spare}/abandon", f"/games/{s.finished}/abandon"],
    "games.leave": lambda s: [f"/games/{s.spare}/leave?seat=0", f"/games/{s.playing}/leave?seat=1"],
    "games.join": lambda s: [f"/games/{s.spare}/join", f"/games/{s.finished}/join"],
    "games.undo_leave": lambda s: [
        f"/games/{s.spare}/leave/undo?seat=0",
        f"/games/{s.playing}/leave/undo?seat=1",
    ],
    "games.come_back": lambda s: [
        f"/games/{s.spare}/comeback?seat=0",
        f"/games/{s.playing}/comeback?seat=1",
    ],
    "games.may_i": lambda s: [f"/games/{s.playing}/may-i", f"/games/{s.finished}/may-i"],
    "games.export": lambda s: [f"/games/{g}/export" for g in _games(s)],
    "games.tv": lambda s: [f"/games/{g}/tv" for g in _games(s)],
    "games.card": lambda s: [f"/games/{g}/card.png" for g in _games(s)],
    "games.result": lambda s: [f"/games/{g}/result" for g in _games(s)],
    "main.manifest": lambda s: ["/manifest.webmanifest"],
    "main.service_worker": lambda s: ["/sw.js"],
    "games.upload": lambda s: ["/games/import"],
    "history.index": lambda s: ["/history"],
    "history.records_page": lambda s: ["/records"],
    "history.season": lambda s: ["/seasons", "/seasons?year=2026", "/seasons?since=2026-01-01"],
    "history.game_ratings": lambda s: [f"/history/games/{g}/ratings" for g in _games(s)],
    "history.backup_page": lambda s: ["/history/backup"],
    "history.download": lambda s: ["/history/backup/games.jsonl"],
    "history.download_household": lambda s: ["/history/backup/household.jsonl"],
    "history.download_kept": lambda s: [f"/history/backups/{s.kept_backup}"],
    "history.restore_kept": lambda s: [f"/history/backups/{s.kept_backup}/restore"],
    "history.rounds_csv": lambda s: ["/history/rounds.csv"],
    "history.restore": lambda s: ["/history/backup"],
    "history.restore_job": lambda s: [f"/history/restores/{s.restore_job}"],
    "history.cancel_restore": lambda s: [f"/history/restores/{s.restore_job}/cancel"],
    "players.index": lambda s: ["/players"],
    "players.show": lambda s: [f"/players/{p}" for p in s.players],
    "players.rename": lambda s: [f"/players/{p}/rename" for p in s.players],
    "players.merge": lambda s: [f"/players/{p}/merge" for p in s.players],
    "referee.index": lambda s: ["/referee", f"/referee?rules={s.rules}&game={s.playing}"],
    "rules.index": lambda s: ["/rules"],
    "rules.show": lambda s: ["/rules/twelve-step", f"/rules/{s.rules}"],
    "rules.new": lambda s: ["/rules/new", "/rules/new?base=twelve-step"],
    "rules.edit": lambda s: [f"/rules/{s.rules}/edit"],
    "rules.delete": lambda s: [f"/rules/{s.rules}/delete"],
    "static": lambda s: ["/static/css/app.css"],
    "accounts.login": lambda s: ["/login", "/login?next=//evil.example/"],
    "accounts.logout": lambda s: ["/logout"],
    "accounts.setup": lambda s: ["/setup"],
    "accounts.account": lambda s: ["/account"],
    "accounts.choose_language": lambda s: ["/account/language"],
    "accounts.members": lambda s: ["/members"],
    "accounts.settings": lambda s: ["/household"],
    "accounts.add_member": lambda s: ["/members"],
    "accounts.change_role": lambda s: [f"/members/{s.member}/role"],
    "accounts.remove_member": lambda s: [f"/members/{s.member}/remove"],
    "accounts.invite_member": lambda s: ["/members/invite"],
    "accounts.invite": lambda s: [f"/invite/{s.tokens['invite']}"],
    "accounts.game_links": lambda s: [f"/games/{g}/links" for g in _games(s)],
    "accounts.add_game_link": lambda s: [f"/games/{s.playing}/links"],
    "accounts.share_game": lambda s: [f"/games/{g}/share" for g in _games(s)],
    "accounts.revoke_link": lambda s: [f"/links/{s.link}/revoke"],
    "accounts.table_link": lambda s: [f"/t/{s.tokens['table']}"],
    "accounts.watch_link": lambda s: [f"/w/{s.tokens['watch']}"],
    "accounts.watch_card": lambda s: [f"/w/{s.tokens['watch']}/card.png"],
    # (A year nobody played in answers 404: tests/history/test_review.py.)
    "history.review_page": lambda s: ["/review/2026"],
    "history.review_card": lambda s: ["/review/2026/card.png"],
    "history.share_review": lambda s: ["/review/2026/share"],
    "history.review_link": lambda s: [f"/y/{s.tokens['review']}"],
    "history.review_link_card": lambda s: [f"/y/{s.tokens['review']}/card.png"],
    "accounts.watch_result": lambda s: [f"/w/{s.tokens['watch']}/result"],
    "accounts.households": lambda s: ["/households"],
    "games.delete": lambda s: [f"/games/{s.spare}/delete"],
    "games.pick_seat": lambda s: [f"/games/{g}/seat" for g in _games(s)],
    "games.hand": lambda s: [f"/games/{g}/hand" for g in _games(s)],
    "games.close_round": lambda s: [f"/games/{g}/close" for g in _games(s)],
    "games.put_in_hand": lambda s: [f"/games/{g}/hand/put-in" for g in _games(s)],
    "bin.index": lambda s: ["/bin"],
    "bin.restore_game": lambda s: [f"/bin/games/{s.binned}/restore"],
    "bin.restore_rules": lambda s: ["/bin/rules/1/restore"],
    "bin.empty": lambda s: ["/bin/empty"],
}

# Where the form of a POST-only endpoint is (its field names are read from there).
FORM_PAGES: dict[str, Callable[[Seeds, str], str]] = {
    "games.delete_round": lambda s, url: f"/games/{s.playing}",
    "games.undo_round": lambda s, url: f"/games/{s.playing}",
    "games.put_back_round": lambda s, url: f"/games/{s.playing}",
    "games.put_in_hand": lambda s, url: f"/games/{s.playing}/hand",
    "games.abandon": lambda s, url: f"/games/{s.playing}",
    "games.join": lambda s, url: f"/games/{s.playing}",
    # Shown on the board once a player has left (the seeded games keep everyone).
    "games.undo_leave": lambda s, url: f"/games/{s.playing}",
    "games.may_i": lambda s, url: f"/games/{s.playing}",
    "history.restore": lambda s, url: "/history/backup",
    "history.restore_kept": lambda s, url: "/history/backup",
    "history.cancel_restore": lambda s, url: url.rsplit("/", 1)[0],
    "players.rename": lambda s, url: url.rsplit("/", 1)[0],
    "players.merge": lambda s, url: url.rsplit("/", 1)[0],
    "accounts.logout": lambda s, url: "/account",
    "accounts.choose_language": lambda s, url: "/account",
    "accounts.add_member": lambda s, url: "/members",
    "accounts.change_role": lambda s, url: "/members",
    "accounts.remove_member": lambda s, url: "/members",
    "accounts.invite_member": lambda s, url: "/members",
    "accounts.add_game_link": lambda s, url: f"/games/{s.playing}/links",
    "accounts.share_game": lambda s, url: url.rsplit("/", 1)[0],
    "history.share_review": lambda s, url: url.rsplit("/", 1)[0],
    "accounts.revoke_link": lambda s, url: f"/games/{s.playing}/links",
    "games.delete": lambda s, url: f"/games/{s.playing}",
    "bin.restore_game": lambda s, url: "/bin",
    "bin.restore_rules": lambda s, url: "/bin",
    "bin.empty": lambda s, url: "/bin",
}
UPLOADS = {"games.upload", "history.restore"}
# A link's POST (a member of another household signing out to follow it) takes no field, nor
# does Share's (app.js asks it for the game's watch link, with the CSRF token in a header).
NO_FIELDS = {
    "accounts.table_link",
    "accounts.watch_link",
    "accounts.share_game",
    "history.share_review",
}
# First-run setup answers 404 once the household has its owner, as it has here.
GONE = {"accounts.setup"}
# They change the seeded data whatever is sent (so they have a test of their own, last).
# (Signing out, removing the member and revoking the link would leave nothing to test after.)
DESTRUCTIVE = {
    "games.abandon",
    "games.leave",
    "games.undo_leave",
    "games.come_back",
    "games.join",
    "history.cancel_restore",
    "games.delete_round",
    "games.undo_round",
    "games.put_back_round",
    "rules.delete",
    "accounts.logout",
    "accounts.remove_member",
    "accounts.revoke_link",
    "games.delete",
    "bin.empty",
}


def _methods(app: Flask) -> dict[str, set[str]]:
    methods: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        methods.setdefault(rule.endpoint, set()).update(
            (rule.methods or set()) - {"HEAD", "OPTIONS"}
        )
    return methods


def _endpoints(app: Flask, method: str) -> list[str]:
    return sorted(ep for ep, m in _methods(app).items() if method in m and ep != "static")


class _FieldNames(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("input", "select", "textarea", "button"):
            name = dict(attrs).get("name")
            if name:
                self.names.add(name)


_FIELDS: dict[tuple[int, str], list[str]] = {}


def field_names(app: Flask, client: FlaskClient, page: str) -> list[str]:
    """The names of the fields (and buttons) of the forms on ``page``, read once per app."""
    key = (id(app), page)
    if key not in _FIELDS:
        parser = _FieldNames()
        answer = client.get(page)
        if answer.mimetype == "text/html":  # a PNG card or a JSON file has no fields
            parser.feed(answer.get_data(as_text=True))
        _FIELDS[key] = sorted(parser.names - {"csrf_token"})
    return _FIELDS[key]


# --- what a refusal must look like ------------------------------------------------------------

MESSAGE = re.compile(r'field-error|error-page|class="[^"]*\b(?:error|errors|problems|alert)\b')


def check(response: TestResponse, what: str) -> None:
    """No 5xx; a 4xx says why (an HTML page with a message on it, or some text)."""
    status = response.status_code
    # Also runs a streamed answer to its end; a picture (the result card) is no UTF-8.
    body = response.get_data().decode(errors="replace")
    response.close()
    assert status < 500, f"{what}: {status}"
    if 400 <= status < 500 and status != 405:
        assert body.strip(), f"{what}: {status} with an empty answer"
        if response.mimetype == "text/html":
            assert MESSAGE.search(body), f"{what}: {status} without a message:\n{body[:2000]}"
    if response.mimetype == "text/html":
        # The page's title is words only: a block left open in a template swallows markup.
        assert "<title>" not in body or re.search(r"<title>[^<]*</title>", body), what
        assert response.headers.get("Content-Security-Policy"), what
        assert response.headers.get("X-Content-Type-Options") == "nosniff", what


def assert_whole(app: Flask) -> None:
    """Nothing half-written: every game's round count matches its rounds, every round has a
    hand for each seat (two queries)."""
    rounds = select(func.count(Round.id)).where(Round.game_id == Game.id).scalar_subquery()
    seats = select(func.count(Seat.id)).where(Seat.game_id == Round.game_id).scalar_subquery()
    hands = select(func.count(Hand.id)).where(Hand.round_id == Round.id).scalar_subquery()
    with app.app_context():
        assert not db.session.scalars(select(Game.id).where(Game.round_count != rounds)).all()
        assert not db.session.scalars(select(Round.id).where(hands != seats)).all()
        db.session.remove()


# --- values a person (or a script) might send -------------------------------------------------

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
ODD_VALUES = [
    "",
    " ",
    "0",
    "-1",
    "00",
    "1.5",
    "1e309",
    "NaN",
    "inf",
    str(2**31),
    str(2**63),
    str(-(2**63) - 1),
    str(2**64),
    "9" * 5000,
    "²",
    "٣",
    "\x00",
    "A\x00nn",
    "\r\n",
    "\t",
    "\u202e",
    "\ufeff",
    SCRIPT,
    IMG,
    '"><svg onload=alert(1)>',
    "' OR '1'='1",
    "Robert'); DROP TABLE players;--",
    "%",
    "_",
    "\\",
    "nobody",
    "y",
    "on",
    "true",
    "K Q J 10",
    "10♥ JK",
    "JK JK JK JK JK JK JK JK JK",
    "A-",
    "-K",
    ",,,",
    "2-2-2-2",
    "twelve-step",
    "../../etc/passwd",
]
VALUES = st.one_of(
    TEXT,
    st.sampled_from(ODD_VALUES),
    st.integers().map(str),
    st.integers(min_value=-(2**80), max_value=2**80).map(str),
    st.sampled_from(["A", "x", "<", "9", "\x00"]).map(lambda s: s * 20_000),
)
FORM_VALUE = st.one_of(VALUES, st.lists(VALUES, min_size=2, max_size=4))


def form_data(names: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """Some of the real field names plus random ones, each with a value or a repeated key."""
    real = (
        st.lists(st.sampled_from(names), unique=True, max_size=len(names)) if names else st.just([])
    )
    extra = st.lists(TEXT.filter(bool), max_size=3)
    return st.tuples(real, extra).flatmap(
        lambda keys: st.fixed_dictionaries(dict.fromkeys([*keys[0], *keys[1]], FORM_VALUE))
    )


def _post(client: FlaskClient, url: str, data: dict[str, Any], htmx: bool) -> TestResponse:
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(url, data=data, headers=headers)


# --- the tests --------------------------------------------------------------------------------


def test_every_endpoint_is_covered(app: Flask) -> None:
    """A new endpoint must be added to ROUTES (with addresses built from the seeded ids)."""
    missing = set(_methods(app)) - set(ROUTES)
    assert not missing, f"endpoints without seeded addresses in ROUTES: {sorted(missing)}"
    for endpoint, methods in _methods(app).items():
        if "POST" in methods and "GET" not in methods:
            assert endpoint in FORM_PAGES, f"{endpoint}: say where its form is in FORM_PAGES"


def test_every_get_route_answers_with_security_headers(app: Flask, client: FlaskClient) -> None:
    """The catch-all: every GET address, full page and htmx, no 5xx, headers on every page."""
    seeds = seeded(app, client)
    reached = 0
    for endpoint in [*_endpoints(app, "GET"), "static"]:
        for url in ROUTES[endpoint](seeds):
            for headers in ({}, {"HX-Request": "true"}):
                response = client.get(url, headers=headers)
                check(response, f"GET {url} {headers}")
                if endpoint not in GONE:
                    assert response.status_code < 400, f"GET {url}: {response.status_code}"
                reached += 1
    assert reached >= 2 * len(_endpoints(app, "GET"))


@budget(100)
@given(data=st.data())
def test_get_with_random_query_strings(
    app: Flask, client: FlaskClient, data: st.DataObject
) -> None:
    seeds = seeded(app, client)
    endpoint = data.draw(st.sampled_from(_endpoints(app, "GET")), label="endpoint")
    url = data.draw(st.sampled_from(ROUTES[endpoint](seeds)), label="url")
    path = url.split("?")[0]
    names = (
        field_names(app, client, url)
        if endpoint in ("history.index", "history.season", "referee.index")
        else []
    )
    names = [*names, "page", "v", "base", "rules", "game", "player", "mode"]
    query = data.draw(form_data(names), label="query")
    htmx = data.draw(st.booleans(), label="htmx")
    response = client.get(path, query_string=query, headers={"HX-Request": "true"} if htmx else {})
    check(response, f"GET {path} {query!r}")


@budget(200)
@given(data=st.data())
def test_post_random_values_to_every_form(
    app: Flask, client: FlaskClient, data: st.DataObject
) -> None:
    seeds = seeded(app, client)
    endpoint = data.draw(
        st.sampled_from([ep for ep in _endpoints(app, "POST") if ep not in UPLOADS | DESTRUCTIVE]),
        label="endpoint",
    )
    url = data.draw(st.sampled_from(ROUTES[endpoint](seeds)), label="url")
    page = FORM_PAGES[endpoint](seeds, url) if endpoint in FORM_PAGES else url
    form = data.draw(form_data(field_names(app, client, page)), label="form")
    response = _post(client, url.split("?")[0], form, data.draw(st.booleans(), label="htmx"))
    check(response, f"POST {url} {form!r}")
    assert_whole(app)


@budget(40)
@given(data=st.data())
def test_post_random_values_to_the_changing_endpoints(
    app: Flask, client: FlaskClient, data: st.DataObject
) -> None:
    """Abandon, delete a round, delete house rules: random values, then again once gone."""
    seeds = seeded(app, client)
    endpoint = data.draw(st.sampled_from(sorted(DESTRUCTIVE)), label="endpoint")
    url = data.draw(st.sampled_from(ROUTES[endpoint](seeds)), label="url")
    page = FORM_PAGES[endpoint](seeds, url) if endpoint in FORM_PAGES else url
    form = data.draw(form_data(field_names(app, client, page)), label="form")
    response = _post(client, url, form, data.draw(st.booleans(), label="htmx"))
    check(response, f"POST {url} {form!r}")
    assert_whole(app)


# The values that broke forms before: digits ``int`` refuses ("²", 5,000 of them), beyond
# 64 bits, NUL, negative.
KILLERS = ("²", "9" * 5000, str(2**64), "x\x00")


def test_every_field_of_every_form_with_each_killer_value(app: Flask, client: FlaskClient) -> None:
    """Each real field of each form, alone with each value above (the pressed buttons too)."""
    seeds = seeded(app, client)
    sent = 0
    for endpoint in _endpoints(app, "POST"):
        if endpoint in UPLOADS | DESTRUCTIVE | GONE:
            continue
        url = ROUTES[endpoint](seeds)[0]
        page = FORM_PAGES[endpoint](seeds, url) if endpoint in FORM_PAGES else url
        names = field_names(app, client, page)
        assert names or endpoint in NO_FIELDS, f"no fields found on {page}"
        for name in names:
            for value in KILLERS:
                form = {name: value, "save": "y"}
                check(_post(client, url.split("?")[0], form, htmx=False), f"POST {url} {form!r}")
                sent += 1
    assert sent > 100


JSON_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    TEXT,
    st.sampled_from(ODD_VALUES),
)
JSON_VALUE = st.recursive(
    JSON_LEAF,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=12,
)
GAME_KEYS = ("format", "version", "rules", "players", "rounds", "first_dealer", "started")


def _game_file_variants() -> st.SearchStrategy[dict[str, Any]]:
    """A real game file with some of its parts (or a round's) replaced by random JSON."""
    names = [SCRIPT, IMG, "Cy"]
    whole = game_document("twelve-step", names, twelve_step_to_the_end(names)[:3])

    def spoil(
        changes: list[tuple[str, Any]], round_changes: list[tuple[str, Any]], cards: Any
    ) -> dict[str, Any]:
        document = json.loads(json.dumps(whole))
        document["rounds"][0]["players"][SCRIPT]["cards"] = cards
        for key, value in round_changes:
            document["rounds"][1][key] = value
        for key, value in changes:
            document[key] = value
        return document

    key = st.sampled_from([*GAME_KEYS, "extra"])
    round_key = st.sampled_from(["went_out", "players", "may_i", "number"])
    return st.builds(
        spoil,
        st.lists(st.tuples(key, JSON_VALUE), max_size=3),
        st.lists(st.tuples(round_key, JSON_VALUE), max_size=2),
        st.one_of(VALUES, JSON_VALUE),
    )


def _raw_file() -> st.SearchStrategy[bytes]:
    document = st.one_of(_game_file_variants(), JSON_VALUE)
    return st.one_of(
        document.map(lambda d: json.dumps(d).encode()),
        st.lists(document, max_size=4).map(lambda ds: "\n".join(map(json.dumps, ds)).encode()),
        st.binary(max_size=200),
        st.sampled_from(
            [
                b"",
                b"\xef\xbb\xbf{}",
                b"\xff\xfe{\x00}\x00",
                b"[" * 100_000,
                b'{"a":' * 50_000,
                b"1" * 5000,
                b'{"format": "scorekeeper-game", "version": 1e999}',
                b"NaN",
                b'"\\ud800"',
                b"\x00",
                b'{}\n[]\n1\nnull\n"x"\n',
            ]
        ),
    )


@budget(100)
@given(raw=_raw_file(), restore=st.booleans(), htmx=st.booleans(), filename=TEXT)
def test_uploads_of_malformed_files(
    app: Flask, client: FlaskClient, raw: bytes, restore: bool, htmx: bool, filename: str
) -> None:
    url = "/history/backup" if restore else "/games/import"
    data = {"file": (io.BytesIO(raw), filename or "file.json")}
    response = _post(client, url, data, htmx)
    check(response, f"upload to {url}: {raw[:200]!r}")


PATH_IDS = [
    "0",
    "-1",
    str(2**31),
    str(2**63),
    str(2**64),
    "9" * 40,
    "abc",
    "1.5",
    "%00",
    "1%20",
    "١",
]


@budget(100)
@given(data=st.data())
def test_random_path_ids(app: Flask, client: FlaskClient, data: st.DataObject) -> None:
    seeds = seeded(app, client)
    rules = [
        rule for rule in app.url_map.iter_rules() if rule.arguments and rule.endpoint != "static"
    ]
    rule = data.draw(st.sampled_from(rules), label="rule")
    values = {
        name: data.draw(
            st.one_of(
                st.sampled_from(PATH_IDS),
                TEXT.filter(lambda t: "/" not in t and t not in (".", "..")),
            )
        )
        for name in rule.arguments
    }
    path = rule.rule
    for name, value in values.items():
        path = re.sub(rf"<[^>]*\b{name}>", quote(value, safe="%"), path)
    for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
        response = client.open(path, method=method, data={"save": "y"})
        check(response, f"{method} {path}")
    assert seeds.playing


# --- PostgreSQL: NUL bytes and integers beyond 64 bits ----------------------------------------


def _count(app: Flask) -> dict[str, int]:
    with app.app_context():
        return {
            model.__name__: db.session.scalar(select(func.count()).select_from(model)) or 0
            for model in (Game, Seat, Round, Hand, Player, GameEvent, HouseRules)
        }


NUL = "A\x00nn"
HUGE = str(2**64)


def test_nul_bytes_and_huge_integers_are_refused_not_crashed(
    app: Flask, client: FlaskClient
) -> None:
    """Form fields and query arguments lose their NULs (a name typed "A\\x00nn" is Ann); a
    game file holding one is refused; ids past the columns' range are 404, never a 500."""
    seeds = seeded(app, client)
    cases: list[tuple[str, dict[str, Any]]] = [
        (
            "/games/new",
            {
                "rules": "twelve-step",
                "players-0": NUL,
                "players-1": "Ben",
                "players-2": "Cy",
                "first_dealer": "0",
                "start": "y",
            },
        ),
        (
            "/games/new",
            {
                "rules": "twelve-step\x00",
                "players-0": "Ann",
                "players-1": "Ben",
                "players-2": "Cy",
                "first_dealer": HUGE,
                "start": "y",
            },
        ),
        (f"/players/{seeds.players[-1]}/rename", {"name": NUL}),
        (f"/players/{seeds.players[-1]}/merge", {"other": HUGE, "confirm": "y"}),
        ("/rules/new", {"name": NUL, "base": "twelve-step"}),
        (
            f"/games/{seeds.playing}/rounds/new",
            {
                "went_out": "0",
                "number": HUGE,
                "token": "t\x00",
                "save": "y",
                "hands-1-cards": "K\x00",
            },
        ),
        (f"/games/{seeds.playing}/rounds/1/edit", {"went_out": "0", "version": HUGE, "save": "y"}),
        (f"/games/{seeds.playing}/may-i", {"seat": HUGE}),
    ]
    for url, form in cases:
        response = client.post(url, data=form)
        check(response, f"POST {url} {form!r}")
    with app.app_context():
        names = db.session.scalars(select(Player.name)).all()
    assert "Ann" in names
    assert not [name for name in names if "\x00" in name]
    before = _count(app)
    with app.app_context():
        # The seeded restore ends: a household reads one backup at a time.
        db.session.execute(update(RestoreJob).values(status="done"))
        db.session.commit()
    documents = [
        game_document("twelve-step", [NUL, "Ben", "Cy"], []),
        game_document("twelve-step", ["Ann", "Ben", "Cy"], [], first_dealer=2**64),
        game_document("twelve-step", ["Ann", "Ben", "Cy"], [], started="2025-01-01T00:00:00\x00"),
        game_document({"base": "twelve-step", "name": "Gran\x00"}, ["Ann", "Ben", "Cy"], []),
    ]
    for document in documents:
        raw = json.dumps(document).encode()
        response = client.post("/games/import", data={"file": (io.BytesIO(raw), "g.json")})
        check(response, f"import {document!r}")
        assert response.status_code == 422, response.get_data(as_text=True)
        response = client.post(
            "/history/backup",
            data={"file": (io.BytesIO(raw), "b.jsonl")},
            follow_redirects=True,
        )
        check(response, f"restore {document!r}")
        assert "refused 1 line" in response.get_data(as_text=True)
    for query in ({"player": HUGE}, {"rules": "x\x00"}, {"page": HUGE}, {"since": "\x00"}):
        check(client.get("/history", query_string=query), f"history {query!r}")
    for query in ({"game": HUGE}, {"rules": "x\x00"}, {"game": "-1"}, {"players": HUGE}):
        check(client.get("/referee", query_string=query), f"referee {query!r}")
    for path in (f"/games/{2**63}", f"/games/{2**64}", f"/players/{2**63}", "/rules/a%00b"):
        response = client.get(path)
        check(response, path)
        assert response.status_code == 404
    assert _count(app) == before, "a refused request stored something"


# --- names holding HTML are shown as text -----------------------------------------------------


def _shows_escaped(body: str, where: str) -> None:
    for raw in (SCRIPT, IMG, RULES_NAME):
        assert raw not in body, f"{where}: {raw} unescaped"


def test_html_in_names_is_shown_as_text(app: Flask, client: FlaskClient) -> None:
    seeds = seeded(app, client)
    with app.app_context():
        ids = {
            name: db.session.scalar(select(Player.id).where(Player.name == name))
            for name in HOSTILE_NAMES
        }
    pages = {
        f"/games/{seeds.playing}": (SCRIPT, IMG, RULES_NAME),
        f"/games/{seeds.playing}/rounds/new": (SCRIPT, IMG),
        f"/games/{seeds.playing}/rounds/1/edit": (SCRIPT, IMG),
        f"/games/{seeds.finished}": (SCRIPT, IMG),
        "/": (SCRIPT, IMG),
        "/history": (SCRIPT, IMG, RULES_NAME),
        "/players": (SCRIPT, IMG),
        f"/players/{ids[SCRIPT]}": (SCRIPT, IMG),
        f"/players/{ids[IMG]}": (SCRIPT, IMG),
        "/records": (SCRIPT,),
        f"/referee?rules={seeds.rules}&game={seeds.playing}": (RULES_NAME,),
        "/rules": (RULES_NAME,),
        f"/rules/{seeds.rules}": (RULES_NAME,),
        f"/rules/{seeds.rules}/edit": (RULES_NAME,),
        f"/rules/{seeds.rules}/delete": (RULES_NAME,),
        "/games/new": (RULES_NAME, SCRIPT, IMG),
    }
    for url, shown in pages.items():
        for headers in ({}, {"HX-Request": "true"}):
            response = client.get(url, headers=headers)
            assert response.status_code == 200, url
            body = response.get_data(as_text=True)
            _shows_escaped(body, url)
            if not headers:
                for name in shown:
                    assert str(escape(name)) in body, f"{url}: {name} not shown escaped"
    # The charts of a game: the SVG and its table.
    body = client.get(f"/games/{seeds.finished}").get_data(as_text=True)
    assert "<svg" in body
    svg = body[body.index("<svg") :]
    assert str(escape(SCRIPT)) in svg or str(escape(IMG)) in svg
    # A refused form shows what was typed, escaped.
    response = client.post(f"/players/{ids[IMG]}/rename", data={"name": SCRIPT})
    _shows_escaped(response.get_data(as_text=True), "rename refused")
    # Exports: JSON is served as JSON (never as a page), the CSV as CSV.
    for url, mimetype in (
        (f"/games/{seeds.finished}/export", "application/json"),
        ("/history/backup/games.jsonl", "application/x-ndjson"),
        ("/history/rounds.csv", "text/csv"),
    ):
        response = client.get(url)
        response.get_data()
        response.close()
        assert response.mimetype == mimetype, url
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert "attachment" in response.headers["Content-Disposition"]
    # A game file with such names imports and shows them escaped.
    document = game_document(
        "twelve-step", [IMG, SCRIPT, "Zed"], twelve_step_to_the_end([IMG, SCRIPT, "Zed"])[:2]
    )
    response = client.post(
        "/games/import", data={"file": (io.BytesIO(json.dumps(document).encode()), "g.json")}
    )
    assert response.status_code == 302
    body = client.get(response.headers["Location"]).get_data(as_text=True)
    _shows_escaped(body, "imported game")
    assert str(escape(IMG)) in body


# --- the walker: every endpoint, every method, every part of a request -----------------------

FAR_DATES = [
    "9999-12-31",
    "0001-01-01",
    "0000-01-01",
    "-0001-01-01",
    "10000-01-01",
    "2025-02-30",
    "2025-13-01",
    "99999999-01-01",
    "9999-12-31T23:00:00-05:00",
    "0001-01-01T00:00:00+01:00",
    "1-1-1",
    "2025-01-01\x00",
]
CONTROL = ["\x01\x07\x1b[31m", "\x7f", "\x1f\x1e", "a\u2028b", "\ud7ff", "\U0010ffff" * 3]
WALK_VALUE = st.one_of(
    VALUES,
    st.sampled_from(FAR_DATES + CONTROL),
    st.dates().map(str),
)
# The query names the pages read, wherever they are read (unknown ones must be ignored).
QUERY_NAMES = [
    "page",
    "v",
    "base",
    "rules",
    "game",
    "player",
    "players",
    "mode",
    "since",
    "until",
    "status",
    "cards",
    "meld",
    "melds",
    "contract",
    "card",
    "own",
    "seat",
]


@pytest.fixture
def visitor(app: Flask) -> FlaskClient:
    """The client the walker sends everything with: signed in as an owner, so that it reaches
    every page (what each role may reach is tests/test_access.py's)."""
    return signed_in(app, "walker")


def _path_values(seeds: Seeds) -> dict[str, list[str]]:
    """Real values for each path argument, so that a request gets past the lookup."""
    return {
        "game_id": [str(g) for g in (seeds.playing, seeds.finished, seeds.abandoned, seeds.spare)],
        "number": ["1", "2", "12"],
        "player_id": [str(p) for p in seeds.players],
        "slug": [seeds.rules, "twelve-step"],
        "filename": ["css/app.css", "vendor/htmx.min.js", "../config.py", "css/"],
        "user_id": [str(seeds.member)],
        "link_id": [str(seeds.link)],
        "house_rules_id": ["1"],
        "token": [*seeds.tokens.values(), "x" * 43],
        "job_id": [str(seeds.restore_job)],
        "backup_name": [seeds.kept_backup, "2026-01-01.jsonl.tmp", ".lock"],
        "year": ["2026", "1", "9999", "10000", "99999999999999999999"],
    }


def _page_of(endpoint: str, url: str, seeds: Seeds) -> str:
    return FORM_PAGES[endpoint](seeds, url) if endpoint in FORM_PAGES else url


def _stale_token(app: Flask) -> str:
    """A real CSRF token, but of another browser's session: it must be refused here."""
    app.config["WTF_CSRF_ENABLED"] = True
    try:
        other = app.test_client()
        page = other.get("/login").get_data(as_text=True)
    finally:
        app.config["WTF_CSRF_ENABLED"] = False
    match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    assert match, "no CSRF token on /login"
    return match.group(1)


def test_the_walker_reaches_every_endpoint_and_method(app: Flask) -> None:
    """Every endpoint and every method it accepts is among what the walker draws from."""
    drawn = {
        (rule.endpoint, method)
        for rule in app.url_map.iter_rules()
        for method in rule.methods or ()
    }
    listed = {
        (endpoint, method) for endpoint, methods in _all_methods(app).items() for method in methods
    }
    assert drawn == listed
    for rule in app.url_map.iter_rules():
        seeds = Seeds(1, 2, 3, 4, "r", (1,), 1, 1, {"table": "t"}, 5, 6)
        assert set(rule.arguments) <= set(_path_values(seeds)), rule


def _all_methods(app: Flask) -> dict[str, set[str]]:
    methods: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        methods.setdefault(rule.endpoint, set()).update(rule.methods or set())
    return methods


@budget(250)
@given(data=st.data())
def test_walk_every_endpoint_with_every_method_and_hostile_values(
    app: Flask, visitor: FlaskClient, data: st.DataObject
) -> None:
    """Any rule of ``app.url_map``, any method it takes (HEAD and OPTIONS too), each path part
    a real value or a hostile one, random query arguments and form fields (real names and
    others, repeated keys, a file where text is expected), with CSRF off, or on with no token
    or another session's token: never a 500."""
    seeds = seeded(app, visitor)
    rules = sorted(
        app.url_map.iter_rules(), key=lambda rule: (rule.rule, sorted(rule.methods or ()))
    )
    rule = data.draw(st.sampled_from(rules), label="rule")
    method = data.draw(st.sampled_from(sorted(rule.methods or ())), label="method")
    real = _path_values(seeds)
    path = rule.rule
    for name in sorted(rule.arguments):
        value = data.draw(
            st.one_of(
                st.sampled_from(real[name]),
                st.sampled_from(PATH_IDS),
                WALK_VALUE.filter(lambda t: "/" not in t and t not in ("", ".", "..")),
            ),
            label=name,
        )
        path = re.sub(
            rf"<[^>]*\b{name}>", quote(value, safe="%/" if name == "filename" else "%"), path
        )
    real_url = rule.rule
    for name in rule.arguments:
        real_url = re.sub(rf"<[^>]*\b{name}>", real[name][0], real_url)
    names: list[str] = []
    if rule.endpoint != "static":
        page = _page_of(rule.endpoint, real_url, seeds)
        names = (
            field_names(app, visitor, page)
            if "GET" in _all_methods(app)[rule.endpoint] or rule.endpoint in FORM_PAGES
            else []
        )
    query = data.draw(
        st.one_of(st.just({}), form_data(sorted({*names, *QUERY_NAMES}))), label="query"
    )
    form: dict[str, Any] = {}
    if method in ("POST", "PUT", "PATCH", "DELETE"):
        form = data.draw(form_data([*names, "save", "confirm"]), label="form")
        if names and data.draw(st.booleans(), label="a file where text goes"):
            form[data.draw(st.sampled_from(names))] = (io.BytesIO(b"K Q\x00\xff"), "x.txt")
    csrf = data.draw(st.sampled_from(["off", "none", "stale"]), label="csrf")
    if csrf == "stale":
        form["csrf_token"] = _stale_token(app)
    headers = {"HX-Request": "true"} if data.draw(st.booleans(), label="htmx") else {}
    app.config["WTF_CSRF_ENABLED"] = csrf != "off"
    try:
        response = visitor.open(
            path, method=method, query_string=query, data=form or None, headers=headers
        )
        what = f"{method} {path} {query!r} {form!r} csrf={csrf}"
        if method in ("HEAD", "OPTIONS"):
            # No body by definition: only the status can be judged.
            assert response.status_code < 500, f"{what}: {response.status_code}"
        else:
            check(response, what)
        if csrf != "off" and method == "POST" and rule.endpoint != "static":
            # No state change gets past without a token of this session.
            assert response.status_code >= 400, f"{what}: {response.status_code}"
    finally:
        app.config["WTF_CSRF_ENABLED"] = False
    assert_whole(app)


@pytest.mark.parametrize(
    "query",
    [
        {"until": "9999-12-31"},
        {"since": "9999-12-31"},
        {"since": "0001-01-01", "until": "9999-12-31"},
        {"until": "0001-01-01"},
        {"since": "0000-01-01"},
        {"until": "10000-01-01"},
    ],
)
def test_far_dates_in_the_history_filter(
    app: Flask, client: FlaskClient, query: dict[str, str]
) -> None:
    response = client.get("/history", query_string=query)
    check(response, f"/history {query}")
    assert response.status_code in (200, 422)


@pytest.mark.parametrize(
    "started",
    [
        "9999-12-31T23:00:00-05:00",
        "0001-01-01T00:00:00+01:00",
        "9999-12-31T23:59:59",
        "2199-12-31T18:59:59-05:00",  # the last second a game may start, in UTC
        "1900-01-01T01:00:00+01:00",  # the first
    ],
)
def test_far_start_times_in_a_game_file(app: Flask, client: FlaskClient, started: str) -> None:
    """A time whose UTC instant falls outside the years a game may start in (1900 to 2199,
    ``limits``) is refused by name; one inside is stored, and every page showing it answers."""
    document = game_document("twelve-step", ["Ann", "Ben", "Cy"], [], started=started)
    raw = json.dumps(document).encode()
    response = client.post("/games/import", data={"file": (io.BytesIO(raw), "g.json")})
    check(response, f"import started={started}")
    if response.status_code == 422:
        assert f"outside the years {EARLIEST_YEAR} to {LATEST_YEAR}" in response.get_data(
            as_text=True
        )
        return
    assert response.status_code == 302
    location = response.headers["Location"]
    for url in (
        location,
        f"{location}/export",
        "/history",
        "/history/rounds.csv",
        "/players",
        "/",
        "/history/backup/games.jsonl",
    ):
        answer = client.get(url)
        check(answer, url)
        assert answer.status_code == 200, url
