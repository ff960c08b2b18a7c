"""Translations made at import (a form's label, a table of a module), as text.

Flask-Babel's lazy strings say they are HTML already (``__html__``), so Jinja and WTForms write
them into a page unescaped: a quote or an angle bracket in a translation would end an attribute
or open an element. These write their text, escaped, wherever they land; the templates'
``_()`` does the same (``languages``). Import ``lazy_gettext`` and ``lazy_ngettext`` from here,
never from Flask-Babel (``tests/test_lint.py`` checks it).

Every translation, whoever asks for it, comes out in the words of the game the page is about
(``InGameCatalogue``, ``extensions.babel``'s domain).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from babel.support import NullTranslations
from flask_babel import Domain, gettext, ngettext
from flask_babel.speaklater import LazyString
from markupsafe import Markup, escape


class LazyText(LazyString):
    """A message translated when it is written, in the language of the page then drawn."""

    def __html__(self) -> Markup:
        return escape(str(self))


def _as_translated(message: str, translated: str, form: int | None) -> str:
    return translated


# How a translation is put in the words of the game the page is about: ``languages.own_words``,
# installed by ``languages.init_app`` (the languages know the accounts, which label with these,
# so this module cannot import them).
in_game_words: Callable[[str, str, int | None], str] = _as_translated


class InGameCatalogue:
    """A language's catalogue whose every message comes out in the words of the game the page
    is about (``in_game_words``): plain and plural, with a context or without, whoever asks
    (the templates' ``_`` and ``ngettext``, ``gettext`` and ``ngettext`` in Python, a flash,
    the lazy strings below, the rules engine's messages). Flask-Babel hands this out for every
    translation (``InGameDomain``), so no way to the page passes by the game's words."""

    def __init__(self, catalogue: NullTranslations) -> None:
        self.catalogue = catalogue

    def _form(self, count: int) -> int:
        """Which of the language's plural forms ``count`` takes (its header's ``Plural-Forms``)."""
        plural = getattr(self.catalogue, "plural", None)
        return int(plural(count)) if callable(plural) else int(count != 1)

    def ugettext(self, message: str) -> str:
        return in_game_words(message, self.catalogue.ugettext(message), None)

    def ungettext(self, singular: str, plural: str, count: int) -> str:
        translated = self.catalogue.ungettext(singular, plural, count)
        return in_game_words(singular, translated, self._form(count))

    def upgettext(self, context: str, message: str) -> str:
        return in_game_words(message, self.catalogue.upgettext(context, message), None)

    def unpgettext(self, context: str, singular: str, plural: str, count: int) -> str:
        translated = self.catalogue.unpgettext(context, singular, plural, count)
        return in_game_words(singular, translated, self._form(count))

    gettext = ugettext
    ngettext = ungettext
    pgettext = upgettext
    npgettext = unpgettext

    def __getattr__(self, name: str) -> Any:
        return getattr(self.catalogue, name)


class InGameDomain(Domain):
    """Flask-Babel's domain of the app's messages, its catalogues in the game's words."""

    def get_translations(self) -> InGameCatalogue:
        return InGameCatalogue(super().get_translations())


def lazy_gettext(message: str, **variables: Any) -> LazyText:
    return LazyText(gettext, message, **variables)


def lazy_ngettext(singular: str, plural: str, num: int, **variables: Any) -> LazyText:
    return LazyText(ngettext, singular, plural, num, **variables)
