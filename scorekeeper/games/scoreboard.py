"""The scoreboard of a game: what it shows, its charts, and its drawings, kept by game version.

The rule everything here rests on: **every change to a game bumps its version** (``bump`` for
a game in hand, ``bump_games`` for a bulk change such as a player's rename or merge), and the
version lives in the database, so every process and every server agrees when a drawing is
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

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from flask import current_app, render_template
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from sqlalchemy import ColumnElement, Select, bindparam, select, update

from scorekeeper import scope
from scorekeeper.access import Permission, visitor
from scorekeeper.extensions import db
from scorekeeper.models import Game, access_version_now, utcnow

from . import charts

BOARD_TEMPLATE = "games/_board.html"


# --- the version rule -------------------------------------------------------------------------


def bump(game: Game, *, counts: bool = True) -> None:
    """Mark ``game`` changed: its drawn board, its ETags and open scoreboards move on. Every
    write to a game calls this (or ``bump_games``) before its commit, which also brings the
    kept statistics up to date with the game (``history.stats``). ``counts=False`` says that
    nothing the statistics count changed (a phone's draft of the round in progress): the board
    moves on, the statistics are left be."""
    from scorekeeper.history import stats

    game.version = (game.version or 0) + 1
    if counts:
        stats.mark(db.session(), game)


def bump_games(where: ColumnElement[bool], *, counts: bool = True) -> None:
    """Mark every game matching ``where`` changed, in one UPDATE (a rename or merge of a
    player redraws every game they sat at). Does not commit. ``counts=False`` says that no
    number of the games changes (a rename: the pages read names fresh), so the kept statistics
    need no refresh; their version moves all the same."""
    from scorekeeper.history import stats

    if counts:
        stats.mark_ids(db.session(), db.session.scalars(select(Game.id).where(where)).all())
    else:
        stats.touch(db.session())
    db.session.execute(
        update(Game)
        .where(where)
        .values(version=Game.version + 1, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    )


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
    from . import drafts, services

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
    from . import services

    deadline = services.undo_deadline(game)
    return deadline if deadline is not None and deadline > utcnow() else None


# --- drawn boards -----------------------------------------------------------------------------


class DrawnBoards:
    """Boards already drawn, by (game id, version, created_at, Can), least recently used out.

    Each is kept as the pieces between its CSRF token's places; the token's stand-in is random
    for this process, so no name typed at the table can pose as it."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self.drawn: OrderedDict[tuple[int, int, datetime, Can], tuple[str, ...]] = OrderedDict()
        self.lock = threading.Lock()
        self.token_slot = f"csrf-{secrets.token_hex(16)}"

    def get(self, stamp: Stamp, can: Can) -> Markup:
        key = (stamp.game_id, stamp.version, stamp.created, can)
        with self.lock:
            pieces = self.drawn.get(key)
            if pieces is not None:
                self.drawn.move_to_end(key)
        if pieces is None:
            game = db.session.get(Game, stamp.game_id)
            if game is None:
                raise LookupError(stamp.game_id)  # deleted between the stamp and now
            html = render_template(
                BOARD_TEMPLATE, **board_context(game, can), csrf_token=lambda: self.token_slot
            )
            pieces = tuple(html.split(self.token_slot))
            # Drawn from the rows just read: filed under their version, not the one asked.
            with self.lock:
                self.drawn[(stamp.game_id, game.version, stamp.created, can)] = pieces
                while len(self.drawn) > self.size:
                    self.drawn.popitem(last=False)
        if len(pieces) == 1:
            return Markup(pieces[0])
        return Markup(generate_csrf().join(pieces))


def drawn_board(stamp: Stamp, can: Can) -> Markup:
    """The game's board as this viewer sees it, drawn once per version and shared."""
    boards: DrawnBoards = current_app.extensions.setdefault("scoreboards", DrawnBoards())
    return boards.get(stamp, can)
