"""SQL pieces the history, player and records pages share.

Every statistic is an aggregate over the summary columns that the games engineer's
``recompute()`` keeps on ``Seat`` and ``Game`` (totals, places, winners, contracts made), so a
page costs a fixed handful of queries however many games the family has played.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, or_

from ..models import Game

FINISHED = "finished"
STATUSES = (("in_progress", "In progress"), ("finished", "Finished"), ("abandoned", "Abandoned"))
STATUS_LABELS = dict(STATUSES)

# Where each player keeps their own contract until they make it (the rules engine's
# ``contract_order == "own"``). The presets are listed too, for games stored before the
# frozen rules carried the option.
KEPT_CONTRACT_PRESETS = ("twelve-step", "russian-rummy")


def kept_contract() -> ColumnElement[bool]:
    """A condition on ``Game``: each player works on their own contract until they make it."""
    order = Game.rules["contract_order"].as_string()
    base = Game.rules["base"].as_string()
    return or_(
        order == "own",
        (
            order.is_(None)
            & (base.in_(KEPT_CONTRACT_PRESETS) | Game.rules_slug.in_(KEPT_CONTRACT_PRESETS))
        ),
    )


def is_kept_contract(rules: dict[str, Any], slug: str) -> bool:
    """The same test as ``kept_contract()``, for one game already loaded."""
    order = rules.get("contract_order") if isinstance(rules, dict) else None
    if order is not None:
        return bool(order == "own")
    base = rules.get("base") if isinstance(rules, dict) else None
    return bool(base in KEPT_CONTRACT_PRESETS or slug in KEPT_CONTRACT_PRESETS)


def rate(part: int, whole: int) -> float | None:
    """``part / whole``, or ``None`` where there is nothing to divide."""
    return part / whole if whole else None
