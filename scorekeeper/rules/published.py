"""The four published games as data: Shanghai, Liverpool, Carioca and Continental.

No family document of ours writes these games down, so each follows the public rule pages
of ``shared/spec/more-games.md`` (``sources.PUBLICATIONS``): where they agree, the preset
follows them; where they split, the preset takes the reading most of them hold, its source
says so ("sources differ; …"), and the other reading is a house-rule option; where all are
silent, the preset takes the default of ``shared/spec/rules.md``. ``presets`` lists them
after the five family games; nothing here knows the types.
"""

from __future__ import annotations

from typing import Any

from .messages import N_plural
from .sources import DEFAULT, Source, published

__all__ = ["PUBLISHED", "PUBLISHED_DATA", "PUBLISHED_SOURCES"]

PUBLISHED: tuple[str, ...] = ("shanghai", "liverpool", "carioca", "continental")
"""The published games' slugs, in the order the app lists them."""

_S3 = {"kind": "set", "size": 3}
_R4 = {"kind": "run", "size": 4}


# The seven deals Liverpool, Carioca and Continental share (Carioca adds an eighth).
_SEVEN: list[list[dict[str, Any]]] = [
    [_S3, _S3],
    [_S3, _R4],
    [_R4, _R4],
    [_S3, _S3, _S3],
    [_S3, _S3, _R4],
    [_S3, _R4, _R4],
    [_R4, _R4, _R4],
]


def _run(size: int) -> dict[str, Any]:
    return {"kind": "run", "size": size}


def _contracts(lists: list[Any], going_out_last: bool = False) -> list[dict[str, Any]]:
    return [
        {"melds": melds, "going_out_only": going_out_last and number == len(lists)}
        for number, melds in enumerate(lists, start=1)
    ]


def _values(joker: int, ace: int) -> dict[str, int]:
    """Every published game counts 2 to 10 at face value and the court cards 10."""
    values = {"joker": joker, "A": ace}
    values.update({str(number): number for number in range(2, 11)})
    values.update({"J": 10, "Q": 10, "K": 10})
    return values


def _packs(decks_up_to: int, per_extra: int, jokers: int) -> dict[str, int]:
    return {
        "decks": 2,
        "decks_up_to_players": decks_up_to,
        "players_per_extra_deck": per_extra,
        "jokers_per_deck": jokers,
        "jokers_per_player": 0,
        "jokers_extra": 0,
    }


# What the four share: the round sets the contract, the lowest total wins, jokers are the only
# wild cards, sets of 3 and runs of 4 at least, no extra melds, and every round ends with
# someone out.
_COMMON: dict[str, Any] = {
    "contract_order": "round",
    "winner": "lowest total",
    "tie_break": "share",
    "nobody_out_allowed": False,
    "wild_ranks": [],
    "wild_as_itself": True,
    "min_real_cards": 1,
    "pair_all_real": False,
    "min_set": 3,
    "min_run": 4,
    "aces": "high or low",
    "same_suit_runs_may_continue": True,
    "extra_melds": False,
    "going_out": "discard",
    "runs_may_wrap": False,
    "wilds_at_most_naturals": False,
    "max_wilds_per_meld": None,
    "max_wilds_per_laydown": None,
    "wild_limits_on_layoff": True,
    "exact_meld_sizes": False,
    "same_rank_sets_allowed": True,
    "liberation_from": "runs",
    "liberation_before_contract": "no",
    "down_and_out_bonus": 0,
}

_MAY_I_UNLIMITED = {
    "allowed": True,
    "limit": None,
    "extra_cards": 1,
    "discard": False,
    "limit_per": "contract",
}

