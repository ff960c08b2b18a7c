"""No message a person reads names a field by its code (issue 50, item 3): "1 is fewer than
min_players (2)" read as the code reads, not as a family does. Every message is in the
catalogue (the engine's ``N_``, the pages' ``_``), so its ids are searched for code names:
words joined by underscores, Python's True and False, an option's dotted path. A game file's
refusals may name the file's own keys (game-format.md), where the file is what is read, in
quotes as keys: "went_out" in English, «went_out» in Spanish."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from scorekeeper.rules import RuleSetError, get_ruleset

CATALOGUE = Path(__file__).parent.parent / "scorekeeper/translations/es/LC_MESSAGES/messages.po"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")
CODE_NAME = re.compile(
    r"(?<![\w/])(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z_]+(?:\.[a-z_]{2,})+|True|False)(?![\w/])"
)
# The game file's keys (game-format.md; more-games.md for the bonus) a refusal of a file may
# name, in quotes.
GAME_FILE_KEYS = {
    "went_out",
    "made_contract",
    "went_out_in_one_turn",
    "first_dealer",
    "before_round",
    "tie_break_hand",
}
# The rounds CSV's headings (history/backup.py): a spreadsheet's columns, each a field of the
# file written for the family, kept as the file has always named them.
CSV_HEADINGS = {
    "made_contract",
    "went_out",
    "running_total",
    "typed_total",
    "went_out_in_one_turn",
    "tie_break_hand",
}


def _messages() -> list[tuple[str, tuple[str, ...]]]:
    with CATALOGUE.open("rb") as file:
        catalogue = read_po(file)
    found = []
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in ids:
            found.append((text, tuple(strings)))
    return found


def code_names(text: str) -> list[str]:
    """The code names in ``text`` that are not a game file's keys in quotes."""
    plain = PLACEHOLDER.sub("", text)
    if plain in CSV_HEADINGS:
        return []
    names = []
    for found in CODE_NAME.finditer(plain):
        name = found.group()
        quoted = plain[found.start() - 1 : found.start()] == '"' == plain[found.end()]
        if quoted and name in GAME_FILE_KEYS:
            continue
        names.append(name)
    return names


def test_the_finder_finds_code_names() -> None:
    assert code_names("%(value)s is fewer than min_players (%(fewest)s)") == ["min_players"]
    assert code_names("Round %(round)s: went_out names %(name)s.") == ["went_out"]
    assert code_names("packs.decks must be True") == ["packs.decks", "True"]
    assert code_names('Round %(round)s: "went_out" names %(name)s.') == []
    assert code_names('"going_out" is wrong') == ["going_out"]
    assert code_names("Kept in instance/setup_code.") == []
    assert code_names("A set of 3, e.g. 5-5-5; then the next round.") == []


def test_no_message_names_a_field_by_its_code() -> None:
    named = {text: code_names(text) for text, _strings in _messages()}
    assert {text: names for text, names in named.items() if names} == {}


def test_a_game_files_keys_are_quoted_as_keys_in_spanish() -> None:
    for text, strings in _messages():
        plain = PLACEHOLDER.sub("", text)
        if plain in CSV_HEADINGS:
            continue
        for key in {name for name in GAME_FILE_KEYS if f'"{name}"' in plain}:
            for string in strings:
                assert f"«{key}»" in string, (text, string)


def test_house_rules_data_names_its_keys_as_keys() -> None:
    """The engine's refusal of house-rule data (a game file's "rules", a backup's) names the
    option as the data's key, in quotes; the editor shows the same refusal at its field, with
    no key at all."""
    with pytest.raises(RuleSetError) as caught:
        get_ruleset({"base": "twelve-step", "packs": {"decks": 0, "colour": 1}, "mood": "x"})
    assert [str(problem.message) for problem in caught.value.problems] == [
        '"mood" is not an option of a rule set'
    ]
    with pytest.raises(RuleSetError) as caught:
        get_ruleset({"base": "twelve-step", "packs": {"decks": 0, "colour": 1}})
    said = {problem.option: problem for problem in caught.value.problems}
    assert str(said["packs.decks"].message) == '"packs.decks": 0 is not between 1 and 20'
    assert str(said["packs.colour"].message) == (
        '"packs.colour": "colour" is no setting of "packs"'
    )
    assert code_names(str(said["packs.decks"].detail)) == []
