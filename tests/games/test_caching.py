"""Caching that survives sign-in: every write to a game bumps its version (so no drawn board
or ETag outlives a change), and the game page, its poll and the history pages answer a
conditional GET with 304, per person, without rendering."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from io import BytesIO

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, select

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.models import Game, Player

from ..conftest import family_id, signed_in
from ..helpers import game_document, round_form, save_round, start_game

HTMX = {"HX-Request": "true"}


def page(client: FlaskClient, url: str, headers: dict[str, str] | None = None) -> tuple[str, str]:
    """The page's body and ETag (asked again where a flashed message kept the first without)."""
    answer = client.get(url, headers=headers)
    if "ETag" not in answer.headers:
        answer = client.get(url, headers=headers)
    assert answer.status_code == 200, answer.status_code
    return answer.get_data(as_text=True), answer.headers["ETag"]


def version_of(app: Flask, game_id: int) -> int:
    with app.app_context(), scope.household(family_id(app)):
        version = db.session.scalar(select(Game.version).where(Game.id == game_id))
        db.session.remove()
    assert version is not None
    return version


def player_id(app: Flask, name: str) -> int:
    with app.app_context(), scope.household(family_id(app)):
        found = db.session.scalar(select(Player.id).where(Player.name == name))
        db.session.remove()
    assert found is not None
    return found


def test_a_second_get_with_the_etag_is_304_until_a_save(client: FlaskClient) -> None:
    game_id = start_game(client, "bellevue", ["Ann", "Ben", "Cy"])
    url = f"/games/{game_id}"
    body, etag = page(client, url)
    assert etag.startswith('W/"')
    first = client.get(url)
    assert first.headers["Cache-Control"] == "private, no-cache"
    assert {"HX-Request", "Cookie"} <= set(first.vary)
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["ETag"] == etag
    save_round(client, game_id, went_out="Ann", cards={"Ben": "K Q", "Cy": "5"})
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag
    assert "Round" in changed.get_data(as_text=True) and body != changed.get_data(as_text=True)


def test_the_page_and_its_fragment_have_their_own_etags(client: FlaskClient) -> None:
    game_id = start_game(client)
    _, whole = page(client, f"/games/{game_id}")
    _, fragment = page(client, f"/games/{game_id}", HTMX)
    assert whole != fragment
    asked = client.get(f"/games/{game_id}", headers={**HTMX, "If-None-Match": whole})
    assert asked.status_code == 200


