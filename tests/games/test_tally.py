"""The arithmetic of a game (pure): contracts, points, dealers, standings, the end, winners,
tie-breaks, and every refusal of the game-format spec."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import pytest

from scorekeeper.games.tally import (
    ABANDONED,
    FINISHED,
    IN_PROGRESS,
    HandEntry,
    RoundEntry,
    Tally,
    tally_game,
)
from scorekeeper.rules import PRESETS, get_ruleset

NAMES = ("Ann", "Ben", "Cy", "Dee")


def entry(
    names: Sequence[str],
    went_out: str | None,
    cards: Mapping[str, str],
    made: Iterable[str] = (),
) -> RoundEntry:
    """A round: ``cards`` for everyone who did not go out ("" where not given: refused)."""
    made = set(made)
    return RoundEntry(
        went_out=None if went_out is None else names.index(went_out),
        hands=tuple(
            HandEntry(
                cards="" if name == went_out else cards.get(name, ""),
                made_contract=None if name == went_out else name in made,
            )
            for name in names
        ),
    )


def play(
    slug: str, rounds: Sequence[RoundEntry], names: Sequence[str] = NAMES, first_dealer: int = 0
) -> Tally:
    tally = tally_game(get_ruleset(slug), names, first_dealer, rounds)
    assert tally.problems == ()
    return tally


def everyone_holds(names: Sequence[str], cards: str, but: str | None) -> dict[str, str]:
    return {name: cards for name in names if name != but}


def messages(tally: Tally) -> list[str]:
    return [problem.message for problem in tally.problems]


# --- points, dealers, contracts ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "cards", "points"),
    [
        ("twelve-step", "JK 2 A K 10 9 3", 50 + 50 + 20 + 10 + 10 + 5 + 5),
        ("russian-rummy", "JK A 5", 75),
        ("dummy-rummy", "2H 10S", 60),
        ("bellevue", "JK 2 A K 10 9", 50 + 20 + 15 + 10 + 5 + 5),
        ("contract-rummy", "JK 2 A K 10 9", 15 + 2 + 15 + 10 + 10 + 9),
    ],
)
def test_leftover_cards_score_by_the_rules_and_whoever_went_out_scores_nothing(
    slug: str, cards: str, points: int
) -> None:
    tally = play(slug, [entry(NAMES, "Ann", {"Ben": cards, "Cy": "3", "Dee": "3"})])
    assert tally.problems == ()
    hands = tally.rounds[0].hands
    assert hands[0].points == 0 and hands[0].made_contract is True
    assert hands[1].points == points
    assert tally.standing(1).total == points


def test_cards_are_stored_in_the_normal_notation() -> None:
    tally = play("twelve-step", [entry(NAMES, "Ann", {"Ben": "jk, a-10h", "Cy": "*", "Dee": "t"})])
    assert [hand.cards for hand in tally.rounds[0].hands] == ["", "JK A 10H", "JK", "10"]


def test_the_deal_passes_to_the_left_from_the_first_dealer() -> None:
    rounds = [entry(NAMES, "Ann", everyone_holds(NAMES, "5", "Ann"))] * 5
    tally = play("twelve-step", rounds, first_dealer=2)
    assert [played.dealer for played in tally.rounds] == [2, 3, 0, 1, 2]
    assert tally.next_dealer == 3


def test_cards_to_deal_follow_the_round() -> None:
    rounds = [entry(NAMES, "Ann", everyone_holds(NAMES, "5", "Ann"))] * 3
    assert play("contract-rummy", rounds[:2]).cards_to_deal == 10
    assert play("contract-rummy", rounds).cards_to_deal == 12
    assert play("twelve-step", rounds).cards_to_deal == 13
    assert play("bellevue", rounds).cards_to_deal == 11


def test_each_player_keeps_their_own_contract_until_made() -> None:
    rounds = [
        entry(NAMES, "Ann", everyone_holds(NAMES, "5", "Ann"), made={"Ben"}),
        entry(NAMES, "Ann", everyone_holds(NAMES, "5", "Ann")),
        entry(NAMES, "Ben", everyone_holds(NAMES, "5", "Ben"), made={"Ann"}),
    ]
    tally = play("twelve-step", rounds)
    assert [hand.contract for hand in tally.rounds[1].hands] == [2, 2, 1, 1]
    assert [hand.contract for hand in tally.rounds[2].hands] == [3, 2, 1, 1]
    assert tally.next_contracts == (4, 3, 1, 1)
    assert tally.standing(2).contract_text == "two sets of 3"
    assert tally.standing(0).contract_text == "two runs of 4"


def test_where_the_round_sets_the_contract_everyone_plays_it() -> None:
    rounds = [entry(NAMES, "Ann", everyone_holds(NAMES, "5", "Ann"))] * 2
    tally = play("dummy-rummy", rounds)
    assert [hand.contract for hand in tally.rounds[1].hands] == [2, 2, 2, 2]
    assert tally.next_contracts == (3, 3, 3, 3)


# --- standings --------------------------------------------------------------------------------


def test_standings_with_kept_contracts_put_more_contracts_made_first() -> None:
    rounds = [
        entry(NAMES, "Ann", {"Ben": "K", "Cy": "A", "Dee": "A A"}, made={"Ben"}),
        entry(NAMES, "Ann", {"Ben": "K", "Cy": "K", "Dee": "5"}, made={"Ben"}),
    ]
    tally = play("twelve-step", rounds)
    order = [(s.name, s.contracts_made, s.total, s.place) for s in tally.standings]
    assert order == [("Ann", 2, 0, 1), ("Ben", 2, 20, 2), ("Cy", 0, 30, 3), ("Dee", 0, 45, 4)]


def test_tied_players_share_a_place() -> None:
    rounds = [entry(NAMES, "Dee", {"Ann": "K", "Ben": "Q", "Cy": "A"})]
    tally = play("contract-rummy", rounds)
    assert [(s.name, s.place) for s in tally.standings] == [
        ("Dee", 1),
        ("Ann", 2),
        ("Ben", 2),
        ("Cy", 4),
    ]


# --- the end and the winners ------------------------------------------------------------------


def twelve_step_race(
    names: Sequence[str], finishers: Sequence[str], last_cards: Mapping[str, str]
) -> list[RoundEntry]:
    """Eleven rounds where everyone in ``finishers`` makes a contract each round, then a
    twelfth in which they all make contract 12; the first finisher goes out."""
    rounds = [
        entry(names, finishers[0], everyone_holds(names, "5", finishers[0]), made=finishers)
        for _ in range(11)
    ]
    rounds.append(entry(names, finishers[0], last_cards, made=finishers))
    return rounds


def test_a_kept_contract_game_ends_after_the_round_someone_makes_the_last_contract() -> None:
    rounds = twelve_step_race(NAMES, ["Ann"], {"Ben": "5", "Cy": "5", "Dee": "5"})
    before = play("twelve-step", rounds[:-1])
    assert before.status == IN_PROGRESS and before.winners == ()
    tally = play("twelve-step", rounds)
    assert tally.status == FINISHED
    assert tally.winner_names == ("Ann",)
    assert tally.tie_break is None
    assert tally.standings[0].name == "Ann" and tally.standings[0].is_winner
    assert tally.next_round is None and tally.next_dealer is None


@pytest.mark.parametrize("slug", ["twelve-step", "russian-rummy"])
def test_two_making_contract_12_in_one_round_the_lower_total_wins(slug: str) -> None:
    # Ben goes out each round (0 points); Ann holds a 5 in every round but the last.
    names = ("Ben", "Ann", "Cy")
    rounds = twelve_step_race(names, ["Ben", "Ann"], {"Ann": "K", "Cy": "5"})
    tally = play(slug, rounds, names=names)
    assert tally.winner_names == ("Ben",)
    assert (
        tally.tie_break
        == "Ben and Ann both made contract 12 in round 12; Ben wins with 0 points to 65."
    )
    assert [(s.name, s.place) for s in tally.standings] == [("Ben", 1), ("Ann", 2), ("Cy", 3)]


def test_the_winner_by_points_need_not_have_gone_out() -> None:
    # Ann goes out in rounds 1-11; in round 12 Dee (still on contract 1) goes out while Ann
    # and Ben both lay down contract 12.
    rounds = [
        entry(NAMES, "Ann", everyone_holds(NAMES, "5", "Ann"), made={"Ben"}) for _ in range(11)
    ]
    rounds.append(entry(NAMES, "Dee", {"Ann": "K K", "Ben": "5", "Cy": "5"}, made={"Ann", "Ben"}))
    tally = play("twelve-step", rounds)
    assert tally.status == FINISHED
    assert tally.winner_names == ("Ann",)
    assert tally.tie_break == (
        "Ann and Ben both made contract 12 in round 12; Ann wins with 20 points to 60."
    )


def test_made_12_with_equal_totals_share_the_win() -> None:
    rounds = [
        entry(NAMES, out, everyone_holds(NAMES, "5", out), made={"Ann", "Ben"})
        for out in ["Ann", "Ben"] * 5 + ["Ann"]
    ]
    rounds.append(entry(NAMES, "Dee", {"Ann": "10", "Ben": "5", "Cy": "5"}, made={"Ann", "Ben"}))
    tally = play("twelve-step", rounds)
    assert tally.winner_names == ("Ann", "Ben")
    assert tally.tie_break == (
        "Ann and Ben both made contract 12 in round 12; Ann and Ben both have 35 points "
        "and share the win."
    )
    assert [(s.name, s.place, s.is_winner) for s in tally.standings][:3] == [
        ("Ann", 1, True),
        ("Ben", 1, True),
        ("Dee", 3, False),
    ]


@pytest.mark.parametrize(
    ("slug", "rounds"), [("dummy-rummy", 12), ("bellevue", 10), ("contract-rummy", 7)]
)
def test_round_games_end_after_their_last_round_and_the_lowest_total_wins(
    slug: str, rounds: int
) -> None:
    plays = [entry(NAMES, "Ann", {"Ben": "K", "Cy": "A", "Dee": "K K"}) for _ in range(rounds)]
    assert play(slug, plays[:-1]).status == IN_PROGRESS
    tally = play(slug, plays)
    assert tally.status == FINISHED
    assert tally.winner_names == ("Ann",)
    assert tally.tie_break is None
    assert len(tally.rounds) == rounds


@pytest.mark.parametrize(
    ("slug", "rounds"), [("dummy-rummy", 12), ("bellevue", 10), ("contract-rummy", 7)]
)
def test_round_games_tied_on_the_lowest_total_share_the_win(slug: str, rounds: int) -> None:
    # Ann and Ben go out in turn, each scoring 10 in the other's rounds; an odd last round
    # Cy goes out and both hold a king.
    holding = {"Ann": "K", "Ben": "K", "Cy": "A", "Dee": "A"}
    plays = [entry(NAMES, ("Ann", "Ben")[number % 2], holding) for number in range(rounds // 2 * 2)]
    if rounds % 2:
        plays.append(entry(NAMES, "Cy", holding))
    tally = play(slug, plays)
    assert tally.winner_names == ("Ann", "Ben")
    total = tally.standing(0).total
    assert tally.standing(1).total == total
    assert tally.tie_break == (
        f"Ann and Ben both finished with {total} points, the lowest total, and share the win."
    )
    assert [s.place for s in tally.standings][:3] == [1, 1, 3]


def test_a_game_over_says_who_won_and_why_in_its_own_ranking() -> None:
    """The line every page shows once the game is over (issue 23, item 18)."""
    plays = [entry(NAMES, "Ann", {"Ben": "K", "Cy": "A", "Dee": "K K"}) for _ in range(7)]
    tally = play("contract-rummy", plays)
    assert tally.winner_words == "Ann wins"
    assert tally.game_over == "This game is over: Ann wins. Ann finished with 0 points, the fewest."
    assert play("contract-rummy", plays[:3]).winner_words is None
    race = [entry(NAMES, "Ann", everyone_holds(NAMES, "5", "Ann")) for _ in range(12)]
    assert play("twelve-step", race).game_over == (
        "This game is over: Ann wins. Ann made 12 contracts, with 0 points: contracts made "
        "rank first, then points."
    )
    shared = [
        entry(NAMES, ("Ann", "Ben")[number % 2], {"Ann": "K", "Ben": "K", "Cy": "A", "Dee": "A"})
        for number in range(12)
    ]
    words = play("dummy-rummy", shared).game_over
    assert words.startswith("This game is over: Ann and Ben share the win. Ann and Ben both ")


def test_an_abandoned_game_has_no_winner() -> None:
    rounds = [entry(NAMES, "Ann", everyone_holds(NAMES, "5", "Ann"))]
    tally = tally_game(get_ruleset("contract-rummy"), NAMES, 0, rounds, abandoned=True)
    assert tally.status == ABANDONED
    assert tally.winners == () and tally.tie_break is None
    assert tally.next_round is None
    assert tally.game_over == "This game was abandoned after round 1: it has no winner."


def test_a_round_with_nobody_out_where_the_rules_allow_it() -> None:
    tally = play("contract-rummy", [entry(NAMES, None, {n: "5" for n in NAMES}, made={"Ann"})])
    assert tally.problems == ()
    assert [hand.points for hand in tally.rounds[0].hands] == [5, 5, 5, 5]
    assert tally.rounds[0].went_out is None


# --- refusals ---------------------------------------------------------------------------------


def refusals(
    slug: str, rounds: Sequence[RoundEntry], names: Sequence[str] = NAMES
) -> list[tuple[int | None, str, str]]:
    tally = tally_game(get_ruleset(slug), names, 0, rounds)
    return [(p.round, p.field, p.message) for p in tally.problems]


def test_refused_whoever_went_out_holds_cards() -> None:
    hands = list(entry(NAMES, "Ben", everyone_holds(NAMES, "5", "Ben")).hands)
    hands[1] = HandEntry("K Q", made_contract=True)
    assert refusals("twelve-step", [RoundEntry(1, tuple(hands))]) == [
        (1, "cards-1", "Round 1: Ben went out, so Ben holds no cards (entered: K Q).")
    ]


def test_refused_whoever_went_out_is_said_not_to_have_made_the_contract() -> None:
    rounds = [entry(NAMES, "Ben", everyone_holds(NAMES, "5", "Ben"))]
    hands = list(rounds[0].hands)
    hands[1] = HandEntry("", made_contract=False)
    assert refusals("twelve-step", [RoundEntry(1, tuple(hands))]) == [
        (
            1,
            "made-1",
            "Round 1: Ben went out, so Ben made contract 1; it cannot be marked as not made.",
        )
    ]


@pytest.mark.parametrize("nothing", ["", "  ", ",", " - , "])
def test_refused_a_player_who_did_not_go_out_holds_no_cards(nothing: str) -> None:
    # Separators alone are no cards: such a hand would score 0 and export as "".
    dee_holds = {"Ann": "5", "Cy": "5", "Dee": nothing}
    assert refusals("twelve-step", [entry(NAMES, "Ben", dee_holds)]) == [
        (
            1,
            "cards-3",
            "Round 1: Dee did not go out, so Dee holds cards; enter the cards left in Dee's hand.",
        )
    ]


def test_refused_a_card_that_is_no_card() -> None:
    [(number, field, message)] = refusals(
        "twelve-step", [entry(NAMES, "Ben", {"Ann": "5", "Cy": "1H", "Dee": "5"})]
    )
    assert (number, field) == (1, "cards-2")
    assert message.startswith("Round 1, Cy: '1H' is not a card")


@pytest.mark.parametrize(
    ("slug", "cards", "says"),
    [
        (
            "twelve-step",
            {"Ann": "7 7 7 7 7", "Cy": "7 7 7", "Dee": "7"},
            "9 × 7, but 2 decks hold only 8",
        ),
        ("twelve-step", {"Ann": "7H", "Cy": "7H", "Dee": "7H"}, "3 × 7♥, but 2 decks hold only 2"),
        (
            "twelve-step",
            {"Ann": "JK JK", "Cy": "JK JK", "Dee": "JK"},
            "5 × Joker, but these packs hold only 4 jokers",
        ),
        (
            "contract-rummy",
            {"Ann": "JK JK", "Cy": "JK", "Dee": "JK"},
            "4 × Joker, but these packs hold only 3 jokers",
        ),
    ],
)
def test_refused_more_copies_than_the_packs_hold(
    slug: str, cards: dict[str, str], says: str
) -> None:
    [(number, field, message)] = refusals(slug, [entry(NAMES, "Ben", cards)])
    assert (number, field) == (1, "cards")
    assert says in message and message.startswith("Round 1:")


def test_refused_a_round_played_after_the_game_ended() -> None:
    rounds = [entry(NAMES, "Ann", everyone_holds(NAMES, "5", "Ann"))] * 8
    assert refusals("contract-rummy", rounds) == [
        (8, "round", "Round 8 was played after the game ended (it ended after round 7).")
    ]


def test_refused_nobody_out_where_the_rules_do_not_allow_it() -> None:
    [(number, field, message)] = refusals(
        "twelve-step", [entry(NAMES, None, {n: "5" for n in NAMES})]
    )
    assert (number, field) == (1, "went_out")
    assert "say who went out" in message and "12-Step Rummy" in message


@pytest.mark.parametrize(("slug", "last"), [("bellevue", 10), ("contract-rummy", 7)])
def test_refused_a_going_out_only_contract_made_without_going_out(slug: str, last: int) -> None:
    rounds = [entry(NAMES, "Ann", everyone_holds(NAMES, "5", "Ann"))] * (last - 1)
    rounds.append(entry(NAMES, "Ann", everyone_holds(NAMES, "5", "Ann"), made={"Cy"}))
    [(number, field, message)] = refusals(slug, rounds)
    assert (number, field) == (last, "made-2")
    assert message.startswith(
        f"Round {last}: Cy did not go out, so Cy cannot have made contract {last}"
    )
    assert message.endswith("it is made only by going out.")


def test_refused_more_or_fewer_players_than_the_rules_allow() -> None:
    six = ("A1", "A2", "A3", "A4", "A5", "A6")
    [(number, field, message)] = refusals("contract-rummy", [], names=six)
    assert (number, field) == (None, "players")
    assert message == "Contract Rummy (7 deals) is for at most 5 players; this game has 6."
    [(_, _, message)] = refusals("twelve-step", [], names=("Ann",))
    assert message == "12-Step Rummy needs at least 2 players; this game has 1."


def test_refused_a_name_twice_ignoring_case() -> None:
    [(_, field, message)] = refusals("twelve-step", [], names=("Ann", "ann "))
    assert field == "players" and "named twice" in message


def test_every_problem_is_reported_not_only_the_first() -> None:
    hands = list(entry(NAMES, "Ben", {"Ann": "ZZ", "Cy": "", "Dee": "5"}).hands)
    hands[1] = HandEntry("K", made_contract=None)
    assert [field for _, field, _ in refusals("twelve-step", [RoundEntry(1, tuple(hands))])] == [
        "cards-0",
        "cards-1",
        "cards-2",
    ]


def test_every_preset_can_be_tallied() -> None:
    for slug in PRESETS:
        tally = play(slug, [entry(NAMES, "Ann", everyone_holds(NAMES, "5", "Ann"))])
        assert tally.problems == ()
        assert tally.next_round == 2
