"""A finished contract game tells the whole story (issue 35, item 6): its result card and TV
view show each player's contracts beside the points and why the winner won, as the board does,
and the watch page links to the TV view, which a watch link reaches for its own game only."""

from __future__ import annotations

import io
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from scorekeeper import scope
from scorekeeper.accounts import links
from scorekeeper.extensions import db
from scorekeeper.games.card import result_card
from scorekeeper.models import Game, LinkKind

from ..conftest import family_id
from ..history import factory

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
# Ann goes out of rounds 1 to 6 while Ben makes his contract holding four kings; Ben goes out
# of rounds 7 to 12 while Ann holds a 3 and makes nothing. Ben: 12 contracts and 240 points;
# Ann: 6 contracts and 30 points, ranked below him.
ROUNDS = [("Ann", {"Ben": "K K K K"}, {"Ben"})] * 6 + [("Ben", {"Ann": "3"}, set())] * 6


def _game(app: Flask, rounds: list[tuple[object, ...]] = ROUNDS, rules: str = "twelve-step") -> int:
    with app.app_context(), scope.household(family_id(app)):
        game_id = factory.play(["Ann", "Ben"], rounds, rules=rules).id
        db.session.remove()
    return game_id


def test_the_result_card_shows_contracts_and_why(app: Flask, client: FlaskClient) -> None:
    game_id = _game(app)
    with app.test_request_context(), scope.household(family_id(app)):
        result, png = result_card(game_id, with_png=True)
        db.session.remove()
    assert result.totals == (("Ben", 240, True), ("Ann", 30, False))
    assert result.contracts == ("12 of 12", "6 of 12")
    assert result.why is not None and "Ben made 12 contracts" in result.why
    assert result.description.startswith(
        "Ben 12 of 12 contracts, 240 points; Ann 6 of 12 contracts, 30 points"
    )
    assert "contracts made rank first" in result.description
    assert png is not None and Image.open(io.BytesIO(png)).size == (1200, 630)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "result-card-12-step.png").write_bytes(png)
    page = client.get(f"/games/{game_id}/result").get_data(as_text=True)
    assert (
        "Ben 12 of 12 contracts, 240 points" in page
    )  # the card's alt text and the chat's preview


def test_a_points_game_card_is_as_before(app: Flask) -> None:
    game_id = _game(app, [("Ann", {"Ben": "K"})] * 7, rules="contract-rummy")
    with app.test_request_context(), scope.household(family_id(app)):
        result, _png = result_card(game_id)
        db.session.remove()
    assert result.contracts == ()
    assert result.description.startswith("Ann 0; Ben 70. ")
    assert result.why == "Ann finished with 0 points, the fewest."


def test_the_tv_view_shows_contracts_and_the_watch_page_links_to_it(
    app: Flask, client: FlaskClient
) -> None:
    game_id = _game(app)
    other = _game(app)
    tv = client.get(f"/games/{game_id}/tv").get_data(as_text=True)
    ben = tv.split('<span class="tv-name">Ben')[1].split("</li>")[0]
    assert "12 of 12 contracts made" in ben and ">240<" in ben
    assert "6 of 12 contracts made" in tv.split('<span class="tv-name">Ann')[1]
    assert "contracts made rank first, then points" in tv
    with app.test_request_context(), scope.household(family_id(app)):
        game = db.session.get(Game, game_id)
        assert game is not None
        _link, token = links.make_link(LinkKind.WATCH, "ann", game=game)
        db.session.remove()
    phone = app.test_client()
    watch = phone.get(f"/w/{token}").get_data(as_text=True)
    assert f'href="/games/{game_id}/tv"' in watch
    # A watch link reaches its own game's TV view (the scoreboard), and no other game's.
    own = phone.get(f"/games/{game_id}/tv")
    assert own.status_code == 200 and "12 of 12 contracts made" in own.get_data(as_text=True)
    assert phone.get(f"/games/{other}/tv").status_code == 404
    # Nor any other page of the household's.
    assert phone.get("/history").status_code in (302, 303, 403, 404)
