"""Two phones enter the same new round at 360 px (issue 23, item 1): the second save merges
into the round the first stored. Typed the same, it is told so on the scoreboard; typed
differently, it becomes that round's correction with the hand that differs side by side,
nothing stored until chosen. Picking a side puts it in the field (on the correction form's
conflict page too): the screen shows what the save stores."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import (
    NARROW_PHONE,
    _page,
    fits_width,
    screenshot,
    serious_accessibility_violations,
)

pytestmark = pytest.mark.browser


def _rounds(page: Any, board: str) -> list[dict[str, Any]]:
    """The game's rounds as the database holds them (its game file)."""
    answer = page.request.get(f"{board}/export")
    assert answer.ok
    rounds: list[dict[str, Any]] = answer.json()["rounds"]
    return rounds


def _start(page: Any) -> str:
    page.goto("/games/new")
    for seat, name in enumerate(["Ada", "Bo", "Cyd"]):
        page.fill(f"#players-{seat}", name)
    page.click("button[name=start]")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    return str(page.url)


def _enter(page: Any, went_out: str, cards: dict[int, str]) -> None:
    page.locator("fieldset.went-out label.choice", has_text=went_out).click()
    for seat, typed in cards.items():
        page.fill(f"#hands-{seat}-cards", typed)


@pytest.fixture
def second_phone(browser: Any, live_server: str, owner_cookie: str) -> Iterator[Any]:
    """Another 360 px phone, in a browser context of its own."""
    yield from _page(browser, live_server, NARROW_PHONE, owner_cookie)


def test_a_second_phone_entering_the_same_round_chooses_where_it_differs(
    narrow_phone: Any, second_phone: Any
) -> None:
    a, b = narrow_phone, second_phone
    board = _start(a)
    a.goto(board + "/rounds/new")
    b.goto(board + "/rounds/new")
    expect(b.locator("h1")).to_have_text("Round 1")

    _enter(a, "Ada", {1: "7", 2: "JK 5 5"})
    a.click("button.save-round")
    a.wait_for_url(board)

    # B leaves Bo blank and types Cyd's hand differently.
    _enter(b, "Ada", {2: "JK"})
    b.click("button.save-round")
    conflict = b.locator("#round-conflict")
    expect(conflict).to_be_visible()
    expect(conflict).to_contain_text("Round 1 was stored on another phone meanwhile")
    expect(b.locator("h1")).to_have_text("Correct round 1")
    clash = b.locator("#clash-2")
    expect(clash).to_contain_text("Stored now JK 5 5")
    expect(clash).to_contain_text("Yours JK")
    expect(b.locator("fieldset.clash")).to_have_count(1)
    expect(b.locator("#hands-1-cards")).to_have_value("7")  # left blank: as stored
    expect(b.locator("#hands-2-cards")).to_have_value("JK")
    assert _rounds(b, board)[0]["players"]["Cyd"]["cards"] == "JK 5 5"
    assert fits_width(b)
    assert serious_accessibility_violations(b) == []
    screenshot(b, "games-new-round-clash-360")

    # The field follows the side picked.
    points_of_yours = b.locator("#points-2").inner_text()
    clash.locator("label.choice", has_text="Stored now").click()
    expect(b.locator("#hands-2-cards")).to_have_value("JK 5 5")
    expect(b.locator("#points-2")).not_to_have_text(points_of_yours)  # its points redrawn
    clash.locator("label.choice", has_text="Yours").click()
    expect(b.locator("#hands-2-cards")).to_have_value("JK")
    expect(b.locator("#points-2")).to_have_text(points_of_yours)
    screenshot(b, "games-new-round-clash-chosen-360")
    # A field typed in by hand after a side was picked holds the person's own entry: Yours.
    clash.locator("label.choice", has_text="Stored now").click()
    expect(b.locator("#hands-2-cards")).to_have_value("JK 5 5")
    b.fill("#hands-2-cards", "JK")
    expect(clash.locator("input[value=mine]")).to_be_checked()
    assert len(_rounds(b, board)) == 1 and _rounds(b, board)[0]["players"]["Cyd"]["cards"] == (
        "JK 5 5"
    )

    b.locator("#round-conflict .reapply").click()
    b.wait_for_url(board)
    assert _rounds(b, board)[0]["players"]["Cyd"]["cards"] == "JK"
    assert len(_rounds(b, board)) == 1
    b.locator("details.log summary").click()
    expect(b.locator(".log-list")).to_contain_text("Round 1 corrected: Cyd's cards JK 5 5 → JK")


