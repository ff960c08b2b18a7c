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
from collections.abc import Iterator
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
    for message in catalogue:
        if message.id:
            found.extend(entry_problems(message))
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
