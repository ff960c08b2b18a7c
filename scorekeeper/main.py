"""The home page and the health check."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify
from sqlalchemy import select, text
from sqlalchemy.orm import selectinload

from .access import Permission, declared, requires, visitor
from .extensions import db
from .models import Game
from .status import GameStatus
from .web import render

bp = Blueprint("main", __name__)

# The navigation, in order; an entry shows once its feature is registered.
NAVIGATION = (
    ("games.new", "New game"),
    ("referee.index", "Referee"),
    ("history.index", "History"),
    ("players.index", "Players"),
    ("rules.index", "Rules"),
)


@bp.app_context_processor
def navigation() -> dict[str, object]:
    """The entries this visitor may open (a phone let in by a link sees the referee only)."""
    registered = current_app.view_functions
    who = visitor()
    shown = []
    for endpoint, label in (*NAVIGATION, ("accounts.members", "Members"), ("bin.index", "Bin")):
        access = declared(current_app, endpoint) if endpoint in registered else None
        if access is None:
            continue
        public = access.permission is Permission.PUBLIC
        if public or (who.user is not None and who.may(access.permission)):
            shown.append((endpoint, label))
    return {"navigation": shown, "has_endpoint": registered.__contains__}


@bp.get("/")
@requires(Permission.VIEW)
def index() -> Response:
    games = db.session.scalars(
        select(Game)
        .where(Game.status == GameStatus.IN_PROGRESS)
        .order_by(Game.started.desc())
        .limit(10)
        # Every game is listed with its players: load them all at once, not a game at a time.
        .options(selectinload(Game.seats))
    ).all()
    return render("main/index.html", games=games)


@bp.get("/healthz")
@requires(Permission.PUBLIC)
def health() -> Response:
    db.session.execute(text("SELECT 1"))
    return jsonify(status="ok")
