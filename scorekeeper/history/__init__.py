"""The family's history: past games, records, backup and restore (web and ``flask history``)."""

from __future__ import annotations

from . import cli as _cli  # noqa: F401  (registers the ``flask history`` commands on bp)
from . import rating_views as _rating_views  # noqa: F401  (registers its routes on bp)
from . import review_views as _review_views  # noqa: F401  (registers its routes on bp)
from .views import bp

__all__ = ["bp"]
