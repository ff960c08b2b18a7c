"""Every option of rules.md's and more-games.md's tables that the score sheet keeps does on the
sheet what the spec says (issue 50, item 2), each set one way and the other, through a game
played on the app's pages: the points a hand scores, the bonus, a round with nobody out, the
players a game seats, the packs' jokers, who wins and how ties break, the contract each player
works on, where the game ends, and "May I". The options that rule melds (wild cards, runs,
lay-downs, liberating) are the referee's: the sheet reads none of them."""

from __future__ import annotations

import itertools
import re
import shutil
from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.rules import get_ruleset

from ..conftest import APP_SETTINGS, empty_postgres, signed_in
from ..helpers import save_round, start_game
from .test_options_on_the_sheet import _house_rules, _may_i
from .test_pages import field_errors, text

THREE = ("Ann", "Ben", "Cy")
Rules = str | dict[str, Any]


def cases(
    names: tuple[str, ...], values: list[tuple[Any, ...]], *, on_postgresql: tuple[int, ...]
) -> pytest.MarkDecorator:
    """Every case on SQLite, and the cases ``on_postgresql`` (their indexes) on PostgreSQL too.

    What these tests prove is the rules' reading, which is the same whatever the database; the
    database could matter only where it stores something a case reads back differently: house
    rules kept as JSON (a null, a list, a nested object), negative points, a refusal rolled back,
    a finished game's winners, May I counted by a query. So each test keeps on PostgreSQL one
    or two cases that store such a thing (mostly house rules), not all of them: every case on
    both databases made this file the slowest of the suite."""
    params = [pytest.param("sqlite", *value) for value in values]
    params += [
        pytest.param("postgresql", *values[index], marks=pytest.mark.postgres)
        for index in on_postgresql
    ]
    return pytest.mark.parametrize(("backend", *names), params, indirect=["backend"])


class Shared(NamedTuple):
    """A backend's app, its database and the household's owner signed in to it."""

    app: Flask
    uri: str
    client: FlaskClient


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Shared]]:
    """The app and database the module's cases share, one a backend, made when a case first
    asks for it: each case plays a game of its own (and saves its own house rules) and reads
    only that game back, so it needs no database of its own, and a new app and database cost
    more than most cases' game. (A module-scoped fixture parametrized with the cases would be
    made again for each case: pytest tells their parameters apart by the case's index.)"""
    made: dict[str, Shared] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path_factory.mktemp("instance")))
        yield made
    for app, uri, _client in made.values():
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
        if not uri.startswith("sqlite"):
            empty_postgres(uri)


@pytest.fixture
def backend(request: pytest.FixtureRequest, shared: dict[str, Shared]) -> Shared:
    """The module's app on the case's database (its parameter), made the first time."""
    name: str = request.param
    if name not in shared:
        if name == "sqlite":
            path = request.getfixturevalue("tmp_path_factory").mktemp("sheet") / "sheet.db"
            shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
            uri = f"sqlite:///{path}"
        else:
            uri = request.getfixturevalue("kept_postgres_uri")
        app = create_app({**APP_SETTINGS, "SQLALCHEMY_DATABASE_URI": uri})
        shared[name] = Shared(app, uri, signed_in(app, "owner"))
    return shared[name]


@pytest.fixture
def app(backend: Shared) -> Flask:
    return backend.app


@pytest.fixture
def client(backend: Shared) -> FlaskClient:
    """The household's owner, signed in."""
    return backend.client


# House rules are saved under a name no other case in the shared database has taken.
_NUMBERS = itertools.count(1)


def _slug(app: Flask, rules: Rules) -> str:
    """A preset's slug, or house rules saved from ``rules`` (named after what they change)."""
    if isinstance(rules, str):
        return rules
    name = ", ".join(f"{key} {value}" for key, value in rules.items() if key != "base")
    return _house_rules(app, f"#{next(_NUMBERS)} {name}"[:50], rules)


def _exported(client: FlaskClient, game_id: int) -> dict[str, Any]:
    document: dict[str, Any] = client.get(f"/games/{game_id}/export").get_json()
    return document


def _points(client: FlaskClient, game_id: int, number: int) -> dict[str, int]:
    played = _exported(client, game_id)["rounds"][number - 1]["players"]
    return {name: hand["points"] for name, hand in played.items()}


