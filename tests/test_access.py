"""Who may do what (``shared/spec/access.md``): the role table walked over every endpoint of
``app.url_map``, for a stranger, each role, another household, a table link, a watch link and
a review link (which lets nobody in: its phone is a stranger but for the link's own pages);
then sign-in, sessions, throttling, first-run setup, hosts, cookies, files, names, links and
the command line.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import stat
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import create_app, house_rules, scope
from scorekeeper.access import LINK_PERMISSIONS, LINK_REACHES, Permission, declared
from scorekeeper.accounts import links
from scorekeeper.extensions import db
from scorekeeper.games.transfer import import_game
from scorekeeper.models import (
    Game,
    GameEvent,
    HouseRules,
    Link,
    LinkKind,
    Player,
    Role,
    Round,
    User,
    UserSession,
)

from . import conftest
from .conftest import PASSWORD, add_member, family_id, household_id, sign_in, signed_in
from .helpers import game_document, save_round, start_game, twelve_step_to_the_end

# --- the spec's table, written out here on its own (not read from the code) -------------------

# Who may, for what each view declares. "table" and "watch" hold for their own game only;
# "review" is a phone that opened a review link (one year in review, read-only, at the link's
# own address): the spec's link columns do not name it, and it may do what a stranger may.
SPEC: dict[Permission, set[str]] = {
    Permission.PUBLIC: {
        "stranger",
        "owner",
        "scorer",
        "viewer",
        "other",
        "table",
        "watch",
        "review",
    },
    Permission.SIGNED_IN: {"owner", "scorer", "viewer", "other"},
    Permission.VIEW: {"owner", "scorer", "viewer", "other", "table", "watch"},
    Permission.SCORE: {"owner", "scorer", "other", "table"},
    Permission.EDIT_RULES: {"owner", "scorer", "other"},
    Permission.MANAGE: {"owner", "other"},
    Permission.BACKUP_DOWNLOAD: {"owner", "scorer", "other"},
    Permission.BACKUP_RESTORE: {"owner", "other"},
    Permission.LINKS: {"owner", "scorer", "other"},
    Permission.MEMBERS: {"owner", "other"},
    Permission.SETTINGS: {"owner", "other"},
    Permission.ADMIN: {"owner"},  # the server's first account is the family owner here
}
WHO = ("stranger", "review", "viewer", "watch", "table", "other", "scorer", "owner")
# The year of the review link (the world's games are played now; any year would do).
YEAR = 2026


@dataclass
class World:
    """One server: the household Family (a game in progress with two rounds, a finished one,
    house rules, a spare member and a spare link) and the household Others (its owner)."""

    app: Flask
    playing: int
    finished: int
    player: int
    member: int
    spare_link: int
    rules: str
    tokens: dict[str, str]
    spare_game: int  # what the owner's "delete a game" throws in the bin


def _make_world(uri: str, instance: Path) -> World:
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = str(instance)
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": uri,
            "WTF_CSRF_ENABLED": False,
            "DAILY_BACKUPS": False,
            **conftest.FAST_PASSWORDS,
        }
    )
    add_member(app, "owner", "owner")
    for role in ("scorer", "viewer"):
        add_member(app, role, role)
    add_member(app, "spare", "viewer")
    add_member(app, "other", "owner", household="Others")
    owner = app.test_client()
    sign_in(app, owner, "owner")
    playing = start_game(owner, "twelve-step", ["Ann", "Ben", "Cy"])
    for _ in range(2):
        save_round(owner, playing, "Ann", {"Ben": "K", "Cy": "5"}, {"Ben"})
    tokens: dict[str, str] = {}
    with app.test_request_context(), scope.household(family_id(app)):
        house_rules.save("Gran", {"base": "twelve-step"})
        finished = import_game(
            game_document("twelve-step", ["Ann", "Ben", "Cy"], twelve_step_to_the_end())
        ).id
        game = db.session.get(Game, playing)
        for kind in (LinkKind.TABLE, LinkKind.WATCH):
            _, tokens[kind.value] = links.make_link(kind, "owner", game=game)
        spare_link = links.make_link(LinkKind.TABLE, "owner", game=game)[0].id
        _, tokens["review"] = links.make_link(LinkKind.REVIEW, "owner", year=YEAR)
        spare_game = import_game(game_document("contract-rummy", ["Ann", "Ben"], [])).id
        _, tokens["invite"] = links.make_link(LinkKind.INVITE, "owner", role=Role.VIEWER)
        player = db.session.scalar(select(Player.id).where(Player.name == "Ann"))
        member = db.session.scalar(select(User.id).where(User.username == "spare"))
        slug = db.session.scalar(select(HouseRules.slug))
        db.session.remove()
    assert slug is not None and player is not None and member is not None
    return World(app, playing, finished, player, member, spare_link, slug, tokens, spare_game)


@pytest.fixture(scope="module", params=conftest.BACKENDS)
def world(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[World]:
    folder = tmp_path_factory.mktemp("world")
    saved = os.environ.get("SCOREKEEPER_INSTANCE_PATH")
    if request.param == "sqlite":
        uri = f"sqlite:///{folder / 'world.db'}"
    else:
        uri = request.getfixturevalue("kept_postgres_uri")
    made = _make_world(uri, folder / "instance")
    yield made
    with made.app.app_context():
        db.session.remove()
        db.engine.dispose()
    if request.param != "sqlite":
        conftest.empty_postgres(uri)
    if saved is None:
        os.environ.pop("SCOREKEEPER_INSTANCE_PATH", None)
    else:
        os.environ["SCOREKEEPER_INSTANCE_PATH"] = saved


def _client(world: World, who: str) -> FlaskClient:
    client = world.app.test_client()
    if who in ("owner", "scorer", "viewer", "other"):
        sign_in(world.app, client, who)
    elif who in ("table", "watch"):
        path = "/t/" if who == "table" else "/w/"
        # A table link leads to its game; a watch link shows its board at its own address.
        assert client.get(path + world.tokens[who]).status_code == (303 if who == "table" else 200)
    elif who == "review":
        # It shows its year at its own address, and keeps nothing in this browser.
        assert client.get("/y/" + world.tokens[who]).status_code == 200
        assert client.get_cookie("session") is None
    return client


def _address(world: World, endpoint: str, arguments: set[str]) -> str:
    """An address of ``endpoint`` built from the seeded ids of the household Family."""
    with world.app.test_request_context():
        from flask import url_for

        values: dict[str, Any] = {}
        for name in arguments:
            values[name] = {
                "game_id": world.spare_game if endpoint == "games.delete" else world.playing,
                "player_id": world.player,
                "user_id": world.member,
                "link_id": world.spare_link,
                "house_rules_id": 1,
                "number": 1,
                # No restore is seeded: a 404 for those let in, a refusal for the others.
                "job_id": 1,
                # No backup is kept: a 404 for those let in, a refusal for the others.
                "backup_name": "2025-01-01.jsonl",
                "slug": world.rules,
                "filename": "css/app.css",
                "token": world.tokens.get(
                    {
                        "accounts.table_link": "table",
                        "accounts.watch_link": "watch",
                        "accounts.watch_card": "watch",
                        "history.review_link": "review",
                        "history.review_link_card": "review",
                        "accounts.watch_result": "watch",
                    }.get(endpoint, "invite"),
                    "",
                ),
                "year": YEAR,
            }[name]
        return url_for(endpoint, **values)


def _fingerprint(world: World) -> tuple[Any, ...]:
    """What a refused request must leave as it was."""
    with world.app.app_context():
        counts = tuple(
            db.session.scalar(select(func.count()).select_from(model))
            for model in (Game, Round, Player, HouseRules, User, UserSession, Link, GameEvent)
        )
        versions = tuple(db.session.execute(select(Game.id, Game.version, Game.status)).all())
        roles = tuple(db.session.execute(select(User.id, User.role)).all())
        db.session.remove()
    return (*counts, versions, roles)


def _cases() -> list[tuple[str, str, str]]:
    """(who, endpoint, method) for every rule of the URL map (an app made just to read it)."""
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": "sqlite://",
            "AUTO_MIGRATE": False,
            "SECRET_KEY": "x",
        }
    )
    rules = sorted(
        {(r.endpoint, m) for r in app.url_map.iter_rules() for m in r.methods or ()}
        - {(e, m) for e in ("static",) for m in ("POST",)}
    )
    return [
        (who, endpoint, method)
        for who in WHO
        for endpoint, method in rules
        if method in ("GET", "POST")
    ]


def test_every_endpoint_declares_who_may_call_it() -> None:
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": "sqlite://",
            "AUTO_MIGRATE": False,
            "SECRET_KEY": "x",
        }
    )
    undeclared = [
        rule.endpoint for rule in app.url_map.iter_rules() if declared(app, rule.endpoint) is None
    ]
    assert undeclared == []


def test_a_view_without_a_declaration_is_refused(app: Flask) -> None:
    @app.get("/test-only/forgotten")
    def forgotten() -> str:
        return "secret"

    client = signed_in(app, "ann")
    assert client.get("/test-only/forgotten").status_code == 403


@pytest.mark.parametrize(("who", "endpoint", "method"), _cases())
def test_the_role_table(world: World, who: str, endpoint: str, method: str) -> None:
    app = world.app
    rule = next(r for r in app.url_map.iter_rules() if r.endpoint == endpoint)
    access = declared(app, endpoint)
    assert access is not None
    url = _address(world, endpoint, set(rule.arguments))
    allowed = who in SPEC[access.permission]
    if who in ("table", "watch"):
        # A link reaches the pages listed for its kind, and nothing else whatever the
        # arguments: here, a page not listed is asked about the link's own game.
        allowed = allowed and endpoint in LINK_REACHES[LinkKind(who)]
        if not allowed:
            url += ("&" if "?" in url else "?") + f"game={world.playing}"
    client = _client(world, who)
    before = _fingerprint(world) if method == "POST" and not allowed else None
    response = client.open(url, method=method, data={})
    status = response.status_code
    location = response.headers.get("Location", "")
    refused_to_sign_in = status in (302, 303) and "/login" in location
    if allowed:
        # (A wrong sign-in is a 401 by the spec, and signing out leads to the sign-in page.)
        if endpoint == "accounts.login":
            assert status != 403 and not refused_to_sign_in, (status, location)
        elif endpoint == "accounts.logout":
            assert status == 303, status
        else:
            assert status not in (401, 403) and not refused_to_sign_in, (status, location)
        return
    if who in ("stranger", "review"):
        assert refused_to_sign_in, (status, location)
    elif who in ("table", "watch"):
        assert status in (403, 404) or (
            method == "GET" and status == 302 and f"/games/{world.playing}" in location
        ), (status, location)
    else:
        assert status == 403, status
        assert "does not allow" in response.get_data(as_text=True)
    if before is not None:
        assert _fingerprint(world) == before


def test_htmx_without_a_session_gets_401_and_a_redirect_to_sign_in(world: World) -> None:
    answer = world.app.test_client().get("/history", headers={"HX-Request": "true"})
    assert answer.status_code == 401
    assert answer.headers["HX-Redirect"].startswith("/login")


def test_another_households_ids_answer_404_like_ids_that_do_not_exist(world: World) -> None:
    other = _client(world, "other")
    for endpoint in sorted({r.endpoint for r in world.app.url_map.iter_rules()}):
        rule = next(r for r in world.app.url_map.iter_rules() if r.endpoint == endpoint)
        ids = set(rule.arguments) & {"game_id", "player_id", "user_id", "link_id", "slug"}
        if not ids or (endpoint.startswith("rules.") and "slug" in ids and world.rules == ""):
            continue
        url = _address(world, endpoint, set(rule.arguments))
        method = "GET" if "GET" in (rule.methods or ()) else "POST"
        before = _fingerprint(world)
        assert other.open(url, method=method, data={}).status_code == 404, url
        assert _fingerprint(world) == before
    # Their own pages show nothing of the Family's.
    for page in ("/", "/history", "/players", "/records", "/rules", "/history/rounds.csv"):
        text = other.get(page).get_data(as_text=True)
        assert "Ann" not in text and "Gran" not in text, page
    backup = other.get("/history/backup/games.jsonl").get_data(as_text=True)
    assert backup.strip() == ""


def test_a_watch_link_sees_the_board_and_nothing_to_change(world: World) -> None:
    watcher = _client(world, "watch")
    page = watcher.get(f"/games/{world.playing}").get_data(as_text=True)
    assert "Ann" in page and "Standings" in page
    assert "Enter round" not in page and "Abandon" not in page and "May I" not in page
    assert 'method="post"' not in page
    assert watcher.get(f"/referee?game={world.playing}").status_code == 404


def test_what_a_link_reaches_is_listed_within_the_spec() -> None:
    """The lists name pages that exist, a watch link reaches less than a table link, and
    neither reaches a page whose declaration the spec's link columns do not grant."""
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": "sqlite://",
            "AUTO_MIGRATE": False,
            "SECRET_KEY": "x",
        }
    )
    endpoints = {rule.endpoint for rule in app.url_map.iter_rules()}
    table, watch = LINK_REACHES[LinkKind.TABLE], LINK_REACHES[LinkKind.WATCH]
    assert table <= endpoints and watch <= table
    for kind, reached in (("table", table), ("watch", watch)):
        for endpoint in reached:
            access = declared(app, endpoint)
            assert access is not None and kind in SPEC[access.permission], endpoint


