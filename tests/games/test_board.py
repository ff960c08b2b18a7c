"""The scoreboard: drawn once per game version and shared by every phone (never stale, and
never carrying another phone's CSRF token), and its refusals."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Player

from ..conftest import signed_in
from ..helpers import save_round, start_game

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def test_each_phone_gets_its_own_csrf_token_in_a_shared_drawing(app: Flask) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    scorer, watcher = signed_in(app, "ann"), signed_in(app, "ben", "scorer")
    app.config["WTF_CSRF_ENABLED"] = False
    game_id = start_game(scorer, "bellevue", ["Ann", "Ben", "Cy"])
    app.config["WTF_CSRF_ENABLED"] = True
    tokens = []
    for phone in (scorer, watcher):
        page = phone.get(f"/games/{game_id}").get_data(as_text=True)
        found = set(TOKEN.findall(page))
        assert len(found) == 1, found  # every form of the page carries this phone's token
        tokens.append(found.pop())
        assert "csrf-" not in page  # no placeholder left behind
    assert tokens[0] != tokens[1]
    # And the token works: the watcher calls a May I with the token from its own page.
    answer = watcher.post(
        f"/games/{game_id}/may-i", data={"csrf_token": tokens[1], "seat": "0", "change": "1"}
    )
    assert answer.status_code == 302


def test_a_saved_round_and_a_renamed_player_are_drawn_at_once(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben", "Cy"])
    before = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Enter round 1" in before
    save_round(client, game_id, went_out="Ann", cards={"Ben": "K Q", "Cy": "5"})
    after = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Enter round 2" in after
    with app.app_context():
        ben = db.session.query(Player).filter_by(name="Ben").one()
        ben_id = ben.id
    answer = client.post(f"/players/{ben_id}/rename", data={"name": "Benedict"})
    assert answer.status_code in (302, 303)
    renamed = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Benedict" in renamed


def test_an_unchanged_board_is_one_small_query(app: Flask, client: FlaskClient) -> None:
    from sqlalchemy import event

    game_id = start_game(client, "twelve-step", ["Ann", "Ben", "Cy"])
    for _ in range(5):
        save_round(client, game_id, went_out="Ann", cards={"Ben": "K Q", "Cy": "5"})
    client.get(f"/games/{game_id}")  # drawn once
    statements: list[str] = []
    with app.app_context():
        engine = db.engine
    listener = lambda *args: statements.append(args[2])  # noqa: E731
    event.listen(engine, "before_cursor_execute", listener)
    page = client.get(f"/games/{game_id}")
    event.remove(engine, "before_cursor_execute", listener)
    assert page.status_code == 200
    # Beside the one look-up of who is asking (their session, or the access version it was
    # kept under), one small query.
    asking = [s for s in statements if "FROM user_sessions" in s or "FROM access_versions" in s]
    assert len(asking) == 1, asking
    queries = [
        statement
        for statement in statements
        if not statement.startswith("BEGIN") and statement not in asking
    ]
    assert len(queries) == 1, queries


def test_a_may_i_on_a_finished_game_says_why_it_is_refused(client: FlaskClient) -> None:
    from ..helpers import game_document, twelve_step_to_the_end

    document = game_document("twelve-step", ["Ann", "Ben", "Cy"], twelve_step_to_the_end())
    import json
    from io import BytesIO

    answer = client.post(
        "/games/import",
        data={"file": (BytesIO(json.dumps(document).encode()), "game.json")},
        content_type="multipart/form-data",
    )
    game_id = int(answer.headers["Location"].rstrip("/").split("/")[-1])
    refused = client.post(
        f"/games/{game_id}/may-i", data={"seat": "0", "change": "1"}, headers={"HX-Request": "true"}
    )
    assert refused.status_code == 422
    assert "This game is over." in refused.get_data(as_text=True)
