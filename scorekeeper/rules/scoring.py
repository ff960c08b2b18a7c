"""Scoring the cards left in a hand at the end of a round."""

from __future__ import annotations

import math
from collections.abc import Sequence

from .cards import Card, as_cards
from .ruleset import RulesLike, get_ruleset

__all__ = ["points_step", "score_cards"]


def score_cards(cards: str | Sequence[Card], rules: RulesLike) -> int:
    """What ``cards`` left in hand count under ``rules`` (the card values table).

    The player who went out holds nothing and scores 0. Raises CardError for bad
    notation and RuleSetError for bad rules.
    """
    ruleset = get_ruleset(rules)
    return sum(ruleset.card_points(card) for card in as_cards(cards, ruleset.deck))


def points_step(rules: RulesLike) -> int:
    """The step every hand's points under ``rules`` go in: the greatest common divisor of the
    card values, since a sum of cards is a multiple of each number that divides every card's
    value (5 where the cards count 5, 10, 15 and 25; 1 where they count their face value).
    0 where every card counts 0. Raises RuleSetError for bad rules."""
    return math.gcd(*(abs(value) for _, value in get_ruleset(rules).card_values))
