"""Issue 23 in a real browser, the parts drawn by templates, CSS and the phone's script: at
360 x 640 the pad holds still under the thumb while the answers come back (own hand and the
scorer's round form), the signed-in scorer's Done stays on the first screen after 11 cards,
Done says made or not at a glance, a table-link phone's own hand comes first, one tap leads from
the top of the scoreboard to a QR code, 12-Step says how it ranks, the TV shows 8 players at
1280 x 720 without the menu, a phone whose signal came back without an "online" event sends
within seconds, a "done" kept without signal is shown as kept, and a round's "stored" message
goes once the hand moves on."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from ..helpers import game_document, twelve_step_to_the_end
from .conftest import (
    SCREENSHOTS,
    _page,
    fits_width,
    screenshot,
    serious_accessibility_violations,
    upload_game,
)
from .test_offline import OFFLINE_NOISE
from .test_own_hands import _seated, _seated_phones, _table

pytestmark = pytest.mark.browser

SMALL_PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
TV = {"viewport": {"width": 1280, "height": 720}}
# Eleven cards, 12-Step points: K Q J 10 ten each, 9 to 3 five each.
ELEVEN = ("K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3")
ELEVEN_POINTS = 75
FAILED_FETCH = ("ERR_FAILED", "Failed to fetch", *OFFLINE_NOISE)


@pytest.fixture
def scorer(browser: Any, live_server: str, owner_cookie: str) -> Iterator[Any]:
    """The family's owner on a 360 x 640 phone, signed in (the menu is the full one)."""
    yield from _page(browser, live_server, SMALL_PHONE, owner_cookie)


def _top(page: Any, selector: str) -> float:
    """Where ``selector``'s top is on the page (not the screen): a shift shows however the page
    is scrolled."""
    return float(
        page.locator(selector).first.evaluate("e => e.getBoundingClientRect().top + window.scrollY")
    )


def _in_view(page: Any, selector: str) -> bool:
    """Whether ``selector`` is wholly on the first screen, the page scrolled to its top."""
    page.evaluate("window.scrollTo(0, 0)")
    return bool(
        page.locator(selector).first.evaluate(
            """e => { const r = e.getBoundingClientRect();
                      return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; }"""
        )
    )


def _own_pad(scorer: Any, browser: Any, live_server: str) -> tuple[Any, Iterator[Any], str]:
    """A 12-Step game of Ann and Ben: Ann on a table-link phone goes out, the signed-in scorer
    holds Ben's hand and sees the pad. Ann's phone, its context and the board's path."""
    board, link = _table(scorer, live_server, ("Ann", "Ben"))
    contexts = _page(browser, live_server, SMALL_PHONE)
    ann = next(contexts)
    _seated(ann, link, board, "Ann")
    scorer.goto(f"{board}/seat")
    scorer.get_by_role("button", name="I'm Ben").click()
    scorer.wait_for_url(re.compile(r"/hand$"))
    ann.get_by_role("button", name="I went out").click()
    expect(scorer.get_by_label("Your cards left")).to_be_visible()  # by its poll
    return ann, contexts, board


def _eleven_cards(page: Any, pad: str) -> list[float]:
    """Tap the eleven cards on the own pad, each answer awaited (the points are the server's
    again, its chips drawn); where the pad's first key was after each."""
    points = page.locator("#my-points")
    total = 0
    where = []
    for card in ELEVEN:
        page.get_by_role("button", name=f"Add {card}", exact=True).click()
        total += 10 if card in ("K", "Q", "J", "10") else 5
        expect(points).to_contain_text(f"{total} pts")
        where.append(_top(page, pad))
    assert total == ELEVEN_POINTS
    expect(page.get_by_label("Your cards left")).to_have_value(" ".join(ELEVEN))
    return where


def test_the_own_pad_holds_still_under_the_thumb(
    scorer: Any, browser: Any, live_server: str
) -> None:
    """Item 2: each key's answer (chips, points) moves no key, card after card."""
    _ann, contexts, _board = _own_pad(scorer, browser, live_server)
    pad = "#my-hand-form .hand-pad button"
    start = _top(scorer, pad)
    where = _eleven_cards(scorer, pad)
    screenshot(scorer, "i23-own-pad-11-cards-signed-in-360")
    assert where == [start] * len(ELEVEN), f"the pad moved: {start} then {where}"
    assert fits_width(scorer)
    assert serious_accessibility_violations(scorer) == []
    next(contexts, None)


