"""The rules pages, the house-rules editor and the house-rules services."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from scorekeeper import house_rules
from scorekeeper.extensions import db
from scorekeeper.models import HouseRules
from scorekeeper.rulebook.forms import read_contracts
from scorekeeper.rulebook.sections import applies
from scorekeeper.rules import OPTION_KEYS, PRESETS, get_ruleset

from ..helpers import game_document, import_lines


class FormReader(HTMLParser):
    """The values a browser would send for the first POST form of a page, as it stands."""

    def __init__(self) -> None:
        super().__init__()
        self.values: MultiDict[str, str] = MultiDict()
        self.in_form = False
        self.select: str | None = None
        self.textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {key: value or "" for key, value in attrs}
        if tag == "form" and found.get("method") == "post":
            self.in_form = True
        if not self.in_form or ("name" not in found and tag != "option"):
            return
        if tag == "input":
            if found.get("type") == "checkbox":
                if "checked" in found:
                    self.values.add(found["name"], found.get("value", "y"))
            else:
                self.values.add(found["name"], found.get("value", ""))
        elif tag == "select":
            self.select = found["name"]
        elif tag == "option" and self.select and "selected" in found:
            self.values.add(self.select, found["value"])
        elif tag == "textarea":
            self.textarea = found["name"]
            self.values.add(self.textarea, "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.in_form = False
        elif tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None

    def handle_data(self, data: str) -> None:
        if self.textarea:
            self.values[self.textarea] = self.values[self.textarea] + data


def form_values(page: str) -> MultiDict[str, str]:
    reader = FormReader()
    reader.feed(page)
    return reader.values


def new_rules(client: FlaskClient, base: str, name: str, **changes: str | list[str]) -> object:
    values = form_values(client.get(f"/rules/new?base={base}").get_data(as_text=True))
    values["name"] = name
    for key, value in changes.items():
        values.setlist(key, value if isinstance(value, list) else [value])
    return client.post(f"/rules/new?base={base}", data=values)


def test_the_rules_index_lists_presets_and_saved_house_rules(
    app: Flask, client: FlaskClient
) -> None:
    new_rules(client, "bellevue", "Grandma's rules")
    page = client.get("/rules/").get_data(as_text=True)
    for slug in PRESETS:
        assert f'href="/rules/{slug}"' in page
    assert 'href="/rules/grandmas-rules"' in page and "Grandma&#39;s rules" in page


@pytest.mark.parametrize("slug", PRESETS)
def test_every_preset_has_a_page_built_from_its_rule_set(client: FlaskClient, slug: str) -> None:
    ruleset = get_ruleset(slug)
    response = client.get(f"/rules/{slug}")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert ruleset.name in page
    for contract in ruleset.contracts:
        assert f"<td>{contract.summary}</td>" in page
    for key in OPTION_KEYS:
        if key not in ("slug", "name"):
            # An option only another deck's cards mean is not shown (phase-10.md).
            assert (f'id="{key}"' in page) is applies(key, ruleset.deck), key
    # Every rule the referee cites has its place on the page.
    assert 'id="melds"' in page and 'id="lay_off"' in page
    for key, value in ruleset.card_values:
        label = {"joker": "Joker", "wild": "Wild", "skip": "Skip"}.get(key, key)
        assert f"<dt>{label}</dt><dd>{value}</dd>" in page, key
    assert 'href="/referee?rules=' + slug + '"' in page


def test_a_rules_page_quotes_the_family_or_says_the_document_is_silent(
    client: FlaskClient,
) -> None:
    page = client.get("/rules/bellevue").get_data(as_text=True)
    assert "Wild cards (deuces or jokers) must alternate with natural cards" in page
    assert "Your rules don't say; most tables play it this way." in html.unescape(page)


def test_unknown_rules_have_no_page(client: FlaskClient) -> None:
    assert client.get("/rules/no-such-rules").status_code == 404
    assert client.get("/rules/no-such-rules/edit").status_code == 404
    assert client.get("/rules/twelve-step/edit").status_code == 404
    assert client.get("/rules/new?base=nope").status_code == 404


def test_the_editor_submitted_unchanged_saves_the_preset_itself(
    app: Flask, client: FlaskClient
) -> None:
    for slug in PRESETS:
        response = new_rules(client, slug, f"Copy of {slug}")
        assert response.status_code == 303, response.get_data(as_text=True)
    with app.app_context():
        for slug in PRESETS:
            saved = house_rules.load(house_rules.slug_for(f"Copy of {slug}"))
            preset = get_ruleset(slug).to_dict()
            copied = saved.to_dict()
            assert {k: v for k, v in copied.items() if k not in ("slug", "name")} == {
                k: v for k, v in preset.items() if k not in ("slug", "name")
            }


def test_house_rules_are_saved_offered_and_used_by_the_referee(
    app: Flask, client: FlaskClient
) -> None:
    response = new_rules(
        client,
        "twelve-step",
        "Grandma's rules",
        wild_ranks=[],
        **{"card_values-joker": "25"},
    )
    assert response.status_code == 303
    assert response.headers["Location"] == "/rules/grandmas-rules"
    with app.app_context():
        assert ("grandmas-rules", "Grandma's rules") in house_rules.choices()
        record = db.session.query(HouseRules).one()
        assert record.base == "twelve-step"
        assert record.options == house_rules.load("grandmas-rules").to_dict()
        assert record.options["card_values"]["joker"] == 25
    page = client.get("/rules/grandmas-rules").get_data(as_text=True)
    assert "Your house rules: changed from the preset." in page
    assert "<dt>Joker</dt><dd>25</dd>" in page
    # 2s are no longer wild: three 2s are a set of 2s, where the preset refuses them.
    ruled = client.get("/referee?rules=grandmas-rules&cards=2S+2D+2H").get_data(as_text=True)
    assert 'data-valid="true"' in ruled
    preset = client.get("/referee?rules=twelve-step&cards=2S+2D+2H").get_data(as_text=True)
    assert 'data-valid="false"' in preset
    assert '<option value="grandmas-rules" selected>' in ruled


def test_bad_values_come_back_at_their_fields_and_nothing_is_saved(
    app: Flask, client: FlaskClient
) -> None:
    response = new_rules(
        client,
        "bellevue",
        "Uncle Bob's rules",
        contracts="two sets of 3\nthree blobs of 4",
        **{"packs-decks": "0", "min_set": "lots"},
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Line 2: &#39;three blobs of 4&#39; is not a meld" in page
    assert "Enter a whole number." in page
    with app.app_context():
        assert db.session.query(HouseRules).count() == 0
    # The engine's own range check, at the field it names.
    response = new_rules(client, "bellevue", "Uncle Bob's rules", **{"packs-decks": "0"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    error = page[page.index('id="packs-decks-error"') :]
    assert "0 is not between 1 and 20" in error[: error.index("</div>")]
    assert 'id="packs-decks"' in page and 'aria-invalid="true"' in page


def test_a_name_is_needed_and_may_not_be_taken(app: Flask, client: FlaskClient) -> None:
    assert "Give these rules a name." in new_rules(client, "bellevue", " ").get_data(as_text=True)
    taken = new_rules(client, "bellevue", "russian rummy")
    assert taken.status_code == 422
    assert "There are already rules called" in taken.get_data(as_text=True)
    assert new_rules(client, "bellevue", "Sunday").status_code == 303
    assert new_rules(client, "twelve-step", "SUNDAY").status_code == 422


def test_editing_keeps_the_address_and_changes_the_rules(app: Flask, client: FlaskClient) -> None:
    new_rules(client, "contract-rummy", "Sunday")
    values = form_values(client.get("/rules/sunday/edit").get_data(as_text=True))
    assert values["name"] == "Sunday"
    values["name"] = "Sunday night"
    values["liberation"] = "off"
    response = client.post("/rules/sunday/edit", data=values)
    assert response.status_code == 303
    assert response.headers["Location"] == "/rules/sunday"
    with app.app_context():
        rules = house_rules.load("sunday")
        assert rules.name == "Sunday night" and rules.liberation == "off"
    query = "/referee?rules=sunday&mode=liberate&meld=3H+4H+JK+6H&card=5H"
    assert 'data-valid="false"' in client.get(query).get_data(as_text=True)


def test_deleting_asks_first_then_removes_the_rules(app: Flask, client: FlaskClient) -> None:
    new_rules(client, "bellevue", "Sunday")
    confirm = client.get("/rules/sunday/delete").get_data(as_text=True)
    assert "keep their own copy" in confirm
    response = client.post("/rules/sunday/delete")
    assert response.status_code == 303 and response.headers["Location"] == "/rules"
    assert client.get("/rules/sunday").status_code == 404
    assert client.get("/referee?rules=sunday").status_code == 404


def test_saving_without_the_csrf_token_is_refused(app: Flask, csrf_client: FlaskClient) -> None:
    response = new_rules(csrf_client, "bellevue", "Sunday")
    # The token the page carried is in the form: the save goes through.
    assert response.status_code == 303
    values = form_values(csrf_client.get("/rules/new?base=bellevue").get_data(as_text=True))
    values["name"] = "Monday"
    values.pop("csrf_token")
    assert csrf_client.post("/rules/new", data=values).status_code == 400
    assert csrf_client.post("/rules/sunday/delete").status_code == 400
    with app.app_context():
        assert [record.slug for record in house_rules.saved()] == ["sunday"]


def test_slugs_come_from_names_and_never_clash(app: Flask) -> None:
    assert house_rules.slug_for("Grandma's rules") == "grandmas-rules"
    assert house_rules.slug_for("  Ünder  the Table!! ") == "under-the-table"
    assert house_rules.slug_for("♠♠♠") == "house-rules"
    with app.app_context():
        options = {"base": "bellevue"}
        first = house_rules.save("New", options)
        assert first.slug == "new-2"  # /rules/new is the editor
        twelve = house_rules.save("Twelve step", {"base": "twelve-step"})
        assert twelve.slug == "twelve-step-2"  # never a preset's slug


@pytest.mark.parametrize("slug", PRESETS)
def test_contracts_in_words_read_back_as_the_rule_set_has_them(slug: str) -> None:
    ruleset = get_ruleset(slug)
    text = "\n".join(contract.summary for contract in ruleset.contracts)
    contracts, problems = read_contracts(text)
    assert problems == []
    assert get_ruleset({"base": slug, "contracts": contracts}) == ruleset


def test_contracts_in_words_name_the_line_that_is_wrong() -> None:
    contracts, problems = read_contracts("2 sets of 3\n\na run\na pair of kings, a set of 3")
    assert problems == [
        "Line 2: 'a run' is not a meld (write it like 'a set of 3', "
        "'two runs of 4' or 'a pair of aces')."
    ]
    assert contracts[0]["melds"] == [{"kind": "set", "size": 3}] * 2
    assert contracts[1]["melds"][0] == {"kind": "pair", "size": 2, "rank": "K"}


@pytest.mark.parametrize("typed", ["Gr\u200ban", "\u202eGran\u202c", "Ｇｒａｎ", " gran "])
def test_rule_set_names_are_tidied_as_player_names_are(client: FlaskClient, typed: str) -> None:
    assert new_rules(client, "bellevue", "Gran").status_code == 303
    again = new_rules(client, "bellevue", typed)
    assert again.status_code == 422
    assert "There are already rules called" in again.get_data(as_text=True)


def test_a_rule_set_name_of_invisible_characters_is_refused_at_its_field(
    app: Flask, client: FlaskClient
) -> None:
    blank = new_rules(client, "bellevue", "\u200b\u202e \u2066")
    assert blank.status_code == 422
    assert re.search(
        r'id="name-error"[^>]*><p[^>]*>Give these rules a name', blank.get_data(as_text=True)
    )
    assert new_rules(client, "bellevue", "\u202eNan\u200bna\u202c").status_code == 303
    with app.app_context():
        assert [record.name for record in house_rules.saved()] == ["Nanna"]


def test_the_rules_name_a_game_file_or_a_backup_brings_is_tidied(app: Flask) -> None:
    import io
    import json

    from scorekeeper.games.transfer import import_game
    from scorekeeper.models import Game

    rules = {"base": "twelve-step", "name": "\u202eGr\u200ban\u202c"}
    document = game_document(rules, ["Ann", "Ben"], [])
    with app.app_context():
        imported = import_game(document)
        assert imported.rules_name == "Gran" and imported.rules["name"] == "Gran"
        line = json.dumps(game_document(rules, ["Cy", "Dee"], [])) + "\n"
        report = import_lines(io.BytesIO(line.encode()))
        [(_number, game_id)] = report.stored
        restored = db.session.get(Game, game_id)
        assert restored is not None and restored.rules_name == "Gran"
        assert restored.rules["name"] == "Gran"
