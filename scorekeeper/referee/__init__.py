"""The referee at the table: rules on a meld, a contract, a lay-off or a wild swap, and says
whether a hand makes its contract, with the rule and the source behind every reason."""

from __future__ import annotations

from .views import bp

__all__ = ["bp"]
