"""The home page and the health check."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from contextlib import closing
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import selectinload

from . import languages
from .access import Permission, declared, requires, visitor
from .assets import HTMX_FILE
from .extensions import db
from .models import AccessVersion, Game
from .status import GameStatus
from .text import lazy_gettext as _l
from .web import render

bp = Blueprint("main", __name__)

# The navigation, in order; an entry shows once its feature is registered.
NAVIGATION = (
    ("games.new", _l("New game")),
    ("referee.index", _l("Referee")),
    ("history.index", _l("History")),
    ("players.index", _l("Players")),
    ("rules.index", _l("Rules")),
)
# The household's own pages, after the rest.
HOUSEHOLD_PAGES = (("accounts.members", _l("Members")), ("bin.index", _l("Bin")))


@bp.app_context_processor
def navigation() -> dict[str, object]:
    """The entries this visitor may open (a phone let in by a link sees the referee only)."""
    registered = current_app.view_functions
    who = visitor()
    shown = []
    for endpoint, label in (*NAVIGATION, *HOUSEHOLD_PAGES):
        access = declared(current_app, endpoint) if endpoint in registered else None
        if access is None:
            continue
        public = access.permission is Permission.PUBLIC
        if public or (who.user is not None and who.may(access.permission)):
            shown.append((endpoint, label))
    return {"navigation": shown, "has_endpoint": registered.__contains__}


@bp.get("/")
@requires(Permission.VIEW)
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
@requires(Permission.PUBLIC)
def health() -> Response | tuple[Response, int]:
    """For a monitor, a load balancer or a container's health check: ``ok`` once a table of
    the migrated database answers, else 503. A SQLite file deleted under the server fails it
    too: the connections kept open would still read the deleted file."""
    try:
        found = db.session.scalar(select(AccessVersion.id).where(AccessVersion.id == 1))
        url = db.engine.url
        database = (url.database or "") if url.get_backend_name() == "sqlite" else ""
        on_disk = database and not database.startswith((":memory:", "file:"))
        gone = bool(on_disk) and not _sqlite_file_answers(Path(database))
    except SQLAlchemyError:
        db.session.rollback()
        found, gone = None, True
    if found is None or gone:
        return jsonify(status="unavailable"), 503
    return jsonify(status="ok")


def _sqlite_file_answers(path: Path) -> bool:
    """Whether the file at ``path`` is still the migrated database: asked on a connection of
    its own, read-only so that it never makes a file. The pooled connections would still read
    a file deleted under them, and once anything has opened that path again (a worker of the
    app, a careless restore) an empty file stands where the family's data was."""
    if not path.is_file():
        return False
    try:
        with closing(
            sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
        ) as con:
            return con.execute("SELECT id FROM access_versions WHERE id = 1").fetchone() is not None
    except sqlite3.Error:
        return False


# The files the service worker keeps for the table's Wi-Fi dropping out.
SHELL_FILES = ("css/app.css", "js/app.js", "icons/icon-192.png", "icons/icon-512.png")


@bp.get("/manifest.webmanifest")
@requires(Permission.PUBLIC)
def manifest() -> Response:
    """The web app manifest: the app installs on a phone's home screen and opens full screen."""
    document = {
        "name": "Scorekeeper",
        "short_name": _("Scores"),
        "description": _("Scores for Contract Rummy at the family table."),
        "lang": languages.current(),
        "start_url": url_for("main.index"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#f7f6f2",
        "theme_color": "#1d6b45",
        "icons": [
            {
                "src": url_for("static", filename=f"icons/icon-{size}.png"),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": "any maskable",
            }
            for size in (192, 512)
        ],
    }
    return Response(json.dumps(document, indent=2), mimetype="application/manifest+json")


@bp.get("/sw.js")
@requires(Permission.PUBLIC)
def service_worker() -> Response:
    """static/sw.js served from the site's root, so that its scope is every page."""
    static = Path(current_app.static_folder or "static")
    response = Response((static / "sw.js").read_text(), mimetype="text/javascript")
    # Browsers look for a new worker on their own; no cache must keep an old one alive.
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.app_context_processor
def service_worker_address() -> dict[str, object]:
    """The worker's address, with the shell it keeps (versioned static addresses included)."""
    # The same for every page a process draws under one root: worked out once per root
    # (six addresses built on every page were a tenth of a scoreboard's time).
    known: dict[str, str] = current_app.extensions.setdefault("service_worker_urls", {})
    root = request.script_root
    address = known.get(root)
    if address is None:
        shell = [url_for("static", filename=name) for name in (*SHELL_FILES, HTMX_FILE)]
        # `shell` is the worker's query argument, not a subprocess's: nothing runs a shell.
        address = url_for("main.service_worker", shell=json.dumps(shell))  # nosec B604
        known[root] = address
    return {"service_worker_url": address, "kept_for": _kept_for()}


def _kept_for() -> str:
    """Whose pages the service worker keeps from this page on: the account's, or a link
    phone's household's (its links all open one family's games); empty for nobody. When it
    changes, static/sw.js drops what it kept for the one before (issue 36), as
    ``Clear-Site-Data`` does where the browser takes that header."""
    who = visitor()
    if who.user is not None:
        named = f"account {who.user.id}"
    elif who.link is not None:
        named = f"links of household {who.link.household_id}"
    else:
        return ""
    return hashlib.blake2b(named.encode(), digest_size=9).hexdigest()
