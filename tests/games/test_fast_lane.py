"""The fast lane (``scorekeeper.games.fast_lane``) answers an unchanged game's polls and
conditional GETs in front of Flask, and sends the page its view kept for the very same ETag.
It must give exactly Flask's answers, only to the phones Flask's gate let in moments ago, and
never one that a change (a round, a sign-out, a role, a revoked link, the bin) has made wrong."""

from __future__ import annotations

import re
import time
import zlib
from collections.abc import Iterator

import pytest
from flask import Flask, request_started
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper import create_app, extensions, scope
from scorekeeper.accounts import links
from scorekeeper.extensions import Kept, db
from scorekeeper.games import fast_lane
from scorekeeper.models import Game, LinkKind, User

from ..conftest import family_id, signed_in
from ..helpers import save_round, start_game

HTMX = {"HX-Request": "true"}


@pytest.fixture
def through_flask(app: Flask) -> Iterator[list[str]]:
    """The paths of the requests Flask itself handled (the fast lane's answers never get there)."""
    seen: list[str] = []

    def handled(sender: Flask, **_: object) -> None:
        from flask import request

        seen.append(request.path)

    request_started.connect(handled, app)
    yield seen
    request_started.disconnect(handled, app)


def _version(app: Flask, game_id: int) -> int:
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        version = game.version
        db.session.remove()
    return version


def _access_version(app: Flask) -> int:
    from sqlalchemy import select

    from scorekeeper.models import access_version_now

    with app.app_context():
        found = db.session.scalar(select(access_version_now()))
        db.session.remove()
    assert found is not None, "the access version's row is missing"
    return int(found)


def _kept(app: Flask, kind: str) -> list[object]:
    """The keys of what the app's one store holds of one kind ("pass", "page", "board", ...)."""
    return [key for key in Kept.of(app).held if isinstance(key, tuple) and key[0] == kind]


def _drop(app: Flask, kind: str) -> None:
    """Empty the store of one kind, as if its entries had aged out."""
    store = Kept.of(app)
    with store.lock:
        for key in _kept(app, kind):
            del store.held[key]


TOKEN = re.compile(r'"X-CSRFToken": "([^"]+)"')


def _same(fast: TestResponse, slow: TestResponse) -> None:
    """The same answer: status, headers (but the date and, for a page, the length of its
    gzip) and body (unzipped, each page's CSRF token, signed afresh, aside)."""

    def body(answer: TestResponse) -> bytes:
        data = answer.data
        if answer.headers.get("Content-Encoding") == "gzip":
            unpacker = zlib.decompressobj(31)
            data = unpacker.decompress(data)
            assert unpacker.eof and not unpacker.unused_data, "not one whole gzip stream"
        token = TOKEN.search(data.decode())
        return data.replace(token.group(1).encode(), b"TOKEN") if token else data

    def headers(answer: TestResponse) -> list[tuple[str, str]]:
        skipped = {"Date", "Content-Length"} if answer.status_code == 200 else {"Date"}
        return sorted((name, value) for name, value in answer.headers if name not in skipped)

    assert (fast.status, headers(fast), body(fast)) == (slow.status, headers(slow), body(slow))


def _asks(game_id: int, version: int, etags: dict[str, str]) -> list[tuple[str, dict[str, str]]]:
    return [
        (f"/games/{game_id}", {"If-None-Match": etags["page"]}),
        (f"/games/{game_id}", {**HTMX, "If-None-Match": etags["fragment"]}),
        (f"/games/{game_id}/board?v={version}", HTMX),
        (f"/games/{game_id}/board?v={version}", {**HTMX, "If-None-Match": etags["poll"]}),
        (f"/games/{game_id}", {"Accept-Encoding": "gzip"}),
        (f"/games/{game_id}", {"Accept-Encoding": "gzip, deflate, br, zstd"}),  # as Chromium
    ]


