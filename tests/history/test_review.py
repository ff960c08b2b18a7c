"""The year in review (``scorekeeper.history.review``, issue 26 item 3): each figure on small
hand-built histories (each test changes who did what and sees the answer follow), the page and
its card, Share, and the review link: its own page and card, nothing in the session, revoked
and other households' links answering 404."""

from __future__ import annotations

import io
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image
from sqlalchemy import select

from scorekeeper import scope
from scorekeeper.accounts import links
from scorekeeper.extensions import db
from scorekeeper.games.transfer import import_game
from scorekeeper.history import review, review_words, services
from scorekeeper.models import Game, Link, LinkKind

from ..conftest import add_member, family_id, household_id, signed_in
from ..helpers import game_document

NEW_YORK = "America/New_York"
SEVEN = range(1, 8)


def _import(
    app: Flask,
    table: list[str],
    rounds: list[tuple[str, dict[str, str], set[str]]],
    started: datetime,
    household: int | None = None,
) -> int:
    document = game_document("contract-rummy", table, rounds, started=started.isoformat())
    with app.app_context(), scope.household(household or family_id(app)):
        game_id = import_game(document).id
        db.session.remove()
    return game_id


def _win(table: list[str], winner: str) -> list[tuple[str, dict[str, str], set[str]]]:
    """Seven rounds the winner goes out of, the others holding a king each time."""
    return [(winner, {n: "K" for n in table if n != winner}, set()) for _ in SEVEN]


def _review(app: Flask, year: int, household: int | None = None) -> review.Review:
    with app.test_request_context(), scope.household(household or family_id(app)):
        found = review.compute(year, services.data_version())
        db.session.remove()
    return found


def _figure(found: review.Review, label: str) -> str:
    with_app = [figure for figure in review_words.figures(found) if figure.label == label]
    return with_app[0].sentence if with_app else ""


# --- the figures ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("first", "second"), [("Ann", "Ben"), ("Ben", "Ann")])
def test_most_games_wins_and_streak_follow_who_won(app: Flask, first: str, second: str) -> None:
    # In 2024 the first wins three in a row and the second one; Cy plays once. 2025 is Cy's.
    for day, winner in ((3, first), (4, first), (5, first), (6, second)):
        _import(
            app,
            ["Ann", "Ben"],
            _win(["Ann", "Ben"], winner),
            datetime(2024, 3, day, 18, tzinfo=UTC),
        )
    _import(app, ["Ann", "Cy"], _win(["Ann", "Cy"], "Cy"), datetime(2024, 3, 7, 18, tzinfo=UTC))
    for day in (1, 2, 3):
        _import(
            app, ["Cy", "Dee"], _win(["Cy", "Dee"], "Cy"), datetime(2025, 1, day, 18, tzinfo=UTC)
        )
    found = _review(app, 2024)
    assert found.games == 5 and found.finished == 5 and found.rounds == 35
    assert [r.name for r in found.most_games] == ["Ann"] and found.most_games[0].count == 5
    assert [(r.name, r.count) for r in found.most_wins] == [(first, 3)]
    assert [(s.name, s.length) for s in found.streaks] == [(first, 3)]
    assert f"{first} won the most: 3 wins" in _figure(found, "Most wins")
    assert _figure(found, "Longest winning streak") == f"{first} won 3 games in a row."
    later = _review(app, 2025)
    assert [(r.name, r.count) for r in later.most_wins] == [("Cy", 3)]


def test_a_tie_for_the_lead_names_everyone_in_it_beyond_the_top_three(app: Flask) -> None:
    table = ["Ann", "Ben", "Cy", "Dee"]
    for day, winner in enumerate(table, start=3):
        _import(app, table, _win(table, winner), datetime(2024, 5, day, 18, tzinfo=UTC))
    found = _review(app, 2024)
    assert [row.name for row in found.most_wins] == table
    assert _figure(found, "Most wins") == "Ann, Ben, Cy and Dee won the most: 1 win each."
    assert [row.name for row in found.most_games] == table


