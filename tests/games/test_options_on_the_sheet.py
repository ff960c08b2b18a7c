"""Issue 50 item 2: the house-rule options that touch scoring and the end do on the score sheet
what the editor and the rules page say: a "May I" limit for the whole game counts across its
rounds, and the tie-break by rounds won decides a kept-contract game's tie too."""

from __future__ import annotations

import html
import json
from io import BytesIO
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import house_rules, scope
from scorekeeper.extensions import db

from ..conftest import family_id
from ..helpers import game_document, save_round, start_game
from .test_pages import text

THREE = ("Ann", "Ben", "Cy")


def _house_rules(app: Flask, name: str, options: dict[str, Any]) -> str:
    with app.test_request_context(), scope.household(family_id(app)):
        slug = house_rules.save(name, options).slug
        db.session.commit()
    return slug


def _may_i(client: FlaskClient, game_id: int, seat: int) -> Any:
    return client.post(
        f"/games/{game_id}/may-i",
        data={"seat": str(seat), "change": "1"},
        headers={"HX-Request": "true"},
    )


def test_a_may_i_limit_per_game_counts_across_the_rounds(app: Flask, client: FlaskClient) -> None:
    slug = _house_rules(
        app, "Twice a game", {"base": "contract-rummy", "may_i": {"limit": 2, "limit_per": "game"}}
    )
    game_id = start_game(client, slug, THREE)
    board = text(client.get(f"/games/{game_id}"))
    assert "May I this game" in board and "2 per game" in board
    assert _may_i(client, game_id, 1).status_code == 200
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5"})
    board = text(client.get(f"/games/{game_id}"))
    assert "May I this round" not in board
    # Ben has one left in round 2, not two afresh.
    assert _may_i(client, game_id, 1).status_code == 200
    refused = _may_i(client, game_id, 1)
    assert refused.status_code == 422
    assert "Ben has used all 2 May I for this game." in text(refused)
    save_round(client, game_id, "Cy", {"Ann": "K", "Ben": "5"})
    assert _may_i(client, game_id, 1).status_code == 422
    # The others still have theirs.
    assert _may_i(client, game_id, 0).status_code == 200


def test_a_may_i_limit_per_contract_starts_afresh_with_the_next_contract(
    app: Flask, client: FlaskClient
) -> None:
    slug = _house_rules(app, "Once a contract", {"base": "contract-rummy", "may_i": {"limit": 1}})
    game_id = start_game(client, slug, THREE)
    assert "May I this round" in text(client.get(f"/games/{game_id}"))
    assert _may_i(client, game_id, 1).status_code == 200
    refused = _may_i(client, game_id, 1)
    assert refused.status_code == 422
    assert "Ben has used their one May I for this contract." in text(refused)
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5"})
    assert _may_i(client, game_id, 1).status_code == 200


def _imported(client: FlaskClient, document: dict[str, Any]) -> int:
    answer = client.post(
        "/games/import",
        data={"file": (BytesIO(json.dumps(document).encode()), "game.json")},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 302, text(answer)
    return int(answer.headers["Location"].rstrip("/").split("/")[-1])


def _level_makers() -> list[tuple[str | None, dict[str, str], set[str]]]:
    """12-Step where Ann and Ben both make contract 12 in round 12 on 40 points each: Ben
    goes out in rounds 1-4 (Ann holds a K, 10), Ann in rounds 5-12 (Ben holds a 5)."""
    rounds: list[tuple[str | None, dict[str, str], set[str]]] = []
    for number in range(1, 13):
        if number <= 4:
            rounds.append(("Ben", {"Ann": "K", "Cy": "K Q"}, {"Ann"}))
        else:
            rounds.append(("Ann", {"Ben": "5", "Cy": "K Q"}, {"Ben"}))
    return rounds


def _result(client: FlaskClient, rules: dict[str, Any]) -> tuple[dict[str, Any], str]:
    game_id = _imported(client, game_document(rules, list(THREE), _level_makers()))
    document: dict[str, Any] = client.get(f"/games/{game_id}/export").get_json()
    return document, html.unescape(text(client.get(f"/games/{game_id}")))


def test_the_rounds_won_tie_break_decides_between_makers_of_the_last_contract(
    app: Flask, client: FlaskClient
) -> None:
    document, board = _result(client, {"base": "twelve-step", "tie_break": "most rounds won"})
    assert document["winners"] == ["Ann"], document["standings"]
    assert [row["total"] for row in document["standings"][:2]] == [40, 40]
    said = (
        "Ann and Ben both made contract 12 in round 12; Ann and Ben both have 40 points, and "
        "Ann went out in 8 rounds to Ben's 4 and wins."
    )
    assert document["tie_break"] == said
    assert said in board
    assert "whoever went out in the most rounds wins" in board


def test_the_other_tie_breaks_still_share_between_level_makers(
    app: Flask, client: FlaskClient
) -> None:
    for tie_break in ("lowest total", "share"):
        document, _ = _result(client, {"base": "twelve-step", "tie_break": tie_break})
        assert document["winners"] == ["Ann", "Ben"], tie_break
