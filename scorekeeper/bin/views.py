"""``/bin``: what was deleted, when and by whom, with a way back for 30 days (owners only)."""

from __future__ import annotations

from flask import abort, flash, redirect, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext

from ..access import Permission, requires
from ..web import render
from . import bp, services


@bp.get("")
@requires(Permission.MANAGE)
def index() -> ResponseReturnValue:
    return render("bin/index.html", binned=services.contents(), days=services.KEPT_FOR.days)


@bp.post("/games/<int:game_id>/restore")
@requires(Permission.MANAGE)
def restore_game(game_id: int) -> ResponseReturnValue:
    try:
        game = services.restore_game(game_id)
    except LookupError:
        abort(404)
    flash(_("The game is back, with every round."), "success")
    return redirect(url_for("games.show", game_id=game.id), code=303)


@bp.post("/rules/<int:house_rules_id>/restore")
@requires(Permission.MANAGE)
def restore_rules(house_rules_id: int) -> ResponseReturnValue:
    try:
        record = services.restore_house_rules(house_rules_id)
    except LookupError:
        abort(404)
    except services.BinError as refused:
        flash(str(refused), "error")
        return redirect(url_for("bin.index"), code=303)
    flash(_("%(name)s are back.", name=record.name), "success")
    return redirect(url_for("rules.show", slug=record.slug), code=303)


@bp.post("/empty")
@requires(Permission.MANAGE)
def empty() -> ResponseReturnValue:
    count = services.empty()
    flash(
        ngettext(
            "The bin is empty: %(num)d thing deleted for good.",
            "The bin is empty: %(num)d things deleted for good.",
            count,
        ),
        "success",
    )
    return redirect(url_for("bin.index"), code=303)
