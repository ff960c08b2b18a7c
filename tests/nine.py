"""The nine presets on standard cards (the five family games and the four published ones), for
the tests that deal standard cards under every such preset; Phase 10 has its own deck and its
own tests."""

from __future__ import annotations

from scorekeeper.rules import PRESETS, STANDARD, get_ruleset

NINE_PRESETS: tuple[str, ...] = tuple(
    slug for slug in PRESETS if get_ruleset(slug).deck is STANDARD
)
