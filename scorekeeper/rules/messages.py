"""What the engine says, as messages: a message id and its values, put into words where shown.

The engine speaks no language of its own. Every sentence a person reads (a ruling's reasons,
an option's name and description, a contract in words, an error) leaves the package as a
``Message``: the English text as written in the code (the message id a catalogue translates),
the values it names (``%(cards)s``), and, for a count, the plural text and which value counts.

A ``Message`` is also the English sentence itself (a ``str``): ``str(message)``, ``==``,
``in`` and f-strings read English as they always did, so code that only needs English keeps
working unchanged. A page turns it into its own language with one function outside the
engine (``scorekeeper.words.words``): the catalogue's text for the id, then each value put in,
values that are messages themselves (a suit's name, a card list's "and") translated the same
way and numbers written as the page's language writes them.

Writing one (code here, and new presets' options and descriptions):

- ``N_("a run needs at least %(least)s cards", least=4)``; for a count,
  ``N_plural("%(num)s card", "%(num)s cards", num=n)`` (the count is the value ``num``).
  Always a literal: ``pybabel extract -k N_ -k N_plural:1,2`` reads the text from the code,
  so an f-string or a variable would give a message no catalogue holds (a test fails on one).
- Whole sentences with named values, never glued from pieces; a word that changes with the
  language (``"spades"``, a count word) is a message of its own, given as a value.
- Cards stay in card notation (``5♠``, ``JK``): give them as plain text values; a list of them
  as ``listing(...)`` ("5♠, JK and 8♠", the "and" translated).
- ``message.capitalized()`` is the same message starting a sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Union

__all__ = ["ENGLISH", "N_", "Message", "N_plural", "Translator", "Value", "listing", "render"]

Value = Union[str, int, "Message", tuple["Value", ...]]
"""What a message's value may be: text as it is (a card, a name, a quote), a whole number
(written as the page's language writes numbers), another message, or a tuple of values
written one after another with commas (``listing`` adds the "and")."""


class Message(str):
    """One sentence (or phrase) of the engine: its English text and what it is made of.

    ``text`` is the message id (with ``%(name)s`` placeholders), ``values`` what they stand
    for, ``plural`` the English plural text where the message counts something and
    ``count_key`` the name of the value that counts (the ``count`` given; ``str.count`` keeps
    its name); ``capital`` says it starts a sentence (its first letter
    written upper case). The ``str`` value is the English, formatted.
    """

    text: str
    values: Mapping[str, Value]
    plural: str | None
    count_key: str | None
    capital: bool

    def __new__(
        cls,
        text: str,
        values: Mapping[str, Value] | None = None,
        plural: str | None = None,
        count: str | None = None,
        *,
        capital: bool = False,
    ) -> Message:
        frozen: Mapping[str, Value] = MappingProxyType(dict(values or {}))
        if plural is not None and (count is None or not isinstance(frozen.get(count), int)):
            raise ValueError(f"the plural message {text!r} names no whole-number count")
        english = render_parts(text, frozen, plural, count, capital, ENGLISH)
        message = super().__new__(cls, english)
        for name, value in (
            ("text", text),
            ("values", frozen),
            ("plural", plural),
            ("count_key", count),
            ("capital", capital),
        ):
            object.__setattr__(message, name, value)
        return message

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Message is immutable ({name})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Message is immutable ({name})")

    def __reduce__(self) -> tuple[Callable[..., Message], tuple[Any, ...]]:
        return (
            _rebuild,
            (self.text, dict(self.values), self.plural, self.count_key, self.capital),
        )

    def capitalized(self) -> Message:
        """The same message starting a sentence: its first letter upper case."""
        if self.capital:
            return self
        return Message(self.text, self.values, self.plural, self.count_key, capital=True)

    def as_written(self) -> Message:
        """The same message as written in the code, inside a sentence (not capitalized)."""
        if not self.capital:
            return self
        return Message(self.text, self.values, self.plural, self.count_key)


def _rebuild(
    text: str, values: dict[str, Value], plural: str | None, count: str | None, capital: bool
) -> Message:
    return Message(text, values, plural, count, capital=capital)


def N_(text: str, /, **values: Value) -> Message:
    """The message ``text`` with its ``values``. The text must be a literal: it is the id
    ``pybabel extract -k N_`` finds in the code and a catalogue translates."""
    return Message(text, values)


def N_plural(singular: str, plural: str, /, num: int, **values: Value) -> Message:
    """A message that counts ``num`` (``%(num)s`` in the texts): ``singular`` for one, else
    ``plural`` in English; each language has its own forms. Literals, read by
    ``pybabel extract -k N_plural:1,2``."""
    return Message(singular, {**values, "num": num}, plural, "num")


def listing(items: Sequence[Value]) -> Value:
    """Values for a sentence, the last after "and": ``"5♠, JK and 8♠"``; one alone as it is."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return N_("%(items)s and %(last)s", items=tuple(items[:-1]), last=items[-1])


class Translator:
    """How a language reads a message: its text for an id (``gettext``), its form for a count
    (``ngettext``), and how it writes a number. This one is English, the code's own."""

    def gettext(self, text: str) -> str:
        return text

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return singular if count == 1 else plural

    def number(self, value: int) -> str:
        return str(value)


ENGLISH = Translator()
"""English, the language the code's messages are written in."""


def render(message: Message, translator: Translator) -> str:
    """``message`` in the language ``translator`` reads; its values put in, each in the same
    language. A translation whose placeholders do not fit its values falls back to English."""
    return render_parts(
        message.text,
        message.values,
        message.plural,
        message.count_key,
        message.capital,
        translator,
    )


def render_parts(
    text: str,
    values: Mapping[str, Value],
    plural: str | None,
    count: str | None,
    capital: bool,
    translator: Translator,
) -> str:
    """A message given by its parts, in the language ``translator`` reads (see ``render``)."""
    if plural is not None and count is not None:
        number = values[count]
        assert isinstance(number, int)
        template = translator.ngettext(text, plural, number)
        fallback = text if number == 1 else plural
    else:
        template = translator.gettext(text)
        fallback = text
    if values:
        formatted = {name: _value(value, translator) for name, value in values.items()}
        try:
            result = template % formatted
        except (KeyError, ValueError, TypeError):
            result = fallback % formatted
    else:
        result = template
    return result[:1].upper() + result[1:] if capital else result


def _value(value: Value, translator: Translator) -> str:
    if isinstance(value, Message):
        return render(value, translator)
    if isinstance(value, bool):
        raise TypeError("a message's value is never true or false: give it words")
    if isinstance(value, int):
        return translator.number(value)
    if isinstance(value, tuple):
        return ", ".join(_value(item, translator) for item in value)
    return value