def test_a_second_phone_that_typed_the_same_is_told_so(
    narrow_phone: Any, second_phone: Any
) -> None:
    a, b = narrow_phone, second_phone
    board = _start(a)
    a.goto(board + "/rounds/new")
    b.goto(board + "/rounds/new")
    _enter(a, "Bo", {0: "K Q", 2: "5"})
    a.click("button.save-round")
    a.wait_for_url(board)

    _enter(b, "Bo", {0: "k  q", 2: ""})
    b.click("button.save-round")
    b.wait_for_url(board)
    expect(b.locator(".flash").first).to_contain_text("Round 1 is stored as you typed it")
    expect(b.locator(".flash").first).to_contain_text("Cyd's hand, left blank here, stays")
    rounds = _rounds(b, board)
    assert len(rounds) == 1 and rounds[0]["players"]["Cyd"]["cards"] == "5"
    screenshot(b, "games-new-round-same-360")


def test_the_correction_form_shows_the_side_picked_in_the_field(
    narrow_phone: Any, second_phone: Any
) -> None:
    """The conflict page of two corrections: "Stored now" picked puts the stored hand in the
    field, which kept showing this phone's entry while the save stored the other."""
    b, d = narrow_phone, second_phone
    board = _start(b)
    b.goto(board + "/rounds/new")
    _enter(b, "Ada", {1: "7", 2: "JK 5 5"})
    b.click("button.save-round")
    b.wait_for_url(board)
    b.goto(board + "/rounds/1/edit")
    d.goto(board + "/rounds/1/edit")
    b.fill("#hands-2-cards", "JK 5")
    b.click("button.save-round")
    b.wait_for_url(board)

    d.fill("#hands-2-cards", "JK")
    d.click("button.save-round")
    clash = d.locator("#clash-2")
    expect(clash).to_contain_text("Stored now JK 5")
    expect(d.locator("#hands-2-cards")).to_have_value("JK")
    points_of_yours = d.locator("#points-2").inner_text()
    clash.locator("label.choice", has_text="Stored now").click()
    expect(d.locator("#hands-2-cards")).to_have_value("JK 5")
    expect(d.locator("#points-2")).not_to_have_text(points_of_yours)  # its chips redrawn too
    expect(d.locator("#cards-2 .chips button")).to_have_count(2)
    screenshot(d, "games-correction-clash-stored-picked-360")
    d.locator("#round-conflict .reapply").click()
    d.wait_for_url(board)
    expect(d.locator(".flash").first).to_contain_text("Round 1 stays as it is stored.")
    assert _rounds(d, board)[0]["players"]["Cyd"]["cards"] == "JK 5"


def test_a_save_kept_without_signal_merges_when_it_is_sent(
    narrow_phone: Any, second_phone: Any
) -> None:
    """B saves round 1 with no signal (kept on the phone); A stores round 1 meanwhile; when
    B's signal returns, its save comes back as round 1's correction, the hand that differs
    side by side, nothing stored over A's."""
    a, b = narrow_phone, second_phone
    board = _start(a)
    a.goto(board + "/rounds/new")
    b.goto(board + "/rounds/new")
    _enter(b, "Ada", {1: "7", 2: "Q"})
    expect(b.locator("#points-2")).to_contain_text("10")
    b.context.set_offline(True)
    b.click("button.save-round")
    expect(b.get_by_text("Saved on this phone; will send when the signal returns.")).to_be_visible()

    _enter(a, "Ada", {1: "7", 2: "K"})
    a.click("button.save-round")
    a.wait_for_url(board)

    b.context.set_offline(False)  # the "online" event sends it
    expect(b.locator("#round-conflict")).to_be_visible()
    expect(b.locator("h1")).to_have_text("Correct round 1")
    expect(b.locator("#clash-2")).to_contain_text("Stored now K")
    expect(b.locator("#clash-2")).to_contain_text("Yours Q")
    expect(b.locator("fieldset.clash")).to_have_count(1)
    assert _rounds(a, board)[0]["players"]["Cyd"]["cards"] == "K"
    b.problems[:] = [
        problem
        for problem in b.problems
        if "ERR_INTERNET_DISCONNECTED" not in problem and "htmx:sendError" not in problem
    ]
