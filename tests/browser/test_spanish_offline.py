"""The service worker's offline notes in the kept page's own language (issue 41): static/sw.js
holds no words, the page it kept gives them (templates/base.html), so a phone in Spanish reads
Spanish offline, with the time as its language writes it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import _page, fits_width, screenshot, wait_for_worker
from .test_offline import OFFLINE_NOISE, SMALL, _start

pytestmark = pytest.mark.browser


@pytest.fixture
def spanish_phone(browser: Any, live_server: str, owner_cookie: str) -> Iterator[Any]:
    """A 360 x 640 phone whose browser asks for Spanish (``Accept-Language: es-CL``)."""
    yield from _page(browser, live_server, {**SMALL, "locale": "es-CL"}, owner_cookie)


def test_a_spanish_phone_is_told_it_is_offline_in_spanish(spanish_phone: Any) -> None:
    page = spanish_phone
    board = _start(page)
    wait_for_worker(page)
    page.reload()  # now through the worker, which keeps a copy of the board
    page.goto(f"{board}/rounds/new")
    page.reload()  # and of the round form
    page.context.set_offline(True)
    page.reload()
    note = page.locator(".offline-note")
    expect(note).to_have_text(
        "Sin conexión: una ronda guardada ahora se queda en este teléfono y se envía cuando "
        "vuelva la señal."
    )
    page.goto(board)
    expect(note).to_have_text(
        re.compile(r"^Sin conexión, actualizado por última vez a las \d\d:\d\d\.$")
    )
    assert fits_width(page)
    screenshot(page, "offline-scoreboard-es-360")
    page.context.set_offline(False)
    page.problems[:] = [p for p in page.problems if not any(n in p for n in OFFLINE_NOISE)]
