"""A real browser against the real server: Playwright drives Debian's Chromium, waitress serves.

The server runs as it would at a family's home: ``flask serve`` (waitress) on loopback,
on a SQLite file of its own. Screenshots of the main pages land in
``test-artifacts/screenshots/`` for a person to look at after a run.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.serving import served

from ..helpers import game_document, twelve_step_to_the_end

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
NARROW_PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
# The service worker installs by fetching the app's shell; on a loaded two-core machine that
# has taken more than the default 10 s.
WORKER_IN_CONTROL = "() => navigator.serviceWorker.controller !== null"
WORKER_WAIT_MS = 30_000
# Every other wait for a page (an action, a navigation, an expect) has a bound as generous: the
# suite's parallel workers keep the machine busy, where an upload has taken over 10 s to answer.
# A bound is for a hang; what a test waits for is the page's state, never the time.
ACTION_WAIT_MS = 60_000
EXPECT_WAIT_MS = 30_000
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
IN_CI = os.environ.get("CI") == "true"
EXPECTED_REFUSAL = re.compile(r"status of (409|422) ")
# A request the page let go of (it moved on to another page, or sent a newer one): htmx logs the
# abort as these two errors. On a busy machine a poll is more often still on its way then. A
# request that failed logs its own error besides (sendError, responseError, timeout).
LET_GO = re.compile(r"^htmx:(sendAbort|afterRequest), ")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder is a browser test, for ``-m "not browser"`` (a conftest's own
    ``pytestmark`` marks nothing, and a file may forget its own)."""
    folder = Path(__file__).parent
    for item in items:
        if folder in item.path.parents:
            item.add_marker(pytest.mark.browser)


def _unavailable(message: str) -> None:
    if IN_CI:
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app served as it ships (``flask serve``) on a free loopback port, on a fresh SQLite
    database."""
    instance = tmp_path_factory.mktemp("live-instance")
    environment = {
        "SCOREKEEPER_INSTANCE_PATH": str(instance),
        "SCOREKEEPER_SCOREBOARD_POLL_SECONDS": "1",
    }
    with served(environment=environment, ready_path="/healthz", log_folder=instance) as server:
        # The family's owner, made as docs/operating.md says: on the command line.
        subprocess.run(
            [sys.executable, "-m", "flask", "--app", "scorekeeper", "users", "add", OWNER],
            input=PASSWORD + "\n",
            text=True,
            env=environment,
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        yield server.base


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        _unavailable("no Chromium at /usr/bin/chromium: apt-get install chromium (CI installs it)")
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        _unavailable("playwright is not installed")
    expect.set_options(timeout=EXPECT_WAIT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


OWNER, PASSWORD = "family-owner", "correct horse battery"


def sign_in_cookie(base_url: str, username: str = OWNER, password: str = PASSWORD) -> str:
    """The session cookie of ``username`` signed in through the real sign-in form."""
    import http.cookiejar

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with opener.open(f"{base_url}/login") as answer:
        token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', answer.read().decode())
    assert token, "no CSRF token on the sign-in page"
    form = urllib.parse.urlencode(
        {"csrf_token": token.group(1), "username": username, "password": password}
    ).encode()
    with opener.open(f"{base_url}/login", data=form) as answer:
        assert answer.status == 200
    cookie = next((c.value for c in jar if c.name == "session"), None)
    assert cookie, "signing in set no session cookie"
    return cookie


@pytest.fixture(scope="session")
def owner_cookie(live_server: str) -> str:
    return sign_in_cookie(live_server)


@pytest.fixture(params=["en", "es"])
def reader(
    request: pytest.FixtureRequest, browser: Any, live_server: str, owner_cookie: str
) -> Iterator[Any]:
    """The narrowest phone (360 px), in English or in Spanish (Chile), signed in; its
    ``language`` says which ("en", "es")."""
    locale = "en-GB" if request.param == "en" else "es-CL"
    for page in _page(browser, live_server, {**NARROW_PHONE, "locale": locale}, owner_cookie):
        page.language = request.param
        yield page


def _page(
    browser: Any, base_url: str, device: dict[str, Any], cookie: str | None = None
) -> Iterator[Any]:
    """A page in a fresh context (``device`` may carry ``color_scheme="dark"``), signed in
    where ``cookie`` is given; when it is closed, any script error, CSP violation or unexpected
    failed request fails the test."""
    context = browser.new_context(base_url=base_url, **device)
    if cookie is not None:
        context.add_cookies([{"name": "session", "value": cookie, "url": base_url}])
    context.set_default_timeout(ACTION_WAIT_MS)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))

    def on_console(message: Any) -> None:
        # A refused form answers 422 (or 409 for a stale edit) by design; Chromium logs every
        # non-2xx answer as a console error, so those are expected, not problems.
        if (
            message.type == "error"
            and not EXPECTED_REFUSAL.search(message.text)
            and not LET_GO.search(message.text)
        ):
            problems.append(f"console {message.type}: {message.text}")

    page.on("console", on_console)
    page.problems = problems
    yield page
    context.close()
    # A CSP violation or a script error shows up here: the page must run clean.
    assert problems == [], problems


@pytest.fixture
def phone(browser: Any, live_server: str, owner_cookie: str) -> Iterator[Any]:
    """A page in a phone-sized browser (390 x 844, touch), signed in as the family's owner."""
    yield from _page(browser, live_server, PHONE, owner_cookie)


