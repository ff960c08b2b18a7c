"""The catalogues of the languages (``translations/<code>/LC_MESSAGES/messages.po`` and their
compiled ``.mo``), kept in step with the code: ``flask translations``.

    flask --app scorekeeper translations update   # extract, update every catalogue, compile
    flask --app scorekeeper translations check    # what is missing, empty, fuzzy or stale
    flask --app scorekeeper translations add pt   # a new language's catalogue

``update`` runs pybabel's own commands with the project's settings (``babel.cfg``, the keywords
below, no locations, sorted), so its files are byte for byte those of the commands
``docs/translating.md`` gives. ``check`` says what ``tests/test_translations.py`` fails on.
Both need a checkout (``babel.cfg`` and the templates beside the package).
"""

from __future__ import annotations

import io
import re
import tempfile
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import click
from babel.messages.catalog import PYTHON_FORMAT, Catalog, Message
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from flask import Flask
from flask.cli import AppGroup

from . import languages

ROOT = Path(__file__).resolve().parent.parent
MAPPING = ROOT / "babel.cfg"
DOMAIN = "messages"
TEMPLATE = languages.CATALOGUES / f"{DOMAIN}.pot"
# The words people read are marked by these (besides pybabel's own: _, gettext, ngettext, N_
# and the rest): ``_l`` and ``lazy_gettext`` for strings made at import, ``lazy_ngettext``;
# the rules engine's ``N_`` and ``N_plural`` (its first two arguments the two forms).
KEYWORDS = ("_l", "lazy_gettext", "lazy_ngettext:1,2", "N_", "N_plural:1,2")


def catalogue_of(language: str) -> Path:
    return languages.CATALOGUES / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def compiled_of(language: str) -> Path:
    return catalogue_of(language).with_suffix(".mo")


def translated() -> list[str]:
    """Every language with a catalogue (English, the code's own, has none)."""
    return sorted(
        folder.name
        for folder in languages.CATALOGUES.iterdir()
        if (folder / "LC_MESSAGES" / f"{DOMAIN}.po").is_file()
    )


def _pybabel(*arguments: str | Path) -> None:
    CommandLineInterface().run(["pybabel", "--quiet", *(str(part) for part in arguments)])


def extract(into: Path) -> None:
    """Every message of the code and the templates, into the template ``into``."""
    if not MAPPING.is_file():
        raise click.ClickException(f"{MAPPING} is not here: the catalogues need a checkout.")
    keywords = [part for keyword in KEYWORDS for part in ("-k", keyword)]
    _pybabel(
        "extract", "-F", MAPPING, *keywords, "--no-location", "--sort-output", "-o", into, ROOT
    )


def read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=language)


def compiled(catalogue: Catalog) -> bytes:
    """The ``.mo`` of ``catalogue``, as ``pybabel compile`` writes it."""
    out = io.BytesIO()
    write_mo(out, catalogue, use_fuzzy=False)
    return out.getvalue()


def _forms(message: Message) -> tuple[str, ...]:
    if isinstance(message.string, tuple | list):
        return tuple(message.string)
    return (message.string or "",)


def _placeholders(text: str) -> set[str]:
    """A message's ``%(name)s`` placeholders, and its positional ones by place (``%s`` and
    the like; ``%%`` is a percent sign)."""
    found: set[str] = set()
    place = 0
    for match in PYTHON_FORMAT.finditer(text):
        name, _flags, kind = match.groups()
        if kind == "%" and name is None:
            continue
        if name is None:
            found.add(f"#{place}{kind}")
            place += 1
        else:
            found.add(name)
    return found


# What would be markup in an HTML page, not text: a quote that ends an attribute, an angle
# bracket that opens an element. The templates write every translation as text (escaped), so
# none of these can change a page; a translation still never holds one (« », ’ and the like
# are a language's own), so that no way of putting one into a page ever could.
MARKUP = frozenset("\"'<>")


def markup_in(text: str) -> str:
    """The characters of ``text`` that are markup in an HTML page, in order; empty if none."""
    return "".join(sorted(set(text) & MARKUP))


