"""Issue 36 item 5: what Share hands a table-link phone ends with the table link. The watch
link it gets is made through that table link: it ends when the table link ends (a day after
the game) or is revoked, and the links page says so; a member's Share still hands over a
lasting one, never the table's."""

from __future__ import annotations

import html
import re
from datetime import timedelta

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import scope
from scorekeeper.accounts import links
from scorekeeper.extensions import db
from scorekeeper.models import Game, LinkKind

from .conftest import family_id, signed_in
from .helpers import start_game


def _table_phone(app: Flask, owner: FlaskClient, game_id: int) -> tuple[FlaskClient, int]:
    with app.test_request_context(), scope.household(family_id(app)):
        link, token = links.make_link(LinkKind.TABLE, "ann", game=db.session.get(Game, game_id))
        link_id = link.id
        db.session.remove()
    phone = app.test_client()
    assert phone.get(f"/t/{token}").status_code == 303
    return phone, link_id


def _shared(phone: FlaskClient, game_id: int) -> str:
    answer = phone.post(f"/games/{game_id}/share")
    assert answer.status_code == 200, answer.text
    url = answer.get_json()["url"]
    assert url.startswith("http://localhost/w/")
    return str(url).removeprefix("http://localhost")


def test_revoking_the_table_link_revokes_what_its_phone_shared(app: Flask) -> None:
    owner = signed_in(app, "ann")
    game_id = start_game(owner, "twelve-step", ["Ann", "Ben"])
    members_link = _shared(owner, game_id)  # a member's lasting watch link exists
    phone, table_id = _table_phone(app, owner, game_id)
    shared = _shared(phone, game_id)
    # Not the member's lasting link: one made through the table link, the same each time.
    assert shared != members_link and _shared(phone, game_id) == shared
    relative = app.test_client()
    assert relative.get(shared).status_code == 200
    page = owner.get(f"/games/{game_id}/links").text
    assert "ends when that phone's table link ends" in html.unescape(page)
    assert owner.post(f"/links/{table_id}/revoke").status_code == 303
    assert app.test_client().get(shared).status_code == 404
    assert relative.get(f"/games/{game_id}").status_code == 302  # its session ends too
    assert relative.get(shared).status_code == 404
    # The links page no longer offers it, and the member's own link works on.
    page = owner.get(f"/games/{game_id}/links").text
    assert shared not in page and members_link in page
    assert app.test_client().get(members_link).status_code == 200
    assert _shared(owner, game_id) == members_link


def test_what_a_table_link_shared_ends_a_day_after_the_game(app: Flask) -> None:
    owner = signed_in(app, "ann")
    game_id = start_game(owner, "twelve-step", ["Ann", "Ben"])
    phone, _table_id = _table_phone(app, owner, game_id)
    shared = _shared(phone, game_id)
    assert owner.post(f"/games/{game_id}/abandon").status_code == 302
    assert app.test_client().get(shared).status_code == 200  # a day to look at the end
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None and game.ended is not None
        game.ended -= timedelta(days=1, minutes=1)
        db.session.commit()
    assert app.test_client().get(shared).status_code == 404
    page = owner.get(f"/games/{game_id}/links").text
    card = re.search(r"<section[^>]*>(?:(?!</section>).)*" + re.escape(shared), page, re.S)
    assert card and "Ended:" in card.group(0)


def test_a_watch_link_phone_shares_its_own_link(app: Flask) -> None:
    owner = signed_in(app, "ann")
    game_id = start_game(owner, "twelve-step", ["Ann", "Ben"])
    members_link = _shared(owner, game_id)
    relative = app.test_client()
    assert relative.get(members_link).status_code == 200
    # A newer watch link made since: the relative passes on the one they hold, which the
    # owner may revoke on its own, not whichever is newest.
    assert owner.post(f"/games/{game_id}/links", data={"kind": "watch"}).status_code == 303
    assert _shared(owner, game_id) != members_link
    assert _shared(relative, game_id) == members_link
