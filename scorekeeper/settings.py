"""Every ``SCOREKEEPER_*`` setting: what it holds and what it accepts, read once when the app is
made.

A small schema of our own (``SCHEMA``): each setting names its reader, a function from the
variable's text to the typed value the app uses, which raises ``ValueError`` for anything else.
A wrong value, or a name that is no setting, stops the start with one line (``StartRefused``,
exit status 2, no traceback) that names the variable, what it holds and what is expected.
``instance/config.py`` sets the same names without the prefix, as Python values: each is
checked by the same reader, from its value spelled as the environment would spell it, and a
wrong one is said naming the setting and the file. The start's other refusals (an instance
folder that cannot be written, a database that cannot be reached or whose driver is missing, a
port in use) are said the same way.
"""

from __future__ import annotations

import difflib
import ipaddress
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

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
# Where a driver's reason names the host it tried: psycopg's "failed to resolve host 'x'",
# "connection to server at "x", port 5432 failed", "host: 'x'".
NAMED_HOST = re.compile(r"""(\bhost:? |\bserver at )(['"])(.*?)\2""")


class StartRefused(click.ClickException):
    """Why the app cannot start, in one line; the command ends with status 2."""

    exit_code = 2


def show(name: str, value: object, file: str | None = None) -> str:
    """``SCOREKEEPER_<name>='<value>'``, or ``<name> = '<value>' in <file>`` for a value of
    ``instance/config.py``: a database address with its password masked, a secret key never."""
    if name == "SQLALCHEMY_DATABASE_URI" and isinstance(value, str):
        value = masked_url(value)
    shown = "***" if name == "SECRET_KEY" and file is not None else repr(value)
    return f"{name} = {shown} in {file}" if file is not None else f"{PREFIX}{name}={shown}"


def masked_url(text: str) -> str:
    """A database address as it may be shown: its password, if any, as ``***`` in its user
    part, and its query as ``***`` where any key names a password (``?password=``,
    ``sslpassword=``); one that does not parse, or whose reading would show any three
    characters together of what could be its password (an unencoded ``@`` in it makes part of
    it the host), only its scheme. A text with no ``:``, no ``@`` and no ``password`` has no
    part a password could stand in, and is shown as typed, so the person sees what was read."""
    if ":" not in text and "@" not in text and "password" not in text.lower():
        return text
    parts = password_parts(text)
    scheme = text.split(":", 1)[0][:40]
    scheme_only = (scheme if SCHEME.fullmatch(scheme) else "") + "://***"
    try:
        url = make_url(text)
    except (ArgumentError, ValueError):
        url = None
    masked = scheme_only
    if url is not None and "@" not in (url.host or ""):  # else an "@" of the password in it
        masked = url.set(query={}).render_as_string(hide_password=True)
        if url.query:
            # A password in the query may hold an "&" that splits it into more keys: a query
            # that names a password is not shown at all.
            named = any("password" in key.lower() for key in url.query)
            masked = masked + "?***" if named else url.render_as_string(hide_password=True)
    for shown in (masked, scheme_only):
        if not _holds_part_of(shown, parts):
            return shown
    return "***"


def password_parts(text: str) -> set[str]:
    """Every text the password of the database address ``text`` could be, however the address
    is read: as SQLAlchemy reads it, what follows the user's ``:`` up to each ``@`` after it
    (a password may hold an unencoded ``@``), and the values of the query's keys that name a
    password; each as written and percent-decoded."""
    parts: set[str] = set()
    try:
        url = make_url(text)
    except (ArgumentError, ValueError):
        pass
    else:
        if url.password:
            parts.add(str(url.password))
        for key, values in url.query.items():
            if "password" in key.lower():
                parts.update([values] if isinstance(values, str) else values)
    rest = text.split("://", 1)[1] if "://" in text else text.partition(":")[2]
    for at, char in enumerate(rest):
        if char == "@" and ":" in rest[:at]:
            parts.add(rest[:at].split(":", 1)[1])
    pairs = text.partition("?")[2].split("&")
    for at, pair in enumerate(pairs):
        key, is_pair, value = pair.partition("=")
        if is_pair and "password" in unquote(key).lower():
            # An "&" in the password, unencoded, ends the value early: up to each later one too.
            parts.update(
                "&".join([value, *pairs[at + 1 : end]]) for end in range(at + 1, len(pairs) + 1)
            )
    return {part for part in parts | {unquote(part) for part in parts} if part}


def _holds_part_of(text: str, parts: set[str]) -> bool:
    """Whether ``text``, as written or percent-decoded, holds three characters together of any
    of ``parts``."""
    seen = (text, unquote(text))
    return any(piece in shown for piece in _pieces(parts) for shown in seen)


def _pieces(parts: set[str]) -> set[str]:
    """Every run of three characters of ``parts``: any longer run holds one."""
    return {part[at : at + 3] for part in parts for at in range(len(part) - 2)}


def scrubbed(reason: str, address: str) -> str:
    """A driver's ``reason`` for not reaching the database at ``address``, as it may be shown:
    any host it names (as the driver read the address, which may hold part of the password) as
    the shown address names it, and every run of three or more characters of what could be the
    password as ``***``."""
    try:
        host = make_url(masked_url(address)).host
    except (ArgumentError, ValueError):
        host = None
    named = host if host and "*" not in host else "***"
    reason = NAMED_HOST.sub(lambda found: f"{found[1]}{found[2]}{named}{found[2]}", reason)
    pieces = _pieces(password_parts(address))
    hidden = [False] * len(reason)
    for piece in pieces:
        at = reason.find(piece)
        while at >= 0:
            hidden[at : at + 3] = [True] * 3
            at = reason.find(piece, at + 1)
    shown: list[str] = []
    for at, char in enumerate(reason):
        if not hidden[at]:
            shown.append(char)
        elif at == 0 or not hidden[at - 1]:
            shown.append("***")
    return "".join(shown)


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
        Setting("RATINGS_REPLAY_COOL_DOWN_SECONDS", whole(0), "a number of seconds, 0 or more"),
    )
}


def refusal(name: str, value: object, expected: str, file: str | None = None) -> StartRefused:
    return StartRefused(f"{show(name, value, file)}: expected {expected}.")


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


def from_config_file(values: Mapping[str, Any], file: str) -> dict[str, Any]:
    """The values ``instance/config.py`` (``file``) sets, by name: each setting's read and
    checked as its environment variable is; any other name (one of Flask's own, an
    extension's) as it is. ``StartRefused`` for the first wrong value, naming the setting and
    the file."""
    chosen: dict[str, Any] = {}
    for name in sorted(values):
        value = values[name]
        setting = SCHEMA.get(name)
        if setting is None:
            chosen[name] = value
        elif name == "INSTANCE_PATH":
            raise StartRefused(
                f"{show(name, value, file)}: the instance folder is chosen before this file is "
                f"read; expected {PREFIX}INSTANCE_PATH in the environment instead."
            )
        elif setting.empty_is_unset and (value is None or str(value).strip() == ""):
            continue
        elif name == "SECRET_KEY" and isinstance(value, bytes):
            chosen[name] = value  # Flask signs with bytes as well as with text
        else:
            try:
                chosen[name] = setting.read(_spelled(value))
            except ValueError:
                raise refusal(name, value, setting.expected, file) from None
    return chosen


def _spelled(value: object) -> str:
    """A value of ``instance/config.py`` as the environment would spell it (``ValueError``
    where it has no such spelling: a fraction, None, a mapping)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | str):
        return str(value)
    if isinstance(value, list | tuple) and all(isinstance(item, str) for item in value):
        return json.dumps(list(value))
    raise ValueError