PUBLISHED_DATA: dict[str, dict[str, Any]] = {
    "shanghai": _COMMON
    | {
        "slug": "shanghai",
        # A game's own name stays as it is; the words after it are translated.
        "name": N_plural(
            "%(game)s (%(num)s deal)", "%(game)s (%(num)s deals)", num=10, game="Shanghai Rummy"
        ),
        "contracts": _contracts(
            [
                [_S3, _S3],
                [_S3, _R4],
                [_R4, _R4],
                [_S3, _S3, _S3],
                [_S3, _run(7)],
                [_S3, _S3, _run(5)],
                [_R4, _R4, _R4],
                [_S3, _run(10)],
                [_S3, _S3, _S3, _run(5)],
                [_run(5), _run(5), _run(5)],
            ]
        ),
        "min_players": 2,
        "max_players": 8,
        "packs": _packs(decks_up_to=4, per_extra=2, jokers=2),
        "cards_dealt": 11,
        "may_i": _MAY_I_UNLIMITED | {"limit": 3},
        "card_values": _values(joker=50, ace=20),
        "wild_spacing": {"set": "free", "run": "free"},
        "layoff_on_contract_turn": True,
        "liberation": "any",
        "freed_wild": "kept",
        "wilds_at_most_naturals": True,
        "liberation_before_contract": "if going down",
        "discard_after_contract": True,
    },
    "liverpool": _COMMON
    | {
        "slug": "liverpool",
        "name": N_plural(
            "%(game)s (%(num)s deal)", "%(game)s (%(num)s deals)", num=7, game="Liverpool Rummy"
        ),
        "contracts": _contracts(
            _SEVEN,
            going_out_last=True,
        ),
        "min_players": 3,
        "max_players": 8,
        "packs": _packs(decks_up_to=4, per_extra=4, jokers=2),
        "cards_dealt": [10, 10, 10, 10, 12, 12, 12],
        "may_i": _MAY_I_UNLIMITED,
        "card_values": _values(joker=15, ace=15),
        "wild_spacing": {"set": "free", "run": "free"},
        "layoff_on_contract_turn": True,
        "liberation": "any",
        "freed_wild": "at once",
        "discard_after_contract": False,
    },
    "carioca": _COMMON
    | {
        "slug": "carioca",
        "name": N_plural(
            "%(game)s (Chile, %(num)s round)",
            "%(game)s (Chile, %(num)s rounds)",
            num=8,
            game="Carioca",
        ),
        "contracts": _contracts([*_SEVEN, [_S3, _S3, _S3, _S3]]),
        "tie_break": "most rounds won",
        "min_players": 2,
        "max_players": 5,
        "packs": _packs(decks_up_to=5, per_extra=0, jokers=2),
        "cards_dealt": 12,
        "may_i": {
            "allowed": False,
            "limit": None,
            "extra_cards": 0,
            "discard": False,
            "limit_per": "contract",
        },
        "card_values": _values(joker=50, ace=20),
        "wild_spacing": {"set": "not adjacent", "run": "not adjacent"},
        "layoff_on_contract_turn": False,
        "liberation": "off",
        "freed_wild": "at once",
        "runs_may_wrap": True,
        "max_wilds_per_meld": 1,
        "max_wilds_per_laydown": 2,
        "wild_limits_on_layoff": False,
        "same_rank_sets_allowed": False,
        "liberation_from": "any meld",
        "discard_after_contract": False,
    },
    "continental": _COMMON
    | {
        "slug": "continental",
        "name": N_plural(
            "%(game)s (%(num)s hand)", "%(game)s (%(num)s hands)", num=7, game="Continental"
        ),
        "contracts": _contracts(_SEVEN),
        "min_players": 2,
        "max_players": None,
        "packs": _packs(decks_up_to=4, per_extra=2, jokers=3),
        "cards_dealt": [7, 8, 9, 10, 11, 12, 13],
        "may_i": _MAY_I_UNLIMITED,
        "card_values": _values(joker=50, ace=20),
        "wild_spacing": {"set": "free", "run": "not adjacent"},
        "layoff_on_contract_turn": True,
        "liberation": "any",
        "freed_wild": "at once",
        "runs_may_wrap": True,
        "discard_after_contract": True,
        "down_and_out_bonus": -10,
    },
}
"""The published games' option values, as ``presets.PRESET_DATA`` holds the family games'."""


