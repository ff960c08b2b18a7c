"""Nothing deleted in one click: games and house rules wait in the bin 30 days."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import scope
from scorekeeper.bin import services as bin_services
from scorekeeper.extensions import db
from scorekeeper.models import Game, HouseRules, Round, utcnow

from .conftest import family_id, signed_in
from .helpers import save_round, start_game


def _finished_game(client: FlaskClient) -> int:
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben"])
    for _ in range(7):
        save_round(client, game_id, "Ann", {"Ben": "K"})
    return game_id


def test_a_deleted_game_leaves_every_page_and_comes_back_whole(
    client: FlaskClient, app: Flask
) -> None:
    game_id = _finished_game(client)
    before = client.get(f"/games/{game_id}/export").get_json()
    assert "Ann" in client.get("/records").get_data(as_text=True)
    answer = client.post(f"/games/{game_id}/delete")
    assert answer.status_code == 303 and answer.headers["Location"] == "/bin"
    assert client.get(f"/games/{game_id}").status_code == 404
    assert f"/games/{game_id}" not in client.get("/history").get_data(as_text=True)
    assert "Ann" not in client.get("/records").get_data(as_text=True)
    page = client.get("/bin").get_data(as_text=True)
    assert "Contract Rummy" in page and "by owner" in page
    assert client.post(f"/bin/games/{game_id}/restore").status_code == 303
    after = client.get(f"/games/{game_id}/export").get_json()
    assert {k: v for k, v in after.items() if k != "exported"} == {
        k: v for k, v in before.items() if k != "exported"
    }


def test_deleted_house_rules_come_back_unless_their_name_is_taken(
    client: FlaskClient, app: Flask
) -> None:
    from scorekeeper import house_rules

    with app.app_context(), scope.household(family_id(app)):
        record = house_rules.save("Gran", {"base": "twelve-step"})
        record_id, slug = record.id, record.slug
    assert client.post(f"/rules/{slug}/delete").status_code == 303
    assert client.get(f"/rules/{slug}").status_code == 404
    with app.app_context(), scope.household(family_id(app)):
        again = house_rules.save("Gran", {"base": "russian-rummy"})
        assert again.slug != slug  # the binned one keeps its slug for coming back
    refused = client.post(f"/bin/rules/{record_id}/restore", follow_redirects=True)
    assert "rename them first" in refused.get_data(as_text=True)
    assert client.post(f"/rules/{again.slug}/delete").status_code == 303
    assert client.post(f"/bin/rules/{record_id}/restore").status_code == 303
    assert client.get(f"/rules/{slug}").status_code == 200


def test_emptying_the_bin_deletes_for_good(client: FlaskClient, app: Flask) -> None:
    game_id = _finished_game(client)
    client.post(f"/games/{game_id}/delete")
    assert client.post("/bin/empty").status_code == 303
    assert client.post(f"/bin/games/{game_id}/restore").status_code == 404
    with app.app_context(), scope.with_bin():
        assert db.session.scalar(select(func.count(Game.id))) == 0
        assert db.session.scalar(select(func.count(Round.id))) == 0


def test_the_purge_removes_what_waited_30_days_in_every_household(app: Flask) -> None:
    ours = signed_in(app, "ann")
    theirs = signed_in(app, "zed", household="Others")
    old, fresh, other = _finished_game(ours), _finished_game(ours), _finished_game(theirs)
    for client, game_id in ((ours, old), (ours, fresh), (theirs, other)):
        client.post(f"/games/{game_id}/delete")
    with app.app_context(), scope.with_bin():
        for game_id in (old, other):
            game = db.session.get(Game, game_id)
            assert game is not None and game.deleted_at is not None
            game.deleted_at -= timedelta(days=30, minutes=1)
        db.session.commit()
        assert bin_services.purge() == 2
        left = db.session.scalars(select(Game.id)).all()
    assert left == [fresh]


def test_only_the_owner_may_delete_or_restore(app: Flask) -> None:
    owner = signed_in(app, "ann")
    scorer = signed_in(app, "ben", "scorer")
    game_id = _finished_game(owner)
    assert scorer.post(f"/games/{game_id}/delete").status_code == 403
    assert "Delete the game" not in scorer.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Delete the game" in owner.get(f"/games/{game_id}").get_data(as_text=True)
    owner.post(f"/games/{game_id}/delete")
    assert scorer.post(f"/bin/games/{game_id}/restore").status_code == 403
    assert scorer.get("/bin").status_code == 403
    with app.app_context(), scope.with_bin():
        assert db.session.scalar(select(HouseRules.id)) is None
        game = db.session.get(Game, game_id)
        assert game is not None and game.deleted_at is not None and game.deleted_at <= utcnow()


def test_a_binned_game_is_named_by_its_day_in_the_households_zone(
    client: FlaskClient, app: Flask
) -> None:
    """A game started at 22:30 on New Year's Eve in St John's (02:00 on 1 January in UTC) is
    the game of 31 Dec in the bin, as on every other page."""
    game_id = _finished_game(client)
    assert client.post("/household", data={"time_zone": "America/St_Johns"}).status_code in (
        200,
        303,
    )
    with app.app_context(), scope.household(family_id(app)):
        game = db.session.get(Game, game_id)
        assert game is not None
        game.started = datetime(2025, 1, 1, 2, tzinfo=UTC)
        db.session.commit()
        db.session.remove()
    assert client.post(f"/games/{game_id}/delete").status_code == 303
    page = client.get("/bin").get_data(as_text=True)
    assert ", 31 Dec 2024: Ann, Ben" in page
