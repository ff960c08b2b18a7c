"""The scoreboard of a game: what it shows, its charts, and its drawings, kept by game version.

The rule everything here rests on: **every change to a game bumps its version** (``bump`` for
a game in hand, ``bump_games`` for a bulk change such as a player's rename or merge: both in
``scorekeeper.versions``, below every feature that writes to a game), and the version lives in
the database, so every process and every server agrees when a drawing is
stale. A drawn board is then filed under (game id, version, created_at, what the viewer may
do) and shared by every phone that may do the same: one small query (``stamp_of``) instead of
replaying and drawing the whole game. ``created_at`` is there because a database restored
under a running server may hold another game with the same id and version.

What is per person stays out of the drawing: the name and the CSRF token are in the thin
layout around it (the token in ``hx-headers`` on ``<body>``, which htmx sends as
``X-CSRFToken``). The two plain forms a scorer's board holds (May I, abandon) must still work
without JavaScript, so their token is joined in per request: the drawing is kept split at the
token's places, and serving it is one ``str.join``, no rendering.
"""

from __future__ import annotations

import re
import secrets
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, NamedTuple

from flask import current_app, render_template, request
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup, escape
from sqlalchemy import Select, bindparam, select
from werkzeug.http import parse_accept_header
from werkzeug.wsgi import get_host

from scorekeeper import scope
from scorekeeper.access import Permission, Visitor, visitor
from scorekeeper.extensions import db
from scorekeeper.models import Game, access_version_now, utcnow

from . import charts, drafts, services

BOARD_TEMPLATE = "games/_board.html"


# --- what the viewer may do -------------------------------------------------------------------


class Can(NamedTuple):
    """What the viewer of a board may do there (its buttons depend on it)."""

    view: bool
    score: bool
    links: bool
    manage: bool


def viewer_can() -> Can:
    who = visitor()
    return Can(
        view=who.user is not None or (who.link is not None and who.link.kind == "table"),
        score=who.may(Permission.SCORE),
        links=who.may(Permission.LINKS),
        manage=who.may(Permission.MANAGE),
    )


@dataclass(frozen=True)
class Stamp:
    """A game's identity and version as the database holds them now (one small query)."""

    game_id: int
    version: int
    created: datetime
    rules_name: str

    def tag(self, can: Can) -> str:
        """The part of an ETag this game's board gives: it changes with every change."""
        return f"g{self.game_id}.{self.version}.{self.created.timestamp():.6f}.{can_tag(can)}"


def can_tag(can: Can) -> str:
    return "".join("1" if allowed else "0" for allowed in can)


def _stamp_select() -> Select[Any]:
    games = Game.__table__
    return select(games.c.version, games.c.created_at, games.c.rules_name).where(
        games.c.id == bindparam("game_id")
    )


def stamp_of(game_id: int) -> Stamp | None:
    """The game's stamp, or None where it does not exist, is in the bin or is another
    household's. Asked at every poll: one Core statement built once, scoped by
    ``scope.core_read``, with none of the ORM's work per statement."""
    statement, parameters = stamp_statement()
    found = (
        db.session.connection().execute(statement, {**parameters, "game_id": game_id}).one_or_none()
    )
    if found is None:
        return None
    version, created, rules_name = found
    return Stamp(game_id, int(version or 0), created, rules_name)


def stamp_statement(*, with_access: bool = False) -> tuple[Select[Any], dict[str, Any]]:
    """The stamp's statement under the scope in force (the request's household, or the one the
    fast lane names), and its parameters but ``game_id``. ``with_access`` adds the access
    version as a fourth column (the fast lane's check of its pass)."""
    if with_access:
        return scope.core_read("game stamp, access", _stamp_and_access_select, Game)
    return scope.core_read("game stamp", _stamp_select, Game)


def _stamp_and_access_select() -> Select[Any]:
    return _stamp_select().add_columns(access_version_now())


# --- what the board shows ---------------------------------------------------------------------


def board_context(game: Game, can: Can | None = None) -> dict[str, Any]:
    """Everything ``games/_board.html`` draws, charts included."""
    tally = services.tally_of(game)
    rules = tally.rules
    may_i = None
    if rules.may_i.allowed and not tally.is_over:
        may_i = [
            (seat, seat.player.name, seat.may_i_used, services.may_i_left(game, seat))
            for seat in game.seats
        ]
    return {
        "game": game,
        "tally": tally,
        "rules": rules,
        "packs": rules.packs(len(tally.names)),
        "may_i": may_i,
        "events": list(reversed(game.events)),
        "charts": charts.game_charts(game),
        "poll_seconds": current_app.config["SCOREBOARD_POLL_SECONDS"],
        "can": can if can is not None else viewer_can(),
        "undo_until": _undo_until(game),
        "draft": drafts.draft_of(game) if not tally.is_over else None,
    }


def _undo_until(game: Game) -> datetime | None:
    """Until when the board offers to undo the last round. The drawing is kept per version,
    so it may outlive the deadline: static/js/app.js hides the button then, and the server
    refuses a late undo anyway."""
    deadline = services.undo_deadline(game)
    return deadline if deadline is not None and deadline > utcnow() else None


