"""A game's contracts in the words of its table: a game on a Phase 10 deck calls each contract a
phase ("fase"), as the families who own that deck do, and the board, the TV, the phones, the
round form and the result card say "phase 3" and "phases made" where another game says
"contract 3" and "contracts made". Which decks do is the deck's own data (its wording's
``phases``, which the referee and the engine's rulings read too); the templates ask
``says_phases``.
"""

from __future__ import annotations

from scorekeeper.rules import RuleSet


def says_phases(rules: RuleSet) -> bool:
    """Whether a game on ``rules`` calls its contracts phases (a Phase 10 deck's game)."""
    return rules.deck.wording.phases
