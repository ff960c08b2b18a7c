"""The scoreboard's one-tap undo of the round just saved, and its way back: after an undo, the
place the button stood offers to put that round back (for as long as the undo was offered),
never the undo of the round before it, which is corrected, or deleted with a question, from
its own page (``round_views``)."""

from __future__ import annotations

from flask import flash, redirect, request, url_for
from flask.typing import ResponseReturnValue

from scorekeeper.access import Permission, requires
from scorekeeper.inputs import whole_number

from . import bp, entering
from .views import game_or_404


@bp.post("/<int:game_id>/rounds/<int:number>/undo")
@requires(Permission.SCORE)
def undo_round(game_id: int, number: int) -> ResponseReturnValue:
    """Undo the round just saved (``services.UNDO_WINDOW``), keeping it to put back."""
    game = game_or_404(game_id, lock=True)
    answer = entering.undo(game, number, version=whole_number(request.form.get("version")))
    flash(answer.said, answer.level)
    return redirect(url_for("games.show", game_id=game_id))


@bp.post("/<int:game_id>/rounds/<int:number>/put-back")
@requires(Permission.SCORE)
def put_back_round(game_id: int, number: int) -> ResponseReturnValue:
    """Put the round just undone back as it was stored, every hand as each phone entered it."""
    answer = entering.put_back(game_or_404(game_id, lock=True), number)
    flash(answer.said, answer.level)
    return redirect(url_for("games.show", game_id=game_id))