def test_the_signed_in_scorers_done_is_on_the_first_screen_after_11_cards(
    scorer: Any, browser: Any, live_server: str
) -> None:
    """Item 11: on the signed-in scorer's phone (the full menu), Done and the whole pad are on
    the first screen with 11 cards in."""
    _ann, contexts, _board = _own_pad(scorer, browser, live_server)
    pad = "#my-hand-form .hand-pad button"
    _eleven_cards(scorer, pad)
    scorer.evaluate("window.scrollTo(0, 0)")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # The first screen only, as the thumb sees it.
    scorer.screenshot(path=str(SCREENSHOTS / "i23-own-pad-first-screen-360.png"), caret="initial")
    for index in range(2):
        assert _in_view(scorer, f".done-buttons button >> nth={index}"), "Done is off screen"
    assert _in_view(scorer, f"{pad} >> nth=-1")
    scorer.locator(".done-buttons button").first.click()
    expect(scorer.get_by_text("Round 1 stored: every hand was in.")).to_be_visible()
    next(contexts, None)


def test_done_says_made_or_not_at_a_glance(scorer: Any, browser: Any, live_server: str) -> None:
    """Item 13: the two Done buttons are one line each, in other words and other colours."""
    _ann, contexts, _board = _own_pad(scorer, browser, live_server)
    done = scorer.locator(".done-buttons button")
    expect(done).to_have_count(2)
    screenshot(scorer, "i23-own-pad-done-buttons-360")
    made, not_made = done.nth(0), done.nth(1)
    for button in (made, not_made):
        box = button.bounding_box()
        assert box is not None and box["height"] <= 56, button.inner_text()
        assert len(button.inner_text().strip()) <= 12, button.inner_text()
    assert "not" in not_made.inner_text().lower() and "not" not in made.inner_text().lower()
    colours = [
        button.evaluate("e => getComputedStyle(e).backgroundColor + getComputedStyle(e).color")
        for button in (made, not_made)
    ]
    assert colours[0] != colours[1]
    scorer.get_by_role("button", name="Add K", exact=True).click()
    expect(scorer.locator("#my-points")).to_contain_text("10 pts")
    not_made.click()
    expect(scorer.get_by_text("Round 1 stored: every hand was in.")).to_be_visible()
    next(contexts, None)


def test_the_scorers_round_form_pad_holds_still(scorer: Any, live_server: str) -> None:
    """Item 2 on the round form: the preview answer draws the chips in a space kept for them."""
    page = scorer
    board, _link = _table(page, live_server, ("Ann", "Ben"))
    page.goto(f"{board}/rounds/new")
    page.locator("input[name=went_out][value='0']").check()  # Ann went out
    # Ben's block at the top of the screen, clear of the sticky Save button.
    page.locator("#hand-1").evaluate("e => e.scrollIntoView({block: 'start'})")
    pad = "#hand-1 .hand-pad button"
    start = _top(page, pad)
    points = page.locator("#points-1")
    total = 0
    for card in ("K", "Q", "5", "9", "J", "3", "4", "6", "7", "8", "10"):
        page.get_by_role("button", name=f"Add {card} to Ben", exact=True).click()
        total += 10 if card in ("K", "Q", "J", "10") else 5
        expect(points).to_contain_text(f"{total} pts")
        assert _top(page, pad) == start, f"the pad moved after {card}"
    screenshot(page, "i23-round-form-11-cards-360")
    assert fits_width(page)


def test_a_table_link_phone_has_its_own_hand_first(
    scorer: Any, browser: Any, live_server: str
) -> None:
    """Item 12: on a scanned phone "My hand, on this phone" is the big button, above the
    whole table's round form."""
    board, link = _table(scorer, live_server, ("Ann", "Ben", "Cy"))
    contexts = _page(browser, live_server, SMALL_PHONE)
    phone = next(contexts)
    phone.goto(link)
    phone.wait_for_url(re.compile(rf"{board}$"))
    screenshot(phone, "i23-board-table-link-360")
    mine = phone.get_by_role("link", name="My hand, on this phone")
    whole = phone.get_by_role("link", name="Enter round 1")
    mine_box, whole_box = mine.bounding_box(), whole.bounding_box()
    assert mine_box is not None and whole_box is not None
    assert mine_box["y"] < whole_box["y"]
    assert "primary" in (mine.get_attribute("class") or "")
    assert "primary" not in (whole.get_attribute("class") or "")
    # The signed-in scorer's board keeps the whole table's form first.
    scorer.goto(board)
    assert "primary" in (
        scorer.get_by_role("link", name="Enter round 1").get_attribute("class") or ""
    )
    assert fits_width(phone)
    next(contexts, None)


