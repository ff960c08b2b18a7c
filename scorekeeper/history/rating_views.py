"""The ratings' own page piece: how a finished game moved its players' ratings ("Ben +1.8"),
which the finished scoreboard loads beside its result (the players pages show the ratings
themselves)."""

from __future__ import annotations

from flask import Response, abort
from sqlalchemy import select

from scorekeeper.access import Permission, requires

from ..extensions import db
from ..models import Game
from ..status import GameStatus
from ..web import render
from . import ratings
from .views import bp


def signed(value: float) -> str:
    """A rating's move as people write it: +1.8, −0.4 (a true minus sign), ±0.0."""
    text = f"{abs(value):.1f}"
    if text == "0.0":
        return "±0.0"
    return ("+" if value > 0 else "\u2212") + text


bp.add_app_template_filter(signed, "signed")


@bp.get("/history/games/<int:game_id>/ratings")
@requires(Permission.VIEW)
def game_ratings(game_id: int) -> Response:
    status = db.session.scalar(select(Game.status).where(Game.id == game_id))
    if status is None:
        abort(404)
    return render(
        "history/game_ratings.html",
        "history/_game_ratings.html",
        game_id=game_id,
        finished=status == GameStatus.FINISHED.value,
        changes=ratings.changes_in(game_id),
        provisional=ratings.PROVISIONAL,
    )
