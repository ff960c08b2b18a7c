"""Issue 51: a game of so many hands (``hands``) under ``winner: last contract`` in whose last
hand nobody made the last contract. The rule names nobody then, so the standings decide, as
under ``winner: most contracts``: the most contracts made, then the lowest total, then the
tie-break; the result sentence says so. Where the game fell back to the lowest total, Cy, who
made no phase, won "with 0 phases: phases made rank first", above Ann, who made two. Through
the game file and the round form, on the board, the TV, the result page, the game file and the
stored seats (what history, the records and the ratings read), in English and Spanish, on a
Phase 10 deck and a standard one; hypothesis over small games of so many hands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.games.tally import FINISHED, HandEntry, RoundEntry, tally_game
from scorekeeper.models import Game
from scorekeeper.rules import get_ruleset

from ..conftest import family_id
from ..helpers import game_document, import_game, save_round, start_game
from .test_phase_10_options import THREE, _house_rules
from .test_phase_10_tie_break_shown import _get

EVEN_THREE = {"base": "phase-10", "phases_played": "even", "hands": 3}
# Ann goes out, making her phase, in hands 1 and 2, Ben in hand 3; Cy makes nothing and holds
# the fewest points (15), Ann 25 (phases 2 and 4 made), Ben 30 (phase 2 made).
ROUNDS: list[tuple[str, dict[str, str], set[str]]] = [
    ("Ann", {"Ben": "W", "Cy": "5"}, set()),
    ("Ann", {"Ben": "5", "Cy": "5"}, set()),
    ("Ben", {"Ann": "W", "Cy": "5"}, set()),
]
WHY = "Nobody made phase 10 in hand 3, the last; Ann made the most phases (2), with 25 points."
WHY_ES = (
    "Nadie cumplió la fase 10 en la mano 3, la última; Ann cumplió más fases (2), con 25 puntos."
)


def _stored(app: Flask, game_id: int) -> list[tuple[str, int | None, bool]]:
    """The game's seats as stored (what history, the records and the ratings read): name,
    place and winner, best first."""
    with app.app_context(), scope.household(family_id(app)):
        game = db.session.get(Game, game_id)
        assert game is not None
        seats = sorted(game.seats, key=lambda seat: (seat.place or 99, seat.player.name))
        return [(seat.player.name, seat.place, bool(seat.is_winner)) for seat in seats]


def _assert_ann_wins(app: Flask, client: FlaskClient, game_id: int) -> None:
    document = client.get(f"/games/{game_id}/export").get_json()
    assert document["status"] == "finished"
    assert document["winners"] == ["Ann"]
    assert [(item["player"], item["place"]) for item in document["standings"]] == [
        ("Ann", 1),
        ("Ben", 2),
        ("Cy", 3),
    ]
    assert [item["contracts_made"] for item in document["standings"]] == [2, 1, 0]
    assert _stored(app, game_id) == [("Ann", 1, True), ("Ben", 2, False), ("Cy", 3, False)]
    for path in ("", "/tv", "/result"):
        page = _get(client, f"/games/{game_id}{path}")
        assert "Cy wins" not in page and "Cy made 0 phases" not in page, path
        assert WHY in page, path
    spanish = _get(client, f"/games/{game_id}", spanish=True)
    assert WHY_ES in spanish
    assert "Gana Cy" not in spanish and "Cy cumplió 0 fases" not in spanish
    card = client.get(f"/games/{game_id}/card.png")
    assert card.status_code == 200 and card.mimetype == "image/png"


def test_the_game_file_of_three_hands_names_whoever_made_the_most_phases(
    app: Flask, client: FlaskClient
) -> None:
    game_id = import_game(client, game_document(EVEN_THREE, THREE, ROUNDS))
    _assert_ann_wins(app, client, game_id)


def test_the_round_form_of_three_hands_names_whoever_made_the_most_phases(
    app: Flask, client: FlaskClient
) -> None:
    options = {"phases_played": "even", "hands": 3}
    game_id = start_game(client, _house_rules(app, "Three even hands", options), THREE)
    for went_out, cards, made in ROUNDS:
        save_round(client, game_id, went_out, cards, made)
    _assert_ann_wins(app, client, game_id)


def test_a_standard_deck_of_three_hands_says_contracts(app: Flask, client: FlaskClient) -> None:
    rules = {"base": "twelve-step", "hands": 3}
    rounds = [
        ("Ann", {"Ben": "K Q", "Cy": "5"}, set()),
        ("Ann", {"Ben": "5", "Cy": "5"}, set()),
        ("Ben", {"Ann": "K Q", "Cy": "5"}, set()),
    ]
    game_id = import_game(client, game_document(rules, THREE, rounds))
    document = client.get(f"/games/{game_id}/export").get_json()
    assert document["winners"] == ["Ann"]
    assert [item["player"] for item in document["standings"]] == ["Ann", "Ben", "Cy"]
    assert _stored(app, game_id)[0] == ("Ann", 1, True)
    ann = next(item for item in document["standings"] if item["player"] == "Ann")
    said = (
        f"Nobody made contract 12 in hand 3, the last; Ann made the most contracts (2), "
        f"with {ann['total']} points."
    )
    assert said in _get(client, f"/games/{game_id}")
    spanish = (
        f"Nadie cumplió el contrato 12 en la mano 3, la última; Ann cumplió más contratos (2), "
        f"con {ann['total']} puntos."
    )
    assert spanish in _get(client, f"/games/{game_id}", spanish=True)


def test_whoever_made_the_last_phase_in_the_last_hand_still_wins() -> None:
    # Ben makes phases 8 and 9 beside Ann, then phase 10 in the third and last hand: he wins,
    # though Ann has the lowest total (5 to his 30).
    rules = get_ruleset({"base": "phase-10", "phases_played": [8, 9, 10], "hands": 3})
    rounds = [
        RoundEntry(0, (HandEntry(), HandEntry("W", True), HandEntry("5", False))),
        RoundEntry(0, (HandEntry(), HandEntry("5", True), HandEntry("5", False))),
        RoundEntry(1, (HandEntry("5", False), HandEntry(), HandEntry("10", False))),
    ]
    tally = tally_game(rules, THREE, 0, rounds)
    assert tally.status == FINISHED and tally.winners == (1,)
    assert [standing.name for standing in tally.standings] == ["Ben", "Ann", "Cy"]
    assert str(tally.why_won) == "Ben made phase 10 first, with 30 points."


# Phases 9 and 10 in 3 hands: Ann makes phase 9 in hand 1 and phase 10 in hand 2, then waits
# with every phase made; Ben makes phase 9 in hand 2 and phase 10 in hand 3, the last. Both
# are makers: Ann wins with the lower total, 40 to Ben's 55 (Cy, with 15, made none).
NINE_TEN_THREE = {"base": "phase-10", "phases_played": [9, 10], "hands": 3}
MAKERS_ROUNDS: list[tuple[str, dict[str, str], set[str]]] = [
    ("Ann", {"Ben": "W", "Cy": "5"}, set()),
    ("Ann", {"Ben": "10 10 10", "Cy": "5"}, {"Ben"}),
    ("Ben", {"Ann": "10 10 10 10", "Cy": "5"}, set()),
]
MAKERS_WHY = "Ann and Ben made every phase; Ann wins with fewer points: 40 to Ben's 55."
MAKERS_WHY_ES = (
    "Ann y Ben cumplieron todas las fases; gana Ann con menos puntos: 40 contra los 55 de Ben."
)


def _assert_the_first_maker_wins(app: Flask, client: FlaskClient, game_id: int) -> None:
    document = client.get(f"/games/{game_id}/export").get_json()
    assert document["status"] == "finished"
    assert document["winners"] == ["Ann"]
    assert [(item["player"], item["place"]) for item in document["standings"]] == [
        ("Ann", 1),
        ("Ben", 2),
        ("Cy", 3),
    ]
    assert [item["total"] for item in document["standings"]] == [40, 55, 15]
    assert [item["contracts_made"] for item in document["standings"]] == [2, 2, 0]
    assert document["tie_break"] == MAKERS_WHY
    assert _stored(app, game_id) == [("Ann", 1, True), ("Ben", 2, False), ("Cy", 3, False)]
    for path in ("", "/tv", "/result"):
        page = _get(client, f"/games/{game_id}{path}")
        assert "Ben wins" not in page and "Ben made phase 10 first" not in page, path
        assert MAKERS_WHY in page, path
    for path in ("", "/result"):
        spanish = _get(client, f"/games/{game_id}{path}", spanish=True)
        assert MAKERS_WHY_ES in spanish, path
        assert "Gana Ben" not in spanish, path


def test_the_game_file_counts_a_maker_of_the_last_phase_in_an_earlier_hand(
    app: Flask, client: FlaskClient
) -> None:
    game_id = import_game(client, game_document(NINE_TEN_THREE, THREE, MAKERS_ROUNDS))
    _assert_the_first_maker_wins(app, client, game_id)


def test_the_round_form_counts_a_maker_of_the_last_phase_in_an_earlier_hand(
    app: Flask, client: FlaskClient
) -> None:
    options = {"phases_played": [9, 10], "hands": 3}
    game_id = start_game(client, _house_rules(app, "Nine and ten", options), THREE)
    for went_out, cards, made in MAKERS_ROUNDS:
        save_round(client, game_id, went_out, cards, made)
    _assert_the_first_maker_wins(app, client, game_id)


def test_makers_in_different_hands_level_on_points_play_the_tie_break_hand() -> None:
    # Ann makes phase 10 in hand 1, Ben in hand 2, the last; both on 10 points: the tie-break
    # hand is owed, on phase 10, and says so.
    rules = get_ruleset({"base": "phase-10", "phases_played": [10], "hands": 2})
    rounds = [
        RoundEntry(0, (HandEntry(), HandEntry("10", False), HandEntry("5", False))),
        RoundEntry(1, (HandEntry("10", False), HandEntry(), HandEntry("5", False))),
    ]
    tally = tally_game(rules, THREE, 0, rounds)
    assert tally.tie_break_owed == (0, 1)
    assert str(tally.tie_break_next).startswith(
        "Ann and Ben are tied on phase 10 and on 10 points."
    )
    hand = RoundEntry(1, (HandEntry("5"), HandEntry(), HandEntry()), tie_break_hand=True)
    settled = tally_game(rules, THREE, 0, [*rounds, hand])
    assert settled.status == FINISHED and settled.winners == (1,)
    assert str(settled.tie_break) == (
        "Tied on phase 10 and on 10 points; Ben went out first in the tie-break hand."
    )


def test_a_standard_deck_of_so_many_hands_counts_its_makers_too() -> None:
    # 12-Step's contracts 11 and 12 in 3 hands: Ann makes contract 12 in hand 2, Ben in hand 3.
    rules = get_ruleset({"base": "twelve-step", "phases_played": [11, 12], "hands": 3})
    rounds = [
        RoundEntry(0, (HandEntry(), HandEntry("K", False), HandEntry("5", False))),
        RoundEntry(0, (HandEntry(), HandEntry("5", True), HandEntry("5", False))),
        RoundEntry(1, (HandEntry("5", False), HandEntry(), HandEntry("5", False))),
    ]
    tally = tally_game(rules, THREE, 0, rounds)
    assert tally.status == FINISHED and tally.winners == (0,)
    ann, ben = tally.standings[0], tally.standings[1]
    assert (ann.name, ben.name) == ("Ann", "Ben") and ann.total < ben.total
    assert str(tally.why_won) == (
        f"Ann and Ben made every contract; Ann wins with {ann.total} points to {ben.total}."
    )


PHASE_RULES = [
    {"base": "phase-10", "phases_played": [9, 10], "hands": 2},
    {"base": "phase-10", "phases_played": [9, 10], "hands": 3},
    {"base": "phase-10", "phases_played": "even", "hands": 3},
    {"base": "phase-10", "phases_played": [10], "hands": 2, "tie_break": "share"},
    {"base": "phase-10", "phases_played": [10], "hands": 3},
    {"base": "twelve-step", "hands": 2},
    {"base": "twelve-step", "phases_played": [11, 12], "hands": 3},
]
CARDS = ["", "5", "W", "10 11"]
STANDARD_CARDS = ["", "5", "K", "K Q"]


@st.composite
def _games(draw: st.DrawFn) -> tuple[dict[str, Any], tuple[str, ...], list[RoundEntry]]:
    options = draw(st.sampled_from(PHASE_RULES))
    names = THREE[: draw(st.integers(2, 3))]
    cards = STANDARD_CARDS if options["base"] == "twelve-step" else CARDS
    rounds = []
    for _ in range(options["hands"]):
        out = draw(st.integers(0, len(names) - 1))
        hands = tuple(
            HandEntry()
            if seat == out
            else HandEntry(draw(st.sampled_from(cards[1:])), draw(st.booleans()))
            for seat in range(len(names))
        )
        rounds.append(RoundEntry(out, hands))
    return options, names, rounds


def _made_last(rules: Any, hands: Sequence[Any]) -> bool:
    return any(hand.made_contract and hand.contract == rules.last_contract for hand in hands)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_games(), st.data())
def test_the_winner_of_so_many_hands_heads_the_standings_the_board_shows(
    game: tuple[dict[str, Any], tuple[str, ...], list[RoundEntry]], data: st.DataObject
) -> None:
    options, names, rounds = game
    rules = get_ruleset(options)
    tally = tally_game(rules, names, 0, rounds)
    tie_break_winner = None
    if not tally.problems and tally.tie_break_owed:
        # The tied players play the tie-break hand: one of them goes out and wins it.
        tie_break_winner = data.draw(st.sampled_from(tally.tie_break_owed))
        hand = RoundEntry(
            tie_break_winner,
            tuple(
                HandEntry("" if seat == tie_break_winner else "5")
                if seat in tally.tie_break_owed
                else HandEntry()
                for seat in range(len(names))
            ),
            tie_break_hand=True,
        )
        tally = tally_game(rules, names, 0, [*rounds, hand])
    if tally.problems or tally.status != FINISHED:
        return
    standings = tally.standings
    assert standings[0].is_winner and standings[0].seat in tally.winners
    # Each keeps their own contract: the most made, then the lowest total, rank first.
    ranked = [(-standing.contracts_made, standing.total) for standing in standings]
    assert ranked == sorted(ranked)
    best = ranked[0]
    assert all(
        (-standing.contracts_made, standing.total) == best
        for standing in standings
        if standing.is_winner
    )
    # Whoever made every contract, in any hand, made the last one: the winner is one of them,
    # with the lowest total among them, or the tie-break hand's winner, or they share.
    makers = [standing for standing in standings if standing.contracts_made == len(rules.phases)]
    why = str(tally.why_won)
    if makers:
        lowest = min(maker.total for maker in makers)
        level = {maker.seat for maker in makers if maker.total == lowest}
        assert set(tally.winners) <= level
        if tie_break_winner is not None:
            assert tally.winners == (tie_break_winner,)
        elif rules.tie_break.value == "share":
            assert set(tally.winners) == level
        else:
            assert len(tally.winners) == 1 or set(tally.winners) == level
        if len(makers) == 1:
            assert "first" in why or f"made {len(rules.phases)} contracts" in why, why
        else:
            every = "every phase" if options["base"] == "phase-10" else "every contract"
            assert (
                every in why
                or "made phase" in why
                or "made contract" in why
                or ("Tied on phase" in why)
            ), why
        return
    final = [result for result in tally.rounds if not result.tie_break_hand][-1]
    assert not _made_last(rules, final.hands)
    # Nobody made the last contract: the sentence names the winner's count of contracts made,
    # or the tie-break hand that settled it.
    made = standings[0].contracts_made
    if tie_break_winner is not None:
        assert why.endswith(f"{standings[0].name} went out first in the tie-break hand."), why
        assert f"on {made} phase" in why or options["base"] != "phase-10", why
    else:
        assert f"made {made} " in why or f"({made})" in why, why
    assert f"{standings[0].name} made 0 " not in why or made == 0
