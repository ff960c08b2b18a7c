"""Every main page in a real phone browser: fits 360 px, no script or CSP errors, no serious
accessibility problems, and a screenshot for a person to look at."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import fits_width, screenshot, serious_accessibility_violations

pytestmark = pytest.mark.browser


def test_home_page_on_a_phone(phone: Any) -> None:
    phone.goto("/")
    assert phone.get_by_role("heading", level=1).is_visible()
    assert fits_width(phone)
    assert serious_accessibility_violations(phone) == []
    screenshot(phone, "home-phone")


def test_home_page_on_the_narrowest_phone(narrow_phone: Any) -> None:
    narrow_phone.goto("/")
    assert fits_width(narrow_phone)
    screenshot(narrow_phone, "home-360")


def test_home_page_on_a_desktop(desktop: Any) -> None:
    desktop.goto("/")
    assert desktop.get_by_role("heading", level=1).is_visible()
    screenshot(desktop, "home-desktop")
