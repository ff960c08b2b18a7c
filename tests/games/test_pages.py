"""The game pages: start a game, the scoreboard and its polling, entering rounds with the pad,
every refusal at its field (nothing saved, entries kept), corrections, May I, abandon, and the
game file download and upload."""

from __future__ import annotations

import io
import json
import re

from flask import Flask
from flask.testing import FlaskClient

from ..conftest import signed_in
from ..helpers import (
    game_document,
    players_of,
    round_form,
    save_round,
    start_game,
    twelve_step_to_the_end,
)

HX = {"HX-Request": "true"}
FOUR = ("Ann", "Ben", "Cy", "Dee")


def text(response: object) -> str:
    return response.get_data(as_text=True)  # type: ignore[attr-defined]


def field_errors(page: str) -> list[str]:
    """The messages shown at the fields (class field-error), in page order."""
    return [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", message)).strip().replace("&#39;", "'")
        for message in re.findall(r'class="field-error"[^>]*>(.*?)</(?:p|div)>', page, re.S)
    ]


def rounds_stored(client: FlaskClient, game_id: int) -> int:
    return len(client.get(f"/games/{game_id}/export").get_json()["rounds"])


# --- starting a game --------------------------------------------------------------------------


def test_new_game_page_and_its_fragment(client: FlaskClient) -> None:
    page = client.get("/games/new")
    assert page.status_code == 200
    assert "<html" in text(page) and 'name="players-0"' in text(page)
    assert "12-Step Rummy" in text(page)
    fragment = client.get("/games/new", headers=HX)
    assert "<html" not in text(fragment) and 'id="new-game"' in text(fragment)
    assert "HX-Request" in fragment.headers["Vary"]


def test_starting_a_game_redirects_to_its_scoreboard_with_what_to_set_up(
    client: FlaskClient,
) -> None:
    game_id = start_game(client, "twelve-step", FOUR, first_dealer="Cy")
    page = text(client.get(f"/games/{game_id}"))
    assert "Before the first deal" in page
    assert "<strong>2 decks</strong> with <strong>4 jokers</strong> (108 cards)" in page
    assert "<strong>Cy</strong> deals round 1: <strong>13 cards</strong> each." in page
    assert "1: two sets of 3" in page
    assert "<progress" in page
    assert players_of(client, game_id) == list(FOUR)


def test_contract_rummy_shows_the_round_contract_and_no_progress_bar(client: FlaskClient) -> None:
    game_id = start_game(client, "contract-rummy", ("Ann", "Ben", "Cy"))
    page = text(client.get(f"/games/{game_id}"))
    assert "<strong>2 decks</strong> with <strong>2 jokers</strong>" in page
    assert "<strong>10 cards</strong>" in page and "Contract 1: two sets of 3." in page
    assert "<progress" not in page


def test_refused_games_show_the_message_at_the_players(client: FlaskClient) -> None:
    refused = client.post(
        "/games/new", data={"rules": "contract-rummy", "start": "1"} | seats(*"ABCDEF")
    )
    assert refused.status_code == 422
    assert "Contract Rummy (7 deals) is for at most 5 players; this game has 6." in field_errors(
        text(refused)
    )
    assert 'value="F"' in text(refused)
    twice = client.post(
        "/games/new", data={"rules": "twelve-step", "start": "1"} | seats("Ann", "ann")
    )
    assert twice.status_code == 422 and "named twice" in text(twice)
    alone = client.post("/games/new", data={"rules": "twelve-step", "start": "1"} | seats("Ann"))
    assert "12-Step Rummy needs at least 2 players; this game has 1." in field_errors(text(alone))
    unknown = client.post("/games/new", data={"rules": "poker", "start": "1"} | seats("A", "B"))
    assert unknown.status_code == 422 and "Choose the rules you play." in field_errors(
        text(unknown)
    )
    assert client.get("/").status_code == 200
    assert "No game in progress" in text(client.get("/"))


def seats(*names: str) -> dict[str, str]:
    return {f"players-{seat}": name for seat, name in enumerate(names)}


