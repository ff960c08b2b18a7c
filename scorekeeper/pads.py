"""The card pad of each deck: its keys, and what a key does to the cards typed.

Shared by the games' pads (the round form, the close page, each phone's own hand, through
``templates/games/_pad_keys.html``) and the referee's, so that every page a Phase 10 player
taps cards on shows the same keys (numbers 1 to 12, the four colours, W and S).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scorekeeper.rules import PHASE_10, STANDARD, Colour, RuleSet, Special

# The pad's keys, in the order a hand is usually read: joker, ace, court cards, then down.
PAD_RANKS = ("JK", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
_SEPARATORS = re.compile(r"[\s,\-]+")
# A card a colour key may colour: a number, with or without a colour letter ("7", "7R").
_NUMBERED = re.compile(r"(\d+)[A-Za-z]?")


@dataclass(frozen=True)
class Pad:
    """The card pad of a deck: ``ranks``, the keys that add a card of a rank (a number), in
    the order the pad shows them; ``specials``, the keys that add a special card (a joker; a
    Wild, a Skip), shown before the ranks where ``specials_first``, else after them;
    ``colours``, the keys that give the last card typed its colour ("7", then R, is "7R"). A
    standard deck's pad has no suit keys (a suit is typed, and a rank alone scores); a Phase
    10 deck's has its four colours, drawn in their colour and labelled with their letter."""

    ranks: tuple[str, ...]
    specials: tuple[Special, ...]
    example: str
    """Cards as one would type them, shown in an empty cards field."""
    colours: tuple[Colour, ...] = ()
    specials_first: bool = False

    def adds(self, text: str, key: str) -> str:
        """The cards ``text`` as the key ``key`` leaves them: one more card, or the last
        number typed given the key's colour; unchanged for a key the pad does not have, or a
        colour with no number before it to take it."""
        tokens = card_tokens(text)
        if key in self.ranks or key in {special.notation for special in self.specials}:
            return " ".join([*tokens, key])
        colours = {colour.letter for colour in self.colours}
        if key in colours and tokens and (found := _NUMBERED.fullmatch(tokens[-1])):
            return " ".join([*tokens[:-1], found.group(1) + key])
        return text


# Each deck's pad, by the deck's slug: the standard pad's ranks in the order a hand is usually
# read (joker, ace, court cards, then down); Phase 10's numbers up, its colours, Wild and Skip.
PADS = {
    STANDARD.slug: Pad(PAD_RANKS[1:], STANDARD.specials, "K Q 9 JK", specials_first=True),
    PHASE_10.slug: Pad(
        tuple(rank.symbol for rank in PHASE_10.ranks),
        PHASE_10.specials,
        "7R 12G W S",
        tuple(suit for suit in PHASE_10.suits if isinstance(suit, Colour)),
    ),
}


def pad_of(rules: RuleSet) -> Pad:
    """The card pad of ``rules``' deck (the standard pad for a deck without one)."""
    return PADS.get(rules.deck.slug, PADS[STANDARD.slug])


def card_tokens(text: str) -> list[str]:
    """The tokens of card notation as typed (``"K, q-JK"`` → ``["K", "q", "JK"]``)."""
    return [token for token in _SEPARATORS.split(text) if token]
