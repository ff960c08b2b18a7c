"""Issue 48 item 2: a refused request never touches the session. A form another website posts
arrives without the browser's session cookie (SameSite=Lax keeps it away); its refusal (the
CSRF check's 400) set a new session cookie, which took the place of the member's, or of the
table phone's that its rights live in. Now no answer to a request without a good session
cookie that refuses it (any 4xx) sets a cookie, and the CSRF refusal sets none whoever sent it.

Every state-changing route of the URL map is tried; through Chromium from another site in
tests/browser/test_other_sites.py, and through the real server behind Caddy in
tests/test_behind_proxy.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper import scope
from scorekeeper.accounts import links
from scorekeeper.extensions import db
from scorekeeper.models import Game, LinkKind

from .conftest import family_id, signed_in
from .helpers import start_game
from .test_security import STATE_CHANGING


def posted_routes(app: Flask, game_id: int) -> list[tuple[str, str]]:
    """(method, url) of every route of the URL map that changes something: the game's id
    where one is named, 1 for any other part."""
    found = []
    for rule in app.url_map.iter_rules():
        url = rule.rule.replace("<int:game_id>", str(game_id))
        url = re.sub(r"<(?:int:)?[^>]+>", "1", url)
        found.extend((method, url) for method in sorted((rule.methods or set()) & STATE_CHANGING))
    assert ("POST", "/logout") in found and ("POST", f"/games/{game_id}/may-i") in found
    return found


def every_form_route(folder: Path, game_id: int) -> list[str]:
    """Every route of the URL map a form can post to (as ``posted_routes``), read from an app
    made on a database of its own in ``folder``: for the tests of a real server."""
    from scorekeeper import create_app

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SCOREKEEPER_INSTANCE_PATH", str(folder / "instance"))
        app = create_app(
            {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/routes.db"}
        )
    return [url for method, url in posted_routes(app, game_id) if method == "POST"]


def _no_cookie(answer: TestResponse, what: object) -> None:
    assert answer.headers.getlist("Set-Cookie") == [], (what, answer.status_code)


def _table_phone(app: Flask, game_id: int) -> FlaskClient:
    with app.test_request_context(), scope.household(family_id(app)):
        _link, token = links.make_link(LinkKind.TABLE, "ann", game=db.session.get(Game, game_id))
        db.session.remove()
    phone = app.test_client()
    assert phone.get(f"/t/{token}").status_code == 303
    return phone


def _scores(phone: FlaskClient, game_id: int) -> bool:
    return phone.get(f"/games/{game_id}/rounds/new").status_code == 200


def test_a_refusal_sets_no_cookie_and_takes_nobody_out(app: Flask) -> None:
    owner = signed_in(app, "ann")
    game_id = start_game(owner, "twelve-step", ["Ann", "Ben"])
    phone = _table_phone(app, game_id)
    app.config["WTF_CSRF_ENABLED"] = True
    routes = posted_routes(app, game_id)
    for method, url in routes:
        # As a form on another website sends it: no cookie of this site's comes with it.
        for headers in ({}, {"HX-Request": "true"}, {"X-CSRFToken": "forged"}):
            answer = app.test_client().open(
                url, method=method, data={"name": "Mallory"}, headers=headers
            )
            assert answer.status_code == 400, (method, url, answer.status_code)
            _no_cookie(answer, (method, url, headers))
        # From a page of this site's that is not the app's (another port: the same site, so
        # the cookie comes along), without the form's token: refused, the cookie left as it is.
        for client in (owner, phone):
            answer = client.open(url, method=method, data={"name": "Mallory"})
            assert answer.status_code == 400, (method, url, answer.status_code)
            _no_cookie(answer, (method, url))
    # Any other refusal of a request without a session sets none either.
    stranger = app.test_client()
    for url in ("/no-such-page", "/t/" + "x" * 43, "/w/" + "x" * 43 + "/result", "/y/nothing"):
        answer = stranger.get(url)
        assert answer.status_code == 404, url
        _no_cookie(answer, url)
    answer = stranger.put("/")
    assert answer.status_code == 405
    _no_cookie(answer, "PUT /")
    answer = stranger.get("/login", headers={"Host": "evil.example"})
    assert answer.status_code == 400
    _no_cookie(answer, "another host")
    # The member is still signed in and the table's phone still scores its game.
    assert owner.get("/members").status_code == 200
    assert _scores(phone, game_id)
    # A page that lets someone in still sets the cookie that does it.
    assert "Set-Cookie" in app.test_client().get("/login").headers
