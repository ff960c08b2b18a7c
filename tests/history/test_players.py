"""Players: list, profile statistics, rename and merge."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Player, Seat
from scorekeeper.players import services

from .factory import contract_rummy, day, play, twelve_step_rounds


def player_id(name: str) -> int:
    return db.session.scalar(select(Player.id).where(Player.name == name))  # type: ignore[return-value]


def three_games() -> None:
    """Ann wins two games, Ben one; Cy plays once. Contract Rummy points: K Q = 20, 5 = 5."""
    contract_rummy(["Ann", "Ben"], "Ann", {"Ben": "K Q"}, day(1))  # Ann 0, Ben 140
    contract_rummy(
        ["Ann", "Ben", "Cy"], "Ben", {"Ann": "5", "Cy": "K"}, day(2)
    )  # Ben 0, Ann 35, Cy 70
    contract_rummy(["Ben", "Ann"], "Ann", {"Ben": "3"}, day(3))  # Ann 0, Ben 21
    play(["Ann", "Cy"], [("Cy", {"Ann": "K"})], rules="contract-rummy", started=day(4))


def test_profile_statistics_follow_from_the_games(app: Flask) -> None:
    with app.app_context():
        three_games()
        ann = db.session.get(Player, player_id("Ann"))
        assert ann is not None
        profile = services.profile(ann)
        assert (profile.overall.games, profile.overall.finished, profile.overall.wins) == (4, 3, 2)
        assert profile.in_progress == 1
        assert profile.overall.win_rate == 2 / 3
        # Ann's points in her finished games (as games and wins): 0 + 35 + 0 over 7 + 7 + 7
        # rounds; the game in progress (10 points in 1 round) is not counted.
        assert profile.overall.points_per_round == 35 / 21
        assert profile.best is not None and profile.best.total == 0
        assert profile.worst is not None and profile.worst.total == 35
        assert profile.worst.place == 2 and profile.worst.players == 3
        rivals = {r.opponent: (r.games, r.ahead, r.behind, r.level) for r in profile.head_to_head}
        assert rivals == {"Ben": (3, 2, 1, 0), "Cy": (1, 1, 0, 0)}
        assert [r.slug for r in profile.by_rules] == ["contract-rummy"]
        assert profile.contracts == []  # Contract Rummy plays the round's contract


def test_players_page_lists_games_and_wins(client: FlaskClient, app: Flask) -> None:
    with app.app_context():
        three_games()
        ann = player_id("Ann")
    page = client.get("/players").get_data(as_text=True)
    assert f'href="/players/{ann}"' in page
    row = page[page.index(">Ann<") :].split("</tr>")[0]
    cells = [c.split("<")[0].strip() for c in row.split('<td class="num">')[1:]]
    # The win rate is the wins cell's second line (the rating's column took its own).
    assert cells[:2] == ["3", "2"]
    assert '<span class="muted small second-line">67%</span>' in row
    profile = client.get(f"/players/{ann}")
    assert profile.status_code == 200
    text = profile.get_data(as_text=True)
    assert "Head to head" in text and "67%" in text and 'href="/history?player=' in text
    assert client.get("/players/999").status_code == 404


def test_contract_statistics_in_kept_contract_games(app: Flask) -> None:
    """Ben goes out every round (12 rounds, contracts 1..12); Ann makes contract 1 in round 1
    and contract 2 in round 5, so she spends rounds 2-5 on contract 2 and 6-12 on contract 3."""
    with app.app_context():
        play(
            ["Ann", "Ben"],
            twelve_step_rounds("Ben", {"Ann": "K"}, {1: {"Ann"}, 5: {"Ann"}}),
            rules="twelve-step",
            started=day(1),
        )
        ann = db.session.get(Player, player_id("Ann"))
        assert ann is not None
        contracts = {c.number: (c.games, c.rounds, c.made) for c in services.profile(ann).contracts}
        assert contracts == {1: (1, 1, 1), 2: (1, 4, 1), 3: (1, 7, 0)}
        hardest = services.profile(ann).hardest_contract
        assert hardest is not None and hardest.number == 3


def test_rename_checks_the_name_and_redirects(client: FlaskClient, app: Flask) -> None:
    with app.app_context():
        three_games()
        ann, ben = player_id("Ann"), player_id("Ben")
    taken = client.post(f"/players/{ann}/rename", data={"name": "  BEN "})
    assert taken.status_code == 422
    text = taken.get_data(as_text=True)
    assert "There is already a player called Ben" in text
    assert 'aria-invalid="true"' in text and 'aria-describedby="rename-error"' in text
    fragment = client.post(
        f"/players/{ann}/rename", data={"name": ""}, headers={"HX-Request": "true"}
    )
    assert fragment.status_code == 422
    assert "<html" not in fragment.get_data(as_text=True)
    assert "Type a name." in fragment.get_data(as_text=True)

    done = client.post(f"/players/{ann}/rename", data={"name": " Annie  Lou "})
    assert done.status_code == 303 and done.headers["Location"].endswith(f"/players/{ann}")
    assert "Ann is now called Annie Lou." in client.get(done.headers["Location"]).get_data(
        as_text=True
    )
    with app.app_context():
        assert db.session.get(Player, ann).name_key == "annie lou"  # type: ignore[union-attr]
        assert db.session.get(Player, ben).name == "Ben"  # type: ignore[union-attr]


def test_merge_moves_every_game_and_refuses_two_people(client: FlaskClient, app: Flask) -> None:
    with app.app_context():
        contract_rummy(["Bob", "Ann"], "Bob", {"Ann": "K"}, day(1))
        contract_rummy(["Robert", "Ann"], "Ann", {"Robert": "K"}, day(2))
        contract_rummy(["Robert", "Cy"], "Robert", {"Cy": "K"}, day(3))
        bob, robert, ann = player_id("Bob"), player_id("Robert"), player_id("Ann")

    unconfirmed = client.post(f"/players/{bob}/merge", data={"other": robert})
    assert unconfirmed.status_code == 422
    assert "Tick this to confirm" in unconfirmed.get_data(as_text=True)

    refused = client.post(f"/players/{bob}/merge", data={"other": ann, "confirm": "y"})
    assert refused.status_code == 422
    assert "Bob and Ann both sat at a game" in refused.get_data(as_text=True)
    assert "nothing was merged" in refused.get_data(as_text=True)

    merged = client.post(f"/players/{bob}/merge", data={"other": robert, "confirm": "y"})
    assert merged.status_code == 303
    assert "Robert is merged into Bob: 2 games moved." in client.get(
        merged.headers["Location"]
    ).get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Player, robert) is None
        assert db.session.scalar(select(func.count(Seat.id)).where(Seat.player_id == bob)) == 3
        bob_player = db.session.get(Player, bob)
        assert bob_player is not None
        assert services.profile(bob_player).overall.wins == 2
    assert client.get(f"/players/{robert}").status_code == 404
    again = client.post(f"/players/{bob}/merge", data={"other": robert, "confirm": "y"})
    assert again.status_code == 422