def test_one_tap_from_the_top_of_the_scoreboard_to_a_qr_code(scorer: Any, live_server: str) -> None:
    """Item 16: the QR code is one tap from the scoreboard's first screen, and the same table
    link is shown again on the next tap rather than a new one each time."""
    page = scorer
    page.goto("/games/new")
    for seat, name in enumerate(("Ann", "Ben", "Cy", "Dee")):
        page.fill(f"#players-{seat}", name)
    page.click("button[name=start]")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    board = page.url
    screenshot(page, "i23-board-top-360")
    button = page.get_by_role("button", name="QR code for the table")
    assert _in_view(page, "button:text('QR code for the table')")
    button.click()
    qr = page.locator(".link-card .qr-box svg").first
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + 40 <= 640  # on screen, at its anchor
    screenshot(page, "i23-links-qr-360")
    page.goto(board)
    page.get_by_role("button", name="QR code for the table").click()
    expect(page.locator(".link-card")).to_have_count(1)


EIGHT = ("Alexandrina", "Bartholomew", "Christabel", "Desmond", "Euphemia", "Fitz", "Gwen", "Hal")


def test_the_tv_shows_eight_players_without_the_menu(
    browser: Any, live_server: str, owner_cookie: str
) -> None:
    """Items 15 and 14: at 1280 x 720 every row of 8 is in view, no menu; 12-Step says how it
    ranks, here and on the board."""
    contexts = _page(browser, live_server, TV, owner_cookie)
    tv = next(contexts)
    board = upload_game(
        tv, game_document("twelve-step", list(EIGHT), twelve_step_to_the_end(EIGHT)[:4])
    )
    tv.goto(f"{board}/tv")
    screenshot(tv, "i23-tv-8-players-1280")
    rows = tv.locator(".tv-standings li")
    expect(rows).to_have_count(8)
    for index in range(8):
        assert _in_view(tv, f".tv-standings li >> nth={index}"), EIGHT[index]
    expect(tv.locator("header.top")).to_have_count(0)
    expect(tv.locator("nav")).to_have_count(0)
    expect(tv.locator("#tv")).to_contain_text("Ranked by contracts made")
    expect(tv.locator(".tv-contract").first).to_have_text(re.compile(r"^contract \d+$"))
    tv.goto(board)
    expect(tv.locator("#board .ranking")).to_contain_text("Ranked by contracts made")
    next(contexts, None)


def test_the_board_says_how_12_step_ranks_at_360(scorer: Any) -> None:
    """Item 14 on a phone: the words sit with the standings (right under them, so that the
    round's actions and the standings come first on the phone, issue 35), and the rounds
    table says "contract 3", not "c3" (item 18)."""
    page = scorer
    names = ("Ann", "Ben", "Cy")
    board = upload_game(
        page, game_document("twelve-step", list(names), twelve_step_to_the_end(names)[:2])
    )
    page.goto(board)
    screenshot(page, "i23-board-ranking-360")
    ranking = page.locator("#board .ranking")
    expect(ranking).to_contain_text("Ranked by contracts made (most first), then by points")
    bottom = float(
        page.locator("#board table.standings").evaluate(
            "e => e.getBoundingClientRect().bottom + window.scrollY"
        )
    )
    gap = _top(page, "#board .ranking") - bottom
    assert 0 <= gap < 40, gap
    expect(page.locator(".rounds .contract-no").first).to_contain_text("contract 1")
    # The result card says it too (its words are the page's preview).
    preview = page.locator('meta[property="og:description"]').get_attribute("content")
    assert preview is not None and "ranked by contracts made" in preview, preview
    assert fits_width(page)


