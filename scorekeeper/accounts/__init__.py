"""Signing in, first-run setup, members, invitations, table and watch links."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("accounts", __name__)

from . import cli, language_views, link_views, views  # noqa: E402, F401
