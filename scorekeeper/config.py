"""Configuration in layers, the secret key, and bringing the database up to date."""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import flask_migrate
from flask import Config, Flask
from sqlalchemy.exc import InterfaceError, OperationalError

from . import limits, settings
from .db import engine_options
from .extensions import db
from .models import AccessVersion

SECRET_KEY_FILE = "secret_key"
# app.extensions' key for the settings whose value instance/config.py gave, each with the file.
FROM_FILE = "scorekeeper.settings_from_file"
HOST_ONLY_SESSION_COOKIE = "__Host-session"


def defaults(instance: Path) -> dict[str, Any]:
    return {
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance / 'scorekeeper.db'}",
        "AUTO_MIGRATE": True,
        "SECRET_KEY": None,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        # CSRF tokens live as long as their session; sessions 30 days since last use.
        "WTF_CSRF_TIME_LIMIT": None,
        "PERMANENT_SESSION_LIFETIME": 30 * 24 * 3600,
        "SESSION_REFRESH_EACH_REQUEST": True,
        # Seconds a server keeps a session it has just checked (accounts/services.py,
        # _load_session) and reads only the access version instead: signing out, a password,
        # a role or a removal moves that version and ends it at once on every server; this
        # bounds only SQL typed by hand outside the app. 0: every request checks its session.
        "SESSION_CHECK_SECONDS": 5,
        # Seconds the fast lane (games/fast_lane.py) answers a phone's unchanged polls without
        # asking Flask's gate again. Any change to accounts, sessions, links or households, on
        # any server, ends every pass at once (the access version), and a pass ends with the
        # first time limit it rests on (a session's, a link's); this bounds the rest (SQL typed
        # by hand outside the app).
        # 0, or SESSION_CHECK_SECONDS 0: every poll goes through the gate.
        "FAST_LANE_SECONDS": 30,
        # Behind a TLS proxy (Caddy), the number of proxies: trusts their X-Forwarded-For,
        # -Proto and -Host headers, marks the cookies Secure and sends Strict-Transport-Security.
        "PROXY_COUNT": 0,
        # The address the proxy connects from; `serve` takes forwarded headers from it alone.
        "TRUSTED_PROXY": "127.0.0.1",
        # A session ends this many days after sign-in however often it is used (and sooner,
        # PERMANENT_SESSION_LIFETIME after its last use).
        "SESSION_MAX_DAYS": 30,
        # Host names the server answers to besides localhost, IP addresses and its own name.
        "EXTRA_HOSTS": [],
        # Where links and QR codes point, e.g. "https://cards.example.org".
        "PUBLIC_URL": None,
        # Argon2id: 3 passes over 64 MiB (argon2-cffi's RFC 9106 low-memory profile).
        "PASSWORD_TIME_COST": 3,
        "PASSWORD_MEMORY_KIB": 64 * 1024,
        # The largest request, a whole-history restore; every other page takes far less
        # (``limits.REQUEST_BYTES``).
        "MAX_CONTENT_LENGTH": limits.RESTORE_BYTES,
        # How often an open scoreboard asks whether another phone saved a round: each second,
        # so that a round shows on every phone within 1.5 s at a phone's 300 ms (bench.reach;
        # the fast lane answers the unchanged polls, and a hidden page asks nothing).
        "SCOREBOARD_POLL_SECONDS": 1,
        "HISTORY_PAGE_SIZE": 25,
        # The IANA time zone (e.g. "America/New_York") of a household that chose none; unset:
        # the machine's own, else UTC (``local_time``). Times are stored in UTC regardless.
        "TIME_ZONE": None,
        # A restore answers at once and reads the backup in a thread (off: before answering).
        "RESTORE_IN_BACKGROUND": True,
        # A pause after each batch of games a restore's job stores, in milliseconds (the tests
        # catch a restore between two batches with it).
        "RESTORE_BATCH_PAUSE_MS": 0,
        # A save replays at most this many games' ratings itself; a correction further back
        # leaves them to a worker thread (``history.rating_worker``), which replays
        # RATINGS_REPLAY_CHUNK games a transaction (off: nothing runs by itself, for tests).
        "RATINGS_REPLAYED_IN_SAVE": 100,
        "RATINGS_REPLAY_CHUNK": 500,
        "RATINGS_IN_BACKGROUND": True,
        # A pause between two parts of the worker's replay, in milliseconds.
        "RATINGS_REPLAY_PAUSE_MS": 0,
        # A household's replays left to the worker start at least this long after its last one
        # ended: the corrections that come meanwhile are folded into the next.
        "RATINGS_REPLAY_COOL_DOWN_SECONDS": 60,
        # Each household's backup is written once a day into instance/backups/<household id>/
        # (``history.backup_files``), in a thread (off: before the request that finds it due);
        # the last BACKUP_KEEP files are kept.
        "DAILY_BACKUPS": True,
        "BACKUPS_IN_BACKGROUND": True,
        "BACKUP_KEEP": 14,
        # Phones on a slow connection: pages, styles, scripts and exports travel compressed.
        "COMPRESS_MIMETYPES": [
            "text/html",
            "text/css",
            "text/csv",
            "text/javascript",
            "application/javascript",
            "application/json",
            "application/x-ndjson",
            "image/svg+xml",
        ],
        # Level 3 compresses a long scoreboard in a third of level 6's time, for ~15% more bytes.
        "COMPRESS_LEVEL": 3,
        "COMPRESS_DEFLATE_LEVEL": 3,
    }