def _sources(all_pages: tuple[str, ...], cited: dict[str, Source]) -> dict[str, Source]:
    """Every option's source: ``cited`` where the pages say it (or split over it), the
    default of ``rules.md`` where they are silent."""
    silent = ("slug", "wild_as_itself", "pair_all_real", "wild_limits_on_layoff")
    sources: dict[str, Source] = {key: DEFAULT for key in silent}
    everyone = published(*all_pages)
    for key in (
        "tie_break",
        "min_real_cards",
        "extra_melds",
        "exact_meld_sizes",
        "nobody_out_allowed",
        "name",
        "contract_order",
        "winner",
        "min_players",
        "max_players",
        "packs",
        "cards_dealt",
        "may_i",
        "card_values",
        "wild_ranks",
        "wild_spacing",
        "min_set",
        "min_run",
        "aces",
        "runs_may_wrap",
        "same_suit_runs_may_continue",
        "layoff_on_contract_turn",
        "liberation",
        "freed_wild",
        "going_out",
        "wilds_at_most_naturals",
        "max_wilds_per_meld",
        "max_wilds_per_laydown",
        "same_rank_sets_allowed",
        "liberation_from",
        "liberation_before_contract",
        "discard_after_contract",
        "down_and_out_bonus",
        "contracts",
        "melds",
        "lay_off",
    ):
        sources[key] = everyone
    sources.update(cited)
    return sources


PUBLISHED_SOURCES: dict[str, dict[str, Source]] = {
    "shanghai": _sources(
        ("wsh", "nash", "ede", "pagat"),
        {
            "contracts": published("nash"),
            "cards_dealt": published("wsh", "pagat", split=True),
            "wild_ranks": published("wsh", "ede", "pagat", split=True),
            "wilds_at_most_naturals": published("wsh", split=True),
            "may_i": published("pagat", "nash", split=True),
            "card_values": published("ede", split=True),
            "going_out": published("pagat", split=True),
            "liberation_from": published("ede", split=True),
            "aces": published("wsh", "ede"),
            "runs_may_wrap": published("wsh", "ede"),
            "freed_wild": published("ede"),
            "liberation": published("ede"),
            "liberation_before_contract": published("ede"),
        },
    ),
    "liverpool": _sources(
        ("wlv", "gml", "npr", "cog"),
        {
            "contracts": published("wlv", "gml", "npr"),
            "cards_dealt": published("wlv", "cog", split=True),
            "card_values": published("npr", "gml", split=True),
            "exact_meld_sizes": published("npr", "wlv", "gml", split=True),
            "min_real_cards": published("probsee", split=True),
            "discard_after_contract": published("npr", split=True),
            "aces": published("wlv", "gml", "npr"),
            "runs_may_wrap": published("wlv", "gml", "npr"),
            "wild_ranks": published("wlv", "gml", "npr", "cog"),
            "going_out": published("gml", "npr"),
            "may_i": published("gml"),
        },
    ),
    "carioca": _sources(
        ("seb", "xan", "cap", "wmc", "pat"),
        {
            "contracts": published("xan", "cap", "wmc", split=True),
            "cards_dealt": published("seb", "xan", "cap", split=True),
            "runs_may_wrap": published("seb", "xan", split=True),
            "card_values": published("seb", split=True),
            "max_players": published("pat", split=True),
            "down_and_out_bonus": published("seb", split=True),
            "liberation": published("seb", split=True),
            "liberation_from": published("seb", split=True),
            "may_i": published("seb", "cap", split=True),
            "max_wilds_per_meld": published("seb"),
            "max_wilds_per_laydown": published("seb"),
            "wild_limits_on_layoff": published("seb"),
            "wild_spacing": published("seb"),
            "same_rank_sets_allowed": published("seb"),
            "tie_break": published("seb"),
        },
    ),
    "continental": _sources(
        ("coe", "aca", "sky", "dpop"),
        {
            "contracts": published("coe"),
            "packs": published("coe", "sky", split=True),
            "max_players": published("dpop", split=True),
            "card_values": published("coe", split=True),
            "runs_may_wrap": published("aca", "dpop", split=True),
            "wild_spacing": published("coe", "sky"),
            "down_and_out_bonus": published("coe", "sky"),
            "may_i": published("coe"),
        },
    ),
}
"""Where each published game's option comes from (the pages named, never quoted)."""