# Ben holds 10 9 A JK 2 when Ann goes out: rules.md's and more-games.md's card tables.
@cases(
    ("rules", "points"),
    [
        ("twelve-step", 10 + 5 + 20 + 50 + 50),
        ("bellevue", 5 + 5 + 15 + 50 + 20),
        ("contract-rummy", 10 + 9 + 15 + 15 + 2),
        ("shanghai", 10 + 9 + 20 + 50 + 2),
        ("liverpool", 10 + 9 + 15 + 15 + 2),
        ("carioca", 10 + 9 + 20 + 50 + 2),
        ("continental", 10 + 9 + 20 + 50 + 2),
        ({"base": "twelve-step", "card_values": {"A": 15, "joker": 25}}, 10 + 5 + 15 + 25 + 50),
        ({"base": "continental", "card_values": {"9": 5, "2": 5}}, 10 + 5 + 20 + 50 + 5),
    ],
    on_postgresql=(7,),
)
def test_card_values_score_the_hand_left(
    app: Flask, client: FlaskClient, rules: Rules, points: int
) -> None:
    game_id = start_game(client, _slug(app, rules), THREE)
    save_round(client, game_id, "Ann", {"Ben": "10 9 A JK 2", "Cy": "K"})
    assert _points(client, game_id, 1) == {"Ann": 0, "Ben": points, "Cy": 10}


# Ann makes her contract and goes out on the same turn.
@cases(
    ("rules", "bonus"),
    [
        ("continental", -10),
        ({"base": "continental", "down_and_out_bonus": 0}, 0),
        ({"base": "carioca", "down_and_out_bonus": -30}, -30),
        ({"base": "twelve-step", "down_and_out_bonus": 5}, 5),
    ],
    on_postgresql=(2,),
)
def test_the_down_and_out_bonus_is_the_goer_outs_points(
    app: Flask, client: FlaskClient, rules: Rules, bonus: int
) -> None:
    game_id = start_game(client, _slug(app, rules), THREE)
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "Q"})
    extra = {"went_out_in_one_turn": "y"} if bonus else {}
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "Q"}, extra=extra)
    assert _points(client, game_id, 1)["Ann"] == 0
    assert _points(client, game_id, 2)["Ann"] == bonus
    totals = {row["player"]: row["total"] for row in _exported(client, game_id)["standings"]}
    assert totals == {"Ann": bonus, "Ben": 20, "Cy": 20}


@cases(
    ("rules", "allowed"),
    [
        ("contract-rummy", True),
        ("twelve-step", False),
        ("continental", False),
        ({"base": "twelve-step", "nobody_out_allowed": True}, True),
        ({"base": "contract-rummy", "nobody_out_allowed": False}, False),
    ],
    on_postgresql=(1, 3),
)
def test_a_round_with_nobody_out(
    app: Flask, client: FlaskClient, rules: Rules, allowed: bool
) -> None:
    game_id = start_game(client, _slug(app, rules), THREE)
    answer = save_round(client, game_id, None, {"Ann": "K", "Ben": "Q 5", "Cy": "J"}, expect=None)
    if allowed:
        assert answer.status_code == 302
        # Everyone scores what they hold (a 5 is 5 in both presets' tables).
        assert _points(client, game_id, 1) == {"Ann": 10, "Ben": 15, "Cy": 10}
    else:
        assert answer.status_code == 422
        said = field_errors(text(answer))
        assert len(said) == 1 and "a round ends only when someone goes out" in said[0], said
        assert _exported(client, game_id)["rounds"] == []


def _start(client: FlaskClient, slug: str, players: int) -> Any:
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal", "Ida"][:players]
    form = {"rules": slug, "start": "Start the game", "first_dealer": "0"}
    form |= {f"players-{seat}": name for seat, name in enumerate(names)}
    return client.post("/games/new", data=form)


@cases(
    ("rules", "players", "seated"),
    [
        ("liverpool", 2, False),
        ("liverpool", 3, True),
        ({"base": "liverpool", "min_players": 2}, 2, True),
        ("contract-rummy", 6, False),
        ("contract-rummy", 5, True),
        ({"base": "contract-rummy", "max_players": None}, 6, True),
        ("carioca", 6, False),
        ({"base": "continental", "max_players": 4}, 5, False),
        ("continental", 5, True),
        ("shanghai", 9, False),
    ],
    on_postgresql=(5, 7),
)
def test_the_players_a_game_seats(
    app: Flask, client: FlaskClient, rules: Rules, players: int, seated: bool
) -> None:
    answer = _start(client, _slug(app, rules), players)
    assert (answer.status_code == 302) is seated, text(answer)
    if not seated:
        ruleset = get_ruleset(rules)
        limit = ruleset.min_players if players < ruleset.min_players else ruleset.max_players
        assert f"{limit} players" in text(answer)