def test_a_review_link_lets_no_phone_in() -> None:
    """A review link is looked up at its own address each time: no session holds one, so no
    page's list names it and it is granted nothing."""
    assert LinkKind.REVIEW not in LINK_REACHES
    assert LinkKind.REVIEW not in LINK_PERMISSIONS


def test_a_review_link_opens_its_own_year_of_its_own_household_only(world: World) -> None:
    phone = _client(world, "review")
    page = phone.get("/y/" + world.tokens["review"]).get_data(as_text=True)
    assert f"Family: {YEAR} in review" in page
    # Nothing else of the Family's: not another year, not the history, not a game.
    for path in (
        f"/review/{YEAR}",
        f"/review/{YEAR - 1}",
        f"/review/{YEAR}/card.png",
        "/history",
        "/seasons",
        f"/games/{world.playing}",
        f"/games/{world.finished}/card.png",
    ):
        answer = phone.get(path)
        assert answer.status_code == 302 and "/login" in answer.headers["Location"], path
    # Another household's review link shows theirs, and nothing of the Family's.
    with world.app.test_request_context(), scope.household(household_id(world.app, "Others")):
        _, theirs = links.make_link(LinkKind.REVIEW, "other", year=YEAR)
        db.session.remove()
    other = phone.get(f"/y/{theirs}").get_data(as_text=True)
    assert f"Others: {YEAR} in review" in other
    assert "Ann" not in other and "Family" not in other
    assert phone.get(f"/y/{theirs}/card.png").status_code == 200
    # The Family's members see only their own year's links, never the Others'.
    owner = _client(world, "owner")
    assert theirs not in owner.get(f"/review/{YEAR}").get_data(as_text=True)


