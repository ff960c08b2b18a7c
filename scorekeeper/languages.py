"""Which language a page speaks (``shared/spec/languages.md``), and the catalogues it is read in.

The languages are the catalogues under ``translations/``, named in ``LANGUAGES``: another
language is one more catalogue and one more line there, no code."""

from __future__ import annotations

from pathlib import Path

from flask import Flask, request
from flask_babel import get_locale

# The language the code's own messages are written in, then every catalogue there is.
LANGUAGES: dict[str, str] = {"en": "English", "es": "Español"}
DEFAULT = "en"
CATALOGUES = Path(__file__).resolve().parent / "translations"


def best_of_browser() -> str | None:
    """The browser's best match among ``LANGUAGES`` (``es-CL`` → ``es``), or None."""
    if not request:
        return None
    return request.accept_languages.best_match(list(LANGUAGES))


def select_locale() -> str:
    """The page's language: the browser's best match, else English."""
    return best_of_browser() or DEFAULT


def current() -> str:
    """The language the page being drawn speaks, as ``<html lang>`` names it."""
    return str(get_locale() or DEFAULT)


def init_app(app: Flask) -> None:
    app.jinja_env.globals["current_language"] = current
