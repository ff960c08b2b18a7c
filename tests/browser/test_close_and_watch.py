"""The rest of issue 23's item 18 and the watch page's leftovers, at 360 px: the close page has
the round form's card pad on every hand it fills, and the pad holds still while its answers come
back; a game that is over says who won and why, in the game's own ranking, wherever it says it
is over; the watch page offers a relative with no account nothing that leads to a sign-in page,
and its result card's way back is the watch link's own address; a relative's poll of the watch
page is answered 304 while the game is unchanged."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from ..helpers import game_document, twelve_step_to_the_end
from .conftest import _page, fits_width, screenshot, serious_accessibility_violations, upload_game
from .test_own_hands import _seated, _seated_phones, _table
from .test_table_holds_still import SMALL_PHONE, TV, _top

pytestmark = pytest.mark.browser

# Eleven cards and their 12-Step points (K Q J 10 ten each, 9 to 3 five each).
ELEVEN = ("K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3")
ELEVEN_POINTS = 75
SIGN_IN = "/login"


@pytest.fixture
def scorer(browser: Any, live_server: str, owner_cookie: str) -> Iterator[Any]:
    """The family's owner on a 360 x 640 phone, signed in."""
    yield from _page(browser, live_server, SMALL_PHONE, owner_cookie)


def _relative(browser: Any, live_server: str) -> Iterator[Any]:
    """A fresh browser at 360 px with no account and no cookies: a relative sent the link."""
    return _page(browser, live_server, SMALL_PHONE)


def _watch_link(page: Any, board: str, live_server: str) -> str:
    """A new watch link to the game at ``board`` (its path)."""
    page.goto(f"{board}/links")
    page.get_by_role("button", name="New watch link").click()
    field = page.get_by_label("Watch link address").first
    return str(field.input_value()).removeprefix(live_server)


def test_the_close_page_fills_hands_on_the_round_forms_pad(
    scorer: Any, browser: Any, live_server: str
) -> None:
    """Item 1: every hand the close page fills has the card pad; its keys type into that hand
    at once, the points come back beside it, nothing above the keys moves, and a hand left as
    shown still takes what its own phone holds when the round is closed (the merge)."""
    board, link = _table(scorer, live_server, ("Ann", "Ben", "Cy"))
    contexts, (ann, ben) = _seated_phones(browser, live_server, link, board, ("Ann", "Ben"))
    ann.get_by_role("button", name="I went out").click()
    expect(ben.get_by_label("Your cards left")).to_be_visible()  # by its poll
    ben.get_by_role("button", name="Add K", exact=True).click()
    expect(ben.locator("#my-points")).to_contain_text("10 pts")

    page = scorer
    page.goto(f"{board}/close")
    # Ben's hand as his phone had it, Cy's empty: both with the pad.
    expect(page.get_by_label("Ben's cards left (still counting)")).to_have_value("K")
    cy_field = page.get_by_label("Cy's cards left (still counting)")
    expect(cy_field).to_have_value("")
    for name in ("Ben", "Cy"):
        expect(page.get_by_role("button", name=f"Add 7 to {name}", exact=True)).to_be_visible()
    page.locator("#hand-2").evaluate("e => e.scrollIntoView({block: 'start'})")
    pad = "#hand-2 .hand-pad button"
    start = _top(page, pad)
    points = page.locator("#points-2")
    total = 0
    for card in ELEVEN:
        page.get_by_role("button", name=f"Add {card} to Cy", exact=True).click()
        total += 10 if card in ("K", "Q", "J", "10") else 5
        expect(points).to_contain_text(f"{total} pts")
        assert _top(page, pad) == start, f"the pad moved after {card}"
    assert total == ELEVEN_POINTS
    expect(cy_field).to_have_value(" ".join(ELEVEN))
    # A chip takes a card out again (the 3), as on the round form.
    page.locator("#cards-2 .chips button").last.click()
    expect(points).to_contain_text(f"{ELEVEN_POINTS - 5} pts")
    assert _top(page, pad) == start
    expect(page.locator("#hand-0")).to_have_count(0)  # Ann went out: nothing to fill
    assert fits_width(page)
    assert serious_accessibility_violations(page) == []
    screenshot(page, "i23-close-page-pads-360")

    # Meanwhile Ben's phone adds a card; the scorer left Ben's hand as shown: his phone's wins.
    ben.get_by_role("button", name="Add Q", exact=True).click()
    expect(ben.locator("#my-points")).to_contain_text("20 pts")
    page.wait_for_timeout(1_000)  # the phone's typing is sent 0.4 s after the last key
    page.get_by_role("button", name="Close round 1").click()
    page.wait_for_url(re.compile(rf"{board}$"))
    expect(page.get_by_text("Round 1 stored.")).to_be_visible()
    document = page.request.get(f"{board}/export").json()
    hands = document["rounds"][0]["players"]
    assert hands["Ben"]["cards"] == "K Q", hands
    assert hands["Cy"]["cards"] == " ".join(ELEVEN[:-1]), hands
    for context in contexts:
        next(context, None)


