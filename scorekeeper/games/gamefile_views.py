"""The game file's pages: a game downloaded as its game file (``export``), and a game file
uploaded to store its game (``upload``). Routes of the games blueprint, so their endpoints are
``games.export`` and ``games.upload``; the work is ``transfer``'s."""

from __future__ import annotations

import json

from flask import Response, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper.access import Permission, requires
from scorekeeper.web import UNPROCESSABLE, render
from scorekeeper.words import words

from . import bp, transfer
from .forms import UploadForm
from .gamefile import GameFileError, load_document
from .views import game_or_404


@bp.get("/<int:game_id>/export")
@requires(Permission.VIEW)
def export(game_id: int) -> ResponseReturnValue:
    game = game_or_404(game_id)
    body = json.dumps(transfer.export_game(game), indent=2, ensure_ascii=False)
    response = Response(body + "\n", mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="scorekeeper-game-{game.id}.json"'
    )
    return response


@bp.route("/import", methods=["GET", "POST"])
@requires(Permission.SCORE)
def upload() -> ResponseReturnValue:
    form = UploadForm()
    problems: list[str] = []
    if form.validate_on_submit():
        try:
            game = transfer.import_game(load_document(form.file.data.stream))
        except transfer.AlreadyStored as held:
            flash(words(held.message), "warning")
            return redirect(url_for("games.show", game_id=held.game_id))
        except GameFileError as refused:
            problems = refused.problems
        else:
            flash(_("The game was imported."), "success")
            return redirect(url_for("games.show", game_id=game.id))
    elif request.method == "POST":
        problems = [message for messages in form.errors.values() for message in messages]
    status = UNPROCESSABLE if problems else 200
    return render("games/upload.html", status=status, form=form, problems=problems)
