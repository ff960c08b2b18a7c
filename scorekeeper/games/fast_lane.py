"""The fast lane: an unchanged game answered in front of Flask.

What a table's phones ask most is whether a game changed: every open scoreboard polls every
few seconds (204 while unchanged) and every reload asks with ``If-None-Match`` (304). Flask's
work around such an answer (the session cookie's signature, the gate, the ORM session, the
after-request hooks) costs several times the answer itself (``docs/performance.md``: without
this lane a poll is about a quarter of a bare Flask endpoint's rate), so these questions are
answered here, by a thin WSGI layer in front of the app, with one small Core statement.

- **Who may see the game is decided by Flask's gate alone.** When a view let a request about a
  game through (``board_views.show``, ``board``), it files a *pass* (``admit``) in the app's
  store (``extensions.Kept``) under the request's exact ``Cookie`` and ``Host`` headers and the
  game: the household, what the viewer may do, the person part of the ETags (which names the
  page's language: the pass is filed under the ``Accept-Language`` header too), and the *access
  version* the gate's decision was read under (``models.AccessVersion``: one row that every
  change to an account, a session, a link or a household moves on, in the change's own
  transaction, on any server).
- **One mechanism ends a pass**: the access version, read in the same statement as the game's
  stamp, must still be the pass's; and the pass lasts until the first time limit its decision
  rests on (a session's 30 days since its last use, the cookie's, a link's end:
  ``access.good_until``) and at most ``FAST_LANE_SECONDS``. ``SESSION_CHECK_SECONDS`` 0 (check
  every request) turns the lane off.
- **Whether the game changed is decided by the database, every time**: the scoreboard's own
  stamp statement (``scoreboard.stamp_statement``), scoped to the pass's household with the
  bin hidden, so a round saved on another server shows on the next poll.
- The answers are the views': ETags spelled by ``web.etag_text``, headers from
  ``web.validators`` and ``security.security_headers``; the page itself only as the view kept
  it for this very ETag (``scoreboard.page_key``), never drawn here. Anything else (no pass,
  another address or query, a changed game, a flashed message waiting) goes to Flask.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from flask import Flask, current_app, g, request, session
from sqlalchemy import Engine
from werkzeug.http import parse_etags

from scorekeeper import scope
from scorekeeper.access import good_until, visitor
from scorekeeper.db import LONE_READ
from scorekeeper.extensions import Kept, db
from scorekeeper.security import COOKIE_RENEWED_AFTER, security_headers
from scorekeeper.web import etag_text, person_tag, validators

from . import scoreboard

# /games/<id> (the page) and /games/<id>/board (its poll).
_ADDRESS = re.compile(r"/games/([1-9][0-9]{0,17})(/board)?")
# What htmx sends with a poll: the version the phone shows, and nothing else.
_POLL_QUERY = re.compile(r"v=([0-9]{1,18})")

StartResponse = Callable[..., Any]
Answer = tuple[str, list[tuple[str, str]], bytes]


class Pass(NamedTuple):
    """What Flask's gate found for one phone's headers about one game."""

    household_id: int
    created: datetime  # the game's: an id used again (SQLite, after the bin) is another game
    can: scoreboard.Can
    person: str
    access: int  # the access version the decision was read under
    until: datetime | None  # the earliest end of what it rests on: a session, a link, a cookie


def pass_key(cookie: str, host: str, game_id: int, language: str | None) -> tuple[object, ...]:
    """A pass's key: the Cookie header and the Accept-Language header (the page's language
    may rest on it: another language is another pass) by their digest (a client's cookies may
    fill 8 KB), the Host header and the game."""
    headers = f"{cookie}\n{language or ''}".encode("latin-1", "replace")
    digest = hashlib.blake2b(headers, digest_size=20).digest()
    return ("pass", digest, host, game_id)


def seconds_of(app: Flask) -> float:
    """How long a pass lasts: ``FAST_LANE_SECONDS``; none at all where every request is to be
    checked (``SESSION_CHECK_SECONDS`` 0)."""
    try:
        if float(app.config.get("SESSION_CHECK_SECONDS") or 0) <= 0:
            return 0.0
        return float(app.config.get("FAST_LANE_SECONDS") or 0)
    except (TypeError, ValueError):  # a setting mistyped: no fast lane, Flask answers
        return 0.0


def admit(stamp: scoreboard.Stamp, can: scoreboard.Can) -> None:
    """File a pass for this request's headers and the game of ``stamp``: the gate let it in
    and the view found the game. Nothing is filed where the answer depends on more than the
    headers: a session this request changed (its next request carries another cookie), a
    flashed message waiting, or a cookie due to be signed again within the pass's life (Flask
    renews it; the fast lane never sets one)."""
    # Flask types current_app as the app, not the proxy it is.
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    cookie = request.environ.get("HTTP_COOKIE")
    host = request.environ.get("HTTP_HOST")
    who = visitor()
    access = g.get("access_version")
    seconds = seconds_of(app)
    signed_at = getattr(session, "signed_at", None)
    if (
        access is None
        or seconds <= 0
        or (
            signed_at is not None
            and datetime.now(UTC) + timedelta(seconds=seconds) - signed_at >= COOKIE_RENEWED_AFTER
        )
        or not cookie
        or not host
        or session.modified
        or session.get("_flashes")
        or who.household_id is None
        or (who.user is None and who.link is None)
    ):
        return
    if signed_at is not None:
        good_until(signed_at + app.permanent_session_lifetime)
    found = Pass(who.household_id, stamp.created, can, person_tag(), access, g.get("good_until"))
    language = request.environ.get("HTTP_ACCEPT_LANGUAGE")
    Kept.of(app).put(pass_key(cookie, host, stamp.game_id, language), found)


class FastLane:
    """WSGI middleware around the app (``init_app``)."""

    def __init__(self, app: Flask, inner: Callable[[dict[str, Any], StartResponse], Any]) -> None:
        self.app = app
        self.inner = inner
        self.engine: Engine | None = None

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET":
            try:
                answer = self.answer(environ)
            except Exception:  # the database away or busy, a setting mistyped: Flask answers
                answer = None
            if answer is not None:
                status, headers, body = answer
                start_response(status, headers)
                return [body]
        return self.inner(environ, start_response)

    def answer(self, environ: dict[str, Any]) -> Answer | None:
        """(status, headers, body) of the answer Flask would give, or None to let Flask."""
        address = _ADDRESS.fullmatch(environ.get("PATH_INFO") or "")
        if address is None or environ.get("HTTP_HX_HISTORY_RESTORE_REQUEST"):
            return None
        game_id, polled = int(address[1]), address[2] is not None
        htmx = environ.get("HTTP_HX_REQUEST") == "true"
        query = environ.get("QUERY_STRING") or ""
        shown: str | None = None
        if polled:
            poll = _POLL_QUERY.fullmatch(query)
            if not htmx or poll is None:
                return None
            shown = poll[1]
        elif query:
            return None
        seconds = seconds_of(self.app)
        cookie, host = environ.get("HTTP_COOKIE"), environ.get("HTTP_HOST")
        if seconds <= 0 or not cookie or not host:
            return None
        language = environ.get("HTTP_ACCEPT_LANGUAGE")
        key = pass_key(cookie, host, game_id, language)
        found: Pass | None = Kept.of(self.app).get(key, seconds)
        if found is None or (found.until is not None and datetime.now(UTC) >= found.until):
            return None
        stamp, access = self.stamp(game_id, found.household_id)
        if stamp is None or access != found.access or stamp.created != found.created:
            return None
        parts: tuple[object, ...] = (stamp.tag(found.can),)
        if polled:
            parts = (*parts, "same" if shown == str(stamp.version) else "new")
        etag = etag_text("f" if htmx else "p", parts, found.person)
        headers = [*validators(etag), *security_headers(self.app, environ["wsgi.url_scheme"])]
        asked = environ.get("HTTP_IF_NONE_MATCH")
        if asked and parse_etags(asked).contains_weak(etag):
            return "304 NOT MODIFIED", headers, b""
        if parts[-1] == "same":
            return "204 NO CONTENT", [("Content-Type", "text/html; charset=utf-8"), *headers], b""
        if not polled and not htmx:
            return self.page(environ, etag, headers)
        return None

    def page(
        self, environ: dict[str, Any], etag: str, headers: list[tuple[str, str]]
    ) -> Answer | None:
        """The page the view kept for exactly this ETag, gzipped, where the phone takes gzip
        (else Flask answers: it may send another encoding, or none)."""
        if not scoreboard.takes_gzip(environ.get("HTTP_ACCEPT_ENCODING")):
            return None
        key = scoreboard.page_key(etag, scoreboard.address_of_environ(environ))
        kept: scoreboard.KeptPage | None = Kept.of(self.app).get(
            key, scoreboard.page_seconds(self.app)
        )
        if kept is None:
            return None
        length = ("Content-Length", str(len(kept.gzipped)))
        typed = ("Content-Type", "text/html; charset=utf-8")
        return "200 OK", [typed, length, *headers, ("Content-Encoding", "gzip")], kept.gzipped

    def stamp(self, game_id: int, household_id: int) -> tuple[scoreboard.Stamp | None, int | None]:
        """The game's stamp (None where it is not the household's or is in the bin), and the
        access version now: one Core statement (``scoreboard.stamp_statement``, scoped by
        ``scope.core_read``) on a connection of the app's engine."""
        with scope.household(household_id):
            statement, parameters = scoreboard.stamp_statement(with_access=True)
        if self.engine is None:
            with self.app.app_context():
                self.engine = db.engine
        with self.engine.connect() as connection:
            connection.execution_options(**{LONE_READ: True})  # no BEGIN (IMMEDIATE) around it
            found = connection.execute(statement, {**parameters, "game_id": game_id}).first()
        if found is None:
            return None, None
        version, created, rules_name, access = found
        return scoreboard.Stamp(game_id, int(version or 0), created, rules_name), access


def init_app(app: Flask) -> None:
    """Put the fast lane in front of the app (inside any ProxyFix, so that it sees the same
    addresses and hosts as the views)."""
    # Flask's way to wrap the app; mypy forbids assigning to a method.
    app.wsgi_app = FastLane(app, app.wsgi_app)  # type: ignore[method-assign]
