"""Issue 51, Phase 10 in the house-rules editor and on the rules page: each shows the options
that mean something on the rule set's deck (a Phase 10 deck has no aces, wild ranks, suits or
jokers; only it has Skips). The editor keeps a hidden option's value in a hidden input, and
choosing another deck draws the form again for it (the button beside the deck, which the page
presses as the deck changes), so that a trip to the other deck and back loses nothing typed.
Both pages say, for a Phase 10 deck, that Phase 10 is Mattel's trademark and the app not
theirs, in English and Spanish."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from scorekeeper import house_rules, scope
from scorekeeper.extensions import db
from scorekeeper.rules import get_ruleset

from ..conftest import family_id
from .test_rules_pages import form_values

SPANISH = {"Accept-Language": "es-CL"}
STANDARD_ONLY = ("aces", "wild_ranks", "wild_as_itself", "pair_all_real")
TRADEMARK = (
    "Phase 10 is a trademark of Mattel. This app only keeps score for the game: it is not made "
    "or endorsed by Mattel."
)
MARCA = (
    "Phase 10 es una marca de Mattel. Esta app solo lleva los puntos del juego: no la hace ni "
    "la respalda Mattel."
)


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def _shown(page: str) -> set[str]:
    """The names of the fields a person sees and changes (not hidden inputs)."""
    names = set(re.findall(r'<(?:select|textarea)[^>]*\bname="([^"]+)"', page))
    for tag in re.findall(r"<input\b[^>]*>", page):
        name = re.search(r'\bname="([^"]+)"', tag)
        if name and 'type="hidden"' not in tag:
            names.add(name.group(1))
    return names


def _hidden(page: str) -> MultiDict[str, str]:
    found: MultiDict[str, str] = MultiDict()
    for tag in re.findall(r'<input type="hidden"[^>]*>', page):
        name = re.search(r'\bname="([^"]+)"', tag)
        value = re.search(r'\bvalue="([^"]*)"', tag)
        if name:
            found.add(name.group(1), html.unescape(value.group(1)) if value else "")
    return found


def _values(values: MultiDict[str, str]) -> dict[str, list[str]]:
    """The values a form sends, without its token and the deck's bookkeeping."""
    return {
        key: sorted(values.getlist(key))
        for key in values
        if key not in ("csrf_token", "drawn_deck", "redraw")
        and not key.startswith("kept-")
        and values.getlist(key)
    }


def test_the_editor_shows_each_decks_own_options(client: FlaskClient) -> None:
    phase_10 = client.get("/rules/new?base=phase-10").get_data(as_text=True)
    shown = _shown(phase_10)
    for key in STANDARD_ONLY:
        assert key not in shown, key
    assert "same_suit_runs_may_continue" not in shown
    assert not {name for name in shown if name.startswith("packs-jokers")}
    assert {"skip_target", "phases_played", "hands", "winner", "tie_break", "going_out"} <= shown
    assert {f"card_values-{key}" for key in ("1", "12", "wild", "skip")} <= shown
    assert "card_values-joker" not in shown
    # What is hidden is still sent, as the preset has it.
    hidden = _hidden(phase_10)
    assert hidden["aces"] == "high or low" and hidden.getlist("wild_ranks") == ["2"]
    assert hidden["packs-jokers_per_deck"] == "0"
    standard = client.get("/rules/new?base=contract-rummy").get_data(as_text=True)
    shown = _shown(standard)
    assert {*STANDARD_ONLY, "same_suit_runs_may_continue", "packs-jokers_per_deck"} <= shown
    assert "skip_target" not in shown and _hidden(standard)["skip_target"] == "any"
    assert "card_values-wild" not in shown and "card_values-joker" in shown


