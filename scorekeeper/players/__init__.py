"""Players: the family's list, each player's profile and statistics, renaming and merging."""

from __future__ import annotations

from .views import bp

__all__ = ["bp"]
