"""Issue 42 items 3 and 4: the score sheet of the four published games (Shanghai, Liverpool,
Carioca, Continental): cards dealt and packs, Continental's bonus for going down and out in one
turn (round form, own phone, board, game file, backup), Carioca's tie-break by rounds won (in
words on the board, the result page and the TV), Liverpool's last round laid down while going
out, the statistics pages; new game and the referee offering them in groups; a game file of
rules this version does not know refused by name."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Sequence
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import delete

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.games.tally import HandEntry, RoundEntry, tally_game
from scorekeeper.models import Game
from scorekeeper.rules import get_ruleset

from ..conftest import family_id
from ..helpers import RoundSpec, game_document, save_round, start_game
from .test_drafts import hand_post, rounds_of, table_phone
from .test_pages import text

THREE = ("Ann", "Ben", "Cy")
ONE_TURN = {"went_out_in_one_turn": "y"}


def plain(page: str) -> str:
    """A page's words, tags dropped and entities read, spaces as one."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def upload(client: FlaskClient, document: dict[str, Any]) -> Any:
    return client.post(
        "/games/import",
        data={"file": (BytesIO(json.dumps(document).encode()), "game.json")},
        content_type="multipart/form-data",
    )


def exported(client: FlaskClient, game_id: int) -> dict[str, Any]:
    answer = client.get(f"/games/{game_id}/export")
    assert answer.status_code == 200
    document: dict[str, Any] = answer.get_json()
    return document


def lasting(document: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in document.items() if key not in ("id", "exported")}


# --- the bonus --------------------------------------------------------------------------------


def test_going_down_and_out_in_one_turn_scores_continentals_minus_ten() -> None:
    rules = get_ruleset("continental")
    hands = (HandEntry(), HandEntry(cards="K 5", made_contract=False), HandEntry(cards="JK"))
    played = tally_game(rules, THREE, 0, [RoundEntry(0, hands, went_out_in_one_turn=True)])
    assert played.problems == ()
    assert [hand.points for hand in played.rounds[0].hands] == [-10, 15, 50]
    assert played.rounds[0].went_out_in_one_turn
    assert [standing.total for standing in played.standings] == [-10, 15, 50]
    # Without the box: 0, as every going out.
    plain_round = tally_game(rules, THREE, 0, [RoundEntry(0, hands)])
    assert plain_round.rounds[0].hands[0].points == 0


@pytest.mark.parametrize("slug", ["carioca", "shanghai", "liverpool", "twelve-step"])
def test_the_bonus_is_refused_where_the_rules_give_none(slug: str) -> None:
    hands = (HandEntry(), HandEntry(cards="K", made_contract=False), HandEntry(cards="5"))
    played = tally_game(get_ruleset(slug), THREE, 0, [RoundEntry(0, hands, True)])
    assert [str(problem) for problem in played.problems] == [
        f"Round 1: {get_ruleset(slug).name} gives no bonus for going down and out in one turn."
    ]


def test_the_round_form_offers_the_bonus_only_where_the_rules_give_one(
    client: FlaskClient,
) -> None:
    continental = start_game(client, "continental", THREE)
    form = text(client.get(f"/games/{continental}/rounds/new"))
    assert 'name="went_out_in_one_turn"' in form
    assert "Went down and out in one turn (-10)" in plain(form)
    for slug in ("carioca", "twelve-step"):
        other = start_game(client, slug, THREE)
        assert 'name="went_out_in_one_turn"' not in text(client.get(f"/games/{other}/rounds/new"))
        # Sent anyway (an old page, a hand-made post): refused where it was typed, not stored.
        refused = save_round(
            client, other, "Ann", {"Ben": "K", "Cy": "5"}, expect=422, extra=ONE_TURN
        )
        assert "gives no bonus for going down and out in one turn" in plain(text(refused))


