"""``cards_short`` counts the cards a contract takes at the sizes the rules make its melds: under
a house's longer runs a contract may take more cards than its own sizes say."""

from __future__ import annotations

from scorekeeper.rules import cards_short, find_contract


def test_cards_short_counts_runs_at_the_house_s_shortest_run() -> None:
    # Bellevue's contract 10 is three runs of 4; with runs of at least 5 it takes 15 cards. Three
    # aces of hearts serve two runs at most (A-2-3-4-5 and 10-J-Q-K-A, which do not continue
    # each other): 13 cards short, more than the contract's own 12.
    rules = {"base": "bellevue", "min_set": 2, "min_run": 5}
    assert find_contract("AH AH AH", rules, 10) is None
    assert cards_short("AH AH AH", rules, 10) == 13
