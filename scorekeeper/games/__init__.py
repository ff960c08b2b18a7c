"""Keeping score at the table: games, rounds entered as leftover cards, contracts, winners.

The arithmetic lives in ``tally`` (pure), the game file's format in ``gamefile`` (pure); the
database work in ``services`` (start a game, read its tally), ``rounds`` (every round write)
with ``changelog`` (its lines), ``entering`` (a save of the round form, the close, a hand put
in late, undo and put back: each one call that answers what happened), ``drafts`` (a round
typed hand by hand, stored through ``rounds``) and ``transfer`` (a game file's import and
export); the pages (``views``: start and scoreboard, ``round_views``, ``undo_views``,
``hand_views``, ``late_hands``, ``gamefile_views``) and ``cli`` are thin layers over them.
"""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("games", __name__, url_prefix="/games", cli_group="game")


from . import (  # noqa: E402,F401  (they attach their routes and commands to bp)
    board_views,
    cli,
    comings_views,
    gamefile_views,
    hand_views,
    late_hands,
    round_views,
    undo_views,
    views,
)
