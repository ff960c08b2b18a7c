"""Issue 23 item 7: a session keeps every link it opened (``access.links_held``); a session
from before, holding one link as a single pair, is still read. The browser test is
tests/browser/test_table_holds_still.py::test_a_phone_keeps_every_table_link_it_opened."""

from __future__ import annotations

from flask import Flask, session

from scorekeeper.access import LINK_SESSION_KEY, LINKS_KEPT, links_held


def test_a_session_of_one_link_from_before_is_still_read(app: Flask) -> None:
    with app.test_request_context():
        session[LINK_SESSION_KEY] = [3, "ab"]
        assert links_held() == [(3, "ab")]


def test_the_pairs_held_are_read_and_anything_else_left_out(app: Flask) -> None:
    with app.test_request_context():
        session[LINK_SESSION_KEY] = [[3, "ab"], ["x", "cd"], 7, [5, "ef", 1], [6, "gh"]]
        assert links_held() == [(3, "ab"), (6, "gh")]
        session[LINK_SESSION_KEY] = [[number, f"h{number}"] for number in range(20)]
        assert [pair[0] for pair in links_held()] == list(range(20 - LINKS_KEPT, 20))
        session[LINK_SESSION_KEY] = "not a list"
        assert links_held() == []
