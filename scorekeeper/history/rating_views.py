"""The ratings' and seasons' pages: how a finished game moved its players' ratings ("Ben
+1.8"), which the finished scoreboard loads beside its result (the players pages show the
ratings themselves), and a season's ratings and records (``seasons``)."""

from __future__ import annotations

from datetime import date

from flask import Response, abort, request
from flask_babel import gettext as _
from sqlalchemy import select

from scorekeeper.access import Permission, requires

from .. import local_time
from ..extensions import db
from ..models import Game
from ..status import GameStatus
from ..web import UNPROCESSABLE, not_modified, page_etag, render, validated
from . import rating_model, rating_reads, seasons, services
from .forms import SeasonForm
from .review_views import refuse_unplayed
from .views import bp

# Every page that shows a rating asks first whether to (``rating_reads.state``).
bp.add_app_template_global(rating_reads.state, "ratings_state")


@bp.get("/history/games/<int:game_id>/ratings")
@requires(Permission.VIEW)
def game_ratings(game_id: int) -> Response:
    status = db.session.scalar(select(Game.status).where(Game.id == game_id))
    # A household that keeps no ratings has no such page (its boards do not link here).
    if status is None or rating_reads.state() == rating_reads.OFF:
        abort(404)
    return render(
        "history/game_ratings.html",
        "history/_game_ratings.html",
        game_id=game_id,
        finished=status == GameStatus.FINISHED.value,
        changes=rating_reads.changes_in(game_id)
        if rating_reads.state() == rating_reads.SHOWN
        else [],
        provisional=rating_model.PROVISIONAL,
    )


@bp.get("/seasons")
@requires(Permission.VIEW)
def season() -> Response:
    version = services.data_version()
    etag = page_etag(version, request.full_path)
    unchanged = not_modified(etag)
    if unchanged is not None:
        return unchanged
    form = SeasonForm(request.args)
    played = seasons.played_years(version)
    if not form.validate():
        return render(
            "history/season.html", status=UNPROCESSABLE, form=form, years=played, chosen=None
        )
    if form.since.data or form.until.data:
        chosen = seasons.Season(form.since.data or date.min, form.until.data or date.max)
    elif form.year.data and form.year.data not in played:
        refuse_unplayed(
            form.year.data,
            played,
            "history.season",
            _("No game was played in %(year)s, so there is no season for it."),
        )
    else:
        chosen = seasons.year(form.year.data or seasons.latest_year() or local_time.today().year)
    season_ratings, records = seasons.kept_season(version, chosen)
    response = render(
        "history/season.html",
        form=form,
        years=played,
        chosen=chosen,
        ratings=season_ratings,
        records=records,
        rate_floor=seasons.RATE_FLOOR,
    )
    return validated(response, etag and page_etag(version, request.full_path))
