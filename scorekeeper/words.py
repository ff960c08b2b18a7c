"""The rules engine's messages in the page's language.

The engine (``scorekeeper.rules``) hands out what it means, never words in a language: a
ruling's reasons, an option's name and description, a contract in words, an error are
``Message``s (a message id and its values) whose ``str`` is English. ``words`` puts one into
the language of the page being drawn: the catalogue's text for its id (its plural form for a
count), each value put in the same way, numbers as the language writes them. Templates use
the ``words`` filter (``{{ reason.message|words }}``, ``{{ contract.description|words }}``);
outside a request everything reads English.
"""

from __future__ import annotations

from functools import cache

from babel.numbers import format_decimal
from flask import Flask
from flask_babel import get_locale, get_translations

from . import actors
from .rules import PRESETS, Reason, RuleSetError, Source, get_ruleset
from .rules.messages import ENGLISH, Message, Translator, render


class _PageLanguage(Translator):
    """The language of the page being drawn, as the engine's messages ask for it (in the
    words of the game the page is about, as every translation is: ``text.InGameCatalogue``)."""

    def __init__(self) -> None:
        self.translations = get_translations()
        self.locale = get_locale()

    def gettext(self, text: str) -> str:
        return str(self.translations.gettext(text))

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return str(self.translations.ngettext(singular, plural, count))

    def number(self, value: int) -> str:
        return format_decimal(value, locale=self.locale) if self.locale else str(value)


def _language() -> Translator:
    return _PageLanguage() if get_locale() is not None else ENGLISH


def words(value: object) -> str:
    """``value`` in the page's language: a ``Message``; a ``Reason`` (its sentence, then its
    source in brackets, as its English ``str`` has them); a ``Source`` (how a ruling cites
    it); an engine error carrying a ``message`` (``CardError``, ``ContractNumberError``,
    ``SearchBudgetExceeded``; a ``RuleSetError``'s problems). Other text is left as it is
    (a name, a quote); None is empty."""
    if value is None:
        return ""
    language = _language()
    return _words(value, language)


def _words(value: object, language: Translator) -> str:
    if isinstance(value, Reason):
        sentence = render(value.message, language)
        if value.cited:
            return f"{sentence} ({_words(value.source, language)})"
        return sentence
    if isinstance(value, Message):
        return render(value, language)
    if isinstance(value, Source):
        return _words(value.citation, language)
    if isinstance(value, RuleSetError):
        return "; ".join(render(problem.message, language) for problem in value.problems)
    message = getattr(value, "message", None)
    if isinstance(value, Exception) and isinstance(message, Message):
        return render(message, language)
    return str(value)


@cache
def _preset_names() -> dict[str, Message]:
    names: dict[str, Message] = {}
    for slug in PRESETS:
        name = get_ruleset(slug).name
        if isinstance(name, Message):
            names[str(name)] = name
    return names


def rules_name(name: str) -> str:
    """The name of the rules a game was played under, as stored with it (English for a
    preset), in the page's language: a preset's description is translated (its game's name
    stays), a family's own name for its house rules is left as typed."""
    preset = _preset_names().get(str(name))
    return words(preset if preset is not None else name)


def init_app(app: Flask) -> None:
    app.jinja_env.filters["words"] = words
    app.jinja_env.filters["rules_name"] = rules_name
    app.jinja_env.filters["actor"] = actors.shown
