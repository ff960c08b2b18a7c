"""Phase 10 as data (``shared/spec/phase-10.md``): its option values and where each comes from.

Phase 10 is played on its own deck (``decks.PHASE_10``); each player works through ten phases
in order, keeping a phase until made, and the game ends after the hand in which someone lays
down phase 10. Where the public pages agree the preset follows them, where they split it takes
the reading most hold (its source says so) and the other is a house-rule option, and where all
are silent it takes the reading the spec settles. ``presets`` lists it after the published
games; nothing here knows the types.
"""

from __future__ import annotations

from typing import Any

from .decks import PHASE_10
from .messages import N_plural
from .sources import DEFAULT, Source, published

__all__ = ["PHASE_10_DATA", "PHASE_10_SLUG", "PHASE_10_SOURCES"]

PHASE_10_SLUG = "phase-10"


def _set(size: int) -> dict[str, Any]:
    return {"kind": "set", "size": size}


def _run(size: int) -> dict[str, Any]:
    return {"kind": "run", "size": size}


_PHASES: list[list[dict[str, Any]]] = [
    [_set(3), _set(3)],
    [_set(3), _run(4)],
    [_set(4), _run(4)],
    [_run(7)],
    [_run(8)],
    [_run(9)],
    [_set(4), _set(4)],
    [{"kind": "color", "size": 7}],
    [_set(5), _set(2)],
    [_set(5), _set(3)],
]

PHASE_10_DATA: dict[str, Any] = {
    "slug": PHASE_10_SLUG,
    # The game's own name stays as it is in every language; the words after it are translated.
    "name": N_plural(
        "%(game)s (%(num)s phase)", "%(game)s (%(num)s phases)", num=10, game="Phase 10"
    ),
    "deck": PHASE_10.slug,
    "contracts": [{"melds": melds, "going_out_only": False} for melds in _PHASES],
    "contract_order": "own",
    "phases_played": "all",
    "hands": None,
    "winner": "last contract",
    "tie_break": "replay",
    "min_players": 2,
    "max_players": 6,
    "packs": dict(PHASE_10.packs),
    "cards_dealt": 10,
    "nobody_out_allowed": False,
    "may_i": {
        "allowed": False,
        "limit": None,
        "extra_cards": 1,
        "discard": False,
        "limit_per": "contract",
    },
    "card_values": dict(PHASE_10.values),
    # Options only a standard deck can mean keep the defaults of rules.md (phase-10.md).
    "wild_ranks": ["2"],
    "wild_as_itself": True,
    "pair_all_real": False,
    "aces": "high or low",
    "same_suit_runs_may_continue": True,
    "wild_spacing": {"set": "free", "run": "free"},
    "min_real_cards": 1,
    "min_set": 2,
    "min_run": 4,
    "runs_may_wrap": False,
    "wilds_at_most_naturals": False,
    "max_wilds_per_meld": None,
    "max_wilds_per_laydown": None,
    "wild_limits_on_layoff": True,
    "extra_melds": False,
    "exact_meld_sizes": False,
    "same_rank_sets_allowed": True,
    "layoff_on_contract_turn": True,
    "liberation": "off",
    "liberation_from": "any meld",
    "liberation_before_contract": "no",
    "freed_wild": "at once",
    "going_out": "either",
    "skip_target": "any",
    "discard_after_contract": True,
    "down_and_out_bonus": 0,
}
"""Phase 10's option values, as ``presets.PRESET_DATA`` holds the other games'."""


def _sources() -> dict[str, Source]:
    everyone = published("fdx", "wpe", "how", "ppl", "tsk")
    sources: dict[str, Source] = {key: everyone for key in PHASE_10_DATA}
    sources.update({"melds": everyone, "lay_off": published("fdx", "ppl", "tsk", "fan", "ttp")})
    # What only a standard deck can mean, and what no page speaks of: rules.md's default.
    for key in (
        "slug",
        "wild_ranks",
        "wild_as_itself",
        "pair_all_real",
        "aces",
        "same_suit_runs_may_continue",
        "phases_played",
        "hands",
        "nobody_out_allowed",
        "liberation_from",
        "liberation_before_contract",
        "freed_wild",
        "wilds_at_most_naturals",
        "max_wilds_per_meld",
        "max_wilds_per_laydown",
        "wild_limits_on_layoff",
        "exact_meld_sizes",
        "down_and_out_bonus",
    ):
        sources[key] = DEFAULT
    sources.update(
        {
            "contracts": published("fdx", "wpe", "e2", "tsk", split=True),
            "tie_break": published("fdx", "wpe", "ppl", "tsk"),
            "max_players": published("fdx", "wpe", "how", "ppl", split=True),
            "card_values": published("fdx", "fan", "how", "ppl", "mir", split=True),
            "min_real_cards": published("fdx", "wpe", "how", "ppl", split=True),
            "min_set": published("fdx", "ttp", "how", split=True),
            "runs_may_wrap": published("ppl", split=True),
            "layoff_on_contract_turn": published("fdx", "ppl", "tsk", split=True),
            "liberation": published("fdx", "wpe", "how", split=True),
            "going_out": published("ttp", "tsk", "mir", split=True),
            "skip_target": published("fdx", "wpe", "ttp", "ppl", split=True),
            "may_i": DEFAULT,
        }
    )
    return sources


PHASE_10_SOURCES: dict[str, Source] = _sources()
"""Where each of Phase 10's options comes from (the pages named, never quoted)."""
