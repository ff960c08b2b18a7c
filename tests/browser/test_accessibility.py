"""Every main page, in the light and the dark color scheme, on the narrowest phone we support:
no serious accessibility problem (axe-core; contrast shows up in the dark), every control
labelled, nothing wider than 360 px. And a whole round entered with the keyboard alone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import (
    NARROW_PHONE,
    PHONE,
    _page,
    fits_width,
    screenshot,
    serious_accessibility_violations,
)

pytestmark = pytest.mark.browser

# (name, address); the parts in braces come from the sample games.
PAGES = [
    ("home", "/"),
    ("new-game", "/games/new"),
    ("scoreboard", "{playing}"),
    ("round-entry", "{playing}/rounds/new"),
    ("result", "{finished}"),
    ("round-correction", "{finished}/rounds/2/edit"),
    ("referee-valid", "/referee?rules=twelve-step&cards=5S+2C+JK"),
    ("referee-invalid", "/referee?rules=twelve-step&cards=5S+2C+JK+8S"),
    ("referee-contract", "/referee?rules=twelve-step&mode=contract&melds=5S+5H+5D+/+7C+7D+JK"),
    ("rules", "/rules"),
    ("rules-page", "/rules/twelve-step"),
    ("house-rules-editor", "/rules/new?base=twelve-step"),
    ("history", "/history"),
    ("history-filtered", "/history?player={player_id}&status=finished"),
    ("players", "/players"),
    ("player", "{player}"),
    ("records", "/records"),
    ("seasons", "/seasons"),
    ("upload", "/games/import"),
    ("backup", "/history/backup"),
    ("members", "/members"),
    ("household-settings", "/household"),
    ("account", "/account"),
    ("table-links", "{playing}/links"),
    ("bin", "/bin"),
    ("households", "/households"),
]

# Visible controls without an accessible name (no label, aria-label(ledby), text or title).
UNLABELLED = """() => [
  ...document.querySelectorAll('input, select, textarea, button, summary, a[href]')]
  .filter((el) => el.type !== 'hidden' && el.getClientRects().length > 0
    && el.getAttribute('aria-hidden') !== 'true')
  .filter((el) => {
    if (el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')) return false;
    if (el.labels && el.labels.length) return false;
    if (['BUTTON', 'SUMMARY', 'A'].includes(el.tagName)) return !el.textContent.trim();
    return !el.getAttribute('title');
  })
  .map((el) => el.outerHTML.slice(0, 120))"""


# The focused control is what a person sees at its middle (not under the sticky save button).
NOT_OBSCURED = """() => {
  const el = document.activeElement, box = el.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const inLabel = el.labels && [...el.labels].some((label) => label.contains(hit));
  return hit !== null && (el === hit || el.contains(hit) || inLabel);
}"""


@pytest.fixture(scope="module", params=["light", "dark"])
def scheme_page(
    request: pytest.FixtureRequest, browser: Any, live_server: str, owner_cookie: str
) -> Iterator[Any]:
    """One 360 px page in the light, then the dark color scheme, reused for every address."""
    device = {**NARROW_PHONE, "color_scheme": request.param}
    for page in _page(browser, live_server, device, owner_cookie):
        page.scheme = request.param
        yield page


def htmx_idle(page: Any) -> None:
    """Wait until htmx has swapped and settled what it was sent (new fields listen only then)."""
    # A function, not a bare expression: Playwright evals a bare expression in the page when it
    # has to poll, and the page's Content-Security-Policy (rightly) forbids eval.
    busy = ".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added"
    page.wait_for_function(f"() => !document.querySelector({busy!r})")


def forget_refusals(page: Any) -> None:
    page.problems[:] = [p for p in page.problems if "status of 422" not in p]


@pytest.mark.parametrize(("name", "address"), PAGES, ids=[name for name, _ in PAGES])
def test_every_page_is_accessible_and_fits_the_narrowest_phone(
    scheme_page: Any, sample_games: dict[str, str], name: str, address: str
) -> None:
    page = scheme_page
    response = page.goto(address.format(**sample_games))
    assert response is not None and response.status == 200
    assert page.get_by_role("heading", level=1).count() == 1
    assert serious_accessibility_violations(page) == []
    assert page.evaluate(UNLABELLED) == []
    assert fits_width(page), f"{name} scrolls sideways at 360 px"
    screenshot(page, f"{name}-360-{scheme_page.scheme}")


def test_a_refused_round_is_accessible_in_both_schemes(
    scheme_page: Any, sample_games: dict[str, str]
) -> None:
    page = scheme_page
    page.goto(f"{sample_games['playing']}/rounds/new")
    page.click("button.save-round")
    expect(page.locator("#round-problems")).to_be_visible()
    assert page.locator("[aria-invalid='true']").count() >= 1
    assert serious_accessibility_violations(page) == []
    assert page.evaluate(UNLABELLED) == []
    assert fits_width(page)
    screenshot(page, f"round-entry-refused-360-{page.scheme}")
    forget_refusals(page)


def test_a_whole_round_by_keyboard_alone(
    browser: Any, live_server: str, sample_games: dict[str, str], owner_cookie: str
) -> None:
    """Tab, Shift+Tab, arrows, Space, Enter and typing: no pointer at all."""
    device = {**PHONE, "has_touch": False, "is_mobile": False}
    pages = _page(browser, live_server, device, owner_cookie)
    page = next(pages)
    page.goto("/games/new")
    keyboard = page.keyboard

    def tab_to(selector: str, *, backwards: bool = False, limit: int = 60) -> None:
        for _ in range(limit):
            keyboard.press("Shift+Tab" if backwards else "Tab")
            # Every stop on the way can be seen: none is left behind the sticky save button.
            assert page.evaluate(NOT_OBSCURED), page.evaluate("document.activeElement.outerHTML")
            if page.evaluate("(s) => document.activeElement.matches(s)", selector):
                return
        raise AssertionError(f"Tab never reached {selector}")

    # Start a game: rules, two players, the second deals first.
    tab_to("#rules")
    # Contract Rummy, the last of the family games (the published games follow it): from the
    # end of the list, up with the arrow key, the form redrawn for each.
    keyboard.press("End")
    for _ in range(8):
        htmx_idle(page)
        if page.locator("#rules").input_value() == "contract-rummy":
            break
        if not page.evaluate("document.activeElement.id === 'rules'"):
            tab_to("#rules", backwards=True)
        keyboard.press("ArrowUp")
    expect(page.locator("#rules")).to_have_value("contract-rummy")
    expect(page.locator(".setup-preview")).to_contain_text("Contract Rummy (7 deals)")
    htmx_idle(page)  # the form is redrawn for the new rules: type into the new one
    tab_to("#players-0")
    keyboard.type("Kit")
    tab_to("#players-1")
    keyboard.type("Lou")
    # Back up to the first seat's "deals" radio (a radio group is one tab stop), and move
    # the first deal to Lou with the arrow key.
    tab_to("input[name=first_dealer]", backwards=True)
    expect(page.locator("#players-0")).to_have_value("Kit")
    keyboard.press("ArrowDown")
    expect(page.locator("input[name=first_dealer][value='1']")).to_be_checked()
    tab_to("button[name=start]")
    keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    board = page.url

    # The scoreboard's link to the round form.
    tab_to("a[href$='/rounds/new']")
    keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/rounds/new$"))

    # Lou went out: the first radio is Kit, the arrow moves to Lou.
    tab_to("input[name=went_out]")
    keyboard.press("Space")
    keyboard.press("ArrowRight")
    expect(page.locator("input[name=went_out][value='1']")).to_be_checked()
    expect(page.locator("#hand-1 .when-out")).to_be_visible()

    # Kit's leftover cards from the pad: K with Enter, A with Space, then a typed 7.
    tab_to("#hand-0 .hand-pad button[value='K']")
    keyboard.press("Enter")
    expect(page.locator("#hands-0-cards")).to_have_value("K")
    expect(page.locator("#points-0")).to_contain_text("10")
    # The swap replaced the cards, not the pad: focus is still on a key to press again.
    tab_to("#hand-0 .hand-pad button[value='A']", backwards=True)
    keyboard.press("Space")
    expect(page.locator("#hands-0-cards")).to_have_value("K A")
    expect(page.locator("#points-0")).to_contain_text("25")
    htmx_idle(page)
    tab_to("#hands-0-cards", backwards=True)
    keyboard.press("End")
    keyboard.type(" 7")
    expect(page.locator("#hands-0-cards")).to_have_value("K A 7")
    expect(page.locator("#points-0")).to_contain_text("32")
    # Take the ace (the second card) out again with its chip.
    htmx_idle(page)
    tab_to("#hand-0 .chips button[value='1']")
    assert "Take out" in page.evaluate("document.activeElement.getAttribute('aria-label')")
    keyboard.press("Enter")
    expect(page.locator("#hands-0-cards")).to_have_value("K 7")
    expect(page.locator("#points-0")).to_contain_text("17")

    # Kit made the contract too: holding fewer cards than were dealt, "made" is ticked already
    # (issue 35); the keyboard changes it, and back. Then save.
    tab_to("input[name='hands-0-made']", backwards=True)
    expect(page.locator("input[name='hands-0-made']")).to_be_checked()
    keyboard.press("Space")
    expect(page.locator("input[name='hands-0-made']")).not_to_be_checked()
    keyboard.press("Space")
    expect(page.locator("input[name='hands-0-made']")).to_be_checked()
    tab_to("button.save-round")
    keyboard.press("Enter")
    page.wait_for_url(board)
    expect(page.locator("#board table.rounds tbody tr")).to_have_count(1)
    expect(page.locator("#board table.standings")).to_contain_text("17")
    screenshot(page, "keyboard-round-saved")
    next(pages, None)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_sign_in_page_is_accessible_signed_out(
    browser: Any, live_server: str, scheme: str
) -> None:
    pages = _page(browser, live_server, {**NARROW_PHONE, "color_scheme": scheme})
    page = next(pages)
    page.goto("/history")
    page.wait_for_url(re.compile(r"/login"))
    assert serious_accessibility_violations(page) == []
    assert page.evaluate(UNLABELLED) == []
    assert fits_width(page)
    screenshot(page, f"sign-in-360-{scheme}")
    next(pages, None)
