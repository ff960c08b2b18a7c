"""Issue 50 item 1: every part of a round's entry survives every path a round takes, the way
python-chess round-trips its values. Hypothesis makes rounds over every part of the entry
(``RoundEntry`` and ``HandEntry``: who went out or nobody, the down-and-out bonus, each hand's
cards or typed total, made or not) under Continental's rules (a bonus) with nobody out allowed,
and sends each through each path and back: stored and read, undone and put back, corrected on
its form, merged with another phone's correction, a hand put in late over it, closed from the
phones' draft, exported and imported, backed up and restored. Nothing is lost or changed.

A part added to the entry later fails ``test_every_part_of_an_entry_is_made`` until the rounds
made here hold it (by ``dataclasses.fields``), and then every path below that drops it fails,
since each compares the whole entry read back, field by field.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import MISSING, fields, replace
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, assume, find, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.games import drafts, entering, round_entry, rounds, services, transfer
from scorekeeper.games.forms import HandInput, RoundForm
from scorekeeper.games.tally import HandEntry, RoundEntry
from scorekeeper.history import backup
from scorekeeper.models import Game, Round
from scorekeeper.rules import format_cards, get_ruleset, parse_cards

from ..conftest import family_id

FOUR = ("Ana", "Beto", "Cy", "Dee")
# Continental (the down-and-out bonus, -10) with a round that nobody goes out of allowed.
RULES = {"base": "continental", "nobody_out_allowed": True}
# Cards as people type them (lower case, tens, jokers); at most three a hand, so that four
# hands never hold more of a card than Continental's two packs.
TYPED = ("K", "q", "9", "5", "JK", "a", "10", "3")
_cards = st.lists(st.sampled_from(TYPED), min_size=1, max_size=3).map(" ".join)


@st.composite
def entries(draw: st.DrawFn, totals: bool = True) -> RoundEntry:
    """A first round the rules take: whoever went out (or nobody), the bonus where someone
    did, and each hand its cards or (``totals``) a total typed, made or not; the hand of
    whoever went out says made or nothing, and no cards (or a total of 0)."""
    went_out = draw(st.none() | st.integers(0, len(FOUR) - 1))
    hands = []
    for seat in range(len(FOUR)):
        if seat == went_out:
            total = draw(st.sampled_from((None, 0))) if totals else None
            hands.append(HandEntry(made_contract=draw(st.sampled_from((None, True))), total=total))
        elif totals and draw(st.booleans()):
            hands.append(
                HandEntry(total=draw(st.integers(0, 9999)), made_contract=draw(st.booleans()))
            )
        else:
            hands.append(HandEntry(cards=draw(_cards), made_contract=draw(st.booleans())))
    return RoundEntry(
        went_out=went_out,
        hands=tuple(hands),
        went_out_in_one_turn=went_out is not None and draw(st.booleans()),
    )


def _parts_with_defaults(kind: type) -> list[tuple[str, Any]]:
    return [(part.name, part.default) for part in fields(kind) if part.default is not MISSING]


@pytest.mark.parametrize("part", _parts_with_defaults(RoundEntry) + _parts_with_defaults(HandEntry))
def test_every_part_of_an_entry_is_made(part: tuple[str, Any]) -> None:
    """Every part of the entry (each field of ``RoundEntry`` and ``HandEntry`` with a default)
    is made other than its default by ``entries``, so that the paths below carry it."""
    name, default = part
    if name == "tie_break_hand":
        # A tie-break hand follows a tie after a game's last round: its own rounds, below.
        find(tie_break_hands(), lambda entry: getattr(entry, name) != default)
    elif name in {entry.name for entry in fields(RoundEntry)}:
        find(entries(), lambda entry: getattr(entry, name) != default)
    else:
        find(entries(), lambda entry: any(getattr(hand, name) != default for hand in entry.hands))


def _as_stored(entry: RoundEntry) -> RoundEntry:
    """What a stored round says of ``entry``: its cards as the app writes them, and whoever
    went out made their contract. Every other part (one added later too) as it was."""
    hands = []
    for seat, hand in enumerate(entry.hands):
        cards = hand.cards if hand.total is not None else format_cards(parse_cards(hand.cards))
        made = True if seat == entry.went_out else hand.made_contract
        hands.append(replace(hand, cards=cards, made_contract=made))
    return replace(entry, hands=tuple(hands))


def _lost(expected: RoundEntry, got: RoundEntry) -> list[str]:
    """The parts of the round that differ, by name (a hand's as ``hands[seat].part``)."""
    lost = [
        part.name
        for part in fields(RoundEntry)
        if part.name != "hands" and getattr(expected, part.name) != getattr(got, part.name)
    ]
    if len(expected.hands) != len(got.hands):
        return [*lost, "hands"]
    for seat, (mine, theirs) in enumerate(zip(expected.hands, got.hands, strict=True)):
        lost.extend(
            f"hands[{seat}].{part.name}"
            for part in fields(HandEntry)
            if getattr(mine, part.name) != getattr(theirs, part.name)
        )
    return lost


def _read(game_id: int) -> RoundEntry:
    """Round 1 of the game as stored, read afresh."""
    db.session.expire_all()
    game = db.session.get(Game, game_id)
    assert game is not None
    return services.entries_of(game)[0]


def _game(entry: RoundEntry) -> Game:
    """A new game whose round 1 is ``entry``, stored by the service every save ends in."""
    game = services.start_game(get_ruleset(RULES), FOUR)
    assert rounds.add_round(game, entry) is not None
    return game


def _with_hand(entry: RoundEntry, seat: int, hand: HandEntry) -> RoundEntry:
    return replace(
        entry, hands=tuple(hand if at == seat else mine for at, mine in enumerate(entry.hands))
    )


def _two_hands(entry: RoundEntry) -> tuple[int, int]:
    """Two seats that did not go out."""
    first, second, *_ = (seat for seat in range(len(FOUR)) if seat != entry.went_out)
    return first, second


# --- the paths: each takes the game holding the round and answers what it should say now ---


def _stored(game: Game, stored: RoundEntry) -> tuple[int, RoundEntry]:
    return game.id, stored


def _undone_and_put_back(game: Game, stored: RoundEntry) -> tuple[int, RoundEntry]:
    assert rounds.undo_last_round(game, 1)
    assert rounds.put_back(game, 1)
    return game.id, stored


def _form_of(game: Game, number: int = 1) -> RoundForm:
    """Round ``number``'s correction form as the page opens it."""
    form = RoundForm(formdata=None)
    form.read_hands(len(FOUR), {})
    played = db.session.scalars(
        select(Round).where(Round.game_id == game.id, Round.number == number)
    ).one()
    entering.open_correction(game, played, form)
    return form


def _corrected_on_its_form(game: Game, stored: RoundEntry) -> tuple[int, RoundEntry]:
    form = _form_of(game)
    tally = services.tally_of(game)
    rounds.edit_round(game, 1, form.entry(tally, 1), version=int(form.version.data or 0))
    return game.id, stored


def _merged(game: Game, stored: RoundEntry) -> tuple[int, RoundEntry]:
    """This phone opens the correction and changes one hand; another phone corrects another
    hand meanwhile; this phone saves: both are stored, every other part as it was."""
    mine, theirs = _two_hands(stored)
    form = _form_of(game)
    form.hands[mine] = HandInput("8", False, "")
    other = _with_hand(stored, theirs, HandEntry(cards="7", made_contract=False))
    rounds.edit_round(game, 1, other, version=None)
    answer = entering.save(game, form, number=1)
    assert answer.happened is entering.Happened.MERGED, answer.said
    return game.id, _with_hand(other, mine, HandEntry(cards="8", made_contract=False))


def _hand_put_in_late(game: Game, stored: RoundEntry) -> tuple[int, RoundEntry]:
    typed = [seat for seat in _two_hands(stored) if stored.hands[seat].total is None]
    assume(typed)
    seat = typed[0]
    was = stored.hands[seat].cards
    assert drafts.put_in_late(game, 1, seat, cards=f"{was} 7", made=False, was=was)
    late = HandEntry(cards=format_cards(parse_cards(f"{was} 7")), made_contract=False)
    return game.id, _with_hand(stored, seat, late)


def _exported_and_imported(game: Game, stored: RoundEntry) -> tuple[int, RoundEntry]:
    document = transfer.export_game(game)
    del document["uid"]  # a copy: the household holds the game itself
    return transfer.import_game(document).id, stored


def _backed_up_and_restored(game: Game, stored: RoundEntry) -> tuple[int, RoundEntry]:
    document = transfer.export_game(game)
    del document["uid"]
    line = json.dumps(document).encode() + b"\n"
    (read,) = list(backup.read_backup(io.BytesIO(line)))
    assert read.outcome == "stored" and read.game_id is not None, read.problems
    return read.game_id, stored


PATHS: dict[str, Callable[[Game, RoundEntry], tuple[int, RoundEntry]]] = {
    "stored and read": _stored,
    "undone and put back": _undone_and_put_back,
    "corrected on its form": _corrected_on_its_form,
    "merged with another phone's correction": _merged,
    "a hand put in late": _hand_put_in_late,
    "exported and imported": _exported_and_imported,
    "backed up and restored": _backed_up_and_restored,
}


@pytest.mark.parametrize("path", list(PATHS))
@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entry=entries())
def test_every_part_of_a_round_survives_every_path(
    app: Flask, path: str, entry: RoundEntry
) -> None:
    household = family_id(app)
    with app.test_request_context(), scope.household(household):
        game = _game(entry)
        stored = _read(game.id)
        # Stored, the round says what was entered: every part, and the points it scores.
        assert _lost(_as_stored(entry), stored) == []
        assert services.replay(game, [entry]).rounds == services.replay(game, [stored]).rounds
        game_id, expected = PATHS[path](game, stored)
        assert _lost(expected, _read(game_id)) == [], path
        db.session.remove()


