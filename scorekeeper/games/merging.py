"""Merging a correction made on a round that another phone changed meanwhile.

A correction form carries the round as the phone first saw it (its **base**). When the save
finds the round changed since, the entries are merged part by part (who went out, then each
hand) against that base: a part this phone left as it was takes what is stored now, a part
only this phone changed takes its entry, and a part both changed differently is a **clash**,
shown side by side (stored now, mine) for the person to choose. A new round's form saved after
another phone stored that round merges the same way against the blank form it was opened as
(``merge_typed``). Nothing here touches the database or the request: the views hand in the
sheets and show what comes back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from .forms import card_tokens

# The part of a sheet that says who went out; hands are parts 0, 1, ... (their seat).
WENT_OUT = -1


@dataclass(frozen=True)
class SheetHand:
    """One hand as the form holds it: cards as typed, made the contract, a typed total."""

    cards: str = ""
    made: bool = False
    total: str = ""

    def same_as(self, other: SheetHand) -> bool:
        """Whether two hands say the same, whatever the spacing or case of the cards."""
        return (_cards_key(self.cards), self.made, self.total.strip()) == (
            _cards_key(other.cards),
            other.made,
            other.total.strip(),
        )


def _cards_key(cards: str) -> tuple[str, ...]:
    return tuple(token.upper() for token in card_tokens(cards))


@dataclass(frozen=True)
class Sheet:
    """A round as a form holds it: who went out (a seat as text, "nobody" or "") and a hand
    a seat."""

    went_out: str
    hands: tuple[SheetHand, ...]

    def part(self, part: int) -> str | SheetHand:
        return self.went_out if part == WENT_OUT else self.hands[part]

    def with_part(self, part: int, value: str | SheetHand) -> Sheet:
        if part == WENT_OUT:
            assert isinstance(value, str)
            return replace(self, went_out=value)
        assert isinstance(value, SheetHand)
        hands = list(self.hands)
        hands[part] = value
        return replace(self, hands=tuple(hands))

    def same_part(self, other: Sheet, part: int) -> bool:
        if part == WENT_OUT:
            return self.went_out == other.went_out
        return self._hand_for_comparing(part).same_as(other._hand_for_comparing(part))

    def _hand_for_comparing(self, seat: int) -> SheetHand:
        # The player who went out scores nothing and made the contract, whatever the form's
        # hidden toggle of that seat says.
        hand = self.hands[seat]
        return SheetHand() if self.went_out == str(seat) else hand


def encode(sheet: Sheet) -> str:
    """The sheet as a hidden field's value (``decode`` reads it back)."""
    return json.dumps(
        {"out": sheet.went_out, "hands": [[h.cards, h.made, h.total] for h in sheet.hands]},
        separators=(",", ":"),
    )


def decode(text: str | None, players: int) -> Sheet | None:
    """The sheet a hidden field holds, or None when it holds none of ``players`` hands (an
    old page, or something that is no sheet of ours)."""
    try:
        raw = json.loads(text or "")
        went_out = raw["out"]
        hands = tuple(
            SheetHand(cards=str(cards)[:200], made=bool(made), total=str(total)[:12])
            for cards, made, total in raw["hands"]
        )
    except (ValueError, TypeError, KeyError):
        return None
    if not isinstance(went_out, str) or len(hands) != players:
        return None
    return Sheet(went_out=went_out[:12], hands=hands)


def encode_parts(parts: list[int]) -> str:
    return ",".join(str(part) for part in parts)


def decode_parts(text: str | None, players: int) -> list[int]:
    """The clashing parts a hidden field names (unknown ones left out)."""
    parts = []
    for word in (text or "").split(","):
        try:
            part = int(word)
        except ValueError:
            continue
        if WENT_OUT <= part < players and part not in parts:
            parts.append(part)
    return parts


def merge(base: Sheet | None, stored: Sheet, mine: Sheet) -> tuple[Sheet, list[int]]:
    """``mine`` merged into ``stored`` against ``base`` (the round this phone started from),
    and the parts that clash (both changed, differently), which keep ``mine`` in the merged
    sheet until the person chooses. Without a base, every part where mine differs from what
    is stored clashes: nothing is overwritten unseen."""
    merged = stored
    clashes: list[int] = []
    for part in [WENT_OUT, *range(len(stored.hands))]:
        if mine.same_part(stored, part):
            continue
        mine_changed = base is None or not mine.same_part(base, part)
        stored_changed = base is None or not stored.same_part(base, part)
        if not mine_changed:
            continue
        merged = merged.with_part(part, mine.part(part))
        if stored_changed:
            clashes.append(part)
    return merged, clashes


def merge_typed(stored: Sheet, mine: Sheet) -> tuple[Sheet, list[int]]:
    """``mine``, typed on a new round's blank form, merged into the same round stored
    meanwhile from another phone: ``merge`` against the blank form, where every stored part
    counts as changed (even a hand stored blank is another phone's entry). A part left blank
    or typed the same takes what is stored; a part typed differently clashes, keeping mine in
    the merged sheet until the person chooses. The hand of whoever ``mine`` says went out is
    no blank: going out is what was typed for it."""
    merged = stored
    clashes: list[int] = []
    for part in [WENT_OUT, *range(len(stored.hands))]:
        if mine.same_part(stored, part) or _blank_part(mine, part):
            continue
        merged = merged.with_part(part, mine.part(part))
        clashes.append(part)
    return merged, clashes


def _blank_part(mine: Sheet, part: int) -> bool:
    if part == WENT_OUT:
        return mine.went_out == ""
    return mine.went_out != str(part) and mine.hands[part].same_as(SheetHand())


def left_blank(mine: Sheet) -> list[int]:
    """The hands of ``mine`` with nothing typed (the seat it says went out is none of them)."""
    return [seat for seat in range(len(mine.hands)) if _blank_part(mine, seat)]