def test_ties_name_everyone_tied(app: Flask) -> None:
    for day, winner in ((3, "Ann"), (4, "Ben")):
        _import(
            app,
            ["Ann", "Ben"],
            _win(["Ann", "Ben"], winner),
            datetime(2024, 3, day, 18, tzinfo=UTC),
        )
    found = _review(app, 2024)
    assert _figure(found, "Most wins") == "Ann and Ben won the most: 1 win each."
    assert _figure(found, "Most games") == "Ann and Ben played the most: 2 finished games each."
    assert found.streaks == ()  # nobody won two in a row: no figure rather than a poor one
    assert _figure(found, "Longest winning streak") == ""


@pytest.mark.parametrize(("comeback", "other"), [("Ben", "Ann"), ("Ann", "Ben")])
def test_the_biggest_comeback_is_the_winner_furthest_behind(
    app: Flask, comeback: str, other: str
) -> None:
    # Round 1: the comeback player holds three kings (30 behind); then they go out six times
    # while the other holds a king each round: 10 behind after round 2 ... level after 4.
    rounds = [(other, {comeback: "K K K"}, set())] + [
        (comeback, {other: "K"}, set()) for _ in range(6)
    ]
    _import(app, [other, comeback], rounds, datetime(2024, 5, 1, 18, tzinfo=UTC))
    # A smaller comeback of Cy's the same year, and a bigger one of Dee's the next.
    small = [("Ann", {"Cy": "5"}, set())] + [("Cy", {"Ann": "K"}, set()) for _ in range(6)]
    _import(app, ["Ann", "Cy"], small, datetime(2024, 6, 1, 18, tzinfo=UTC))
    big = [("Ann", {"Dee": "K K K K K"}, set())] + [("Dee", {"Ann": "K"}, set()) for _ in range(6)]
    _import(app, ["Ann", "Dee"], big, datetime(2025, 6, 1, 18, tzinfo=UTC))
    found = _review(app, 2024).comeback
    assert found is not None
    assert (found.name, found.leader, found.round_number) == (comeback, other, 1)
    assert (found.contracts_behind, found.points_behind) == (0, 30)
    assert found.behind == "30 points"
    next_year = _review(app, 2025).comeback
    assert next_year is not None and (next_year.name, next_year.points_behind) == ("Dee", 50)


def test_a_game_won_from_the_front_is_no_comeback(app: Flask) -> None:
    _import(app, ["Ann", "Ben"], _win(["Ann", "Ben"], "Ann"), datetime(2024, 5, 1, 18, tzinfo=UTC))
    assert _review(app, 2024).comeback is None


def test_where_contracts_are_kept_a_contract_behind_outranks_points() -> None:
    """The game's own ranking: most contracts made, then fewest points. Ben trails Ann by a
    contract (with fewer points) after round 1, Cy trails by points only; Ben's is bigger."""
    hands = [
        (1, 1, 0, True, 1),  # Ann goes out, made
        (1, 2, 5, False, 1),  # Ben 5 points, not made: a contract behind
        (1, 3, 40, True, 1),  # Cy made, 40 points behind Ann
        (2, 1, 50, False, 2),
        (2, 2, 0, True, 1),
        (2, 3, 50, False, 2),
    ]
    for winner, expected in ((2, ((1, 5), 1, 2, 1)), (3, ((0, 40), 1, 3, 1))):
        assert review.biggest_deficit(hands, {winner}, keeps=True) == expected
    # Ranked by points only, Cy is the one furthest behind after round 1.
    assert review.biggest_deficit(hands, {3}, keeps=False) == ((0, 40), 1, 3, 1)
    assert review.biggest_deficit(hands, {2}, keeps=False) == ((0, 5), 1, 2, 1)


@pytest.mark.parametrize("hard", [3, 5])
def test_the_hardest_contract_is_the_least_made_of_those_tried_enough(
    app: Flask, monkeypatch: pytest.MonkeyPatch, hard: int
) -> None:
    table = ["Ann", "Ben", "Cy"]
    # Every contract is made by all three, but the hard one by whoever goes out only.
    # (The last contract is made only by going out: the rules make it hard, and it is left out.)
    rounds = [
        ("Ann", {"Ben": "K", "Cy": "K"}, set() if number in (hard, 7) else {"Ben", "Cy"})
        for number in SEVEN
    ]
    _import(app, table, rounds, datetime(2024, 5, 1, 18, tzinfo=UTC))
    monkeypatch.setattr(review, "MIN_TRIES", 3)
    found = _review(app, 2024).hardest
    assert found is not None
    assert (found.contract, found.tries, found.made) == (hard, 3, 1)
    assert found.rules_name.startswith("Contract Rummy") and found.description
    assert "made 1 of the 3 times it was tried (33%)" in _figure(
        _review(app, 2024), "Hardest contract"
    )
    monkeypatch.setattr(review, "MIN_TRIES", 4)
    assert _review(app, 2024).hardest is None  # one try too few: no contract wins on luck