def test_typing_is_sent_within_seconds_once_any_request_succeeds(
    browser: Any, live_server: str, owner_cookie: str
) -> None:
    """Item 4: a phone that believes it is online (no "online" event will come) but whose
    sends fail tries again within seconds, not at the next 30-second turn."""
    scorers = _page(browser, live_server, SMALL_PHONE, owner_cookie)
    scorer = next(scorers)
    board, link = _table(scorer, live_server, ("Ann", "Ben"))
    contexts = _page(browser, live_server, {**SMALL_PHONE, "service_workers": "block"})
    ben = next(contexts)
    _seated(ben, link, board, "Ben")
    scorer.goto(f"{board}/seat")
    scorer.get_by_role("button", name="I'm Ann").click()
    scorer.get_by_role("button", name="I went out").click()
    expect(ben.get_by_label("Your cards left")).to_be_visible()

    def fail(route: Any) -> None:
        if route.request.method == "POST":
            route.abort("failed")
        else:
            route.continue_()

    ben.route(re.compile(r"/hand$"), fail)
    ben.get_by_role("button", name="Add K", exact=True).click()
    ben.get_by_role("button", name="Add Q", exact=True).click()
    expect(ben.get_by_text("Kept on this phone")).to_be_visible()
    assert ben.evaluate("navigator.onLine")
    screenshot(ben, "i23-own-pad-send-failed-360")
    ben.unroute(re.compile(r"/hand$"))
    # No "online" event, no tap: the typing reaches the server within seconds.
    expect(ben.locator("#my-points")).to_contain_text("20 pts", timeout=8_000)
    expect(ben.get_by_text("Kept on this phone")).to_have_count(0)
    close_page = scorer.request.get(f"{board}/close").text()
    assert 'name="cards-1" value="K Q"' in close_page
    ben.problems[:] = [p for p in ben.problems if not any(n in p for n in FAILED_FETCH)]
    for context in (contexts, scorers):
        next(context, None)


def test_done_without_signal_is_shown_kept_and_the_pad_is_offered_no_more(
    browser: Any, live_server: str, owner_cookie: str
) -> None:
    """Item 5: "Done" tapped without signal says it is kept and will be sent, and the pad
    goes; when the signal returns, the hand is in."""
    scorers = _page(browser, live_server, SMALL_PHONE, owner_cookie)
    scorer = next(scorers)
    board, link = _table(scorer, live_server, ("Ann", "Ben", "Cy"))
    contexts = _page(browser, live_server, SMALL_PHONE)
    ben = next(contexts)
    _seated(ben, link, board, "Ben")
    scorer.goto(f"{board}/seat")
    scorer.get_by_role("button", name="I'm Ann").click()
    scorer.get_by_role("button", name="I went out").click()
    expect(ben.get_by_label("Your cards left")).to_be_visible()
    ben.context.set_offline(True)
    ben.get_by_role("button", name="Add K", exact=True).click()
    ben.locator(".done-buttons button").first.click()  # made
    # The note names the button the phone showed (issue 52: it said "Done", which no button
    # said).
    expect(ben.locator(".my-state")).to_contain_text("“Made ✓” is kept on this phone")
    expect(ben.locator(".my-state")).to_contain_text("sent when the signal returns")
    expect(ben.get_by_role("button", name="Add K", exact=True)).to_be_hidden()
    expect(ben.locator(".done-buttons")).to_be_hidden()
    screenshot(ben, "i23-own-pad-done-kept-offline-360")
    ben.context.set_offline(False)
    expect(ben.locator(".my-state")).to_contain_text("Your hand is in")
    ben.problems[:] = [p for p in ben.problems if not any(n in p for n in FAILED_FETCH)]
    for context in (contexts, scorers):
        next(context, None)


def test_a_stored_message_goes_when_the_hand_moves_on(
    browser: Any, live_server: str, owner_cookie: str
) -> None:
    """Item 8: "Round 1 stored: every hand was in." is for round 1; once the scorer stores
    round 2 on the round form, the message is gone from the phone that saw it (which only
    polled meanwhile)."""
    scorers = _page(browser, live_server, SMALL_PHONE, owner_cookie)
    scorer = next(scorers)
    board, link = _table(scorer, live_server, ("Ann", "Ben"))
    contexts, (ann, ben) = _seated_phones(browser, live_server, link, board, ("Ann", "Ben"))
    ann.get_by_role("button", name="I went out").click()
    expect(ben.get_by_label("Your cards left")).to_be_visible()
    ben.get_by_role("button", name="Add K", exact=True).click()
    ben.locator(".done-buttons button").nth(1).click()  # not made
    stored = ben.get_by_text("Round 1 stored: every hand was in.")
    expect(stored).to_be_visible()
    expect(ben.locator(".deal")).to_contain_text("Round 2")
    # Round 2 is entered by the scorer on the whole table's form; Ben's phone only polls.
    scorer.goto(f"{board}/rounds/new")
    scorer.locator("input[name=went_out][value='0']").check()
    scorer.fill("#hands-1-cards", "5")
    scorer.get_by_role("button", name="Save round 2").click()
    scorer.wait_for_url(re.compile(rf"{board}$"))
    expect(ben.locator(".deal")).to_contain_text("Round 3")  # by its poll
    screenshot(ben, "i23-own-hand-moved-on-360")
    expect(stored).to_have_count(0)
    for context in (*contexts, scorers):
        next(context, None)