def test_the_fast_lane_answers_as_flask_does(
    app: Flask, client: FlaskClient, through_flask: list[str]
) -> None:
    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    save_round(client, game_id, "Ann", {"Ben": "K Q"}, set())
    version = _version(app, game_id)
    etags = {
        "page": client.get(f"/games/{game_id}").headers["ETag"],
        "fragment": client.get(f"/games/{game_id}", headers=HTMX).headers["ETag"],
        "poll": client.get(f"/games/{game_id}/board?v={version}", headers=HTMX).headers["ETag"],
    }
    asks = _asks(game_id, version, etags)
    through_flask.clear()
    fast = [client.get(path, headers=headers) for path, headers in asks]
    assert through_flask == [], "the fast lane let Flask answer"
    assert [answer.status_code for answer in fast] == [304, 304, 204, 304, 200, 200]
    app.config["SESSION_CHECK_SECONDS"] = 0  # the fast lane off: Flask answers everything
    slow = [client.get(path, headers=headers) for path, headers in asks]
    assert len(through_flask) == len(asks)
    for one, other in zip(fast, slow, strict=True):
        _same(one, other)
    # A phone that takes no gzip gets the page from Flask, which chooses what to send.
    app.config["SESSION_CHECK_SECONDS"] = 5
    client.get(f"/games/{game_id}/board?v={version}", headers=HTMX)  # a pass again
    through_flask.clear()
    assert client.get(f"/games/{game_id}").status_code == 200
    assert through_flask == [f"/games/{game_id}"]


def test_a_saved_round_goes_through_at_once(
    app: Flask, client: FlaskClient, through_flask: list[str]
) -> None:
    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    version = _version(app, game_id)
    poll = f"/games/{game_id}/board?v={version}"
    assert client.get(poll, headers=HTMX).status_code == 204  # files the pass
    assert client.get(poll, headers=HTMX).status_code == 204
    scorer = signed_in(app, "scorer", "scorer")
    save_round(scorer, game_id, "Ann", {"Ben": "K Q"}, set())
    through_flask.clear()
    answer = client.get(poll, headers=HTMX)
    assert answer.status_code == 200 and "Ben" in answer.get_data(as_text=True)
    assert through_flask == [f"/games/{game_id}/board"]


def test_only_the_same_headers_about_the_same_game_go_fast(
    app: Flask, client: FlaskClient, through_flask: list[str]
) -> None:
    mine = start_game(client, "twelve-step", ["Ann", "Ben"])
    version = _version(app, mine)
    assert client.get(f"/games/{mine}/board?v={version}", headers=HTMX).status_code == 204
    neighbour = signed_in(app, "neighbour", "owner", household="Neighbours")
    theirs = start_game(neighbour, "twelve-step", ["Cy", "Dee"])
    through_flask.clear()
    # Another household's game, from the phone that has a pass for its own: Flask, 404.
    theirs_version = _version(app, theirs)
    assert client.get(f"/games/{theirs}/board?v={theirs_version}", headers=HTMX).status_code == 404
    # The same poll from another phone (another cookie) with no pass of its own: Flask, 404.
    stranger = app.test_client()
    assert stranger.get(f"/games/{mine}/board?v={version}", headers=HTMX).status_code == 401
    # Another host name in front of the same cookie: Flask decides.
    answer = client.get(
        f"/games/{mine}/board?v={version}", headers={**HTMX, "Host": "evil.example"}
    )
    assert answer.status_code == 400
    # A query that is not a plain poll: Flask decides.
    client.get(f"/games/{mine}/board?v={version}&x=1", headers=HTMX)
    assert through_flask == [
        f"/games/{theirs}/board",
        f"/games/{mine}/board",
        f"/games/{mine}/board",
        f"/games/{mine}/board",
    ]