def test_a_table_link_reaches_nothing_else_of_the_household(world: World) -> None:
    """The pages of the household's, asked about the link's own game, show none of it, and a
    new game made through them is not made."""
    phone = _client(world, "table")
    game = f"?game={world.playing}"
    for page in ("/history", "/players", "/records", "/history/rounds.csv", "/games/new", "/"):
        answer = phone.get(page + game)
        assert answer.status_code == 302, page
        assert answer.headers["Location"] == f"/games/{world.playing}", page
        assert phone.get(page + game, headers={"HX-Request": "true"}).status_code == 403, page
    before = _fingerprint(world)
    form = {"rules": "twelve-step", "players-0": "Zed", "players-1": "Yan", "first_dealer": "0"}
    assert phone.post("/games/new" + game, data={**form, "start": "1"}).status_code == 403
    document = json.dumps(game_document("contract-rummy", ["Zed", "Yan"], []))
    upload = {"file": (io.BytesIO(document.encode()), "game.json")}
    assert phone.post("/games/import" + game, data=upload).status_code == 403
    assert _fingerprint(world) == before


@pytest.mark.parametrize("kind", [LinkKind.TABLE, LinkKind.WATCH])
def test_a_link_is_shown_the_presets_only(app: Flask, kind: LinkKind) -> None:
    owner = signed_in(app, "nan", household="Nans")
    game_id = start_game(owner, "twelve-step", ["Ann", "Ben"])
    with app.test_request_context(), scope.household(household_id(app, "Nans")):
        slug = house_rules.save("Nana Rules", {"base": "twelve-step"}).slug
        _, token = links.make_link(kind, "nan", game=db.session.get(Game, game_id))
        db.session.remove()
    assert "Nana Rules" in owner.get("/rules").text
    assert owner.get(f"/referee?rules={slug}").status_code == 200
    phone = app.test_client()
    phone.get(f"/{kind.value[0]}/{token}")
    listed = phone.get("/rules")
    assert listed.status_code == 200 and "Nana Rules" not in listed.text
    assert phone.get(f"/rules/{slug}").status_code == 404
    refused = phone.get(f"/referee?rules={slug}")
    assert refused.status_code == 404 and "Nana Rules" not in refused.text
    assert phone.get("/referee?rules=twelve-step&cards=7H+7S+7C").status_code == 200
    # The table rules under its game's own rules; the watchers have no table.
    under_game = phone.get(f"/referee?game={game_id}")
    assert under_game.status_code == (200 if kind is LinkKind.TABLE else 404)


