"""Merging a correction made on a round that another phone changed meanwhile.

A correction form carries the round as the phone first saw it (its **base**). When the save
finds the round changed since, the entries are merged part by part (who went out, then each
hand) against that base: a part this phone left as it was takes what is stored now, a part
only this phone changed takes its entry, and a part both changed differently is a **clash**,
shown side by side (stored now, mine) for the person to choose. A new round's form saved after
another phone stored that round merges the same way against the blank form it was opened as
(``merge_typed``). Nothing here touches the database or the request: the views hand in the
round form (read as a sheet and written back from one here) and what the request picked, and
show what comes back. What it says of a round is in messages (the rules engine's ``Message``),
put into the page's language where they are shown.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scorekeeper.inputs import whole_number
from scorekeeper.models import Round
from scorekeeper.rules import N_, Message, N_plural
from scorekeeper.rules.messages import Value

from . import round_entry
from .forms import NOBODY, HandInput, RoundForm, card_tokens
from .tally import RoundEntry, one_after_another, owners_of

# The part of a sheet that says who went out; hands are parts 0, 1, ... (their seat).
WENT_OUT = -1
# How that part writes "and went down and out in one turn" (the bonus) after the seat.
ONE_TURN_MARK = "+"


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
    a seat; ``one_turn``: whoever went out went down and out in one turn (the bonus), which
    belongs to the part that says who went out."""

    went_out: str
    hands: tuple[SheetHand, ...]
    one_turn: bool = False

    def part(self, part: int) -> str | SheetHand:
        if part == WENT_OUT:
            return self.went_out + (ONE_TURN_MARK if self.one_turn else "")
        return self.hands[part]

    def with_part(self, part: int, value: str | SheetHand) -> Sheet:
        if part == WENT_OUT:
            assert isinstance(value, str)
            return replace(
                self,
                went_out=value.removesuffix(ONE_TURN_MARK),
                one_turn=value.endswith(ONE_TURN_MARK),
            )
        assert isinstance(value, SheetHand)
        hands = list(self.hands)
        hands[part] = value
        return replace(self, hands=tuple(hands))

    def same_part(self, other: Sheet, part: int) -> bool:
        if part == WENT_OUT:
            return (self.went_out, self.one_turn) == (other.went_out, other.one_turn)
        return self._hand_for_comparing(part).same_as(other._hand_for_comparing(part))

    def _hand_for_comparing(self, seat: int) -> SheetHand:
        # The player who went out scores nothing and made the contract, whatever the form's
        # hidden toggle of that seat says.
        hand = self.hands[seat]
        return SheetHand() if self.went_out == str(seat) else hand


def encode(sheet: Sheet) -> str:
    """The sheet as a hidden field's value (``decode`` reads it back)."""
    return json.dumps(
        {
            "out": sheet.went_out,
            "one": sheet.one_turn,
            "hands": [[h.cards, h.made, h.total] for h in sheet.hands],
        },
        separators=(",", ":"),
    )


def decode(text: str | None, players: int) -> Sheet | None:
    """The sheet a hidden field holds, or None when it holds none of ``players`` hands (an
    old page, or something that is no sheet of ours)."""
    try:
        raw = json.loads(text or "")
        went_out = raw["out"]
        # A page from before the bonus carries none.
        one_turn = raw.get("one") is True
        hands = tuple(
            SheetHand(cards=str(cards)[:200], made=bool(made), total=str(total)[:12])
            for cards, made, total in raw["hands"]
        )
    except (ValueError, TypeError, KeyError):
        return None
    if not isinstance(went_out, str) or len(hands) != players:
        return None
    return Sheet(went_out=went_out[:12], hands=hands, one_turn=one_turn)


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


def left_blank(mine: Sheet, names: Sequence[str]) -> Message | None:
    """The hands of ``mine`` with nothing typed (the seat it says went out is none of them),
    as the phone is told they stay as the other phone entered them (None for none)."""
    blanks = [names[seat] for seat in range(len(mine.hands)) if _blank_part(mine, seat)]
    if not blanks:
        return None
    return N_plural(
        "%(owners)s hand, left blank here, stays as the other phone entered it.",
        "%(owners)s hands, left blank here, stay as the other phone entered them.",
        num=len(blanks),
        owners=owners_of(blanks),
    ).capitalized()


