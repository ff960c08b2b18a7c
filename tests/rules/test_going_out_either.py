"""Issue 51, Phase 10: ``going_out: either`` (a hand empty at the end of the turn has gone
out, by a discard or by playing the last card): a value of the rule set, the house-rules
editor and the rules page, in both languages; the presets keep their values."""

from __future__ import annotations

import html

from flask.testing import FlaskClient

from scorekeeper.rules import GoingOut, describe_options, get_ruleset

from ..referee.test_rules_pages import new_rules


def test_either_is_a_value_of_going_out() -> None:
    ruleset = get_ruleset({"base": "contract-rummy", "deck": "phase-10", "going_out": "either"})
    assert ruleset.going_out is GoingOut.EITHER
    assert ruleset.to_dict()["going_out"] == "either"
    (option,) = [item for item in describe_options(ruleset) if item.key == "going_out"]
    assert option.choices == ("discard", "play", "either")
    assert get_ruleset("contract-rummy").going_out is GoingOut.DISCARD
    assert get_ruleset("bellevue").going_out is GoingOut.PLAY


def test_the_editor_and_the_rules_page_offer_it(client: FlaskClient) -> None:
    page = html.unescape(client.get("/rules/new?base=contract-rummy").get_data(as_text=True))
    assert "By discarding the last card or by playing it onto the table" in page
    assert new_rules(client, "contract-rummy", "Either way", going_out="either").status_code == 303
    shown = html.unescape(client.get("/rules/either-way").get_data(as_text=True))
    assert "By discarding the last card or by playing it onto the table" in shown
    spanish = html.unescape(
        client.get("/rules/either-way", headers={"Accept-Language": "es"}).get_data(as_text=True)
    )
    assert "Descartando la última carta o jugándola en la mesa" in spanish
