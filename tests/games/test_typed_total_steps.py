"""Issue 51: a typed total no hand of the rule set's cards can make is refused at its field.
A hand's points are a sum of card values, so they go in the steps of the values' greatest
common divisor (``points_step``): Phase 10's 5, 10, 15 and 25 make multiples of 5 only, as do
12-Step's; face-value decks (Contract Rummy's) step by 1 and take every whole number. The
round form, its correction and a game file's totals-only hands all say so, from the rule set's
own values (house rules' too)."""

from __future__ import annotations

import io
import json
from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.games.tally import HandEntry, RoundEntry, tally_game
from scorekeeper.rules import PHASE_10, PRESETS, get_ruleset, points_step, score_cards

from ..helpers import players_of, round_form, start_game
from .test_merged_corrections import fields
from .test_pages import text
from .test_spanish_rounds import at_field, spanish, words

FOUR = ("Ann", "Ben", "Cy", "Dee")
PHASE_10_SEVEN = (
    "Round 1, Ben: 7 cannot be made from this game's cards: each is worth 5, 10, 15 or 25, so "
    "totals go in steps of 5."
)


def _post_totals(
    client: FlaskClient,
    game_id: int,
    totals: dict[str, str],
    *,
    address: str | None = None,
    extra: dict[str, str] | None = None,
) -> Any:
    """Post round 1 (or the form at ``address``) with Ann out and the others' totals typed."""
    form = round_form(players_of(client, game_id), "Ann", {})
    for name, total in totals.items():
        form[f"hands-{FOUR.index(name)}-total"] = total
    form |= {"save": "1"} | (extra or {})
    return client.post(address or f"/games/{game_id}/rounds/new", data=form)


def _stored_points(client: FlaskClient, game_id: int) -> list[dict[str, Any]]:
    document = client.get(f"/games/{game_id}/export").get_json()
    return [
        {name: hand["points"] for name, hand in played["players"].items()}
        for played in document["rounds"]
    ]


def test_a_phase_10_total_off_the_step_of_5_is_refused_at_its_field(client: FlaskClient) -> None:
    game_id = start_game(client, "phase-10", FOUR)
    refused = _post_totals(client, game_id, {"Ben": "7", "Cy": "35", "Dee": "3"})
    assert refused.status_code == 422
    assert at_field(refused, "total-1") == [PHASE_10_SEVEN]
    assert at_field(refused, "total-2") == []
    assert at_field(refused, "total-3") == [
        "Round 1, Dee: 3 cannot be made from this game's cards: each is worth 5, 10, 15 or 25, "
        "so totals go in steps of 5."
    ]
    assert "<" not in PHASE_10_SEVEN
    assert _stored_points(client, game_id) == []

    assert _post_totals(client, game_id, {"Ben": "5", "Cy": "35", "Dee": "0"}).status_code == 302
    assert _stored_points(client, game_id) == [{"Ann": 0, "Ben": 5, "Cy": 35, "Dee": 0}]

    # The correction of the round checks alike.
    address = f"/games/{game_id}/rounds/1/edit"
    opened = fields(client.get(address).get_data(as_text=True))
    corrected = _post_totals(
        client, game_id, {"Ben": "7", "Cy": "35", "Dee": "0"}, address=address, extra=opened
    )
    assert corrected.status_code == 422, text(corrected)
    assert at_field(corrected, "total-1") == [PHASE_10_SEVEN]
    assert _stored_points(client, game_id) == [{"Ann": 0, "Ben": 5, "Cy": 35, "Dee": 0}]


def test_the_phase_10_refusal_in_spanish(client: FlaskClient) -> None:
    game_id = start_game(client, "phase-10", FOUR)
    spanish(client)
    refused = _post_totals(client, game_id, {"Ben": "7", "Cy": "35", "Dee": "0"})
    assert refused.status_code == 422
    assert at_field(refused, "total-1") == [
        "Ronda 1, Ben: 7 no se puede sumar con las cartas de esta partida: cada una vale 5, 10, "
        "15 o 25, así que los totales van de 5 en 5."
    ]


def test_house_values_give_their_own_step(client: FlaskClient) -> None:
    """Phase 10 with every card worth 10, 20 or 30 steps by 10; with a Wild worth 22 by 1."""
    tens = {str(number): 10 for number in range(1, 13)} | {"wild": 20, "skip": 30}
    document = {
        "format": "scorekeeper-game",
        "version": 1,
        "rules": {"base": "phase-10", "card_values": tens},
        "players": list(FOUR),
        "rounds": [],
    }
    upload = io.BytesIO(json.dumps(document).encode())
    response = client.post("/games/import", data={"file": (upload, "game.json")})
    assert response.status_code == 302, text(response)
    game_id = int(response.headers["Location"].rstrip("/").split("/")[-1])
    refused = _post_totals(client, game_id, {"Ben": "25", "Cy": "40", "Dee": "0"})
    assert refused.status_code == 422
    assert at_field(refused, "total-1") == [
        "Round 1, Ben: 25 cannot be made from this game's cards: each is worth 10, 20 or 30, so "
        "totals go in steps of 10."
    ]
    assert _post_totals(client, game_id, {"Ben": "30", "Cy": "40", "Dee": "0"}).status_code == 302

    document["rules"] = {"base": "phase-10", "card_values": {"wild": 22}}
    upload = io.BytesIO(json.dumps(document).encode())
    response = client.post("/games/import", data={"file": (upload, "game.json")})
    game_id = int(response.headers["Location"].rstrip("/").split("/")[-1])
    assert _post_totals(client, game_id, {"Ben": "7", "Cy": "3", "Dee": "0"}).status_code == 302


