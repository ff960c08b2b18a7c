"""The board side of a game in Spanish on the narrowest phone (360 x 640), with six long names:
the scoreboard in progress and finished, the TV view and the result page stay within the
screen's width (the rounds table scrolls inside its own box), in light and in dark. Spanish
runs about a quarter longer than English. Screenshots land in test-artifacts/screenshots/."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from ..helpers import game_document, twelve_step_to_the_end
from .conftest import DESKTOP, _page, fits_width, screenshot

pytestmark = pytest.mark.browser

SIX = ("Maximiliano", "Guadalupe", "Bartolomé", "Concepción", "Inmaculada", "Ñandú Álvarez")
SMALL_PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
# The words of the May I list that the browser split across two lines.
BROKEN_NAMES = """() => {
  const broken = [];
  for (const name of document.querySelectorAll(".may-i-name")) {
    const node = name.firstChild;
    for (const found of node.data.matchAll(/\\S+/g)) {
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


@pytest.fixture(scope="module")
def six_games(browser: Any, live_server: str, owner_cookie: str) -> dict[str, str]:
    """A 12-Step game of six long names in progress (three rounds in) and one finished, where
    two made contract 12 in the last round: their addresses."""
    whole = twelve_step_to_the_end(SIX)
    addresses: dict[str, str] = {}
    pages = _page(browser, live_server, DESKTOP, owner_cookie)
    page = next(pages)
    for key, rounds in (("playing", whole[:3]), ("finished", whole)):
        document = game_document("twelve-step", list(SIX), rounds)
        page.goto("/games/import")
        page.set_input_files(
            "#file",
            files=[
                {
                    "name": f"{key}.json",
                    "mimeType": "application/json",
                    "buffer": json.dumps(document).encode(),
                }
            ],
        )
        page.get_by_role("button", name="Upload").click()
        page.wait_for_url(re.compile(r"/games/\d+$"))
        addresses[key] = page.url.removeprefix(live_server)
    next(pages, None)
    return addresses


@pytest.fixture(params=["light", "dark"])
def spanish_phone(
    request: pytest.FixtureRequest, browser: Any, live_server: str, owner_cookie: str
) -> Iterator[Any]:
    """A 360 x 640 phone set to Spanish (Chile), signed in, in light or dark."""
    device = {**SMALL_PHONE, "locale": "es-CL", "color_scheme": request.param}
    page = _page(browser, live_server, device, owner_cookie)
    phone = next(page)
    phone.scheme = request.param
    yield phone
    next(page, None)


def test_the_board_tv_and_result_fit_a_small_phone_in_spanish(
    spanish_phone: Any, six_games: dict[str, str]
) -> None:
    scheme = spanish_phone.scheme
    for key, address in six_games.items():
        for page, path in (
            ("board", address),
            ("tv", f"{address}/tv"),
            ("result", f"{address}/result"),
        ):
            spanish_phone.goto(path)
            assert spanish_phone.get_attribute("html", "lang") == "es"
            assert fits_width(spanish_phone), (key, page, scheme)
            screenshot(spanish_phone, f"spanish-{page}-{key}-360-{scheme}")
    spanish_phone.goto(six_games["finished"])
    result = spanish_phone.locator("#board .result")
    assert "Maximiliano gana" in result.inner_text()
    assert "cumplieron el contrato 12 en la ronda 12" in result.inner_text()
    spanish_phone.goto(six_games["playing"])
    assert "Posiciones" in spanish_phone.locator("#board").inner_text()
    # "0 usados" and "¿Puedo?" leave a long name too little room: the buttons move down.
    assert spanish_phone.locator(".may-i-name").count() == len(SIX)
    assert spanish_phone.evaluate(BROKEN_NAMES) == []
    assert "reparte la ronda 4" in spanish_phone.locator("#board .deal").inner_text()