@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entry=entries(totals=False))
def test_a_round_closed_from_the_phones_draft_is_stored_as_the_phones_said_it(
    app: Flask, entry: RoundEntry
) -> None:
    """Each phone enters its own hand (or says it went out, down and out in one turn or not,
    or that nobody did), and the last one in closes the round: stored as they said."""
    household = family_id(app)
    with app.test_request_context(), scope.household(household):
        game = services.start_game(get_ruleset(RULES), FOUR)
        if entry.went_out is None:
            drafts.nobody_out(game, number=1, closing=False)
        for seat, hand in enumerate(entry.hands):
            if seat != entry.went_out:
                made = bool(hand.made_contract)
                drafts.write_hand(
                    game, seat, number=1, cards=hand.cards, made_contract=made, done=True
                )
        if entry.went_out is not None:
            drafts.go_out(game, entry.went_out, number=1, in_one_turn=entry.went_out_in_one_turn)
        assert _lost(_as_stored(entry), _read(game.id)) == []
        db.session.remove()


@given(entry=entries())
def test_an_entry_kept_by_an_undo_reads_back_whole(entry: RoundEntry) -> None:
    """``Game.undone`` keeps the entry as JSON: every part, as it was."""
    kept = json.loads(json.dumps(round_entry.kept(entry, number=1)))
    assert kept["number"] == 1
    assert _lost(entry, round_entry.entry_of_kept(kept)) == []