def test_the_back_link_is_a_thumbs_size(scorer: Any, live_server: str) -> None:
    """Item 18: "← Scoreboard" is at least 44 px high; a game abandoned before any round
    says so, not "after round 0"."""
    page = scorer
    board, _link = _table(page, live_server, ("Ann", "Ben"))
    page.goto(f"{board}/rounds/new")
    back = page.get_by_role("link", name="← Scoreboard")
    box = back.bounding_box()
    screenshot(page, "i23-round-form-top-360")
    assert box is not None and box["height"] >= 44, box
    page.goto(board)
    page.get_by_text("Abandon…").click()
    page.get_by_role("button", name="Abandon the game").click()
    page.wait_for_url(re.compile(rf"{board}$"))
    expect(page.locator("#board .lede")).not_to_contain_text("round 0")
    expect(page.locator("#board .lede")).to_contain_text("abandoned before the first round")


def test_the_close_page_says_points_and_a_finished_hand_names_the_winner(
    browser: Any, live_server: str, owner_cookie: str
) -> None:
    """Item 18: the close page reads "5 = 5 points", not "5 = 5"; a phone on its hand when the
    last round is stored says who won, not only "This game is over"."""
    scorers = _page(browser, live_server, SMALL_PHONE, owner_cookie)
    scorer = next(scorers)
    names = ("Ann", "Ben", "Cy")
    rounds = [("Ann", {"Ben": "K", "Cy": "K K"}, set()) for _ in range(6)]
    board = upload_game(scorer, game_document("contract-rummy", list(names), rounds))
    scorer.goto(f"{board}/links")
    scorer.get_by_role("button", name="New table link").click()
    link = scorer.locator(".link-card input.copy-field").first.input_value()
    contexts = _page(browser, live_server, SMALL_PHONE)
    ben = next(contexts)
    _seated(ben, link.removeprefix(live_server), board, "Ben")
    scorer.goto(f"{board}/seat")
    scorer.get_by_role("button", name="I'm Ann").click()
    scorer.get_by_role("button", name="I went out").click()
    expect(ben.get_by_label("Your cards left")).to_be_visible()
    ben.get_by_role("button", name="Add 5", exact=True).click()
    expect(ben.locator("#my-points")).to_contain_text("5 pts")
    ben.locator("button[name=done]").first.click()
    expect(ben.locator(".my-state")).to_contain_text("Your hand is in")
    scorer.goto(f"{board}/close")
    screenshot(scorer, "i23-close-page-360")
    expect(scorer.locator("#seat-1")).to_contain_text("5 = 5 points")
    scorer.get_by_label("Cy's cards left (still counting)").fill("K")
    scorer.get_by_role("button", name="Close round 7").click()
    over = ben.locator("#my-hand")
    expect(over).to_contain_text("This game is over")  # by its poll
    screenshot(ben, "i23-own-hand-game-over-360")
    expect(over).to_contain_text(re.compile(r"This game is over: \w+( and \w+)* (wins|share)"))
    for context in (contexts, scorers):
        next(context, None)


