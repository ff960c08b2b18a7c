"""The card values' labels on the narrowest phone (360 px), in English and Spanish (issue 51):
on the rules page and in the house-rules editor, of Phase 10's deck (Wild, Skip: Comodín,
Salto) and a standard deck's (Joker), no label breaks inside a word (Spanish's "Comodín" was
drawn "Comod" over "ín" on both pages), none is written under 12 px, and the editor's fields
are 44 px tall. Each page is photographed (i51-card-values-*)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import SCREENSHOTS, fits_width, screenshot

pytestmark = pytest.mark.browser

PAGES = {
    "rules-phase-10": "/rules/phase-10",
    "editor-phase-10": "/rules/new?base=phase-10",
    "rules-standard": "/rules/contract-rummy",
    "editor-standard": "/rules/new?base=contract-rummy",
}
# The words among the labels, which a page must show (so that the test reads them).
WORDS = {
    "en": {"phase-10": ("Wild", "Skip"), "standard": ("Joker",)},
    "es": {"phase-10": ("Comodín", "Salto"), "standard": ("Joker",)},
}

# Each label of the grid, with each of its words and the lines that word is drawn on (the
# number of distinct tops of a Range around it: a word broken inside is on two), its text's
# size, and the height of the field under it, if any.
LABELS = """
() => [...document.querySelectorAll('#card_values dt, .value-grid label')].map(label => {
  const text = label.firstChild;
  const words = [];
  for (const found of text.textContent.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(text, found.index);
    range.setEnd(text, found.index + found[0].length);
    const tops = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
    words.push({word: found[0], lines: tops.size});
  }
  const field = label.htmlFor ? document.getElementById(label.htmlFor) : null;
  return {
    text: text.textContent,
    words,
    size: parseFloat(getComputedStyle(label).fontSize),
    field: field ? field.getBoundingClientRect().height : null,
  };
})
"""


def test_no_card_value_label_breaks_inside_a_word_at_360_px(reader: Any) -> None:
    page = reader
    language = page.language
    for name, path in PAGES.items():
        page.goto(path)
        labels = page.evaluate(LABELS)
        texts = [label["text"] for label in labels]
        for word in WORDS[language][name.split("-", 1)[1]]:
            assert word in texts, (path, word, texts)
        for label in labels:
            for word in label["words"]:
                assert word["lines"] == 1, (path, label["text"], word)
            assert label["size"] >= 12, (path, label)
            if name.startswith("editor"):
                assert label["field"] is not None and label["field"] >= 44, (path, label)
        assert fits_width(page), path
        shot = f"i51-card-values-{name}-360-{language}"
        screenshot(page, shot)
        # And the grid itself, close up.
        grid = page.locator("#card_values, .value-grid").first
        grid.screenshot(path=str(SCREENSHOTS / f"{shot}-grid.png"), caret="initial")
