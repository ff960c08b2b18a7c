"""The pages of a game."""

from __future__ import annotations
