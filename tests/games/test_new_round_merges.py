"""Two phones enter the same new round (issue 23, item 1): the second save merges into the
round the first stored, against the blank form it was opened as. Typed the same, it is told the
round is stored as it typed it; a hand it left blank keeps what is stored; a part typed
differently is shown side by side, nothing stored until chosen, and the choice is stored as a
correction of that round, logged under whoever chose."""

from __future__ import annotations

import html
import io
import json
import re
import threading

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, select
from sqlalchemy import text as sql

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.games import changelog
from scorekeeper.models import GameEvent

from ..conftest import family_id, signed_in
from ..helpers import game_document, round_form, start_game, twelve_step_to_the_end
from ..postgres import wait_for_lock_waiters
from .test_caching import version_of

FOUR = ("Ann", "Ben", "Cy", "Dee")
HX = {"HX-Request": "true"}
HIDDEN = ("number", "token", "version", "rounds_version", "base", "clashes", "yours")


def text(response: object) -> str:
    return response.get_data(as_text=True)  # type: ignore[attr-defined]


def hidden_fields(page: str) -> dict[str, str]:
    """The form's hidden fields as the browser sends them back."""
    found = {}
    for name in HIDDEN:
        value = re.search(rf'name="{name}" value="([^"]*)"', page)
        if value is not None:
            found[name] = html.unescape(value.group(1))
    return found


def stored(client: FlaskClient, game_id: int) -> list[dict[str, object]]:
    rounds: list[dict[str, object]] = client.get(f"/games/{game_id}/export").get_json()["rounds"]
    return rounds


def cards(client: FlaskClient, game_id: int, number: int, name: str) -> str:
    players = stored(client, game_id)[number - 1]["players"]
    return str(players[name]["cards"])  # type: ignore[index]


def log_lines(app: Flask, game_id: int) -> list[tuple[str, str]]:
    with app.app_context(), scope.household(family_id(app)):
        lines = db.session.execute(
            select(GameEvent.text, GameEvent.actor)
            .where(GameEvent.game_id == game_id)
            .order_by(GameEvent.id)
        ).all()
        db.session.remove()
    # The log keeps messages (games.changelog): read here in English.
    return [(str(changelog.read(line)), actor) for line, actor in lines]


def two_phones_open_round_one(
    app: Flask, client: FlaskClient
) -> tuple[int, FlaskClient, dict[str, str]]:
    """Both phones open "Enter round 1"; the first (``client``) saves Ann out, Ben 7, Cy JK 5 5,
    Dee A 10 3. Returns the game, the second phone (Bea's account) and the form it opened."""
    game_id = start_game(client, "twelve-step", FOUR)
    bea = signed_in(app, "bea")
    opened = hidden_fields(text(bea.get(f"/games/{game_id}/rounds/new")))
    first = hidden_fields(text(client.get(f"/games/{game_id}/rounds/new")))
    assert opened["number"] == first["number"] == "1"
    typed = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK 5 5", "Dee": "A 10 3"})
    saved = client.post(f"/games/{game_id}/rounds/new", data=typed | first | {"save": "1"})
    assert saved.status_code == 302
    return game_id, bea, opened


def test_typed_the_same_it_is_told_the_round_is_stored_as_it_typed_it(
    app: Flask, client: FlaskClient
) -> None:
    game_id, bea, opened = two_phones_open_round_one(app, client)
    version = version_of(app, game_id)
    # The same round, typed with other spacing and case.
    typed = round_form(FOUR, "Ann", {"Ben": " 7", "Cy": "jk 5  5", "Dee": "A 10 3"})
    answer = bea.post(f"/games/{game_id}/rounds/new", data=typed | opened | {"save": "1"})
    assert answer.status_code == 302 and answer.headers["Location"] == f"/games/{game_id}"
    board = html.unescape(text(bea.get(f"/games/{game_id}")))
    assert "Round 1 is stored as you typed it: another phone saved it first." in board
    assert 'class="flash flash-success"' in board or "flash-success" in board
    assert len(stored(client, game_id)) == 1 and version_of(app, game_id) == version
    assert [line for line, _ in log_lines(app, game_id) if "corrected" in line] == []


