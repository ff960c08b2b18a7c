"""Reading the game file (pure): every refusal of the spec, with the round and player named."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scorekeeper.games.gamefile import GameFileError, read_game_file
from scorekeeper.games.gamefile_out import write_game_file
from scorekeeper.rules import get_ruleset


def document(**changes: Any) -> dict[str, Any]:
    """The spec's example, with ``changes`` applied."""
    base: dict[str, Any] = {
        "format": "scorekeeper-game",
        "version": 1,
        "rules": "twelve-step",
        "players": ["Ann", "Ben", "Cy"],
        "first_dealer": "Ann",
        "started": "2026-11-20T19:30:00+00:00",
        "rounds": [
            {
                "went_out": "Ben",
                "players": {
                    "Ann": {"made_contract": True, "cards": "JK A 5"},
                    "Ben": {"made_contract": True, "cards": ""},
                    "Cy": {"made_contract": False, "cards": "K Q 9 9"},
                },
            }
        ],
    }
    base.update(changes)
    return base


def problems(doc: Any) -> list[str]:
    with pytest.raises(GameFileError) as refused:
        read_game_file(doc)
    assert refused.value.problems
    return refused.value.problems


def test_the_spec_example_reads() -> None:
    game = read_game_file(document())
    assert game.names == ("Ann", "Ben", "Cy")
    assert game.rules.slug == "twelve-step"
    assert game.started is not None and game.started.isoformat() == "2026-11-20T19:30:00+00:00"
    assert [hand.points for hand in game.tally.rounds[0].hands] == [75, 0, 30]
    assert game.tally.next_dealer == 1


def test_made_contract_may_be_left_out_for_whoever_went_out() -> None:
    doc = document()
    del doc["rounds"][0]["players"]["Ben"]["made_contract"]
    del doc["rounds"][0]["players"]["Ben"]["cards"]
    assert read_game_file(doc).tally.rounds[0].hands[1].made_contract is True


def test_house_rules_as_an_object() -> None:
    doc = document(rules={"base": "twelve-step", "name": "Grandma's", "may_i": {"limit": 2}})
    game = read_game_file(doc)
    assert game.rules.name == "Grandma's" and game.rules.may_i.limit == 2


def test_names_match_ignoring_case_and_first_dealer_defaults_to_the_first_name() -> None:
    doc = document()
    del doc["first_dealer"]
    doc["rounds"][0]["went_out"] = "ben"
    doc["rounds"][0]["players"] = {k.upper(): v for k, v in doc["rounds"][0]["players"].items()}
    game = read_game_file(doc)
    assert game.first_dealer == 0
    assert game.tally.rounds[0].went_out == 1


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"format": "something-else"}, 'This is not a scorekeeper game file: "format" must be'),
        ({"version": 2}, "this app reads version 1 of the game file only"),
        ({"rules": "poker"}, "The rules 'poker' are not known to this Scorekeeper"),
        ({"rules": {"base": "twelve-step", "colour": "red"}}, '"colour" is not an option'),
        ({"players": ["Ann"]}, "A game needs at least 2 players; this file has 1."),
        ({"players": ["Ann", "ANN", "Cy"]}, "ANN is named twice among the players"),
        ({"first_dealer": "Dan"}, "\"first_dealer\" ('Dan') is not one of the players."),
        ({"started": "yesterday"}, "\"started\" ('yesterday') is not a time in ISO 8601"),
        ({"abandoned": "yes"}, '"abandoned" must be true or false.'),
        ({"rounds": {}}, '"rounds" must be a list of rounds'),
    ],
)
def test_refused_game_fields(changes: dict[str, Any], says: str) -> None:
    assert any(says in problem for problem in problems(document(**changes))), problems(
        document(**changes)
    )


def test_refused_not_an_object() -> None:
    assert problems([1, 2]) == ["The file is not a scorekeeper game: it must be one JSON object."]


def test_refused_more_players_than_the_rules_allow() -> None:
    doc = document(rules="contract-rummy", players=["Ann", "B", "C", "D", "E", "F"], rounds=[])
    assert problems(doc) == ["Contract Rummy (7 deals) is for at most 5 players; this game has 6."]


def round_doc(**players: Any) -> dict[str, Any]:
    doc = document()
    doc["rounds"][0]["players"].update(players)
    return doc


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        (
            round_doc(Ben={"made_contract": True, "cards": "K"}),
            "Round 1: Ben went out, so Ben holds no cards (entered: K).",
        ),
        (
            round_doc(Ben={"made_contract": False, "cards": ""}),
            "Round 1: Ben went out, so Ben made contract 1; it cannot be marked as not made.",
        ),
        (
            round_doc(Cy={"made_contract": False, "cards": ""}),
            "Round 1: Cy did not go out, so Cy holds cards; enter the cards left in Cy's hand.",
        ),
        (
            round_doc(Cy={"made_contract": False, "cards": "K ZZ"}),
            "Round 1, Cy: 'ZZ' is not a card",
        ),
        (
            round_doc(Dan={"made_contract": False, "cards": "K"}),
            "Round 1: 'Dan' is not a player of this game.",
        ),
        (
            round_doc(Cy={"cards": "K"}),
            'Round 1, Cy: say whether Cy made the contract ("made_contract": true or false).',
        ),
        (
            round_doc(
                Ann={"made_contract": False, "cards": "7 7 7 7 7"},
                Cy={"made_contract": False, "cards": "7 7 7 7"},
            ),
            "Round 1: more cards are entered across the table than the game's packs "
            "(2 decks and 4 jokers) hold: 9 × 7, but 2 decks hold only 8.",
        ),
    ],
)
def test_refused_rounds_name_the_round_and_the_player(doc: dict[str, Any], expected: str) -> None:
    found = problems(doc)
    assert any(problem.startswith(expected) for problem in found), found