# --- sign-in and sessions -----------------------------------------------------------------------


def test_wrong_password_and_unknown_user_get_the_same_answer(app: Flask) -> None:
    add_member(app, "ann")
    client = app.test_client()
    wrong = client.post("/login", data={"username": "ann", "password": "not it at all"})
    unknown = client.post("/login", data={"username": "nobody", "password": "not it at all"})
    assert wrong.status_code == unknown.status_code == 401

    def message(answer: Any) -> str:
        found = re.search(
            r'<div class="errors"[^>]*>(.*?)</div>', answer.get_data(as_text=True), re.S
        )
        assert found
        return found.group(1)

    assert message(wrong) == message(unknown)
    assert "do not match" in message(wrong)


def test_login_form_fields_are_the_specs(app: Flask) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    add_member(app, "ann")
    page = app.test_client().get("/login").get_data(as_text=True)
    for name in ("username", "password", "csrf_token"):
        assert f'name="{name}"' in page


def test_the_session_id_changes_at_sign_in_and_sign_out_ends_it(app: Flask) -> None:
    add_member(app, "ann")
    client = app.test_client()
    client.get("/login")
    before = client.get_cookie("session")
    sign_in(app, client, "ann")
    after = client.get_cookie("session")
    assert after is not None and (before is None or before.value != after.value)
    assert client.get("/history").status_code == 200
    stolen = after.value
    assert client.post("/logout").status_code == 303
    assert client.get("/history").status_code == 302
    # The cookie as it was before signing out opens nothing either.
    replay = app.test_client()
    replay.set_cookie("session", stolen)
    assert replay.get("/history").status_code == 302


def test_a_password_change_ends_the_other_sessions(app: Flask) -> None:
    add_member(app, "ann")
    phone, laptop = app.test_client(), app.test_client()
    sign_in(app, phone, "ann")
    sign_in(app, laptop, "ann")
    answer = phone.post(
        "/account",
        data={"current": PASSWORD, "password": "a new one here", "confirm": "a new one here"},
    )
    assert answer.status_code == 303
    assert phone.get("/history").status_code == 200
    assert laptop.get("/history").status_code == 302


def test_sessions_end_30_days_after_last_use(app: Flask) -> None:
    from datetime import timedelta

    client = signed_in(app, "ann")
    with app.app_context():
        for held in db.session.scalars(select(UserSession)):
            held.last_seen -= timedelta(days=31)
        db.session.commit()
    assert client.get("/history").status_code == 302
    assert app.permanent_session_lifetime == timedelta(days=30)


def test_login_is_throttled_after_10_failures_for_one_username(app: Flask) -> None:
    add_member(app, "ann")
    client = app.test_client()
    for _ in range(10):
        assert (
            client.post("/login", data={"username": "ann", "password": "x" * 8}).status_code == 401
        )
    refused = client.post("/login", data={"username": "ann", "password": PASSWORD})
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    # Another username from the same address is not held back yet.
    add_member(app, "ben")
    assert client.post("/login", data={"username": "ben", "password": PASSWORD}).status_code == 303


def test_login_is_throttled_after_30_failures_from_one_address(app: Flask) -> None:
    client = app.test_client()
    add_member(app, "ann")
    for number in range(30):
        client.post("/login", data={"username": f"guess{number}", "password": "x" * 8})
    refused = client.post("/login", data={"username": "ann", "password": PASSWORD})
    assert refused.status_code == 429 and "Retry-After" in refused.headers


def test_next_never_leads_off_the_server(app: Flask) -> None:
    add_member(app, "ann")
    client = app.test_client()
    for target in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
        answer = client.post(
            "/login", query_string={"next": target}, data={"username": "ann", "password": PASSWORD}
        )
        assert answer.headers["Location"] == "/"


# --- first run --------------------------------------------------------------------------------


@pytest.fixture
def fresh(database_uri: str, instance_path: Path) -> Flask:
    """A server with no account yet."""
    return create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_uri,
            "WTF_CSRF_ENABLED": False,
            **conftest.FAST_PASSWORDS,
        }
    )


SETUP = {"household": "Smiths", "username": "ann", "password": PASSWORD, "confirm": PASSWORD}


def test_a_new_server_sends_everyone_to_setup(fresh: Flask) -> None:
    client = fresh.test_client()
    for page in ("/", "/history", "/login", "/rules"):
        answer = client.get(page)
        assert answer.status_code == 302 and answer.headers["Location"] == "/setup"


def test_the_service_worker_and_manifest_answer_before_setup(fresh: Flask) -> None:
    """A browser asks for them on its own, and refuses a worker's script behind a redirect."""
    client = fresh.test_client()
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    manifest = client.get("/manifest.webmanifest")
    assert manifest.status_code == 200 and manifest.json["name"] == "Scorekeeper"  # type: ignore[index]


def test_setup_asks_a_visitor_from_elsewhere_for_the_code(
    fresh: Flask, instance_path: Path
) -> None:
    code_file = instance_path / "setup_code"
    assert stat.S_IMODE(code_file.stat().st_mode) == 0o600
    code = code_file.read_text().strip()
    away = {"REMOTE_ADDR": "192.0.2.7"}
    client = fresh.test_client()
    assert "Setup code" in client.get("/setup", environ_base=away).get_data(as_text=True)
    refused = client.post("/setup", data={**SETUP, "setup_code": "WRONG"}, environ_base=away)
    assert refused.status_code == 422 and "not the setup code" in refused.get_data(as_text=True)
    # Through an undeclared proxy, a request from loopback is not "the machine itself".
    proxied = client.post(
        "/setup",
        data=SETUP,
        headers={"X-Forwarded-For": "192.0.2.7"},
        environ_base={"REMOTE_ADDR": "127.0.0.1"},
    )
    assert proxied.status_code == 422
    with fresh.app_context():
        assert db.session.scalar(select(func.count(User.id))) == 0
    accepted = client.post("/setup", data={**SETUP, "setup_code": code.lower()}, environ_base=away)
    assert accepted.status_code == 303
    assert not code_file.exists()
    assert client.get("/history").status_code == 200
    assert fresh.test_client().get("/setup").status_code == 404


