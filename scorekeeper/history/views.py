"""Views of the history pages: past games, records, backup and restore."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    request,
    send_file,
    stream_with_context,
    url_for,
)
from flask.typing import ResponseReturnValue
from sqlalchemy import select
from werkzeug.datastructures import Headers

from scorekeeper.access import Permission, requires, visitor

from .. import local_time
from ..extensions import db
from ..limits import size_in_words
from ..models import RestoreJob
from ..text import LazyText
from ..web import UNPROCESSABLE, not_modified, page_etag, render, validated
from . import (
    backup,
    backup_files,
    formatting,
    records,
    restores,
    rounds_file,
    seasons,
    services,
)
from .forms import FilterForm, RestoreForm
from .queries import STATUS_LABELS

bp = Blueprint("history", __name__, cli_group="history")

bp.add_app_template_filter(formatting.percent, "percent")
bp.add_app_template_filter(formatting.decimal, "decimal")
bp.add_app_template_filter(formatting.quantity, "quantity")
bp.add_app_template_global(services.standings, "standings")
bp.add_app_template_global(services.seat_comings, "seat_comings")
bp.add_app_template_global(backup.summary, "summary")
bp.add_app_template_filter(size_in_words, "size")
bp.add_app_template_global(services.restore_under_way, "restore_under_way")


@bp.app_context_processor
def status_labels() -> dict[str, dict[str, LazyText]]:
    return {"status_labels": STATUS_LABELS}


@bp.get("/history")
@requires(Permission.VIEW)
def index() -> Response:
    version = services.data_version()
    etag = page_etag(version, request.full_path)
    unchanged = not_modified(etag)
    if unchanged is not None:
        return unchanged
    form = FilterForm(
        request.args,
        players=services.player_choices(),
        rules=services.rules_choices(),
    )
    if not form.validate():
        return render(
            "history/index.html",
            "history/_history.html",
            status=UNPROCESSABLE,
            form=form,
            results=None,
            filters=services.Filters(),
        )
    filters = services.Filters(
        player=form.player.data or None,
        rules=form.rules.data or None,
        since=form.since.data,
        until=form.until.data,
        status=form.status.data or None,
    )
    results = services.past_games(
        filters,
        request.args.get("page", 1, type=int) or 1,
        current_app.config["HISTORY_PAGE_SIZE"],
    )
    response = render(
        "history/index.html",
        "history/_history.html",
        form=form,
        results=results,
        filters=filters,
        latest_year=seasons.latest_year(),
    )
    # Again after rendering: a first page makes the session's CSRF secret, which the ETag
    # names (and none where a flashed message was shown, which rendering took away).
    return validated(response, etag and page_etag(version, request.full_path))


@bp.get("/records")
@requires(Permission.VIEW)
def records_page() -> Response:
    version = services.data_version()
    etag = page_etag(version)
    unchanged = not_modified(etag)
    if unchanged is not None:
        return unchanged
    response = render("history/records.html", records=records.records())
    return validated(response, etag and page_etag(version))


def _download(lines: Iterator[str], filename: str, mimetype: str) -> Response:
    headers = Headers()
    headers.set("Content-Disposition", "attachment", filename=filename)
    headers.set("Cache-Control", "no-store")
    return Response(stream_with_context(lines), mimetype=mimetype, headers=headers)


def _household() -> int:
    household_id = visitor().household_id
    if household_id is None:  # the gate lets no one here without a household
        abort(404)
    return household_id


def _backup_page(form: RestoreForm, status: int = 200, busy: int | None = None) -> Response:
    # How the household's newest restore stands or ended, for whoever may restore: one cut
    # short by a stop of the server says so here too.
    last = restores.latest() if visitor().may(Permission.BACKUP_RESTORE) else None
    response = render(
        "history/backup.html",
        status=status,
        form=form,
        report=None,
        # The kept daily files hold the members: their owner's alone (shared/spec/access.md).
        kept=backup_files.kept(_household()) if visitor().may(Permission.MEMBERS) else None,
        keep=current_app.config["BACKUP_KEEP"],
        busy=busy,
        last_restore=last,
        last_restore_interrupted=last is not None and restores.interrupted(last),
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/history/backup")
@requires(Permission.BACKUP_DOWNLOAD)
def backup_page() -> Response:
    return _backup_page(RestoreForm())


@bp.get("/history/backup/household.jsonl")
@requires(Permission.BACKUP_DOWNLOAD)
def download_household() -> Response:
    """The household's backup as of now (``household_file``): for its owner what the daily
    files hold; for a scorer its games, players and house rules, without the members."""
    return _download(
        backup.household_lines(with_members=visitor().may(Permission.MEMBERS)),
        f"scorekeeper-household-{local_time.stamp()}.jsonl",
        "application/x-ndjson",
    )


def _kept_or_404(backup_name: str) -> Path:
    """One of the household's kept backups; any other name (another household's file, a path
    that leads out of the folder) is not there."""
    path = backup_files.find(_household(), backup_name)
    if path is None:
        abort(404)
    return path


@bp.get("/history/backups/<backup_name>")
@requires(Permission.MEMBERS)  # a kept file lists the members: the owner's alone
def download_kept(backup_name: str) -> Response:
    response = send_file(
        _kept_or_404(backup_name),
        mimetype="application/x-ndjson",
        as_attachment=True,
        download_name=f"scorekeeper-household-{backup_name}",
        conditional=False,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/history/backups/<backup_name>/restore")
@requires(Permission.BACKUP_RESTORE)
def restore_kept(backup_name: str) -> ResponseReturnValue:
    """Restore one of the household's kept backups, as an upload of it would be."""
    with _kept_or_404(backup_name).open("rb") as stream:
        try:
            job_id = restores.start(stream)
        except restores.RestoreBusy as busy:
            flash(str(busy), "error")
            job_id = busy.job_id
    return redirect(url_for("history.restore_job", job_id=job_id), code=303)


