"""Passwords, sessions and private answers as OWASP ASVS level 1 asks: a guessable password is
refused with advice at its field, a session ends 30 days after sign-in however it is used, the
current password on the account page is throttled in the session's own count, and what a
member or a link is shown stays out of every cache.

Throttling and the proxy, through the real server: ``test_behind_proxy.py``.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper import create_app, scope
from scorekeeper.access import Permission, declared
from scorekeeper.accounts import passwords, throttle
from scorekeeper.extensions import db
from scorekeeper.models import Household, User, UserSession

from .conftest import FAST_PASSWORDS, PASSWORD, add_member, family_id, signed_in
from .helpers import start_game


def signed_in_earlier(app: Flask, by: timedelta) -> None:
    """Every session began ``by`` earlier (and was last used just now)."""
    with app.app_context():
        for held in db.session.scalars(select(UserSession)):
            held.created_at -= by
        db.session.commit()


@pytest.fixture
def fresh(database_uri: str, instance_path: Path) -> Flask:
    """A server with no account yet."""
    settings = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_uri}
    return create_app({**settings, "WTF_CSRF_ENABLED": False, **FAST_PASSWORDS})


@pytest.mark.parametrize(
    ("password", "known", "refused"),
    [
        ("password1", (), True),
        ("qwertyuiop", (), True),
        ("aaaaaaaaaaaa", (), True),
        ("correct horse battery", (), False),
        ("zebediahquenby", (), False),
        # The person's own name and their household's are the first words a guess tries.
        ("zebediahquenby", ("zebediah", "Quenby"), True),
        ("short", (), True),
        ("x" * 300, (), True),
    ],
)
def test_a_guessable_password_is_refused_with_advice(
    app: Flask, password: str, known: tuple[str, ...], refused: bool
) -> None:
    with app.app_context():
        problem = passwords.problem_with(password, known)
    assert (problem is not None) == refused, problem


def test_a_long_passphrase_is_judged_by_its_start_and_quickly(app: Flask) -> None:
    with app.app_context():
        assert passwords.problem_with("correct horse battery staple " * 8) is None


def test_setup_shows_the_advice_at_the_password_and_makes_nothing(fresh: Flask) -> None:
    client = fresh.test_client()
    weak = {"household": "Quenby", "username": "zebediah", "password": "zebediahquenby"}
    answer = client.post("/setup", data={**weak, "confirm": weak["password"]})
    assert answer.status_code == 422
    page = answer.get_data(as_text=True)
    field = re.search(r'id="password".*?</div>', page, re.S)
    assert field is not None and "easy to guess" in field.group(0)
    with fresh.app_context():
        assert db.session.scalars(select(Household)).all() == []
    strong = {**weak, "password": PASSWORD, "confirm": PASSWORD}
    assert client.post("/setup", data=strong).status_code == 303


def test_members_and_the_account_page_refuse_a_guessable_password(app: Flask) -> None:
    client = signed_in(app, "ann")
    added = client.post(
        "/members", data={"username": "ben", "role": "scorer", "password": "password1"}
    )
    assert added.status_code == 422 and "easy to guess" in added.get_data(as_text=True)
    changed = client.post(
        "/account",
        data={"current": PASSWORD, "password": "qwertyuiop", "confirm": "qwertyuiop"},
    )
    assert changed.status_code == 422 and "easy to guess" in changed.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(User).where(User.username == "ben")) is None


def test_the_command_line_refuses_a_guessable_password(app: Flask) -> None:
    add_member(app, "ann")
    runner = app.test_cli_runner()
    changed = runner.invoke(args=["users", "password", "ann"], input="password1\n")
    assert changed.exit_code != 0 and "easy to guess" in changed.output


def test_a_session_ends_30_days_after_sign_in_however_it_is_used(app: Flask) -> None:
    client = signed_in(app, "ann")
    signed_in_earlier(app, timedelta(days=29))
    assert client.get("/history").status_code == 200  # used daily, 29 days in
    signed_in_earlier(app, timedelta(days=2))
    assert client.get("/history").status_code == 302


def test_the_session_lifetime_is_a_setting(app: Flask) -> None:
    app.config["SESSION_MAX_DAYS"] = 1
    client = signed_in(app, "ann")
    signed_in_earlier(app, timedelta(hours=25))
    assert client.get("/history").status_code == 302


def test_the_current_password_on_the_account_page_counts_under_the_session(
    app: Flask,
) -> None:
    client = signed_in(app, "ann")
    new = "another long passphrase"
    for _ in range(10):
        wrong = client.post(
            "/account", data={"current": "not my password", "password": new, "confirm": new}
        )
        assert wrong.status_code == 422
    held = client.post("/account", data={"current": PASSWORD, "password": new, "confirm": new})
    assert held.status_code == 429 and int(held.headers["Retry-After"]) > 0
    assert "wrong current passwords have been typed here" in held.get_data(as_text=True)
    # The session's own count: the account is not held back for sign-in, nor another session.
    other = app.test_client()
    assert other.post("/login", data={"username": "ann", "password": PASSWORD}).status_code == 303
    changed = other.post("/account", data={"current": PASSWORD, "password": new, "confirm": new})
    assert changed.status_code == 303


def test_a_right_password_gives_its_place_back(app: Flask) -> None:
    add_member(app, "ann")
    client = app.test_client()
    for _ in range(9):
        assert client.post("/login", data={"username": "ann", "password": "x" * 9}).status_code
    for _ in range(5):  # nine failures, and any number of successes in between
        right = client.post("/login", data={"username": "ann", "password": PASSWORD})
        assert right.status_code == 303
    # Signed in, this browser holds ann's device cookie: its tries count apart from now on.
    stranger = app.test_client()
    assert stranger.post("/login", data={"username": "ann", "password": "y" * 9}).status_code == 401
    assert (
        stranger.post("/login", data={"username": "ann", "password": PASSWORD}).status_code == 429
    )
    assert client.post("/login", data={"username": "ann", "password": PASSWORD}).status_code == 303


# --- what stays out of caches --------------------------------------------------------------------


def _household_addresses(app: Flask, game_id: int) -> list[str]:
    """Every GET address of the app that is not public, ids filled with this household's
    game (and its first round, seat, ... where the id is 1 too)."""
    found = []
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()):
            continue
        access = declared(app, rule.endpoint)
        if access is None or access.permission is Permission.PUBLIC:
            continue
        found.append(re.sub(r"<(?:int:)?[^>]+>", str(game_id), rule.rule))
    return found


def test_every_page_for_a_member_is_kept_by_no_cache_unless_it_asks_again(app: Flask) -> None:
    """``no-store`` on every answer for a member, except pages that chose to be asked again
    every time (``private, no-cache`` with an ETag: the scoreboards and history pages)."""
    client = signed_in(app, "ann")
    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    seen = 0
    for address in _household_addresses(app, game_id):
        answer = client.get(address)
        answer.close()  # streamed exports: only their headers are read
        if answer.status_code >= 400:
            continue
        seen += 1
        control = answer.headers.get("Cache-Control")
        if control == "private, no-cache":
            assert answer.headers.get("ETag"), address
        else:
            assert control == "no-store", (address, control)
    assert seen > 15
    for private in ("/members", "/account", "/players", f"/games/{game_id}/links"):
        assert client.get(private).headers["Cache-Control"] == "no-store", private


def test_a_stranger_gets_pages_a_cache_may_keep(app: Flask) -> None:
    add_member(app, "ann")
    answer = app.test_client().get("/login")
    assert answer.status_code == 200 and "no-store" not in answer.headers.get("Cache-Control", "")


def test_no_strict_transport_without_the_declared_proxy(app: Flask) -> None:
    client = signed_in(app, "ann")
    answer = client.get("/history", headers={"X-Forwarded-Proto": "https"})
    assert answer.status_code == 200
    assert "Strict-Transport-Security" not in answer.headers


def test_password_fields_speak_to_password_managers(app: Flask) -> None:
    """Every password field says whether it wants the current password or a new one, so a
    password manager fills the one and offers to make the other (and pasting is never
    stopped: no field carries an onpaste or a pattern)."""
    client = signed_in(app, "ann")
    pages = {
        "/login": app.test_client(),
        "/account": client,
        "/members": client,
        "/households": client,
    }
    seen = 0
    for address, asker in pages.items():
        page = asker.get(address).get_data(as_text=True)
        for field in re.findall(r"<input[^>]*type=\"password\"[^>]*>", page):
            seen += 1
            assert re.search(r'autocomplete="(current|new)-password"', field), (address, field)
            assert "onpaste" not in field and "pattern=" not in field
    assert seen >= 5


# --- from the security review ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "sender"),
    [
        ("203.0.113.5", "203.0.113.5"),
        ("::ffff:203.0.113.5", "203.0.113.5"),
        ("2001:db8::1", "2001:db8::/64"),
        ("2001:db8::29", "2001:db8::/64"),
        ("2001:db8:0:1::29", "2001:db8:0:1::/64"),
        ("not an address", "not an address"),
    ],
)
def test_an_address_is_counted_as_the_sender_it_stands_for(address: str, sender: str) -> None:
    assert throttle.where_from(address) == sender


def test_guesses_from_one_ipv6_network_are_counted_together(app: Flask) -> None:
    add_member(app, "ann")
    client = app.test_client()
    for number in range(30):
        client.post(
            "/login",
            data={"username": f"guess{number}", "password": "x" * 9},
            environ_base={"REMOTE_ADDR": f"2001:db8::{number + 1:x}"},
        )
    held = client.post(
        "/login",
        data={"username": "ann", "password": PASSWORD},
        environ_base={"REMOTE_ADDR": "2001:db8::ff"},
    )
    assert held.status_code == 429


@pytest.mark.parametrize("target", ["/%0D%0Ax", "/%0Ax", "/a%09b", "/%7F"])
def test_a_next_with_a_control_character_goes_home(app: Flask, target: str) -> None:
    add_member(app, "ann")
    answer = app.test_client().post(
        f"/login?next={target}", data={"username": "ann", "password": PASSWORD}
    )
    assert answer.status_code == 303 and answer.headers["Location"] == "/"


def test_a_name_whose_key_outgrows_the_column_is_refused_at_its_field(app: Flask) -> None:
    """Case folding lengthens "ß" to "ss": 60 of them fit as a name, not as its key."""
    client = signed_in(app, "ann")
    long_key = "ß" * 60
    added = client.post(
        "/members", data={"username": long_key, "role": "scorer", "password": PASSWORD}
    )
    assert added.status_code == 422 and "at most" in added.get_data(as_text=True)
    form = {"rules": "twelve-step", "players-0": long_key, "players-1": "Ben"}
    started = client.post("/games/new", data={**form, "first_dealer": "0", "start": "Start"})
    assert started.status_code == 422 and "at most" in started.get_data(as_text=True)


def test_pages_that_let_a_stranger_in_are_kept_by_no_cache(app: Flask) -> None:
    from scorekeeper.accounts import links
    from scorekeeper.models import Game, LinkKind

    client = signed_in(app, "ann")
    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    with app.test_request_context(), scope.household(family_id(app)):
        game = db.session.get(Game, game_id)
        _link, watch = links.make_link(LinkKind.WATCH, "ann", game=game)
        _link, invite = links.make_link(LinkKind.INVITE, "ann", role=None)
        db.session.remove()
    stranger = app.test_client()
    for address in (f"/w/{watch}", f"/invite/{invite}"):
        answer = stranger.get(address)
        assert answer.status_code == 200, address
        assert answer.headers["Cache-Control"] == "no-store", address


@pytest.mark.parametrize(
    ("host", "asked"),
    [
        ("localhost:5000", False),
        ("127.0.0.1:5000", False),
        ("[::1]:8000", False),
        ("192.168.1.20:8000", True),
        ("cards.example.org", True),
    ],
)
def test_only_a_visitor_asking_for_loopback_from_loopback_skips_the_setup_code(
    fresh: Flask, host: str, asked: bool
) -> None:
    """A tunnel or a proxy that adds no forwarding header connects from loopback too, but it
    passes on the name the stranger asked for."""
    fresh.config["EXTRA_HOSTS"] = ["cards.example.org"]
    page = fresh.test_client().get("/setup", headers={"Host": host}).get_data(as_text=True)
    assert ('name="setup_code"' in page) == asked