def test_setup_from_the_machine_itself_needs_no_code_and_adopts_older_games(fresh: Flask) -> None:
    with fresh.app_context():
        import_game(game_document("contract-rummy", ["Ann", "Ben"], []))
    client = fresh.test_client()
    page = client.get("/setup").get_data(as_text=True)
    assert "Setup code" not in page and "move into it" in page
    assert client.post("/setup", data=SETUP).status_code == 303
    assert "Ann" in client.get("/").get_data(as_text=True)
    with fresh.app_context():
        user = db.session.scalar(select(User))
        assert user is not None and user.is_admin and user.role == "owner"
        assert {g.household_id for g in db.session.scalars(select(Game))} == {user.household_id}


def test_a_database_from_before_households_moves_into_one_with_no_members(app: Flask) -> None:
    import flask_migrate

    from .test_migrations import restart, without_export_time

    directory = app.extensions["migrate"].directory
    document = game_document("twelve-step", ["Ann", "Ben", "Cy"], twelve_step_to_the_end())
    with app.app_context():
        game = import_game(document)
        game_id, events = game.id, len(game.events)
        from scorekeeper.games.transfer import export_game

        before = without_export_time(export_game(game))
        db.session.remove()
        flask_migrate.downgrade(directory=directory, revision="0002")
    upgraded = restart(app)
    with upgraded.app_context():
        from scorekeeper.games.transfer import export_game
        from scorekeeper.models import Household

        households = db.session.scalars(select(Household)).all()
        assert [h.name for h in households] == ["Family"]
        assert db.session.scalar(select(func.count(User.id))) == 0
        moved = db.session.get(Game, game_id)
        assert moved is not None and moved.household_id == households[0].id
        assert len(moved.events) == events and moved.uid
        after = without_export_time(export_game(moved))
        after.pop("uid", None)
        db.session.remove()
        db.engine.dispose()
    assert after == before


# --- hosts, cookies, files, names -------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "status"),
    [
        ("localhost", 200),
        ("localhost:5000", 200),
        ("127.0.0.1:8000", 200),
        ("[::1]:8000", 200),
        ("192.168.1.20", 200),
        ("cards.example.org", 200),
        ("evil.example", 400),
        ("cards.example.org.evil.example", 400),
    ],
)
def test_unknown_hosts_are_refused(app: Flask, host: str, status: int) -> None:
    app.config["EXTRA_HOSTS"] = ["cards.example.org"]
    add_member(app, "ann")
    assert app.test_client().get("/rules", headers={"Host": host}).status_code == status


def test_behind_a_tls_proxy_cookies_are_secure(database_uri: str, instance_path: Path) -> None:
    proxied = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_uri,
            "PROXY_COUNT": 1,
            "WTF_CSRF_ENABLED": False,
            **conftest.FAST_PASSWORDS,
        }
    )
    add_member(proxied, "ann")
    answer = proxied.test_client().post(
        "/login",
        data={"username": "ann", "password": PASSWORD},
        headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.5"},
    )
    cookie = answer.headers["Set-Cookie"]
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_database_and_secrets_are_readable_by_their_owner_only(
    app: Flask, instance_path: Path
) -> None:
    client = signed_in(app, "ann")
    start_game(client, "twelve-step", ["Ann", "Ben"])
    files = [instance_path / "secret_key"]
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    if uri.startswith("sqlite:///"):
        database = Path(uri.removeprefix("sqlite:///"))
        files += [
            p
            for p in (
                database,
                database.with_name(database.name + "-wal"),
                database.with_name(database.name + "-shm"),
            )
            if p.exists()
        ]
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_a_new_sqlite_database_is_private_from_the_start(
    tmp_path: Path, instance_path: Path
) -> None:
    database = tmp_path / "new.db"
    old = os.umask(0o022)
    try:
        create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"})
    finally:
        os.umask(old)
    for path in (database, database.with_name("new.db-wal"), database.with_name("new.db-shm")):
        if path.exists():
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("A\u200bnn", "Ann"),
        ("  Ann   Lee ", "Ann Lee"),
        ("\u202eAnn\u202c", "Ann"),
        ("Ｂｅｎ", "Ben"),
        ("Cy\u00a0Young", "Cy Young"),
        ("D\u0065\u0301e", "D\u00e9e"),
        ("Eve\x07", "Eve"),
    ],
)
def test_names_are_tidied_the_one_way(typed: str, stored: str) -> None:
    from scorekeeper.names import name_key, tidy_name

    assert tidy_name(typed) == stored
    assert name_key(typed) == stored.casefold()


def test_two_names_that_tidy_alike_are_one_player_and_refused_in_one_game(
    client: FlaskClient, app: Flask
) -> None:
    start_game(client, "twelve-step", ["Ann", "Ben"])
    form = {
        "rules": "twelve-step",
        "start": "1",
        "first_dealer": "0",
        "players-0": "A\u200bnn",
        "players-1": "Ann",
        "players-2": "Cy",
    }
    refused = client.post("/games/new", data=form)
    assert refused.status_code == 422 and "named twice" in refused.get_data(as_text=True)
    start_game(client, "twelve-step", ["A\u200bnn", "Cy"])
    with app.app_context():
        assert db.session.scalars(select(Player.name).order_by(Player.name)).all() == [
            "Ann",
            "Ben",
            "Cy",
        ]


