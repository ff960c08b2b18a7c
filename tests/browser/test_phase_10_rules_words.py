"""Phase 10's rules page and house-rules editor on the narrowest phone (360 px), in English and
Spanish (issue 51): their headings and labels say phase and hit (fase, acomodar, grupo), never
contract, lay off or rank; nothing is wider than the screen; each is photographed
(i51-rules-words-*)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import fits_width, screenshot

pytestmark = pytest.mark.browser

SAID = {
    "en": {
        "/rules/phase-10": ("Phases", "Which phase a player works on", "Hitting"),
        "/rules/new?base=phase-10": (
            "Phases",
            "Phases: one per line, in order",
            "Two sets of one number",
        ),
    },
    "es": {
        "/rules/phase-10": ("Fases", "Qué fase juega cada jugador", "Acomodar"),
        "/rules/new?base=phase-10": (
            "Fases",
            "Fases: una por línea, en orden",
            "Grupo más pequeño",
        ),
    },
}
NEVER = {
    "en": ("Contracts", "Laying off", "Two sets of one rank", "no jokers"),
    "es": ("Contratos", "Trío más pequeño", "Dos tríos del mismo valor", "sin jokers"),
}


def test_phase_10_rules_and_editor_say_phase_at_360_px(reader: Any) -> None:
    page = reader
    language = page.language
    for path, said in SAID[language].items():
        page.goto(path)
        main = page.locator("main").inner_text()
        # The other games and decks offered are named in their own words.
        read = main
        if page.locator("details.other-base").count():
            read = read.replace(page.locator("details.other-base").inner_text(), "")
        if page.locator("#deck").count():
            read = read.replace(page.locator("#deck").inner_text(), "")
        for words in said:
            assert words in read, (path, words)
        for words in NEVER[language]:
            assert words not in read, (path, words)
        assert fits_width(page), path
        name = "rules" if path == "/rules/phase-10" else "editor"
        screenshot(page, f"i51-rules-words-{name}-360-{language}")