# Phase 10 on phases 9 and 10: Ana makes 9 and goes out, Beto makes 9 holding a 5; then Beto
# makes 10 and goes out, Ana makes 10 holding a 5. Both made phase 10 with 5 points: a
# tie-break hand of the two of them is owed as round 3 (issue 51, ``tie_break: replay``).
TIED_RULES = {"base": "phase-10", "phases_played": [9, 10]}
TIED = (
    RoundEntry(
        went_out=0, hands=(HandEntry(), HandEntry("5", True), HandEntry("10"), HandEntry("10"))
    ),
    RoundEntry(
        went_out=1, hands=(HandEntry("5", True), HandEntry(), HandEntry("10"), HandEntry("10"))
    ),
)
# At most two of a card: one Phase 10 deck holds two of each.
_phase_10_cards = st.lists(
    st.sampled_from(("7R", "12g", "w", "S", "3", "10b")), min_size=1, max_size=2
).map(" ".join)


@st.composite
def tie_break_hands(draw: st.DrawFn, totals: bool = True) -> RoundEntry:
    """Round 3 of the tied game: the tie-break hand of Ana and Beto alone, one of them out,
    the other's cards or (``totals``) typed total (whether a contract was made is not
    asked)."""
    went_out = draw(st.sampled_from((0, 1)))
    other = 1 - went_out
    if not totals or draw(st.booleans()):
        hand = HandEntry(cards=draw(_phase_10_cards))
    else:
        hand = HandEntry(total=draw(st.integers(0, 9999)))
    hands = [HandEntry(), HandEntry(), HandEntry(), HandEntry()]
    hands[other] = hand
    return RoundEntry(went_out=went_out, hands=tuple(hands), tie_break_hand=True)


