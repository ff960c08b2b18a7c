"""Issue 43 item 5 on 360 x 640 phones, light and dark: in Contract Rummy (a round with nobody
out is allowed) a phone taps "Nobody went out", and every phone, that one too, enters its own
hand; the round closes itself with nobody out."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import (
    _page,
    fits_width,
    screenshot,
    serious_accessibility_violations,
    sign_in_cookie,
)
from .test_offline import _rounds
from .test_own_hands import _seated

pytestmark = pytest.mark.browser

SMALL_PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}


def _contract_rummy_table(scorer: Any, live_server: str, names: tuple[str, ...]) -> tuple[str, str]:
    """A new Contract Rummy game and a table link to it: the board's address and the link's."""
    scorer.goto("/games/new")
    scorer.select_option("#rules", "contract-rummy")
    # The rules chosen redraw the form (htmx): names typed before that answer lands are gone.
    expect(scorer.locator(".setup-preview")).to_contain_text("Contract Rummy (7 deals): ")
    for seat, name in enumerate(names):
        scorer.fill(f"#players-{seat}", name)
    scorer.click("button[name=start]")
    scorer.wait_for_url(re.compile(r"/games/\d+$"))
    board = scorer.url.removeprefix(live_server)
    scorer.get_by_role("link", name="Let the table score").click()
    scorer.get_by_role("button", name="New table link").click()
    link = scorer.locator(".link-card input.copy-field").first.input_value()
    return board, link.removeprefix(live_server)


def _seated_table(
    browser: Any, live_server: str, scheme: str, names: tuple[str, ...]
) -> tuple[list[Any], Any, str, list[Any]]:
    """A scorer's 360 px phone in ``scheme`` with a new Contract Rummy game of ``names``, and a
    phone seated as each player through its table link: every browser context (to close),
    the scorer's page, the board's address and the players' pages."""
    device = {**SMALL_PHONE, "color_scheme": scheme}
    # A session of its own: the worker's shared owner session carries other tests' phones.
    # Names of their own: the worker's household is shared with other tests, whose phones may
    # hold a seat of a player called Ann for the signed-in owner.
    scorers = _page(browser, live_server, device, sign_in_cookie(live_server))
    scorer = next(scorers)
    board, link = _contract_rummy_table(scorer, live_server, names)
    contexts = [_page(browser, live_server, device) for _ in names]
    phones = [next(context) for context in contexts]
    for phone, name in zip(phones, names, strict=True):
        _seated(phone, link, board, name)
    return [*contexts, scorers], scorer, board, phones


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_nobody_went_out_on_the_phones_and_each_enters_its_hand(
    browser: Any, live_server: str, scheme: str
) -> None:
    names = (f"Noa {scheme}", f"Ben {scheme}", f"Cy {scheme}")
    contexts, scorer, board, phones = _seated_table(browser, live_server, scheme, names)
    ann, ben, cy = phones
    nobody = ann.get_by_role("button", name="Nobody went out")
    expect(nobody).to_be_visible()
    screenshot(ann, f"i43-nobody-button-360-{scheme}")
    nobody.click()
    for phone in phones:
        expect(phone.locator(".my-state")).to_contain_text("Nobody went out.")
        expect(phone.get_by_label("Your cards left")).to_be_visible()
    assert fits_width(ben)
    assert serious_accessibility_violations(ben) == []
    screenshot(ben, f"i43-nobody-pad-360-{scheme}")
    for phone, card in ((ann, "K"), (ben, "5"), (cy, "A")):
        phone.get_by_role("button", name=f"Add {card}", exact=True).click()
        expect(phone.locator("#my-points")).to_contain_text(" pts")
        phone.get_by_role("button", name="Not made ✗").click()
    expect(cy.locator("#last-round")).to_contain_text("Round 1")
    (played,) = _rounds(scorer, board)
    assert played["went_out"] is None
    points = {name: hand["points"] for name, hand in played["players"].items()}
    assert points == dict(zip(names, (10, 5, 15), strict=True))
    for context in contexts:
        next(context, None)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_close_naming_nobody_refused_is_kept_on_the_phones(
    browser: Any, live_server: str, scheme: str
) -> None:
    """Left from issue 42: with nothing said on the phones, the scorer types two hands on the
    close page and closes with "Nobody"; the rules refuse it (the third player holds cards).
    The phones now say nobody went out (the third is asked for its cards), and the close page
    offers the choice again, "Nobody" checked: naming the third out there stores the round."""
    names = (f"Noor {scheme}", f"Bea {scheme}", f"Cyd {scheme}")
    contexts, scorer, board, phones = _seated_table(browser, live_server, scheme, names)
    scorer.goto(f"{board}/close")
    for seat, cards in enumerate(("K", "5")):
        scorer.locator(f"#hand-{seat} input[name=cards-{seat}]").fill(cards)
    scorer.get_by_label("Nobody", exact=True).check()
    scorer.get_by_role("button", name="Close round 1", exact=True).click()
    expect(scorer.locator("body")).to_contain_text(f"{names[2]} did not go out")
    cyd = phones[2]
    cyd.reload()
    expect(cyd.locator(".my-state")).to_contain_text("Nobody went out.")
    expect(cyd.get_by_label("Your cards left")).to_be_visible()
    scorer.goto(f"{board}/close")
    expect(scorer.get_by_label("Nobody", exact=True)).to_be_checked()
    assert fits_width(scorer)
    assert serious_accessibility_violations(scorer) == []
    screenshot(scorer, f"i43-close-nobody-kept-360-{scheme}")
    scorer.get_by_label(names[2], exact=True).check()
    scorer.get_by_role("button", name="Close round 1", exact=True).click()
    expect(scorer.locator(".flash")).to_contain_text("Round 1 stored.")
    (played,) = _rounds(scorer, board)
    assert played["went_out"] == names[2]
    for context in contexts:
        next(context, None)
