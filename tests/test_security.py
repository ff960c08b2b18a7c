"""Every way to change something needs a CSRF token; every answer carries the security headers."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Game, Hand, HouseRules, Player, Round

STATE_CHANGING = {"POST", "PUT", "PATCH", "DELETE"}


def state_changing_urls(app: Flask) -> list[tuple[str, str]]:
    """(method, url) of every route that can change something, ids filled with 1."""
    found = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        url = re.sub(r"<(?:int:)?[^>]+>", "1", rule.rule)
        found.extend((method, url) for method in sorted(rule.methods & STATE_CHANGING))
    return found


def row_counts() -> dict[str, int]:
    return {
        model.__tablename__: db.session.query(model).count()
        for model in (Player, Game, Round, Hand, HouseRules)
    }


def test_every_state_change_without_a_token_is_refused(app: Flask) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    urls = state_changing_urls(app)
    with app.app_context():
        before = row_counts()
    for method, url in urls:
        plain = client.open(url, method=method, data={"name": "Ann"})
        assert plain.status_code == 400, (method, url, plain.status_code)
        assert "did not come from this app" in plain.get_data(as_text=True)
        htmx = client.open(url, method=method, headers={"HX-Request": "true"})
        assert htmx.status_code == 400, (method, url, htmx.status_code)
        forged = client.open(url, method=method, headers={"X-CSRFToken": "forged"})
        assert forged.status_code == 400, (method, url, forged.status_code)
    with app.app_context():
        assert row_counts() == before


def test_security_headers_on_every_kind_of_answer(client: FlaskClient) -> None:
    for url in ("/", "/no-such-page", "/static/css/app.css", "/healthz"):
        headers = client.get(url).headers
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"], url
        assert headers["X-Content-Type-Options"] == "nosniff", url
        assert headers["Referrer-Policy"] == "same-origin", url


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH"])
def test_unsupported_methods_get_a_clear_4xx(client: FlaskClient, method: str) -> None:
    answer = client.open("/", method=method)
    assert answer.status_code == 405
    assert "cannot be used that way" in answer.get_data(as_text=True)


def test_a_form_token_gone_with_its_session_names_the_sign_in_page(app: Flask) -> None:
    """A save kept on a phone while its session ended comes back without a token of any
    session: refused (400), and, for app.js, naming the sign-in page so the phone keeps the
    save to send after signing in. A member signed in with a stale token is not sent there."""
    from .conftest import signed_in

    member = signed_in(app, "ann")
    app.config["WTF_CSRF_ENABLED"] = True
    htmx = {"HX-Request": "true"}
    stranger = app.test_client().post("/games/1/rounds/new", data={"save": "1"}, headers=htmx)
    assert stranger.status_code == 400
    assert stranger.headers["HX-Redirect"].startswith("/login")
    stale = member.post("/games/1/rounds/new", data={"save": "1"}, headers=htmx)
    assert stale.status_code == 400
    assert "HX-Redirect" not in stale.headers