# --- drawn boards -----------------------------------------------------------------------------


class DrawnBoards:
    """Boards already drawn, by (game id, version, created_at, Can), least recently used out.

    Each is kept as the pieces between its CSRF token's places; the token's stand-in is random
    for this process, so no name typed at the table can pose as it."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self.drawn: OrderedDict[tuple[Any, ...], Pieces] = OrderedDict()
        self.lock = threading.Lock()
        self.token_slot = f"csrf-{secrets.token_hex(16)}"

    def kept(self, stamp: Stamp, can: Can, address: Address) -> Pieces | None:
        """The board of exactly this stamp, if it is drawn already (the fast lane draws none)."""
        key = (stamp.game_id, stamp.version, stamp.created, can, address)
        with self.lock:
            pieces = self.drawn.get(key)
            if pieces is not None:
                self.drawn.move_to_end(key)
        return pieces

    def pieces(self, stamp: Stamp, can: Can) -> Pieces:
        """The board, drawn now where it is not kept (in a request: its links are absolute)."""
        address = address_of_request()
        pieces = self.kept(stamp, can, address)
        if pieces is None:
            game = db.session.get(Game, stamp.game_id)
            if game is None:
                raise LookupError(stamp.game_id)  # deleted between the stamp and now
            html = render_template(
                BOARD_TEMPLATE, **board_context(game, can), csrf_token=lambda: self.token_slot
            )
            pieces = Pieces.of(html.split(self.token_slot))
            # Drawn from the rows just read: filed under their version, not the one asked.
            with self.lock:
                self.drawn[(stamp.game_id, game.version, stamp.created, can, address)] = pieces
                while len(self.drawn) > self.size:
                    self.drawn.popitem(last=False)
        return pieces

    def get(self, stamp: Stamp, can: Can) -> Markup:
        # Pieces of a template Jinja escaped, joined with the session's CSRF token.
        return Markup(self.pieces(stamp, can).joined(generate_csrf()))  # nosec B704


def drawn_boards(app: Any = None) -> DrawnBoards:
    extensions = (app or current_app).extensions
    boards: DrawnBoards | None = extensions.get("scoreboards")
    if boards is None:
        boards = extensions.setdefault("scoreboards", DrawnBoards())
    return boards


def drawn_board(stamp: Stamp, can: Can) -> Markup:
    """The game's board as this viewer sees it, drawn once per version and shared."""
    return drawn_boards().get(stamp, can)


# --- the page around the board ----------------------------------------------------------------
#
# The scoreboard's page is a layout (what the viewer's role may open, their name, the CSRF
# token) around the drawn board. It is drawn once per game version, what the viewer may do,
# their role or link, and the address the page names (its preview's absolute links), with
# stand-ins where the name, the token and the board go; serving it is a join. Its gzip is
# joined the same way: each fixed piece is compressed once, on its own, and ends on a byte
# boundary (a sync flush), so the pieces and the few bytes compressed per request make one
# valid gzip stream (RFC 1951 blocks, RFC 1952 trailer), with no piece referring to another.


class Pieces(NamedTuple):
    """Text split at one kind of per-request place (kept encoded, UTF-8), and each piece
    deflated on its own."""

    raw: tuple[bytes, ...]
    deflated: tuple[bytes, ...]

    @classmethod
    def of(cls, text: list[str] | tuple[str, ...]) -> Pieces:
        raw = tuple(piece.encode() for piece in text)
        return cls(raw, tuple(deflate(piece) for piece in raw))

    def joined(self, between: str) -> str:
        return between.encode().join(self.raw).decode()


def deflate(data: bytes) -> bytes:
    """``data`` as raw deflate blocks ending on a byte boundary, referring to nothing before."""
    packer = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush(zlib.Z_SYNC_FLUSH)


GZIP_LEVEL = 3  # as Flask-Compress is set (config COMPRESS_LEVEL): a third of level 6's time
_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
_LAST_BLOCK = b"\x03\x00"  # an empty final block


