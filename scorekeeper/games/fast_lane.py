"""The fast lane: an unchanged game answered in front of Flask.

What a table's phones ask most is whether a game changed: every open scoreboard and TV view
polls every few seconds (204 while unchanged) and every reload asks with ``If-None-Match``
(304). Flask's work around such an answer (the request context, the session cookie's
signature, the gate, the ORM session, the after-request hooks) costs several times the answer
itself, so these few questions are answered by a thin WSGI layer in front of the app, with one
small query and nothing else.

Who decides what:

- **Who may see the game is decided by Flask's gate alone.** When a view answered a request
  about a game (``show``, ``board``, ``tv``), it files a *pass* (``admit``): the request's
  exact ``Cookie`` and ``Host`` headers, the game, the household, what the viewer may do, the
  person part of the ETags, and the *access version* the gate's decision was read under
  (``models.AccessVersion``: one row that every change to an account, a session, a link or a
  household moves on, in the change's own transaction). The fast lane answers only a request
  carrying the very same headers about the same game, while the access version is still the
  pass's (read in the same statement as the game's version, so a sign-out, a role changed or
  a link revoked on any server ends every pass at once), until the first time limit the
  decision rests on (a session's 30 days since its last use, the cookie's, a link's expiry, a
  table link's day after its game: ``access.good_until``), and for at most
  ``FAST_LANE_SECONDS`` (30): past that, the gate looks again.
  ``SESSION_CHECK_SECONDS`` 0 (check every request) turns the fast lane off.
- **Whether the game changed is decided by the database, every time**: the scoreboard's own
  stamp statement (``scoreboard.stamp_statement``), scoped to the pass's household with the
  bin hidden, so a round saved on another server or process shows on the next poll.
- Everything else goes through Flask: no pass, another address or query, a changed game, an
  ETag that does not match, a flashed message waiting.

The answers are the ones the views give (``views.show``, ``views.board``, ``views.tv``), ETags
spelled by the same function (``web.etag_text``), headers from the same lists; a test compares
the two lanes answer by answer.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from flask import Flask, current_app, g, has_app_context, request, session
from flask_wtf.csrf import generate_csrf
from sqlalchemy import Engine
from werkzeug.http import parse_etags

from scorekeeper import scope
from scorekeeper.access import good_until, visitor
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.recent import Recent
from scorekeeper.security import COOKIE_RENEWED_AFTER, security_headers
from scorekeeper.web import etag_text, person_tag

from . import scoreboard

# /games/<id> (the page), /games/<id>/board and /games/<id>/tv (their polls).
_ADDRESS = re.compile(r"/games/([1-9][0-9]{0,17})(/board|/tv)?")
# What htmx sends with a poll: the version the phone shows, and nothing else.
_POLL_QUERY = re.compile(r"v=([0-9]{1,18})")

NO_CHANGE = "204 NO CONTENT"
NOT_MODIFIED = "304 NOT MODIFIED"
# The headers Flask's answers carry (validated(), Flask-Compress, the session's Vary: Cookie).
_VALIDATED = (
    ("Cache-Control", "private, no-cache"),
    ("Vary", "HX-Request, Cookie, Accept-Encoding"),
)
_TV_POLL_TYPE = ("Content-Type", "text/html; charset=utf-8")
# The TV's poll chooses no caching of its own: security.py's no-store for a household's answer.
_TV_POLL_VARY = (("Cache-Control", "no-store"), ("Vary", "Accept-Encoding, Cookie"))

StartResponse = Callable[..., Any]


class Pass(NamedTuple):
    """What Flask's gate found for one phone's headers about one game."""

    household_id: int
    created: datetime  # the game's: an id used again (SQLite, after the bin) is another game
    can: scoreboard.Can
    person: str
    access: int  # the access version the decision was read under
    until: datetime | None  # the earliest end of what it rests on: a session, a link, a cookie
    # For the page itself (``FastLane.page``): the layout's key, the name it shows (escaped)
    # and the CSRF token Flask made for this session (None: the session had no secret yet).
    layout: tuple[Any, ...]
    name: str
    token: str | None


class Passes(Recent[tuple[bytes, str, int], Pass]):
    """Passes by (Cookie, Host, game id), least recently used out; emptied whenever this
    process changes an account, a session or a link (``forget``)."""


def _key(cookie: str, host: str, game_id: int) -> tuple[bytes, str, int]:
    """A pass's key: the Cookie header by its digest (a client's cookies may fill 8 KB)."""
    digest = hashlib.blake2b(cookie.encode("latin-1", "replace"), digest_size=20).digest()
    return digest, host, game_id


def passes_of(app: Flask) -> Passes:
    found = app.extensions.get("fast_lane")
    if found is None:
        found = app.extensions.setdefault("fast_lane", Passes())
    return found


def forget_passes() -> None:
    """Every pass of this process goes (an account, a session or a link changed)."""
    if has_app_context():
        found = current_app.extensions.get("fast_lane")
        if found is not None:
            found.forget()


def _seconds(app: Flask) -> float:
    """How long a pass lasts: ``FAST_LANE_SECONDS``; none at all where every request is to be
    checked (``SESSION_CHECK_SECONDS`` 0)."""
    try:
        if float(app.config.get("SESSION_CHECK_SECONDS") or 0) <= 0:
            return 0.0
        return float(app.config.get("FAST_LANE_SECONDS") or 0)
    except (TypeError, ValueError):  # a setting mistyped: no fast lane, Flask answers
        return 0.0


# --- filed by the views --------------------------------------------------------------------------


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
    seconds = _seconds(app)
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
    # The token as the page Flask is about to draw holds it: signed from the session's secret
    # (which only a session that has one can give without changing).
    token = generate_csrf() if "csrf_token" in session else None
    found = Pass(
        who.household_id,
        stamp.created,
        can,
        person_tag(),
        access,
        g.get("good_until"),
        scoreboard.layout_of(who),
        scoreboard.shown_name(who),
        token,
    )
    passes_of(app).put(_key(cookie, host, stamp.game_id), found, g.get("passes_generation", -1))


# --- the lane itself -----------------------------------------------------------------------------


class FastLane:
    """WSGI middleware around the app (``init_app``)."""

    def __init__(self, app: Flask, inner: Callable[[dict[str, Any], StartResponse], Any]) -> None:
        self.app = app
        self.inner = inner
        self.query: _StampQuery | None = None

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

    def answer(self, environ: dict[str, Any]) -> tuple[str, list[tuple[str, str]], bytes] | None:
        """(status, headers, body) of the answer Flask would give, or None to let Flask."""
        address = _ADDRESS.fullmatch(environ.get("PATH_INFO") or "")
        if address is None or environ.get("HTTP_HX_HISTORY_RESTORE_REQUEST"):
            return None
        game_id, kind = int(address[1]), address[2]
        htmx = environ.get("HTTP_HX_REQUEST") == "true"
        query = environ.get("QUERY_STRING") or ""
        shown: str | None = None
        if kind is None:
            if query:
                return None
        else:
            poll = _POLL_QUERY.fullmatch(query)
            if not htmx or poll is None:
                return None
            shown = poll[1]
        seconds = _seconds(self.app)
        cookie, host = environ.get("HTTP_COOKIE"), environ.get("HTTP_HOST")
        if seconds <= 0 or not cookie or not host:
            return None
        found = passes_of(self.app).get(_key(cookie, host, game_id), seconds)
        if found is None or (found.until is not None and datetime.now(UTC) >= found.until):
            return None
        stamp, access = self.stamp(game_id, found.household_id)
        if stamp is None or access != found.access or stamp.created != found.created:
            return None
        secured = security_headers(self.app, environ.get("wsgi.url_scheme", "http"))
        if kind == "/tv":
            if shown != str(stamp.version):
                return None
            return NO_CHANGE, [_TV_POLL_TYPE, *secured, *_TV_POLL_VARY], b""
        parts: tuple[object, ...] = (stamp.tag(found.can),)
        if kind == "/board":
            parts = (*parts, "same" if shown == str(stamp.version) else "new")
        etag = etag_text("f" if htmx else "p", parts, found.person)
        headers = [("ETag", f'W/"{etag}"'), *_VALIDATED, *secured]
        asked = environ.get("HTTP_IF_NONE_MATCH")
        if asked and parse_etags(asked).contains_weak(etag):
            return NOT_MODIFIED, headers, b""
        if parts[-1] == "same":
            return NO_CHANGE, [("Content-Type", "text/html; charset=utf-8"), *headers], b""
        if kind is None and not htmx:
            return self.page(environ, found, stamp, headers)
        return None

    def page(
        self,
        environ: dict[str, Any],
        found: Pass,
        stamp: scoreboard.Stamp,
        headers: list[tuple[str, str]],
    ) -> tuple[str, list[tuple[str, str]], bytes] | None:
        """The game page, when its shell and its board are both drawn already for exactly
        this stamp (``views._page_from_shell`` draws them; the fast lane never renders):
        the same join, gzipped from pieces compressed once where the phone takes gzip."""
        if found.token is None or not scoreboard.takes_gzip(environ):
            return None  # Flask answers: it may send another encoding, or none
        address = scoreboard.address_of_environ(environ)
        shell = scoreboard.page_shells(self.app).get(
            scoreboard.shell_key(stamp, found.can, found.layout, address)
        )
        board = scoreboard.drawn_boards(self.app).kept(stamp, found.can, address)
        if shell is None or board is None:
            return None
        body = shell.gzipped(found.name, found.token, board)
        return (
            "200 OK",
            [
                ("Content-Type", "text/html; charset=utf-8"),
                ("Content-Length", str(len(body))),
                *headers,
                ("Content-Encoding", "gzip"),
            ],
            body,
        )

    def stamp(self, game_id: int, household_id: int) -> tuple[scoreboard.Stamp | None, int | None]:
        """The game's stamp from the scoreboard's own statement (``scoreboard.stamp_select``,
        scoped by ``scope.core_read``), run on a pooled DB-API connection: the statement is
        compiled once for the database, and no Core connection is built around it."""
        query = self.query
        if query is None:
            with self.app.app_context():
                query = self.query = _StampQuery(db.engine)
        return query.run(game_id, household_id)


class _StampQuery:
    """The scoreboard's stamp statement, compiled for one engine's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.compiled: dict[int, tuple[Any, str, tuple[str, ...] | None]] = {}
        # psycopg's connections take autocommit between transactions; SQLite's already run a
        # lone SELECT outside any transaction (db.py leaves BEGIN to SQLAlchemy).
        self.own_statement = engine.dialect.name == "postgresql"
        created = Game.__table__.c.created_at.type
        self.read_created = created._cached_result_processor(engine.dialect, None)

    def run(self, game_id: int, household_id: int) -> tuple[scoreboard.Stamp | None, int | None]:
        """The game's stamp (None where it is not the household's or is in the bin), and the
        access version now: one statement."""
        with scope.household(household_id):
            statement, parameters = scoreboard.stamp_statement(with_access=True)
        values = {**parameters, "game_id": game_id}
        held = self.compiled.get(id(statement))
        if held is None or held[0] is not statement:
            compiled = statement.compile(dialect=self.engine.dialect)
            order = tuple(compiled.positiontup or ()) if compiled.positional else None
            held = self.compiled[id(statement)] = (statement, compiled.string, order)
        _, text, order = held
        connection = self.engine.raw_connection()
        driver = connection.driver_connection
        assert driver is not None  # a connection fresh from the pool has its DBAPI connection
        try:
            if self.own_statement:
                # One statement is its own transaction: no BEGIN before it, no ROLLBACK after
                # (PostgreSQL: two round trips of the four a poll cost).
                driver.autocommit = True
            cursor = connection.cursor()
            cursor.execute(text, values if order is None else tuple(values[n] for n in order))
            found = cursor.fetchone()
            cursor.close()
            if self.own_statement:
                driver.autocommit = False
        except Exception:
            connection.invalidate()  # in an unknown state: the pool makes a new one
            raise
        finally:
            connection.close()
        if found is None:
            return None, None
        version, created, rules_name, access = found
        if self.read_created is not None:
            created = self.read_created(created)
        return scoreboard.Stamp(game_id, int(version or 0), created, rules_name), access


def init_app(app: Flask) -> None:
    """Put the fast lane in front of the app (inside any ProxyFix, so that it sees the same
    addresses and hosts as the views)."""
    # Flask's way to wrap the app; mypy forbids assigning to a method.
    app.wsgi_app = FastLane(app, app.wsgi_app)  # type: ignore[method-assign]
