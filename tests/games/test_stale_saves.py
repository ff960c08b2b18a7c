"""No stale writes (issue 14, item 2): every round save carries the rounds it was made on
(``rounds_version``, services.rounds_stamp); a save made on rounds another phone has changed
since is refused, 409, with the current totals, the entries as typed and "Re-apply my
entries". A change that leaves the rounds as they are (a May I) does not make a save stale; a
save sent again (its answer lost) is answered as stored, once."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from ..helpers import round_form, save_round, start_game
from .test_caching import version_of

HX = {"HX-Request": "true"}
FOUR = ("Ann", "Ben", "Cy", "Dee")


def text(response: object) -> str:
    return response.get_data(as_text=True)  # type: ignore[attr-defined]


def hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert found is not None, f"no {name} on the page"
    return found.group(1)


def rounds_stored(client: FlaskClient, game_id: int) -> list[dict[str, object]]:
    rounds: list[dict[str, object]] = client.get(f"/games/{game_id}/export").get_json()["rounds"]
    return rounds


def opened(client: FlaskClient, address: str) -> dict[str, str]:
    """The hidden fields of the round form at ``address`` as a phone gets them."""
    page = text(client.get(address))
    return {
        name: hidden(page, name)
        for name in ("number", "token", "version", "rounds_version")
        if f'name="{name}"' in page
    }


def test_a_new_round_made_before_a_correction_elsewhere_is_refused_and_reapplied(
    client: FlaskClient,
) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"})
    made_on = opened(client, f"/games/{game_id}/rounds/new")
    assert made_on["number"] == "2" and made_on["rounds_version"]
    # Another phone corrects round 1 meanwhile: Cy made it after all.
    correction = round_form(FOUR, "Ann", {"Ben": "5", "Cy": "K K", "Dee": "5"}, {"Cy"})
    assert (
        client.post(f"/games/{game_id}/rounds/1/edit", data=correction | {"save": "1"}).status_code
        == 302
    )

    typed = round_form(FOUR, "Ben", {"Ann": "Q", "Cy": "7 7", "Dee": "JK"})
    stale = client.post(f"/games/{game_id}/rounds/new", data=typed | made_on | {"save": "1"})
    assert stale.status_code == 409
    page = text(stale)
    assert "<html" in page  # without JavaScript: the whole page
    assert "The rounds were changed on another phone since this form was opened" in page
    assert "This form is now for" not in page  # still round 2
    assert "Re-apply my entries" in page
    # The totals as they are now (Cy 20 after the correction), and the typing kept.
    assert re.search(r"Cy <strong>20</strong>", page)
    assert 'name="hands-2-cards" value="7 7"' in page and 'value="JK"' in page
    assert hidden(page, "token") == made_on["token"]
    assert hidden(page, "rounds_version") != made_on["rounds_version"]
    assert len(rounds_stored(client, game_id)) == 1

    # "Re-apply my entries" sends the same entries on the form as it now is.
    again = {name: hidden(page, name) for name in ("number", "token", "rounds_version")}
    assert (
        client.post(f"/games/{game_id}/rounds/new", data=typed | again | {"save": "1"}).status_code
        == 302
    )
    rounds = rounds_stored(client, game_id)
    assert len(rounds) == 2 and rounds[1]["went_out"] == "Ben"


def test_htmx_gets_the_fragment_and_a_save_is_answered_with_hx_redirect(
    client: FlaskClient,
) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    made_on = opened(client, f"/games/{game_id}/rounds/new")
    typed = round_form(FOUR, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"})
    saved = client.post(
        f"/games/{game_id}/rounds/new", data=typed | made_on | {"save": "1"}, headers=HX
    )
    assert saved.status_code == 204
    assert saved.headers["HX-Redirect"] == f"/games/{game_id}"

    stale_form = opened(client, f"/games/{game_id}/rounds/new")
    save_round(client, game_id, "Ben", {"Ann": "5", "Cy": "5", "Dee": "5"})  # another phone
    stale = client.post(
        f"/games/{game_id}/rounds/new",
        data=round_form(FOUR, "Cy", {"Ann": "K", "Ben": "Q", "Dee": "9"})
        | stale_form
        | {"save": "1"},
        headers=HX,
    )
    assert stale.status_code == 409
    fragment = text(stale)
    assert "<html" not in fragment and 'id="round-form"' in fragment
    # Round 2, stored meanwhile, comes back as its correction with this typing merged in
    # (tests/games/test_new_round_merges.py).
    assert "Round 2 was stored on another phone meanwhile; nothing was saved." in fragment
    assert f'action="/games/{game_id}/rounds/2/edit"' in fragment and 'id="clash-1"' in fragment
    assert hidden(fragment, "number") == "2" and 'value="Q"' in fragment
    assert len(rounds_stored(client, game_id)) == 2


def test_a_may_i_between_opening_and_saving_does_not_make_the_save_stale(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, "bellevue", ("Ann", "Ben", "Cy"))
    made_on = opened(client, f"/games/{game_id}/rounds/new")
    before = version_of(app, game_id)
    may_i = client.post(f"/games/{game_id}/may-i", data={"seat": "1", "change": "1"})
    assert may_i.status_code == 302
    assert version_of(app, game_id) > before  # the game changed, its rounds did not
    typed = round_form(("Ann", "Ben", "Cy"), "Ann", {"Ben": "5", "Cy": "5"})
    answer = client.post(f"/games/{game_id}/rounds/new", data=typed | made_on | {"save": "1"})
    assert answer.status_code == 302
    assert len(rounds_stored(client, game_id)) == 1


def test_a_correction_made_before_another_round_was_saved_is_refused_and_reapplied(
    client: FlaskClient,
) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"})
    made_on = opened(client, f"/games/{game_id}/rounds/1/edit")
    assert made_on["version"] == "1"
    save_round(client, game_id, "Ben", {"Ann": "5", "Cy": "5", "Dee": "5"})  # another phone

    typed = round_form(FOUR, "Ann", {"Ben": "5", "Cy": "K", "Dee": "5"})
    stale = client.post(
        f"/games/{game_id}/rounds/1/edit", data=typed | made_on | {"save": "1"}, headers=HX
    )
    assert stale.status_code == 409
    fragment = text(stale)
    assert "Other rounds were changed on another phone since this form was opened" in fragment
    assert "Round 1 now reads: Ann went out; Ben 5, Cy 5, Dee 5." in fragment
    assert 'name="hands-2-cards" value="K"' in fragment
    assert rounds_stored(client, game_id)[0]["players"]["Cy"]["cards"] == "5"  # type: ignore[index]

    again = {name: hidden(fragment, name) for name in ("version", "rounds_version")}
    answer = client.post(
        f"/games/{game_id}/rounds/1/edit", data=typed | again | {"save": "1"}, headers=HX
    )
    assert answer.status_code == 204
    assert rounds_stored(client, game_id)[0]["players"]["Cy"]["cards"] == "K"  # type: ignore[index]


def test_a_save_sent_again_after_it_was_stored_is_answered_as_stored(client: FlaskClient) -> None:
    """A phone whose answer was lost sends its queued save again: the round it stored makes
    the form stale, yet the answer is "stored" (the same token), and there is one round."""
    game_id = start_game(client, "twelve-step", FOUR)
    made_on = opened(client, f"/games/{game_id}/rounds/new")
    typed = round_form(FOUR, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"}) | made_on | {"save": "1"}
    first = client.post(f"/games/{game_id}/rounds/new", data=typed, headers=HX)
    assert first.status_code == 204
    again = client.post(f"/games/{game_id}/rounds/new", data=typed, headers=HX)
    assert again.status_code == 204 and again.headers["HX-Redirect"] == f"/games/{game_id}"
    assert len(rounds_stored(client, game_id)) == 1
    assert "That round was already saved." in text(client.get(f"/games/{game_id}"))


def test_a_correction_of_a_round_deleted_meanwhile_goes_to_the_board(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"})
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"})
    made_on = opened(client, f"/games/{game_id}/rounds/2/edit")
    assert client.post(f"/games/{game_id}/rounds/2/delete").status_code == 302
    typed = round_form(FOUR, "Ann", {"Ben": "K", "Cy": "5", "Dee": "5"}) | made_on | {"save": "1"}
    answer = client.post(f"/games/{game_id}/rounds/2/edit", data=typed)
    assert answer.status_code == 404  # the round is gone: nothing to correct
    assert len(rounds_stored(client, game_id)) == 1


def test_the_cards_preview_redraws_the_cards_block(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    fields = round_form(FOUR, "Ann", {"Ben": "K 5"}) | {"preview": "1", "redraw": "1"}
    answer = client.post(f"/games/{game_id}/rounds/new", data=fields, headers=HX)
    assert answer.status_code == 200
    block = text(answer)
    assert block.lstrip().startswith('<div id="cards-1"') and "hx-preserve" in block
    assert "Take out" in block and "15" in block
    points = client.post(f"/games/{game_id}/rounds/new", data=fields | {"redraw": ""}, headers=HX)
    assert text(points).lstrip().startswith('<output id="points-1"')


def test_deleting_a_round_corrected_meanwhile_is_refused(client: FlaskClient) -> None:
    game_id = start_game(client, "twelve-step", FOUR)
    save_round(client, game_id, "Ann", {"Ben": "5", "Cy": "5", "Dee": "5"})
    made_on = opened(client, f"/games/{game_id}/rounds/1/edit")
    correction = round_form(FOUR, "Ann", {"Ben": "K", "Cy": "5", "Dee": "5"}) | {"save": "1"}
    assert client.post(f"/games/{game_id}/rounds/1/edit", data=correction).status_code == 302
    stale = {"rounds_version": made_on["rounds_version"]}
    refused = client.post(f"/games/{game_id}/rounds/1/delete", data=stale)
    assert refused.status_code == 302
    assert refused.headers["Location"].endswith(f"/games/{game_id}/rounds/1/edit")
    shown = text(client.get(refused.headers["Location"]))
    assert "Round 1 was changed on another phone since this page was opened" in shown
    assert 'name="hands-1-cards" value="K"' in shown  # the correction, shown before deleting
    assert len(rounds_stored(client, game_id)) == 1
    fresh = {"rounds_version": hidden(shown, "rounds_version")}
    assert client.post(f"/games/{game_id}/rounds/1/delete", data=fresh).status_code == 302
    assert rounds_stored(client, game_id) == []
