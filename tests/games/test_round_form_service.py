"""Issue 43, item 8: the round form's save is one service call (``entering.save``) that answers
what happened, with the game's tally worked out once; the view turns the answer into a page.

Each save a family meets is sent through the round form's address as a phone sends it. The
test checks the page (status and what it says), what the service answered, and how often the
game's tally was looked up (``tally_of``) and replayed (``tally_game``) on the way: once each
at most. Before the service (main at 0cbcc12) a refused save, a correction, a save sent twice
and a clash each looked the tally up two or three times, in the view, the form and the writes.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import delete

from scorekeeper.extensions import db
from scorekeeper.games import entering, rounds, services, tally
from scorekeeper.games.entering import Happened
from scorekeeper.models import Game

from ..helpers import round_form, start_game
from .test_drafts import hand_post, points_by_seat, rounds_of, table_phone

SIX = ("Annabelle", "Bartholomew", "Cyrus", "Dolores", "Evangeline", "Fitzgerald")
HX = {"HX-Request": "true"}


@dataclass
class Counts:
    lookups: int = 0
    replays: int = 0
    answers: list[Happened] | None = None
    services: list[str] = field(default_factory=list)


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counts]:
    """Every lookup of a game's tally and every replay, wherever it is called from, and what
    the service answered."""
    counted = Counts(answers=[])
    lookup: Callable[..., Any] = services.tally_of
    replay: Callable[..., Any] = tally.tally_game

    def looked_up(*args: Any, **kwargs: Any) -> Any:
        counted.lookups += 1
        return lookup(*args, **kwargs)

    def replayed(*args: Any, **kwargs: Any) -> Any:
        counted.replays += 1
        return replay(*args, **kwargs)

    def answering(service: Callable[..., entering.Answer]) -> Callable[..., entering.Answer]:
        def answered(*args: Any, **kwargs: Any) -> entering.Answer:
            answer = service(*args, **kwargs)
            assert counted.answers is not None
            counted.answers.append(answer.happened)
            counted.services.append(service.__name__)
            return answer

        return answered

    for name, module in list(sys.modules.items()):
        if not name.startswith("scorekeeper"):
            continue
        if getattr(module, "tally_of", None) is lookup:
            monkeypatch.setattr(module, "tally_of", looked_up)
        if getattr(module, "tally_game", None) is replay:
            monkeypatch.setattr(module, "tally_game", replayed)
    for service in ("save", "close", "put_in", "undo", "put_back"):
        monkeypatch.setattr(entering, service, answering(getattr(entering, service)))
    yield counted


def opened(client: FlaskClient, address: str) -> dict[str, str]:
    """The hidden fields of the round form at ``address``, as a phone holds them."""
    page = client.get(address).get_data(as_text=True)
    return {
        name: found.group(1).replace("&#34;", '"').replace("&quot;", '"')
        for name in ("number", "token", "version", "rounds_version", "base")
        if (found := re.search(rf'name="{name}" value="([^"]*)"', page)) is not None
    }


def hands(went_out: str, cards: dict[str, str]) -> dict[str, str]:
    """The round form's hands: ``cards`` by name, 5 for everyone else but who went out."""
    return round_form(SIX, went_out, {name: "5" for name in SIX if name != went_out} | cards)


def saved(client: FlaskClient, game: int, typed: dict[str, str]) -> None:
    """A round stored from another phone's round form."""
    answer = client.post(f"/games/{game}/rounds/new", data={**typed, "save": "1"})
    assert answer.status_code == 302, answer.get_data(as_text=True)


# Each scenario: it plays what came before on the game, and returns the save to time (its
# address and fields), the status, the answer and words of the page or of the board after it.
Scenario = Callable[[FlaskClient, int], tuple[str, dict[str, str]]]


def stored(client: FlaskClient, game: int) -> tuple[str, dict[str, str]]:
    form = opened(client, f"/games/{game}/rounds/new")
    return "rounds/new", {**form, **hands("Cyrus", {"Annabelle": "K Q"}), "save": "1"}


def refused_by_the_rules(client: FlaskClient, game: int) -> tuple[str, dict[str, str]]:
    form = opened(client, f"/games/{game}/rounds/new")
    typed = hands("Cyrus", {"Annabelle": "K Q", "Fitzgerald": "K Q X"})
    return "rounds/new", {**form, **typed, "save": "1"}


def refused_at_once(client: FlaskClient, game: int) -> tuple[str, dict[str, str]]:
    form = opened(client, f"/games/{game}/rounds/new")
    typed = {**hands("Cyrus", {"Annabelle": "K Q"}), "went_out": ""}
    return "rounds/new", {**form, **typed, "save": "1"}


def resent(client: FlaskClient, game: int) -> tuple[str, dict[str, str]]:
    address, sent = stored(client, game)
    assert client.post(f"/games/{game}/{address}", data=sent).status_code == 302
    return address, sent