@pytest.fixture
def narrow_phone(browser: Any, live_server: str, owner_cookie: str) -> Iterator[Any]:
    """The narrowest phone we support (360 px), signed in."""
    yield from _page(browser, live_server, NARROW_PHONE, owner_cookie)


@pytest.fixture
def desktop(browser: Any, live_server: str, owner_cookie: str) -> Iterator[Any]:
    yield from _page(browser, live_server, DESKTOP, owner_cookie)


@pytest.fixture(scope="session")
def sample_games(browser: Any, live_server: str, owner_cookie: str) -> dict[str, str]:
    """Games uploaded once for the pages that need some: a finished Contract Rummy game (its
    page has the charts), a 12-Step game in progress; their addresses, a player's and her id."""
    finished = game_document(
        "contract-rummy",
        ["Maud", "Nell", "Otto"],
        [
            ("Maud", {"Nell": "K 5", "Otto": "A Q"}, set()),
            ("Nell", {"Maud": "K", "Otto": "K K"}, {"Maud"}),
            ("Otto", {"Maud": "5", "Nell": "K"}, set()),
            ("Maud", {"Nell": "9", "Otto": "K"}, {"Nell"}),
            ("Nell", {"Maud": "9", "Otto": "3"}, set()),
            (None, {"Maud": "Q", "Nell": "Q 2", "Otto": "JK"}, set()),
            ("Otto", {"Maud": "2", "Nell": "10"}, set()),
        ],
    )
    # Six players with long names: the rounds table is wider than a phone and scrolls.
    six = ("Maud", "Nell", "Pia", "Quentin", "Rosalind", "Sebastian")
    playing = game_document("twelve-step", list(six), twelve_step_to_the_end(six)[:3])
    addresses: dict[str, str] = {}
    pages = _page(browser, live_server, DESKTOP, owner_cookie)
    page = next(pages)
    for key, document in (("finished", finished), ("playing", playing)):
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
    page.goto("/players")
    addresses["player"] = page.get_by_role("link", name="Maud").get_attribute("href")
    addresses["player_id"] = addresses["player"].rsplit("/", 1)[-1]
    next(pages, None)
    return addresses


def upload_game(page: Any, document: dict[str, Any]) -> str:
    """A game file uploaded on the import page, as a family does (in any language); the
    board's address on this server ("/games/12")."""
    page.goto("/games/import")
    page.set_input_files(
        "#file",
        files=[
            {
                "name": "game.json",
                "mimeType": "application/json",
                "buffer": json.dumps(document).encode(),
            }
        ],
    )
    page.locator("form[enctype] button[type=submit]").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    return "/" + page.url.split("/", 3)[3]


def start_game(page: Any, names: tuple[str, ...] | list[str]) -> str:
    """A new game of ``names`` started on the new-game page with its first rules (12-Step), as
    a family does; the board's address."""
    page.goto("/games/new")
    for seat, name in enumerate(names):
        page.fill(f"#players-{seat}", name)
    page.click("button[name=start]")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    return str(page.url)


def enter_round(page: Any, board: str, went_out: str, cards: dict[int, str]) -> None:
    """One round typed on the scorer's round form: who went out, the cards left in each other
    seat's hand; saved, and back on the board."""
    page.goto(board + "/rounds/new")
    page.locator("fieldset.went-out label.choice", has_text=went_out).click()
    for seat, held in cards.items():
        page.fill(f"#hands-{seat}-cards", held)
    page.click("button.save-round")
    page.wait_for_url(board)


def screenshot(page: Any, name: str) -> Path:
    """Save a full-page screenshot for a person to look at after the run."""
    from playwright.sync_api import Error as PlaywrightError

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    # caret="initial": hiding the caret leaves empty style attributes on the fields, which htmx
    # then copies onto swapped-in fields, and the Content-Security-Policy rightly refuses.
    try:
        page.screenshot(path=str(path), full_page=True, caret="initial")
    except PlaywrightError as refused:
        # Chromium now and then refuses one full-page capture outright ("Unable to capture
        # screenshot", seen once in a full run, on a page it captured in the other scheme) and
        # takes the same picture when asked again: asked once more, on that refusal only.
        if "Unable to capture screenshot" not in str(refused):
            raise
        page.screenshot(path=str(path), full_page=True, caret="initial")
    return path


def wait_for_worker(page: Any) -> None:
    """Wait until the service worker controls ``page``. Its install fetches the whole shell and
    fails on any one answer that does not come; a browser tries again at the next page load (a
    phone's next tap), so a page not yet in its control after a while is loaded again, twice at
    most, before the test gives up."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(2):
        try:
            page.wait_for_function(WORKER_IN_CONTROL, timeout=WORKER_WAIT_MS)
            return
        except PlaywrightTimeout:
            page.reload()
    page.wait_for_function(WORKER_IN_CONTROL, timeout=WORKER_WAIT_MS)


def fits_width(page: Any) -> bool:
    """Whether the page has no sideways scrolling (wide tables scroll inside their own box).

    Held to the width the page was opened at: a phone's browser (``is_mobile``) widens its
    layout viewport, and so ``innerWidth``, to a page that overflows, which would hide it."""
    width = (page.viewport_size or {}).get("width")
    return bool(
        page.evaluate(
            "width => document.documentElement.scrollWidth <= (width || window.innerWidth) + 1",
            width,
        )
    )


def serious_accessibility_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the current page."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']} "
        f"at {[node['target'] for node in violation['nodes']][:3]}"
        for violation in results.response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]