def test_refused_a_player_missing_from_a_round() -> None:
    doc = document()
    del doc["rounds"][0]["players"]["Cy"]
    assert problems(doc) == [
        "Round 1: Cy is missing (every player of the game appears in every round)."
    ]


def test_refused_went_out_not_a_player() -> None:
    doc = document()
    doc["rounds"][0]["went_out"] = "Dan"
    assert problems(doc) == ["Round 1: \"went_out\" names 'Dan', who is not a player of this game."]


def test_refused_nobody_out_where_the_rules_do_not_allow_it() -> None:
    doc = document()
    doc["rounds"][0]["went_out"] = None
    doc["rounds"][0]["players"]["Ben"] = {"made_contract": False, "cards": "5"}
    [problem] = problems(doc)
    assert problem.startswith("Round 1: say who went out; under 12-Step Rummy")


def contract_rummy(rounds: int, last: dict[str, Any] | None = None) -> dict[str, Any]:
    played = {
        "went_out": "Ann",
        "players": {
            "Ann": {"cards": ""},
            "Ben": {"made_contract": False, "cards": "K"},
            "Cy": {"made_contract": False, "cards": "5"},
        },
    }
    plays = [copy.deepcopy(played) for _ in range(rounds)]
    if last is not None:
        plays[-1]["players"].update(last)
    return document(rules="contract-rummy", rounds=plays)


def test_refused_a_round_after_the_end() -> None:
    assert problems(contract_rummy(8)) == [
        "Round 8 was played after the game ended (it ended after round 7)."
    ]


def test_refused_a_going_out_only_contract_without_going_out() -> None:
    [problem] = problems(contract_rummy(7, {"Cy": {"made_contract": True, "cards": "5"}}))
    assert problem == (
        "Round 7: Cy did not go out, so Cy cannot have made contract 7 (three runs of 4): "
        "it is made only by going out."
    )


def test_a_round_with_nobody_out_where_allowed() -> None:
    doc = contract_rummy(1)
    doc["rounds"][0]["went_out"] = None
    doc["rounds"][0]["players"]["Ann"] = {"made_contract": True, "cards": "A"}
    game = read_game_file(doc)
    assert [hand.points for hand in game.tally.rounds[0].hands] == [15, 10, 5]


def test_all_problems_are_listed() -> None:
    doc = round_doc(
        Ben={"made_contract": True, "cards": "K"}, Cy={"made_contract": False, "cards": "1H"}
    )
    assert len(problems(doc)) == 2


def test_written_document_has_what_the_app_adds() -> None:
    game = read_game_file(document())
    written = write_game_file(game.tally, game.rules.to_dict(), started=game.started)
    assert written["status"] == "in_progress"
    assert written["rules"] == game.rules.to_dict()
    assert written["rounds"][0]["number"] == 1
    assert written["rounds"][0]["dealer"] == "Ann"
    assert written["rounds"][0]["players"]["Ann"] == {
        "contract": 1,
        "made_contract": True,
        "cards": "JK A 5",
        "points": 75,
    }
    assert written["standings"][0] == {
        "player": "Ben",
        "total": 0,
        "contract": 2,
        "contracts_made": 1,
        "place": 1,
    }
    assert written["winners"] == [] and written["tie_break"] is None
    again = read_game_file(written)
    assert write_game_file(again.tally, again.rules.to_dict(), started=again.started) == written


@pytest.mark.parametrize(
    ("base", "option", "value"),
    [
        ("bellevue", "pair_all_real", True),
        ("bellevue", "pair_all_real", False),
        ("contract-rummy", "layoff_on_contract_turn", True),
        ("contract-rummy", "layoff_on_contract_turn", False),
        ("twelve-step", "layoff_on_contract_turn", False),
        ("twelve-step", "pair_all_real", True),
    ],
)
def test_the_rules_object_carries_both_new_options_and_round_trips(
    base: str, option: str, value: bool
) -> None:
    doc = document(rules={"base": base, option: value}, rounds=[])
    game = read_game_file(doc)
    assert getattr(game.rules, option) is value
    written = write_game_file(game.tally, game.rules.to_dict(), started=game.started)
    assert written["rules"][option] is value
    assert "pair_all_real" in written["rules"] and "layoff_on_contract_turn" in written["rules"]
    again = read_game_file(written)
    assert again.rules == game.rules
    assert getattr(again.rules, option) is value


@pytest.mark.parametrize("base", ["twelve-step", "bellevue", "contract-rummy"])
def test_a_rules_object_without_the_new_options_takes_its_presets_values(base: str) -> None:
    frozen = get_ruleset(base).to_dict()
    del frozen["pair_all_real"], frozen["layoff_on_contract_turn"]
    game = read_game_file(document(rules=frozen, rounds=[]))
    preset = get_ruleset(base)
    assert game.rules.pair_all_real is preset.pair_all_real
    assert game.rules.layoff_on_contract_turn is preset.layoff_on_contract_turn