def user_data_folder() -> Path:
    """The folder the platform gives a user's application data: ``$XDG_DATA_HOME``, by default
    ``~/.local/share`` (the XDG Base Directory specification; a relative value is ignored, as it
    says); ``%LOCALAPPDATA%`` on Windows; ``~/Library/Application Support`` on macOS."""
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"])
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support"
    chosen = os.environ.get("XDG_DATA_HOME", "")
    return Path(chosen) if os.path.isabs(chosen) else Path.home() / ".local" / "share"


def load(
    app: Flask, test_config: Mapping[str, Any] | None, chosen: Mapping[str, Any] | None = None
) -> None:
    """Fill ``app.config`` from every layer, later layers winning: the defaults,
    ``instance/config.py``, the ``SCOREKEEPER_*`` settings as read and checked
    (``settings.from_environment``: ``chosen``), ``test_config``."""
    instance = Path(app.instance_path)
    writable_instance(instance, chosen_path="INSTANCE_PATH" in (chosen or {}))
    app.config.from_mapping(defaults(instance))
    from_file = config_file(instance)
    app.config.from_mapping(from_file)
    app.config.from_mapping({k: v for k, v in (chosen or {}).items() if k != "INSTANCE_PATH"})
    if test_config is not None:
        app.config.from_mapping(test_config)
    # Which settings hold the file's value, for a later refusal to name where it was set.
    later = {*(chosen or {}), *(test_config or {})}
    app.extensions[FROM_FILE] = {
        name: str(instance / "config.py")
        for name in from_file
        if name in settings.SCHEMA and name not in later
    }
    # SCOREKEEPER_TRUSTED_HOSTS adds names; Flask's own TRUSTED_HOSTS would refuse every other
    # one, localhost and IP addresses included, so the names are checked by access.py instead.
    extra = app.config.pop("TRUSTED_HOSTS", None)
    if extra:
        app.config["EXTRA_HOSTS"] = extra
    app.config["TRUSTED_HOSTS"] = None
    if app.config["PROXY_COUNT"]:
        app.config["TRUSTED_PROXY"] = trusted_proxy(app.config.get("TRUSTED_PROXY"))
        app.config["SESSION_COOKIE_SECURE"] = True
        app.config["REMEMBER_COOKIE_SECURE"] = True
        if app.config["SESSION_COOKIE_NAME"] == "session":
            # Behind HTTPS the browser holds the cookie to this exact host, path and scheme:
            # no sibling subdomain may set or shadow it (OWASP ASVS 3.4.4).
            app.config["SESSION_COOKIE_NAME"] = HOST_ONLY_SESSION_COOKIE
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = instance_secret_key(instance)
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    private_sqlite_files(uri)
    options = engine_options(uri)
    options.update(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options


def config_file(instance: Path) -> dict[str, Any]:
    """What ``instance/config.py`` sets, if it is there, each setting checked
    (``settings.from_config_file``); ``StartRefused`` where it cannot be read or run, naming
    the line (never the error's words, which may quote a value)."""
    path = instance / "config.py"
    if not path.exists():
        return {}
    values = Config(str(instance))
    try:
        # Not silent: Flask's silent reading would skip the whole file where its own code
        # opens a file that is missing.
        values.from_pyfile("config.py")
    except Exception as error:
        frames = traceback.extract_tb(error.__traceback__)
        lines = [frame.lineno for frame in frames if frame.filename == str(path)]
        if isinstance(error, SyntaxError):
            lines = [error.lineno]
        where = f", line {lines[-1]}" if lines else ""
        why = type(error).__name__
        if isinstance(error, OSError) and not lines:  # the file itself: unreadable
            why = str(error.strerror)
        raise settings.StartRefused(
            f"{path}: cannot be read ({why}{where}); expected Python that sets upper-case names, "
            'like PUBLIC_URL = "https://cards.example.org".'
        ) from None
    return settings.from_config_file(values, str(path))


def trusted_proxy(value: object) -> str:
    """The proxy's address as waitress compares it with each connection's (the very string):
    an IP address, spelled the one way. A host name would never match, and every stranger
    would then look like the proxy itself."""
    setting = settings.SCHEMA["TRUSTED_PROXY"]
    try:
        return str(setting.read(str(value or "127.0.0.1")))
    except ValueError:
        raise settings.refusal(setting.name, str(value), setting.expected) from None


def writable_instance(instance: Path, chosen_path: bool) -> None:
    """Make the instance folder where it is missing; ``StartRefused`` where it cannot be made
    or written (a file stands there, a folder of another user, a read-only disk)."""
    where = f"SCOREKEEPER_INSTANCE_PATH={str(instance)!r}" if chosen_path else str(instance)
    expected = "expected a folder this user can write" + (
        "" if chosen_path else " (SCOREKEEPER_INSTANCE_PATH names another)"
    )
    if instance.exists() and not instance.is_dir():
        raise settings.StartRefused(f"{where}: the instance folder is a file; {expected}.")
    try:
        instance.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=instance):
            pass
    except OSError as error:
        raise settings.StartRefused(
            f"{where}: the instance folder cannot be made or written ({error.strerror}); "
            f"{expected}."
        ) from None