def merge_close(
    stored: Sheet, sent: Mapping[str, str]
) -> tuple[Sheet, dict[int, SheetHand], list[int]]:
    """The hands the close page (``sent``: its form) asks to write, merged hand by hand
    (``merge``) with what each phone holds now (``stored``) against what the page showed (its
    ``was-`` fields), and the seats where the scorer and that player's phone both changed the
    hand, differently."""
    players = len(stored.hands)
    out = stored.went_out
    base_hands, mine_hands = list(stored.hands), list(stored.hands)
    picks = decode_parts(sent.get("clashes"), players)
    for seat in range(players):
        if f"cards-{seat}" not in sent:
            continue
        now = stored.hands[seat]
        # A page that did not carry what it showed (an older one): the hand as it is now.
        was_made = sent.get(f"was-made-{seat}")
        base_hands[seat] = SheetHand(
            sent.get(f"was-{seat}", now.cards),
            now.made if was_made is None else was_made == "y",
        )
        mine_hands[seat] = SheetHand(sent[f"cards-{seat}"][:800], bool(sent.get(f"made-{seat}")))
        if seat in picks and sent.get(f"pick-{seat}") == "phone":
            mine_hands[seat] = base_hands[seat]  # the phone's hand as the choice showed it
    base = Sheet(out, tuple(base_hands), stored.one_turn)
    merged, clashes = merge(base, stored, Sheet(out, tuple(mine_hands), stored.one_turn))
    # A clash found now is new (the phone changed its hand again since the choice was
    # shown); one shown before stays unchosen until a side is picked.
    unchosen = clashes + [
        seat
        for seat in picks
        if seat not in clashes and sent.get(f"pick-{seat}") not in ("phone", "mine")
    ]
    writes = {
        seat: merged.hands[seat]
        for seat in range(players)
        if not merged.same_part(stored, seat) and seat not in unchosen
    }
    return merged, writes, unchosen


# --- the round form as sheets -----------------------------------------------------------------
# The round form (``forms.RoundForm``) read as a sheet and written back from one, and what the
# side-by-side choice shows: the views hand in the form and what the request picked.


def sheet_of_form(form: RoundForm) -> Sheet:
    """The round as the form holds it now."""
    return Sheet(
        went_out=(form.went_out.data or "").strip(),
        hands=tuple(SheetHand(hand.cards, bool(hand.made), hand.total) for hand in form.hands),
        one_turn=form.one_turn,
    )


def sheet_of_round(played: Round) -> Sheet:
    """A stored round as its correction form first holds it: what it says
    (``round_entry.entry_of``), as a sheet."""
    return sheet_of_entry(round_entry.entry_of(played, round_entry.positions_of(played.game.seats)))


def sheet_of_entry(entry: RoundEntry) -> Sheet:
    """A round's entry as a form holds it: who went out as text, each hand's cards and a total
    typed as typed."""
    return Sheet(
        went_out=NOBODY if entry.went_out is None else str(entry.went_out),
        hands=tuple(
            SheetHand(
                hand.cards, bool(hand.made_contract), "" if hand.total is None else str(hand.total)
            )
            for hand in entry.hands
        ),
        one_turn=entry.went_out_in_one_turn,
    )


def put_part(form: RoundForm, sheet: Sheet, part: int) -> None:
    """Set one part of the form (who went out, or a seat's hand) as ``sheet`` has it."""
    if part == WENT_OUT:
        form.went_out.data = sheet.went_out
        form.one_turn = sheet.one_turn
    else:
        hand = sheet.hands[part]
        form.hands[part] = HandInput(hand.cards, hand.made, hand.total)


def put_sheet(form: RoundForm, sheet: Sheet) -> None:
    """Set every part of the form as ``sheet`` has it."""
    for part in [WENT_OUT, *range(len(sheet.hands))]:
        put_part(form, sheet, part)


def mark_clashes(
    form: RoundForm, stored: Sheet, merged: Sheet, clashes: list[int], version: int
) -> None:
    """Make the form the correction of the round stored now (at ``version``), holding
    ``merged``, with the ``clashes`` to choose."""
    put_sheet(form, merged)
    form.base.data = encode(stored)
    form.clashes.data = encode_parts(clashes)
    form.yours.data = encode(merged)
    form.version.data = str(version)


