"""How a finished game moved its players' ratings ("Ben +1.8") on its scoreboard (issue 26):
for everyone who sees that scoreboard (members, a table link's phones, a watch link's
relatives), without JavaScript, and never frozen in the board kept under the game's version."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import scope
from scorekeeper.accounts import links
from scorekeeper.extensions import db
from scorekeeper.games import scoreboard
from scorekeeper.models import Game, LinkKind

from ..conftest import family_id
from ..helpers import round_form, save_round, start_game

TABLE = ["Ann", "Ben", "Cy"]
# A name (a link to the player's page, or the name alone) and its move.
MOVE = re.compile(
    r'<span class="rating-change">(?:<a [^>]*>)?([^<]+)(?:</a>)?&nbsp;<strong>([^<]+)</strong>'
)


def _play(client: FlaskClient, winner: str) -> int:
    """A finished game of Contract Rummy's seven rounds: ``winner`` goes out every round, the
    others hold a little, Cy more than Ann."""
    game_id = start_game(client, "contract-rummy", TABLE)
    for _ in range(7):
        held = {"Ann": "5", "Ben": "5", "Cy": "K Q"}
        held.pop(winner)
        save_round(client, game_id, went_out=winner, cards=held)
    return game_id


def _phone(app: Flask, kind: LinkKind, game_id: int) -> FlaskClient:
    """A phone with no account, let in by a new link of ``kind`` to ``game_id``."""
    with app.test_request_context(), scope.household(family_id(app)):
        _, token = links.make_link(kind, "owner", game=db.session.get(Game, game_id))
        db.session.remove()
    phone = app.test_client()
    opened = phone.get(f"/{kind.value[0]}/{token}")
    assert opened.status_code in (200, 303), opened.status_code
    return phone


def _line(client: FlaskClient, game_id: int) -> dict[str, str]:
    """The ratings line as the finished board leads to it: the address the board names (as a
    plain link and for htmx), asked as htmx asks it; each name with its move."""
    board = client.get(f"/games/{game_id}")
    assert board.status_code == 200
    address = f"/history/games/{game_id}/ratings"
    assert f'href="{address}"' in board.text and f'hx-get="{address}"' in board.text
    piece = client.get(address, headers={"HX-Request": "true"})
    assert piece.status_code == 200 and "<html" not in piece.text
    return dict(MOVE.findall(piece.text))


def _stamp(app: Flask, game_id: int) -> scoreboard.Stamp:
    with app.test_request_context(), scope.household(family_id(app)):
        found = scoreboard.stamp_of(game_id)
        db.session.remove()
    assert found is not None
    return found


@pytest.mark.parametrize("kind", [LinkKind.TABLE, LinkKind.WATCH])
def test_a_phone_let_in_by_a_link_sees_how_its_game_moved_the_ratings(
    app: Flask, client: FlaskClient, kind: LinkKind
) -> None:
    game_id = _play(client, "Ben")
    member = _line(client, game_id)
    assert set(member) == set(TABLE)
    assert member["Ben"].startswith("+") and member["Cy"].startswith("\u2212"), member
    phone = _phone(app, kind, game_id)
    # The same moves, names alone: the players' pages are the household's, not the link's.
    assert _line(phone, game_id) == member
    piece = phone.get(f"/history/games/{game_id}/ratings", headers={"HX-Request": "true"}).text
    assert "/players/" not in piece
    # Without JavaScript: the plain link's page, with the line and the way back, and none of
    # the household's ratings themselves (what each rests on).
    page = phone.get(f"/history/games/{game_id}/ratings")
    assert page.status_code == 200 and "<html" in page.text
    assert "Ben&nbsp;<strong>" in page.text and f'href="/games/{game_id}"' in page.text
    assert "Rating after" not in page.text and "/players/" not in page.text
    assert "Rating after" in client.get(f"/history/games/{game_id}/ratings").text


@pytest.mark.parametrize("kind", [LinkKind.TABLE, LinkKind.WATCH])
def test_a_link_reaches_its_own_games_ratings_only(
    app: Flask, client: FlaskClient, kind: LinkKind
) -> None:
    mine = _play(client, "Ben")
    other = _play(client, "Ann")
    stranger = start_game(client, "contract-rummy", ["Dee", "Eve"])
    phone = _phone(app, kind, mine)
    assert phone.get(f"/history/games/{mine}/ratings").status_code == 200
    for game_id in (other, stranger, 999999):
        for headers in ({}, {"HX-Request": "true"}):
            answer = phone.get(f"/history/games/{game_id}/ratings", headers=headers)
            assert answer.status_code == 404, (game_id, headers)
            assert "Ratings:" not in answer.text
    # Nor by a query naming the link's own game.
    assert phone.get(f"/history/games/{other}/ratings?game={mine}").status_code == 404


def test_correcting_an_earlier_game_moves_a_later_games_line(
    app: Flask, client: FlaskClient
) -> None:
    earlier = _play(client, "Ben")
    later = _play(client, "Ann")
    phone = _phone(app, LinkKind.TABLE, later)
    watcher = _phone(app, LinkKind.WATCH, later)
    before = _line(phone, later)
    assert _line(watcher, later) == before == _line(client, later)
    stamp = _stamp(app, later)
    # The earlier game's first round corrected: Ann went out and Ben held a great deal, so
    # Ann wins that game instead of Ben (30 points to Ben's 60 or more).
    form = round_form(TABLE, "Ann", {"Ben": "A A K K Q Q", "Cy": "K Q"})
    answer = client.post(f"/games/{earlier}/rounds/1/edit", data={**form, "save": "Save"})
    assert answer.status_code == 302, answer.text
    # The later game itself did not change: its board is the one kept under its version.
    assert _stamp(app, later) == stamp
    after = _line(phone, later)
    assert set(after) == set(before) == set(TABLE)
    assert after != before, (before, after)
    assert _line(watcher, later) == after == _line(client, later)
    # And no board, kept or drawn again, shows a figure from before the correction.
    moved = [name for name in TABLE if after[name] != before[name]]
    assert moved
    for seen in (phone, watcher, client):
        board = seen.get(f"/games/{later}").text
        assert not [name for name in moved if f"<strong>{before[name]}</strong>" in board]
