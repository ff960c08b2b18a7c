"""What a phone downloads: a first visit under 80 KB in all, htmx included, and later pages
under 20 KB once the static files are cached (versioned URLs, cached for a year)."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from .helpers import game_document, import_game, start_game

# What Chromium sends over plain HTTP.
BROWSER = {"Accept-Encoding": "gzip, deflate"}
FIRST_VISIT_BUDGET = 80_000
LATER_PAGE_BUDGET = 20_000


def long_game(client: FlaskClient) -> int:
    """A 4-player 12-Step game 30 rounds in, imported through the upload page."""
    names = ["Ann", "Ben", "Cy", "Dee"]
    rounds = [
        (names[n % 4], {name: "K 5 9" for name in names if name != names[n % 4]}, set())
        for n in range(30)
    ]
    document = game_document("twelve-step", names, rounds)
    return import_game(client, document)


@pytest.mark.parametrize("page", ["home", "new game", "scoreboard", "round", "referee", "history"])
def test_first_visit_and_later_pages_fit_the_budget(client: FlaskClient, page: str) -> None:
    game_id = long_game(client)
    start_game(client, "contract-rummy", ["Eve", "Fay", "Gus"])
    url = {
        "home": "/",
        "new game": "/games/new",
        "scoreboard": f"/games/{game_id}",
        "round": f"/games/{game_id}/rounds/new",
        "referee": "/referee?rules=twelve-step&cards=5S+2C+JK",
        "history": "/history",
    }[page]
    answer = client.get(url, headers=BROWSER)
    assert answer.status_code == 200
    page_bytes = len(answer.get_data())
    html = client.get(url).get_data(as_text=True)
    static = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
    assert any("htmx" in link for link in static)
    static_bytes = 0
    for link in static:
        assert "?v=" in link, f"{link} is not versioned"
        asset = client.get(link, headers=BROWSER)
        assert asset.status_code == 200
        assert asset.cache_control.max_age == 365 * 24 * 3600, link
        static_bytes += len(asset.get_data())
    assert page_bytes + static_bytes < FIRST_VISIT_BUDGET, (page_bytes, static_bytes)
    assert page_bytes < LATER_PAGE_BUDGET, page_bytes