def test_family_players_are_seated_with_a_tap_and_seats_move(client: FlaskClient) -> None:
    start_game(client, "twelve-step", ("Ann", "Ben"))
    page = text(client.get("/games/new"))
    assert 'name="add_player" value="Ann"' in page
    seated = client.post(
        "/games/new",
        data={"rules": "twelve-step", "add_player": "Ben"} | seats("Cy", ""),
        headers=HX,
    )
    assert 'id="players-1" name="players-1" value="Ben"' in text(seated)
    assert 'name="add_player" value="Ben"' not in text(seated)
    moved = client.post(
        "/games/new",
        data={"rules": "twelve-step", "up-1": "1", "first_dealer": "1"} | seats("Cy", "Ben"),
    )
    assert re.search(r'name="players-0" value="Ben"', text(moved))
    assert re.search(r'name="first_dealer" value="0" checked', text(moved))


# --- entering rounds --------------------------------------------------------------------------


def test_round_form_page_and_fragment(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    page = client.get(f"/games/{game_id}/rounds/new")
    assert page.status_code == 200
    body = text(page)
    assert "Round 1" in body and 'name="token" value="' in body
    assert 'name="add-0" value="JK"' in body and 'name="add-3" value="2"' in body
    assert 'value="nobody"' not in body  # 12-Step: a round always ends with someone out
    assert "<html" not in text(client.get(f"/games/{game_id}/rounds/new", headers=HX))


def test_saving_a_round_redirects_and_the_scoreboard_follows(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    response = save_round(
        client, game_id, "Ben", {"Ann": "JK A 5", "Cy": "K Q 9 9", "Dee": "3"}, {"Ann"}
    )
    assert response.headers["Location"].endswith(f"/games/{game_id}")
    page = text(client.get(f"/games/{game_id}"))
    assert "<strong>Ben</strong> deals round 2" in page
    assert "2: a set of 3 and a run of 4" in page  # Ann and Ben moved on
    document = client.get(f"/games/{game_id}/export").get_json()
    assert [s["total"] for s in document["standings"]] == [0, 75, 5, 30]
    assert document["rounds"][0]["players"]["Ann"]["cards"] == "JK A 5"
    assert "Round 1 saved: Ben went out" in page


def test_the_pad_adds_and_removes_cards_without_and_with_htmx(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    url = f"/games/{game_id}/rounds/new"
    form = round_form(FOUR, "Ann", {"Ben": "K"}) | {"add-1": "JK"}
    page = client.post(url, data=form)
    assert page.status_code == 200 and "<html" in text(page)
    assert 'name="hands-1-cards" value="K JK"' in text(page)
    assert rounds_stored(client, game_id) == 0
    block = client.post(url, data=form, headers=HX)
    assert '<div id="cards-1"' in text(block) and "<form" not in text(block)
    assert 'value="K JK"' in text(block) and "60 <span" in text(block)
    removed = client.post(
        url, data=round_form(FOUR, "Ann", {"Ben": "K JK Q"}) | {"remove-1": "1"}, headers=HX
    )
    assert 'value="K Q"' in text(removed)


def test_points_show_live_while_typing(client: FlaskClient) -> None:
    game_id = start_game(client, "contract-rummy", FOUR)
    url = f"/games/{game_id}/rounds/new"
    points = client.post(
        url, data=round_form(FOUR, "Ann", {"Cy": "JK 9 2"}) | {"preview": "2"}, headers=HX
    )
    assert text(points).startswith('<output id="points-2"') and "26 <span" in text(points)
    bad = client.post(
        url, data=round_form(FOUR, "Ann", {"Cy": "JK 1H"}) | {"preview": "2"}, headers=HX
    )
    assert "is-error" in text(bad)


def test_a_hand_the_packs_cannot_hold_is_said_at_its_field_while_typing(
    client: FlaskClient,
) -> None:
    """Five jokers in one hand of a four-player 12-Step game (two packs, four jokers) are said
    at the field as they are typed, as on a phone's own hand, not only at Save."""
    game_id = start_game(client, "twelve-step", FOUR)
    url = f"/games/{game_id}/rounds/new"
    fields = round_form(FOUR, "Ann", {"Cy": "JK JK JK JK JK"})
    block = text(client.post(url, data=fields | {"preview": "2", "redraw": "1"}, headers=HX))
    assert "5 × Joker, but these packs hold only 4" in block
    assert 'class="field-error"' in block
    points = text(client.post(url, data=fields | {"preview": "2"}, headers=HX))
    assert "is-error" in points
    # Four are fine.
    four = round_form(FOUR, "Ann", {"Cy": "JK JK JK JK"})
    fine = text(client.post(url, data=four | {"preview": "2", "redraw": "1"}, headers=HX))
    assert "hold only" not in fine and "field-error" not in fine


def refused(
    client: FlaskClient,
    game_id: int,
    went_out: str | None,
    cards: dict[str, str],
    made: set[str] | None = None,
) -> tuple[int, list[str], str]:
    response = save_round(client, game_id, went_out, cards, made or set(), expect=None)
    return response.status_code, field_errors(text(response)), text(response)


def test_choosing_who_went_out_clears_their_cards_and_says_so(client: FlaskClient) -> None:
    """Issue 43 item 4: the cards typed for whoever is chosen as out are cleared, saying so,
    instead of Save refusing them."""
    game_id = start_game(client, "twelve-step", FOUR)
    form = round_form(FOUR, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"}) | {"hands-0-cards": "K Q"}
    # Choosing Ann (the form redrawn, nothing saved): her field is emptied, and the page says so.
    page = text(client.post(f"/games/{game_id}/rounds/new", data=form))
    assert "Ann went out, so the cards typed for Ann (K Q) were cleared." in page
    assert 'name="hands-0-cards" value=""' in page
    # Saved as it was typed: stored, Ann with no cards, and the board says what was cleared.
    response = client.post(f"/games/{game_id}/rounds/new", data=form | {"save": "1"})
    assert response.status_code == 302
    assert rounds_stored(client, game_id) == 1
    board = text(client.get(f"/games/{game_id}"))
    assert "Ann went out, so the cards typed for Ann (K Q) were cleared." in board
    document = client.get(f"/games/{game_id}/export").get_json()
    assert document["rounds"][0]["players"]["Ann"]["cards"] == ""


def test_a_refusal_stands_under_its_hand_and_its_chips_stay(client: FlaskClient) -> None:
    """Issue 43 item 4: Save's refusal is said whole under the hand, outside the row of chips,
    whose chips can still be taken out; a long hand can be shown whole."""
    game_id = start_game(client, "twelve-step", FOUR)
    form = round_form(FOUR, "Ann", {"Ben": "JK JK JK JK JK", "Cy": "5", "Dee": "5"}) | {"save": "1"}
    page = text(client.post(f"/games/{game_id}/rounds/new", data=form))
    block = re.search(
        r'<div id="cards-1".*?</div>\s*</div>\s*(<div class="hand-refusal">.*?</div>)', page, re.S
    )
    assert block is not None, page
    slot = re.search(r'<div class="chips-slot".*?</div>\s*</div>', block.group(0), re.S)
    assert slot is not None and "field-error" not in slot.group(0)
    assert slot.group(0).count('name="remove-1"') == 5
    assert '<p class="field-error" id="cards-1-error">' in block.group(1)
    assert "5 cards: show all" in slot.group(0)


def test_whoever_went_out_made_the_contract_whatever_the_toggle(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    form = round_form(FOUR, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"}) | {"save": "1"}
    del form["hands-0-made"]
    assert client.post(f"/games/{game_id}/rounds/new", data=form).status_code == 302
    exported = client.get(f"/games/{game_id}/export").get_json()
    assert exported["rounds"][0]["players"]["Ann"]["made_contract"] is True


def test_refused_a_player_who_did_not_go_out_holds_no_cards(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    status, errors, page = refused(client, game_id, "Ann", {"Ben": "5", "Cy": "5"}, {"Ben"})
    assert status == 422
    assert errors == [
        "Round 1: Dee did not go out, so Dee holds cards; enter the cards left in Dee's hand."
    ]
    assert 'name="hands-1-made" value="y" checked' in page
    assert rounds_stored(client, game_id) == 0


def test_refused_a_card_that_is_no_card(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    status, errors, page = refused(client, game_id, "Ann", {"Ben": "5", "Cy": "KX", "Dee": "5"})
    assert status == 422
    assert errors == [
        "Round 1, Cy: 'KX' is not a card: X is not a suit (the suits are S, H, D, C or ♠ ♥ ♦ ♣)."
    ]
    assert 'value="KX"' in page


def test_refused_more_cards_than_the_packs_hold(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    status, errors, _ = refused(
        client, game_id, "Ann", {"Ben": "JK JK JK", "Cy": "JK", "Dee": "JK"}
    )
    assert status == 422
    assert errors == [
        "Round 1: more cards are entered across the table than the game's packs "
        "(2 decks and 4 jokers) hold: 5 × Joker, but these packs hold only 4 jokers."
    ]


def test_refused_nobody_out_where_not_allowed_and_nobody_picked(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    status, errors, _ = refused(client, game_id, None, {name: "5" for name in FOUR})
    assert status == 422 and errors[0].startswith("Round 1: say who went out; under 12-Step Rummy")
    form = round_form(FOUR, "Ann", {name: "5" for name in FOUR}) | {"save": "1", "went_out": ""}
    response = client.post(f"/games/{game_id}/rounds/new", data=form)
    assert response.status_code == 422 and field_errors(text(response)) == [
        "Round 1: say who went out."
    ]
    assert rounds_stored(client, game_id) == 0


def test_a_round_with_nobody_out_in_contract_rummy(client: FlaskClient) -> None:
    game_id = start_game(client, "contract-rummy", FOUR)
    assert 'value="nobody"' in text(client.get(f"/games/{game_id}/rounds/new"))
    save_round(client, game_id, None, {"Ann": "3", "Ben": "4", "Cy": "5", "Dee": "K"}, {"Ann"})
    document = client.get(f"/games/{game_id}/export").get_json()
    assert document["rounds"][0]["went_out"] is None
    assert [s["total"] for s in document["standings"]] == [3, 4, 5, 10]
    assert "nobody out" in text(client.get(f"/games/{game_id}"))


def test_a_going_out_only_contract_follows_who_went_out(client: FlaskClient) -> None:
    game_id = start_game(client, "contract-rummy", ("Ann", "Ben"))
    for _ in range(6):
        save_round(client, game_id, "Ann", {"Ben": "K"})
    page = text(client.get(f"/games/{game_id}/rounds/new"))
    assert "Made only by going out" in page
    save_round(client, game_id, "Ann", {"Ben": "K"}, {"Ben"})
    document = client.get(f"/games/{game_id}/export").get_json()
    assert document["rounds"][6]["players"]["Ben"]["made_contract"] is False
    assert document["status"] == "finished" and document["winners"] == ["Ann"]


def test_no_round_after_the_end(client: FlaskClient) -> None:
    game_id = start_game(client, "contract-rummy", ("Ann", "Ben"))
    for _ in range(7):
        save_round(client, game_id, "Ann", {"Ben": "K"})
    response = save_round(client, game_id, "Ann", {"Ben": "K"}, expect=302)
    assert rounds_stored(client, game_id) == 7
    follow = client.get(response.headers["Location"])
    # The message names the winner, with why, in the game's own ranking (issue 23, item 18).
    assert (
        "This game is over: Ann wins. Ann finished with 0 points, the fewest. "
        "No more rounds can be entered." in text(follow)
    )


def test_the_same_form_sent_twice_stores_one_round(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    token = re.search(
        r'name="token" value="([^"]+)"', text(client.get(f"/games/{game_id}/rounds/new"))
    )
    assert token is not None
    form = round_form(FOUR, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"}) | {
        "save": "1",
        "token": token.group(1),
        "number": "1",
    }
    assert client.post(f"/games/{game_id}/rounds/new", data=form).status_code == 302
    second = client.post(f"/games/{game_id}/rounds/new", data=form)
    assert second.status_code == 302 and second.headers["Location"].endswith(f"/games/{game_id}")
    assert rounds_stored(client, game_id) == 1
    assert "That round was already saved." in text(client.get(f"/games/{game_id}"))


def test_a_round_saved_meanwhile_on_another_phone_keeps_the_entries(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"})
    form = round_form(FOUR, "Ben", {"Ann": "K", "Cy": "Q", "Dee": "J"}) | {
        "save": "1",
        "number": "1",
        "token": "other",
    }
    response = client.post(f"/games/{game_id}/rounds/new", data=form)
    assert response.status_code == 409
    # Kept on round 1's correction, to choose where they differ from what is stored
    # (tests/games/test_new_round_merges.py).
    assert "Round 1 was stored on another phone meanwhile" in text(response)
    assert 'name="number" value="1"' in text(response) and 'value="Q"' in text(response)
    assert rounds_stored(client, game_id) == 1


# --- corrections --------------------------------------------------------------------------------


def test_correcting_a_round_changes_totals_and_is_logged(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"})
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"})
    edit = client.get(f"/games/{game_id}/rounds/1/edit")
    assert edit.status_code == 200 and 'name="version" value="1"' in text(edit)
    assert "Delete round" not in text(edit)
    form = round_form(FOUR, "Ann", {"Ben": "5", "Cy": "K K", "Dee": "5"}, {"Cy"}) | {
        "save": "1",
        "version": "1",
    }
    assert client.post(f"/games/{game_id}/rounds/1/edit", data=form).status_code == 302
    document = client.get(f"/games/{game_id}/export").get_json()
    assert document["rounds"][1]["players"]["Cy"]["contract"] == 2  # made 1 in the corrected round
    assert {s["player"]: s["total"] for s in document["standings"]}["Cy"] == 25
    page = text(client.get(f"/games/{game_id}"))
    assert (
        "Round 1 corrected: Cy&#39;s cards 5 → K K (5 → 20 points); Cy made the contract." in page
    )
    stale = client.post(f"/games/{game_id}/rounds/1/edit", data=form | {"hands-3-cards": "A"})
    assert stale.status_code == 409
    assert "This round was changed on another phone meanwhile" in text(stale)
    assert 'name="hands-3-cards" value="A"' in text(stale) and 'name="version" value="2"' in text(
        stale
    )


def test_a_correction_that_breaks_the_rules_is_refused_at_the_field(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"})
    form = round_form(FOUR, "Ann", {"Ben": "5", "Cy": "", "Dee": "5"}) | {
        "save": "1",
        "version": "1",
    }
    response = client.post(f"/games/{game_id}/rounds/1/edit", data=form)
    assert response.status_code == 422
    assert field_errors(text(response)) == [
        "Round 1: Cy did not go out, so Cy holds cards; enter the cards left in Cy's hand."
    ]


def test_deleting_the_last_round(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"})
    save_round(client, game_id, "Ben", {"Ann": "K", "Cy": "5", "Dee": "5"})
    assert "Delete round 2" in text(client.get(f"/games/{game_id}/rounds/2/edit"))
    assert client.post(f"/games/{game_id}/rounds/1/delete").status_code == 302
    assert rounds_stored(client, game_id) == 2
    assert client.post(f"/games/{game_id}/rounds/2/delete").status_code == 302
    assert rounds_stored(client, game_id) == 1
    assert "Round 2 deleted." in text(client.get(f"/games/{game_id}"))
    assert client.get(f"/games/{game_id}/rounds/2/edit").status_code == 404


# --- the scoreboard on every phone ---------------------------------------------------------------


def test_the_scoreboard_polls_a_cheap_url(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    page = text(client.get(f"/games/{game_id}"))
    poll = re.search(r'hx-get="([^"]+)"\s+hx-trigger="every 1s, shown"', page)
    assert poll is not None
    url = poll.group(1).replace("&amp;", "&")
    unchanged = client.get(url, headers=HX)
    assert unchanged.status_code == 204 and unchanged.data == b""
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"})
    changed = client.get(url, headers=HX)
    assert changed.status_code == 200
    assert text(changed).lstrip().startswith('<section id="board"') and "Round 1 saved" in text(
        changed
    )
    assert client.get(url).status_code == 302
    assert client.get("/games/999/board?v=1", headers=HX).status_code == 404


def test_may_i_counts_down_where_the_rules_limit_it(client: FlaskClient) -> None:
    game_id = start_game(client, "bellevue", ("Ann", "Ben", "Cy"))
    assert "3 left" in text(client.get(f"/games/{game_id}"))
    for _ in range(3):
        assert (
            client.post(f"/games/{game_id}/may-i", data={"seat": "1", "change": "1"}).status_code
            == 302
        )
    board = client.post(f"/games/{game_id}/may-i", data={"seat": "1", "change": "1"}, headers=HX)
    assert board.status_code == 422 and "Ben has used all 3 May I for this contract." in text(board)
    assert "0 left" in text(board)
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "5"})
    assert "0 left" not in text(client.get(f"/games/{game_id}"))


def test_abandoning_a_game(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"})
    assert client.post(f"/games/{game_id}/abandon").status_code == 302
    page = text(client.get(f"/games/{game_id}"))
    assert "This game was abandoned after round 1: it has no winner." in page
    assert "Enter round" not in page
    assert client.get(f"/games/{game_id}/rounds/new").status_code == 302
    assert client.get(f"/games/{game_id}/export").get_json()["status"] == "abandoned"


def test_the_end_names_the_winner_and_the_tie_break(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", ("Ann", "Ben", "Cy"))
    for went_out, cards, made in twelve_step_to_the_end(("Ann", "Ben", "Cy")):
        save_round(client, game_id, went_out, cards, made)
    page = text(client.get(f"/games/{game_id}"))
    assert "Ann wins" in page
    assert "Ann and Ben both made contract 12 in round 12; Ann wins with 0 points to 60." in page
    assert "Game over: Ann wins." in page


def test_unknown_games_and_rounds_are_404(client: FlaskClient) -> None:
    assert client.get("/games/999").status_code == 404
    assert client.get("/games/999/rounds/new").status_code == 404
    assert client.get("/games/999/export").status_code == 404
    game_id = start_game(client, "twelve-step", FOUR)
    assert client.get(f"/games/{game_id}/rounds/1/edit").status_code == 404
    assert client.post(f"/games/{game_id}/rounds/1/delete").status_code == 404


def test_round_form_without_csrf_token_is_refused(csrf_client: FlaskClient) -> None:
    response = csrf_client.post(
        "/games/new", data={"rules": "twelve-step", "start": "1"} | seats("A", "B")
    )
    assert response.status_code == 400


# --- the game file on the web ---------------------------------------------------------------


def test_download_and_upload_a_game_file(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, "twelve-step", ("Ann", "Ben", "Cy"))
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "K"}, {"Ben"})
    download = client.get(f"/games/{game_id}/export")
    assert download.headers["Content-Disposition"] == (
        f'attachment; filename="scorekeeper-game-{game_id}.json"'
    )
    # Into another household: in this one it is the game held already (its uid).
    cousins = signed_in(app, "zed", household="Cousins")
    assert cousins.get("/games/import").status_code == 200
    upload = cousins.post("/games/import", data={"file": (io.BytesIO(download.data), "game.json")})
    assert upload.status_code == 302
    new_id = int(upload.headers["Location"].rsplit("/", 1)[-1])
    assert new_id != game_id
    again = cousins.get(f"/games/{new_id}/export").get_json()
    first = download.get_json()
    assert {k: v for k, v in again.items() if k not in ("id", "exported")} == {
        k: v for k, v in first.items() if k not in ("id", "exported")
    }


def test_a_refused_upload_lists_every_problem_and_stores_nothing(client: FlaskClient) -> None:
    document = game_document(
        "twelve-step", ["Ann", "Ben"], [("Ann", {"Ben": "1H"}, set()), ("Zed", {}, set())]
    )
    response = client.post(
        "/games/import", data={"file": (io.BytesIO(json.dumps(document).encode()), "g.json")}
    )
    assert response.status_code == 422
    page = text(response).replace("&#39;", "'").replace("&#34;", '"')
    assert "Round 1, Ben: '1H' is not a card" in page
    assert "Round 2: \"went_out\" names 'Zed', who is not a player of this game." in page
    not_json = client.post("/games/import", data={"file": (io.BytesIO(b"{oops"), "g.json")})
    assert not_json.status_code == 422 and "not a JSON document" in text(not_json)
    nothing = client.post("/games/import", data={})
    assert nothing.status_code == 422 and "Choose a game file." in text(nothing)
    assert "No game in progress" in text(client.get("/"))


def test_one_hand_the_packs_cannot_hold_is_refused_at_that_hand(client: FlaskClient) -> None:
    """Issue 35, item 2: five jokers in Ben's hand alone are refused at Ben's cards."""
    game_id = start_game(client, "twelve-step", FOUR)
    status, errors, page = refused(
        client, game_id, "Ann", {"Ben": "JK JK JK JK JK", "Cy": "5", "Dee": "5"}
    )
    assert status == 422
    assert errors == ["Round 1, Ben: 5 × Joker, but these packs hold only 4 jokers."]
    assert "across the table" not in page
    assert 'aria-describedby="cards-1-error"' in page  # at Ben's field