def _tie_break_stored(entry: RoundEntry) -> RoundEntry:
    """What a stored tie-break hand says of ``entry``: its cards as the app writes them, and
    no contract made by the two dealt in (a tie-break hand does not read it)."""
    hands = []
    for seat, hand in enumerate(entry.hands):
        if seat > 1:
            hands.append(hand)
            continue
        cards = hand.cards
        if hand.total is None:
            cards = format_cards(parse_cards(hand.cards, TIED_RULES))
        hands.append(replace(hand, cards=cards, made_contract=False))
    return replace(entry, hands=tuple(hands))


def _tied_game(entry: RoundEntry | None) -> Game:
    """The tied game of ``TIED``, with ``entry`` stored as its tie-break hand (round 3)."""
    game = services.start_game(get_ruleset(TIED_RULES), FOUR)
    for tied in TIED:
        assert rounds.add_round(game, tied) is not None
    assert services.tally_of(game).tie_break_owed == (0, 1)
    if entry is not None:
        assert rounds.add_round(game, entry) is not None
    return game


def _tie_break_read(game_id: int) -> RoundEntry:
    db.session.expire_all()
    again = db.session.get(Game, game_id)
    assert again is not None
    return services.entries_of(again)[2]


def _tie_break_corrected(game: Game, stored: RoundEntry) -> tuple[int, RoundEntry]:
    """Round 3 opened on its correction form and saved as it opened: the same round."""
    form = _form_of(game, 3)
    rounds.edit_round(game, 3, form.entry(services.tally_of(game), 3), version=None)
    return game.id, stored


def _tie_break_merged(game: Game, stored: RoundEntry) -> tuple[int, RoundEntry]:
    """This phone opens round 3's correction and changes the hand of whoever did not go out;
    another phone saves the round meanwhile; this phone's save is merged and stored."""
    seat = 1 - (stored.went_out or 0)
    form = _form_of(game, 3)
    form.hands[seat] = HandInput("8", False, "")
    rounds.edit_round(game, 3, stored, version=None)
    answer = entering.save(game, form, number=3)
    assert answer.happened is entering.Happened.MERGED, answer.said
    return game.id, _with_hand(stored, seat, HandEntry(cards="8", made_contract=False))


def _tie_break_put_in_late(game: Game, stored: RoundEntry) -> tuple[int, RoundEntry]:
    seat = 1 - (stored.went_out or 0)
    assume(stored.hands[seat].total is None)
    was = stored.hands[seat].cards
    assert drafts.put_in_late(game, 3, seat, cards=f"{was} 7", made=True, was=was)
    late = HandEntry(cards=format_cards(parse_cards(f"{was} 7", TIED_RULES)), made_contract=False)
    return game.id, _with_hand(stored, seat, late)


