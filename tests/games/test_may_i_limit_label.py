"""Issue 50: the house-rules editor's "May I" limit names the scope the rules chose, per
contract or for the whole game, in English and in Spanish."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .test_options_on_the_sheet import _house_rules

LABELS = {
    "en": {
        "contract": "At most, per player per contract (empty: no limit)",
        "game": "At most, per player for the whole game (empty: no limit)",
    },
    "es": {
        "contract": "Como máximo, por jugador y contrato (vacío: sin límite)",
        "game": "Como máximo, por jugador en toda la partida (vacío: sin límite)",
    },
}


def _limit_label(page: str) -> str:
    found = re.search(r'<label for="may_i-limit">([^<]*)</label>', page)
    assert found, "the editor shows no May I limit"
    return html.unescape(found.group(1))


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("per", ["contract", "game"])
def test_the_limit_label_names_the_chosen_scope(
    app: Flask, client: FlaskClient, language: str, per: str
) -> None:
    slug = _house_rules(
        app, f"Twice a {per}", {"base": "contract-rummy", "may_i": {"limit": 2, "limit_per": per}}
    )
    page = client.get(f"/rules/{slug}/edit", headers={"Accept-Language": language})
    assert page.status_code == 200
    assert _limit_label(page.get_data(as_text=True)) == LABELS[language][per]
