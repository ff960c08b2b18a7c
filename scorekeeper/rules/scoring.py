"""Scoring the cards left in a hand at the end of a round."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, as_cards
from .ruleset import RulesLike, get_ruleset

__all__ = ["score_cards"]


def score_cards(cards: str | Sequence[Card], rules: RulesLike) -> int:
    """What ``cards`` left in hand count under ``rules`` (the card values table).

    The player who went out holds nothing and scores 0. Raises CardError for bad
    notation and RuleSetError for bad rules.
    """
    ruleset = get_ruleset(rules)
    return sum(ruleset.card_points(card) for card in as_cards(cards, ruleset.deck))
