"""SQL pieces the history, player and records pages share.

The pages read the kept statistics (``history.stats``); ``game_summaries`` and
``kept_contract`` compute the same numbers from the games themselves, over the summary
columns ``recompute()`` keeps on ``Seat`` and ``Game``, and are what the tests check the kept
numbers against (``tests/history/scratch.py``).
"""

from __future__ import annotations

from sqlalchemy import CTE, ColumnElement, or_, select

from ..models import Game
from ..status import GameStatus

FINISHED = GameStatus.FINISHED
STATUSES = tuple((status.value, status.label) for status in GameStatus)
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


def rate(part: int, whole: int) -> float | None:
    """``part / whole``, or ``None`` where there is nothing to divide."""
    return part / whole if whole else None


def game_summaries(*conditions: ColumnElement[bool], name: str = "game_summary") -> CTE:
    """The games that meet ``conditions``, as a common table expression of their summary
    columns, read once before any join.

    MATERIALIZED keeps SQLite from folding it into the join: looked up one by one, each game
    row would be read in full (its frozen rules come first), while the summary is read whole
    from the ``ix_games_summary`` index in one pass.
    """
    return (
        select(
            Game.id,
            Game.status,
            Game.started,
            Game.round_count,
            Game.rules_slug,
            Game.rules_name,
        )
        .where(*conditions)
        .cte(name)
        .prefix_with("MATERIALIZED")
    )
