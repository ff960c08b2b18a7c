"""The statistics kept up to date: what the history, players and records pages read.

Three tables (``derived.GameStat``, ``SeatStat``, ``PlayerStat``, with ``SeatContract``) hold
what every game out of the bin counts for, so that no page aggregates over every game, seat or
hand. Each part in a module of its own:

- ``hooks``: what a commit does. Every write to a game calls ``versions.bump`` (or
  ``bump_games``) before its commit, which marks the game; the ``before_commit`` listener
  (installed by the factory with every other: ``scorekeeper.hooks``) brings the statistics up
  to date in the same transaction; a rollback forgets the marks;
- ``games``: a game's ``GameStat``, ``SeatStat`` and ``SeatContract`` rows, rewritten from
  that one game whenever it changes (cheap: one game), and removed while it is in the bin;
- ``players``: each ``PlayerStat`` row, recomputed from that player's ``SeatStat`` rows for
  every player of the changed games, before and after the change (``player_rows``: a few
  aggregates grouped by player); where a finished game changed, their head to head moves by
  the game (its old counts taken away, its new added: they are sums) and their best, worst
  and streaks are read a few rows each through the indexes, so a save costs as much with
  10,000 games behind it as with ten;
- ``households``: a household's rows rebuilt (after a restore, and by the migration that made
  the tables) in a few set-based passes: its games a chunk at a time, then every player's row
  by the same ``player_rows``;
- ``tables``: the tables, the words they store, and the household's statistics version, which
  moves with every refresh (the rounds file's key, ``history.rounds_file``).

Everything here is Core on the session's connection, which ``scope.py``'s hook does not see:
the household of every statement and row is named through ``scope.for_household`` (a game's
own, read with it, or the one ``rebuild`` is given).
"""

from __future__ import annotations

from .games import kept_contract, refresh_games
from .hooks import forget_marks, forget_marks_soft, refresh_marked
from .households import rebuild, rebuild_all
from .players import refresh_players

__all__ = [
    "forget_marks",
    "forget_marks_soft",
    "kept_contract",
    "rebuild",
    "rebuild_all",
    "refresh_games",
    "refresh_marked",
    "refresh_players",
]
