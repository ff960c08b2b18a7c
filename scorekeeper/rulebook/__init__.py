"""The rules pages (``/rules``): every preset and saved house rule set, generated from the
rule set itself, and the house-rules editor."""

from __future__ import annotations

from .views import bp

__all__ = ["bp"]
