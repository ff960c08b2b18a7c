"""Views of the players pages: thin, the work is in ``services``."""

from __future__ import annotations

from flask import Blueprint, Response, abort, flash, redirect, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.access import Permission, requires

from ..extensions import db
from ..history import rating_chart, rating_reads
from ..history.forms import options
from ..models import Player
from ..web import UNPROCESSABLE, render
from . import services
from .forms import MergeForm, RenameForm

bp = Blueprint("players", __name__, url_prefix="/players")


def _player(player_id: int) -> Player:
    player = db.session.get(Player, player_id)
    if player is None:
        abort(404)
    return player


def _merge_form(player: Player) -> MergeForm:
    form = MergeForm()
    form.other.choices = options([(0, _("Choose…")), *services.merge_choices(player)])
    return form


def _show(
    player: Player,
    rename_form: RenameForm | None = None,
    merge_form: MergeForm | None = None,
    fragment: str | None = None,
    status: int = 200,
) -> Response:
    if rename_form is None:
        rename_form = RenameForm(formdata=None, name=player.name)
    if merge_form is None:
        merge_form = _merge_form(player)
        merge_form.process(formdata=None)
    return render(
        "players/show.html",
        fragment,
        status=status,
        player=player,
        profile=services.profile(player),
        **_ratings_of(player),
        rename_form=rename_form,
        merge_form=merge_form,
    )


def _ratings_of(player: Player) -> dict[str, object]:
    """A player's ratings and their course, where the household's pages show them now."""
    if rating_reads.state() != rating_reads.SHOWN:
        return {"ratings": [], "rating_chart": None}
    return {
        "ratings": rating_reads.ratings_of(player.id),
        "rating_chart": rating_chart.course(player.id, player.name),
    }


@bp.get("")
@requires(Permission.VIEW)
def index() -> Response:
    # The ratings as the household wants them, and only once they are up to date.
    rated = rating_reads.current() if rating_reads.state() == rating_reads.SHOWN else {}
    # Highest rating first; the unrated after them, by name as the list comes.
    rows = sorted(
        services.player_rows(),
        key=lambda row: -rated[row.id].shown if row.id in rated else float("inf"),
    )
    return render("players/index.html", players=rows, ratings=rated)


@bp.get("/<int:player_id>")
@requires(Permission.VIEW)
def show(player_id: int) -> Response:
    return _show(_player(player_id))


@bp.post("/<int:player_id>/rename")
@requires(Permission.MANAGE)
def rename(player_id: int) -> BaseResponse:
    player = _player(player_id)
    form = RenameForm()
    if form.validate_on_submit():
        old = player.name
        try:
            services.rename(player, form.name.data or "")
        except services.PlayerError as refusal:
            form.name.errors = [*form.name.errors, str(refusal)]
        else:
            if old != player.name:
                flash(_("%(old)s is now called %(new)s.", old=old, new=player.name), "success")
            return redirect(url_for(".show", player_id=player.id), 303)
    return _show(player, rename_form=form, fragment="players/_rename.html", status=UNPROCESSABLE)


@bp.post("/<int:player_id>/merge")
@requires(Permission.MANAGE)
def merge(player_id: int) -> BaseResponse:
    player = _player(player_id)
    form = _merge_form(player)
    if form.validate_on_submit():
        absorbed = db.session.get(Player, form.other.data)
        if absorbed is None:
            form.other.errors = [*form.other.errors, _("That player no longer exists.")]
        else:
            name = absorbed.name
            try:
                moved = services.merge(player, absorbed)
            except services.PlayerError as refusal:
                form.other.errors = [*form.other.errors, str(refusal)]
            else:
                said = ngettext(
                    "%(other)s is merged into %(kept)s: %(num)d game moved.",
                    "%(other)s is merged into %(kept)s: %(num)d games moved.",
                    moved,
                    other=name,
                    kept=player.name,
                )
                flash(said, "success")
                return redirect(url_for(".show", player_id=player.id), 303)
    return _show(player, merge_form=form, fragment="players/_merge.html", status=UNPROCESSABLE)