@bp.get("/history/backup/games.jsonl")
@requires(Permission.BACKUP_DOWNLOAD)
def download() -> Response:
    return _download(
        backup.export_lines(),
        f"scorekeeper-games-{local_time.stamp()}.jsonl",
        "application/x-ndjson",
    )


@bp.get("/history/rounds.csv")
@requires(Permission.VIEW)
def rounds_csv() -> Response:
    return rounds_file.download(f"scorekeeper-rounds-{local_time.stamp()}.csv")


@bp.post("/history/backup")
@requires(Permission.BACKUP_RESTORE)
def restore() -> ResponseReturnValue:
    """Save an uploaded backup and start reading it; the answer is at once a redirect to the
    job's progress page, which lists each refused line when it is done."""
    form = RestoreForm()
    if not form.validate_on_submit():
        return _backup_page(form, UNPROCESSABLE)
    try:
        job_id = restores.start(form.file.data.stream)
    except restores.RestoreBusy as busy:
        form.file.errors = [str(busy)]
        return _backup_page(form, UNPROCESSABLE, busy=busy.job_id)
    return redirect(url_for("history.restore_job", job_id=job_id), code=303)


def _job_or_404(job_id: int) -> RestoreJob:
    job = db.session.scalar(select(RestoreJob).where(RestoreJob.id == job_id))
    if job is None:
        abort(404)
    return job


@bp.get("/history/restores/<int:job_id>")
@requires(Permission.BACKUP_RESTORE)
def restore_job(job_id: int) -> Response:
    job = _job_or_404(job_id)
    response = render(
        "history/restore_job.html",
        "history/_restore_job.html",
        job=job,
        interrupted=restores.interrupted(job),
        finished=job.status in restores.FINISHED,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/history/restores/<int:job_id>/cancel")
@requires(Permission.BACKUP_RESTORE)
def cancel_restore(job_id: int) -> ResponseReturnValue:
    restores.cancel(_job_or_404(job_id))
    return redirect(url_for("history.restore_job", job_id=job_id), code=303)