def _tie_break_undone(game: Game, stored: RoundEntry) -> tuple[int, RoundEntry]:
    assert rounds.undo_last_round(game, 3)
    assert services.tally_of(game).tie_break_owed == (0, 1)
    assert rounds.put_back(game, 3)
    return game.id, stored


TIE_BREAK_PATHS: dict[str, Callable[[Game, RoundEntry], tuple[int, RoundEntry]]] = {
    "stored": _stored,
    "undone and put back": _tie_break_undone,
    "corrected on its form": _tie_break_corrected,
    "merged with another phone's correction": _tie_break_merged,
    "a hand put in late": _tie_break_put_in_late,
    "exported and imported": _exported_and_imported,
    "backed up and restored": _backed_up_and_restored,
}


@pytest.mark.parametrize("path", list(TIE_BREAK_PATHS))
@settings(max_examples=8, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entry=tie_break_hands())
def test_a_tie_break_hand_survives_every_path(app: Flask, path: str, entry: RoundEntry) -> None:
    """The tie-break hand, stored, then sent through each path: still the tie-break hand of
    the two tied players, every part as the path left it, and it decides the game."""
    household = family_id(app)
    with app.test_request_context(), scope.household(household):
        game = _tied_game(entry)
        stored = _tie_break_read(game.id)
        assert _lost(_tie_break_stored(entry), stored) == []
        game_id, expected = TIE_BREAK_PATHS[path](game, stored)
        assert _lost(expected, _tie_break_read(game_id)) == [], path
        again = db.session.get(Game, game_id)
        assert again is not None
        tally = services.tally_of(again)
        assert tally.winners == (entry.went_out,) and tally.status == "finished"
        assert tally.dealt_in(3) == (0, 1)
        db.session.remove()


@settings(max_examples=8, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entry=tie_break_hands(totals=False))
def test_a_tie_break_hand_closed_from_the_phones_draft_is_the_one_the_form_stores(
    app: Flask, entry: RoundEntry
) -> None:
    """The tied players' phones enter the tie-break hand (one goes out, the other says their
    hand is in; nobody waits for the two who sit it out): the round closes by itself, and is
    the very round the round form stores for the same hands."""
    household = family_id(app)
    with app.test_request_context(), scope.household(household):
        game = _tied_game(None)
        other = 1 - (entry.went_out or 0)
        cards = entry.hands[other].cards
        drafts.write_hand(game, other, number=3, cards=cards, made_contract=True, done=True)
        assert drafts.go_out(game, entry.went_out or 0, number=3)
        closed = _tie_break_read(game.id)
        assert _lost(_tie_break_stored(entry), closed) == []
        on_the_form = _tied_game(None)
        form = RoundForm(formdata=None)
        form.read_hands(len(FOUR), {})
        form.went_out.data = str(entry.went_out)
        form.hands[other] = HandInput(cards, True, "")
        assert rounds.add_round(on_the_form, form.entry(services.tally_of(on_the_form), 3))
        assert _lost(_tie_break_read(on_the_form.id), closed) == []
        db.session.remove()


def test_a_round_undone_before_entries_were_kept_whole_reads_as_its_hands() -> None:
    """An undo made by the version before keeps the round's hands as stored: put back after
    an update, it reads as they say."""
    kept = {
        "number": 1,
        "saved": "2026-12-07T18:00:00+00:00",
        "submission": None,
        "went_out": 0,
        "hands": [
            {"cards": "", "made": True, "points": 0, "total": False},
            {"cards": "K", "made": False, "points": 10, "total": False},
            {"cards": "", "made": True, "points": 35, "total": True},
        ],
    }
    assert round_entry.entry_of_kept(kept) == RoundEntry(
        0,
        (
            HandEntry(made_contract=True),
            HandEntry("K", False),
            HandEntry(total=35, made_contract=True),
        ),
    )
