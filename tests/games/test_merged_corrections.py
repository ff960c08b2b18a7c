"""Corrections merge, never overwrite (issue 23, item 1): a correction carries the round as
the phone first saw it; when another phone corrected the round meanwhile, the conflict page's
form holds the round as stored now with this phone's changes merged in hand by hand, the
hands both phones changed are shown side by side to choose, nothing is saved until they are
chosen, and the change log says exactly what the re-apply changed."""

from __future__ import annotations

import re
import threading

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine
from sqlalchemy import text as sql

from ..conftest import signed_in
from ..helpers import round_form, save_round, start_game
from ..postgres import wait_for_lock_waiters

FOUR = ("Ann", "Ben", "Cy", "Dee")
FIELDS = ("number", "token", "version", "rounds_version", "base", "clashes")


def text(response: object) -> str:
    return response.get_data(as_text=True)  # type: ignore[attr-defined]


def hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert found is not None, f"no {name} on the page"
    return found.group(1).replace("&#34;", '"').replace("&quot;", '"')


def fields(page: str) -> dict[str, str]:
    return {name: hidden(page, name) for name in FIELDS if f'name="{name}"' in page}


def cards_of(client: FlaskClient, game_id: int, name: str) -> str:
    stored = client.get(f"/games/{game_id}/export").get_json()["rounds"][0]["players"][name]
    return str(stored["cards"])


def log_of(client: FlaskClient, game_id: int) -> str:
    return text(client.get(f"/games/{game_id}"))


def test_a_clean_merge_is_saved_at_once_and_says_what_the_other_phone_changed(
    client: FlaskClient,
) -> None:
    """Issue 35, item 3: two phones correct different hands of one round at once; the second
    is merged with the first and stored there and then (no second tap), and told what the
    other phone had changed."""
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "7", "Cy": "JK 5 5", "Dee": "A 10 3"})
    address = f"/games/{game_id}/rounds/1/edit"
    phone_b = fields(text(client.get(address)))
    phone_d = fields(text(client.get(address)))

    # B fixes Cy's cards.
    b_typed = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK 5", "Dee": "A 10 3"})
    assert client.post(address, data=b_typed | phone_b | {"save": "1"}).status_code == 302
    # D, on the round as it first saw it, fixes Dee's: stored at once, B's fix kept.
    d_typed = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK 5 5", "Dee": "A 10"})
    saved = client.post(address, data=d_typed | phone_d | {"save": "1"})
    assert saved.status_code == 302
    assert cards_of(client, game_id, "Cy") == "JK 5"
    assert cards_of(client, game_id, "Dee") == "A 10"
    board = log_of(client, game_id)
    assert (
        "Round 1 corrected. Another phone had changed round 1 meanwhile, and that stays: " in board
    )
    assert "Cy JK 5." in board
    assert "Dee&#39;s cards A 10 3 → A 10" in board or "Dee's cards A 10 3 → A 10" in board
    assert "JK 5 → JK 5 5" not in board

    # From app.js: the same, answered 204 to the board.
    phone_b = fields(text(client.get(address)))
    phone_d = fields(text(client.get(address)))
    b_typed = round_form(FOUR, "Ann", {"Ben": "8", "Cy": "JK 5", "Dee": "A 10"})
    assert client.post(address, data=b_typed | phone_b | {"save": "1"}).status_code == 302
    d_typed = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK", "Dee": "A 10"})
    htmx = client.post(
        address, data=d_typed | phone_d | {"save": "1"}, headers={"HX-Request": "true"}
    )
    assert htmx.status_code == 204 and htmx.headers["HX-Redirect"] == f"/games/{game_id}"
    assert (cards_of(client, game_id, "Ben"), cards_of(client, game_id, "Cy")) == ("8", "JK")


def test_a_clean_merge_the_rules_refuse_comes_back_with_the_merge_and_why(
    client: FlaskClient,
) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "7", "Cy": "JK 5 5", "Dee": "A 10 3"})
    address = f"/games/{game_id}/rounds/1/edit"
    phone_b = fields(text(client.get(address)))
    phone_d = fields(text(client.get(address)))
    b_typed = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK JK 5", "Dee": "A 10 3"})
    assert client.post(address, data=b_typed | phone_b | {"save": "1"}).status_code == 302
    # Each alone fits two packs; together six jokers do not.
    d_typed = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK 5 5", "Dee": "JK JK JK JK"})
    refused = client.post(address, data=d_typed | phone_d | {"save": "1"})
    assert refused.status_code == 422
    page = text(refused)
    assert "that stays: Cy JK JK 5" in page and "was not saved" in page
    assert 'name="hands-2-cards" value="JK JK 5"' in page
    assert 'name="hands-3-cards" value="JK JK JK JK"' in page
    assert cards_of(client, game_id, "Dee") == "A 10 3"