def test_nothing_is_cut_or_hidden_at_360(scorer: Any, sample_games: dict[str, str]) -> None:
    """Item 18: the players list shows whole dates; the rules page shows every card's value
    (J, Q and K too) without scrolling sideways; the history's Filter looks like a button."""
    page = scorer
    page.goto("/players")
    screenshot(page, "i23-players-360")
    wrap = page.locator(".players-table").locator("xpath=..")
    assert wrap.evaluate("box => box.scrollWidth <= box.clientWidth + 1"), "the table is cut"
    assert fits_width(page)
    page.goto("/rules/twelve-step")
    screenshot(page, "i23-rules-360")
    cards = page.locator("#card_values dt")
    names = [name.strip() for name in cards.all_inner_texts()]
    assert {"J", "Q", "K", "A", "Joker"} <= set(names), names
    for index in range(len(names)):
        box = cards.nth(index).bounding_box()
        assert box is not None and box["x"] + box["width"] <= 360, names[index]
    assert fits_width(page)
    page.goto("/history")
    screenshot(page, "i23-history-360")
    summary = page.locator(".filters > summary")
    assert summary.evaluate("e => parseFloat(getComputedStyle(e).borderTopWidth)") >= 1
    box = summary.bounding_box()
    assert box is not None and box["height"] >= 44


def test_a_phone_keeps_every_table_link_it_opened(
    scorer: Any, browser: Any, live_server: str
) -> None:
    """Item 7: a phone that scans the next game's table link still opens the game it scored
    before, and still holds its seat there; a revoked link's game is gone, the other stays."""
    first, first_link = _table(scorer, live_server, ("Ann", "Ben"))
    second, second_link = _table(scorer, live_server, ("Cy", "Dee"))
    contexts = _page(browser, live_server, SMALL_PHONE)
    phone = next(contexts)
    _seated(phone, first_link, first, "Ann")
    phone.goto(second_link)
    phone.wait_for_url(re.compile(rf"{second}$"))
    answer = phone.goto(first)
    screenshot(phone, "i23-first-game-after-second-link-360")
    assert answer is not None and answer.status == 200
    expect(phone.locator("#board h1")).to_have_text("Ann, Ben")
    phone.goto(f"{first}/hand")
    expect(phone.locator("h1")).to_have_text("Ann's hand")  # its seat there is kept
    assert phone.goto(second) is not None
    expect(phone.locator("#board h1")).to_have_text("Cy, Dee")
    # Revoking the first game's link ends it alone.
    scorer.goto(f"{first}/links")
    scorer.get_by_role("button", name="Revoke this link").first.click()
    assert (answer := phone.goto(first)) is not None and answer.status == 404
    assert (answer := phone.goto(second)) is not None and answer.status == 200
    phone.problems[:] = [p for p in phone.problems if "404" not in p]
    next(contexts, None)


def test_the_rounds_table_keeps_its_header_and_lines_up_typed_totals(
    scorer: Any, live_server: str
) -> None:
    """Item 18: a round with a typed total lines its numbers up with the others, and the
    players' row stays at the top of the rounds table's own box when it scrolls."""
    page = scorer
    names = ("Ann", "Ben")
    board = upload_game(
        page, game_document("twelve-step", list(names), twelve_step_to_the_end(names)[:9])
    )
    page.goto(f"{board}/rounds/new")
    page.locator("input[name=went_out][value='0']").check()
    page.get_by_label("Type totals").check()
    page.fill("#hands-1-total", "25")
    page.get_by_role("button", name="Save round 10").click()
    page.wait_for_url(re.compile(rf"{board}$"))
    screenshot(page, "i23-board-typed-total-360")
    # Where each of Ben's numbers ends: the same right edge in every row.
    ends = page.evaluate(
        """() => [...document.querySelectorAll(
                '.rounds tbody td:nth-of-type(2), .rounds tfoot td:nth-of-type(2)')]
            .map((cell) => {
              const number = [...cell.childNodes]
                .find((node) => node.nodeType === 3 && node.textContent.trim());
              const range = document.createRange();
              range.selectNodeContents(number);
              return Math.round(range.getBoundingClientRect().right);
            })"""
    )
    assert len(ends) == 11 and len(set(ends)) == 1, ends
    region = page.get_by_role("region", name="Rounds")
    assert region.evaluate("box => { box.scrollTop = box.scrollHeight; return box.scrollTop; }") > 0
    head = page.locator(".rounds thead th").nth(1).bounding_box()
    box = region.bounding_box()
    assert head is not None and box is not None
    assert abs(head["y"] - box["y"]) < 2, (head, box)


def test_the_rules_page_names_its_documents_not_their_files(scorer: Any) -> None:
    """Item 18: the rules page cites "12-Step Rummy", not "000_0a3037e9499a681d.txt"."""
    scorer.goto("/rules/twelve-step")
    expect(scorer.locator("main")).to_contain_text("12-Step Rummy")
    assert ".txt" not in scorer.locator("main").inner_text()