def test_the_close_pad_works_without_javascript(
    browser: Any, live_server: str, owner_cookie: str
) -> None:
    """Item 1 without JavaScript: a key redraws the page with the card added, the other entries
    and what the page first showed (the merge's base) kept."""
    scripted = _page(browser, live_server, SMALL_PHONE, owner_cookie)
    page = next(scripted)
    board, link = _table(page, live_server, ("Ann", "Ben"))
    contexts = [_page(browser, live_server, SMALL_PHONE)]
    ann = next(contexts[0])
    _seated(ann, link, board, "Ann")
    ann.get_by_role("button", name="I went out").click()
    next(scripted, None)
    plain = _page(browser, live_server, {**SMALL_PHONE, "java_script_enabled": False}, owner_cookie)
    page = next(plain)
    page.goto(f"{board}/close")
    page.get_by_role("button", name="Add K to Ben", exact=True).click()
    page.get_by_role("button", name="Add 5 to Ben", exact=True).click()
    expect(page.get_by_label("Ben's cards left (still counting)")).to_have_value("K 5")
    expect(page.locator("#points-1")).to_contain_text("15 pts")
    assert page.locator("input[name=was-1]").input_value() == ""
    page.get_by_role("button", name="Close round 1").click()
    page.wait_for_url(re.compile(rf"{board}$"))
    document = page.request.get(f"{board}/export").json()
    assert document["rounds"][0]["players"]["Ben"]["cards"] == "K 5"
    next(plain, None)
    next(contexts[0], None)


def test_a_game_over_says_who_won_and_why(scorer: Any, browser: Any, live_server: str) -> None:
    """Item 18: "This game is over" names the winner, with the tie-break when there was one,
    and the finished board, the TV and the watch page say why in the game's own ranking."""
    page = scorer
    tied = upload_game(
        page, game_document("twelve-step", ["Ann", "Ben", "Cy"], twelve_step_to_the_end())
    )
    tie_break = "Ann and Ben both made contract 12 in round 12; Ann wins with 0 points to 60."
    # A phone still on the round form (or a bookmark of it) once the game is over.
    page.goto(f"{tied}/rounds/new")
    page.wait_for_url(re.compile(rf"{tied}$"))
    expect(page.locator(".flash")).to_have_text(
        f"This game is over: Ann wins. {tie_break} No more rounds can be entered."
    )
    expect(page.locator("#board .result h2")).to_have_text("Ann wins")
    expect(page.locator("#board .result")).to_contain_text(tie_break)
    screenshot(page, "i23-finished-board-360")
    assert fits_width(page)

    # One maker of the last contract: the board says why in 12-Step's terms.
    alone = upload_game(
        page,
        game_document(
            "twelve-step",
            ["Ann", "Ben", "Cy"],
            [("Ann", {"Ben": "5", "Cy": "K Q"}, set()) for _ in range(12)],
        ),
    )
    why = "Ann made 12 contracts, with 0 points: contracts made rank first, then points."
    expect(page.locator("#board .result")).to_contain_text(why)
    page.goto(f"{alone}/close")
    page.wait_for_url(re.compile(rf"{alone}$"))
    expect(page.locator(".flash")).to_contain_text(f"This game is over: Ann wins. {why}")

    tvs = _page(browser, live_server, TV, None)
    tv = next(tvs)
    tv.context.add_cookies(page.context.cookies())
    tv.goto(f"{tied}/tv")
    expect(tv.locator(".tv-head")).to_have_text("Ann wins")
    expect(tv.locator(".tv-why")).to_have_text(tie_break)
    screenshot(tv, "i23-tv-finished-1280")
    for row in tv.locator(".tv-standings li").all():
        box = row.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 720, "a row is cut off"
    next(tvs, None)

    watch = _watch_link(page, tied, live_server)
    relatives = _relative(browser, live_server)
    relative = next(relatives)
    relative.goto(watch)
    expect(relative.locator("#board .result")).to_contain_text(tie_break)
    screenshot(relative, "i23-watch-finished-360")
    next(relatives, None)


