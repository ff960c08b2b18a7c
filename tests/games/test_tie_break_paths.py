"""Issue 51: the tie-break hand of Phase 10 on every path that stores a round. Ann and Ben both
make phase 10 in round 2 with 5 points each (``tie_break: replay``, the preset's): round 3 is
their tie-break hand, Cy sits it out. The round form asks their hands alone, and no "made";
the phones of Ann and Ben enter it and close it, Cy's phone says Cy sits it out and enters
nothing; its correction keeps it a tie-break hand; a correction of round 2 that undoes the tie
is refused at the field it changed; an undo of round 2 takes the need away, and its put back
brings it back."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from ..helpers import players_of, round_form, save_round, start_game
from .test_drafts import hand_post, table_phone
from .test_pages import text
from .test_phase_10_options import _export, _house_rules
from .test_spanish_rounds import at_field, words

THREE = ("Ann", "Ben", "Cy")
LINE = (
    "Ann and Ben are tied on phase 10 and on 5 points. The next hand is the tie-break hand, "
    "with only Ann and Ben, on phase 10: the first to go out wins, and its points count in no "
    "total."
)


def _tied(app: Flask, client: FlaskClient) -> int:
    """A game on phases 9 and 10 whose round 2 leaves Ann and Ben tied on phase 10 and on
    5 points: a tie-break hand is owed."""
    slug = _house_rules(app, "Two phases", {"phases_played": [9, 10]})
    game_id = start_game(client, slug, THREE)
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "10"}, {"Ben"})
    save_round(client, game_id, "Ben", {"Ann": "5", "Cy": "10"}, {"Ann"})
    return game_id


def _read(response: object) -> str:
    return words(response)


def test_the_round_form_asks_the_tied_players_alone_and_no_made(
    app: Flask, client: FlaskClient
) -> None:
    game_id = _tied(app, client)
    page = client.get(f"/games/{game_id}/rounds/new")
    assert LINE in _read(page)
    # Only Ann and Ben have a hand to enter, and nobody is asked whether they made a phase.
    html = text(page)
    assert 'name="hands-0-cards"' in html and 'name="hands-1-cards"' in html
    assert 'name="hands-2-cards"' not in html and 'name="hands-1-made"' not in html
    # So on its correction, once it is stored; a regular round's form asks "made".
    save_round(client, game_id, "Ben", {"Ann": "W W"})
    html = text(client.get(f"/games/{game_id}/rounds/3/edit"))
    assert 'name="hands-0-cards"' in html and 'name="hands-2-cards"' not in html
    assert 'name="hands-0-made"' not in html
    assert 'name="hands-0-made"' in text(client.get(f"/games/{game_id}/rounds/2/edit"))


def test_correcting_the_tie_break_hand_keeps_it_the_tie_break_hand(
    app: Flask, client: FlaskClient
) -> None:
    game_id = _tied(app, client)
    save_round(client, game_id, "Ben", {"Ann": "W W"})
    form = round_form(players_of(client, game_id), "Ann", {"Ben": "W"})
    answer = client.post(f"/games/{game_id}/rounds/3/edit", data={**form, "save": "Save"})
    assert answer.status_code == 302, _read(answer)
    document = _export(client, game_id)
    last = document["rounds"][-1]
    assert last["tie_break_hand"] is True and set(last["players"]) == {"Ann", "Ben"}
    assert document["status"] == "finished" and document["winners"] == ["Ann"]
    # Its points still count in no total.
    assert [item["total"] for item in document["standings"] if item["player"] != "Cy"] == [5, 5]


def test_a_correction_that_undoes_the_tie_is_refused_at_the_field_it_changed(
    app: Flask, client: FlaskClient
) -> None:
    game_id = _tied(app, client)
    save_round(client, game_id, "Ben", {"Ann": "W W"})
    # Ann held 5 + 5 in round 2, not 5: no longer level with Ben.
    form = round_form(players_of(client, game_id), "Ben", {"Ann": "5 5", "Cy": "10"}, {"Ann"})
    answer = client.post(f"/games/{game_id}/rounds/2/edit", data={**form, "save": "Save"})
    assert answer.status_code == 422
    said = (
        "Round 2 as corrected leaves no tie for round 3, the tie-break hand of Ann and Ben, to "
        "settle: delete round 3 first, or correct round 2 so that they stay level."
    )
    assert said in at_field(answer, "cards-0")
    document = _export(client, game_id)
    assert document["rounds"][1]["players"]["Ann"]["cards"] == "5"
    assert document["winners"] == ["Ben"]


def test_undoing_the_round_that_tied_them_takes_the_tie_break_hand_away(
    app: Flask, client: FlaskClient
) -> None:
    game_id = _tied(app, client)
    board = text(client.get(f"/games/{game_id}"))
    version = re.search(r'name="version" value="(\d+)"', board)
    data = {"version": version.group(1)} if version else {}
    assert client.post(f"/games/{game_id}/rounds/2/undo", data=data).status_code == 302
    page = client.get(f"/games/{game_id}/rounds/new")
    assert "tie-break" not in _read(page)
    assert 'name="hands-2-cards"' in text(page)
    assert client.post(f"/games/{game_id}/rounds/2/put-back").status_code == 302
    page = client.get(f"/games/{game_id}/rounds/new")
    assert LINE in _read(page) and 'name="hands-2-cards"' not in text(page)


def test_the_phones_enter_the_tie_break_hand_and_cy_sits_it_out(
    app: Flask, client: FlaskClient
) -> None:
    game_id = _tied(app, client)
    ann, ben, cy = (table_phone(app, game_id, seat) for seat in range(3))
    sitting_out = (
        "Cy sits this hand out: it is the tie-break hand of Ann and Ben alone. This phone "
        "reads the game, but enters no hand."
    )
    page = _read(cy.get(f"/games/{game_id}/hand"))
    assert "You sit out the tie-break hand" in page and LINE in page
    assert "I went out" not in page and "Made" not in page
    status, said = hand_post(cy, game_id, 2, number="3", went_out="1")
    assert status == 409 and sitting_out in _read_text(said)
    # The scorer's close page waits for Ann's and Ben's hands alone.
    assert hand_post(ann, game_id, 0, number="3", went_out="1")[0] == 303
    close = text(client.get(f"/games/{game_id}/close"))
    assert 'name="cards-1"' in close and 'name="cards-2"' not in close
    assert hand_post(ben, game_id, 1, number="3", cards="W 7R", done="not")[0] == 303
    document = _export(client, game_id)
    last = document["rounds"][-1]
    assert len(document["rounds"]) == 3, document["rounds"]
    assert last["tie_break_hand"] is True and set(last["players"]) == {"Ann", "Ben"}
    assert document["status"] == "finished" and document["winners"] == ["Ann"]
    assert [item["total"] for item in document["standings"]] == [5, 5, 20]


def _read_text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)).replace("&#39;", "'")
