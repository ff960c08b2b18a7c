"""The game's change log: the lines every write adds to it, in the family's words, in the
language of whoever reads them.

A write to a game (``services``, ``rounds``, the game file) says what it did in a line of the
log (``log``), read on the game's page; the lines here describe a round, a correction and a
game's end from the tallies before and after.

A line is kept as a message, not as words: the rules engine's ``Message`` (an id and its
values, the values messages or names or numbers in turn), stored in ``GameEvent.text`` as JSON
(``stored``). The page reading the log puts each line into its own language (``line``, the
``log_line`` filter), so a Spanish phone and an English one read the same log each in theirs.
Lines written before the log kept messages are plain English text, and are shown as they were
written.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from scorekeeper.models import Game, GameEvent
from scorekeeper.rules import N_, Message, N_plural
from scorekeeper.rules.messages import Value, listing
from scorekeeper.words import words

from .phases import says_phases
from .tally import HandResult, Tally, one_after_another

# The key a stored line's JSON opens with: a line of plain text never parses as such an object.
_MESSAGE = "m"


def log(game: Game, line: Message | str) -> None:
    """Add ``line`` to the game's change log (committed with the write that made it)."""
    game.events.append(GameEvent(text=stored(line)))


def stored(line: Message | str) -> str:
    """The line as ``GameEvent.text`` holds it: a message as JSON, plain text as it is (a line
    that was stored already, as a restore's batch writes it)."""
    if not isinstance(line, Message):
        return line
    return json.dumps(_encode(line), ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def read(text: str) -> Message | str:
    """The line ``GameEvent.text`` holds: its message, or the plain text of a line written
    before the log kept messages (or one that is no message of ours)."""
    if not text.startswith("{"):
        return text
    try:
        raw = json.loads(text)
        return _decode_message(raw)
    except (ValueError, TypeError, KeyError):
        return text


def line(text: str) -> str:
    """A stored line in the page's language (English outside a request)."""
    return words(read(text))


def _encode(value: Value) -> object:
    if isinstance(value, Message):
        raw: dict[str, object] = {
            _MESSAGE: value.text,
            "v": {name: _encode(each) for name, each in value.values.items()},
        }
        if value.plural is not None:
            raw["p"], raw["c"] = value.plural, value.count_key
        if value.capital:
            raw["cap"] = True
        return raw
    if isinstance(value, tuple):
        return [_encode(each) for each in value]
    return value


def _decode_message(raw: object) -> Message:
    if not isinstance(raw, Mapping) or not isinstance(raw[_MESSAGE], str):
        raise ValueError("no message")
    values = raw.get("v", {})
    if not isinstance(values, Mapping):
        raise ValueError("no values")
    plural, count = raw.get("p"), raw.get("c")
    return Message(
        raw[_MESSAGE],
        {str(name): _decode(each) for name, each in values.items()},
        plural if isinstance(plural, str) else None,
        count if isinstance(count, str) else None,
        capital=raw.get("cap") is True,
    )


def _decode(raw: object) -> Value:
    if isinstance(raw, Mapping):
        return _decode_message(raw)
    if isinstance(raw, list):
        return tuple(_decode(each) for each in raw)
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        raise ValueError("not a value")
    return raw


def describe_round(tally: Tally, number: int, *, cards: bool = False) -> Message:
    """Round ``number`` in a line: who went out (down and out in one turn, with the points it
    scored), then each other player's points (or, with ``cards``, the cards they were left
    holding); a Phase 10 deck's game says "made phase" where others say "made contract"."""
    played = tally.rounds[number - 1]
    names = tally.names
    phases = says_phases(tally.rules)
    if played.went_out is None:
        out = N_("nobody went out")
    elif played.went_out_in_one_turn:
        out = _one_turn(names[played.went_out], played.hands[played.went_out])
    else:
        out = N_("%(name)s went out", name=names[played.went_out])
    parts = tuple(
        _hand_line(names[seat], hand, cards=cards, phases=phases)
        for seat, hand in enumerate(played.hands)
        if seat != played.went_out and hand.in_round  # a player not dealt in has no line
    )
    return N_("%(out)s; %(hands)s", out=out, hands=parts)


def _one_turn(name: str, hand: HandResult) -> Message:
    return N_("%(name)s went down and out in one turn (%(points)s)", name=name, points=hand.points)


def _hand_line(name: str, hand: HandResult, *, cards: bool, phases: bool) -> Message:
    if cards:
        return N_("%(name)s %(cards)s", name=name, cards=hand_text(hand))
    if hand.made_contract and phases:
        return N_("%(name)s %(points)s (made phase)", name=name, points=hand.points)
    if hand.made_contract:
        return N_("%(name)s %(points)s (made contract)", name=name, points=hand.points)
    return N_("%(name)s %(points)s", name=name, points=hand.points)


def hand_text(hand: HandResult) -> Value:
    """The cards of a hand in a line, or its typed total."""
    if hand.typed_total:
        return N_("total %(points)s typed", points=hand.points)
    return hand.cards or N_("none")


def ending(tally: Tally) -> Message:
    if not tally.winners:
        return N_("Game over.")
    winners = listing(list(tally.winner_names))
    if len(tally.winners) == 1:
        over = N_("Game over: %(names)s wins.", names=winners)
    else:
        over = N_("Game over: %(names)s share the win.", names=winners)
    if tally.tie_break:
        return N_("%(over)s %(why)s", over=over, why=tally.tie_break)
    return over


def changes(before: Tally, after: Tally, number: int) -> Value:
    """What a correction of round ``number`` changed, part by part."""
    old, new = before.rounds[number - 1], after.rounds[number - 1]
    names = after.names
    changes: list[Value] = []
    if old.went_out != new.went_out:
        was = N_("nobody") if old.went_out is None else names[old.went_out]
        now = N_("nobody") if new.went_out is None else names[new.went_out]
        changes.append(N_("went out %(was)s → %(now)s", was=was, now=now))
    bonus_only = None  # the seat whose points changed by the bonus alone
    if new.went_out is not None and old.went_out_in_one_turn != new.went_out_in_one_turn:
        name = names[new.went_out]
        if new.went_out_in_one_turn:
            changes.append(_one_turn(name, new.hands[new.went_out]))
        else:
            changes.append(N_("%(name)s did not go down and out in one turn", name=name))
        if old.went_out == new.went_out:
            bonus_only = new.went_out
    for seat, (was_hand, hand) in enumerate(zip(old.hands, new.hands, strict=True)):
        if seat == bonus_only and (was_hand.cards, was_hand.typed_total) == (
            hand.cards,
            hand.typed_total,
        ):
            pass
        elif (was_hand.cards, was_hand.typed_total, was_hand.points) != (
            hand.cards,
            hand.typed_total,
            hand.points,
        ):
            changes.append(
                N_plural(
                    "%(name)s's cards %(was)s → %(now)s (%(before)s → %(num)s point)",
                    "%(name)s's cards %(was)s → %(now)s (%(before)s → %(num)s points)",
                    num=hand.points,
                    name=names[seat],
                    was=hand_text(was_hand),
                    now=hand_text(hand),
                    before=was_hand.points,
                )
            )
        if was_hand.made_contract != hand.made_contract:
            changes.append(
                N_("%(name)s made the contract", name=names[seat])
                if hand.made_contract
                else N_("%(name)s did not make the contract", name=names[seat])
            )
    if not changes:
        return N_("nothing changed")
    return one_after_another(changes)
