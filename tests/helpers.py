"""Shared test helpers for anything that needs games: start one and save rounds through the
web pages, or write a game file to import.

    game_id = start_game(client, "twelve-step", ["Ann", "Ben", "Cy"])
    save_round(client, game_id, went_out="Ann", cards={"Ben": "K Q", "Cy": "5"}, made={"Ben"})
    document = game_document("contract-rummy", ["Ann", "Ben"], [("Ann", {"Ben": "K"}, set())])
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from io import BytesIO
from typing import Any, BinaryIO

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.history import backup

RoundSpec = tuple[str | None, Mapping[str, str], Iterable[str]]
"""(who went out or None, leftover cards by name for those who did not, names who made it)."""


def start_game(
    client: FlaskClient,
    rules: str = "twelve-step",
    players: Sequence[str] = ("Ann", "Ben", "Cy", "Dee"),
    first_dealer: str | None = None,
) -> int:
    """Start a game through ``/games/new`` and return its id (the form must be accepted)."""
    form: dict[str, str] = {"rules": rules, "start": "Start the game"}
    for seat, name in enumerate(players):
        form[f"players-{seat}"] = name
    form["first_dealer"] = str(players.index(first_dealer) if first_dealer else 0)
    response = client.post("/games/new", data=form)
    assert response.status_code == 302, response.get_data(as_text=True)
    location = response.headers["Location"]
    return int(location.rstrip("/").split("/")[-1])


def players_of(client: FlaskClient, game_id: int) -> list[str]:
    """The game's players in seating order (read from its game file)."""
    response = client.get(f"/games/{game_id}/export")
    assert response.status_code == 200
    players: list[str] = response.get_json()["players"]
    return players


def round_form(
    players: Sequence[str],
    went_out: str | None,
    cards: Mapping[str, str],
    made: Iterable[str] = (),
) -> dict[str, str]:
    """The fields of the round form for these entries (names as in ``players``)."""
    made = set(made)
    form: dict[str, str] = {
        "went_out": "nobody" if went_out is None else str(players.index(went_out))
    }
    for seat, name in enumerate(players):
        form[f"hands-{seat}-cards"] = cards.get(name, "")
        if name in made or name == went_out:
            form[f"hands-{seat}-made"] = "y"
    return form


def save_round(
    client: FlaskClient,
    game_id: int,
    went_out: str | None,
    cards: Mapping[str, str],
    made: Iterable[str] = (),
    *,
    expect: int | None = 302,
    extra: Mapping[str, str] | None = None,
) -> TestResponse:
    """Save the next round through ``/games/<id>/rounds/new``; by default it must be accepted
    (a redirect to the scoreboard). ``cards`` are the leftover cards by name."""
    form = round_form(players_of(client, game_id), went_out, cards, made)
    form["save"] = "Save round"
    form.update(extra or {})
    response = client.post(f"/games/{game_id}/rounds/new", data=form)
    if expect is not None:
        assert response.status_code == expect, response.get_data(as_text=True)
    return response


def import_game(client: FlaskClient, document: Mapping[str, Any]) -> int:
    """``document`` (a game file) uploaded through the import page: the new game's id."""
    answer = client.post(
        "/games/import",
        data={"file": (BytesIO(json.dumps(document).encode()), "game.json")},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return int(answer.headers["Location"].rstrip("/").split("/")[-1])


def game_document(
    rules: str | Mapping[str, Any],
    players: Sequence[str],
    rounds: Sequence[RoundSpec],
    **fields: Any,
) -> dict[str, Any]:
    """A game file (``scorekeeper-game`` version 1) as a person would write it."""
    document: dict[str, Any] = {
        "format": "scorekeeper-game",
        "version": 1,
        "rules": rules,
        "players": list(players),
        "rounds": [],
    }
    for went_out, cards, made in rounds:
        made = set(made)
        document["rounds"].append(
            {
                "went_out": went_out,
                "players": {
                    name: {
                        "made_contract": name == went_out or name in made,
                        "cards": "" if name == went_out else cards.get(name, ""),
                    }
                    for name in players
                },
            }
        )
    document.update(fields)
    return document


def twelve_step_to_the_end(players: Sequence[str] = ("Ann", "Ben", "Cy")) -> list[RoundSpec]:
    """A whole 12-Step game: the first player goes out every round, the second makes every
    contract too, the others never do; both finish in round 12 and the first wins on points."""
    first, second, *others = players
    holding = {second: "5", **{name: "K Q" for name in others}}
    return [(first, holding, {second}) for _ in range(12)]


def import_lines(stream: BinaryIO) -> backup.ImportReport:
    """Store the game on each line of ``stream`` and report on them all, as ``flask history
    import`` does (in an app context)."""
    report = backup.ImportReport()
    for line in backup.read_backup(stream):
        report.add(line)
    return report
