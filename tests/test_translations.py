"""The catalogues (``scorekeeper/translations``) against the code: every message the code and
the templates mark is in every language's catalogue, no entry is empty or fuzzy, placeholders
are the msgid's, and the committed ``.mo`` is exactly the compile of its ``.po`` (so neither can
be forgotten after a change); ``flask translations`` keeps them so."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import write_po
from flask import Flask

from scorekeeper import catalogues, create_app, languages

pytestmark = [
    pytest.mark.skipif(
        not catalogues.MAPPING.is_file(), reason="the catalogues are checked in a checkout"
    ),
    # One worker runs the module (pytest-xdist's --dist loadgroup): the code is extracted once.
    pytest.mark.xdist_group("translations"),
]


@pytest.fixture(scope="module")
def code() -> Catalog:
    """The messages of the code and the templates now, extracted as pybabel does."""
    return catalogues.code_template()


@pytest.fixture(scope="module")
def quiet_app() -> Iterator[Flask]:
    """An app for the command line (no database is touched)."""
    yield create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": "sqlite://",
            "AUTO_MIGRATE": False,
            "SECRET_KEY": "x",
        }
    )


LANGUAGES = catalogues.translated()


def test_every_language_named_has_a_catalogue_and_every_catalogue_is_named() -> None:
    assert sorted(set(languages.LANGUAGES) - {languages.DEFAULT}) == LANGUAGES
    for language in LANGUAGES:
        assert catalogues.compiled_of(language).is_file(), language


def test_the_code_marks_messages(code: Catalog) -> None:
    """Extraction reads the code and the templates (a sanity check of babel.cfg's paths)."""
    ids = {message.id for message in code if message.id}
    assert "Save the language" in ids  # a template's
    assert "Show my pages in" in ids  # a form's label, made at import (_l)


def test_no_message_of_the_code_holds_markup(code: Catalog) -> None:
    assert list(catalogues.code_problems(code)) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_of_the_code_is_in_the_catalogue(code: Catalog, language: str) -> None:
    catalogue = catalogues.read(catalogues.catalogue_of(language), language)
    missing = [message.id for message in code if message.id and message.id not in catalogue]
    assert missing == [], (
        f"{len(missing)} messages of the code are not in {language}'s catalogue: run "
        "`flask --app scorekeeper translations update` and translate them (docs/translating.md)"
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_entry_is_empty_or_fuzzy_and_placeholders_match(language: str) -> None:
    catalogue = catalogues.read(catalogues.catalogue_of(language), language)
    words = catalogues.glossary(language)
    found = [
        problem
        for message in catalogue
        if message.id
        for problem in catalogues.language_problems(message, catalogue.num_plurals, words)
    ]
    found += [
        f"{error}: {message.id!r}" for message, errors in catalogue.check() for error in errors
    ]
    assert found == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_committed_mo_is_the_compile_of_the_po(language: str) -> None:
    catalogue = catalogues.read(catalogues.catalogue_of(language), language)
    assert catalogues.compiled_of(language).read_bytes() == catalogues.compiled(catalogue), (
        "the .mo is stale: run `flask --app scorekeeper translations update`"
    )


# --- the checks themselves find what they are for --------------------------------------------


@pytest.mark.parametrize(
    ("message", "problem"),
    [
        (Message("Save", ""), "empty"),
        (Message("Save", "Guardar", flags=["fuzzy"]), "fuzzy"),
        (Message("%(name)s went out", "cerró"), "placeholders"),
        (Message("%(name)s went out", "%(nombre)s cerró"), "placeholders"),
        (Message("Round %d", "Ronda"), "placeholders"),
        # Markup a translator typed: a straight quote ends an attribute, a bracket opens a tag.
        (Message("Take back a May I for %(name)s", 'Retirar un "¿Puedo?" de %(name)s'), "markup"),
        (Message("Edit", "Edit'ar"), "markup"),
        (Message("%(name)s went out", "<b>%(name)s</b> cerró"), "markup"),
        (
            Message(("%(num)d game", "%(num)d games"), ("una partida", '%(num)d "partidas"')),
            "markup",
        ),
        (Message(("%(num)d game", "%(num)d games"), ("%(num)d partida", "")), "empty"),
        (
            Message(
                ("%(num)d game of %(name)s", "%(num)d games of %(name)s"),
                ("una partida", "%(num)d partidas de %(name)s"),
            ),
            "placeholders",
        ),
        (
            Message(
                ("a pair of %(rank)s", "%(many)s pairs of %(rank)s"),
                ("un par", "%(many)s pares de %(rank)s"),
            ),
            "placeholders",
        ),
    ],
)
def test_the_entry_checks_find_each_kind_of_problem(message: Message, problem: str) -> None:
    assert [found.split(":")[0].split(" ")[0] for found in catalogues.entry_problems(message)] == [
        problem
    ]


@pytest.mark.parametrize(
    "message",
    [
        Message("Save", "Guardar"),
        Message("%(name)s went out", "%(name)s cerró"),
        Message("100%% sure", "100%% seguro"),
        Message("Take back a May I for %(name)s", "Retirar un «¿Puedo?» de %(name)s"),
        Message("Ann's turn", "Au tour d’Ann"),
        # A plural's singular may leave the count out ("una partida"), never another value.
        Message(("%(num)d game", "%(num)d games"), ("una partida", "%(num)d partidas")),
        # A count English writes in its plural only ("a pair", "3 pairs").
        Message(
            ("a pair of %(rank)s", "%(many)s pairs of %(rank)s"),
            ("un par de %(rank)s", "%(many)s pares de %(rank)s"),
        ),
    ],
)
def test_the_entry_checks_let_a_right_translation_be(message: Message) -> None:
    assert list(catalogues.entry_problems(message)) == []


# --- the glossary: one word for each thing, and no English left ---------------------------------

SPANISH_WORDS = catalogues.parse_glossary(
    """
    same = ["no", "total"]
    names = ["Contract Rummy", "Carioca"]
    [[term]]
    english = "rating"
    spanish = "nivel"
    when = '\\b(rating|ratings|rated)\\b'
    never = ['\\bratings?\\b', '\\bclasifica\\w*']
    [[term]]
    english = "seat"
    spanish = "puesto"
    when = '\\bseats?\\b'
    never = ['\\basientos?\\b', '\\blugar(es)?\\b']
    [[term]]
    english = "close a round"
    spanish = "terminar la ronda"
    when = '\\bclose\\b'
    except = 'devices'
    never = ['\\bcerr\\w*']
    """
)


def test_the_glossary_of_each_language_reads() -> None:
    """Every language with a catalogue has a glossary, and Spanish's rules out its words."""
    for language in LANGUAGES:
        words = catalogues.glossary(language)
        assert words is not None, language
    spanish = catalogues.glossary("es")
    assert spanish is not None
    ruled_out = {term.english: term for term in spanish.terms if term.never}
    assert {"rating", "seat", "ruling", "real card", "made the contract"} <= set(ruled_out)


def _kinds(message: Message, plurals: int = 2) -> list[str]:
    found = catalogues.language_problems(message, plurals, SPANISH_WORDS)
    return [problem.split(" ")[0] for problem in found]


@pytest.mark.parametrize(
    ("message", "problem"),
    [
        # A word the glossary rules out for what the English says.
        (Message("Rating", "Rating"), "ruled"),
        (Message("Ratings by season", "Clasificaciones por temporada"), "ruled"),
        (Message("Pick another seat", "Elegir otro asiento"), "ruled"),
        (
            Message("This phone does not hold that seat", "Este teléfono no tiene ese lugar"),
            "ruled",
        ),
        (Message("Close round %(number)s", "Cerrar ronda %(number)s"), "ruled"),
        # An English word of the msgid left in the translation.
        (
            Message("Ratings after game %(number)s", "Niveles after la partida %(number)s"),
            "english",
        ),
        (Message("Done: did you make it?", "Done: ¿lo cumpliste?"), "english"),
        # A straight quote, a placeholder, a plural form out of step.
        (Message("Take back a May I", 'Retirar un "¿Puedo?"'), "markup"),
        (Message("%(name)s went out", "%(nombre)s cerró"), "placeholders"),
        (Message(("%(num)d game", "%(num)d games"), ("%(num)d partida",)), "plural"),
        (Message("Save", ("Guardar", "Guardar")), "plural"),
    ],
)
def test_the_language_checks_find_each_kind_of_problem(message: Message, problem: str) -> None:
    # "Rating" left as it is is both a word ruled out and an English word left.
    assert problem in _kinds(message) and set(_kinds(message)) <= {problem, "english"}


@pytest.mark.parametrize(
    "message",
    [
        Message("Rating", "Nivel"),
        Message("Pick another seat", "Elegir otro puesto"),
        # The same word where the English means something else: a place, a closed door.
        Message("Keep it somewhere safe", "Guárdala en un lugar seguro"),
        Message(
            "closed to new devices until %(when)s", "cerrada a dispositivos nuevos hasta %(when)s"
        ),
        Message("%(name)s went out", "%(name)s cerró"),
        # Words Spanish writes too, names kept, placeholders and quoted keys are not English.
        Message("No total for %(rating)s", "No hay total para %(rating)s"),
        Message("Contract Rummy (7 hands)", "Contract Rummy (7 manos)"),
        Message('"went_out" names nobody', "«went_out» no nombra a nadie"),
        Message(("%(num)d game", "%(num)d games"), ("una partida", "%(num)d partidas")),
    ],
)
def test_the_language_checks_let_a_right_translation_be(message: Message) -> None:
    assert _kinds(message) == []


# --- the command line -----------------------------------------------------------------------


@pytest.fixture
def copied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The catalogues copied aside, and the commands pointed at the copy."""
    folder = tmp_path / "translations"
    shutil.copytree(languages.CATALOGUES, folder, ignore=shutil.ignore_patterns("*.pot"))
    monkeypatch.setattr(languages, "CATALOGUES", folder)
    monkeypatch.setattr(catalogues, "TEMPLATE", folder / "messages.pot")
    return folder


def _messages(path: Path) -> list[tuple[object, object]]:
    return [(message.id, message.string) for message in catalogues.read(path) if message.id]


def test_update_on_catalogues_in_step_changes_no_message(quiet_app: Flask, copied: Path) -> None:
    before = {language: _messages(catalogues.catalogue_of(language)) for language in LANGUAGES}
    mo = {language: catalogues.compiled_of(language).read_bytes() for language in LANGUAGES}
    result = quiet_app.test_cli_runner().invoke(args=["translations", "update"])
    assert result.exit_code == 0, result.output
    for language in LANGUAGES:
        assert _messages(catalogues.catalogue_of(language)) == before[language]
        assert catalogues.compiled_of(language).read_bytes() == mo[language]
        assert f"{language}: 0 messages to translate" in result.output
    checked = quiet_app.test_cli_runner().invoke(args=["translations", "check"])
    assert checked.exit_code == 0 and "no problems" in checked.output, checked.output


def test_check_fails_on_a_message_left_out(quiet_app: Flask, copied: Path) -> None:
    path = catalogues.catalogue_of("es")
    catalogue = catalogues.read(path, "es")
    catalogue.delete("Save the language")
    with path.open("wb") as target:
        write_po(target, catalogue)
    checked = quiet_app.test_cli_runner().invoke(args=["translations", "check"])
    assert checked.exit_code == 1
    assert "missing from messages.po: 'Save the language'" in checked.output
    assert "messages.mo is not the compile of messages.po" in checked.output


def test_add_makes_a_new_language_s_catalogue(quiet_app: Flask, copied: Path) -> None:
    result = quiet_app.test_cli_runner().invoke(args=["translations", "add", "pt_BR"])
    assert result.exit_code == 0, result.output
    made = catalogues.read(catalogues.catalogue_of("pt_BR"), "pt_BR")
    assert not made.fuzzy and "Save the language" in made
    assert catalogues.compiled_of("pt_BR").is_file()
    again = quiet_app.test_cli_runner().invoke(args=["translations", "add", "pt_BR"])
    assert again.exit_code != 0 and "is there already" in again.output
    wrong = quiet_app.test_cli_runner().invoke(args=["translations", "add", "../x"])
    assert wrong.exit_code != 0 and "a language's code" in wrong.output


def test_a_message_with_markup_in_the_code_is_found() -> None:
    template = Catalog()
    template.add("<strong>You went out</strong> ★ 0 points.")
    template.add(("<b>%(num)d</b> game", "%(num)d games"))
    template.add('Ann\'s turn: a "quote" is text')
    assert len(list(catalogues.code_problems(template))) == 2
