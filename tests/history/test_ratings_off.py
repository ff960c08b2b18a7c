"""Issue 37, item 6: ratings when the household wants them. The owner turns them off in the
household settings (on by default); off, no page shows a rating, a move ("Ben +1.8"), a
leader or a rating chart, to members or to a phone holding a link, and the pages read well
without them; on again, everything is there."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.models import LinkKind

from ..conftest import family_id, signed_in
from .test_game_ratings import TABLE, _phone, _play
from .test_kept_stats import _named

RATED = re.compile(
    r"Rating leader|Biggest climber|<h2>Ratings?</h2>|provisional|rating, game by game"
)


def _checked(page: str) -> bool:
    tag = re.search(r'<input[^>]*name="ratings_shown"[^>]*>', page)
    assert tag is not None
    return "checked" in tag.group(0)


def _set(client: FlaskClient, shown: bool) -> None:
    form = {"setting": "ratings", **({"ratings_shown": "y"} if shown else {})}
    answer = client.post("/household", data=form)
    assert answer.status_code == 303, answer.text
    settings = client.get("/household").text
    assert _checked(settings) is shown


def _pages(app: Flask, client: FlaskClient, game_id: int, year: int) -> dict[str, str]:
    ann = {name: pid for pid, name in _named(app, family_id(app))}["Ann"]
    link = client.post(f"/review/{year}/share").get_json()["url"]
    token_path = "/y/" + link.split("/y/")[1]
    return {
        "players": client.get("/players").text,
        "player": client.get(f"/players/{ann}").text,
        "board": client.get(f"/games/{game_id}").text,
        "season": client.get("/seasons").text,
        "review": client.get(f"/review/{year}").text,
        "review link": client.get(token_path).text,
    }


def test_ratings_are_on_by_default_and_the_owner_turns_them_off_and_on(
    app: Flask, client: FlaskClient
) -> None:
    for winner in ("Ann", "Ben", "Ann", "Cy"):
        game_id = _play(client, winner)
    settings = client.get("/household").text
    assert "<h2>Ratings</h2>" in settings
    assert _checked(settings)
    year = int(client.get("/seasons").text.split('aria-current="page">')[1].split("<")[0])
    shown = _pages(app, client, game_id, year)
    for name, page in shown.items():
        if name != "board":
            assert RATED.search(page), name
    assert f"/history/games/{game_id}/ratings" in shown["board"]
    assert client.get(f"/history/games/{game_id}/ratings").status_code == 200
    card_on = client.get(f"/review/{year}/card.png").data
    watch = _phone(app, LinkKind.WATCH, game_id)
    table = _phone(app, LinkKind.TABLE, game_id)
    for phone in (watch, table):
        assert phone.get(f"/history/games/{game_id}/ratings").status_code == 200

    _set(client, False)
    hidden = _pages(app, client, game_id, year)
    for name, page in hidden.items():
        assert not RATED.search(page), (name, RATED.search(page))
        assert "/ratings" not in page, name
    assert "best rated first" not in hidden["players"]
    assert '<th scope="col" class="num">Rating</th>' not in hidden["players"]
    # The pages still read: the players' games and wins, the season's records, the review.
    assert "<h2>Records</h2>" in hidden["season"]
    assert "Most wins" in hidden["review"] and "Ratings rest on" not in hidden["review"]
    assert "Seasons →" in hidden["players"]
    assert client.get(f"/history/games/{game_id}/ratings").status_code == 404
    assert client.get(f"/review/{year}/card.png").data != card_on
    for phone in (watch, table):
        board = phone.get(f"/games/{game_id}").text
        assert "/ratings" not in board and "Ann" in board
        assert phone.get(f"/history/games/{game_id}/ratings").status_code == 404
    # Only the owner chooses.
    scorer = signed_in(app, "sam", "scorer")
    refused = scorer.post("/household", data={"setting": "ratings", "ratings_shown": "y"})
    assert refused.status_code == 403

    _set(client, True)
    again = _pages(app, client, game_id, year)
    for name, page in again.items():
        if name != "board":
            assert RATED.search(page), name
    assert f"/history/games/{game_id}/ratings" in again["board"]
    assert client.get(f"/review/{year}/card.png").data == card_on
    assert len(TABLE) == 3