def stored_first_elsewhere(client: FlaskClient, game: int) -> tuple[str, dict[str, str]]:
    form = opened(client, f"/games/{game}/rounds/new")
    saved(client, game, hands("Cyrus", {"Annabelle": "K Q", "Dolores": "5"}))
    return "rounds/new", {**form, **hands("Cyrus", {"Annabelle": "K Q"}), "save": "1"}


def clash(client: FlaskClient, game: int) -> tuple[str, dict[str, str]]:
    form = opened(client, f"/games/{game}/rounds/new")
    saved(client, game, hands("Cyrus", {"Annabelle": "K Q"}))
    return "rounds/new", {**form, **hands("Cyrus", {"Annabelle": "9 9"}), "save": "1"}


def moved_on(client: FlaskClient, game: int) -> tuple[str, dict[str, str]]:
    saved(client, game, hands("Cyrus", {"Annabelle": "K Q"}))
    form = opened(client, f"/games/{game}/rounds/new")
    correction = {**opened(client, f"/games/{game}/rounds/1/edit"), "save": "1"}
    corrected = {**correction, **hands("Cyrus", {"Annabelle": "K"})}
    assert client.post(f"/games/{game}/rounds/1/edit", data=corrected).status_code == 302
    return "rounds/new", {**form, **hands("Dolores", {"Bartholomew": "5"}), "save": "1"}


def corrected(client: FlaskClient, game: int) -> tuple[str, dict[str, str]]:
    saved(client, game, hands("Cyrus", {"Annabelle": "K Q"}))
    form = opened(client, f"/games/{game}/rounds/1/edit")
    return "rounds/1/edit", {**form, **hands("Cyrus", {"Annabelle": "K"}), "save": "1"}


def merged(client: FlaskClient, game: int) -> tuple[str, dict[str, str]]:
    saved(client, game, hands("Cyrus", {"Annabelle": "K Q", "Fitzgerald": "5"}))
    mine = opened(client, f"/games/{game}/rounds/1/edit")
    theirs = opened(client, f"/games/{game}/rounds/1/edit")
    other = hands("Cyrus", {"Annabelle": "JK", "Fitzgerald": "5"})
    assert client.post(f"/games/{game}/rounds/1/edit", data={**theirs, **other, "save": "1"})
    return "rounds/1/edit", {
        **mine,
        **hands("Cyrus", {"Annabelle": "K Q", "Fitzgerald": "A"}),
        "save": "1",
    }


def correction_clash(client: FlaskClient, game: int) -> tuple[str, dict[str, str]]:
    saved(client, game, hands("Cyrus", {"Annabelle": "K Q"}))
    mine = opened(client, f"/games/{game}/rounds/1/edit")
    theirs = opened(client, f"/games/{game}/rounds/1/edit")
    other = hands("Cyrus", {"Annabelle": "JK"})
    assert client.post(f"/games/{game}/rounds/1/edit", data={**theirs, **other, "save": "1"})
    return "rounds/1/edit", {**mine, **hands("Cyrus", {"Annabelle": "2"}), "save": "1"}


def cleared_and_stored(client: FlaskClient, game: int) -> tuple[str, dict[str, str]]:
    address, sent = stored(client, game)
    return address, {**sent, "hands-2-cards": "K K"}


CASES: list[tuple[Scenario, int, Happened, str]] = [
    (stored, 302, Happened.STORED, "Round 1 saved: Cyrus went out"),
    (refused_by_the_rules, 422, Happened.REFUSED, "Nothing was saved"),
    (refused_at_once, 422, Happened.REFUSED, "say who went out"),
    (resent, 302, Happened.RESENT, "That round was already saved."),
    (stored_first_elsewhere, 302, Happened.SAME, "stored as you typed it"),
    (clash, 409, Happened.CLASH, "Where you typed something else, choose below"),
    (moved_on, 409, Happened.MOVED_ON, "since this form was opened"),
    (corrected, 302, Happened.STORED, "Round 1 corrected."),
    (merged, 302, Happened.MERGED, "Another phone had changed round 1 meanwhile"),
    (correction_clash, 409, Happened.CLASH, "changed the same part: choose below"),
    (cleared_and_stored, 302, Happened.STORED, "were cleared"),
]


@pytest.mark.parametrize(("scenario", "status", "happened", "said"), CASES)
def test_a_save_is_answered_by_one_service_call_with_the_tally_worked_out_once(
    client: FlaskClient,
    counts: Counts,
    scenario: Scenario,
    status: int,
    happened: Happened,
    said: str,
) -> None:
    game = start_game(client, "twelve-step", SIX)
    address, sent = scenario(client, game)
    client.get(f"/games/{game}")  # the board keeps the tally of the game as it is now
    counts.lookups = counts.replays = 0
    assert counts.answers is not None
    counts.answers.clear()
    answer = client.post(f"/games/{game}/{address}", data=sent)
    looked_up, replayed = counts.lookups, counts.replays
    assert answer.status_code == status, answer.get_data(as_text=True)
    assert counts.answers == [happened]
    page = answer.get_data(as_text=True)
    if status == 302:
        page = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert said in page
    assert looked_up == 1, f"the tally was looked up {looked_up} times"
    assert replayed <= 1, f"the game was replayed {replayed} times"


