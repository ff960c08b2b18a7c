"""Scorekeeper: scorekeeping and a house referee for the Contract Rummy family of card games."""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from . import (
    access,
    assets,
    catalogues,
    config,
    errors,
    inputs,
    languages,
    local_time,
    request_log,
    security,
    server,
    settings,
    words,
)
from .extensions import babel, compress, csrf, db, kept, login_manager, migrate
from .request_log import MaskedFlask
from .status import GameStatus

__version__ = "0.1.0"

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
MIGRATIONS = PACKAGE / "migrations"
# In a checkout (an editable install, or the tests) the templates and static files are the
# repository's own, beside the package; an installed wheel carries copies inside the package
# (setup.py), and keeps its instance folder in the user's data folder, not in site-packages.
FROM_CHECKOUT = (ROOT / "pyproject.toml").is_file() and (ROOT / "templates").is_dir()
PAGES = ROOT if FROM_CHECKOUT else PACKAGE

# One blueprint per feature; a feature package exposes ``bp``. Features not written yet are
# simply absent, so each can land on its own.
FEATURES = ("main", "accounts", "games", "referee", "rulebook", "players", "history", "bin")


def default_instance() -> Path:
    """Where the database, the secret key and ``config.py`` live unless
    ``SCOREKEEPER_INSTANCE_PATH`` says: ``instance/`` in a checkout; installed, the user's data
    folder (``$XDG_DATA_HOME/scorekeeper``, by default ``~/.local/share/scorekeeper``), which
    outlives the virtual environment it is installed in."""
    if FROM_CHECKOUT:
        return ROOT / "instance"
    return config.user_data_folder() / "scorekeeper"


@server.whole_start
def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then ``instance/config.py``, then ``SCOREKEEPER_*`` variables,
    then ``test_config``; bring the database up to date; register every feature.

    A wrong setting, an instance folder that cannot be written, a database that cannot be
    reached or whose driver is missing stop it with ``settings.StartRefused`` (one line)."""
    chosen = settings.from_environment(os.environ)
    app = MaskedFlask(
        __name__,
        instance_path=str(chosen.get("INSTANCE_PATH") or default_instance()),
        instance_relative_config=True,
        template_folder=str(PAGES / "templates"),
        static_folder=str(PAGES / "static"),
    )
    config.load(app, test_config, chosen)
    request_log.mask_development_server()
    from . import hooks
    from .games import fast_lane

    hooks.install()  # every event listener, each with why: before the database is first used
    hooks.install_app(app)

    fast_lane.init_app(app)  # inside ProxyFix: it sees the addresses and hosts the views see
    if app.config["PROXY_COUNT"]:
        hops = int(app.config["PROXY_COUNT"])
        # What Caddy sets (X-Forwarded-For, -Proto, -Host) and nothing else: a header the proxy
        # passes on from the client as it came (X-Forwarded-Prefix, -Port) must not move the
        # addresses the pages name.
        # Flask's way to wrap the app; mypy forbids assigning to a method.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=0, x_prefix=0
        )
    inputs.init_app(app)

    try:
        db.init_app(app)
    except ModuleNotFoundError as missing:  # the database's driver
        file = config.set_in_file(app, "SQLALCHEMY_DATABASE_URI")
        raise config.missing_driver(app.config["SQLALCHEMY_DATABASE_URI"], missing, file) from None
    migrate.init_app(app, db, directory=str(MIGRATIONS))
    csrf.init_app(app)
    babel.init_app(
        app,
        locale_selector=languages.select_locale,
        # Flask-Babel's own date filters write times in the household's zone, as ours do.
        timezone_selector=local_time.zone_name,
        default_translation_directories=str(languages.CATALOGUES),
    )
    languages.init_app(app)
    words.init_app(app)  # the rules engine's messages in the page's language
    catalogues.init_app(app)
    login_manager.init_app(app)
    login_manager.session_protection = None  # sessions are ended server-side instead
    access.init_app(app)
    compress.init_app(app)
    kept.init_app(app)
    security.init_app(app)
    assets.init_app(app)
    errors.init_app(app)
    local_time.init_app(app)
    # Templates compare a game's status with the enum, not with strings of their own.
    app.jinja_env.globals["GameStatus"] = GameStatus
    server.init_app(app)

    for feature in FEATURES:
        if find_spec(f"{__name__}.{feature}") is not None:
            app.register_blueprint(import_module(f"{__name__}.{feature}").bp)

    if app.config["AUTO_MIGRATE"]:
        config.upgrade_database(app)
        with app.app_context():
            if not access.accounts_exist(app):
                from .accounts.setup import ensure_code

                ensure_code(app)
        from .bin.services import purge_now_and_then
        from .history import rating_worker
        from .history.backup_files import backup_now_and_then

        purge_now_and_then(app)  # on start, then at most daily (see before_request below)
        app.before_request(lambda: purge_now_and_then(app))
        backup_now_and_then(app)  # the same: on start, then each new day
        app.before_request(lambda: backup_now_and_then(app))
        # The ratings' worker, in each server process from its first request on (a forked
        # process has no thread of its parent's): it finishes a replay a stopped server left.
        app.before_request(lambda: rating_worker.start_now_and_then(app))
    return app
