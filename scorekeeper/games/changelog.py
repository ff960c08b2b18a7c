"""The game's change log: the lines every write adds to it, in the family's words.

A write to a game (``services``, ``rounds``, the game file) says what it did in a line of the
log (``log``), read on the game's page; the lines here describe a round, a correction and a
game's end from the tallies before and after.
"""

from __future__ import annotations

from scorekeeper.models import Game, GameEvent

from .tally import HandResult, Tally, names_in_words


def log(game: Game, text: str) -> None:
    """Add ``text`` to the game's change log (committed with the write that made it)."""
    game.events.append(GameEvent(text=text))


def describe_round(tally: Tally, number: int, *, cards: bool = False) -> str:
    """Round ``number`` in a line: who went out, then each other player's points (or, with
    ``cards``, the cards they were left holding)."""
    played = tally.rounds[number - 1]
    names = tally.names
    out = "nobody went out" if played.went_out is None else f"{names[played.went_out]} went out"
    parts = [
        f"{names[seat]} {hand_text(hand)}"
        if cards
        else f"{names[seat]} {hand.points}{' (made contract)' if hand.made_contract else ''}"
        for seat, hand in enumerate(played.hands)
        if seat != played.went_out
    ]
    return f"{out}; " + ", ".join(parts)


def hand_text(hand: HandResult) -> str:
    """The cards of a hand in a line, or its typed total."""
    if hand.typed_total:
        return f"total {hand.points} typed"
    return hand.cards or "none"


def ending(tally: Tally) -> str:
    if not tally.winners:
        return "Game over."
    winners = names_in_words(list(tally.winner_names))
    text = f"Game over: {winners} {'wins' if len(tally.winners) == 1 else 'share the win'}."
    if tally.tie_break:
        text += f" {tally.tie_break}"
    return text


def changes(before: Tally, after: Tally, number: int) -> str:
    old, new = before.rounds[number - 1], after.rounds[number - 1]
    names = after.names
    changes: list[str] = []
    if old.went_out != new.went_out:
        was = "nobody" if old.went_out is None else names[old.went_out]
        now = "nobody" if new.went_out is None else names[new.went_out]
        changes.append(f"went out {was} → {now}")
    for seat, (was_hand, hand) in enumerate(zip(old.hands, new.hands, strict=True)):
        if (was_hand.cards, was_hand.typed_total, was_hand.points) != (
            hand.cards,
            hand.typed_total,
            hand.points,
        ):
            changes.append(
                f"{names[seat]}'s cards {hand_text(was_hand)} → {hand_text(hand)} "
                f"({was_hand.points} → {hand.points} points)"
            )
        if was_hand.made_contract != hand.made_contract:
            changes.append(
                f"{names[seat]} {'made' if hand.made_contract else 'did not make'} the contract"
            )
    return "; ".join(changes) or "nothing changed"
