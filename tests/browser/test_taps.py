"""Issue 23, taps: the signed-in scorer alone enters a 4-player 12-Step round on the round form
at 360 x 640, and every tap is counted (``bench.taps.scorer_alone``, the benchmark's own
round): opening the form and saying who went out is one tap from the board, each card one,
each contract made one, Save one. A pick carried in from the board is shown, can be changed,
wins over typing kept on the phone, and assumes nothing else: a hand left empty is refused at
that hand as before."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Route, expect

from bench.taps import ALONE_CARDS, ALONE_TOTALS, scorer_alone

from .conftest import (
    _page,
    fits_width,
    screenshot,
    serious_accessibility_violations,
    start_game,
)

pytestmark = pytest.mark.browser

SMALL_PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
FOUR = ("Ann", "Ben", "Cy", "Dee")


@pytest.fixture
def scorer(browser: Any, live_server: str, owner_cookie: str) -> Iterator[Any]:
    """The family's owner on a 360 x 640 phone, signed in."""
    yield from _page(browser, live_server, SMALL_PHONE, owner_cookie)


def _new_game(page: Any) -> str:
    """A new 4-player 12-Step game, started through the page; its board's path."""
    return "/" + start_game(page, FOUR).split("/", 3)[3]


def test_the_scorer_alone_enters_a_round_in_few_taps(scorer: Any) -> None:
    """Issue 23: going out costs nothing beyond opening the form. Issue 35: nor does "made",
    which follows the cards (fewer than dealt: laid down), so the round is the went-out
    shortcut, the cards and Save: at most the cards plus 2."""
    board = _new_game(scorer)
    screenshot(scorer, "taps-board-360")

    def filled() -> None:
        screenshot(scorer, "taps-round-form-filled-360")
        assert fits_width(scorer)
        assert serious_accessibility_violations(scorer) == []

    entered = scorer_alone(scorer, board, before_save=filled)
    assert entered.totals == ALONE_TOTALS
    assert entered.taps <= ALONE_CARDS + 2, (
        f"{entered.taps} taps for {ALONE_CARDS} cards: {entered.pressed}"
    )


def test_a_pick_from_the_board_is_shown_changeable_and_assumes_nothing_else(
    scorer: Any,
) -> None:
    page = scorer
    board = _new_game(page)
    page.get_by_role("link", name="Ben went out", exact=True).click()
    page.wait_for_url(re.compile(r"/rounds/new\?went_out=1$"))
    expect(page.get_by_role("radio", name="Ben", exact=True)).to_be_checked()
    expect(page.locator("#hand-1 .when-out")).to_be_visible()
    expect(page.locator("#hand-1 .hand-pad")).to_be_hidden()
    # Ben's empty fields go; everyone else's hand is as empty as ever.
    expect(page.locator("#hands-1-cards")).to_be_hidden()
    for seat in (0, 2, 3):
        expect(page.locator(f"#hands-{seat}-cards")).to_have_value("")
        expect(page.locator(f"#hand-{seat} input[name$='-made']")).not_to_be_checked()
    screenshot(page, "taps-round-form-from-the-board-360")

    # Typing kept on this phone, then the board again and another pick: the pick wins, the
    # typing stays.
    page.get_by_role("button", name="Add K to Cy", exact=True).click()
    expect(page.locator("#hands-2-cards")).to_have_value("K")
    page.goto(board)
    page.get_by_role("link", name="Dee went out", exact=True).click()
    expect(page.get_by_role("radio", name="Dee", exact=True)).to_be_checked()
    expect(page.locator("#hands-2-cards")).to_have_value("K")
    expect(page.locator("#hand-3")).to_have_class(re.compile(r"\bis-out\b"))
    expect(page.locator("#hand-1")).not_to_have_class(re.compile(r"\bis-out\b"))

    # Changed on the form: Ann went out after all. Ben and Cy counted, Dee left empty.
    page.get_by_role("radio", name="Ann", exact=True).click()
    expect(page.locator("#hand-0")).to_have_class(re.compile(r"\bis-out\b"))
    expect(page.locator("#hand-3 .hand-pad")).to_be_visible()
    page.get_by_role("button", name="Add 5 to Ben", exact=True).click()
    expect(page.locator("#hands-1-cards")).to_have_value("5")
    page.get_by_role("button", name="Save round 1", exact=True).click()
    message = page.locator("#hand-3 .field-error")
    expect(message).to_contain_text("Dee did not go out, so Dee holds cards")
    expect(page.locator("#round-problems")).to_contain_text("Nothing was saved")
    expect(page.get_by_role("radio", name="Ann", exact=True)).to_be_checked()
    screenshot(page, "taps-round-form-empty-hand-refused-360")
    assert fits_width(page)
    page.goto(board)
    expect(page.get_by_role("link", name="Enter round 1", exact=True)).to_be_visible()


def _board_with_typing_kept(page: Any) -> None:
    """A new game's board, with typing kept on this phone for round 1 (Cy holds K): the round
    form opened from it asks the server to redraw that typing."""
    board = _new_game(page)
    page.get_by_role("link", name="Ben went out", exact=True).click()
    page.get_by_role("button", name="Add K to Cy", exact=True).click()
    expect(page.locator("#hands-2-cards")).to_have_value("K")
    page.goto(board)


