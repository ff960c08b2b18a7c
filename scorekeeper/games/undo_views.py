"""The scoreboard's one-tap undo of the round just saved, and its way back: after an undo, the
place the button stood offers to put that round back (for as long as the undo was offered),
never the undo of the round before it, which is corrected, or deleted with a question, from
its own page (``round_views``)."""

from __future__ import annotations

from flask import flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper.access import Permission, requires
from scorekeeper.inputs import whole_number

from . import bp, rounds
from .views import game_or_404


@bp.post("/<int:game_id>/rounds/<int:number>/undo")
@requires(Permission.SCORE)
def undo_round(game_id: int, number: int) -> ResponseReturnValue:
    """Undo the round just saved (``services.UNDO_WINDOW``), keeping it to put back."""
    game = game_or_404(game_id, lock=True)
    try:
        rounds.undo_last_round(game, number, version=whole_number(request.form.get("version")))
    except rounds.RoundConflict as conflict:
        flash(str(conflict), "error")
    else:
        flash(_("Round %(number)s undone.", number=number), "success")
    return redirect(url_for("games.show", game_id=game.id))


@bp.post("/<int:game_id>/rounds/<int:number>/put-back")
@requires(Permission.SCORE)
def put_back_round(game_id: int, number: int) -> ResponseReturnValue:
    """Put the round just undone back as it was stored, every hand as each phone entered it."""
    game = game_or_404(game_id, lock=True)
    try:
        rounds.put_back(game, number)
    except rounds.RoundRefused as refused:
        flash(
            _(
                "Round %(number)s cannot be put back as it was: %(why)s",
                number=number,
                why=refused.in_words(),
            ),
            "error",
        )
    except rounds.RoundConflict as conflict:
        flash(str(conflict), "error")
    else:
        flash(_("Round %(number)s put back.", number=number), "success")
    return redirect(url_for("games.show", game_id=game.id))