def test_the_watch_page_offers_no_sign_in(scorer: Any, browser: Any, live_server: str) -> None:
    """Item 3: a relative with no account sees no menu entry that only leads to a sign-in page,
    on the watch page and on its result card's page."""
    board, _link = _table(scorer, live_server, ("Ann", "Ben"))
    watch = _watch_link(scorer, board, live_server)
    relatives = _relative(browser, live_server)
    relative = next(relatives)
    # The first visit above all: the page that let the phone in is drawn for it, not for a
    # stranger; then again (the phone let in), and the result card's page.
    for where in (watch, watch, f"{watch}/result"):
        relative.goto(where)
        if where == watch:
            expect(relative.locator("#board")).to_contain_text("Ann")
            screenshot(relative, "i23-watch-page-360")
            assert fits_width(relative)
            assert serious_accessibility_violations(relative) == []
        header = relative.locator("header.top")
        expect(header.get_by_role("link", name="Sign in")).to_have_count(0)
        hrefs = [str(anchor.get_attribute("href")) for anchor in header.locator("a[href]").all()]
        assert hrefs, "the header has no links at all"
        for href in hrefs:
            if href.startswith("#"):
                continue
            answer = relative.request.get(href)
            assert SIGN_IN not in answer.url, f"{href} leads to the sign-in page ({where})"
    next(relatives, None)


def test_the_result_card_from_a_watch_link_leads_back_to_it(
    scorer: Any, browser: Any, live_server: str, sample_games: dict[str, str]
) -> None:
    """Item 4: the result card's page opened from a watch link goes back to the watch link's
    own address, not to /games/<id> (a sign-in page for a relative)."""
    watch = _watch_link(scorer, sample_games["finished"], live_server)
    relatives = _relative(browser, live_server)
    relative = next(relatives)
    relative.goto(watch)
    relative.get_by_role("link", name="Result card").click()
    relative.wait_for_url(re.compile(r"/result$"))
    card = relative.locator("figure img")
    expect(card).to_be_visible()
    assert relative.evaluate("document.querySelector('figure img').naturalWidth") > 0
    back = relative.get_by_role("link", name="Back to the scoreboard")
    assert back.get_attribute("href") == watch
    screenshot(relative, "i23-watch-result-360")
    back.click()
    relative.wait_for_url(f"{live_server}{watch}")
    expect(relative.locator("#board")).to_contain_text("Maud")
    # A relative whose browser kept no cookie (a chat's own viewer) gets there all the same.
    cookieless = _relative(browser, live_server)
    viewer = next(cookieless)
    viewer.goto(f"{watch}/result")
    viewer.get_by_role("link", name="Back to the scoreboard").click()
    viewer.wait_for_url(f"{live_server}{watch}")
    expect(viewer.locator("#board")).to_contain_text("Maud")
    next(cookieless, None)
    next(relatives, None)


def _as_the_page(answer: Any) -> dict[str, str]:
    """The language the browser asked the page in: its own requests ask in it too (a page's
    ETag is the page in that language and region)."""
    asked = answer.request.all_headers().get("accept-language")
    return {"Accept-Language": asked} if asked else {}


def test_a_relatives_poll_of_the_watch_page_is_answered_304(
    scorer: Any, browser: Any, live_server: str
) -> None:
    """Item 5: the watch page carries an ETag of the game's version; asked again with it, it
    answers 304 with nothing rendered until the game changes."""
    board, _link = _table(scorer, live_server, ("Ann", "Ben"))
    watch = _watch_link(scorer, board, live_server)
    relatives = _relative(browser, live_server)
    relative = next(relatives)
    first = relative.goto(watch)
    assert first is not None and first.status == 200
    # The answer that let the phone in is kept by no cache; the phone's next visit is asked
    # again with its ETag, as any scoreboard is.
    assert first.headers.get("cache-control") == "no-store"
    second = relative.goto(watch)
    assert second is not None and second.status == 200
    etag = second.headers.get("etag")
    assert etag, "the watch page has no ETag"
    again = relative.request.get(watch, headers={"If-None-Match": etag, **_as_the_page(second)})
    assert again.status == 304
    # A round saved: the same ETag now gets the new page.
    scorer.goto(f"{board}/rounds/new")
    scorer.locator("input[name=went_out][value='0']").check()
    scorer.get_by_role("button", name="Add K to Ben", exact=True).click()
    expect(scorer.locator("#points-1")).to_contain_text("10 pts")
    scorer.get_by_role("button", name="Save round 1").click()
    scorer.wait_for_url(re.compile(rf"{board}$"))
    changed = relative.request.get(watch, headers={"If-None-Match": etag, **_as_the_page(second)})
    assert changed.status == 200 and changed.headers.get("etag") != etag
    assert "Ben" in changed.text()
    next(relatives, None)