def test_typed_the_same_from_app_js_it_goes_to_the_board(app: Flask, client: FlaskClient) -> None:
    game_id, bea, opened = two_phones_open_round_one(app, client)
    typed = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK 5 5", "Dee": "A 10 3"})
    answer = bea.post(
        f"/games/{game_id}/rounds/new", data=typed | opened | {"save": "1"}, headers=HX
    )
    assert answer.status_code == 204 and answer.headers["HX-Redirect"] == f"/games/{game_id}"
    assert len(stored(client, game_id)) == 1


def test_a_hand_left_blank_keeps_the_stored_hand(app: Flask, client: FlaskClient) -> None:
    game_id, bea, opened = two_phones_open_round_one(app, client)
    typed = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "", "Dee": ""})
    answer = bea.post(f"/games/{game_id}/rounds/new", data=typed | opened | {"save": "1"})
    assert answer.status_code == 302
    board = html.unescape(text(bea.get(f"/games/{game_id}")))
    assert "Round 1 is stored as you typed it" in board
    assert "Cy's and Dee's hands, left blank here, stay as the other phone entered them." in board
    assert (cards(client, game_id, 1, "Cy"), cards(client, game_id, 1, "Dee")) == (
        "JK 5 5",
        "A 10 3",
    )


def test_a_hand_typed_differently_is_shown_side_by_side_and_nothing_is_stored(
    app: Flask, client: FlaskClient
) -> None:
    game_id, bea, opened = two_phones_open_round_one(app, client)
    version = version_of(app, game_id)
    typed = round_form(FOUR, "Ann", {"Ben": "", "Cy": "JK", "Dee": "A 10 3"})
    answer = bea.post(f"/games/{game_id}/rounds/new", data=typed | opened | {"save": "1"})
    assert answer.status_code == 409
    raw = text(answer)
    page = html.unescape(raw)
    assert "Round 1 was stored on another phone meanwhile; nothing was saved." in page
    assert "Round 1 reads: Ann went out; Ben 7, Cy JK 5 5, Dee A 10 3." in page
    assert "<h1>Correct round 1</h1>" in page
    assert f'action="/games/{game_id}/rounds/1/edit"' in page
    assert re.search(r"Stored now</small> JK 5 5</span>", page)
    assert re.search(r"Yours</small> JK</span>", page)
    assert [part for part in ("-1", "0", "1", "2", "3") if f'id="clash-{part}"' in page] == ["2"]
    # Ben, left blank, shows what is stored; Cy shows this phone's typing until it chooses.
    assert 'name="hands-1-cards" value="7"' in page
    assert 'name="hands-2-cards" value="JK"' in page
    assert len(stored(client, game_id)) == 1 and version_of(app, game_id) == version
    assert cards(client, game_id, 1, "Cy") == "JK 5 5"

    # Saved again without choosing: refused, still nothing stored.
    shown = hidden_fields(raw)
    merged = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK", "Dee": "A 10 3"})
    again = bea.post(f"/games/{game_id}/rounds/1/edit", data=merged | shown | {"save": "1"})
    assert again.status_code == 409
    assert "Choose for Cy: what is stored now, or yours. Nothing was saved." in html.unescape(
        text(again)
    )
    assert cards(client, game_id, 1, "Cy") == "JK 5 5" and version_of(app, game_id) == version


def test_yours_chosen_is_stored_as_a_correction_logged_under_whoever_chose(
    app: Flask, client: FlaskClient
) -> None:
    game_id, bea, opened = two_phones_open_round_one(app, client)
    typed = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK", "Dee": ""})
    answer = bea.post(f"/games/{game_id}/rounds/new", data=typed | opened | {"save": "1"})
    page = text(answer)
    assert answer.status_code == 409 and 'id="clash-2"' in page and 'id="clash-3"' not in page
    merged = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK", "Dee": "A 10 3"})
    chosen = bea.post(
        f"/games/{game_id}/rounds/1/edit",
        data=merged | hidden_fields(page) | {"save": "1", "pick-2": "mine"},
    )
    assert chosen.status_code == 302
    assert len(stored(client, game_id)) == 1
    assert (cards(client, game_id, 1, "Cy"), cards(client, game_id, 1, "Dee")) == ("JK", "A 10 3")
    last, actor = log_lines(app, game_id)[-1]
    assert last.startswith("Round 1 corrected: Cy's cards JK 5 5 → JK")
    assert "Dee" not in last and actor == "bea"


