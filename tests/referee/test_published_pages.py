"""The four published games on the web: their rules pages (the new options with their
descriptions, the rule pages they follow named), the house-rules editor's new options, and
the referee offering and ruling them."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import house_rules
from scorekeeper.rules import get_ruleset

from .test_rules_pages import form_values, new_rules

PUBLISHED = ("shanghai", "liverpool", "carioca", "continental")


@pytest.mark.parametrize("slug", PUBLISHED)
def test_a_published_game_s_page_names_its_sources_and_shows_the_new_options(
    client: FlaskClient, slug: str
) -> None:
    page = client.get(f"/rules/{slug}").get_data(as_text=True)
    rules = get_ruleset(slug)
    assert str(rules.name) in page
    # Named, never quoted: the rule pages' names, no quotation of theirs.
    for title in rules.source("contracts").publications:
        assert title.replace("'", "&#39;") in page
    for key in ("runs_may_wrap", "wilds_at_most_naturals", "same_rank_sets_allowed"):
        assert f'id="{key}"' in page
    corner = "Yes: a run may turn the corner (Q-K-A-2)" if rules.runs_may_wrap else "No: a run"
    assert corner in page
    bonus = "No bonus for making the contract and going out on the same turn"
    if rules.down_and_out_bonus:
        bonus = "Making the contract and going out on the same turn takes 10 points off"
    assert bonus in page


def test_the_rules_pages_say_the_tie_break_and_the_corner_in_words(client: FlaskClient) -> None:
    carioca = client.get("/rules/carioca").get_data(as_text=True)
    assert "whoever went out in the most rounds wins" in carioca
    assert "a run grows past the ace too" in carioca
    shanghai = client.get("/rules/shanghai").get_data(as_text=True)
    assert "The freed wild card joins the hand, with no duty to play it" in shanghai
    assert "a run grows past the ace too" not in shanghai


def test_a_family_game_s_page_shows_the_new_options_at_their_defaults(
    client: FlaskClient,
) -> None:
    page = client.get("/rules/twelve-step").get_data(as_text=True)
    assert 'id="runs_may_wrap"' in page and 'id="down_and_out_bonus"' in page
    assert "most tables play it this way." in page


@pytest.mark.parametrize(
    ("option", "field", "value"),
    [
        ("runs_may_wrap", "runs_may_wrap", "y"),
        ("wilds_at_most_naturals", "wilds_at_most_naturals", "y"),
        ("max_wilds_per_meld", "max_wilds_per_meld", "1"),
        ("exact_meld_sizes", "exact_meld_sizes", "y"),
        ("liberation_from", "liberation_from", "runs"),
        ("liberation_before_contract", "liberation_before_contract", "if going down"),
        ("down_and_out_bonus", "down_and_out_bonus", "-10"),
        ("tie_break", "tie_break", "most rounds won"),
        ("freed_wild", "freed_wild", "kept"),
    ],
)
def test_the_editor_offers_each_new_option_and_saves_it(
    app: Flask, client: FlaskClient, option: str, field: str, value: str
) -> None:
    page = client.get("/rules/new?base=twelve-step").get_data(as_text=True)
    assert f'name="{field}"' in page
    response = new_rules(client, "twelve-step", "Sunday rules", **{field: value})
    assert response.status_code == 303, response.get_data(as_text=True)
    with app.app_context():
        saved = house_rules.load(house_rules.slug_for("Sunday rules")).to_dict()
    expected = {"y": True}.get(value, value)
    if option in ("max_wilds_per_meld", "down_and_out_bonus"):
        expected = int(value)
    assert saved[option] == expected


def test_the_editor_unticks_a_published_game_s_option_and_saves_may_i_per_game(
    app: Flask, client: FlaskClient
) -> None:
    values = form_values(client.get("/rules/new?base=carioca").get_data(as_text=True))
    assert values.get("runs_may_wrap") == "y" and "same_rank_sets_allowed" not in values
    assert values.get("max_wilds_per_meld") == "1"
    values.pop("runs_may_wrap")
    values["max_wilds_per_laydown"] = ""
    values["may_i-limit_per"] = "game"
    values["name"] = "Carioca at home"
    response = client.post("/rules/new?base=carioca", data=values)
    assert response.status_code == 303, response.get_data(as_text=True)
    with app.app_context():
        saved = house_rules.load(house_rules.slug_for("Carioca at home"))
    assert not saved.runs_may_wrap and saved.max_wilds_per_laydown is None
    assert saved.may_i.limit_per == "game"


def test_the_referee_offers_the_published_games_by_name_and_rules_their_melds(
    client: FlaskClient,
) -> None:
    page = client.get("/referee").get_data(as_text=True)
    for slug in PUBLISHED:
        assert f'<option value="{slug}"' in page
        assert str(get_ruleset(slug).name) in page
    corner = {"rules": "carioca", "cards": "QH KH AH 2H"}
    ruled = client.get("/referee?" + urlencode(corner)).get_data(as_text=True)
    assert 'data-valid="true"' in ruled
    assert "here the ace is between the king and the 2" in ruled
    refused = client.get("/referee?" + urlencode(corner | {"rules": "liverpool"}))
    assert 'data-valid="false"' in refused.get_data(as_text=True)
    shanghai = {"rules": "shanghai", "cards": "8C JK JK"}
    too_wild = client.get("/referee?" + urlencode(shanghai)).get_data(as_text=True)
    assert "never holds more wild cards than real ones" in too_wild
    assert "sources differ; this preset follows" in too_wild
