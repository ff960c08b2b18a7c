"""The one way between a stored round and what it says (issue 50).

A round is stored as one ``Round`` row and a ``Hand`` row for each seat dealt into it; what it
says is its entry (``tally.RoundEntry``: who went out, each hand, made or not, the down-and-out
bonus, and whatever a game adds). Every path that writes a round's rows or reads them back goes
through here, so that no path copies the parts it knows and drops one it does not:

- ``entry_of``: the entry a stored round says, as the tally reads it (every read of a round:
  the replay, a correction's form, a late hand, an undo);
- ``store``: a round's rows as the tally worked the entry out (a save, a correction, a merge,
  the close, a late hand, a put back, a game file stored, every replay's summary columns);
  ``round_columns`` and ``hand_columns`` are those rows' columns, which a restore's Core
  inserts write (``history.bulk_loader``);
- ``kept`` and ``entry_of_kept``: an entry as JSON and back (the round undone, kept in
  ``Game.undone`` for its put back), every field of the entry's types by its name;
- ``with_hand``: an entry with one hand changed and every other part as it was (a hand put
  in late).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.models import Hand, Round, Seat

from .tally import HandEntry, HandResult, RoundEntry, RoundResult

__all__ = [
    "entry_of",
    "entry_of_kept",
    "hand_columns",
    "kept",
    "positions_of",
    "round_columns",
    "store",
    "with_hand",
]


def positions_of(seats: Sequence[Seat]) -> dict[int, int]:
    """Each seat's position by its id: what ``entry_of`` reads a round's hands by."""
    return {seat.id: seat.position for seat in seats}


def entry_of(played: Round, positions: Mapping[int, int]) -> RoundEntry:
    """What stored round ``played`` says, as the tally reads it (``positions``: every seat of
    the game, ``positions_of``). A seat with no hand (not dealt into the round) has an empty
    one; a hand whose points were typed reads as that total, but for whoever went out, who
    typed 0: a stored bonus is in the points, not in what was typed."""
    out = None if played.went_out_id is None else positions[played.went_out_id]
    by_seat = {positions[hand.seat_id]: hand for hand in played.hands}
    hands = []
    for seat in range(len(positions)):
        hand = by_seat.get(seat)
        if hand is None:
            hands.append(HandEntry())
        elif hand.typed_total:
            total = 0 if seat == out else hand.points
            hands.append(HandEntry(total=total, made_contract=hand.made_contract))
        else:
            hands.append(HandEntry(cards=hand.cards, made_contract=hand.made_contract))
    return RoundEntry(
        went_out=out,
        hands=tuple(hands),
        went_out_in_one_turn=played.went_out_in_one_turn,
        tie_break_hand=bool(played.tie_break_hand),
    )


def round_columns(result: RoundResult) -> dict[str, Any]:
    """A round's own columns as the tally worked it out, but for who went out (a seat's id,
    which the caller knows) and what says where and when it was stored."""
    return {
        "went_out_in_one_turn": result.went_out_in_one_turn,
        "tie_break_hand": result.tie_break_hand,
    }


def hand_columns(hand: HandResult) -> dict[str, Any]:
    """A hand's columns as the tally worked it out, but for its round and seat."""
    return {
        "contract": hand.contract,
        "made_contract": hand.made_contract,
        "cards": hand.cards,
        "points": hand.points,
        "typed_total": hand.typed_total,
    }


def store(played: Round, seats: Sequence[Seat], result: RoundResult) -> None:
    """Write round ``played`` (a new one, or one stored, corrected) as the tally worked its
    entry out (``result``): who went out and the round's columns, and a hand for each seat
    dealt in (none for a seat that is not). Does not flush or commit."""
    out = None if result.went_out is None else seats[result.went_out]
    if played.went_out_id != (None if out is None else out.id):
        # Set only where it changes: every save stores every round again (``recompute``).
        played.went_out = out
    for name, value in round_columns(result).items():
        setattr(played, name, value)
    by_seat = {hand.seat_id: hand for hand in played.hands}
    for seat, hand in zip(seats, result.hands, strict=True):
        row = by_seat.get(seat.id)
        if not hand.in_round:
            if row is not None:
                played.hands.remove(row)
            continue
        columns = hand_columns(hand)
        if row is None:
            played.hands.append(Hand(seat=seat, **columns))
            continue
        for name, value in columns.items():
            setattr(row, name, value)


def with_hand(entry: RoundEntry, seat: int, hand: HandEntry) -> RoundEntry:
    """``entry`` with seat ``seat``'s hand ``hand``, every other part as it was."""
    hands = list(entry.hands)
    hands[seat] = hand
    return dataclasses.replace(entry, hands=tuple(hands))


def kept(entry: RoundEntry, **beside: Any) -> dict[str, Any]:
    """``entry`` as JSON (``"entry"``: every field of the entry and of its hands, by its
    name), with what is kept ``beside`` it (an undo's round number, when it was saved)."""
    return {**beside, "entry": dataclasses.asdict(entry)}


def entry_of_kept(data: Mapping[str, Any]) -> RoundEntry:
    """The entry ``kept`` wrote, every field as it was. A round kept by an undo made before
    entries were kept whole (its hands as stored, ``"made"`` and ``"total"``) reads as its hands
    and who went out said."""
    if "entry" not in data:
        return _entry_of_stored_hands(data)
    entry = data["entry"]
    hands = tuple(HandEntry(**hand) for hand in entry["hands"])
    return RoundEntry(**{**entry, "hands": hands})


def _entry_of_stored_hands(data: Mapping[str, Any]) -> RoundEntry:
    went_out = data.get("went_out")
    return RoundEntry(
        went_out=went_out if isinstance(went_out, int) else None,
        hands=tuple(
            HandEntry(total=hand["points"], made_contract=hand["made"])
            if hand["total"]
            else HandEntry(cards=hand["cards"], made_contract=hand["made"])
            for hand in data["hands"]
        ),
    )
