"""Issue 43's leftover: the pad's poll (``open`` = its round) carries the version its
"Counting: ..." line was drawn at (``counted``), and while the round is open gets back that
line alone, to be swapped in by its id (the pad itself not redrawn), once a hand came in."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from ..helpers import start_game
from .test_drafts import FOUR, HTMX, hand_post, table_phone
from .test_pages import text


def _counted(page: str) -> str:
    found = re.search(r'name="counted" value="(\d+)"', page)
    assert found, "no counted version on the page"
    return found.group(1)


def test_the_pads_poll_brings_the_counting_line_alone_once_a_hand_came_in(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    ann = table_phone(app, game_id, seat=0)
    ben = table_phone(app, game_id, seat=1)
    assert hand_post(ann, game_id, 0, went_out="1")[0] == 303
    page = text(ben.get(f"/games/{game_id}/hand"))
    assert "Counting: Ben, Cy, Dee." in page
    poll = f"/games/{game_id}/hand?open=1&cards=K&counted={_counted(page)}"
    assert ben.get(poll, headers=HTMX).status_code == 204  # nothing new: nothing sent

    cy = table_phone(app, game_id, seat=2)
    assert hand_post(cy, game_id, 2, done="not", cards="5")[0] == 303
    answer = ben.get(poll, headers=HTMX)
    assert answer.status_code == 200
    assert answer.headers["HX-Reswap"] == "none"
    line = text(answer)
    assert 'id="counting"' in line and 'hx-swap-oob="true"' in line
    assert "Counting: Ben, Dee." in line
    assert "my-hand-form" not in line  # the pad is left as it is
    fresh = f"/games/{game_id}/hand?open=1&cards=K&counted={_counted(line)}"
    assert ben.get(fresh, headers=HTMX).status_code == 204
