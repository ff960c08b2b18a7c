"""The two house-rule options the seeds leave open, on the web: the referee's lay-off
question, the rules pages and the house-rules editor."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import house_rules
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.rules import get_ruleset
from scorekeeper.rules.sources import PUBLICATIONS

from ..nine import NINE_PRESETS
from .test_rules_pages import form_values, new_rules

CONTRACT_RUMMY_SENTENCE = (
    "If you don&#39;t have the right cards to lie down, but have put cards down on another "
    "turn you can lay off of something else."
)

# (preset, contract_turn given, allowed): J♥ laid off on three jacks.
LAYOFFS = [
    (slug, turn, get_ruleset(slug).layoff_on_contract_turn or not turn)
    for slug in NINE_PRESETS
    for turn in (True, False)
]


@pytest.mark.parametrize(("slug", "contract_turn", "allowed"), LAYOFFS)
def test_the_layoff_form_asks_about_the_contract_turn_and_the_link_carries_it(
    client: FlaskClient, slug: str, contract_turn: bool, allowed: bool
) -> None:
    params = {"rules": slug, "mode": "layoff", "meld": "JS JD JC", "cards": "JH"}
    if contract_turn:
        params["contract_turn"] = "1"
    response = client.get("/referee?" + urlencode(params))
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Is this the turn you laid your contract down?" in page
    assert f'data-valid="{"true" if allowed else "false"}"' in page
    link = "&amp;contract_turn=1" in page
    assert link is contract_turn
    if not allowed:
        assert "layoff_on_contract_turn" in page
        # A family game quotes its document; a published one names the rule pages it follows.
        if slug == "contract-rummy":
            assert CONTRACT_RUMMY_SENTENCE in page
        else:
            source = get_ruleset(slug).source("layoff_on_contract_turn")
            first_page = (source.document or "").split()[0]
            assert PUBLICATIONS[first_page][1] in page


def test_htmx_puts_the_contract_turn_in_the_address(client: FlaskClient) -> None:
    response = client.get(
        "/referee?rules=contract-rummy&mode=layoff&meld=JS+JD+JC&cards=JH&contract_turn=1",
        headers={"HX-Request": "true"},
    )
    assert response.headers["HX-Replace-Url"].endswith("&contract_turn=1")
    assert 'data-valid="false"' in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("slug", "shown"),
    [
        ("bellevue", "One pair of aces and three of a kind."),
        ("contract-rummy", CONTRACT_RUMMY_SENTENCE),
        ("twelve-step", "they do not need to wait until the following turn"),
    ],
)
def test_the_rules_pages_show_both_options_with_their_sentence(
    client: FlaskClient, slug: str, shown: str
) -> None:
    page = client.get(f"/rules/{slug}").get_data(as_text=True)
    assert 'id="pair_all_real"' in page and 'id="layoff_on_contract_turn"' in page
    assert shown in page


@pytest.mark.parametrize(
    ("base", "option", "checked"),
    [
        ("bellevue", "pair_all_real", True),
        ("bellevue", "layoff_on_contract_turn", False),
        ("contract-rummy", "layoff_on_contract_turn", True),
        ("twelve-step", "layoff_on_contract_turn", False),
    ],
)
def test_the_editor_offers_both_options_and_saves_them(
    app: Flask, client: FlaskClient, base: str, option: str, checked: bool
) -> None:
    page = client.get(f"/rules/new?base={base}").get_data(as_text=True)
    assert f'name="{option}"' in page
    assert f'id="{option}-hint"' in page
    values = form_values(page)
    assert (option in values) is getattr(get_ruleset(base), option)
    values["name"] = "Sunday rules"
    values.pop(option, None)
    if checked:
        values[option] = "y"
    response = client.post(f"/rules/new?base={base}", data=values)
    assert response.status_code == 303
    with app.app_context():
        saved = house_rules.load("sunday-rules")
    assert getattr(saved, option) is checked
    assert str(saved.source(option)) == "your house rules"


def test_house_rules_asking_two_real_aces_refuse_a_wild_ace_and_say_why(
    client: FlaskClient,
) -> None:
    response = new_rules(client, "bellevue", "Real aces", pair_all_real="y")
    assert response.status_code == 303
    page = client.get("/referee?rules=real-aces&cards=AH+2C").get_data(as_text=True)
    assert 'data-valid="false"' in page
    assert "pair_all_real" in page and "One pair of aces and three of a kind." in page
    preset = client.get("/referee?rules=bellevue&cards=AH+2C").get_data(as_text=True)
    assert 'data-valid="true"' in preset


@pytest.mark.parametrize(
    ("base", "contract_turn", "allowed"),
    [
        ("contract-rummy", True, False),
        ("contract-rummy", False, True),
        ("bellevue", True, True),
    ],
)
def test_a_stored_game_whose_frozen_rules_lack_the_option_reads_its_preset(
    app: Flask, client: FlaskClient, base: str, contract_turn: bool, allowed: bool
) -> None:
    frozen = get_ruleset(base).to_dict()
    del frozen["pair_all_real"], frozen["layoff_on_contract_turn"]
    with app.app_context():
        game = Game(rules=frozen, rules_slug=base, rules_name=get_ruleset(base).name)
        db.session.add(game)
        db.session.commit()
        game_id = game.id
    params = {"game": game_id, "mode": "layoff", "meld": "JS JD JC", "cards": "JH"}
    if contract_turn:
        params["contract_turn"] = "1"
    page = client.get("/referee?" + urlencode(params)).get_data(as_text=True)
    assert f'data-valid="{"true" if allowed else "false"}"' in page