def test_standard_presets_check_the_step_of_their_own_values(client: FlaskClient) -> None:
    """12-Step's cards are worth 5, 10, 20 or 50: 37 is a typo. Contract Rummy's count their
    face value (2 to 10, 15): every whole number can be made, and 37 is kept as before."""
    twelve = start_game(client, "twelve-step", FOUR)
    refused = _post_totals(client, twelve, {"Ben": "37", "Cy": "35", "Dee": "0"})
    assert refused.status_code == 422
    assert at_field(refused, "total-1") == [
        "Round 1, Ben: 37 cannot be made from this game's cards: each is worth 5, 10, 20 or 50, "
        "so totals go in steps of 5."
    ]
    contract = start_game(client, "contract-rummy", FOUR)
    assert _post_totals(client, contract, {"Ben": "37", "Cy": "3", "Dee": "0"}).status_code == 302
    assert _stored_points(client, contract) == [{"Ann": 0, "Ben": 37, "Cy": 3, "Dee": 0}]


def test_a_game_file_total_off_the_step_is_refused_naming_round_and_player(
    client: FlaskClient,
) -> None:
    hands = {"Ann": {"made_contract": True, "cards": ""}} | {
        name: {"made_contract": False, "cards": None, "points": 35} for name in FOUR[1:]
    }
    hands["Cy"] = {"made_contract": False, "cards": None, "points": 7}
    document = {
        "format": "scorekeeper-game",
        "version": 1,
        "rules": "phase-10",
        "players": list(FOUR),
        "rounds": [{"went_out": "Ann", "players": hands}],
    }
    upload = io.BytesIO(json.dumps(document).encode())
    response = client.post("/games/import", data={"file": (upload, "game.json")})
    assert response.status_code == 422
    assert (
        "Round 1, Cy: 7 cannot be made from this game's cards: each is worth 5, 10, 15 or 25, "
        "so totals go in steps of 5."
    ) in words(response)


# Every card of each deck as notation, to deal random hands from.
_CARDS = {
    "standard": ("JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"),
    "phase-10": (*(str(number) for number in range(1, 13)), "W", "S"),
}


@st.composite
def _rules_and_hand(draw: st.DrawFn) -> tuple[Any, str]:
    """A preset, or house rules over one with some card values of the house's own (0 to 60),
    and a hand of up to 12 of its cards."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    rules = get_ruleset(preset)
    keys = [key for key, _ in rules.card_values]
    if draw(st.booleans()):
        values = draw(st.dictionaries(st.sampled_from(keys), st.integers(0, 60), max_size=4))
        rules = get_ruleset({"base": preset, "card_values": values})
    deck = "phase-10" if rules.deck == PHASE_10 else "standard"
    hand = draw(st.lists(st.sampled_from(_CARDS[deck]), min_size=1, max_size=12))
    return rules, " ".join(hand)


def _total_problems(rules: Any, total: int) -> list[str]:
    """What the tally says at Ben's total field when Ann went out and Ben typed ``total``."""
    entry = RoundEntry(
        went_out=0,
        hands=(
            HandEntry(made_contract=True),
            HandEntry(total=total, made_contract=False),
            HandEntry(total=0, made_contract=False),
            HandEntry(total=0, made_contract=False),
        ),
    )
    tally = tally_game(rules, FOUR, 0, [entry])
    return [str(problem.message) for problem in tally.problems if problem.field == "total-1"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=_rules_and_hand(), off=st.integers(1, 1000))
def test_every_total_cards_make_is_taken_and_one_off_the_step_refused(
    drawn: tuple[Any, str], off: int
) -> None:
    rules, hand = drawn
    points = score_cards(hand, rules)
    assert _total_problems(rules, points) == [], (hand, points)
    step = points_step(rules)
    # The step divides every card's value, so every hand's points.
    assert step == 0 or points % step == 0
    wrong = points + off
    if step > 1 and wrong % step:
        [problem] = _total_problems(rules, wrong)
        assert f"Round 1, Ben: {wrong} cannot be made from this game's cards" in problem
        assert f"totals go in steps of {step}." in problem
    elif step == 1:
        assert _total_problems(rules, wrong) == []