class Shell(NamedTuple):
    """A game page split where the name, the token and the board go."""

    pieces: Pieces
    slots: tuple[str, ...]  # what goes between pieces: "name", "token" or "board"

    def page(self, name: str, token: str, board: Pieces) -> str:
        filled = {"name": name.encode(), "token": token.encode()}
        out = [self.pieces.raw[0]]
        for slot, piece in zip(self.slots, self.pieces.raw[1:], strict=True):
            out.append(filled["token"].join(board.raw) if slot == "board" else filled[slot])
            out.append(piece)
        return b"".join(out).decode()

    def gzipped(self, name: str, token: str, board: Pieces) -> bytes:
        """``page(...)`` gzipped, from the pieces compressed once and the rest now."""
        filled = {"name": name.encode(), "token": token.encode()}
        packed = {slot: deflate(value) for slot, value in filled.items()}
        texts = [self.pieces.raw[0]]
        out = [_GZIP_HEADER, self.pieces.deflated[0]]
        for slot, text, deflated in zip(
            self.slots, self.pieces.raw[1:], self.pieces.deflated[1:], strict=True
        ):
            if slot == "board":
                for index, (board_text, board_deflated) in enumerate(
                    zip(board.raw, board.deflated, strict=True)
                ):
                    if index:
                        texts.append(filled["token"])
                        out.append(packed["token"])
                    texts.append(board_text)
                    out.append(board_deflated)
            else:
                texts.append(filled[slot])
                out.append(packed[slot])
            texts.append(text)
            out.append(deflated)
        crc = 0
        for chunk in texts:
            crc = zlib.crc32(chunk, crc)
        size = sum(len(chunk) for chunk in texts) & 0xFFFFFFFF
        out += [_LAST_BLOCK, crc.to_bytes(4, "little"), size.to_bytes(4, "little")]
        return b"".join(out)


class PageShells:
    """Shells by (game id, version, created_at, Can, who as the layout shows them, address),
    least recently used out. The stand-ins are random for this process."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self.held: OrderedDict[tuple[Any, ...], Shell] = OrderedDict()
        self.lock = threading.Lock()
        nonce = secrets.token_hex(16)
        self.stand_ins = {
            f"name-{nonce}": "name",
            f"token-{nonce}": "token",
            f"board-{nonce}": "board",
        }
        self.splitter = re.compile("(" + "|".join(self.stand_ins) + ")")

    def stand_in(self, slot: str) -> str:
        return next(marker for marker, name in self.stand_ins.items() if name == slot)

    def get(self, key: tuple[Any, ...]) -> Shell | None:
        with self.lock:
            shell = self.held.get(key)
            if shell is not None:
                self.held.move_to_end(key)
        return shell

    def put(self, key: tuple[Any, ...], html: str) -> Shell:
        parts = self.splitter.split(html)
        shell = Shell(Pieces.of(parts[0::2]), tuple(self.stand_ins[m] for m in parts[1::2]))
        with self.lock:
            self.held[key] = shell
            while len(self.held) > self.size:
                self.held.popitem(last=False)
        return shell


def page_shells(app: Any = None) -> PageShells:
    extensions = (app or current_app).extensions
    shells: PageShells | None = extensions.get("page_shells")
    if shells is None:
        shells = extensions.setdefault("page_shells", PageShells())
    return shells


def page_shell(stamp: Stamp, can: Can, who: Visitor, result: Callable[[], Any]) -> Shell:
    """The game page's shell for this stamp, viewer and address: kept, or drawn now through
    ``games/show.html`` with stand-ins for the name, the token and the board (``result``
    gives the result card the page's preview shows, asked only when drawing)."""
    shells = page_shells()
    key = shell_key(stamp, can, layout_of(who), address_of_request())
    shell = shells.get(key)
    if shell is None:
        stand_in = who
        if who.user is not None:
            stand_in = replace(who, user=replace(who.user, username=shells.stand_in("name")))
        html = render_template(
            "games/show.html",
            game_id=stamp.game_id,
            rules_name=stamp.rules_name,
            board=Markup(shells.stand_in("board")),  # nosec B704: a random stand-in of ours
            result=result(),
            csrf_token=lambda: shells.stand_in("token"),
            visitor=stand_in,
        )
        shell = shells.put(key, html)
    return shell


def shown_name(who: Visitor) -> str:
    """The name the layout shows for the viewer, escaped as the template would."""
    return str(escape(who.user.username)) if who.user is not None else ""


def layout_of(who: Visitor) -> tuple[Any, ...]:
    """What of the viewer the layout shows but their name: their role, or their link's kind."""
    if who.user is not None:
        return ("user", who.user.role, who.user.is_admin)
    return ("link", who.link.kind if who.link is not None else None)


def shell_key(stamp: Stamp, can: Can, who: tuple[Any, ...], address: Address) -> tuple[Any, ...]:
    """Everything a game page's layout depends on but the name and the token: the game as
    stamped, what the viewer may do, their role (or link kind), and the address."""
    return (stamp.game_id, stamp.version, stamp.created, can, who, address)


def takes_gzip(environ: dict[str, Any]) -> bool:
    """Whether the phone takes gzip: the page is then sent as its pieces joined, gzipped."""
    return parse_accept_header(environ.get("HTTP_ACCEPT_ENCODING")).quality("gzip") > 0


# Where the app is reached, as the pages' absolute links name it: scheme, host (as werkzeug
# spells it: no default port) and the path the app is mounted at.
Address = tuple[str, str, str]


def address_of_request() -> Address:
    return address_of_environ(request.environ)


def address_of_environ(environ: dict[str, Any]) -> Address:
    """The same, from a WSGI environ (the fast lane, before Flask)."""
    scheme = environ.get("wsgi.url_scheme", "http")
    return (scheme, get_host(environ), environ.get("SCRIPT_NAME", "").rstrip("/"))