def set_in_file(app: Flask, name: str) -> str | None:
    """The file that gave the setting ``name`` its value (``instance/config.py``), or None
    where the environment or the defaults did."""
    return app.extensions.get(FROM_FILE, {}).get(name)


def missing_driver(
    uri: str, missing: ModuleNotFoundError, file: str | None = None
) -> settings.StartRefused:
    """The refusal for a database whose driver is not installed, naming what to install (and
    ``file``, where the address was set there)."""
    driver = (missing.name or "").partition(".")[0]
    if driver == "psycopg":
        advice = f"install it with {settings.POSTGRES_EXTRA}"
    else:
        advice = (
            "Scorekeeper works with SQLite and, through psycopg, PostgreSQL "
            f"(postgresql+psycopg://..., {settings.POSTGRES_EXTRA})"
        )
    shown = settings.show("SQLALCHEMY_DATABASE_URI", uri, file)
    return settings.StartRefused(f"{shown}: its driver {driver} is not installed; {advice}.")


def unreachable(uri: str, error: Exception, file: str | None = None) -> settings.StartRefused:
    """The refusal for a database that does not answer, with the driver's reason: its first
    line, naming the host as the shown address does, with no part of the password in it (and
    ``file``, where the address was set there)."""
    reason = (str(getattr(error, "orig", None) or error).strip().splitlines() or [""])[0]
    reason = settings.scrubbed(reason.strip(), uri)
    shown = settings.show("SQLALCHEMY_DATABASE_URI", uri, file)
    # An "@" past the user's: part of the password was read as the host.
    stray_at = uri.count("@") > 1 or "@" in uri.partition("?")[2]
    hint = ' (an "@" in its password written %40)' if stray_at else ""
    return settings.StartRefused(
        f"{shown}: the database cannot be reached ({reason}); expected a database that "
        f"answers at that address{hint}."
    )


def private_sqlite_files(uri: str) -> None:
    """Make the SQLite database readable by its owner only, from the moment it exists: the
    file is made here with mode 0600 before SQLite opens it (its -wal and -shm files take the
    database's mode), and an older one is narrowed."""
    if not uri.startswith("sqlite:///") or "mode=memory" in uri or uri == "sqlite://":
        return
    path = Path(uri.removeprefix("sqlite:///").partition("?")[0])
    if not path.name or str(path) == ":memory:":
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
        for suffix in ("", "-wal", "-shm", "-journal"):
            companion = path.with_name(path.name + suffix)
            if companion.exists() and companion.stat().st_mode & 0o077:
                companion.chmod(0o600)
    except OSError:
        pass  # a read-only place: SQLite will say so itself, clearly


def instance_secret_key(instance: Path) -> str:
    """The key kept in ``instance/secret_key``, made on first start.

    Several workers may start at once: the file is created exclusively, so they all end up
    reading the one key that was written first.
    """
    path = instance / SECRET_KEY_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):
            key = path.read_text().strip()
            if key:
                return key
            # Another worker created the file a moment ago and is still writing it.
            import time

            time.sleep(0.02)
        raise RuntimeError(f"{path} is empty: delete it and start again") from None
    key = secrets.token_hex(32)
    with os.fdopen(fd, "w") as handle:
        handle.write(key + "\n")
    return key


def upgrade_database(app: Flask) -> None:
    """Apply every migration the database lacks: a new file gets the whole schema."""
    from sqlalchemy.exc import IntegrityError

    with app.app_context():
        try:
            with db.engine.connect():
                pass
        except (OperationalError, InterfaceError) as failed:
            uri = app.config["SQLALCHEMY_DATABASE_URI"]
            file = set_in_file(app, "SQLALCHEMY_DATABASE_URI")
            raise unreachable(uri, failed, file) from None
        flask_migrate.upgrade(directory=app.extensions["migrate"].directory)
        # The access version's one row (made by migration 0009), again where something emptied
        # the table: without it the fast lane stays shut (games/fast_lane.py).
        if db.session.get(AccessVersion, 1) is None:
            db.session.add(AccessVersion(id=1, version=0))
            try:
                db.session.commit()
            except IntegrityError:  # another server starting at the same moment made it
                db.session.rollback()
        db.session.remove()
