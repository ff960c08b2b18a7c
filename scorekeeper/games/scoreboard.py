"""The scoreboard of a game: what it shows, its charts, and its drawings, kept by game version.

The rule everything here rests on: **every change to a game bumps its version** (``bump`` for
a game in hand, ``bump_games`` for a bulk change such as a player's rename or merge: both in
``scorekeeper.versions``, below every feature that writes to a game), and the version lives in
the database, so every process and every server agrees when a drawing is stale. A drawn board
is then kept in the app's one store (``extensions.Kept``) under (game id, version, created_at,
what the viewer may do, the address its links name, the language it is written in) and shared
by every phone that may do the same in that language: one small query (``stamp_of``) instead
of replaying and drawing the whole game.
``created_at`` is there because a database restored under a running server may hold another
game with the same id and version.

What is per person stays out of the drawing: the name and the CSRF token are in the thin
layout around it (the token in ``hx-headers`` on ``<body>``, which htmx sends as
``X-CSRFToken``). The two plain forms a scorer's board holds (May I, abandon) must still work
without JavaScript, so their token is joined in per request: the drawing is kept split at the
token's places, and serving it is one ``str.join``, no rendering.
"""

from __future__ import annotations

import gzip
import secrets
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, NamedTuple

from flask import Flask, current_app, render_template, request
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from sqlalchemy import Select, bindparam, select
from werkzeug.http import parse_accept_header
from werkzeug.wsgi import get_host

from scorekeeper import languages, scope
from scorekeeper.access import Permission, visitor
from scorekeeper.extensions import Kept, db
from scorekeeper.models import Game, access_version_now, utcnow

from . import charts, comings, drafts, rounds, services
from .tally import Tally

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
        at_the_table = at_table(tally)
        may_i = [
            (seat, seat.player.name, seat.may_i_used, services.may_i_left(game, seat))
            for seat in game.seats
            if seat.position in at_the_table
        ]
    draft = drafts.draft_of(game) if not tally.is_over else None
    return {
        "game": game,
        "tally": tally,
        "rules": rules,
        "packs": tally.next_packs,
        "may_i": may_i,
        "events": list(reversed(game.events)),
        "charts": charts.game_charts(game),
        "poll_seconds": current_app.config["SCOREBOARD_POLL_SECONDS"],
        "can": can if can is not None else viewer_can(),
        "undo_until": _undo_until(game),
        "put_back": _put_back(game),
        "draft": draft,
        "refusal": drafts.why_refused(game, draft) if draft is not None else None,
        # How long the undo lasts, for the sentence that says so (in any language).
        "undo_minutes": int(services.UNDO_WINDOW.total_seconds() // 60),
        # Who is dealt into the next round (issue 43: a player may leave, one may join).
        "at_table": at_table(tally),
        # A leave after the last round is undone as a round is, until the next is stored.
        "undo_leaves": comings.undoable_leaves(game),
        # After that, one who left may come back, with the total they had or the family's.
        "comebacks": comings.away(game),
    }


def at_table(tally: Tally) -> list[int]:
    """The seats dealt into the next round (none once the game is over)."""
    number = tally.next_round
    return [] if number is None else list(tally.lineup.seats_in(number, len(tally.names)))


def _put_back(game: Game) -> tuple[int, datetime] | None:
    """The round the board offers to put back: none while a leave or a join after the round
    before it stands (the round would find the table changed under it), whose own undo is
    offered first."""
    offered = services.put_back_offer(game)
    if offered is None or rounds.table_changed_after(game, len(game.rounds)) is None:
        return offered
    return None


def _undo_until(game: Game) -> datetime | None:
    """Until when the board offers to undo the last round. The drawing is kept per version,
    so it may outlive the deadline: static/js/app.js hides the button then, and the server
    refuses a late undo anyway."""
    if services.put_back_offer(game) is not None:
        return None  # the round just undone is offered back instead, never an older round's undo
    if rounds.table_changed_after(game, len(game.rounds)) is not None:
        # A leave or a join after it came later: that is undone first ("Undo: Cy leaves", or
        # the joiner leaving before playing), then the round's undo is offered again.
        return None
    deadline = services.undo_deadline(game)
    return deadline if deadline is not None and deadline > utcnow() else None


# --- drawn boards -----------------------------------------------------------------------------

# Where each viewer's CSRF token goes in a drawn board: random for this process, so that no
# name typed at the table can pose as it.
_TOKEN_SLOT = f"csrf-{secrets.token_hex(16)}"


def drawn_board(stamp: Stamp, can: Can) -> Markup:
    """The game's board as this viewer sees it: drawn once per game version, what the viewer
    may do, the address its links name and the page's language, kept (``Kept``) and shared by
    every phone alike; split where the CSRF token goes, and joined with this session's. Raises
    LookupError where the game went between its stamp and now."""
    address = address_of_request()
    kept = Kept.of()
    pieces: tuple[str, ...] | None = kept.get(_board_key(stamp, can, address))
    if pieces is None:
        game = db.session.get(Game, stamp.game_id)
        if game is None:
            raise LookupError(stamp.game_id)
        html = render_template(
            BOARD_TEMPLATE, **board_context(game, can), csrf_token=lambda: _TOKEN_SLOT
        )
        # Drawn from the rows just read: filed under their version, not the one asked.
        drawn = replace(stamp, version=game.version)
        pieces = kept.put(_board_key(drawn, can, address), tuple(html.split(_TOKEN_SLOT)))
    # Pieces of a template Jinja escaped, joined with the session's CSRF token.
    return Markup(generate_csrf().join(pieces))  # nosec B704


def _board_key(stamp: Stamp, can: Can, address: Address) -> tuple[Any, ...]:
    return ("board", stamp.game_id, stamp.version, stamp.created, can, address, languages.locale())


# Where the app is reached, as the pages' absolute links name it: scheme, host (as werkzeug
# spells it: no default port) and the path the app is mounted at.
Address = tuple[str, str, str]


def address_of_request() -> Address:
    return address_of_environ(request.environ)


def address_of_environ(environ: dict[str, Any]) -> Address:
    """The same, from a WSGI environ (the fast lane, before Flask)."""
    scheme = environ.get("wsgi.url_scheme", "http")
    return (scheme, get_host(environ), environ.get("SCRIPT_NAME", "").rstrip("/"))


# --- the whole page, kept ---------------------------------------------------------------------


class KeptPage(NamedTuple):
    """A whole game page as one viewer is shown it, kept gzipped (made once, of the whole
    body: a tenth of its size, and one is kept for each person looking)."""

    gzipped: bytes

    @property
    def body(self) -> bytes:
        """The page itself, for a phone that takes no gzip."""
        return gzip.decompress(self.gzipped)


def page_key(etag: str, address: Address) -> tuple[object, ...]:
    """Where a page is kept: its ETag (the game as stamped, what the viewer may do, who they
    are and their session's CSRF secret, which signs the token the page holds) and the address
    its absolute links name. The fast lane looks a page up by the same key."""
    return ("page", etag, address)


def page_seconds(app: Flask) -> float | None:
    """How long a kept page's CSRF token holds: for ever (None) unless tokens have a time
    limit (``WTF_CSRF_TIME_LIMIT``), then half of it."""
    limit = app.config.get("WTF_CSRF_TIME_LIMIT")
    return float(limit) / 2 if limit else None


def takes_gzip(accept_encoding: str | None) -> bool:
    return parse_accept_header(accept_encoding).quality("gzip") > 0
