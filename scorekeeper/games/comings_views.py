"""The board's "leaves the game" (asked first), "Add a player" (issue 43) and "Cy comes back"
(issue 49): the scorer's pages for ``comings``."""

from __future__ import annotations

from flask import abort, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper.access import Permission, requires
from scorekeeper.inputs import whole_number
from scorekeeper.web import UNPROCESSABLE, render

from . import bp, comings
from .rounds import RoundRefused
from .views import game_or_404


@bp.route("/<int:game_id>/leave", methods=["GET", "POST"])
@requires(Permission.SCORE)
def leave(game_id: int) -> ResponseReturnValue:
    """Asks first ("Dee leaves the game after round 12?"); the answer stores it."""
    game = game_or_404(game_id, lock=request.method == "POST")
    seat = whole_number(request.values.get("seat"), below=len(game.seats))
    if seat is None:
        abort(400)
    name = game.seats[seat].player.name
    if request.method == "POST" and request.form.get("sure") == "yes":
        try:
            comings.leave_game(game, seat)
        except RoundRefused as refused:
            return render(
                "games/leave.html",
                status=UNPROCESSABLE,
                game=game,
                seat=seat,
                name=name,
                problem=refused.in_words(),
            )
        flash(_("%(name)s left the game.", name=name), "success")
        return redirect(url_for("games.show", game_id=game.id))
    return render("games/leave.html", game=game, seat=seat, name=name, problem=None)


@bp.post("/<int:game_id>/leave/undo")
@requires(Permission.SCORE)
def undo_leave(game_id: int) -> ResponseReturnValue:
    """The board's "Undo: Cy leaves", until the next round is stored."""
    game = game_or_404(game_id, lock=True)
    seat = whole_number(request.form.get("seat"), below=len(game.seats))
    if seat is None:
        abort(400)
    try:
        comings.undo_leave(game, seat)
    except RoundRefused as refused:
        flash(refused.in_words(), "error")
        return redirect(url_for("games.show", game_id=game.id))
    flash(_("%(name)s is back at the table.", name=game.seats[seat].player.name), "success")
    return redirect(url_for("games.show", game_id=game.id))


@bp.route("/<int:game_id>/comeback", methods=["GET", "POST"])
@requires(Permission.SCORE)
def come_back(game_id: int) -> ResponseReturnValue:
    """The board's "Cy comes back", for a player who left before the last round: asks with
    which total (the one Cy had when leaving, or the highest so far, as for a joiner); the
    answer stores the comeback, or says at the field why not (a full table)."""
    game = game_or_404(game_id, lock=request.method == "POST")
    seat = whole_number(request.values.get("seat"), below=len(game.seats))
    if seat is None:
        abort(400)
    if request.method == "GET" and game.seats[seat] not in comings.away(game):
        return redirect(url_for("games.show", game_id=game.id))  # nothing to come back from
    problem = None
    if request.method == "POST" and request.form.get("sure") == "yes":
        highest = request.form.get("points") == "highest"
        try:
            total = comings.highest_total(game) if highest else None
            comings.come_back(game, game.seats[seat], total)
        except RoundRefused as refused:
            problem = refused.in_words()
        else:
            name = game.seats[seat].player.name
            flash(_("%(name)s is back at the table.", name=name), "success")
            return redirect(url_for("games.show", game_id=game.id))
    return render(
        "games/come_back.html",
        status=UNPROCESSABLE if problem else 200,
        **comings.comeback_offer(game, seat),
        problem=problem,
    )


@bp.post("/<int:game_id>/join")
@requires(Permission.SCORE)
def join(game_id: int) -> ResponseReturnValue:
    game = game_or_404(game_id, lock=True)
    total = comings.highest_total(game) if request.form.get("points") == "highest" else 0
    try:
        # The whole name as typed (the form is held to FORM_BYTES): cut before it is tidied,
        # "Zed" and a few hundred invisible characters and "Lee" would be stored as "Zed".
        seated = len(game.seats)
        keep = request.form.get("points") != "highest"
        seat = comings.join_game(game, request.form.get("name", ""), total, keep_total=keep)
    except RoundRefused as refused:
        flash(refused.in_words(), "error")
        return redirect(url_for("games.show", game_id=game.id) + "#add-player")
    if seat.position < seated:  # a player who left, back at the table
        flash(_("%(name)s is back at the table.", name=seat.player.name), "success")
        return redirect(url_for("games.show", game_id=game.id))
    flash(_("%(name)s joined the game.", name=seat.player.name), "success")
    return redirect(url_for("games.show", game_id=game.id))