def test_the_rating_leader_and_the_biggest_climber(app: Flask) -> None:
    # 2024: Ann beats Ben twice, then Ben beats Ann three times: Ben leads at the year's end.
    for day, winner in ((1, "Ann"), (2, "Ann"), (3, "Ben"), (4, "Ben"), (5, "Ben")):
        _import(
            app,
            ["Ann", "Ben"],
            _win(["Ann", "Ben"], winner),
            datetime(2024, 4, day, 18, tzinfo=UTC),
        )
    found = _review(app, 2024)
    assert found.leader is not None and found.leader.name == "Ben"
    assert found.climber is not None and found.climber.name == "Ben"
    assert "Ben ended the year with the best rating" in _figure(found, "Rating leader")
    # 2025: Ann wins three: she climbs most, though Ben's earlier games still count for him.
    for day in (1, 2, 3):
        _import(
            app, ["Ann", "Ben"], _win(["Ann", "Ben"], "Ann"), datetime(2025, 4, day, 18, tzinfo=UTC)
        )
    later = _review(app, 2025)
    assert later.climber is not None and later.climber.name == "Ann"
    assert later.climber.climb > 0


def test_the_busiest_evening_runs_from_five_to_five_and_counts_finished_games(
    app: Flask, client: FlaskClient
) -> None:
    # In UTC: 01:00 and 02:00 on 4 March are the evening of 3 March (an evening runs 05:00 to
    # 05:00); 08:00 and 18:00 on 4 March are the evening of 4 March.
    for hour in (1, 2, 8, 18):
        _import(
            app,
            ["Ann", "Ben"],
            _win(["Ann", "Ben"], "Ann"),
            datetime(2024, 3, 4, hour, tzinfo=UTC),
        )
    # Two games still being played on the evening of 4 March count for nothing.
    for hour in (19, 20):
        _import(
            app,
            ["Ann", "Ben"],
            _win(["Ann", "Ben"], "Ann")[:2],
            datetime(2024, 3, 4, hour, tzinfo=UTC),
        )
    assert _review(app, 2024).busiest == review.Evening(datetime(2024, 3, 3).date(), 2, 14)
    page = client.get("/review/2024").get_data(as_text=True)
    assert "The evening of 3 March: 2 games and 14 rounds." in page
    assert "05:00 to 05:00" in page
    assert client.post("/household", data={"time_zone": NEW_YORK}).status_code in (200, 303)
    with app.app_context():
        db.session.remove()
    # In New York 08:00 UTC on 4 March is 03:00: still the evening of 3 March.
    found = _review(app, 2024).busiest
    assert found is not None and (found.day.day, found.games, found.rounds) == (3, 3, 21)
    # The kept review follows the zone (the data version names it).
    assert "The evening of 3 March: 3 games and 21 rounds." in client.get("/review/2024").get_data(
        as_text=True
    )


def test_new_years_eve_is_one_evening_of_the_year_it_began_in(
    app: Flask, client: FlaskClient
) -> None:
    """The games played after midnight on New Year's Eve count with that evening, in the year
    it began, never as an evening of the next year's review (St John's, 3.5 hours behind)."""
    zone = ZoneInfo("America/St_Johns")
    assert client.post("/household", data={"time_zone": zone.key}).status_code in (200, 303)
    evenings = {
        2024: [(12, 31, 22), (1, 1, 0), (1, 1, 2)],
        2025: [(12, 31, 23), (1, 1, 0), (1, 1, 3)],
    }
    for eve, games in evenings.items():
        for month, day, hour in games:
            local = datetime(eve + (month == 1), month, day, hour, 30, tzinfo=zone)
            _import(app, ["Ann", "Ben"], _win(["Ann", "Ben"], "Ann"), local.astimezone(UTC))
    _import(
        app,
        ["Ann", "Ben"],
        _win(["Ann", "Ben"], "Ben"),
        datetime(2026, 1, 1, 18, tzinfo=zone).astimezone(UTC),
    )
    with app.app_context():
        db.session.remove()
    for number, day, games in (
        (2024, date(2024, 12, 31), 3),
        (2025, date(2025, 12, 31), 3),
        (2026, date(2026, 1, 1), 1),
    ):
        found = _review(app, number).busiest
        assert found is not None and (found.day, found.games) == (day, games), number
        page = client.get(f"/review/{number}").get_data(as_text=True)
        assert f"The evening of {day.day} {day:%B}: {games} game" in page
        assert "the first hours of 1 January belong to the year before" in page