def test_the_bonus_saved_on_the_round_form_shows_on_the_board_and_corrects(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "continental", THREE)
    save_round(client, game_id, "Ben", {"Ann": "K 5", "Cy": "JK"}, extra=ONE_TURN)
    board = text(client.get(f"/games/{game_id}"))
    assert 'aria-label="went down and out in one turn"' in board
    assert "Going down and out in one turn scores -10" in plain(board)
    standings = exported(client, game_id)["standings"]
    assert [(row["player"], row["total"]) for row in standings] == [
        ("Ben", -10),
        ("Ann", 15),
        ("Cy", 50),
    ]
    assert [rounds_of(app, game_id)[0].went_out_in_one_turn] == [True]
    # The correction form shows the box ticked; corrected without it, Ben scores 0.
    correction = text(client.get(f"/games/{game_id}/rounds/1/edit"))
    assert re.search(r'name="went_out_in_one_turn" value="y" checked', correction)
    form = {
        "went_out": "1",
        "hands-0-cards": "K 5",
        "hands-2-cards": "JK",
        "version": "1",
        "save": "1",
    }
    saved = client.post(f"/games/{game_id}/rounds/1/edit", data=form)
    assert saved.status_code == 302, text(saved)
    assert exported(client, game_id)["rounds"][0]["players"]["Ben"]["points"] == 0
    assert "went_out_in_one_turn" not in exported(client, game_id)["rounds"][0]


def test_the_close_page_names_who_went_down_and_out_in_one_turn(
    app: Flask, client: FlaskClient
) -> None:
    """Every other hand came in on its phone; the one who went out has no phone at the table:
    the scorer names them out on the close page, with the bonus, where the rules give one."""
    game_id = start_game(client, "continental", THREE)
    ben, cy = (table_phone(app, game_id, seat) for seat in (1, 2))
    hand_post(ben, game_id, 1, cards="K K", done="not")
    hand_post(cy, game_id, 2, cards="5", done="not")
    page = plain(text(client.get(f"/games/{game_id}/close")))
    assert "Went down and out in one turn (-10)" in page
    closed = client.post(
        f"/games/{game_id}/close",
        data={"number": "1", "went_out": "0", "close": "1", **ONE_TURN},
    )
    assert closed.status_code == 303, text(closed)
    (played,) = rounds_of(app, game_id)
    assert played.went_out_in_one_turn
    totals = {row["player"]: row["total"] for row in exported(client, game_id)["standings"]}
    assert totals == {"Ann": -10, "Ben": 20, "Cy": 5}
    # Ann's phone said plainly that she went out: the close page may still say it was in one
    # turn, and leaves it unsaid unless asked.
    for ticked in (True, False):
        game_id = start_game(client, "continental", THREE)
        ann, ben = (table_phone(app, game_id, seat) for seat in range(2))
        hand_post(ann, game_id, 0, went_out="1")
        hand_post(ben, game_id, 1, cards="K K", done="not")
        page = plain(text(client.get(f"/games/{game_id}/close")))
        assert "Ann went down and out in one turn (-10)" in page, page
        assert "Who went out?" not in page
        closed = client.post(
            f"/games/{game_id}/close",
            data={"number": "1", "close": "1", "cards-2": "5", **(ONE_TURN if ticked else {})},
        )
        assert closed.status_code == 303, text(closed)
        (played,) = rounds_of(app, game_id)
        assert played.went_out_in_one_turn is ticked
        totals = {row["player"]: row["total"] for row in exported(client, game_id)["standings"]}
        assert totals["Ann"] == (-10 if ticked else 0)
    # A phone that claimed it itself is not asked again.
    game_id = start_game(client, "continental", THREE)
    hand_post(table_phone(app, game_id, 0), game_id, 0, went_out="one-turn")
    assert "down and out" not in plain(text(client.get(f"/games/{game_id}/close")))

    # Where the rules give no bonus, the close page offers none.
    other = start_game(client, "liverpool", THREE)
    hand_post(table_phone(app, other, 1), other, 1, cards="K", done="not")
    assert "down and out" not in plain(text(client.get(f"/games/{other}/close")))


