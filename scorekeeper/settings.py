"""Every ``SCOREKEEPER_*`` setting: what it holds and what it accepts, read once when the app is
made.

A small schema of our own (``SCHEMA``): each setting names its reader, a function from the
variable's text to the typed value the app uses, which raises ``ValueError`` for anything else.
A wrong value, or a name that is no setting, stops the start with one line (``StartRefused``,
exit status 2, no traceback) that names the variable, what it holds and what is expected. The
start's other refusals (an instance folder that cannot be written, a database that cannot be
reached or whose driver is missing, a port in use) are said the same way.
"""

from __future__ import annotations

import difflib
import ipaddress
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import click
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from .local_time import is_zone

PREFIX = "SCOREKEEPER_"
TRUE = frozenset({"true", "yes", "1", "on"})
FALSE = frozenset({"false", "no", "0", "off"})
# Read by the tests and the benchmarks, never by the app: allowed beside the settings.
TOOLS_VARIABLES = frozenset({"TEST_POSTGRES_URI", "TABLES", "SAVED"})
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*")
HOST_NAME = re.compile(r"[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_.])?")
POSTGRES_EXTRA = "pip install 'scorekeeper[postgres]'"


class StartRefused(click.ClickException):
    """Why the app cannot start, in one line; the command ends with status 2."""

    exit_code = 2


def show(name: str, text: str) -> str:
    """``SCOREKEEPER_<name>='<text>'``, a database address with its password masked."""
    if name == "SQLALCHEMY_DATABASE_URI":
        text = masked_url(text)
    return f"{PREFIX}{name}={text!r}"


def masked_url(text: str) -> str:
    """A database address as it may be shown: its password, if any, as ``***``, whether in
    its user part or its query (``?password=``, ``sslpassword=``); one that does not parse,
    only its scheme. A text with no ``:`` and no ``@`` has no part a password could stand in,
    and is shown as typed, so the person sees what was read."""
    if ":" not in text and "@" not in text:
        return text
    scheme = text.split(":", 1)[0][:40]
    scheme_only = (scheme if SCHEME.fullmatch(scheme) else "") + "://***"
    try:
        url = make_url(text)
    except (ArgumentError, ValueError):
        return scheme_only
    if "@" in (url.host or ""):
        return scheme_only  # a password with an "@" read as part of the host
    hidden = {key: "***" for key in url.query if "password" in key.lower()}
    return url.update_query_dict(hidden).render_as_string(hide_password=True)


def _unquoted(text: str) -> str:
    """The text, or the string it spells as JSON (values were once read as JSON)."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        try:
            value = json.loads(text)
        except ValueError:
            return text
        if isinstance(value, str):
            return value.strip()
    return text


def boolean(text: str) -> bool:
    word = _unquoted(text).lower()
    if word in TRUE:
        return True
    if word in FALSE:
        return False
    raise ValueError


def whole(least: int, most: int | None = None) -> Callable[[str], int]:
    """A reader of a whole number from ``least`` to ``most`` (no limit where None)."""

    def read(text: str) -> int:
        word = _unquoted(text)
        if not re.fullmatch(r"[+-]?\d+", word):
            raise ValueError
        number = int(word)
        if number < least or (most is not None and number > most):
            raise ValueError
        return number

    return read


def text(value: str) -> str:
    return _unquoted(value)


def web_address(value: str) -> str:
    """An http or https address with a host: what a phone can open."""
    address = _unquoted(value)
    parts = urlsplit(address)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError
    parts.port  # noqa: B018 - raises ValueError for a port that is not one
    if parts.query or parts.fragment:
        raise ValueError
    return address


def database_address(value: str) -> str:
    address = _unquoted(value)
    try:
        make_url(address).get_dialect()  # a kind of database SQLAlchemy knows
    except (ArgumentError, ValueError):
        raise ValueError from None
    return address


def ip_address(value: str) -> str:
    """The address spelled the one way, as waitress compares it with each connection's."""
    return str(ipaddress.ip_address(_unquoted(value).strip("[]")))


def host_names(value: str) -> list[str]:
    """Names as a JSON list, or separated by commas or spaces."""
    word = value.strip()
    if word.startswith("["):
        listed = json.loads(word)
        if not isinstance(listed, list) or not all(isinstance(name, str) for name in listed):
            raise ValueError
        names = [name.strip() for name in listed]
    else:
        names = _unquoted(word).replace(",", " ").split()
    if not names or not all(HOST_NAME.fullmatch(name) for name in names):
        raise ValueError
    return names


def time_zone(value: str) -> str:
    name = _unquoted(value)
    if not is_zone(name):
        raise ValueError
    return name


def log_level(value: str) -> str:
    name = _unquoted(value).upper()
    if name not in LEVELS:
        raise ValueError
    return name


@dataclass(frozen=True)
class Setting:
    """One setting: how its text is read, and what it accepts, as the refusal says it."""

    name: str
    read: Callable[[str], Any]
    expected: str
    # An empty value means "not set" (the default holds).
    empty_is_unset: bool = False


