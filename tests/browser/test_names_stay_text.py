"""The review's attack, in a real browser on the real server (issue 48): a scorer names a player
``x hx-post=/games/N/delete hx-trigger=load y``; the owner opens that board in Spanish, where
the translation of "Take back a May I for %(name)s" once held a straight quote that ended the
button's ``aria-label`` early, so the name's words became attributes and htmx posted the
delete of game N with the page's CSRF header as soon as the board loaded. Now the name stays
in the label, whole, and game N stays where it was, in English and in Spanish."""

from __future__ import annotations

from typing import Any

import pytest

from ..helpers import game_document
from .conftest import NARROW_PHONE, _page, start_game, upload_game


@pytest.mark.parametrize("locale", ["es-CL", "en-GB"])
def test_a_hostile_name_on_a_board_deletes_nothing(
    browser: Any, live_server: str, owner_cookie: str, locale: str
) -> None:
    from playwright.sync_api import expect

    pages = _page(browser, live_server, {**NARROW_PHONE, "locale": locale}, owner_cookie)
    page = next(pages)
    spare_path = upload_game(page, game_document("contract-rummy", ["Ana", "Beto"], []))
    spare = live_server + spare_path
    hostile = f"x hx-post={spare_path}/delete hx-trigger=load y"
    deletes: list[str] = []
    page.on(
        "request", lambda request: deletes.append(request.url) if "delete" in request.url else None
    )

    board = start_game(page, ["Ana", hostile, "Beto"])
    page.goto(board)
    page.wait_for_load_state("networkidle")
    # The May I buttons name the player in their labels, whole: the name is text there.
    take_back = page.locator("button[name=change][value='-1']").nth(1)
    label = take_back.get_attribute("aria-label") or ""
    assert hostile in label
    assert (
        take_back.get_attribute("hx-post") is None and take_back.get_attribute("hx-trigger") is None
    )
    # Nothing on the board carries an htmx post to the spare game.
    assert page.locator(f"[hx-post*='{spare_path}/delete']").count() == 0
    assert deletes == []
    still = page.request.get(spare)
    assert still.status == 200
    page.goto(spare)
    expect(page.locator("h1")).to_be_visible()
    assert page.url == spare
    next(pages, None)
