"""The referee and the rules pages in Spanish on the narrowest phone: Spanish runs about a
quarter longer than English, and still no page is wider than the screen."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import NARROW_PHONE, _page, fits_width, screenshot

pytestmark = pytest.mark.browser

PAGES = [
    "/rules",
    "/rules/bellevue",
    "/rules/contract-rummy",
    "/rules/new?base=bellevue",
    "/referee?rules=bellevue&mode=contract&melds=KH+QH+JH+10H+/+9H+8H+7H+6H&contract=4",
    "/referee?rules=twelve-step&cards=5S+2C+JK+8S",
    "/referee?rules=twelve-step&mode=liberate&meld=3H+4H+JK+6H&card=5H",
    "/referee?rules=twelve-step&mode=hand&cards=5S+5H+5D+7C+8C+9C+JK+KD+QS&contract=2",
]


# The words of the page that the browser split across two lines (a label too narrow for its
# longest word); words that hold a hyphen or a slash may break there, as cards and melds do.
BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector("main") || document.body,
                                           NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    for (const found of node.data.matchAll(/[^\\s\\-\\/]+/g)) {
      const range = document.createRange();
      range.setStart(node, found.index);
      range.setEnd(node, found.index + found[0].length);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                           .map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push(found[0]);
    }
  }
  return broken;
}"""


@pytest.fixture
def spanish_phone(browser: Any, live_server: str, owner_cookie: str) -> Iterator[Any]:
    """The narrowest phone (360 px), its browser set to Spanish (Chile), signed in."""
    yield from _page(browser, live_server, {**NARROW_PHONE, "locale": "es-CL"}, owner_cookie)


def test_the_rules_pages_and_the_referee_fit_the_narrowest_phone_in_spanish(
    spanish_phone: Any,
) -> None:
    for number, address in enumerate(PAGES, start=1):
        spanish_phone.goto(address)
        assert spanish_phone.get_attribute("html", "lang") == "es"
        heading = spanish_phone.get_by_role("heading", level=1).inner_text()
        assert heading in ("Reglas", "Árbitro", "Nuevas reglas de la casa") or "Rummy" in heading
        assert fits_width(spanish_phone), address
        assert spanish_phone.evaluate(BROKEN_WORDS) == [], address
        screenshot(spanish_phone, f"spanish-rules-360-{number}")
    # The editor's longest labels wrap instead of pushing the page sideways.
    spanish_phone.goto("/rules/new?base=contract-rummy")
    assert "Nuevas reglas de la casa" in spanish_phone.get_by_role("heading", level=1).inner_text()
    assert fits_width(spanish_phone)