# Three players: Contract Rummy's packs have players - 1 jokers (2), 12-Step's 2 a deck (4).
@cases(
    ("rules", "jokers", "held"),
    [
        ("contract-rummy", 3, False),
        ("contract-rummy", 2, True),
        ({"base": "contract-rummy", "packs": {"jokers_extra": 0}}, 3, True),
        ("twelve-step", 5, False),
        ("twelve-step", 4, True),
        ({"base": "twelve-step", "packs": {"jokers_per_deck": 3}}, 5, True),
    ],
    on_postgresql=(2,),
)
def test_the_packs_hold_so_many_jokers(
    app: Flask, client: FlaskClient, rules: Rules, jokers: int, held: bool
) -> None:
    game_id = start_game(client, _slug(app, rules), THREE)
    hand = " ".join(["JK"] * jokers)
    answer = save_round(client, game_id, "Ann", {"Ben": hand, "Cy": "K"}, expect=None)
    assert (answer.status_code == 302) is held, text(answer)
    if held:
        joker = dict(get_ruleset(rules).card_values)["joker"]
        assert _points(client, game_id, 1)["Ben"] == jokers * joker
    else:
        assert "joker" in text(answer)


def _to_contract_12(client: FlaskClient, game_id: int) -> None:
    """Ann makes every contract, and the last going out; Ben goes out in rounds 1-11 (so he
    works on contract 12 too) and holds a 5 in round 12: Ann 110, Ben 5."""
    for _number in range(11):
        save_round(client, game_id, "Ben", {"Ann": "K"}, made={"Ann"})
    save_round(client, game_id, "Ann", {"Ben": "5"})


@cases(
    ("rules", "winners"),
    [
        ("twelve-step", ["Ann"]),
        ({"base": "twelve-step", "winner": "lowest total"}, ["Ben"]),
    ],
    on_postgresql=(1,),
)
def test_who_wins(app: Flask, client: FlaskClient, rules: Rules, winners: list[str]) -> None:
    game_id = start_game(client, _slug(app, rules), ("Ann", "Ben"))
    _to_contract_12(client, game_id)
    document = _exported(client, game_id)
    assert document["status"] == "finished"
    assert {row["player"]: row["total"] for row in document["standings"]} == {"Ann": 110, "Ben": 5}
    assert document["winners"] == winners


@cases(
    ("rules", "bens_contract"),
    [
        ("twelve-step", 1),
        ("russian-rummy", 1),
        ("dummy-rummy", 2),
        ("bellevue", 2),
        ({"base": "twelve-step", "contract_order": "round"}, 2),
        ({"base": "bellevue", "contract_order": "own"}, 1),
    ],
    on_postgresql=(4,),
)
def test_the_contract_a_player_works_on(
    app: Flask, client: FlaskClient, rules: Rules, bens_contract: int
) -> None:
    """Ben does not make contract 1: kept until made (own), or round 2 plays contract 2."""
    game_id = start_game(client, _slug(app, rules), THREE)
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "Q"}, made={"Cy"})
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "Q"})
    second = _exported(client, game_id)["rounds"][1]["players"]
    assert (second["Ben"]["contract"], second["Cy"]["contract"]) == (bens_contract, 2)


@cases(
    ("rules", "rounds"),
    [
        ("contract-rummy", 7),
        ({"base": "contract-rummy", "contracts": "first 2"}, 2),
        ({"base": "carioca", "contracts": "first 3"}, 3),
    ],
    on_postgresql=(1,),
)
def test_the_game_ends_after_its_last_contract(
    app: Flask, client: FlaskClient, rules: Rules, rounds: int
) -> None:
    if isinstance(rules, str):
        pass
    elif rules.get("contracts") == "first 2":
        rules = rules | {"contracts": get_ruleset("contract-rummy").to_dict()["contracts"][:2]}
    elif rules.get("contracts") == "first 3":
        rules = rules | {"contracts": get_ruleset("carioca").to_dict()["contracts"][:3]}
    game_id = start_game(client, _slug(app, rules), THREE)
    for number in range(1, rounds + 1):
        assert _exported(client, game_id)["status"] == "in_progress", number
        save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "Q"})
    assert _exported(client, game_id)["status"] == "finished"
    # No round after the last: the sheet takes none.
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "Q"}, expect=None)
    assert len(_exported(client, game_id)["rounds"]) == rounds


def _three_rounds(rules: Rules) -> dict[str, Any]:
    """``rules`` played in three rounds (its first three contracts)."""
    data: dict[str, Any] = {"base": rules} if isinstance(rules, str) else dict(rules)
    data["contracts"] = get_ruleset(data["base"]).to_dict()["contracts"][:3]
    return data


