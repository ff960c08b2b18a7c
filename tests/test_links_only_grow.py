"""Issue 48 item 3: a phone's rights only grow by its own link. A phone on a table link that
opens a watch link of the same game (its own Share's, a member's, the result page's) or a review
link keeps the table's rights: May I and the round form still answer it. A watch link of another
game opened on that phone lets it watch that game and score nothing there, and takes nothing
from the table. The browser's side is tests/browser/test_other_sites.py."""

from __future__ import annotations

from datetime import date

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import scope
from scorekeeper.accounts import links
from scorekeeper.extensions import db
from scorekeeper.models import Game, LinkKind

from .conftest import family_id, signed_in
from .helpers import save_round, start_game


def _link(app: Flask, kind: LinkKind, game_id: int | None = None, year: int | None = None) -> str:
    """A new link's path, made by the family's owner."""
    with app.test_request_context(), scope.household(family_id(app)):
        game = db.session.get(Game, game_id) if game_id is not None else None
        link, _token = links.make_link(kind, "ann", game=game, year=year)
        path = links.url_of(link).removeprefix("http://localhost")
        db.session.remove()
    return path


def _table_phone(app: Flask, game_id: int) -> FlaskClient:
    phone = app.test_client()
    assert phone.get(_link(app, LinkKind.TABLE, game_id)).status_code == 303
    return phone


def _scores(phone: FlaskClient, game_id: int) -> bool:
    """Whether ``phone`` may score ``game_id``: its round form and May I answer it."""
    form = phone.get(f"/games/{game_id}/rounds/new").status_code
    may_i = phone.post(f"/games/{game_id}/may-i", data={"seat": "0", "change": "1"}).status_code
    assert (form == 200) == (may_i == 302), (form, may_i)
    return form == 200


def _shared(phone: FlaskClient, game_id: int) -> str:
    answer = phone.post(f"/games/{game_id}/share")
    assert answer.status_code == 200, answer.text
    return str(answer.get_json()["url"]).removeprefix("http://localhost")


def test_a_phone_on_a_table_link_keeps_its_rights_whatever_it_opens(app: Flask) -> None:
    owner = signed_in(app, "ann")
    game_id = start_game(owner, "twelve-step", ["Ann", "Ben"])
    other = start_game(owner, "twelve-step", ["Cy", "Dee"])
    members_watch = _shared(owner, game_id)
    phone = _table_phone(app, game_id)
    assert _scores(phone, game_id)
    shared = _shared(phone, game_id)
    assert shared != members_watch  # made through the table link (issue 36)
    # The link its own Share gave, its result page, and the member's lasting watch link:
    # each opened on the phone, which scores on after every one.
    for opened in (shared, f"{shared}/result", members_watch, f"{members_watch}/result"):
        assert phone.get(opened).status_code == 200, opened
        assert _scores(phone, game_id), opened
        save_round(phone, game_id, "Ann", {"Ben": "K"})
    # Share still hands over the table's own watch link, not the member's.
    assert _shared(phone, game_id) == shared
    # The year's review link (looked up at its own address, kept in no session).
    review = _link(app, LinkKind.REVIEW, year=date.today().year)
    assert phone.get(review).status_code == 200
    assert _scores(phone, game_id)
    # A watch link of another game: the phone watches that game, scores nothing there, and
    # keeps its table.
    watch_other = _link(app, LinkKind.WATCH, other)
    assert phone.get(watch_other).status_code == 200
    assert phone.get(f"/games/{other}").status_code == 200
    assert not _scores(phone, other)
    assert _scores(phone, game_id)
    # Opened the other way round: a table link taken after a watch link of the same game and
    # one of another game.
    watcher = app.test_client()
    for opened in (watch_other, shared):
        assert watcher.get(opened).status_code == 200
    assert not _scores(watcher, game_id)
    assert watcher.get(_link(app, LinkKind.TABLE, game_id)).status_code == 303
    assert watcher.get(shared).status_code == 200
    assert _scores(watcher, game_id) and not _scores(watcher, other)
    # And the watch link alone, on a phone of its own, scores nothing.
    relative = app.test_client()
    assert relative.get(shared).status_code == 200
    assert not _scores(relative, game_id)
