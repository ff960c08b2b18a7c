"""The bin: deleted games and house rules wait here 30 days, then are gone for good."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("bin", __name__, url_prefix="/bin")

from . import views  # noqa: E402, F401