def test_stored_now_chosen_leaves_the_round_as_it_is(app: Flask, client: FlaskClient) -> None:
    game_id, bea, opened = two_phones_open_round_one(app, client)
    typed = round_form(FOUR, "Ann", {"Ben": "8", "Cy": "JK", "Dee": "A 10 3"})
    page = text(bea.post(f"/games/{game_id}/rounds/new", data=typed | opened | {"save": "1"}))
    assert 'id="clash-1"' in page and 'id="clash-2"' in page
    version = version_of(app, game_id)
    # As a browser sends it: the fields hold the picked side (app.js puts it there).
    merged = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK 5 5", "Dee": "A 10 3"})
    picks = {"save": "1", "pick-1": "stored", "pick-2": "stored"}
    chosen = bea.post(f"/games/{game_id}/rounds/1/edit", data=merged | hidden_fields(page) | picks)
    assert chosen.status_code == 302
    assert "Round 1 stays as it is stored." in html.unescape(text(bea.get(f"/games/{game_id}")))
    assert version_of(app, game_id) == version
    assert [line for line, _ in log_lines(app, game_id) if "corrected" in line] == []


def test_who_went_out_typed_differently_is_chosen_too(app: Flask, client: FlaskClient) -> None:
    game_id, bea, opened = two_phones_open_round_one(app, client)
    typed = round_form(FOUR, "Ben", {"Ann": "5", "Cy": "JK 5 5", "Dee": "A 10 3"})
    answer = bea.post(f"/games/{game_id}/rounds/new", data=typed | opened | {"save": "1"})
    assert answer.status_code == 409
    raw = text(answer)
    page = html.unescape(raw)
    words = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "Who went out: which is right? Stored now Ann went out Yours Ben went out" in words
    assert "Ann: which is right? Stored now went out Yours 5" in words
    # Ben going out is what was typed for his hand: it differs from his stored 7 too.
    assert "Ben: which is right? Stored now 7 Yours went out" in words
    assert 'id="clash-2"' not in page and 'id="clash-3"' not in page
    merged = round_form(FOUR, "Ben", {"Ann": "5", "Cy": "JK 5 5", "Dee": "A 10 3"})
    picks = {"save": "1", "pick--1": "mine", "pick-0": "mine", "pick-1": "mine"}
    chosen = bea.post(f"/games/{game_id}/rounds/1/edit", data=merged | hidden_fields(raw) | picks)
    assert chosen.status_code == 302
    (only,) = stored(client, game_id)
    assert only["went_out"] == "Ben" and cards(client, game_id, 1, "Ann") == "5"


def test_a_game_moved_on_past_the_round_overwrites_nothing(app: Flask, client: FlaskClient) -> None:
    game_id, bea, opened = two_phones_open_round_one(app, client)
    second = round_form(FOUR, "Ben", {"Ann": "9", "Cy": "9", "Dee": "9"})
    assert client.post(f"/games/{game_id}/rounds/new", data=second | {"save": "1"}).status_code == (
        302
    )
    before = stored(client, game_id)
    version = version_of(app, game_id)

    typed = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "K", "Dee": "A 10 3"})
    answer = bea.post(f"/games/{game_id}/rounds/new", data=typed | opened | {"save": "1"})
    assert answer.status_code == 409
    page = html.unescape(text(answer))
    assert "<h1>Correct round 1</h1>" in page and 'id="clash-2"' in page
    assert stored(client, game_id) == before and version_of(app, game_id) == version

    # Typed as stored: told so, and round 2 is not touched either.
    same = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK 5 5", "Dee": "A 10 3"})
    answer = bea.post(f"/games/{game_id}/rounds/new", data=same | opened | {"save": "1"})
    assert answer.status_code == 302
    assert "Round 1 is stored as you typed it" in html.unescape(text(bea.get(f"/games/{game_id}")))
    assert stored(client, game_id) == before and version_of(app, game_id) == version


