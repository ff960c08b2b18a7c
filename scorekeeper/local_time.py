"""Times as the family reads them: in its household's time zone.

Every moment is stored in UTC (``models.UTCDateTime``) and turned into the household's local
time only where it is shown, here and nowhere else: the templates' filters (``day``,
``day_time``, ``short_day``, ``short_day_time``, ``weekday``, ``moment``) and the same functions
for the CSV, the result card and file names. They are written by Babel in the page's language
(``languages.current``): ``24 Dec 2025 19:30`` in English as the app always wrote it,
``24 dic 2025 19:30`` in Spanish, and in any other language as its CLDR data writes a day, a
month and a year. A day the family names (the history's ``from`` and
``to``) runs from local midnight to local midnight; ``midnight`` gives the UTC moment it
starts, so that a query compares the stored column with it and keeps its index.

A household's zone is an IANA name (``America/New_York``) kept on the household; where it has
none, the server's is used: ``SCOREKEEPER_TIME_ZONE``, else the machine's own zone, else UTC.
"""

from __future__ import annotations

import os
import unicodedata
from contextlib import suppress
from datetime import UTC, date, datetime, time, tzinfo
from functools import cache, lru_cache
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from babel import Locale, dates
from flask import Flask, current_app, g, has_app_context
from sqlalchemy import select

from . import languages, scope
from .extensions import db
from .models import Household

FALLBACK = "UTC"
# Where Debian and most Linux machines name their zone, and where /etc/localtime points.
_MACHINE_ZONE_FILE = Path("/etc/timezone")
_LOCALTIME = Path("/etc/localtime")


@cache
def zone_names() -> tuple[str, ...]:
    """Every IANA zone this machine knows, sorted (UTC at least)."""
    names = set(available_timezones()) | {FALLBACK}
    return tuple(sorted(names))


# The IANA zones of places (``Europe/Madrid``), not the machine's own names (``Factory``,
# ``localtime``) nor the old aliases (``US/Eastern``, ``EST``).
_PLACES: tuple[str, ...] = (
    "Africa/",
    "America/",
    "Antarctica/",
    "Asia/",
    "Atlantic/",
    "Australia/",
    "Europe/",
    "Indian/",
    "Pacific/",
)


def zone_choices(kept: str | None = None) -> list[tuple[str, str]]:
    """The zones to choose from, each by its name in the page's language as Babel (CLDR)
    writes a zone's place: "España (Madrid)", "Estados Unidos (Nueva York)", "Spain
    (Madrid)"; sorted by that name, one of each name, UTC first. ``kept``, the zone chosen
    already, is among them whatever it is."""
    choices = list(_zone_choices(languages.locale()))
    if kept and kept not in {zone for zone, _name in choices}:
        choices.insert(1, (kept, kept.replace("_", " ")))
    return choices


@cache
def _zone_choices(locale: str) -> tuple[tuple[str, str], ...]:
    region = Locale.parse(locale).zone_formats["region"]
    before, _mark, after = region.partition("%s")
    named: dict[str, str] = {}
    for zone in zone_names():
        if not zone.startswith(_PLACES):
            continue
        try:
            place = str(dates.get_timezone_location(zone, locale=locale))
        except LookupError:
            continue
        place = place.removeprefix(before).removesuffix(after).strip() if after or before else place
        named.setdefault(place[:1].upper() + place[1:], zone)
    places = sorted(named.items(), key=lambda pair: _sort_key(pair[0]))
    return ((FALLBACK, FALLBACK), *((zone, place) for place, zone in places))


def _sort_key(text: str) -> str:
    """Sorted as people sort: accents and case aside ("Égypte" among the E's)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def is_zone(name: str | None) -> bool:
    """Whether ``name`` is an IANA zone this machine knows (exactly as spelled)."""
    return bool(name) and name in _known()


@cache
def _known() -> frozenset[str]:
    return frozenset(zone_names())


@cache
def zone_named(name: str) -> tzinfo:
    """The zone ``name`` names; UTC where it is not known here (its data gone since)."""
    if name == FALLBACK or not is_zone(name):
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return UTC


def machine_zone_name() -> str | None:
    """The IANA name of the machine's own zone: ``TZ``, ``/etc/timezone``, or where
    ``/etc/localtime`` points; None where none of them names a zone known here."""
    candidates = [os.environ.get("TZ", "").lstrip(":")]
    with suppress(OSError):
        candidates.append(_MACHINE_ZONE_FILE.read_text(encoding="utf-8").strip())
    with suppress(OSError, RuntimeError):
        target = str(_LOCALTIME.resolve())
        if "zoneinfo/" in target:
            candidates.append(target.split("zoneinfo/", 1)[1])
    return next((name for name in candidates if is_zone(name)), None)


def server_zone_name(app: Flask | None = None) -> str:
    """The zone of a household that chose none: the configured one, the machine's, or UTC."""
    app = app or current_app
    configured = app.config.get("TIME_ZONE")
    if is_zone(configured):
        return str(configured)
    return machine_zone_name() or FALLBACK


def init_app(app: Flask) -> None:
    """Check the configured zone (a wrong one is said once, and the machine's used instead)
    and give the templates the filters."""
    configured = app.config.get("TIME_ZONE")
    if configured and not is_zone(configured):
        app.logger.warning(
            "SCOREKEEPER_TIME_ZONE=%r is not an IANA time zone known here (like "
            "Europe/Berlin): using %s instead.",
            configured,
            server_zone_name(app),
        )
    for name, fn in (
        ("day", day),
        ("day_time", day_time),
        ("short_day", short_day),
        ("short_day_time", short_day_time),
        ("weekday", weekday),
        ("moment", moment),
    ):
        app.add_template_filter(fn, name)