def test_player_names_are_unique_per_household_only(app: Flask) -> None:
    ours = signed_in(app, "ann")
    theirs = signed_in(app, "zed", household="Others")
    start_game(ours, "twelve-step", ["Ann", "Ben"])
    start_game(theirs, "twelve-step", ["Ann", "Ben"])
    with app.app_context():
        assert db.session.scalar(select(func.count(Player.id))) == 4


# --- links --------------------------------------------------------------------------------------


def test_a_table_link_scores_its_game_and_the_log_names_it(app: Flask) -> None:
    owner = signed_in(app, "ann")
    game_id = start_game(owner, "twelve-step", ["Ann", "Ben"])
    assert owner.post(f"/games/{game_id}/links", data={"kind": "table"}).status_code == 303
    page = owner.get(f"/games/{game_id}/links").get_data(as_text=True)
    qr = page[page.index("<svg") : page.index("</svg>")]
    assert "<path" in qr and "script" not in qr and "style=" not in qr
    url = re.search(r'value="(http://localhost/t/[^"]+)"', page)
    assert url
    phone = app.test_client()
    assert phone.get(url.group(1).removeprefix("http://localhost")).status_code == 303
    save_round(phone, game_id, "Ann", {"Ben": "K"}, set())
    board = owner.get(f"/games/{game_id}").get_data(as_text=True)
    assert "table link made by ann" in board
    # The phone sees that game, nothing else of the family's.
    assert phone.get("/history").status_code == 302  # back to its game
    other_game = start_game(owner, "twelve-step", ["Cy", "Dee"])
    assert phone.get(f"/games/{other_game}").status_code == 404


def test_a_qr_code_on_a_loopback_address_says_no_phone_can_open_it(app: Flask) -> None:
    """The README's first evening, before step 2: ``flask run`` on 127.0.0.1, whose links a
    phone would open on itself."""
    owner = signed_in(app, "ann")
    game_id = start_game(owner, "twelve-step", ["Ann", "Ben"])
    assert owner.post(f"/games/{game_id}/links", data={"kind": "table"}).status_code == 303
    warning = "No phone can open these links yet."
    page = owner.get(f"/games/{game_id}/links").get_data(as_text=True)
    assert warning in page and "They name localhost, which on a phone" in page
    assert "flask --app scorekeeper serve --host 0.0.0.0" in page
    app.config["PUBLIC_URL"] = "http://127.0.0.1:5000"
    page = owner.get(f"/games/{game_id}/links").get_data(as_text=True)
    assert warning in page and "They name 127.0.0.1:5000," in page
    app.config["PUBLIC_URL"] = "http://192.168.1.20:8000"
    page = owner.get(f"/games/{game_id}/links").get_data(as_text=True)
    assert 'value="http://192.168.1.20:8000/t/' in page
    assert warning not in page


def test_a_watch_link_pasted_in_a_chat_previews_the_result(app: Flask) -> None:
    owner = signed_in(app, "ann")
    game_id = start_game(owner, "twelve-step", ["Ann", "Ben"])
    save_round(owner, game_id, "Ann", {"Ben": "K Q"}, set())
    with app.test_request_context(), scope.household(family_id(app)):
        link, token = links.make_link(LinkKind.WATCH, "ann", game=db.session.get(Game, game_id))
        link_id = link.id
        db.session.remove()
    robot = app.test_client()  # a chat's preview robot: no session, no cookies kept
    page = robot.get(f"/w/{token}").get_data(as_text=True)
    image = re.search(r'property="og:image" content="http://localhost(/w/[^"]+/card.png)"', page)
    # The link's own address shows the live board (no forward to /games/<id>, which asks for
    # an account): sharing it on from the address bar passes on a link that works.
    assert image and 'http-equiv="refresh"' not in page and "Standings" in page and "Ann" in page
    watcher = app.test_client()
    opened = watcher.get(f"/w/{token}")
    assert opened.status_code == 200 and "Location" not in opened.headers
    assert watcher.get(f"/w/{token}").status_code == 200  # again, from the address bar
    card = app.test_client().get(image.group(1))
    assert card.status_code == 200 and card.mimetype == "image/png"
    assert card.data.startswith(b"\x89PNG")
    owner.post(f"/links/{link_id}/revoke")
    assert app.test_client().get(image.group(1)).status_code == 404
    assert app.test_client().get(f"/games/{game_id}/card.png").status_code == 302