def test_two_phones_saving_the_same_new_round_at_once_on_postgresql_merge(
    app: Flask, client: FlaskClient, database_uri: str
) -> None:
    """Both saves lock the game's row first: the second waits for the first, then finds round
    1 stored and merges into it (a clash: shown, not stored) instead of storing over it."""
    if not database_uri.startswith("postgresql"):
        pytest.skip("SQLite serialises writes with BEGIN IMMEDIATE")
    game_id = start_game(client, "twelve-step", FOUR)
    phones = [signed_in(app, "bea"), signed_in(app, "cal")]
    opened = [hidden_fields(text(phone.get(f"/games/{game_id}/rounds/new"))) for phone in phones]
    typed = [
        round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK 5 5", "Dee": "A 10 3"}),
        round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK 5", "Dee": "A 10 3"}),
    ]
    answers: list[int] = []
    merged: list[str] = []

    def save(phone: FlaskClient, form: dict[str, str]) -> None:
        answer = phone.post(f"/games/{game_id}/rounds/new", data=form | {"save": "1"})
        answers.append(answer.status_code)
        merged.append(text(answer))

    holder = create_engine(database_uri)
    try:
        with holder.connect() as held:
            held.execute(sql("SELECT id FROM games WHERE id = :id FOR UPDATE"), {"id": game_id})
            threads = [
                threading.Thread(target=save, args=(phone, form | made_on))
                for phone, form, made_on in zip(phones, typed, opened, strict=True)
            ]
            for thread in threads:
                thread.start()
            wait_for_lock_waiters(database_uri, 2)  # both requests wait on the row
            held.commit()
        for thread in threads:
            thread.join(timeout=30)
    finally:
        holder.dispose()
    assert sorted(answers) == [302, 409]
    (page,) = [page for page, status in zip(merged, answers, strict=True) if status == 409]
    assert "Round 1 was stored on another phone meanwhile" in page and 'id="clash-2"' in page
    assert len(stored(client, game_id)) == 1
    assert cards(client, game_id, 1, "Cy") in ("JK 5 5", "JK 5")
    assert [line for line, _ in log_lines(app, game_id) if "corrected" in line] == []


def test_a_round_that_ended_the_game_merges_too(app: Flask, client: FlaskClient) -> None:
    """The first phone's round ended the game: the second's save of it is still merged into
    it, not turned away as "this game is over" with its typing dropped."""
    three = ("Ann", "Ben", "Cy")
    document = game_document("twelve-step", three, twelve_step_to_the_end(three)[:11])
    upload = {"file": (io.BytesIO(json.dumps(document).encode()), "game.json")}
    answer = client.post("/games/import", data=upload, content_type="multipart/form-data")
    assert answer.status_code == 302
    game_id = int(answer.headers["Location"].rstrip("/").split("/")[-1])
    bea = signed_in(app, "bea")
    opened = hidden_fields(text(bea.get(f"/games/{game_id}/rounds/new")))
    first = hidden_fields(text(client.get(f"/games/{game_id}/rounds/new")))
    assert opened["number"] == first["number"] == "12"
    last = round_form(three, "Ann", {"Ben": "5", "Cy": "K Q"}, {"Ben"})
    assert (
        client.post(f"/games/{game_id}/rounds/new", data=last | first | {"save": "1"}).status_code
        == 302
    )
    assert "Game over" in text(client.get(f"/games/{game_id}"))

    other = round_form(three, "Ann", {"Ben": "5", "Cy": "K"}, {"Ben"})
    answer = bea.post(f"/games/{game_id}/rounds/new", data=other | opened | {"save": "1"})
    assert answer.status_code == 409
    page = html.unescape(text(answer))
    assert "<h1>Correct round 12</h1>" in page and 'id="clash-2"' in page
    assert re.search(r"Stored now</small> K Q</span>", page)
    assert cards(client, game_id, 12, "Cy") == "K Q"

    answer = bea.post(f"/games/{game_id}/rounds/new", data=last | opened | {"save": "1"})
    assert answer.status_code == 302
    assert "Round 12 is stored as you typed it" in html.unescape(text(bea.get(f"/games/{game_id}")))
    assert len(stored(client, game_id)) == 12