# --- the household's zone ---------------------------------------------------------------------


def zone_name() -> str:
    """The name of the zone of the household in scope (the server's outside any)."""
    household = scope.current()
    if not isinstance(household, int) or household == scope.NOBODY or not has_app_context():
        return server_zone_name()
    name = g.setdefault("time_zones", {}).get(household)
    if name is None:
        chosen = db.session.scalar(select(Household.time_zone).where(Household.id == household))
        name = chosen_zone(household, chosen)
    return name


def chosen_zone(household: int, chosen: str | None) -> str:
    """The zone ``household`` is shown in, given what it chose (read by a caller that asked
    the database anyway): kept for the rest of the request, and returned."""
    name = chosen if chosen is not None and is_zone(chosen) else server_zone_name()
    if has_app_context():
        g.setdefault("time_zones", {})[household] = name
    return name


def forget_zone() -> None:
    """The zone was changed in this request: read it again when next asked."""
    if has_app_context():
        g.pop("time_zones", None)


def zone() -> tzinfo:
    return zone_named(zone_name())


def local(value: datetime) -> datetime:
    """``value`` (aware; a naive one is taken as UTC) in the household's zone; in UTC where the
    zone would carry it past the years a datetime holds (a time stored before the app refused
    those outside ``limits.EARLIEST_TIME`` to ``LATEST_TIME``): shown as stored, never an
    error."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    try:
        return value.astimezone(zone())
    except (OverflowError, ValueError):
        return value.astimezone(UTC)


def today() -> date:
    return datetime.now(zone()).date()


def midnight(day: date) -> datetime | None:
    """The UTC moment ``day`` starts in the household's zone (at a jump over midnight, the
    first moment of the day); None where that lies beyond the years a datetime holds."""
    return at(day, 0)


def at(day: date, hour: int) -> datetime | None:
    """The UTC moment the household's clocks show ``hour`` o'clock on ``day`` (at a jump over
    that hour, the first moment after it); None where that lies beyond the years a datetime
    holds."""
    try:
        return datetime.combine(day, time(hour), zone()).astimezone(UTC)
    except (OverflowError, ValueError):
        return None


# --- how times read ---------------------------------------------------------------------------

# What each is made of, as CLDR's skeletons name it: a day (``yMMMd``), a day without its year
# (``MMMd``), a time on the 24-hour clock (``Hm``), a day of the week (``EEEE``).
DAY, SHORT_DAY, TIME, WEEKDAY = "yMMMd", "MMMd", "Hm", "EEEE"
# English as the app has always written it (a British order, an American "Sep"): the patterns
# themselves. Every other language: its CLDR data's pattern for the skeleton.
_ENGLISH = {DAY: "d MMM y", SHORT_DAY: "d MMM", TIME: "HH:mm", WEEKDAY: "EEEE"}


@cache
def pattern(skeleton: str, language: str) -> str:
    """How ``language`` writes ``skeleton`` (``d MMM y`` for ``yMMMd`` in Spanish)."""
    if language == languages.DEFAULT:
        return _ENGLISH[skeleton]
    if skeleton == WEEKDAY:
        return WEEKDAY
    locale = Locale.parse(language)
    found = locale.datetime_skeletons.get(skeleton)
    return str(found.pattern) if found is not None else _ENGLISH[skeleton]


def _written(value: datetime, *skeletons: str) -> str:
    """``value`` (in the household's zone already) as the page's language writes each part,
    the parts one space apart."""
    language = languages.current()
    # English as the app has always written it; another language in its region's way.
    if language != languages.DEFAULT:
        language = languages.locale()
    # The wall clock's fields only (no pattern writes a zone): two aware times of one
    # instant in two zones are equal, and must not share a kept text.
    return _written_in(value.replace(tzinfo=None), skeletons, language)


@lru_cache(maxsize=4096)
def _written_in(value: datetime, skeletons: tuple[str, ...], language: str) -> str:
    """Kept: a long page writes the same days again and again (a chart's, a list's), and
    Babel's formatting is the most of such a page's time."""
    return " ".join(
        dates.format_datetime(
            value, pattern(skeleton, language), locale=languages.babel_locale(language)
        )
        for skeleton in skeletons
    )


def day(value: datetime | None) -> str:
    """``24 Dec 2025`` in the household's zone (``24 dic 2025``), or an en dash."""
    return "–" if value is None else _written(local(value), DAY)


def day_time(value: datetime | None) -> str:
    """``24 Dec 2025 19:30``, or an en dash."""
    return "–" if value is None else _written(local(value), DAY, TIME)


def short_day(value: datetime | None) -> str:
    """``24 Dec``, or an en dash."""
    return "–" if value is None else _written(local(value), SHORT_DAY)


def short_day_time(value: datetime | None) -> str:
    """``24 Dec 19:30``, or an en dash."""
    return "–" if value is None else _written(local(value), SHORT_DAY, TIME)


def weekday(value: datetime | None) -> str:
    """``Saturday`` (``sábado``) in the household's zone, or an en dash."""
    return "–" if value is None else _written(local(value), WEEKDAY)


def moment(value: datetime | None, timespec: str = "auto") -> str:
    """ISO 8601 with the household's offset (``2025-12-24T19:30:00-05:00``): for a
    ``<time datetime>`` and the CSV; empty for None."""
    return "" if value is None else local(value).isoformat(timespec=timespec)


def stamp() -> str:
    """Today's date in the household's zone, for the names of downloaded files."""
    return today().isoformat()