def test_a_viewer_and_a_scorer_get_different_etags(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    viewer = signed_in(app, "vic", "viewer")
    scorer = signed_in(app, "sam", "scorer")
    viewer_body, viewer_tag = page(viewer, f"/games/{game_id}")
    scorer_body, scorer_tag = page(scorer, f"/games/{game_id}")
    assert viewer_tag != scorer_tag
    assert "Enter round 1" in scorer_body and "Enter round 1" not in viewer_body
    # Neither's ETag opens the other's copy.
    answer = viewer.get(f"/games/{game_id}", headers={"If-None-Match": scorer_tag})
    assert answer.status_code == 200


def test_two_people_of_the_same_role_get_different_etags(app: Flask, client: FlaskClient) -> None:
    """The layout names the person and holds their CSRF token: never another's copy."""
    game_id = start_game(client)
    ann, bea = signed_in(app, "ann", "scorer"), signed_in(app, "bea", "scorer")
    _, ann_tag = page(ann, f"/games/{game_id}")
    _, bea_tag = page(bea, f"/games/{game_id}")
    assert ann_tag != bea_tag
    assert bea.get(f"/games/{game_id}", headers={"If-None-Match": ann_tag}).status_code == 200


def test_another_household_gets_404_not_304(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    _, etag = page(client, f"/games/{game_id}")
    stranger = signed_in(app, "olga", "owner", household="Others")
    for url, headers in ((f"/games/{game_id}", {}), (f"/games/{game_id}/board?v=1", HTMX)):
        answer = stranger.get(url, headers={**headers, "If-None-Match": etag})
        assert answer.status_code == 404, url
    star = stranger.get(f"/games/{game_id}", headers={"If-None-Match": "*"})
    assert star.status_code == 404


def test_the_poll_answers_304_204_and_the_new_board(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    version = version_of(app, game_id)
    url = f"/games/{game_id}/board?v={version}"
    unchanged = client.get(url, headers=HTMX)
    assert unchanged.status_code == 204
    etag = unchanged.headers["ETag"]
    assert unchanged.headers["Cache-Control"] == "private, no-cache"
    assert client.get(url, headers={**HTMX, "If-None-Match": etag}).status_code == 304
    save_round(client, game_id, went_out="Ann", cards={"Ben": "K", "Cy": "5", "Dee": "9"})
    changed = client.get(url, headers={**HTMX, "If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag
    assert "Enter round 2" in changed.get_data(as_text=True)


def test_a_page_with_a_flashed_message_has_no_etag(app: Flask, client: FlaskClient) -> None:
    """Else a later 304 would show the message again from the phone's copy."""
    game_id = start_game(client)
    save_round(client, game_id, went_out="Ann", cards={"Ben": "K", "Cy": "5", "Dee": "9"})
    client.post(f"/games/{game_id}/rounds/1/delete")
    flashed = client.get(f"/games/{game_id}")
    assert "Round 1 deleted." in flashed.get_data(as_text=True)
    assert "ETag" not in flashed.headers
    assert "ETag" in client.get(f"/games/{game_id}").headers


def test_the_history_pages_answer_304_until_a_game_changes(client: FlaskClient) -> None:
    game_id = start_game(client)
    save_round(client, game_id, went_out="Ann", cards={"Ben": "K", "Cy": "5", "Dee": "9"})
    for url in ("/history", "/history?status=in_progress", "/records"):
        _, etag = page(client, url)
        assert client.get(url, headers={"If-None-Match": etag}).status_code == 304, url
    _, history = page(client, "/history")
    _, records = page(client, "/records")
    save_round(client, game_id, went_out="Ben", cards={"Ann": "K", "Cy": "5", "Dee": "9"})
    assert client.get("/history", headers={"If-None-Match": history}).status_code == 200
    assert client.get("/records", headers={"If-None-Match": records}).status_code == 200


# --- every write path bumps the version -----------------------------------------------------


def _save(app: Flask, client: FlaskClient, game_id: int) -> str:
    save_round(client, game_id, went_out="Ann", cards={"Ben": "K Q", "Cy": "5"})
    return "Enter round 3"


def _edit(app: Flask, client: FlaskClient, game_id: int) -> str:
    form = round_form(["Ann", "Ben", "Cy"], "Ann", {"Ben": "JK", "Cy": "5"})
    answer = client.post(f"/games/{game_id}/rounds/1/edit", data={**form, "save": "Save"})
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return 'title="JK'


def _delete(app: Flask, client: FlaskClient, game_id: int) -> str:
    assert client.post(f"/games/{game_id}/rounds/1/delete").status_code == 302
    return "Enter round 1"


def _undo(app: Flask, client: FlaskClient, game_id: int) -> str:
    assert client.post(f"/games/{game_id}/rounds/1/undo").status_code in (302, 303)
    return "Enter round 1"


def _delete_game(app: Flask, client: FlaskClient, game_id: int) -> str:
    assert client.post(f"/games/{game_id}/delete").status_code == 303
    assert client.post(f"/bin/games/{game_id}/restore").status_code == 303
    return "Enter round 2"


def _may_i(app: Flask, client: FlaskClient, game_id: int) -> str:
    answer = client.post(f"/games/{game_id}/may-i", data={"seat": "1", "change": "1"})
    assert answer.status_code == 302
    return "1 used"


def _abandon(app: Flask, client: FlaskClient, game_id: int) -> str:
    assert client.post(f"/games/{game_id}/abandon").status_code == 302
    return "This game was abandoned"


def _rename(app: Flask, client: FlaskClient, game_id: int) -> str:
    answer = client.post(f"/players/{player_id(app, 'Ben')}/rename", data={"name": "Benedict"})
    assert answer.status_code == 303
    return "Benedict"


def _merge(app: Flask, client: FlaskClient, game_id: int) -> str:
    other = start_game(client, "bellevue", ["Zed", "Ann", "Cy"])
    assert other != game_id
    merging = {"other": player_id(app, "Ben"), "confirm": "y"}
    answer = client.post(f"/players/{player_id(app, 'Zed')}/merge", data=merging)
    assert answer.status_code in (302, 303), answer.get_data(as_text=True)
    return "Zed"


def _went_out_on_own_phone(app: Flask, client: FlaskClient, game_id: int) -> str:
    assert client.post(f"/games/{game_id}/seat", data={"seat": "0"}).status_code == 303
    answer = client.post(f"/games/{game_id}/hand", data={"number": "2", "went_out": "1"})
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return "Counting: Ben, Cy."


def _hand_in_on_own_phone(app: Flask, client: FlaskClient, game_id: int) -> str:
    _went_out_on_own_phone(app, client, game_id)
    assert client.post(f"/games/{game_id}/seat", data={"seat": "1"}).status_code == 303
    form = {"number": "2", "cards": "K", "done": "not"}
    assert client.post(f"/games/{game_id}/hand", data=form).status_code == 303
    return "Counting: Cy."


def _close_on_own_phones(app: Flask, client: FlaskClient, game_id: int) -> str:
    _hand_in_on_own_phone(app, client, game_id)
    assert client.post(f"/games/{game_id}/seat", data={"seat": "2"}).status_code == 303
    form = {"number": "2", "cards": "5", "done": "not"}
    assert client.post(f"/games/{game_id}/hand", data=form).status_code == 303
    return "Enter round 3"


WRITES: dict[str, Callable[[Flask, FlaskClient, int], str]] = {
    "went out on own phone": _went_out_on_own_phone,
    "hand in on own phone": _hand_in_on_own_phone,
    "closed by the last hand in": _close_on_own_phones,
    "save": _save,
    "edit": _edit,
    "delete round": _delete,
    "undo": _undo,
    "to the bin and back": _delete_game,
    "may i": _may_i,
    "abandon": _abandon,
    "rename player": _rename,
    "merge player": _merge,
}


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_every_write_path_bumps_the_version(
    app: Flask, client: FlaskClient, write: Callable[[Flask, FlaskClient, int], str]
) -> None:
    game_id = start_game(client, "bellevue", ["Ann", "Ben", "Cy"])
    save_round(client, game_id, went_out="Ann", cards={"Ben": "K Q", "Cy": "5"})
    url = f"/games/{game_id}"
    _, etag = page(client, url)  # drawn and filed under the version before the write
    poll = f"/games/{game_id}/board?v={version_of(app, game_id)}"
    before = version_of(app, game_id)
    shown = write(app, client, game_id)
    assert version_of(app, game_id) > before
    answer = client.get(url, headers={"If-None-Match": etag})
    assert answer.status_code == 200
    assert shown in answer.get_data(as_text=True)
    assert client.get(poll, headers=HTMX).status_code == 200  # open phones redraw


def test_an_imported_game_has_a_version_of_its_own(app: Flask, client: FlaskClient) -> None:
    """An import makes a new game: its version is bumped past the starting 0 like any save,
    and its created_at keeps a restored game's drawings apart from an older game's."""
    document = game_document("twelve-step", ["Ann", "Ben"], [("Ann", {"Ben": "K"}, set())])
    answer = client.post(
        "/games/import",
        data={"file": (BytesIO(json.dumps(document).encode()), "game.json")},
        content_type="multipart/form-data",
    )
    game_id = int(answer.headers["Location"].rstrip("/").split("/")[-1])
    assert version_of(app, game_id) > 0
    body, _ = page(client, f"/games/{game_id}")
    assert "Enter round 2" in body


@pytest.mark.parametrize("path", ["", "/tv", "/card.png"])
def test_every_game_page_answers_a_conditional_get_with_304(client: FlaskClient, path: str) -> None:
    """The scoreboard, the TV view and the result card: 304 while the game is unchanged, the
    new answer once a round is saved."""
    game_id = start_game(client, "bellevue", ["Ann", "Ben", "Cy"])
    url = f"/games/{game_id}{path}"
    first = client.get(url)
    if "ETag" not in first.headers:  # a flashed message kept the first without
        first = client.get(url)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.get_data() == b""
    save_round(client, game_id, went_out="Ann", cards={"Ben": "K Q", "Cy": "5"})
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag
    assert changed.get_data() != first.get_data()


def _preview(client: FlaskClient, game_id: int) -> str:
    """What a chat shows of the game's page: its og:title and og:description."""
    text = client.get(f"/games/{game_id}").get_data(as_text=True)
    found = re.findall(r'<meta property="og:(?:title|description)" content="([^"]*)"', text)
    assert len(found) == 2, text[:500]
    return " ".join(found)


def test_a_result_belongs_to_one_game_for_ever(app: Flask) -> None:
    """A game removed for good leaves its number to no other game, and where a game with that
    number is stored all the same (a database that takes the id it is given), its page shows
    its own result, not the removed game's."""
    ours = signed_in(app, "ann")
    theirs = signed_in(app, "zed", household="Others")
    removed = start_game(ours, "twelve-step", ["Ann", "Ben"])
    save_round(ours, removed, "Ann", {"Ben": "K Q"})
    assert "Ben 0 of 12 contracts, 20 points" in _preview(ours, removed)
    assert ours.post(f"/games/{removed}/delete").status_code in (302, 303)
    assert ours.post("/bin/empty").status_code in (302, 303)

    made = start_game(theirs, "twelve-step", ["Cy", "Dee"])
    assert made > removed  # never given again (SQLite's AUTOINCREMENT, PostgreSQL's sequence)

    def same_number(_mapper: object, _connection: object, game: Game) -> None:
        game.id = removed

    event.listen(Game, "before_insert", same_number)
    try:
        again = start_game(theirs, "twelve-step", ["Cy", "Dee"])
    finally:
        event.remove(Game, "before_insert", same_number)
    assert again == removed
    save_round(theirs, again, "Cy", {"Dee": "K Q"})
    for game_id in (again, made):
        shown = _preview(theirs, game_id)
        assert "Dee" in shown and "Ann" not in shown and "Ben" not in shown
    assert ours.get(f"/games/{removed}").status_code == 404