BOOLEAN = "true or false (yes/no, on/off, 1/0)"

SCHEMA: dict[str, Setting] = {
    setting.name: setting
    for setting in (
        Setting(
            "PUBLIC_URL",
            web_address,
            "an address phones can open, with its scheme and host, like "
            "http://192.168.1.20:8000 or https://cards.example.org",
            empty_is_unset=True,
        ),
        Setting("SECRET_KEY", text, "any text", empty_is_unset=True),
        Setting(
            "SQLALCHEMY_DATABASE_URI",
            database_address,
            "a database address like sqlite:////var/lib/scorekeeper/scorekeeper.db or "
            "postgresql+psycopg://user:password@host/name",
            empty_is_unset=True,
        ),
        Setting("INSTANCE_PATH", text, "a folder", empty_is_unset=True),
        Setting("PROXY_COUNT", whole(0, 10), "the number of proxies in front, 0 to 10"),
        Setting(
            "TRUSTED_PROXY",
            ip_address,
            "the IP address the proxy connects from (such as 127.0.0.1 or ::1)",
        ),
        Setting(
            "TRUSTED_HOSTS",
            host_names,
            'host names, as a JSON list (["cards.example.org"]) or separated by commas',
            empty_is_unset=True,
        ),
        Setting(
            "TIME_ZONE",
            time_zone,
            "an IANA time zone known here, like Europe/Berlin",
            empty_is_unset=True,
        ),
        Setting("LOG_LEVEL", log_level, ", ".join(LEVELS)),
        Setting("SESSION_MAX_DAYS", whole(1), "a whole number of days, 1 or more"),
        Setting("SESSION_CHECK_SECONDS", whole(0), "a whole number of seconds, 0 or more"),
        Setting("FAST_LANE_SECONDS", whole(0), "a whole number of seconds, 0 or more"),
        Setting("DAILY_BACKUPS", boolean, BOOLEAN),
        Setting("BACKUP_KEEP", whole(1), "a whole number of backups, 1 or more"),
        Setting("MAX_CONTENT_LENGTH", whole(1024 * 1024), "a number of bytes, 1048576 or more"),
        Setting("SCOREBOARD_POLL_SECONDS", whole(1), "a whole number of seconds, 1 or more"),
        Setting("HISTORY_PAGE_SIZE", whole(1, 500), "a number of games from 1 to 500"),
        Setting("PASSWORD_TIME_COST", whole(1), "a number of passes, 1 or more"),
        Setting("PASSWORD_MEMORY_KIB", whole(8), "a number of KiB, 8 or more"),
        Setting("COMPRESS_LEVEL", whole(1, 9), "a level from 1 to 9"),
        Setting("COMPRESS_DEFLATE_LEVEL", whole(1, 9), "a level from 1 to 9"),
        Setting("AUTO_MIGRATE", boolean, BOOLEAN),
        Setting("RESTORE_IN_BACKGROUND", boolean, BOOLEAN),
        Setting("RESTORE_BATCH_PAUSE_MS", whole(0, 60_000), "milliseconds from 0 to 60000"),
        Setting("BACKUPS_IN_BACKGROUND", boolean, BOOLEAN),
        Setting("RATINGS_REPLAYED_IN_SAVE", whole(0), "a number of games, 0 or more"),
        Setting("RATINGS_REPLAY_CHUNK", whole(1), "a number of games, 1 or more"),
        Setting("RATINGS_IN_BACKGROUND", boolean, BOOLEAN),
        Setting("RATINGS_REPLAY_PAUSE_MS", whole(0, 60_000), "milliseconds from 0 to 60000"),
    )
}


def refusal(name: str, value: str, expected: str) -> StartRefused:
    return StartRefused(f"{show(name, value)}: expected {expected}.")


def from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    """The settings the environment sets, each read and checked, by name without the prefix
    (``INSTANCE_PATH`` included). ``StartRefused`` for the first wrong value, or for a
    ``SCOREKEEPER_`` name that is no setting (with the nearest setting's name)."""
    chosen: dict[str, Any] = {}
    for variable in sorted(environ):
        if not variable.startswith(PREFIX):
            continue
        name = variable.removeprefix(PREFIX)
        value = environ[variable]
        setting = SCHEMA.get(name)
        if setting is None:
            if name in TOOLS_VARIABLES:
                continue
            near = difflib.get_close_matches(name, SCHEMA, n=1)
            hint = f"did you mean {PREFIX}{near[0]}? " if near else ""
            raise StartRefused(
                f"{variable} is not a setting: {hint}The settings are listed in "
                "docs/operating.md (Configuration)."
            )
        if setting.empty_is_unset and not value.strip():
            continue
        try:
            chosen[name] = setting.read(value)
        except ValueError:
            raise refusal(name, value, setting.expected) from None
    return chosen
