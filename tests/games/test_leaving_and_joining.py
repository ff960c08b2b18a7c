"""Players leave and join (issue 43, ``game-format.md``: ``left``, ``joined``,
``standings[].left_after``): a leaver is dealt into no later round and never wins, ranking after
everyone who stayed; a joiner brings the points the family decided and starts on contract 1
where each player keeps their own; the deal passes among the players in the round; the game
file carries it all, imports and exports it again the same, and refuses, naming the round and
the player, what cannot be."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.games.gamefile import GameFileError, read_game_file
from scorekeeper.games.gamefile_out import write_game_file
from scorekeeper.games.tally import Lineup, check_table
from scorekeeper.games.transfer import export_game, import_game
from scorekeeper.history import backup
from scorekeeper.limits import MAX_TOTAL
from scorekeeper.models import Game, Hand, Seat
from scorekeeper.rules import get_ruleset

from ..conftest import household_id
from ..helpers import import_lines

Rounds = list[tuple[str, dict[str, str]]]


def document(
    rules: str, players: list[str], rounds: list[tuple[str, dict[str, str]]], **fields: Any
) -> dict[str, Any]:
    """A game file where each round names only its players: who went out, and the cards left
    in every other hand (none of them made the contract)."""
    return {
        "format": "scorekeeper-game",
        "version": 1,
        "rules": rules,
        "players": players,
        "rounds": [
            {
                "went_out": went_out,
                "players": {
                    went_out: {"made_contract": True, "cards": ""},
                    **{
                        name: {"made_contract": False, "cards": cards}
                        for name, cards in held.items()
                    },
                },
            }
            for went_out, held in rounds
        ],
        **fields,
    }


# Dee leaves after round 2; Eve joins before round 3 with 40 points.
COMINGS: Rounds = [
    ("Ann", {"Ben": "K", "Cy": "K Q", "Dee": "5"}),
    ("Ben", {"Ann": "5", "Cy": "K", "Dee": "5"}),
    ("Cy", {"Ann": "5", "Ben": "5", "Eve": "K"}),
    ("Ann", {"Ben": "5", "Cy": "5", "Eve": "5"}),
]


def comings(rules: str = "twelve-step", **fields: Any) -> dict[str, Any]:
    return document(
        rules,
        ["Ann", "Ben", "Cy", "Dee", "Eve"],
        COMINGS,
        left={"Dee": 2},
        joined={"Eve": {"before_round": 3, "total": 40}},
        **fields,
    )


def written(doc: dict[str, Any]) -> dict[str, Any]:
    game = read_game_file(doc)
    return write_game_file(game.tally, game.rules.to_dict(), started=game.started)


def test_a_joiner_brings_their_points_and_the_deal_passes_among_those_in_the_round() -> None:
    out = written(comings())
    assert out["left"] == {"Dee": 2}
    assert out["joined"] == {"Eve": {"before_round": 3, "total": 40}}
    # Round 4: after Cy sits Dee, who left, so Eve deals; round 5 goes on to Ann.
    assert [played["dealer"] for played in out["rounds"]] == ["Ann", "Ben", "Cy", "Eve"]
    assert list(out["rounds"][1]["players"]) == ["Ann", "Ben", "Cy", "Dee"]
    assert list(out["rounds"][2]["players"]) == ["Ann", "Ben", "Cy", "Eve"]
    # Twelve-step: each keeps their own contract, and Eve starts on contract 1.
    assert out["rounds"][2]["players"]["Eve"]["contract"] == 1
    assert out["rounds"][2]["players"]["Ann"]["contract"] == 2
    standings = {standing["player"]: standing for standing in out["standings"]}
    assert standings["Eve"]["total"] == 40 + 10 + 5
    assert standings["Dee"]["left_after"] == 2 and standings["Dee"]["contract"] == 1
    assert "left_after" not in standings["Eve"]
    # Dee, with the fewest points, ranks after everyone who stayed.
    assert standings["Dee"]["total"] == 10
    assert out["standings"][-1]["player"] == "Dee" and standings["Dee"]["place"] == 5
    assert read_game_file(comings()).tally.next_dealer == 0


def test_where_the_round_sets_the_contract_a_joiner_plays_the_rounds() -> None:
    out = written(comings("contract-rummy"))
    assert out["rounds"][2]["players"]["Eve"]["contract"] == 3


def test_a_leaver_never_wins_and_those_who_left_later_rank_first() -> None:
    # Contract Rummy's seven deals; Cy (after round 1) and Dee (after round 3) leave holding
    # the fewest points of all.
    rounds: Rounds = [("Cy", {"Ann": "K", "Ben": "K", "Dee": "5"})]
    rounds += [("Dee", {"Ann": "K", "Ben": "K"})] * 2
    rounds += [("Ann", {"Ben": "K"})] * 4
    out = written(
        document("contract-rummy", ["Ann", "Ben", "Cy", "Dee"], rounds, left={"Cy": 1, "Dee": 3})
    )
    assert out["status"] == "finished"
    assert out["winners"] == ["Ann"]
    assert [standing["player"] for standing in out["standings"]] == ["Ann", "Ben", "Dee", "Cy"]
    assert [standing.get("left_after") for standing in out["standings"]] == [None, None, 3, 1]
    assert [standing["place"] for standing in out["standings"]] == [1, 2, 3, 4]


def test_six_players_two_leave_and_one_joins() -> None:
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo"]

    def all_but(out: str, *gone: str) -> dict[str, str]:
        return {name: "5" for name in names if name != out and name not in gone}

    rounds: Rounds = [
        ("Ann", all_but("Ann", "Flo")),
        ("Ben", all_but("Ben", "Flo", "Cy")),
        ("Dee", all_but("Dee", "Cy", "Eve")),
    ]
    out = written(
        document(
            "twelve-step",
            names,
            rounds,
            first_dealer="Eve",
            left={"Cy": 1, "Eve": 2},
            joined={"Flo": {"before_round": 3, "total": 0}},
        )
    )
    # Eve deals round 1; Flo is not yet in, so Ann round 2; round 3 goes on to Ben.
    assert [played["dealer"] for played in out["rounds"]] == ["Eve", "Ann", "Ben"]
    assert [len(played["players"]) for played in out["rounds"]] == [5, 4, 4]
    assert [standing["player"] for standing in out["standings"]][-2:] == ["Eve", "Cy"]


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"left": {"Dee": 1}}, "Round 2: Dee left after round 1 and is in no later round."),
        (
            {"joined": {"Eve": {"before_round": 4, "total": 0}}},
            "Round 3: Eve joined before round 4 and is in no earlier round.",
        ),
        ({"left": {"Dee": 0}}, '"left": Dee left after round 0; give a round played, 1 to 4.'),
        ({"left": {"Dee": 5}}, '"left": Dee left after round 5; give a round played, 1 to 4.'),
        ({"left": {"Dee": "2"}}, "\"left\": Dee left after round '2'; give a round played"),
        ({"left": {"Zed": 2}}, "\"left\" names 'Zed', who is not a player of this game."),
        ({"left": ["Dee"]}, '"left" must be an object'),
        (
            {"joined": {"Eve": {"before_round": 1, "total": 0}}},
            '"joined": Eve joined before round 1; give a round from 2 to 5.',
        ),
        (
            {"joined": {"Eve": {"before_round": 3, "total": -5}}},
            f'"joined": Eve joined with -5 points; give a whole number from 0 to {MAX_TOTAL}.',
        ),
        (
            {"joined": {"Eve": {"before_round": 3, "total": 2.5}}},
            '"joined": Eve joined with 2.5 points',
        ),
        ({"joined": {"Eve": {"before_round": 3}}}, '"joined": Eve joined with None points'),
    ],
)
def test_refusals_name_the_round_and_the_player(changes: dict[str, Any], says: str) -> None:
    doc = comings()
    doc.update(changes)
    with pytest.raises(GameFileError) as refused:
        read_game_file(doc)
    assert any(problem.startswith(says) for problem in refused.value.problems), (
        refused.value.problems
    )


def test_every_round_keeps_two_players() -> None:
    rounds: Rounds = [("Ann", {"Ben": "K", "Cy": "K"}), ("Ann", {})]
    doc = document("twelve-step", ["Ann", "Ben", "Cy"], rounds, left={"Ben": 1, "Cy": 1})
    with pytest.raises(GameFileError) as refused:
        read_game_file(doc)
    assert (
        "Round 2 would have 1 player; at least 2 players stay in every round."
        in refused.value.problems
    )
    # Nor may the last two leave a game that goes on: its next round would have one player.
    doc = document(
        "twelve-step", ["Ann", "Ben"], rounds[:1] and [("Ann", {"Ben": "K"})], left={"Ben": 1}
    )
    with pytest.raises(GameFileError) as refused:
        read_game_file(doc)
    assert refused.value.problems == [
        "Round 2 would have 1 player; at least 2 players stay in every round."
    ]


def test_who_went_out_must_be_in_the_round() -> None:
    doc = comings()
    doc["rounds"][3]["went_out"] = "Dee"
    with pytest.raises(GameFileError) as refused:
        read_game_file(doc)
    assert "Round 4: Dee left after round 2 and is in no later round." in refused.value.problems


def _counts() -> tuple[int, int, int]:
    return (
        int(db.session.scalar(select(func.count(Game.id))) or 0),
        int(db.session.scalar(select(func.count(Seat.id))) or 0),
        int(db.session.scalar(select(func.count(Hand.id))) or 0),
    )


@pytest.mark.parametrize("rules", ["twelve-step", "contract-rummy"])
def test_stored_exported_and_imported_again_the_same(app: Flask, rules: str) -> None:
    with app.app_context():
        game = import_game(comings(rules))
        seats = {seat.player.name: seat for seat in game.seats}
        assert (seats["Dee"].left_after, seats["Eve"].joined_before) == (2, 3)
        assert seats["Eve"].joined_total == 40 and seats["Eve"].total == 55
        # No hand is stored for a player not in the round.
        assert len(seats["Dee"].hands) == 2 and len(seats["Eve"].hands) == 2
        exported = export_game(game)
        assert exported["left"] == {"Dee": 2} and exported["standings"][-1]["left_after"] == 2
        assert exported["rounds"][3]["dealer"] == "Eve"
        again = dict(json.loads(json.dumps(exported)))
        del again["uid"]
        twice = export_game(import_game(again))
        for key in ("uid", "id", "exported"):
            twice.pop(key), exported.pop(key)
        assert twice == exported


def test_a_refused_file_stores_nothing(app: Flask) -> None:
    doc = comings()
    doc["left"] = {"Dee": 1}
    with app.app_context():
        before = _counts()
        with pytest.raises(GameFileError):
            import_game(doc)
        assert _counts() == before


def test_the_command_line_imports_and_exports_it(app: Flask, tmp_path: Path) -> None:
    runner = app.test_cli_runner()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(comings()))
    imported = runner.invoke(args=["game", "import", str(path)])
    assert imported.exit_code == 0, imported.output
    game_id = imported.output.strip().splitlines()[-1]
    exported = runner.invoke(args=["game", "export", game_id])
    out = json.loads(exported.output)
    assert out["joined"] == {"Eve": {"before_round": 3, "total": 40}}
    assert [standing.get("left_after") for standing in out["standings"]][-1] == 2
    doc = comings()
    doc["joined"] = {"Eve": {"before_round": 2, "total": 0}}
    path.write_text(json.dumps(doc))
    refused = runner.invoke(args=["game", "import", str(path)])
    assert refused.exit_code != 0
    assert "Round 2: Eve is missing" in refused.output


def test_a_backup_carries_them_and_restores_the_same_game(app: Flask) -> None:
    with app.app_context(), scope.household(household_id(app, "Source")):
        import_game(comings())
        import_game(comings("contract-rummy"))
        lines = list(backup.export_lines())
    with app.app_context(), scope.household(household_id(app, "Restored")):
        report = import_lines(io.BytesIO("".join(line + "\n" for line in lines).encode()))
        assert len(report.stored) == 2 and report.refused == []
        restored = list(backup.export_lines())
        seats = db.session.scalars(select(Seat).order_by(Seat.id)).all()
        assert [(seat.left_after, seat.joined_before, seat.joined_total) for seat in seats][
            3:5
        ] == [
            (2, None, 0),
            (None, 3, 40),
        ]
        assert db.session.scalar(select(func.count(Hand.id))) == 2 * 4 * 4

    def lasting(line: str) -> dict[str, Any]:
        return {
            key: value for key, value in json.loads(line).items() if key not in {"id", "exported"}
        }

    assert [lasting(line) for line in restored] == [lasting(line) for line in lines]


def test_the_game_s_pages_show_it(app: Flask, client: FlaskClient) -> None:
    with app.app_context(), scope.household(household_id(app, "Family")):
        game_id = import_game(comings()).id
    for page in (
        "",
        "/board",
        "/tv",
        "/result",
        "/rounds/new",
        "/rounds/3/edit",
        "/seat",
        "/export",
    ):
        response = client.get(f"/games/{game_id}{page}", follow_redirects=True)
        assert response.status_code == 200, (page, response.status_code)


@pytest.mark.parametrize(
    ("left", "joined", "at_once"),
    [
        ({}, {}, 6),
        ({5: 1}, {}, 6),  # all six in round 1
        ({4: 1, 5: 2}, {4: (1, 0)}, 6),
        ({0: 1, 1: 1}, {4: (2, 0), 5: (3, 0)}, 4),  # two leave, then two join
        ({0: 1}, {5: (2, 0)}, 5),  # one leaves, one joins in their place
        ({}, {5: (4, 0)}, 6),  # one joins late: six from round 4
    ],
)
def test_the_rules_most_players_counts_the_fullest_round(
    left: dict[int, int], joined: dict[int, tuple[int, int]], at_once: int
) -> None:
    """Carioca is for at most 5: the table is refused only where some round, played or next,
    deals more than 5."""
    rules = get_ruleset("carioca")
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo"]
    # Those at once in the fullest of rounds 1 to 5 (four played, and the next).
    lineup = Lineup(left=left, joined=joined)
    assert max(len(lineup.seats_in(number, 6)) for number in range(1, 6)) == at_once
    refused = [str(problem) for problem in check_table(rules, names, 0, lineup, 4)]
    says = f"Carioca (Chile, 8 rounds) is for at most 5 players; this game has {at_once}."
    assert refused == ([says] if at_once > 5 else [])