def test_the_rounds_csv_says_who_went_down_and_out_in_one_turn(client: FlaskClient) -> None:
    game_id = start_game(client, "continental", THREE)
    save_round(client, game_id, "Ben", {"Ann": "K 5", "Cy": "JK"}, extra=ONE_TURN)
    save_round(client, game_id, "Cy", {"Ann": "A", "Ben": "2"})
    answer = client.get("/history/rounds.csv")
    assert answer.status_code == 200
    rows = list(csv.DictReader(io.StringIO(answer.get_data(as_text=True))))
    marked = {
        (row["round"], row["player"]): (row["went_out_in_one_turn"], row["points"])
        for row in rows
        if row["game"] == str(game_id)
    }
    assert marked == {
        ("1", "Ann"): ("no", "15"),
        ("1", "Ben"): ("yes", "-10"),
        ("1", "Cy"): ("no", "50"),
        ("2", "Ann"): ("no", "20"),
        ("2", "Ben"): ("no", "2"),
        ("2", "Cy"): ("no", "0"),
    }


def test_the_player_who_went_out_claims_the_bonus_on_their_own_phone(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "continental", THREE)
    ann, ben, cy = (table_phone(app, game_id, seat) for seat in range(3))
    page = text(ann.get(f"/games/{game_id}/hand"))
    assert "I went down and out in one turn (-10)" in plain(page)
    status, page = hand_post(ann, game_id, 0, went_out="one-turn")
    assert status in (200, 303)
    mine = plain(text(ann.get(f"/games/{game_id}/hand")))
    assert "You went down and out in one turn ★ -10 points." in mine
    # The others see no such button once someone is out.
    assert "down and out" not in plain(text(ben.get(f"/games/{game_id}/hand")))
    hand_post(ben, game_id, 1, cards="K K", done="not")
    hand_post(cy, game_id, 2, cards="5", done="not")
    (played,) = rounds_of(app, game_id)
    assert played.went_out_in_one_turn
    assert exported(client, game_id)["standings"][0] == {
        "player": "Ann",
        "total": -10,
        "contract": 2,
        "contracts_made": 1,
        "place": 1,
    }
    # Where the rules give no bonus, the phone offers none.
    carioca = start_game(client, "carioca", THREE)
    phone = table_phone(app, carioca, 0)
    assert "down and out" not in plain(text(phone.get(f"/games/{carioca}/hand")))


# --- the tie-break by rounds won -------------------------------------------------------------

# Ann goes out in 5 rounds, Ben in 3: both finish on 60, Cy on 240.
CARIOCA_TIE: list[RoundSpec] = [
    *[("Ann", {"Ben": "K", "Cy": "K K K"}, ()) for _ in range(4)],
    ("Ann", {"Ben": "K K", "Cy": "K K K"}, ()),
    *[("Ben", {"Ann": "K K", "Cy": "K K K"}, ()) for _ in range(3)],
]
WHY = (
    "Ann and Ben both finished with 60 points, the lowest total; Ann went out in 5 rounds to "
    "Ben's 3 and wins."
)