def test_signing_out_ends_the_pass(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    poll = f"/games/{game_id}/board?v={_version(app, game_id)}"
    assert client.get(poll, headers=HTMX).status_code == 204
    kept = client.get_cookie("session")
    assert kept is not None
    assert client.post("/logout").status_code == 303
    thief = app.test_client()  # the old cookie, replayed
    thief.set_cookie("session", kept.value)
    assert thief.get(poll, headers=HTMX).status_code == 401


@pytest.mark.parametrize("change", ["role", "removed"])
def test_a_member_changed_loses_the_pass(app: Flask, client: FlaskClient, change: str) -> None:
    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    viewer = signed_in(app, "viewer", "viewer")
    poll = f"/games/{game_id}/board?v={_version(app, game_id)}"
    assert viewer.get(poll, headers=HTMX).status_code == 204
    with app.app_context():
        member = db.session.scalars(db.select(User).filter_by(username="viewer")).one()
        member_id = member.id
        db.session.remove()
    if change == "role":
        answer = client.post(f"/members/{member_id}/role", data={"role": "scorer"})
        assert answer.status_code == 303
        # Still let in, and the board's ETag now says a scorer's: Flask answered the poll.
        polled = viewer.get(poll, headers=HTMX)
        assert polled.status_code == 204
        assert _kept(app, "pass"), "Flask filed a new pass"
    else:
        assert client.post(f"/members/{member_id}/remove").status_code == 303
        assert viewer.get(poll, headers=HTMX).status_code == 401


def test_a_revoked_link_loses_the_pass(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    with app.test_request_context(), scope.household(family_id(app)):
        link, token = links.make_link(LinkKind.TABLE, "owner", game=db.session.get(Game, game_id))
        link_id = link.id
        db.session.remove()
    phone = app.test_client()
    assert phone.get(f"/t/{token}").status_code in (302, 303)
    poll = f"/games/{game_id}/board?v={_version(app, game_id)}"
    assert phone.get(poll, headers=HTMX).status_code == 204
    assert phone.get(poll, headers=HTMX).status_code == 204
    assert client.post(f"/links/{link_id}/revoke").status_code == 303
    assert phone.get(poll, headers=HTMX).status_code == 401


def test_a_game_in_the_bin_is_not_there(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    poll = f"/games/{game_id}/board?v={_version(app, game_id)}"
    assert client.get(poll, headers=HTMX).status_code == 204
    assert client.post(f"/games/{game_id}/delete").status_code in (302, 303)
    assert client.get(poll, headers=HTMX).status_code == 404


class _HeldClock:
    """The kept store's clock (``time.monotonic`` in ``scorekeeper.extensions``), moved on by
    the test alone: what lasts a number of seconds is timed however busy the machine is."""

    def __init__(self) -> None:
        self.now = time.monotonic()

    def monotonic(self) -> float:
        return self.now


def test_a_pass_lasts_fast_lane_seconds(
    app: Flask, client: FlaskClient, through_flask: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = _HeldClock()
    monkeypatch.setattr(extensions, "time", clock)
    app.config["FAST_LANE_SECONDS"] = 30
    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    poll = f"/games/{game_id}/board?v={_version(app, game_id)}"
    client.get(poll, headers=HTMX)
    through_flask.clear()
    clock.now += 29
    assert client.get(poll, headers=HTMX).status_code == 204
    assert through_flask == []
    clock.now += 2
    assert client.get(poll, headers=HTMX).status_code == 204
    assert through_flask == [f"/games/{game_id}/board"]


def test_a_database_fault_leaves_the_answer_to_flask(
    app: Flask, client: FlaskClient, through_flask: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    poll = f"/games/{game_id}/board?v={_version(app, game_id)}"
    client.get(poll, headers=HTMX)

    def broken(*_: object) -> None:
        raise RuntimeError("the database is away")

    monkeypatch.setattr(fast_lane.FastLane, "stamp", broken)
    through_flask.clear()
    assert client.get(poll, headers=HTMX).status_code == 204
    assert through_flask == [f"/games/{game_id}/board"]


def test_a_flashed_message_files_no_pass(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    _drop(app, "pass")
    with client.session_transaction() as held:
        held["_flashes"] = [("success", "Saved.")]
    page = client.get(f"/games/{game_id}")
    assert "Saved." in page.get_data(as_text=True) and "ETag" not in page.headers
    assert not _kept(app, "pass")


def test_a_sign_out_on_another_server_ends_the_pass_at_once(
    app: Flask, client: FlaskClient, through_flask: list[str]
) -> None:
    """Two servers on one database: the pass this one filed lapses with the access version
    the other one moved, with no wait for any time limit."""
    other_server = create_app(dict(app.config))
    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    viewer = signed_in(app, "viewer", "viewer")
    poll = f"/games/{game_id}/board?v={_version(app, game_id)}"
    assert viewer.get(poll, headers=HTMX).status_code == 204
    through_flask.clear()
    assert viewer.get(poll, headers=HTMX).status_code == 204
    assert through_flask == []
    elsewhere = other_server.test_client()
    elsewhere.set_cookie("session", viewer.get_cookie("session").value)  # type: ignore[union-attr]
    assert elsewhere.post("/logout").status_code == 303
    # Neither the fast lane nor this server's own memory of the session answers for it.
    assert viewer.get(poll, headers=HTMX).status_code == 401
    assert through_flask == [f"/games/{game_id}/board"]
    with other_server.app_context():
        db.session.remove()
        db.engine.dispose()


def test_every_change_to_who_may_come_in_moves_the_access_version(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    start = _access_version(app)
    save_round(client, game_id, "Ann", {"Ben": "K Q"}, set())
    assert _access_version(app) == start, "a round lets nobody in or out"
    viewer = signed_in(app, "viewer", "viewer")
    with app.app_context():
        member_id = db.session.scalars(db.select(User.id).filter_by(username="viewer")).one()
        db.session.remove()
    steps = [
        lambda: client.post(f"/members/{member_id}/role", data={"role": "scorer"}),
        lambda: viewer.post("/logout"),
        lambda: client.post(f"/members/{member_id}/remove"),
    ]
    for step in steps:
        before = _access_version(app)
        assert step().status_code == 303
        assert _access_version(app) > before


def test_a_game_id_used_again_is_another_game(
    app: Flask, client: FlaskClient, through_flask: list[str]
) -> None:
    """SQLite hands out an emptied bin's highest id again: the pass names the game's creation
    too, so a new game under the old id is Flask's to answer."""
    from datetime import timedelta

    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    poll = f"/games/{game_id}/board?v={_version(app, game_id)}"
    assert client.get(poll, headers=HTMX).status_code == 204
    through_flask.clear()
    assert client.get(poll, headers=HTMX).status_code == 204
    assert through_flask == []
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        game.created_at += timedelta(seconds=1)  # as a new game with the same id and version
        db.session.commit()
        db.session.remove()
    assert client.get(poll, headers=HTMX).status_code == 204
    assert through_flask == [f"/games/{game_id}/board"]


def test_a_cookie_due_to_be_signed_again_files_no_pass(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Flask signs an unchanged cookie again once it is an hour old; the fast lane never sets
    one, so a cookie that would be renewed within a pass's life gets none."""
    from datetime import UTC, datetime

    from scorekeeper.security import COOKIE_RENEWED_AFTER

    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    poll = f"/games/{game_id}/board?v={_version(app, game_id)}"
    assert client.get(poll, headers=HTMX).status_code == 204
    assert _kept(app, "pass")
    _drop(app, "pass")
    later = datetime.now(UTC) + COOKIE_RENEWED_AFTER

    class Later(datetime):
        @classmethod
        def now(cls, tz: object = None) -> datetime:  # type: ignore[override]
            return later

    monkeypatch.setattr(fast_lane, "datetime", Later)
    assert client.get(poll, headers=HTMX).status_code == 204
    assert not _kept(app, "pass")


def test_a_core_statement_moves_the_access_version_and_a_session_s_last_use_does_not(
    app: Flask, client: FlaskClient
) -> None:
    from sqlalchemy import delete, update

    from scorekeeper.accounts.services import KEEPS_ACCESS
    from scorekeeper.models import UserSession, utcnow

    signed_in(app, "viewer", "viewer")
    start = _access_version(app)
    with app.app_context():
        with db.engine.begin() as connection:  # what _touch does
            connection.execute(
                update(UserSession)
                .values(last_seen=utcnow())
                .execution_options(**{KEEPS_ACCESS: True})
            )
        assert _access_version(app) == start
        with db.engine.begin() as connection:  # two statements, one transaction: one move
            connection.execute(delete(UserSession).where(UserSession.id < 0))
            connection.execute(update(User).where(User.id < 0).values(role="viewer"))
        assert _access_version(app) == start + 1
        with db.engine.begin() as connection:
            connection.execute(delete(User).where(User.username == "viewer"))
        assert _access_version(app) == start + 2
        db.session.remove()


def _fast_until_its_limit(
    app: Flask, phone: FlaskClient, game_id: int, through_flask: list[str]
) -> int:
    """Poll through Flask (a pass filed, its time limit about 1 s away), then once from the
    fast lane, then after the limit: the status Flask gives then."""
    poll = f"/games/{game_id}/board?v={_version(app, game_id)}"
    assert phone.get(poll, headers=HTMX).status_code == 204
    through_flask.clear()
    assert phone.get(poll, headers=HTMX).status_code == 204
    assert through_flask == []
    time.sleep(1.2)
    status = phone.get(poll, headers=HTMX).status_code
    assert through_flask == [f"/games/{game_id}/board"]
    return status


def test_a_pass_ends_when_its_table_link_does(
    app: Flask, client: FlaskClient, through_flask: list[str]
) -> None:
    """A table link opens its game until a day after the game ended: a pass filed a moment
    before that ends with it, not FAST_LANE_SECONDS later."""
    from datetime import timedelta

    from scorekeeper.access import TABLE_LINK_GRACE
    from scorekeeper.models import utcnow

    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    with app.test_request_context(), scope.household(family_id(app)):
        _, token = links.make_link(LinkKind.TABLE, "owner", game=db.session.get(Game, game_id))
        game = db.session.get(Game, game_id)
        assert game is not None
        # Ended (without a new version: only the clock will shut the link) a day ago, less 1 s.
        game.ended = utcnow() - TABLE_LINK_GRACE + timedelta(seconds=1)
        db.session.commit()
        db.session.remove()
    phone = app.test_client()
    assert phone.get(f"/t/{token}").status_code in (302, 303)
    # Flask then: the session is over.
    assert _fast_until_its_limit(app, phone, game_id, through_flask) == 401


def test_a_pass_ends_when_its_session_does(
    app: Flask, client: FlaskClient, through_flask: list[str]
) -> None:
    """A session ends 30 days after its last use: a pass filed a moment before that ends with
    it, and the gate looks again (the poll it let in was a use, so the session lives on)."""
    from datetime import timedelta

    from sqlalchemy import update

    from scorekeeper.accounts.services import KEEPS_ACCESS, SESSION_LIFETIME
    from scorekeeper.models import UserSession, utcnow

    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(
            update(UserSession)
            .values(last_seen=utcnow() - SESSION_LIFETIME + timedelta(seconds=1))
            .execution_options(**{KEEPS_ACCESS: True})
        )
    _drop(app, "session")  # as SESSION_CHECK_SECONDS after the last check
    # Flask then: the session was used by that poll, so it lives on.
    assert _fast_until_its_limit(app, client, game_id, through_flask) == 204


def test_the_board_is_shared_by_role_and_the_page_never_by_person(
    app: Flask, client: FlaskClient, through_flask: list[str]
) -> None:
    """Two viewers share one drawing of the board, each with their own page around it (their
    name and token) kept for them and served by the fast lane; a scorer's board (its forms and
    buttons) is another drawing, never served to a viewer."""
    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    scorer_page = client.get(f"/games/{game_id}").get_data(as_text=True)
    ann, bo = signed_in(app, "ann", "viewer"), signed_in(app, "bo", "viewer")
    pages = {}
    for name, phone in (("ann", ann), ("bo", bo)):
        phone.get(f"/games/{game_id}")  # Flask: the session's CSRF secret (a new cookie)
        phone.get(f"/games/{game_id}")  # Flask: the pass for that cookie, the page kept
        through_flask.clear()
        served = phone.get(f"/games/{game_id}", headers={"Accept-Encoding": "gzip"})
        assert through_flask == [], "Flask drew the page: the fast lane did not serve it"
        pages[name] = zlib.decompress(served.data, 31).decode()
    assert len(_kept(app, "board")) == 2  # the owner's, and the viewers' one
    assert len(_kept(app, "page")) == 3  # one each
    tokens = {name: TOKEN.search(page).group(1) for name, page in pages.items()}  # type: ignore[union-attr]
    assert tokens["ann"] != tokens["bo"]
    assert ">ann</a>" in pages["ann"] and ">bo</a>" not in pages["ann"]
    assert ">bo</a>" in pages["bo"] and ">ann</a>" not in pages["bo"]
    assert "Let the table score" in scorer_page
    assert all("Let the table score" not in page for page in pages.values())


def test_a_forwarded_prefix_or_port_does_not_move_the_page_s_addresses(app: Flask) -> None:
    """Behind one proxy (Caddy sets X-Forwarded-For, -Proto and -Host, and passes any other
    header on as the client sent it), a client's X-Forwarded-Prefix or -Port must not reach
    the addresses in a page that is drawn once and shared."""
    proxied = create_app({**app.config, "PROXY_COUNT": 1})
    owner = signed_in(proxied, "owner")
    game_id = start_game(owner, "twelve-step", ["Ann", "Ben"])
    forged = {"X-Forwarded-Prefix": "//evil.example", "X-Forwarded-Port": "6666"}
    page = owner.get(f"/games/{game_id}", headers=forged).get_data(as_text=True)
    # The port as an address would carry it: a time's microseconds may hold "6666".
    assert "evil.example" not in page and ":6666" not in page
    assert 'href="/static/' in page or "/static/" in page
    with proxied.app_context():
        db.session.remove()
        db.engine.dispose()


def test_the_fast_lane_reads_while_another_writer_holds_the_lock(
    app: Flask, client: FlaskClient, through_flask: list[str]
) -> None:
    """The lane's one read runs outside Flask's request, so it must not take SQLite's write
    lock (``BEGIN IMMEDIATE``): a poll would then queue behind every save, and fail past the
    busy timeout."""
    import sqlite3

    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    if not uri.startswith("sqlite"):
        pytest.skip("SQLite's single writer")
    game_id = start_game(client, "twelve-step", ["Ann", "Ben"])
    poll = f"/games/{game_id}/board?v={_version(app, game_id)}"
    assert client.get(poll, headers=HTMX).status_code == 204  # files the pass
    other = sqlite3.connect(uri.removeprefix("sqlite:///"), isolation_level=None, timeout=0)
    other.execute("BEGIN IMMEDIATE")
    try:
        through_flask.clear()
        started = time.monotonic()
        assert client.get(poll, headers=HTMX).status_code == 204
        # Not a wait for the lock: that is the busy timeout's 15 s (a busy machine's poll may
        # take a few seconds by itself).
        assert through_flask == [] and time.monotonic() - started < 10
    finally:
        other.rollback()
        other.close()
