"""Issue 36 item 4 in a real browser against ``flask serve``: a member of one household follows
another household's table link ("Sign out and follow the link"), and the service worker no
longer holds the scoreboard it kept for them (``Clear-Site-Data`` on the answer); and a page of
someone else's session makes the worker drop what it kept for the one before (static/sw.js,
for browsers that ignore the header)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.serving import served

from ..helpers import game_document, twelve_step_to_the_end
from .conftest import (
    PASSWORD,
    PHONE,
    ROOT,
    _page,
    sign_in_cookie,
    wait_for_worker,
)

# One worker runs the module (pytest-xdist's --dist loadgroup): it serves the two households once.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("two-households")]

KEPT = """(path) => caches.open("scorekeeper-boards-v1")
  .then((cache) => cache.match(path))
  .then((kept) => (kept ? kept.text() : ""))"""


@pytest.fixture(scope="module")
def two_households(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A server with two households, a game in each; the first's game has a table link.
    Yields the server's address and that link's path."""
    instance = tmp_path_factory.mktemp("two-households")
    environment = {"SCOREKEEPER_INSTANCE_PATH": str(instance)}

    def flask(*arguments: str, given: str = "") -> str:
        done = subprocess.run(
            [sys.executable, "-m", "flask", "--app", "scorekeeper", *arguments],
            input=given,
            text=True,
            env={**os.environ, **environment},
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        return done.stdout

    with served(environment=environment, ready_path="/healthz", log_folder=instance) as server:
        for household, owner in (("Family", "ann"), ("Others", "zed")):
            flask("household", "add", household)
            flask(
                "users",
                "add",
                owner,
                "--household",
                household,
                "--role",
                "owner",
                given=PASSWORD + "\n",
            )
            table = ("Ann", "Ben") if household == "Family" else ("Zed", "Yan")
            game = Path(instance) / f"{household}.json"
            rounds = twelve_step_to_the_end(table)[:2]
            game.write_text(json.dumps(game_document("twelve-step", table, rounds)))
            flask("game", "import", str(game), "--household", household)
        url = flask("link", "add", "1", "--kind", "table").strip().splitlines()[-1]
        yield server.base, "/t/" + url.rsplit("/t/", 1)[1]


def _kept(page: Any, path: str) -> str:
    return str(page.evaluate(KEPT, path))


def _kept_by_the_worker(page: Any, path: str) -> None:
    """Open ``path`` under the worker's control, so that it keeps a copy."""
    page.goto(path)
    wait_for_worker(page)
    for _ in range(100):
        page.goto(path)
        if _kept(page, path):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the worker kept no copy of {path}")


def test_following_another_households_link_leaves_nothing_of_the_member(
    browser: Any, two_households: tuple[str, str]
) -> None:
    base, table_link = two_households
    pages = _page(browser, base, PHONE, sign_in_cookie(base, "zed"))
    phone = next(pages)
    _kept_by_the_worker(phone, "/games/2")
    assert "Zed" in _kept(phone, "/games/2")
    phone.goto(table_link)
    phone.get_by_role("button", name="Sign out and follow the link").click()
    phone.wait_for_url("**/games/1")
    assert "Ann" in phone.content()
    # Zed's scoreboard is gone from the phone.
    assert _kept(phone, "/games/2") == ""
    next(pages, None)


def test_the_worker_drops_what_it_kept_for_someone_else(
    browser: Any, two_households: tuple[str, str]
) -> None:
    base, _table_link = two_households
    pages = _page(browser, base, PHONE, sign_in_cookie(base, "zed"))
    phone = next(pages)
    _kept_by_the_worker(phone, "/games/2")
    # The same person's next page keeps it; a page of another session drops it.
    phone.goto("/games/2")
    phone.wait_for_timeout(300)
    assert "Zed" in _kept(phone, "/games/2")
    phone.evaluate(
        """() => navigator.serviceWorker.ready.then((registration) =>
             registration.active.postMessage({ keptFor: "someone else" }))"""
    )
    for _ in range(50):
        if not _kept(phone, "/games/2"):
            break
        phone.wait_for_timeout(100)
    assert _kept(phone, "/games/2") == ""
    next(pages, None)