def test_carioca_breaks_a_tie_on_points_by_rounds_won() -> None:
    entries = [
        RoundEntry(
            THREE.index(out),
            tuple(
                HandEntry() if name == out else HandEntry(cards=cards[name], made_contract=False)
                for name in THREE
            ),
        )
        for out, cards, _made in CARIOCA_TIE
    ]
    played = tally_game(get_ruleset("carioca"), THREE, 0, entries)
    assert played.problems == () and played.is_over
    assert played.winner_names == ("Ann",)
    assert str(played.tie_break) == WHY
    assert [(s.name, s.total, s.place) for s in played.standings] == [
        ("Ann", 60, 1),
        ("Ben", 60, 2),
        ("Cy", 240, 3),
    ]
    # Level on rounds won too (4 each, 40 points each): they share.
    ann_out = RoundEntry(0, (HandEntry(), HandEntry(cards="K"), HandEntry(cards="K K K")))
    ben_out = RoundEntry(1, (HandEntry(cards="K"), HandEntry(), HandEntry(cards="K K K")))
    shared = tally_game(get_ruleset("carioca"), THREE, 0, [ann_out, ben_out] * 4)
    assert shared.problems == ()
    assert shared.winner_names == ("Ann", "Ben")
    assert str(shared.tie_break) == (
        "Ann and Ben both finished with 40 points, the lowest total; each went out in 4 "
        "rounds, so they share the win."
    )
    # Under rules without this tie-break, the same tie is shared on points alone.
    cy_out = RoundEntry(2, (HandEntry(cards="K"), HandEntry(cards="K"), HandEntry()))
    continental = tally_game(
        get_ruleset("continental"), THREE, 0, [*[ann_out, ben_out] * 3, cy_out]
    )
    assert continental.winner_names == ("Ann", "Ben")
    assert "went out in" not in str(continental.tie_break)


def test_the_tie_break_by_rounds_won_is_said_on_the_board_the_result_and_the_tv(
    client: FlaskClient,
) -> None:
    game_id = start_game(client, "carioca", THREE)
    board = text(client.get(f"/games/{game_id}"))
    assert "Level on points at the end: whoever went out in the most rounds wins." in board
    for out, cards, made in CARIOCA_TIE:
        save_round(client, game_id, out, cards, made)
    document = exported(client, game_id)
    assert document["status"] == "finished" and document["winners"] == ["Ann"]
    assert document["tie_break"] == WHY
    for page in ("", "/tv"):
        assert WHY in plain(text(client.get(f"/games/{game_id}{page}"))), page
    # The result page's card says it in its picture, and in its words beside it.
    assert WHY in html.unescape(text(client.get(f"/games/{game_id}/result")))


def test_a_finished_carioca_game_counts_in_history_records_and_the_players_pages(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "carioca", THREE)
    for out, cards, made in CARIOCA_TIE:
        save_round(client, game_id, out, cards, made)
    assert "Carioca (Chile, 8 rounds)" in plain(text(client.get("/history")))
    records = plain(text(client.get("/records")))
    assert "Carioca (Chile, 8 rounds)" in records
    with app.app_context(), scope.household(family_id(app)):
        game = db.session.get(Game, game_id)
        assert game is not None
        ann = next(seat.player_id for seat in game.seats if seat.player.name == "Ann")
        db.session.remove()
    profile = plain(text(client.get(f"/players/{ann}")))
    assert "Carioca (Chile, 8 rounds)" in profile


# --- Liverpool's last round ------------------------------------------------------------------


def test_liverpools_last_round_is_made_only_by_going_out() -> None:
    rules = get_ruleset("liverpool")
    assert rules.contract(7).going_out_only and not rules.contract(6).going_out_only
    six = [
        RoundEntry(0, (HandEntry(), HandEntry(cards="K", made_contract=False), HandEntry("5")))
        for _ in range(6)
    ]
    seventh = RoundEntry(0, (HandEntry(), HandEntry(cards="K", made_contract=True), HandEntry("5")))
    played = tally_game(rules, THREE, 0, [*six, seventh])
    assert [str(problem) for problem in played.problems] == [
        "Round 7: Ben did not go out, so Ben cannot have made contract 7 (three runs of 4): it "
        "is made only by going out."
    ]
    won = tally_game(rules, THREE, 0, [*six, RoundEntry(0, seventh.hands[:1] + six[0].hands[1:])])
    assert won.problems == () and won.is_over and won.winner_names == ("Ann",)