def part_text(sheet: Sheet, part: int, names: Sequence[str]) -> Value:
    """A part of a round in words, as the side-by-side choice shows it."""
    if part == WENT_OUT:
        seat = whole_number(sheet.went_out, below=len(names))
        if seat is not None and sheet.one_turn:
            return N_("%(name)s went down and out in one turn", name=names[seat])
        if seat is not None:
            return N_("%(name)s went out", name=names[seat])
        return N_("nobody went out") if sheet.went_out == NOBODY else N_("nobody picked")
    if sheet.went_out == str(part):
        return N_("went out")
    hand = sheet.hands[part]
    text: Value = (
        N_("total %(points)s typed", points=hand.total)
        if hand.total
        else (hand.cards or N_("no cards"))
    )
    return N_("%(hand)s, made the contract", hand=text) if hand.made else text


def _part_fields(sheet: Sheet, part: int) -> dict[str, str | bool]:
    """The round form's fields of one part as ``sheet`` has it, by name."""
    if part == WENT_OUT:
        return {"went_out": sheet.went_out, "went_out_in_one_turn": sheet.one_turn}
    hand = sheet.hands[part]
    return {
        f"hands-{part}-cards": hand.cards,
        f"hands-{part}-made": hand.made,
        f"hands-{part}-total": hand.total,
    }


def clash_choices(
    form: RoundForm, names: Sequence[str], picks: Mapping[str, str]
) -> list[dict[str, Any]]:
    """The parts of the round where this phone's correction and another's differ, each with
    what is stored now and what this phone has, for the person to choose (``picks``: the
    ``pick-<part>`` fields sent)."""
    players = len(names)
    base = decode(form.base.data, players)
    if base is None:
        return []
    mine = decode(form.yours.data, players) or sheet_of_form(form)
    return [
        {
            "part": part,
            "name": N_("Who went out") if part == WENT_OUT else names[part],
            "stored": part_text(base, part, names),
            "mine": part_text(mine, part, names),
            "picked": picks.get(f"pick-{part}", ""),
            # What the form's fields hold with each side picked (app.js fills them in).
            "stored_fields": _part_fields(base, part),
            "mine_fields": _part_fields(mine, part),
        }
        for part in decode_parts(form.clashes.data, players)
    ]


def take_choices(form: RoundForm, names: Sequence[str], picks: Mapping[str, str]) -> list[Value]:
    """Apply the choices made on the conflict page (``pick-<part>``: "stored" puts back what
    was stored, "mine" keeps this phone's entry); the names of the parts still unchosen."""
    base = decode(form.base.data, len(names))
    unchosen: list[Value] = []
    for part in decode_parts(form.clashes.data, len(names)):
        picked = picks.get(f"pick-{part}")
        if base is not None and picked == "stored":
            put_part(form, base, part)
        elif base is None or picked != "mine":
            unchosen.append(N_("who went out") if part == WENT_OUT else names[part])
    if not unchosen:
        form.clashes.data = form.yours.data = ""
    return unchosen


def as_stored(form: RoundForm, played: Any) -> bool:
    """Whether the form holds round ``played`` as stored now, part for part, on the version
    it was made on (so that a round corrected since is still found changed)."""
    players = len(form.hands)
    stored, typed = sheet_of_round(played), sheet_of_form(form)
    return whole_number(form.version.data) == played.version and all(
        typed.same_part(stored, part) for part in [WENT_OUT, *range(players)]
    )


@dataclass(frozen=True)
class Correction:
    """A correction merged into the round another phone changed meanwhile: the round stored
    now, the merged round, its clashes, and the parts the other phone changed (``theirs``)."""

    stored: Sheet
    merged: Sheet
    clashes: list[int]
    theirs: list[int]


def merge_correction(form: RoundForm, played: Any) -> Correction:
    """A correction form saved after round ``played`` changed on another phone, merged into
    it against the round the form started from. The round itself unchanged since the form
    was made (another round changed) is the base, whatever the form carries (a page from
    before bases were carried has none)."""
    players = len(form.hands)
    stored = sheet_of_round(played)
    if whole_number(form.version.data) == played.version:
        base: Sheet | None = stored
    else:
        base = decode(form.base.data, players)
    merged, clashes = merge(base, stored, sheet_of_form(form))
    parts = [WENT_OUT, *range(players)]
    theirs = [part for part in parts if base is None or not stored.same_part(base, part)]
    return Correction(stored, merged, clashes, theirs)


def parts_in_words(sheet: Sheet, parts: list[int], names: Sequence[str]) -> Value:
    """Some parts of a round in words ("Ann went out; Cy JK 5"), as a message names them."""
    return one_after_another(
        [
            part_text(sheet, part, names)
            if part == WENT_OUT
            else N_("%(name)s %(part)s", name=names[part], part=part_text(sheet, part, names))
            for part in parts
        ]
    )