def test_the_kept_review_follows_every_new_game(app: Flask, client: FlaskClient) -> None:
    _some_history(app)
    before = client.get("/review/2024")
    assert "Ann won the most: 2 wins" in before.get_data(as_text=True)
    for day in (5, 6, 7):
        _import(
            app, ["Ann", "Ben"], _win(["Ann", "Ben"], "Ben"), datetime(2024, 4, day, 18, tzinfo=UTC)
        )
    after = client.get("/review/2024", headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200
    assert "Ben won the most: 3 wins" in after.get_data(as_text=True)


def test_the_command_line_makes_no_review_link(app: Flask, client: FlaskClient) -> None:
    """``flask link add`` keeps its kinds, table and watch: a review link is made by Share."""
    game_id = _import(
        app, ["Ann", "Ben"], _win(["Ann", "Ben"], "Ann"), datetime(2024, 4, 1, 18, tzinfo=UTC)
    )
    refused = app.test_cli_runner().invoke(args=["link", "add", str(game_id), "--kind", "review"])
    assert refused.exit_code != 0 and "'table', 'watch'" in refused.output


# --- the pages -----------------------------------------------------------------------------------


def _some_history(app: Flask, household: int | None = None, winner: str = "Ann") -> None:
    for day in (1, 2):
        _import(
            app,
            ["Ann", "Ben"],
            _win(["Ann", "Ben"], winner),
            datetime(2024, 4, day, 18, tzinfo=UTC),
            household,
        )


def test_the_page_says_who_and_how_much_and_answers_304(app: Flask, client: FlaskClient) -> None:
    _some_history(app)
    answer = client.get("/review/2024")
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert "2024 in review" in page and "Ann won the most: 2 wins (of 2 games)." in page
    assert 'src="/review/2024/card.png"' in page and 'alt="2024 at the table' in page
    assert 'og:image" content="http://localhost/review/2024/card.png"' in page
    again = client.get("/review/2024", headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304
    card = client.get("/review/2024/card.png")
    assert card.mimetype == "image/png"
    assert Image.open(io.BytesIO(card.data)).size == (1200, 630)
    held = client.get("/review/2024/card.png", headers={"If-None-Match": card.headers["ETag"]})
    assert held.status_code == 304 and held.data == b""
    # Linked from the seasons and the history.
    assert 'href="/review/2024"' in client.get("/seasons").get_data(as_text=True)
    assert 'href="/review/2024"' in client.get("/history").get_data(as_text=True)


def test_a_year_without_games_has_no_review_and_links_to_those_that_do(
    app: Flask, client: FlaskClient
) -> None:
    assert "No game has been played yet" in client.get("/review/2019").get_data(as_text=True)
    _some_history(app)
    _import(app, ["Cy", "Dee"], _win(["Cy", "Dee"], "Dee"), datetime(2021, 4, 1, 18, tzinfo=UTC))
    answer = client.get("/review/2019")
    page = answer.get_data(as_text=True)
    assert answer.status_code == 404
    assert "No game was played in 2019" in page
    assert 'href="/review/2024"' in page and 'href="/review/2021"' in page
    assert 'href="/review/2023"' not in page and 'href="/review/2022"' not in page
    assert client.get("/review/2022/card.png").status_code == 404
    assert client.post("/review/2022/share").status_code == 404
    for far in (1, 9999, 0, 10000):
        assert client.get(f"/review/{far}").status_code == 404
    assert client.get("/review/2021").status_code == 200
    # The seasons list the years played only, and each year's review.
    seasons_page = client.get("/seasons").get_data(as_text=True)
    assert 'href="/review/2021"' in seasons_page and 'href="/review/2022"' not in seasons_page
    assert 'href="/seasons?year=2023"' not in seasons_page
    # Nor is a year nobody played in a season, typed in the address.
    empty = client.get("/seasons?year=2022")
    assert empty.status_code == 404
    assert "No game was played in 2022" in empty.get_data(as_text=True)
    assert 'href="/seasons?year=2021"' in empty.get_data(as_text=True)
    assert client.get("/seasons?year=2021").status_code == 200


def test_share_makes_one_link_and_a_viewer_only_gets_one_that_exists(
    app: Flask, client: FlaskClient
) -> None:
    _some_history(app)
    viewer = signed_in(app, "vera", "viewer")
    said = viewer.post("/review/2024/share").get_json()
    assert "url" not in said and "owner or scorer" in said["message"]
    first = client.post("/review/2024/share").get_json()["url"]
    assert "/y/" in first and client.post("/review/2024/share").get_json()["url"] == first
    assert viewer.post("/review/2024/share").get_json()["url"] == first
    _import(app, ["Ann", "Ben"], _win(["Ann", "Ben"], "Ben"), datetime(2023, 4, 1, 18, tzinfo=UTC))
    assert client.post("/review/2023/share").get_json()["url"] != first  # a link a year
    etag = client.get("/review/2023").headers["ETag"]
    third = client.post("/review/2023/share").get_json()["url"]
    with app.app_context():
        link_id = db.session.scalar(select(Link.id).where(Link.year == 2023))
    client.post(f"/links/{link_id}/revoke")
    # The list of links is on the page: a link made or revoked is not answered by a 304.
    fresh = client.get("/review/2023", headers={"If-None-Match": etag})
    assert fresh.status_code == 200 and third not in fresh.get_data(as_text=True)
    page = client.get("/review/2024").get_data(as_text=True)
    assert first in page and "Made by owner" in page and "Revoke this link" in page
    assert "Revoke this link" not in viewer.get("/review/2024").get_data(as_text=True)


def _review_token(app: Flask, year: int, household: int | None = None) -> tuple[int, str]:
    with app.test_request_context(), scope.household(household or family_id(app)):
        link, token = links.make_link(LinkKind.REVIEW, "ann", year=year)
        link_id = link.id
        db.session.remove()
    return link_id, token


def test_a_review_link_shows_its_year_and_keeps_nothing(app: Flask, client: FlaskClient) -> None:
    _some_history(app)
    _import(app, ["Cy", "Dee"], _win(["Cy", "Dee"], "Dee"), datetime(2025, 4, 1, 18, tzinfo=UTC))
    _link_id, token = _review_token(app, 2024)
    relative = app.test_client()
    answer = relative.get(f"/y/{token}")
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert "Ann won the most" in page and "Dee" not in page and "Cy" not in page
    assert f'og:image" content="http://localhost/y/{token}/card.png"' in page
    assert "Set-Cookie" not in answer.headers and relative.get_cookie("session") is None
    assert "<form" not in page and 'href="/' not in page.split("<main")[1]
    card = relative.get(f"/y/{token}/card.png")
    assert card.status_code == 200 and Image.open(io.BytesIO(card.data)).size == (1200, 630)
    # It lets nobody in: the household's pages still ask to sign in.
    for page_path in ("/history", "/review/2024", "/review/2025", "/review/2024/card.png"):
        assert "/login" in relative.get(page_path).headers.get("Location", ""), page_path
    assert relative.get(f"/y/{token}x").status_code == 404
    again = relative.get(f"/y/{token}", headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304


def test_a_revoked_review_link_answers_404(app: Flask, client: FlaskClient) -> None:
    _some_history(app)
    link_id, token = _review_token(app, 2024)
    relative = app.test_client()
    page = relative.get(f"/y/{token}")
    assert page.status_code == 200
    revoked = client.post(f"/links/{link_id}/revoke")
    assert revoked.status_code == 303
    assert revoked.headers["Location"].startswith("/review/2024")
    assert relative.get(f"/y/{token}").status_code == 404
    # Even with the ETag it held: the link is looked up before anything else.
    etag = page.headers["ETag"]
    assert relative.get(f"/y/{token}", headers={"If-None-Match": etag}).status_code == 404
    assert relative.get(f"/y/{token}/card.png").status_code == 404
    with app.app_context():
        assert db.session.scalar(select(Link.revoked_at).where(Link.id == link_id)) is not None


def test_another_households_review_link_shows_only_theirs(app: Flask) -> None:
    _some_history(app)
    add_member(app, "olga", "owner", household="Others")
    others = household_id(app, "Others")
    _some_history(app, others, winner="Ben")
    _link_id, theirs = _review_token(app, 2024, others)
    page = app.test_client().get(f"/y/{theirs}").get_data(as_text=True)
    assert "Others: 2024 in review" in page and "Ben won the most" in page
    assert "Ann won the most" not in page
    # A member of the Family cannot revoke it, nor see it listed.
    family = signed_in(app, "owner")
    assert family.post(f"/links/{_link_id}/revoke").status_code == 404
    assert theirs not in family.get("/review/2024").get_data(as_text=True)
    assert app.test_client().get(f"/y/{theirs}").status_code == 200


def test_a_review_link_is_no_watch_link(app: Flask, client: FlaskClient) -> None:
    """Each kind opens at its own address only."""
    _some_history(app)
    _link_id, token = _review_token(app, 2024)
    visitor = app.test_client()
    assert visitor.get(f"/w/{token}").status_code == 404
    assert visitor.get(f"/t/{token}").status_code == 404
    assert visitor.get(f"/w/{token}/card.png").status_code == 404
    with app.test_request_context(), scope.household(family_id(app)):
        with pytest.raises(ValueError):
            links.make_link(LinkKind.REVIEW, "ann")
        db.session.remove()


def test_a_review_links_etag_tells_nothing_of_other_years(app: Flask, client: FlaskClient) -> None:
    """Its ETag follows what the page shows, not the household's data version: a game of
    another year leaves it as it was (the link's holder does not learn when the family plays),
    a game of its own year changes it, and nothing of the household is spelled in it."""
    _some_history(app)
    _link_id, token = _review_token(app, 2024)
    relative = app.test_client()
    etag = relative.get(f"/y/{token}").headers["ETag"]
    with app.test_request_context(), scope.household(family_id(app)):
        from scorekeeper.history import services

        version = services.data_version()
        db.session.remove()
    assert version not in etag and "UTC" not in etag
    _import(app, ["Cy", "Dee"], _win(["Cy", "Dee"], "Dee"), datetime(2026, 4, 1, 18, tzinfo=UTC))
    unchanged = relative.get(f"/y/{token}", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304
    _import(app, ["Cy", "Dee"], _win(["Cy", "Dee"], "Dee"), datetime(2024, 5, 1, 18, tzinfo=UTC))
    moved = relative.get(f"/y/{token}", headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["ETag"] != etag
    assert "3 finished games" in moved.get_data(as_text=True)


def test_a_phone_holding_a_watch_link_opens_a_review_link(app: Flask, client: FlaskClient) -> None:
    """The relatives who watch games are the ones a year's link is sent to."""
    _some_history(app)
    _link_id, token = _review_token(app, 2024)
    with app.test_request_context(), scope.household(family_id(app)):
        game = db.session.scalars(select(Game)).first()
        assert game is not None
        _watch, watch_token = links.make_link(LinkKind.WATCH, "ann", game=game)
        db.session.remove()
    phone = app.test_client()
    assert phone.get(f"/w/{watch_token}").status_code == 200
    page = phone.get(f"/y/{token}")
    assert page.status_code == 200 and "Ann won the most" in page.get_data(as_text=True)
    assert phone.get(f"/y/{token}/card.png").mimetype == "image/png"
    # And it still reaches nothing else of the household's.
    assert phone.get("/review/2024").status_code in (302, 303)


def test_an_error_on_a_link_page_logs_no_token(
    app: Flask,
    client: FlaskClient,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Flask's line for an unhandled error names the address as the request log does."""
    _some_history(app)
    _link_id, token = _review_token(app, 2024)

    def broken(*_args: object) -> review.Review:
        raise RuntimeError("the review broke")

    monkeypatch.setattr(review, "review_of", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    with caplog.at_level("ERROR"):
        answer = app.test_client().get(f"/y/{token}?secret=1")
    assert answer.status_code == 500 or answer.status_code == 503
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "Exception on /y/***" in logged and "?secret=***" in logged
    assert token not in logged and token not in caplog.text
