"""Whatever the app writes, it reads back (issue 49, item 5): every game the board can make,
with any order of joins, leaves, undos and put-backs, exports to a file that imports as the
same game and restores from a household backup; the file's ``left`` and ``joined`` may be lists
(a join after a leave is a comeback, ``game-format.md``); a joiner's total under any house
values is one the file takes; the 16 players are those at the table at once, of up to 64 names.
"""

from __future__ import annotations

import io
import itertools
import json
import re
from typing import Any

import flask_migrate
import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, select

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.games.gamefile import GameFileError, read_game_file
from scorekeeper.games.gamefile_out import write_game_file
from scorekeeper.games.tally import Comeback, Lineup, check_table
from scorekeeper.history import backup
from scorekeeper.limits import MAX_NAMES, MAX_PLAYERS, MAX_TOTAL, MOST_CARD_POINTS
from scorekeeper.models import DraftHand, Game, Hand, Seat
from scorekeeper.rules import RuleSetError, get_ruleset

from ..conftest import household_id
from ..helpers import game_document, import_lines, save_round, start_game

# What changes from one export of a game to the next: the export's time and the game's id.
VOLATILE = ("id", "exported")


def exported(client: FlaskClient, game_id: int) -> dict[str, Any]:
    response = client.get(f"/games/{game_id}/export")
    assert response.status_code == 200
    document: dict[str, Any] = response.get_json()
    return document


def lasting(document: dict[str, Any], *also: str) -> dict[str, Any]:
    return {key: value for key, value in document.items() if key not in {*VOLATILE, *also}}


def seat_rows(app: Flask, household: int, uid: str) -> list[tuple[Any, ...]]:
    """Who sat where, left and joined when, with what total, as stored."""
    with app.app_context(), scope.household(household):
        game = db.session.scalars(select(Game).where(Game.uid == uid)).one()
        rows = [
            (
                seat.position,
                seat.player.name,
                seat.total,
                seat.left_after,
                seat.joined_before,
                seat.joined_total,
                seat.returns,
            )
            for seat in game.seats
        ]
        db.session.remove()
    return rows


