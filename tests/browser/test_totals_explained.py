"""Every total says where it came from (issue 49, item 3), at 360 px: six players with long
names, one who left, one who came back and one who joined; the line under each name stays on
the phone's screen, the board and the result page scroll no sideways (the rounds' grid scrolls
in its own box), in English and Spanish. Screenshots land in test-artifacts/screenshots/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ..games.test_totals_explained import LONG_NAMES, evening
from .conftest import NARROW_PHONE, _page, fits_width, upload_game
from .test_tour import screenshot_path


def six_long_names() -> dict[str, Any]:
    """The evening of the page tests, its five named with long names, and a sixth there all
    evening."""
    game = evening(LONG_NAMES[:5])
    game["players"].append(LONG_NAMES[5])
    for entry in game["rounds"]:
        entry["players"][LONG_NAMES[5]] = {"made_contract": False, "cards": "2"}
    return game


@pytest.fixture(scope="module")
def board(browser: Any, live_server: str, owner_cookie: str) -> str:
    """The six long names' game, uploaded once for the module's tests, which only read it."""
    pages = _page(browser, live_server, NARROW_PHONE, owner_cookie)
    address = upload_game(next(pages), six_long_names())
    next(pages, None)
    return address


@pytest.fixture(params=["en", "es"])
def narrow(
    request: pytest.FixtureRequest, browser: Any, live_server: str, owner_cookie: str
) -> Iterator[Any]:
    """A 360 px phone, signed in, its browser asking for English or Spanish."""
    device = {**NARROW_PHONE, "locale": request.param}
    for page in _page(browser, live_server, device, owner_cookie):
        page.language = request.param
        yield page


def on_screen(page: Any, selector: str) -> list[str]:
    """The texts of ``selector`` that run past the phone's right edge (none should)."""
    return list(
        page.locator(selector).evaluate_all(
            "(found, width) => found.filter(e => e.getBoundingClientRect().right > width + 1)"
            ".map(e => e.textContent)",
            360,
        )
    )


def test_where_each_total_came_from_fits_a_narrow_phone(narrow: Any, board: str) -> None:
    narrow.goto(board)
    said = narrow.locator(".standings .comings")
    assert said.count() == 3
    expected = "joined before round 5" if narrow.language == "en" else "entró antes de la ronda 5"
    assert any(expected in text for text in said.all_text_contents())
    assert fits_width(narrow)
    assert on_screen(narrow, ".standings .comings") == []
    assert on_screen(narrow, ".standings .player-name") == []
    assert narrow.locator(".rounds tr.arrival").count() == 2
    narrow.locator(".standings").screenshot(
        path=str(screenshot_path(f"totals-explained-standings-{narrow.language}")), caret="initial"
    )
    narrow.locator(".rounds-wrap").screenshot(
        path=str(screenshot_path(f"totals-explained-rounds-{narrow.language}")), caret="initial"
    )

    narrow.goto(f"{board}/result")
    assert narrow.locator(".card-totals .comings").count() == 3
    assert fits_width(narrow)
    assert on_screen(narrow, ".card-totals li") == []
    # Each total on its name's line, however long the line under the name.
    apart = narrow.locator(".card-totals li").evaluate_all(
        "rows => rows.filter(row => Math.abs(row.querySelector('.num').getBoundingClientRect().top"
        " - row.querySelector('.player-name').getBoundingClientRect().top) > 4)"
        ".map(row => row.textContent)"
    )
    assert apart == []
    narrow.screenshot(
        path=str(screenshot_path(f"totals-explained-result-{narrow.language}")),
        full_page=True,
        caret="initial",
    )


# Per header of the rounds' grid: the words (each with a hyphen it ends with) that the header's
# lines break inside. A word on one line gives one box; one broken letter by letter, several.
BROKEN_WORDS = """
headers => headers.flatMap(header => {
  const text = header.firstChild;
  const broken = [];
  for (const found of text.textContent.matchAll(/[^\\s-]+-?/g)) {
    const range = document.createRange();
    range.setStart(text, found.index);
    range.setEnd(text, found.index + found[0].length);
    const lines = new Set([...range.getClientRects()].map(box => Math.round(box.top)));
    if (lines.size > 1) broken.push(found[0]);
  }
  return broken;
})
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_rounds_grids_long_names_break_between_words(
    browser: Any, live_server: str, owner_cookie: str, board: str, scheme: str
) -> None:
    for language in ("en", "es"):
        device = {**NARROW_PHONE, "locale": language, "color_scheme": scheme}
        for page in _page(browser, live_server, device, owner_cookie):
            page.goto(board)
            headers = page.locator(".rounds thead th.num")
            assert headers.count() == 6
            assert headers.evaluate_all(BROKEN_WORDS) == []
            # Every name is there whole.
            assert sorted(headers.all_text_contents()) == sorted(LONG_NAMES)
            # The page still scrolls no sideways: the grid does, in its own box.
            assert fits_width(page)
            page.locator(".rounds-wrap").screenshot(
                path=str(screenshot_path(f"rounds-long-names-{language}-{scheme}")),
                caret="initial",
            )
