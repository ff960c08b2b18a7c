"""The home page and the health check."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify
from sqlalchemy import select, text
from sqlalchemy.orm import selectinload

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
    registered = current_app.view_functions
    return {
        "navigation": [(ep, label) for ep, label in NAVIGATION if ep in registered],
        "has_endpoint": registered.__contains__,
    }


@bp.get("/")
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
def health() -> Response:
    db.session.execute(text("SELECT 1"))
    return jsonify(status="ok")
