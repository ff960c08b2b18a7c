"""Issue 51, Phase 10: the option ``skip_target`` (who loses a turn to a Skip: a player the
discarder names, or the next in turn) in the engine, the house-rules editor and the rules
page, in both languages. The nine presets keep ``any`` (a standard deck has no Skip)."""

from __future__ import annotations

import html

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import house_rules, scope
from scorekeeper.rules import PRESETS, RuleSetError, describe_options, get_ruleset

from ..conftest import family_id
from .test_rules_pages import new_rules

PHASE_10_DECK = {"base": "contract-rummy", "deck": "phase-10"}


def test_every_preset_keeps_any_and_house_rules_may_say_next() -> None:
    for slug in PRESETS:
        assert get_ruleset(slug).to_dict()["skip_target"] == "any"
    ruleset = get_ruleset({**PHASE_10_DECK, "skip_target": "next"})
    assert ruleset.to_dict()["skip_target"] == "next"
    assert str(ruleset.source("skip_target")) == "your house rules"
    assert get_ruleset(ruleset.to_dict()).to_dict() == ruleset.to_dict()
    (option,) = [item for item in describe_options(ruleset) if item.key == "skip_target"]
    assert option.choices == ("any", "next")
    with pytest.raises(RuleSetError, match="skip_target"):
        get_ruleset({**PHASE_10_DECK, "skip_target": "left"})


def test_the_editor_offers_it_and_saves_it(app: Flask, client: FlaskClient) -> None:
    page = client.get("/rules/new?base=phase-10").get_data(as_text=True)
    assert '<select id="skip_target" name="skip_target"' in page
    assert "The next player in turn loses their next turn" in page
    # A standard deck has no Skip: the editor keeps the option's value out of sight.
    page = client.get("/rules/new?base=contract-rummy").get_data(as_text=True)
    assert '<input type="hidden" name="skip_target" value="any">' in page
    assert "The next player in turn loses their next turn" not in page
    response = new_rules(client, "contract-rummy", "Next one", skip_target="next")
    assert response.status_code == 303
    with app.app_context():
        assert house_rules.load("next-one").to_dict()["skip_target"] == "next"


def test_the_rules_page_says_it_where_the_deck_has_skips(app: Flask, client: FlaskClient) -> None:
    with app.test_request_context(), scope.household(family_id(app)):
        slug = house_rules.save("Our deck", {**PHASE_10_DECK, "skip_target": "next"}).slug
    page = html.unescape(client.get(f"/rules/{slug}").get_data(as_text=True))
    assert "Who loses a turn to a Skip" in page
    assert "The next player in turn loses their next turn" in page
    spanish = html.unescape(
        client.get(f"/rules/{slug}", headers={"Accept-Language": "es"}).get_data(as_text=True)
    )
    assert "Quién pierde el turno por un salto" in spanish
    # A standard deck has no Skip: its page does not show the option.
    standard = client.get("/rules/contract-rummy").get_data(as_text=True)
    assert 'id="skip_target"' not in standard
    assert "Who loses a turn to a Skip" not in standard