def upload(client: FlaskClient, document: dict[str, Any]) -> int:
    """Import ``document`` through the upload page; the id of the game stored."""
    response = client.post(
        "/games/import",
        data={"file": (io.BytesIO(json.dumps(document).encode()), "game.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.headers["Location"].rstrip("/").split("/")[-1])


_restores = itertools.count(1)


def reads_back(app: Flask, client: FlaskClient, game_id: int) -> dict[str, Any]:
    """The game's export imports as the same game (through the upload page) and its line of
    the household's backup restores as the same game: everything the file says, and every
    seat as stored. Returns the export."""
    out = exported(client, game_id)
    family = household_id(app, "Family")
    # Imported again beside it (its uid taken out: the household holds it already).
    again = upload(client, lasting(out, "uid"))
    assert lasting(exported(client, again), "uid") == lasting(out, "uid")
    with app.app_context(), scope.household(family):
        line = next(
            line for line in backup.export_lines() if json.loads(line).get("uid") == out["uid"]
        )
        db.session.remove()
    assert lasting(json.loads(line)) == lasting(out)
    # Restored into a household of its own, as a restore of the backup stores it.
    restored = household_id(app, f"Restored {next(_restores)}")
    with app.app_context(), scope.household(restored):
        report = import_lines(io.BytesIO((line + "\n").encode()))
        assert report.refused == [], report.refused
        assert len(report.stored) == 1
        back = [json.loads(line) for line in backup.export_lines()]
        db.session.remove()
    assert [lasting(document) for document in back] == [lasting(out)]
    assert seat_rows(app, restored, out["uid"]) == seat_rows(app, family, out["uid"])
    return out


# --- the finding: a join taken back, a joiner's total, twelve pairs -------------------------


def test_a_join_mended_by_a_leave_reads_back(app: Flask, client: FlaskClient) -> None:
    """Eve added after round 1 and "Eve leaves" before she played: the join is taken back (a
    leave comes after a round played), and the game reads back."""
    game_id = start_game(client, "twelve-step", ["Ann", "Ben", "Cy", "Dee"])
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5", "Dee": "K Q"})
    client.post(f"/games/{game_id}/join", data={"name": "Eve", "points": "highest"})
    assert exported(client, game_id)["players"][-1] == "Eve"
    left = client.post(f"/games/{game_id}/leave", data={"seat": "4", "sure": "yes"})
    assert left.status_code == 302, left.get_data(as_text=True)
    out = reads_back(app, client, game_id)
    assert out["players"] == ["Ann", "Ben", "Cy", "Dee"]
    assert "left" not in out and "joined" not in out
    # Eve may join again, and play.
    client.post(f"/games/{game_id}/join", data={"name": "Eve", "points": "zero"})
    save_round(client, game_id, "Eve", {"Ann": "5", "Ben": "5", "Cy": "5", "Dee": "5"})
    assert reads_back(app, client, game_id)["joined"] == {"Eve": {"before_round": 2, "total": 0}}


def test_a_join_before_another_is_taken_back_after_it(app: Flask, client: FlaskClient) -> None:
    """Eve and then Fay added: Eve's seat is not the last, so Fay's join is taken back first
    (a phone on Fay's seat keeps it); then Eve's."""
    game_id = start_game(client, "twelve-step", ["Ann", "Ben", "Cy"])
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5"})
    client.post(f"/games/{game_id}/join", data={"name": "Eve", "points": "zero"})
    client.post(f"/games/{game_id}/join", data={"name": "Fay", "points": "zero"})
    refused = client.post(f"/games/{game_id}/leave", data={"seat": "3", "sure": "yes"})
    assert refused.status_code == 422
    assert (
        "Eve has played no round yet: take back Fay&#39;s joining first (Fay leaves the same "
        "way)." in refused.get_data(as_text=True)
    )
    assert exported(client, game_id)["players"][-2:] == ["Eve", "Fay"]
    for seat in ("4", "3"):
        left = client.post(f"/games/{game_id}/leave", data={"seat": seat, "sure": "yes"})
        assert left.status_code == 302
    out = reads_back(app, client, game_id)
    assert out["players"] == ["Ann", "Ben", "Cy"] and "joined" not in out


def test_a_seat_joined_and_left_before_playing_is_taken_off_by_the_migration(
    app: Flask, client: FlaskClient
) -> None:
    """Before the board took a join back, "Eve leaves" stored Eve joined before round 2 and left
    after round 1 (the file it exported was refused): migration 0030 takes her seat off, Fay's
    seat and her phone's draft move up one, and the game reads back."""
    game_id = start_game(client, "twelve-step", ["Ann", "Ben", "Cy"])
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5"})
    for name in ("Eve", "Fay"):
        client.post(f"/games/{game_id}/join", data={"name": name, "points": "zero"})
    save_round(client, game_id, "Ben", {"Ann": "5", "Cy": "5", "Eve": "5", "Fay": "Q"})
    with app.app_context(), scope.household(household_id(app, "Family")):
        # As the board stored it before: Eve (after round 2 now) never played.
        game = db.session.get(Game, game_id)
        assert game is not None
        eve = game.seats[3]
        db.session.execute(delete(Hand).where(Hand.seat_id == eve.id))
        eve.joined_before, eve.left_after = 3, 2
        game.version += 1
        db.session.add(DraftHand(game_id=game_id, number=3, position=4, cards="K"))
        db.session.commit()
        db.session.remove()
        directory = app.extensions["migrate"].directory
        flask_migrate.downgrade(directory=directory, revision="0029")
        flask_migrate.upgrade(directory=directory)
    out = reads_back(app, client, game_id)
    assert out["players"] == ["Ann", "Ben", "Cy", "Fay"]
    assert out["joined"] == {"Fay": {"before_round": 2, "total": 0}}
    assert "left" not in out
    with app.app_context(), scope.household(household_id(app, "Family")):
        draft = db.session.scalars(select(DraftHand)).one()
        assert (draft.number, draft.position, draft.cards) == (3, 3, "K")


def thousand_a_card() -> dict[str, Any]:
    rules = get_ruleset("twelve-step").to_dict()
    rules["card_values"] = dict.fromkeys(rules["card_values"], MOST_CARD_POINTS)
    return {"base": "twelve-step", "card_values": rules["card_values"]}


def test_a_joiner_at_the_highest_total_under_a_thousand_a_card(
    app: Flask, client: FlaskClient
) -> None:
    """Seventeen rounds of Ben holding sixty cards at 1,000 each: 1,020,000 points, and Eve
    joins at that total; the game reads back."""
    hand = " ".join(["K"] * 8 + ["Q"] * 8 + ["J"] * 8 + ["10"] * 8 + ["9"] * 8 + ["8"] * 8)
    hand += " " + " ".join(["7"] * 8 + ["6"] * 4)
    assert len(hand.split()) == 60
    # Ann and Cy go out in turn (neither makes all twelve contracts, which would end the game).
    rounds = [
        ("Ann", {"Ben": hand, "Cy": "5"}, set())
        if number % 2
        else ("Cy", {"Ben": hand, "Ann": "5"}, set())
        for number in range(17)
    ]
    document = game_document(thousand_a_card(), ["Ann", "Ben", "Cy"], rounds)
    game_id = upload(client, document)
    assert exported(client, game_id)["standings"][-1]["total"] == 1_020_000
    joined = client.post(f"/games/{game_id}/join", data={"name": "Eve", "points": "highest"})
    assert joined.status_code == 302
    out = reads_back(app, client, game_id)
    assert out["joined"] == {"Eve": {"before_round": 18, "total": 1_020_000}}
    # The bound is the most a total reaches: the rules engine takes no card worth more.
    assert MAX_TOTAL == 500 * 60 * MOST_CARD_POINTS
    rules = thousand_a_card()
    for value in (MOST_CARD_POINTS + 1, -MOST_CARD_POINTS - 1):
        with pytest.raises(RuleSetError):
            get_ruleset({**rules, "card_values": {**rules["card_values"], "K": value}})


def test_a_joiner_at_the_highest_total_when_every_total_is_below_nothing(
    app: Flask, client: FlaskClient
) -> None:
    """House rules where every card scores -5 and going down and out in one turn -10: every
    total is below 0, and a joiner brought in at "the highest total" brings 0, the fewest the
    file takes."""
    rules = get_ruleset("continental").to_dict()
    values = dict.fromkeys(rules["card_values"], -5)
    document = game_document(
        {"base": "continental", "card_values": values},
        ["Ann", "Ben", "Cy"],
        [("Ann", {"Ben": "K", "Cy": "5 5"}, set())],
    )
    document["rounds"][0]["went_out_in_one_turn"] = True
    game_id = upload(client, document)
    totals = [standing["total"] for standing in exported(client, game_id)["standings"]]
    assert sorted(totals) == [-10, -10, -5]
    client.post(f"/games/{game_id}/join", data={"name": "Eve", "points": "highest"})
    assert reads_back(app, client, game_id)["joined"] == {"Eve": {"before_round": 2, "total": 0}}


def test_sixty_four_names_sixteen_at_the_table(app: Flask, client: FlaskClient) -> None:
    """Four at the table, and thirteen players who each join, play a round and leave: seventeen
    names, never more than five at once."""
    players = ["Ann", "Ben", "Cy", "Dee"]
    game_id = start_game(client, "twelve-step", players)
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"})
    for number in range(13):
        name = f"Guest {number}"
        joined = client.post(f"/games/{game_id}/join", data={"name": name, "points": "zero"})
        assert joined.status_code == 302
        assert exported(client, game_id)["players"][-1] == name, number
        # Each goes out in turn: nobody makes all twelve contracts, which would end the game.
        out = players[number % 4]
        at_table = [*players, name]
        save_round(client, game_id, out, {held: "5" for held in at_table if held != out})
        seat = str(len(players) + number)
        client.post(f"/games/{game_id}/leave", data={"seat": seat, "sure": "yes"})
    out = reads_back(app, client, game_id)
    assert len(out["players"]) == 17 and len(out["left"]) == 13


@pytest.mark.parametrize(
    ("names", "left", "joined", "says"),
    [
        (MAX_NAMES, {}, {}, f"at most {MAX_PLAYERS} players at the table at once"),
        # Sixty-four names, sixteen at a time: four rounds of sixteen.
        (
            MAX_NAMES,
            {seat: 1 + seat // 16 for seat in range(48)},
            {seat: (2 + (seat - 16) // 16, 0) for seat in range(16, MAX_NAMES)},
            None,
        ),
        (MAX_NAMES + 1, {}, {}, f"A game seats at most {MAX_NAMES} names in all"),
        # Seventeen at once in round 2.
        (17, {}, {16: (2, 0)}, "at most 16 players at the table at once; this one has 17."),
    ],
)
def test_the_table_counts_those_at_it_at_once(
    names: int, left: dict[int, int], joined: dict[int, tuple[int, int]], says: str | None
) -> None:
    rules = get_ruleset("twelve-step")
    lineup = Lineup(left=left, joined=joined)
    names_seated = [f"P{number}" for number in range(names)]
    refused = [str(problem) for problem in check_table(rules, names_seated, 0, lineup, 4)]
    if says is None:
        assert refused == []
    else:
        assert len(refused) == 1 and says in refused[0], refused


# --- comebacks in the file: the list forms -------------------------------------------------


def comeback_document(**fields: Any) -> dict[str, Any]:
    """Cy leaves after round 1 and is back before round 3; Dee joins before round 2, leaves
    after round 2 and is back before round 4 with 30 points."""
    everyone = {"Ben": "5", "Cy": "K", "Dee": "Q"}
    rounds = [
        ("Ann", {"Ben": "5", "Cy": "K"}, {"Cy"}),
        ("Ann", {"Ben": "5", "Dee": "Q"}, set()),
        ("Ann", {"Ben": "5", "Cy": "K"}, set()),
        ("Ann", everyone, set()),
    ]
    document = game_document("twelve-step", ["Ann", "Ben", "Cy", "Dee"], rounds)
    for played, (_, held, _made) in zip(document["rounds"], rounds, strict=True):
        played["players"] = {
            name: hand for name, hand in played["players"].items() if name == "Ann" or name in held
        }
    document.update(
        left={"Cy": 1, "Dee": [2]},
        joined={
            "Cy": {"before_round": 3},
            "Dee": [{"before_round": 2, "total": 10}, {"before_round": 4, "total": 30}],
        },
        **fields,
    )
    return document


def test_a_comeback_reads_with_its_total_and_its_contract() -> None:
    game = read_game_file(comeback_document())
    assert game.tally.lineup == Lineup(
        left={},
        joined={3: (2, 10)},
        returns={2: (Comeback(1, 3, None),), 3: (Comeback(2, 4, 30),)},
    )
    out = write_game_file(game.tally, game.rules.to_dict(), started=None)
    # One leave or join is written in the single form; more as a list.
    assert out["left"] == {"Cy": 1, "Dee": 2}
    assert out["joined"] == {
        "Cy": {"before_round": 3},
        "Dee": [{"before_round": 2, "total": 10}, {"before_round": 4, "total": 30}],
    }
    cy, dee = (
        {played["number"]: played["players"].get(name) for played in out["rounds"]}
        for name in ("Cy", "Dee")
    )
    assert cy[2] is None and dee[1] is None and dee[3] is None
    # Cy comes back on the contract he was working on (he made the first), with the total he
    # had.
    assert cy[3]["contract"] == 2 and cy[4]["contract"] == 2
    totals = {standing["player"]: standing["total"] for standing in out["standings"]}
    assert totals == {"Ann": 0, "Ben": 20, "Cy": 30, "Dee": 30 + 10}
    assert read_game_file(out).tally.lineup == game.tally.lineup


def test_a_comeback_is_stored_exported_and_restored(app: Flask, client: FlaskClient) -> None:
    game_id = upload(client, comeback_document())
    out = reads_back(app, client, game_id)
    assert out["joined"]["Dee"][1] == {"before_round": 4, "total": 30}
    with app.app_context(), scope.household(household_id(app, "Family")):
        seat = db.session.scalars(select(Seat).where(Seat.position == 3)).first()
        assert seat is not None and seat.returns == [[2, 4, 30]]


def test_a_comeback_pending_before_the_next_round_has_its_total() -> None:
    document = comeback_document()
    document["rounds"] = document["rounds"][:3]
    game = read_game_file(document)
    assert {standing.name: standing.total for standing in game.tally.standings}["Dee"] == 30


def test_a_comeback_before_the_next_round_is_taken_back_by_a_leave(
    app: Flask, client: FlaskClient
) -> None:
    """Dee, back before round 5 (as a file says), "leaves" before playing it: she is away again
    since round 2, as before her comeback, and the game reads back."""
    document = comeback_document()
    document["joined"]["Dee"][1]["before_round"] = 5
    document["rounds"][3]["players"].pop("Dee")
    game_id = upload(client, document)
    assert exported(client, game_id)["left"] == {"Cy": 1, "Dee": 2}
    left = client.post(f"/games/{game_id}/leave", data={"seat": "3", "sure": "yes"})
    assert left.status_code == 302, left.get_data(as_text=True)
    out = reads_back(app, client, game_id)
    assert out["left"] == {"Cy": 1, "Dee": 2}
    assert out["joined"]["Dee"] == {"before_round": 2, "total": 10}
    assert {standing["player"]: standing.get("left_after") for standing in out["standings"]} == {
        "Ann": None,
        "Ben": None,
        "Cy": None,
        "Dee": 2,
    }


@pytest.mark.parametrize(
    ("left", "joined", "says"),
    [
        ({"Cy": [1, 2]}, {}, "Cy left after round 2, but had left after round 1 and not come"),
        (
            {},
            {"Dee": [{"before_round": 2, "total": 0}, {"before_round": 3}]},
            "Dee joined before round 3 while at the table already.",
        ),
        ({"Cy": [3, 1]}, {}, '"left": give Cy\'s rounds in the order they were played'),
        (
            {},
            {"Dee": [{"before_round": 3, "total": 0}, {"before_round": 2, "total": 0}]},
            '"joined": give Dee\'s rounds in the order they were played',
        ),
        ({"Cy": [1, 7]}, {}, '"left": Cy left after round 7; give a round played, 1 to 4.'),
        ({}, {"Dee": [{"before_round": 2}]}, '"joined": Dee joined with None points'),
        ({"Cy": []}, {}, '"left": Cy left after round []; give a round played'),
    ],
)
def test_a_comeback_that_cannot_be_is_refused_by_name(
    left: dict[str, Any], joined: dict[str, Any], says: str
) -> None:
    document = comeback_document()
    document["left"], document["joined"] = left, joined
    with pytest.raises(GameFileError) as refused:
        read_game_file(document)
    assert any(problem.startswith(says) for problem in refused.value.problems), (
        refused.value.problems
    )


# --- every game the board can make --------------------------------------------------------

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")
HELD = ("5", "K Q", "9 9 JK", "A")
_IN_ROUND = re.compile(r'name="hands-(\d+)-cards"')

_join = st.tuples(st.just("join"), st.sampled_from(NAMES), st.sampled_from(("zero", "highest")))
_leave = st.tuples(st.just("leave"), st.integers(0, 15))
# Joins and leaves twice as often as the rest: most games come and go.
_step = st.one_of(
    st.tuples(st.just("round"), st.integers(0, 15), st.lists(st.sampled_from(HELD), min_size=6)),
    _join,
    _join,
    _leave,
    _leave,
    st.tuples(st.just("undo")),
    st.tuples(st.just("put back")),
)


def _take(client: FlaskClient, game_id: int, step: tuple[Any, ...]) -> None:
    """One thing the board does, as the scorer's phone sends it; a refusal is fine."""
    out = exported(client, game_id)
    names, rounds = out["players"], len(out["rounds"])
    if step[0] == "round":
        form = client.get(f"/games/{game_id}/rounds/new").get_data(as_text=True)
        seats = [int(seat) for seat in _IN_ROUND.findall(form)]
        if not seats or out["status"] != "in_progress":
            return
        went_out = names[seats[step[1] % len(seats)]]
        held = {names[seat]: step[2][index % 6] for index, seat in enumerate(seats)}
        save_round(client, game_id, went_out, held, expect=None)
    elif step[0] == "join":
        client.post(f"/games/{game_id}/join", data={"name": step[1], "points": step[2]})
    elif step[0] == "leave":
        seat = step[1] % len(names)
        client.post(f"/games/{game_id}/leave", data={"seat": str(seat), "sure": "yes"})
    elif step[0] == "undo" and rounds:
        client.post(f"/games/{game_id}/rounds/{rounds}/undo")
    elif step[0] == "put back":
        client.post(f"/games/{game_id}/rounds/{rounds + 1}/put-back")


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    rules=st.sampled_from(("twelve-step", "contract-rummy")),
    table=st.integers(2, 5),
    steps=st.lists(_step, min_size=1, max_size=16),
)
def test_every_game_the_board_makes_reads_back(
    app: Flask, client: FlaskClient, rules: str, table: int, steps: list[tuple[Any, ...]]
) -> None:
    game_id = start_game(client, rules, NAMES[:table])
    save_round(client, game_id, NAMES[0], {name: "5" for name in NAMES[1:table]}, expect=None)
    for step in steps:
        _take(client, game_id, step)
    out = reads_back(app, client, game_id)
    # What the examples hold (--hypothesis-show-statistics): games with comings and goings.
    event(f"left {len(out.get('left', {}))}, joined {len(out.get('joined', {}))}")
