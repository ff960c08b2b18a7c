"""The arithmetic of a game, from its rules, its table and its rounds: pure, no Flask, no database.

Words used here:

- **seat**: a player's place at the table, 0 for the first name; play and the deal pass to the
  left, that is to the next seat.
- **round**: one deal, played until someone **went out** (or, where the rules allow it, until
  the stock ran out with nobody out).
- **contract**: the melds a player must lay down; where each player keeps their own
  (``contract_order == "own"``) a player works on the next contract they have not made,
  otherwise round N plays contract N for everyone.
- **leftover**: the cards left in a hand when the round ended; they score against the player.

``tally_game`` replays the rounds and returns a ``Tally``: what each round was (dealer,
contracts, points), the standings, whether the game is over and who won. It never raises for
bad input: every refusal of the game-format spec comes back as a ``Problem`` naming the round
and the player, so that the web form, the game-file import and the command line say the same.

Callers import from here. Inside: ``values`` (what is entered, the refusals and the field names
of the round form they belong at, the results), ``checks`` (the table and each round's hands
checked) and ``replay`` (the game replayed: standings, the end, winners and tie-breaks).
"""

from __future__ import annotations

from .checks import check_table, hand_problem, points_of, typed_total_problem
from .replay import tally_game
from .values import (
    ABANDONED,
    FINISHED,
    IN_PROGRESS,
    MAX_TYPED_TOTAL,
    ROUND_FIELD,
    TABLE_CARDS_FIELD,
    WENT_OUT_FIELD,
    Arrival,
    Comeback,
    HandEntry,
    HandResult,
    Lineup,
    Problem,
    RoundEntry,
    RoundResult,
    Standing,
    Tally,
    cards_field,
    comings_in_words,
    made_field,
    names_in_words,
    one_after_another,
    owners_of,
    points_in_words,
    total_field,
)

__all__ = [
    "ABANDONED",
    "FINISHED",
    "IN_PROGRESS",
    "MAX_TYPED_TOTAL",
    "ROUND_FIELD",
    "TABLE_CARDS_FIELD",
    "WENT_OUT_FIELD",
    "Arrival",
    "Comeback",
    "HandEntry",
    "HandResult",
    "Lineup",
    "Problem",
    "RoundEntry",
    "RoundResult",
    "Standing",
    "Tally",
    "cards_field",
    "check_table",
    "comings_in_words",
    "hand_problem",
    "made_field",
    "names_in_words",
    "one_after_another",
    "owners_of",
    "points_in_words",
    "points_of",
    "tally_game",
    "total_field",
    "typed_total_problem",
]