def entry_problems(message: Message) -> Iterator[str]:
    """What is wrong with one translated entry: empty, fuzzy, markup in it (``MARKUP``), or
    its placeholders not the msgid's. Each form of a plural takes only the msgid's
    placeholders and keeps those both English forms have; the count (``num``, or one only the
    plural names, as "a pair" beside "%(many)s pairs") may be left out of a form."""
    shown = message.id if isinstance(message.id, str) else message.id[0]
    forms = _forms(message)
    if not all(forms):
        yield f"empty: {shown!r}"
        return
    if message.fuzzy:
        yield f"fuzzy: {shown!r}"
    for form in forms:
        if markup_in(form):
            yield f"markup ({markup_in(form)}) in the translation: {shown!r} → {form!r}"
    if isinstance(message.id, str):
        wanted = _placeholders(message.id)
        if _placeholders(forms[0]) != wanted:
            yield f"placeholders differ from the msgid's: {shown!r} → {forms[0]!r}"
        return
    singular, plural = _placeholders(message.id[0]), _placeholders(message.id[1])
    wanted, kept = singular | plural, (singular & plural) - {"num"}
    for form in forms:
        have = _placeholders(form)
        if not have <= wanted or not kept <= have:
            yield f"placeholders differ from the msgid's: {shown!r} → {form!r}"


def plural_problems(message: Message, plurals: int) -> Iterator[str]:
    """A plural whose forms are not the language's number of them (its header's
    ``Plural-Forms``), or a single message given forms."""
    forms = _forms(message)
    shown = message.id if isinstance(message.id, str) else message.id[0]
    wanted = 1 if isinstance(message.id, str) else plurals
    if len(forms) != wanted:
        yield f"plural forms: {len(forms)} where the language has {wanted}: {shown!r}"


@dataclass(frozen=True)
class Term:
    """A glossary's term: its English, the language's word for it, and the words the
    translation of a message saying it may not use."""

    english: str
    spanish: str
    when: re.Pattern[str] | None = None
    unless: re.Pattern[str] | None = None
    never: tuple[re.Pattern[str], ...] = ()


@dataclass(frozen=True)
class Glossary:
    """A language's glossary (``translations/<code>/glossary.toml``)."""

    terms: tuple[Term, ...]
    same: frozenset[str]  # words the language writes too: never English left
    names: tuple[str, ...]  # names kept as they are (the games', places')


def glossary_of(language: str) -> Path:
    return languages.CATALOGUES / language / "glossary.toml"


def glossary(language: str) -> Glossary | None:
    """``language``'s glossary, None where it has none."""
    path = glossary_of(language)
    if not path.is_file():
        return None
    return parse_glossary(path.read_text(encoding="utf-8"))


def parse_glossary(text: str) -> Glossary:
    data = tomllib.loads(text)

    def pattern(value: str | None) -> re.Pattern[str] | None:
        return re.compile(value, re.IGNORECASE) if value else None

    terms = tuple(
        Term(
            english=term["english"],
            spanish=term.get("spanish", ""),
            when=pattern(term.get("when")),
            unless=pattern(term.get("except")),
            never=tuple(re.compile(word, re.IGNORECASE) for word in term.get("never", ())),
        )
        for term in data.get("term", ())
    )
    return Glossary(
        terms,
        frozenset(word.lower() for word in data.get("same", ())),
        tuple(sorted(data.get("names", ()), key=len, reverse=True)),
    )


_WORD = re.compile(r"[A-Za-zÀ-ÿ]+")
_PLACEHOLDER = re.compile(r"%\(\w+\)\w|\{\w+\}")
# What is not a word of either language in a message: placeholders (``%(name)s``, ``{wait}``),
# quotes of a file's keys or values (« », “ ”), names with a sign in them (``went_out``,
# ``America/New_York``, ``.jsonl``, ``5S``).
_NOT_WORDS = re.compile(r"%\(\w+\)\w|%\w|\{\w+\}|«[^»]*»|“[^”]*”|\S*\w[_/.]\w\S*|\S*\d\S*|\.\w+")


def _words_of(text: str, names: tuple[str, ...]) -> set[str]:
    for name in names:
        text = text.replace(name, " ")
    return {word.lower() for word in _WORD.findall(_NOT_WORDS.sub(" ", text))}


def word_problems(message: Message, words: Glossary) -> Iterator[str]:
    """Where a translation strays from the language's glossary: a word a term rules out for
    the message's English, or a word of the English left in it (not one the language writes
    too, nor a name)."""
    english = (message.id,) if isinstance(message.id, str) else tuple(message.id)
    shown = english[0]
    forms = [form for form in _forms(message) if form]
    for term in words.terms:
        if term.when is None or not term.never:
            continue
        if not any(term.when.search(text) for text in english):
            continue
        if term.unless is not None and any(term.unless.search(text) for text in english):
            continue
        for form in forms:
            text = _PLACEHOLDER.sub(" ", form)
            ruled_out = [found.group(0) for word in term.never for found in word.finditer(text)]
            if ruled_out:
                yield (
                    f"ruled out ({', '.join(ruled_out)}) for {term.english!r}, "
                    f"say {term.spanish!r}: {shown!r} → {form!r}"
                )
                break
    said = set().union(*(_words_of(text, words.names) for text in english))
    said = {word for word in said if word.isascii() and len(word) > 1} - words.same
    for form in forms:
        left = sorted(said & _words_of(form, words.names))
        if left:
            yield f"english left ({', '.join(left)}): {shown!r} → {form!r}"
            break