def test_liverpools_last_round_says_so_on_the_board_and_on_each_phone(
    app: Flask, client: FlaskClient
) -> None:
    """Round 7 is laid down while going out: the deal line, every player's standings line and
    the own-hand page say it, not only the melds (and round 6's lines do not)."""
    game_id = start_game(client, "liverpool", THREE)
    for _ in range(5):
        save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5"})
    board = plain(text(client.get(f"/games/{game_id}")))
    assert "laid down while going out" not in board
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5"})
    board = plain(text(client.get(f"/games/{game_id}")))
    said = "three runs of 4, laid down while going out"
    assert f"Contract 7: {said}." in board
    assert board.count(f"on 7: {said}") == len(THREE), board
    hand = plain(text(table_phone(app, game_id, 1).get(f"/games/{game_id}/hand")))
    assert f"contract 7: {said}" in hand, hand


# --- cards dealt and packs --------------------------------------------------------------------

DEALS = {
    "shanghai": ([11] * 10, {2: (2, 4), 4: (2, 4), 5: (3, 6), 6: (3, 6), 7: (4, 8), 8: (4, 8)}),
    "liverpool": ([10, 10, 10, 10, 12, 12, 12], {3: (2, 4), 4: (2, 4), 5: (3, 6), 8: (3, 6)}),
    "carioca": ([12] * 8, {2: (2, 4), 5: (2, 4)}),
    "continental": ([7, 8, 9, 10, 11, 12, 13], {2: (2, 6), 4: (2, 6), 5: (3, 9), 7: (4, 12)}),
}


@pytest.mark.parametrize("slug", sorted(DEALS))
def test_the_board_deals_each_round_and_new_game_counts_the_packs(
    client: FlaskClient, slug: str
) -> None:
    dealt, packs = DEALS[slug]
    for players, (decks, jokers) in packs.items():
        names = [f"P{seat}" for seat in range(players)]
        form = {"rules": slug, "refresh": "1", **{f"players-{i}": n for i, n in enumerate(names)}}
        page = plain(text(client.post("/games/new", data=form)))
        assert f"for {players} players: {decks} decks and {jokers} jokers" in page, page
    game_id = start_game(client, slug, THREE if slug != "liverpool" else ("Ann", "Ben", "Cy"))
    names = THREE
    for number, cards in enumerate(dealt, start=1):
        board = plain(text(client.get(f"/games/{game_id}")))
        dealer = names[(number - 1) % 3]
        assert f"{dealer} deals round {number}: {cards} cards each." in board, (slug, number)
        if number < len(dealt):
            save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5"})


# --- the game file and backups ----------------------------------------------------------------

FILES: dict[str, list[RoundSpec]] = {
    "shanghai": [
        ("Ann", {"Ben": "JK A", "Cy": "2 3"}, {"Ben"}),
        ("Cy", {"Ann": "K", "Ben": "Q"}, ()),
    ],
    "liverpool": [("Ben", {"Ann": "JK", "Cy": "A 9"}, ())],
    "carioca": CARIOCA_TIE,
    "continental": [("Ann", {"Ben": "K 5", "Cy": "JK"}, ()), ("Cy", {"Ann": "A", "Ben": "2"}, ())],
}


@pytest.mark.parametrize("slug", sorted(FILES))
def test_each_published_game_exports_and_imports_as_the_same_game(
    client: FlaskClient, slug: str
) -> None:
    document = game_document(slug, THREE, FILES[slug], uid=f"published-{slug}-1")
    if slug == "continental":
        document["rounds"][0]["went_out_in_one_turn"] = True
    answer = upload(client, document)
    assert answer.status_code == 302, plain(text(answer))
    game_id = int(answer.headers["Location"].rstrip("/").split("/")[-1])
    first = exported(client, game_id)
    assert first["rules"]["base"] == slug
    if slug == "continental":
        assert first["rounds"][0]["went_out_in_one_turn"] is True
        assert first["rounds"][0]["players"]["Ann"]["points"] == -10
        assert "went_out_in_one_turn" not in first["rounds"][1]
        assert first["standings"][0]["player"] == "Ann"
    if slug == "carioca":
        assert first["tie_break"] == WHY
    # Imported again elsewhere (a new uid), it is the same game.
    again = upload(client, {**first, "uid": f"published-{slug}-2"})
    assert again.status_code == 302, plain(text(again))
    second = exported(client, int(again.headers["Location"].rstrip("/").split("/")[-1]))
    assert lasting({**second, "uid": None}) == lasting({**first, "uid": None})


