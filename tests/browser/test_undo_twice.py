"""Issue 23, item 6 at 360 px: a double tap on "Undo round 2" answers "Round 2 undone.", never
a red refusal, and round 1 stays."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import enter_round, screenshot, start_game

pytestmark = pytest.mark.browser


def test_a_double_tap_on_undo_answers_as_one(narrow_phone: Any) -> None:
    phone = narrow_phone
    board_url = start_game(phone, ["Una", "Vic", "Wes"])
    enter_round(phone, board_url, "Una", {1: "5", 2: "5"})
    enter_round(phone, board_url, "Vic", {0: "5", 2: "5"})

    undo = phone.get_by_role("button", name="Undo round 2")
    # Both taps land before the first answer: the same form sent twice.
    phone.evaluate(
        """() => {
          const form = document.querySelector("form.undo");
          const data = new URLSearchParams(new FormData(form));
          const send = () => fetch(form.action, { method: "POST", body: data, redirect: "manual" });
          return Promise.all([send(), send()]).then(() => undefined);
        }"""
    )
    with phone.expect_navigation():
        undo.click()  # and a third, by hand, on the page drawn before the undo
    expect(phone.locator(".flash, [role=alert]").first).to_contain_text("Round 2 undone.")
    expect(phone.get_by_text("is not the last round any more")).to_have_count(0)
    # Where Undo stood: round 2 back, never the undo of round 1 (issue 43).
    expect(phone.get_by_role("button", name="Put round 2 back")).to_be_visible()
    expect(phone.get_by_role("button", name="Undo round 1")).to_have_count(0)
    expect(phone.locator("#board table.rounds tbody tr")).to_have_count(1)
    screenshot(phone, "games-undo-twice-360")