def language_problems(message: Message, plurals: int, words: Glossary | None) -> Iterator[str]:
    """Everything wrong with one translated entry of a catalogue whose language has
    ``plurals`` plural forms: ``entry_problems``, its plural forms, and (where the language
    has a glossary) ``word_problems``."""
    yield from entry_problems(message)
    if all(_forms(message)):
        yield from plural_problems(message, plurals)
        if words is not None:
            yield from word_problems(message, words)


def code_problems(template: Catalog) -> Iterator[str]:
    """Messages of the code that hold an element (``<strong>``): markup is the template's,
    around the message (or a value given to it), never the translator's to copy."""
    for message in template:
        for text in (message.id,) if isinstance(message.id, str) else message.id:
            if text and set(text) & set("<>"):
                yield f"markup in a message of the code: {text!r}"


def problems(language: str, template: Catalog) -> list[str]:
    """Everything ``check`` reports for ``language`` against the code's messages."""
    path = catalogue_of(language)
    catalogue = read(path, language)
    found: list[str] = []
    found.extend(code_problems(template))
    for message in template:
        if message.id and message.id not in catalogue:
            found.append(f"missing from {path.name}: {message.id!r}")
    words = glossary(language)
    for message in catalogue:
        if message.id:
            found.extend(language_problems(message, catalogue.num_plurals, words))
    # Babel's own checks too (the number of plural forms, the kinds of placeholders).
    for message, errors in catalogue.check():
        found.extend(f"{error}: {message.id!r}" for error in errors)
    mo = compiled_of(language)
    if not mo.is_file() or mo.read_bytes() != compiled(catalogue):
        found.append(f"{mo.name} is not the compile of {path.name}: run translations update")
    return found


def code_template() -> Catalog:
    """The messages of the code now (a template extracted afresh, not the one on disk)."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-catalogue-") as folder:
        into = Path(folder) / f"{DOMAIN}.pot"
        extract(into)
        return read(into)


translations_group = AppGroup("translations", help="Keep the languages' catalogues in step.")


@translations_group.command("update")
def update_command() -> None:
    """Extract the code's messages; add the new ones to every catalogue (empty, to be
    translated), drop those gone; compile each."""
    extract(TEMPLATE)
    # The header's date left as it is: a catalogue changes only where its messages do.
    _pybabel(
        "update",
        "-i",
        TEMPLATE,
        "-d",
        languages.CATALOGUES,
        "--no-fuzzy-matching",
        "--ignore-pot-creation-date",
    )
    _pybabel("compile", "-d", languages.CATALOGUES)
    for language in translated():
        untranslated = [
            message.id
            for message in read(catalogue_of(language), language)
            if message.id and not all(_forms(message))
        ]
        click.echo(f"{language}: {len(untranslated)} messages to translate")


@translations_group.command("check")
def check_command() -> None:
    """What the catalogues lack: messages of the code missing, entries empty or fuzzy,
    placeholders that differ, a compiled file out of date. Exit status 1 when any."""
    template = code_template()
    failed = False
    for language in translated():
        found = problems(language, template)
        failed = failed or bool(found)
        click.echo(f"{language}: {len(found) or 'no'} problems")
        for problem in found:
            click.echo(f"  {problem}")
    if failed:
        raise SystemExit(1)


LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(_[A-Z]{2})?")


@translations_group.command("add")
@click.argument("code")
def add_command(code: str) -> None:
    """A catalogue for the language ``code`` (``pt``, ``pt_BR``), every message in it empty;
    then name it in ``languages.LANGUAGES`` and translate it."""
    if not LANGUAGE_CODE.fullmatch(code):
        raise click.BadParameter("a language's code, like pt or pt_BR", param_hint="CODE")
    if catalogue_of(code).exists():
        raise click.ClickException(f"{catalogue_of(code)} is there already.")
    extract(TEMPLATE)
    _pybabel("init", "-i", TEMPLATE, "-d", languages.CATALOGUES, "-l", code)
    # pybabel marks a new catalogue's header fuzzy, which compile would refuse: it is not.
    catalogue = read(catalogue_of(code), code)
    catalogue.fuzzy = False
    with catalogue_of(code).open("wb") as target:
        write_po(target, catalogue)
    _pybabel("compile", "-d", languages.CATALOGUES, "-l", code)
    click.echo(f"{catalogue_of(code)}: translate it, then add {code!r} to languages.LANGUAGES.")


def init_app(app: Flask) -> None:
    app.cli.add_command(translations_group)