@cases(
    ("rules", "winners"),
    [
        ("carioca", ["Ann"]),
        ("shanghai", ["Ann", "Ben"]),
        ("liverpool", ["Ann", "Ben"]),
        ({"base": "carioca", "tie_break": "share"}, ["Ann", "Ben"]),
        ({"base": "shanghai", "tie_break": "most rounds won"}, ["Ann"]),
        ({"base": "continental", "tie_break": "lowest total"}, ["Ann", "Ben"]),
    ],
    on_postgresql=(4,),
)
def test_a_tie_at_the_end(
    app: Flask, client: FlaskClient, rules: Rules, winners: list[str]
) -> None:
    """Ann and Ben end on 20 points each; Ann went out in two rounds, Ben in one."""
    game_id = start_game(client, _slug(app, _three_rounds(rules)), THREE)
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "K Q J"})
    save_round(client, game_id, "Ann", {"Ben": "5 5", "Cy": "K Q J"})
    save_round(client, game_id, "Ben", {"Ann": "K Q", "Cy": "K Q J"})
    document = _exported(client, game_id)
    assert document["status"] == "finished"
    totals = {row["player"]: row["total"] for row in document["standings"]}
    assert totals == {"Ann": 20, "Ben": 20, "Cy": 90}
    assert document["winners"] == winners


@cases(
    ("rules", "taken"),
    [
        ("carioca", 0),
        ("shanghai", 3),
        ("bellevue", 3),
        ("liverpool", None),
        ("continental", None),
        ({"base": "carioca", "may_i": {"allowed": True}}, None),
        ({"base": "liverpool", "may_i": {"limit": 2}}, 2),
        ({"base": "shanghai", "may_i": {"allowed": False}}, 0),
    ],
    on_postgresql=(6,),
)
def test_may_i_is_played_so_often(
    app: Flask, client: FlaskClient, rules: Rules, taken: int | None
) -> None:
    """Ben calls May I six times in round 1: none (not played), up to the limit, or all six."""
    game_id = start_game(client, _slug(app, rules), THREE)
    answers = [_may_i(client, game_id, 1).status_code for _call in range(6)]
    calls = 6 if taken is None else taken
    assert answers == [200] * calls + [422] * (6 - calls)


@cases(
    ("rules", "dealt"),
    [
        ("twelve-step", [13, 13, 13, 13, 13]),
        ("bellevue", [11, 11, 11, 11, 11]),
        ("contract-rummy", [10, 10, 10, 12, 12]),
        ("shanghai", [11, 11, 11, 11, 11]),
        ("liverpool", [10, 10, 10, 10, 12]),
        ("carioca", [12, 12, 12, 12, 12]),
        ("continental", [7, 8, 9, 10, 11]),
        ({"base": "shanghai", "cards_dealt": 7}, [7, 7, 7, 7, 7]),
        ({"base": "liverpool", "cards_dealt": [10, 10, 10, 12, 12, 12, 12]}, [10, 10, 10, 12, 12]),
    ],
    on_postgresql=(8,),
)
def test_the_board_says_how_many_cards_each_round_deals(
    app: Flask, client: FlaskClient, rules: Rules, dealt: list[int]
) -> None:
    game_id = start_game(client, _slug(app, rules), THREE)
    said = []
    for _number in dealt:
        board = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text(client.get(f"/games/{game_id}"))))
        found = re.search(r"deals round (\d+): (\d+) cards each", board)
        assert found is not None, board
        said.append((int(found.group(1)), int(found.group(2))))
        save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "Q"})
    assert said == list(enumerate(dealt, start=1))


@cases(
    ("limit_per", "ben", "cy"),
    [("contract", 422, 200), ("game", 422, 422)],
    on_postgresql=(1,),
)
def test_a_may_i_limit_follows_a_kept_contract(
    app: Flask, client: FlaskClient, limit_per: str, ben: int, cy: int
) -> None:
    """One May I per contract in a kept-contract game: Ben, still on contract 1 in round 2,
    has none left; Cy, on contract 2, has one afresh (for the whole game: neither has)."""
    rules = {"base": "twelve-step", "may_i": {"limit": 1, "limit_per": limit_per}}
    game_id = start_game(client, _slug(app, rules), THREE)
    assert [_may_i(client, game_id, seat).status_code for seat in (1, 2)] == [200, 200]
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "Q"}, made={"Cy"})
    assert [_may_i(client, game_id, seat).status_code for seat in (1, 2)] == [ben, cy]