def test_standard_to_phase_10_and_back_keeps_every_value(app: Flask, client: FlaskClient) -> None:
    start = form_values(client.get("/rules/new?base=contract-rummy").get_data(as_text=True))
    start["name"] = "Round trip"
    changes = {
        "aces": ["low"],
        "wild_ranks": ["2", "K"],
        "wild_as_itself": [],
        "pair_all_real": ["y"],
        "same_suit_runs_may_continue": [],
        "card_values-A": ["20"],
        "card_values-joker": ["40"],
        "packs-jokers_per_deck": ["3"],
        "going_out": ["either"],
        "hands": ["9"],
        "min_set": ["4"],
    }
    for key, value in changes.items():
        start.setlist(key, value)
    sent = _values(start)
    # To Phase 10: its own card values and options, the standard deck's kept out of sight.
    start["deck"] = "phase-10"
    start["redraw"] = "1"
    answer = client.post("/rules/new?base=contract-rummy", data=start)
    assert answer.status_code == 200
    page = answer.get_data(as_text=True)
    assert "field-error" not in page
    shown = _shown(page)
    assert "aces" not in shown and "skip_target" in shown and "card_values-wild" in shown
    on_phase_10 = form_values(page)
    assert on_phase_10["card_values-wild"] == "25" and on_phase_10["card_values-12"] == "10"
    assert on_phase_10["aces"] == "low" and on_phase_10.getlist("wild_ranks") == ["2", "K"]
    assert on_phase_10["packs-jokers_per_deck"] == "0"
    on_phase_10["card_values-wild"] = "20"
    on_phase_10["skip_target"] = "next"
    # And back: every value as it was, the Skip's option kept now.
    on_phase_10["deck"] = "standard"
    on_phase_10["redraw"] = "1"
    back = client.post("/rules/new?base=contract-rummy", data=on_phase_10)
    assert back.status_code == 200
    values = form_values(back.get_data(as_text=True))
    assert _values(values) == {**sent, "skip_target": ["next"]}
    # Once more to Phase 10: the Wild typed as 20 is still 20.
    values["deck"] = "phase-10"
    values["redraw"] = "1"
    again = form_values(
        client.post("/rules/new?base=contract-rummy", data=values).get_data(as_text=True)
    )
    assert again["card_values-wild"] == "20"
    # Saved on Phase 10: the hidden options are saved as they were, none lost.
    saved = client.post("/rules/new?base=contract-rummy", data=again)
    assert saved.status_code == 303, saved.get_data(as_text=True)
    with app.test_request_context(), scope.household(family_id(app)):
        rules = house_rules.load("round-trip").to_dict()
        db.session.remove()
    assert rules["deck"] == "phase-10" and rules["card_values"]["wild"] == 20
    assert rules["aces"] == "low" and rules["wild_ranks"] == ["2", "K"]
    assert rules["pair_all_real"] is True and rules["wild_as_itself"] is False
    assert rules["same_suit_runs_may_continue"] is False
    assert rules["skip_target"] == "next" and rules["hands"] == 9 and rules["min_set"] == 4


def test_saved_house_rules_keep_their_hidden_options_through_the_editor(
    app: Flask, client: FlaskClient
) -> None:
    with app.test_request_context(), scope.household(family_id(app)):
        slug = house_rules.save(
            "Our Phase 10", {"base": "phase-10", "aces": "high", "skip_target": "next"}
        ).slug
        db.session.commit()
    page = client.get(f"/rules/{slug}/edit").get_data(as_text=True)
    assert "aces" not in _shown(page)
    values = form_values(page)
    assert client.post(f"/rules/{slug}/edit", data=values).status_code == 303
    with app.test_request_context(), scope.household(family_id(app)):
        rules = house_rules.load(slug).to_dict()
        db.session.remove()
    assert rules["aces"] == "high" and rules["skip_target"] == "next"
    assert rules["deck"] == "phase-10"


def test_the_trademark_line_on_the_rules_page_and_the_editor(client: FlaskClient) -> None:
    for address in ("/rules/phase-10", "/rules/new?base=phase-10"):
        assert TRADEMARK in _text(client.get(address).get_data(as_text=True)), address
        spanish = _text(client.get(address, headers=SPANISH).get_data(as_text=True))
        assert MARCA in spanish, address
    for address in ("/rules/contract-rummy", "/rules/new?base=contract-rummy"):
        assert "Mattel" not in client.get(address).get_data(as_text=True), address
    # The editor says it once the deck is Phase 10's, drawn again for it.
    values = form_values(client.get("/rules/new?base=bellevue").get_data(as_text=True))
    values["deck"] = "phase-10"
    values["redraw"] = "1"
    answer = client.post("/rules/new?base=bellevue", data=values, headers=SPANISH)
    assert MARCA in _text(answer.get_data(as_text=True))


