"""A game's status: the words the database, the game file and the pages share.

A ``StrEnum``, so stored values (``"in_progress"``) and comparisons with strings keep
working. It lives outside any feature and the rules engine, since the models, the games,
the history and the templates all ask it.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["GameStatus"]


class GameStatus(StrEnum):
    """Whether a game is still played, ended with a result, or was given up without one."""

    IN_PROGRESS = "in_progress"
    FINISHED = "finished"
    ABANDONED = "abandoned"

    @property
    def label(self) -> str:
        """The status as the pages show it: "In progress", "Finished", "Abandoned"."""
        return self.value.replace("_", " ").capitalize()
