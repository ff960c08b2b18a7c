"""Translations made at import (a form's label, a table of a module), as text.

Flask-Babel's lazy strings say they are HTML already (``__html__``), so Jinja and WTForms write
them into a page unescaped: a quote or an angle bracket in a translation would end an attribute
or open an element. These write their text, escaped, wherever they land; the templates'
``_()`` does the same (``languages``). Import ``lazy_gettext`` and ``lazy_ngettext`` from here,
never from Flask-Babel (``tests/test_lint.py`` checks it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_babel import gettext, ngettext
from flask_babel.speaklater import LazyString
from markupsafe import Markup, escape


class LazyText(LazyString):
    """A message translated when it is written, in the language of the page then drawn."""

    def __html__(self) -> Markup:
        return escape(str(self))


def _as_translated(message: str, translated: str) -> str:
    return translated


# How a translation is put in the words of the game the page is about: ``languages.own_words``,
# installed by ``languages.init_app`` (the languages know the accounts, which label with these,
# so this module cannot import them).
in_game_words: Callable[[str, str], str] = _as_translated


def _in_game_words(message: str, **variables: Any) -> str:
    """``message`` in the page's language, in the words of the game the page is about."""
    translated = in_game_words(message, str(gettext(message)))
    return translated % variables if variables else translated


def lazy_gettext(message: str, **variables: Any) -> LazyText:
    return LazyText(_in_game_words, message, **variables)


def lazy_ngettext(singular: str, plural: str, num: int, **variables: Any) -> LazyText:
    return LazyText(ngettext, singular, plural, num, **variables)