def test_a_watch_links_pages_are_a_relatives_own(app: Flask) -> None:
    """Issue 23: the watch page, from the first visit, offers no "Sign in"; its result card's
    page is at the link's own address and leads back to it; asked again with its ETag (which
    never carries the token) it answers 304 until the game changes."""
    owner = signed_in(app, "ann")
    game_id = start_game(owner, "twelve-step", ["Ann", "Ben"])
    with app.test_request_context(), scope.household(family_id(app)):
        _link, token = links.make_link(LinkKind.WATCH, "ann", game=db.session.get(Game, game_id))
        db.session.remove()
    relative = app.test_client()
    first = relative.get(f"/w/{token}")
    page = first.get_data(as_text=True)
    assert first.status_code == 200 and "Sign in" not in page and "/login" not in page
    assert f'href="/w/{token}/result"' in page
    # The answer that let the phone in is kept by no cache; its next visits carry an ETag.
    assert first.headers["Cache-Control"] == "no-store" and "ETag" not in first.headers
    etag = relative.get(f"/w/{token}").headers["ETag"]
    assert token not in etag
    assert relative.get(f"/w/{token}", headers={"If-None-Match": etag}).status_code == 304
    result = relative.get(f"/w/{token}/result").get_data(as_text=True)
    assert f'href="/w/{token}">Back to the scoreboard' in result
    assert f'src="/w/{token}/card.png"' in result and "Sign in" not in result
    cookieless = app.test_client().get(f"/w/{token}/result")
    assert cookieless.status_code == 200 and "Sign in" not in cookieless.get_data(as_text=True)
    save_round(owner, game_id, "Ann", {"Ben": "K Q"}, set())
    changed = relative.get(f"/w/{token}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    unknown = "x" * len(token)
    assert app.test_client().get(f"/w/{unknown}/result").status_code == 404


@pytest.mark.parametrize("kind", [LinkKind.TABLE, LinkKind.WATCH])
def test_a_member_opening_another_households_link_is_asked_before_signing_out(
    app: Flask, kind: LinkKind
) -> None:
    owner = signed_in(app, "ann")
    game_id = start_game(owner, "twelve-step", ["Ann", "Ben"])
    with app.test_request_context(), scope.household(family_id(app)):
        _, token = links.make_link(kind, "ann", game=db.session.get(Game, game_id))
        db.session.remove()
    zed = signed_in(app, "zed", household="Others")
    app.config["WTF_CSRF_ENABLED"] = True
    address = f"/{kind.value[0]}/{token}"

    def sessions() -> int:
        with app.app_context():
            held = db.session.scalar(
                select(func.count(UserSession.id)).join(User).where(User.username == "zed")
            )
            db.session.remove()
        return int(held or 0)

    asked = zed.get(address)
    assert asked.status_code == 200 and "Sign out and follow the link" in asked.text
    assert "zed" in asked.text and "Ann" not in asked.text
    # Nothing changed: zed is signed in, the link's game is not theirs to see.
    assert sessions() == 1
    assert zed.get("/account").status_code == 200
    assert zed.get(f"/games/{game_id}").status_code == 404
    assert zed.post(address).status_code == 400  # no CSRF token: refused, nothing changes
    assert zed.get("/account").status_code == 200 and sessions() == 1
    form = re.search(r'name="csrf_token" value="([^"]+)"', asked.text)
    assert form
    followed = zed.post(address, data={"csrf_token": form.group(1)})
    assert followed.status_code == 303
    # A table link goes on to the game's board; a watch link shows it at its own address.
    assert followed.headers["Location"] == (
        f"/games/{game_id}" if kind is LinkKind.TABLE else address
    )
    assert zed.get(followed.headers["Location"]).status_code == 200
    assert sessions() == 0  # signed out for real, not only in this browser
    assert zed.get(f"/games/{game_id}").status_code == 200
    assert zed.get("/account").status_code == 302
    # A member of the link's own household goes on as themselves.
    assert owner.get(address).status_code in (200, 303)
    assert owner.get("/account").status_code == 200


@pytest.mark.parametrize("token", ["", "x", "A" * 43, "A" * 400, "%00", "..%2F"])
def test_a_malformed_or_unknown_token_answers_404(app: Flask, token: str) -> None:
    add_member(app, "ann")
    client = app.test_client()
    for prefix in ("/t/", "/w/", "/invite/"):
        assert client.get(prefix + token).status_code == 404


def test_a_revoked_link_and_a_table_link_a_day_after_its_game_answer_404(app: Flask) -> None:
    from datetime import timedelta

    owner = signed_in(app, "ann")
    game_id = start_game(owner, "twelve-step", ["Ann", "Ben"])
    with app.test_request_context(), scope.household(family_id(app)):
        game = db.session.get(Game, game_id)
        revoked, revoked_token = links.make_link(LinkKind.WATCH, "ann", game=game)
        _, table_token = links.make_link(LinkKind.TABLE, "ann", game=game)
        revoked_id = revoked.id
        db.session.remove()
    phone = app.test_client()
    assert phone.get(f"/w/{revoked_token}").status_code == 200
    assert owner.post(f"/links/{revoked_id}/revoke").status_code == 303
    assert phone.get(f"/games/{game_id}").status_code == 302  # the session it opened is over
    assert app.test_client().get(f"/w/{revoked_token}").status_code == 404
    assert owner.post(f"/games/{game_id}/abandon").status_code == 302
    assert app.test_client().get(f"/t/{table_token}").status_code == 303  # a day to fix a round
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None and game.ended is not None
        game.ended -= timedelta(days=1, minutes=1)
        db.session.commit()
    assert app.test_client().get(f"/t/{table_token}").status_code == 404


def test_links_are_long_random_and_stored_hashed(app: Flask) -> None:
    owner = signed_in(app, "ann")
    game_id = start_game(owner, "twelve-step", ["Ann", "Ben"])
    with app.test_request_context(), scope.household(family_id(app)):
        link, token = links.make_link(LinkKind.TABLE, "ann", game=db.session.get(Game, game_id))
        assert len(token) >= 43  # 256 bits
        assert token not in (link.token_hash, link.nonce)
        db.session.remove()


def test_an_invitation_makes_an_account_once(app: Flask) -> None:
    owner = signed_in(app, "ann")
    page = owner.post("/members/invite", data={"role": "viewer"}).get_data(as_text=True)
    found = re.search(r'value="http://localhost(/invite/[^"]+)"', page)
    assert found
    guest = app.test_client()
    joined = guest.post(
        found.group(1), data={"username": "gran", "password": PASSWORD, "confirm": PASSWORD}
    )
    assert joined.status_code == 303
    assert guest.get("/history").status_code == 200
    assert guest.get("/games/new").status_code == 403
    assert app.test_client().get(found.group(1)).status_code == 404


def test_an_invitation_accepted_twice_at_once_makes_one_account(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two people accept one invitation at the same moment: both have passed the first look
    at it before either has stored an account (they meet while their passwords are hashed,
    or one waits there in vain while the other waits for it). One account is made."""
    from scorekeeper.accounts import passwords

    owner = signed_in(app, "ann")
    page = owner.post("/members/invite", data={"role": "viewer"}).get_data(as_text=True)
    found = re.search(r'value="http://localhost(/invite/[^"]+)"', page)
    assert found
    both_hashing = threading.Barrier(2)
    hash_password = passwords.hash_password

    def meeting(password: str) -> str:
        with contextlib.suppress(threading.BrokenBarrierError):
            both_hashing.wait(timeout=3)
        return hash_password(password)

    monkeypatch.setattr(passwords, "hash_password", meeting)
    answers: dict[str, int] = {}

    def accept(username: str) -> None:
        form = {"username": username, "password": PASSWORD, "confirm": PASSWORD}
        answers[username] = app.test_client().post(found.group(1), data=form).status_code

    guests = [threading.Thread(target=accept, args=(name,)) for name in ("gran", "gramps")]
    for guest in guests:
        guest.start()
    for guest in guests:
        guest.join(timeout=30)
    assert sorted(answers.values()) == [303, 404], answers
    with app.app_context():
        joined = db.session.scalars(
            select(User.username).where(User.username.in_(["gran", "gramps"]))
        ).all()
        db.session.remove()
    assert len(joined) == 1


def test_a_refused_acceptance_keeps_the_invitation(app: Flask) -> None:
    owner = signed_in(app, "ann")
    page = owner.post("/members/invite", data={"role": "viewer"}).get_data(as_text=True)
    found = re.search(r'value="http://localhost(/invite/[^"]+)"', page)
    assert found
    guest = app.test_client()
    taken = {"username": "ann", "password": PASSWORD, "confirm": PASSWORD}
    refused = guest.post(found.group(1), data=taken)
    assert refused.status_code == 422 and "taken" in refused.get_data(as_text=True)
    joined = guest.post(found.group(1), data={**taken, "username": "gran"})
    assert joined.status_code == 303


def test_members_page_adds_changes_and_removes(app: Flask) -> None:
    owner = signed_in(app, "ann")
    added = owner.post("/members", data={"username": "ben", "password": PASSWORD, "role": "viewer"})
    assert added.status_code == 303
    with app.app_context():
        ben = db.session.scalar(select(User).where(User.username == "ben"))
        ann = db.session.scalar(select(User).where(User.username == "ann"))
        assert ben is not None and ann is not None
        ben_id, ann_id = ben.id, ann.id
    assert owner.post(f"/members/{ben_id}/role", data={"role": "scorer"}).status_code == 303
    owner.post(f"/members/{ann_id}/role", data={"role": "viewer"})  # the last owner stays
    with app.app_context():
        assert db.session.get(User, ben_id).role == "scorer"  # type: ignore[union-attr]
        assert db.session.get(User, ann_id).role == "owner"  # type: ignore[union-attr]
    assert owner.post(f"/members/{ben_id}/remove").status_code == 303
    with app.app_context():
        assert db.session.get(User, ben_id) is None


# --- the command line ---------------------------------------------------------------------------


def test_the_command_line_makes_households_accounts_and_links(app: Flask, tmp_path: Path) -> None:
    import json

    runner = app.test_cli_runner()
    made = runner.invoke(args=["household", "add", "Smiths"])
    assert made.exit_code == 0, made.output
    assert made.output.strip().splitlines()[-1].isdigit()
    added = runner.invoke(
        args=["users", "add", "ann", "--household", "Smiths", "--role", "owner"],
        input=PASSWORD + "\n",
    )
    assert added.exit_code == 0, added.output
    short = runner.invoke(args=["users", "add", "ben", "--household", "Smiths"], input="short\n")
    assert short.exit_code != 0 and "at least 8" in short.output
    listed = runner.invoke(args=["users", "list"])
    assert "ann\tSmiths\towner" in listed.output
    client = app.test_client()
    sign_in(app, client, "ann")
    changed = runner.invoke(args=["users", "password", "ann"], input="another password\n")
    assert changed.exit_code == 0, changed.output
    assert client.get("/history").status_code == 302  # their sessions ended
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_document("contract-rummy", ["Ann", "Ben"], [])))
    runner.invoke(args=["household", "add", "Others"])
    ambiguous = runner.invoke(args=["game", "import", str(path)])
    assert ambiguous.exit_code != 0 and "--household" in ambiguous.output
    imported = runner.invoke(args=["game", "import", str(path), "--household", "Smiths"])
    assert imported.exit_code == 0, imported.output
    game_id = int(imported.output.strip().splitlines()[-1])
    linked = runner.invoke(args=["link", "add", str(game_id), "--kind", "watch"])
    assert linked.exit_code == 0, linked.output
    url = linked.output.strip().splitlines()[-1]
    assert re.fullmatch(r"https?://\S+/w/[A-Za-z0-9_-]{43}", url)
    assert app.test_client().get("/" + url.split("/", 3)[3]).status_code == 200
    exported = runner.invoke(args=["history", "export", "--household", "Others"])
    assert exported.exit_code == 0 and exported.stdout.strip() == ""


def test_setup_refuses_at_the_field_and_leaves_nothing_half_made(fresh: Flask) -> None:
    from scorekeeper.models import Household

    client = fresh.test_client()
    blank = client.post("/setup", data={**SETUP, "household": " \u200b "})
    assert blank.status_code == 422
    assert re.search(r'id="household-error"[^>]*>\s*<p>Name your household', blank.text)
    long_name = client.post("/setup", data={**SETUP, "username": "x" * 61})
    assert long_name.status_code == 422 and 'id="username-error"' in long_name.text
    with fresh.app_context():
        assert db.session.scalar(select(func.count(Household.id))) == 0
        assert db.session.scalar(select(func.count(User.id))) == 0
    made = client.post("/setup", data={**SETUP, "household": "The  Sm\u200biths"})
    assert made.status_code == 303
    with fresh.app_context():
        assert db.session.scalars(select(Household.name)).all() == ["The Smiths"]