def test_a_hand_both_phones_changed_is_chosen_before_anything_is_saved(
    client: FlaskClient,
) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "7", "Cy": "JK 5 5", "Dee": "A 10 3"})
    address = f"/games/{game_id}/rounds/1/edit"
    phone_b = fields(text(client.get(address)))
    phone_d = fields(text(client.get(address)))
    b_typed = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK 5", "Dee": "A 10 3"})
    assert client.post(address, data=b_typed | phone_b | {"save": "1"}).status_code == 302

    # D changed Cy too, differently, and Ben.
    d_typed = round_form(FOUR, "Ann", {"Ben": "8", "Cy": "JK", "Dee": "A 10 3"})
    page = text(client.post(address, data=d_typed | phone_d | {"save": "1"}))
    assert 'id="clash-2"' in page and 'id="clash-1"' not in page
    assert re.search(r"Stored now</small> JK 5</span>", page)
    assert re.search(r"Yours</small> JK</span>", page)
    assert 'name="hands-1-cards" value="8"' in page  # only D changed Ben: D's entry
    on_page = fields(page)

    # Re-applied without choosing: refused, nothing saved.
    merged = round_form(FOUR, "Ann", {"Ben": "8", "Cy": "JK", "Dee": "A 10 3"})
    unchosen = client.post(address, data=merged | on_page | {"save": "1"})
    assert unchosen.status_code == 409
    assert "Choose for Cy" in text(unchosen)
    assert cards_of(client, game_id, "Ben") == "7"

    # Keep what is stored for Cy: B's fix stays, D's change to Ben is saved.
    chosen = client.post(address, data=merged | on_page | {"save": "1", "pick-2": "stored"})
    assert chosen.status_code == 302
    assert (cards_of(client, game_id, "Ben"), cards_of(client, game_id, "Cy")) == ("8", "JK 5")


def test_choosing_mine_saves_mine(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "7", "Cy": "JK 5 5", "Dee": "A 10 3"})
    address = f"/games/{game_id}/rounds/1/edit"
    phone_b = fields(text(client.get(address)))
    phone_d = fields(text(client.get(address)))
    b_typed = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK 5", "Dee": "A 10 3"})
    assert client.post(address, data=b_typed | phone_b | {"save": "1"}).status_code == 302
    d_typed = round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK", "Dee": "A 10 3"})
    page = text(client.post(address, data=d_typed | phone_d | {"save": "1"}))
    chosen = client.post(address, data=d_typed | fields(page) | {"save": "1", "pick-2": "mine"})
    assert chosen.status_code == 302
    assert cards_of(client, game_id, "Cy") == "JK"


def test_two_corrections_at_once_on_postgresql_take_turns(
    app: Flask, client: FlaskClient, database_uri: str
) -> None:
    """Two phones save a correction of the same round at the same moment, on the version they
    both opened. Each write locks the game's row first, so the second waits for the first and
    then sees its correction (merged with it), instead of both reading version N and both writing
    N+1. The row is held by another connection until both requests are under way."""
    if not database_uri.startswith("postgresql"):
        pytest.skip("SQLite serialises writes with BEGIN IMMEDIATE")
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "7", "Cy": "JK 5 5", "Dee": "A 10 3"})
    address = f"/games/{game_id}/rounds/1/edit"
    opened = fields(text(client.get(address)))
    phones = [signed_in(app, "owner-b"), signed_in(app, "owner-d")]
    typed = [
        round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK 5", "Dee": "A 10 3"}),
        round_form(FOUR, "Ann", {"Ben": "7", "Cy": "JK 5 5", "Dee": "A 10"}),
    ]
    answers: list[int] = []

    def save(phone: FlaskClient, form: dict[str, str]) -> None:
        answers.append(phone.post(address, data=form | opened | {"save": "1"}).status_code)

    holder = create_engine(database_uri)
    try:
        with holder.connect() as held:
            held.execute(sql("SELECT id FROM games WHERE id = :id FOR UPDATE"), {"id": game_id})
            threads = [
                threading.Thread(target=save, args=(phone, form))
                for phone, form in zip(phones, typed, strict=True)
            ]
            for thread in threads:
                thread.start()
            wait_for_lock_waiters(database_uri, 2)  # both requests wait on the row
            held.commit()
        for thread in threads:
            thread.join(timeout=30)
    finally:
        holder.dispose()
    # The second waited for the first, found its correction and merged with it: both kept.
    assert answers == [302, 302]
    versions = client.get(f"/games/{game_id}/export").get_json()
    stored = versions["rounds"][0]["players"]
    assert (stored["Cy"]["cards"], stored["Dee"]["cards"]) == ("JK 5", "A 10")
