"""Keeping score at the table: games, rounds entered as leftover cards, contracts, winners.

The arithmetic lives in ``tally`` (pure), the game file in ``gamefile`` (pure), the database
work in ``services``; ``views`` and ``cli`` are thin layers over them.
"""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("games", __name__, url_prefix="/games", cli_group="game")

from . import board_views, cli, hand_views, views  # noqa: E402,F401  (they attach their routes and commands to bp)
