"""The history's words in the page's language, also where no app is there to ask (a review or a
restore's summary read by hand, as the tests and the command line do): English then, as the
code writes it. Flask-Babel's own functions need an application to find the catalogue."""

from __future__ import annotations

from datetime import date
from typing import Any

from babel import dates, numbers
from flask import has_app_context
from flask_babel import get_locale
from flask_babel import gettext as _gettext
from flask_babel import ngettext as _ngettext


def language() -> str:
    """The page's language; English where no app is there to say (a review read by hand)."""
    return str(get_locale() or "en") if has_app_context() else "en"


def _(text: str, /, **values: Any) -> str:
    """``text`` in the page's language (``gettext``), its values put in."""
    if has_app_context():
        return str(_gettext(text, **values))
    return text % values if values else text


def ngettext(singular: str, plural: str, how_many: int, /, **values: Any) -> str:
    """The form of ``singular``/``plural`` for ``how_many`` in the page's language."""
    if has_app_context():
        return str(_ngettext(singular, plural, how_many, **values))
    return (singular if how_many == 1 else plural) % {"num": how_many, **values}


def format_decimal(number: float, format: str) -> str:
    return str(numbers.format_decimal(number, format=format, locale=language()))


def format_percent(share: float) -> str:
    return str(numbers.format_percent(share, locale=language()))


def format_date(day: date, pattern: str) -> str:
    return str(dates.format_date(day, pattern, locale=language()))


def grouped(number: int) -> str:
    """A count as the page's language groups it (1,250 / 1.250)."""
    return format_decimal(number, format="#,##0")