def test_a_backup_carries_the_bonus_through_a_restore(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    document = game_document("continental", THREE, FILES["continental"], uid="continental-b-1")
    document["rounds"][1]["went_out_in_one_turn"] = True
    assert upload(client, document).status_code == 302
    lines = runner.invoke(args=["history", "export"]).stdout.splitlines()
    assert json.loads(lines[0])["rounds"][1]["went_out_in_one_turn"] is True
    with app.app_context(), scope.household(family_id(app)):
        db.session.execute(delete(Game))
        db.session.commit()
        db.session.remove()
    backup = tmp_path / "games.jsonl"
    backup.write_text("\n".join(lines) + "\n", encoding="utf-8")
    restored = runner.invoke(args=["history", "import", str(backup)])
    assert "Stored 1 game." in restored.stdout, restored.output
    again = runner.invoke(args=["history", "export"]).stdout.splitlines()
    first, second = json.loads(lines[0]), json.loads(again[0])
    assert second["rounds"][1]["went_out_in_one_turn"] is True
    assert second["rounds"][1]["players"]["Cy"]["points"] == -10
    assert lasting({**second, "id": 0}) == lasting({**first, "id": 0})


def test_the_bonus_in_a_file_of_rules_without_one_is_refused(client: FlaskClient) -> None:
    document = game_document("carioca", THREE, FILES["carioca"][:1])
    document["rounds"][0]["went_out_in_one_turn"] = True
    answer = upload(client, document)
    assert answer.status_code == 422
    assert "Round 1: Carioca (Chile, 8 rounds) gives no bonus" in plain(text(answer))
    document["rounds"][0]["went_out_in_one_turn"] = "yes"
    assert '"went_out_in_one_turn" must be true or false' in plain(text(upload(client, document)))


@pytest.mark.parametrize("rules", ["skitgubbe", {"base": "skitgubbe", "cards_dealt": 9}])
def test_a_file_of_rules_this_version_does_not_know_is_refused_by_name(
    client: FlaskClient, rules: Any
) -> None:
    answer = upload(client, game_document(rules, THREE, []))
    assert answer.status_code == 422
    assert (
        "The rules 'skitgubbe' are not known to this Scorekeeper: the game was played under rules "
        "of a newer version of Scorekeeper (update this one to import it), or under house rules "
        "this household does not have."
    ) in plain(text(answer))


# --- new game and the referee -----------------------------------------------------------------


def groups(page: str) -> list[tuple[str, list[str]]]:
    """The rules list's groups: each label and its options' values, in order."""
    select = page[page.index('<select id="rules"') :]
    select = select[: select.index("</select>")]
    return [
        (html.unescape(label), re.findall(r'<option value="([^"]+)"', body))
        for label, body in re.findall(r'<optgroup label="([^"]*)">(.*?)</optgroup>', select, re.S)
    ]


FIVE = ["twelve-step", "russian-rummy", "dummy-rummy", "bellevue", "contract-rummy"]


@pytest.mark.parametrize("path", ["/games/new", "/referee"])
def test_new_game_and_the_referee_group_the_games_a_family_plays_first(
    client: FlaskClient, path: str
) -> None:
    assert groups(text(client.get(path))) == [
        ("Contract rummy from families' rule sheets", FIVE),
        ("Published games", ["shanghai", "liverpool", "carioca", "continental", "phase-10"]),
    ]
    spanish: Sequence[tuple[str, list[str]]] = groups(
        text(client.get(path, headers={"Accept-Language": "es-CL"}))
    )
    assert [values for _label, values in spanish] == [
        ["carioca", "continental", "shanghai", "liverpool", "phase-10"],
        FIVE,
    ]
    assert spanish[0][0] != "Published games"  # in Spanish