def test_the_rules_page_shows_only_what_the_deck_means(client: FlaskClient) -> None:
    page = client.get("/rules/phase-10").get_data(as_text=True)
    ids = set(re.findall(r'<div class="rule" id="(\w+)">', page))
    assert not ids & {*STANDARD_ONLY, "same_suit_runs_may_continue"}
    assert "skip_target" in ids
    said = _text(page)
    assert "Q-K-A-2" not in said and "Aces in runs" not in said and "an ace" not in said
    assert "No: 12 and 1 are not neighbours (11-12-1-2 is no run)" in said
    assert "Jokers" not in said
    standard = client.get("/rules/contract-rummy").get_data(as_text=True)
    ids = set(re.findall(r'<div class="rule" id="(\w+)">', standard))
    assert {*STANDARD_ONLY, "same_suit_runs_may_continue"} <= ids
    assert "skip_target" not in ids


def test_the_rules_page_says_a_floater_waits_where_going_out_needs_a_discard(
    app: Flask, client: FlaskClient
) -> None:
    with app.test_request_context(), scope.household(family_id(app)):
        slug = house_rules.save("Floating", {"base": "phase-10", "going_out": "discard"}).slug
        db.session.commit()
    said = _text(client.get(f"/rules/{slug}").get_data(as_text=True))
    assert "has not gone out: they wait with no cards for one to discard" in said
    spanish = _text(client.get(f"/rules/{slug}", headers=SPANISH).get_data(as_text=True))
    assert "no ha cerrado: espera sin cartas" in spanish
    for address in ("/rules/phase-10", "/rules/contract-rummy"):
        assert 'id="floater"' not in client.get(address).get_data(as_text=True), address


# Which phases are played, as the editor's field shows it: the page's own word for all, even
# and odd (what a Spanish family types, and what the editor reads back), a list as numbers.
PLAYED_WORDS = {
    "all": {"en": "all", "es": "todos"},
    "even": {"en": "even", "es": "pares"},
    "odd": {"en": "odd", "es": "impares"},
    (1, 3, 5): {"en": "1 3 5", "es": "1 3 5"},
}


def test_which_phases_are_played_is_shown_in_the_pages_words_and_saved_unchanged(
    app: Flask, client: FlaskClient
) -> None:
    # The presets' editor (all) and house rules' editor for the others, on either deck.
    addresses = {
        ("all", base): (f"/rules/new?base={base}", None) for base in ("phase-10", "contract-rummy")
    }
    with app.test_request_context(), scope.household(family_id(app)):
        for played in [played for played in PLAYED_WORDS if played != "all"]:
            for base in ("phase-10", "contract-rummy"):
                option = list(played) if isinstance(played, tuple) else played
                slug = house_rules.save(
                    f"Played {base} {played}", {"base": base, "phases_played": option}
                ).slug
                addresses[(played, base)] = (f"/rules/{slug}/edit", slug)
        db.session.commit()
    for (played, base), (address, slug) in addresses.items():
        wanted = list(played) if isinstance(played, tuple) else played
        for language, headers in (("en", {}), ("es", SPANISH)):
            values = form_values(client.get(address, headers=headers).get_data(as_text=True))
            assert values["phases_played"] == PLAYED_WORDS[played][language], (address, language)
            # Saved as shown, the rules play the same phases.
            if slug is None:
                values["name"] = f"Saved {base} {language}"
            saved = client.post(address, data=values, headers=headers)
            assert saved.status_code == 303, saved.get_data(as_text=True)
            with app.test_request_context(), scope.household(family_id(app)):
                stored = house_rules.load(slug or house_rules.slug_for(values["name"])).to_dict()
                db.session.remove()
            assert stored["phases_played"] == wanted, (address, language)
            assert stored["deck"] == get_ruleset(base).deck.slug