def test_the_form_sent_for_anything_but_a_save_asks_nothing_of_the_service(
    client: FlaskClient, counts: Counts
) -> None:
    """A pad key and a live preview draw one hand again: no save is asked, the tally is looked
    up once and the game is not replayed."""
    game = start_game(client, "twelve-step", SIX)
    form = {**opened(client, f"/games/{game}/rounds/new"), **hands("Cyrus", {"Dolores": "K"})}
    client.get(f"/games/{game}")
    pages = []
    for extra in ({"add-3": "Q"}, {"preview": "3"}):
        counts.lookups = counts.replays = 0
        answer = client.post(f"/games/{game}/rounds/new", data={**form, **extra}, headers=HX)
        assert answer.status_code == 200
        assert (counts.lookups, counts.replays) == (1, 0)
        pages.append(answer.get_data(as_text=True))
    assert 'value="K Q"' in pages[0] and "<form" not in pages[0]
    assert counts.answers == []


def test_the_close_the_put_in_undo_and_put_back_answer_the_same_way(
    app: Flask, client: FlaskClient, counts: Counts
) -> None:
    """Items 1, 2 and 5 on the same shape: a round closed from the phones' draft with nobody
    out, a hand put in after it was closed under its phone, the undo and the put back, and an
    undo of an older round refused: each one call of the service, whose answer the page
    says."""
    five = SIX[:5]  # Contract Rummy is for at most five
    game = start_game(client, "contract-rummy", five)
    phones = [table_phone(app, game, seat) for seat in range(5)]
    assert hand_post(phones[0], game, 0, nobody="1")[0] == 303
    for seat in range(4):
        assert hand_post(phones[seat], game, seat, cards="5", done="not")[0] == 303
    hand_post(phones[4], game, 4, cards="K Q", preview="cards")
    asked = phones[1].post(f"/games/{game}/close", data={"number": "1", "close": "1"})
    assert asked.status_code == 409 and "Evangeline" in asked.get_data(as_text=True)
    assert counts.services == []  # the question is asked before any save
    closed = phones[1].post(f"/games/{game}/close", data={"number": "1", "close": "over"})
    assert "Round 1 stored." in phones[1].get(closed.headers["Location"]).get_data(as_text=True)
    (stored,) = rounds_of(app, game)
    assert stored.went_out_id is None and points_by_seat(stored)[4] == 20
    put_in = {"number": "1", "cards": "K Q 5", "was": "K Q", "done": "not"}
    for _ in range(2):
        answer = phones[4].post(f"/games/{game}/hand/put-in", data=put_in)
        told = phones[4].get(answer.headers["Location"]).get_data(as_text=True)
    assert "holds that hand already" in told
    assert points_by_seat(rounds_of(app, game)[0])[4] == 25
    for address, said in (("rounds/1/undo", "Round 1 undone."), ("rounds/1/put-back", "put back")):
        answer = client.post(f"/games/{game}/{address}")
        assert said in client.get(answer.headers["Location"]).get_data(as_text=True)
    saved(client, game, round_form(five, "Annabelle", {name: "5" for name in five[1:]}))
    client.get(f"/games/{game}")
    client.post(f"/games/{game}/rounds/2/undo")
    client.get(f"/games/{game}")
    refused = client.post(f"/games/{game}/rounds/1/undo")
    board = client.get(refused.headers["Location"]).get_data(as_text=True)
    assert "Round 2 was just undone: put it back" in board
    assert len(rounds_of(app, game)) == 1
    assert counts.services == [
        "close",
        "put_in",
        "put_in",
        "undo",
        "put_back",
        "save",
        "undo",
        "undo",
    ]
    assert counts.answers == [
        Happened.STORED,
        Happened.STORED,
        Happened.UNCHANGED,
        Happened.STORED,
        Happened.STORED,
        Happened.STORED,
        Happened.STORED,
        Happened.MOVED_ON,
    ]


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx"])
def test_a_game_deleted_on_another_server_during_the_save_is_not_found(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, headers: dict[str, str]
) -> None:
    """The save's write finds the rounds changed, and by the time it reads the game again
    another server has emptied it from the bin: the page says it is not there (404), not an
    error of ours, and the server goes on answering."""
    game = start_game(client, "twelve-step", SIX)
    sent = {**opened(client, f"/games/{game}/rounds/new"), **hands("Cyrus", {}), "save": "1"}

    def deleted_meanwhile(played: Game, *args: Any, **kwargs: Any) -> None:
        db.session.execute(delete(Game).where(Game.id == played.id))
        db.session.commit()
        raise rounds.StaleSave("The rounds changed on another phone.")

    monkeypatch.setattr(rounds, "add_round", deleted_meanwhile)
    answer = client.post(f"/games/{game}/rounds/new", data=sent, headers=headers)
    assert answer.status_code == 404, answer.get_data(as_text=True)
    assert "There is nothing at this address" in answer.get_data(as_text=True)
    monkeypatch.undo()
    assert client.get(f"/games/{game}").status_code == 404
    assert client.get("/").status_code == 200