def _until_held(page: Any, held: list[Route]) -> None:
    """Until a route's handler has held a request: it runs as Playwright hears of it."""
    while not held:
        page.wait_for_timeout(20)


def _settled(page: Any) -> None:
    """Until htmx has no request on its way and nothing being swapped in."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def test_a_tap_while_the_kept_typing_is_redrawn_is_not_taken_back(scorer: Any) -> None:
    """A slow signal: the form opened from the board with typing kept on the phone asks the
    server to redraw it; a tap on who went out before that answer came wins over the answer."""
    page = scorer
    _board_with_typing_kept(page)
    held: list[Route] = []

    def hold_the_first_redraw(route: Route) -> None:
        body = route.request.post_data or ""
        if route.request.method == "POST" and not held and "preview=" not in body:
            held.append(route)
        else:
            route.continue_()

    page.route(re.compile(r"/rounds/new$"), hold_the_first_redraw)
    with page.expect_request(
        lambda request: request.method == "POST" and "preview=" not in (request.post_data or "")
    ):
        page.get_by_role("link", name="Dee went out", exact=True).click()
    page.evaluate(
        """() => { window.answered = 0;
            document.addEventListener("htmx:afterRequest", () => { window.answered += 1; }); }"""
    )
    _until_held(page, held)
    page.get_by_role("radio", name="Ann", exact=True).click()
    held[0].continue_()
    page.wait_for_function("() => window.answered >= 1")
    expect(page.get_by_role("radio", name="Ann", exact=True)).to_be_checked()
    expect(page.locator("#hand-0")).to_have_class(re.compile(r"\bis-out\b"))
    expect(page.locator("#hand-3")).not_to_have_class(re.compile(r"\bis-out\b"))
    expect(page.locator("#hands-2-cards")).to_have_value("K")


def test_a_pad_key_tapped_while_the_kept_typing_is_redrawn_is_pressed_once(scorer: Any) -> None:
    """A slow signal: a pad key tapped while the redraw of the kept typing is on its way keeps
    the focus, and htmx sends a form's last focused button with the form's next request, here the
    redraw asked again for the newer typing. That key was pressed a second time by it and its one
    hand's answer took the whole form's place (CI, under load). The form stays whole, the card
    typed once."""
    page = scorer
    _board_with_typing_kept(page)
    held: list[Route] = []
    redraws: list[str] = []

    def hold_the_first_redraw(route: Route) -> None:
        body = route.request.post_data or ""
        if route.request.method == "POST" and "preview=" not in body:
            redraws.append(body)
            if len(redraws) == 1:
                held.append(route)
                return
        route.continue_()

    page.route(re.compile(r"/rounds/new$"), hold_the_first_redraw)
    page.get_by_role("link", name="Dee went out", exact=True).click()
    _until_held(page, held)
    key = page.get_by_role("button", name="Add 5 to Ben", exact=True)
    key.click()
    expect(key).to_be_focused()
    expect(page.locator("#hands-1-cards")).to_have_value("5")
    # The first answer is for older typing: it is dropped and the form as it is now asked again.
    with page.expect_response(
        lambda answer: len(redraws) == 2 and answer.request.post_data == redraws[1]
    ):
        held[0].continue_()
    _settled(page)
    expect(page.locator("#round-form")).to_be_visible()
    expect(page.locator("#hands-1-cards")).to_have_value("5")
    expect(page.locator("#hand-1 .card-chip")).to_have_count(1)
    assert len(redraws) == 2 and "add-1=" not in redraws[1], redraws
    expect(page.get_by_role("radio", name="Dee", exact=True)).to_be_checked()
    expect(page.get_by_role("button", name="Save round 1", exact=True)).to_be_visible()


def test_a_save_sent_while_the_kept_typing_is_redrawn_shows_its_own_answer(scorer: Any) -> None:
    """A slow signal: Save tapped while the redraw of the kept typing is on its way. The redraw's
    answer came first and replaced the form, and the save's refusal then replaced the form that
    was no longer on the page: nothing said why nothing was saved (CI, under load). The save's
    answer is the one shown."""
    page = scorer
    _board_with_typing_kept(page)
    redraw: list[Route] = []
    save: list[Route] = []

    def hold(route: Route) -> None:
        body = route.request.post_data or ""
        if route.request.method != "POST" or "preview=" in body:
            route.continue_()
        elif "save=" in body:
            save.append(route)
        elif not redraw:
            redraw.append(route)
        else:
            route.continue_()

    page.route(re.compile(r"/rounds/new$"), hold)
    page.get_by_role("link", name="Dee went out", exact=True).click()
    _until_held(page, redraw)
    page.get_by_role("button", name="Save round 1", exact=True).click()
    _until_held(page, save)
    with page.expect_response(lambda answer: answer.request is redraw[0].request):
        redraw[0].continue_()
    _settled(page)
    save[0].continue_()
    # Ann and Ben left empty: refused, and said so on the page.
    expect(page.locator("#round-problems")).to_contain_text("Nothing was saved")
    expect(page.locator("#hand-0 .field-error")).to_contain_text("Ann did not go out")
    expect(page.locator("#round-form")).to_have_count(1)
    expect(page.locator("#hands-2-cards")).to_have_value("K")
    expect(page.get_by_role("radio", name="Dee", exact=True)).to_be_checked()
