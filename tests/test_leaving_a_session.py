"""Issue 36 item 4: whatever ends a member's session on this browser and lets someone else in
(signing out, a table or watch link followed from another household's session, an invitation
accepted, another account signed in) ends it on the server and tells the browser to forget what
it kept (``Clear-Site-Data``: ``accounts.services.end_session``); the page names whose pages
the service worker keeps, so that it drops the last one's. Through the real server and a real
service worker: ``tests/browser/test_leaving_a_session.py``."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import scope
from scorekeeper.accounts import links
from scorekeeper.extensions import db
from scorekeeper.models import Game, LinkKind, Role, User, UserSession

from .conftest import PASSWORD, add_member, family_id, sign_in, signed_in
from .helpers import start_game

CLEARED = {'"cache"', '"storage"'}


def _cleared(answer: object) -> set[str]:
    header = answer.headers.get("Clear-Site-Data", "")  # type: ignore[attr-defined]
    return {part.strip() for part in header.split(",") if part.strip()}


def _sessions_of(app: Flask, username: str) -> int:
    with app.app_context():
        held = db.session.scalar(
            select(func.count(UserSession.id)).join(User).where(User.username == username)
        )
        db.session.remove()
    return int(held or 0)


def _kept_for(page: str) -> str:
    found = re.search(r'data-kept-for="([^"]*)"', page)
    assert found
    return found.group(1)


@pytest.mark.parametrize("kind", [LinkKind.TABLE, LinkKind.WATCH])
def test_following_a_link_from_another_households_session_clears_the_site(
    app: Flask, kind: LinkKind
) -> None:
    owner = signed_in(app, "ann")
    game_id = start_game(owner, "twelve-step", ["Ann", "Ben"])
    with app.test_request_context(), scope.household(family_id(app)):
        _, token = links.make_link(kind, "ann", game=db.session.get(Game, game_id))
        db.session.remove()
    zed = signed_in(app, "zed", household="Others")
    zeds = _kept_for(zed.get("/history").text)
    followed = zed.post(f"/{kind.value[0]}/{token}")
    assert followed.status_code == 303
    assert _cleared(followed) == CLEARED
    assert _sessions_of(app, "zed") == 0
    # The link's pages are kept for the link's phone now, not for zed.
    page = zed.get(followed.headers["Location"])
    assert page.status_code == 200 and _kept_for(page.text) not in ("", zeds)
    # A member of the link's own household goes on as themselves: nothing to clear.
    assert _cleared(owner.post(f"/{kind.value[0]}/{token}")) == set()


def test_an_invitation_taken_up_in_a_members_session_clears_the_site(app: Flask) -> None:
    owner = signed_in(app, "ann")
    with app.test_request_context(), scope.household(family_id(app)):
        _, token = links.make_link(LinkKind.INVITE, "ann", role=Role.VIEWER)
        db.session.remove()
    zed = signed_in(app, "zed", household="Others")
    taken = zed.post(
        f"/invite/{token}",
        data={"username": "cy", "password": PASSWORD, "confirm": PASSWORD},
    )
    assert taken.status_code == 303
    assert _cleared(taken) == CLEARED
    assert _sessions_of(app, "zed") == 0 and _sessions_of(app, "cy") == 1
    assert owner.get("/history").status_code == 200


def test_another_account_signed_in_over_a_session_clears_the_site(app: Flask) -> None:
    ann: FlaskClient = signed_in(app, "ann")
    add_member(app, "ben")
    again = ann.post("/login", data={"username": "ann", "password": PASSWORD})
    assert again.status_code == 303 and _cleared(again) == set()
    ben = ann.post("/login", data={"username": "ben", "password": PASSWORD})
    assert ben.status_code == 303 and _cleared(ben) == CLEARED
    assert _sessions_of(app, "ann") == 1  # the one before, which the second sign-in ended
    sign_in(app, app.test_client(), "ann")
