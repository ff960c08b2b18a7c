"""The round form as one service call: ``save`` takes the form as sent (a new round's, or a
round's correction) and answers what happened, with the game's tally worked out once;
``round_views`` turns the answer into a page. Opening the form (``open_new``,
``open_correction``) is here too, and the other ways a round is stored or taken back answer the
same way: the close of the phones' draft (``close``, which stores "nobody went out" as the
phones said it), a hand put in after its round was closed under it (``put_in``), and the
scoreboard's undo and put back (``undo``, ``put_back``).

What a save can come to (``Happened``):

- **stored**: the round is stored as typed (a new round, or a correction);
- **resent**: this very form stored the round already (its first answer lost, or a save queued
  offline sent twice), answered as stored;
- **same**: another phone stored the round first, as this phone typed it (hands left blank here
  keep what that phone entered);
- **merged**: another phone corrected the round meanwhile, other parts of it: both are stored;
- **unchanged**: every clash settled as stored, so there is nothing to correct;
- **refused**: nothing saved; the form says why at each hand (``problems``);
- **clash**: nothing saved; this phone and another typed the same part differently, and the
  form, now the round's correction, shows both to choose;
- **moved on**: nothing saved; the rounds changed since the form was made, and the form is
  made again on them (for the next round, or the correction as stored now);
- **over**: nothing saved; the game is over;
- **gone**: nothing saved; the round was deleted on another phone meanwhile.

Each writes, where it writes, through ``rounds`` (one transaction); this module holds the
order of the checks and what each answer says, in the page's language.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from flask_babel import gettext as _

from scorekeeper.extensions import db
from scorekeeper.inputs import whole_number
from scorekeeper.models import Game, Round
from scorekeeper.rules import N_, Message
from scorekeeper.rules.messages import listing
from scorekeeper.status import GameStatus
from scorekeeper.words import words

from . import changelog, drafts, merging, rounds, services
from .forms import RoundForm, typed_total
from .merging import Sheet, SheetHand
from .tally import Problem, Tally, typed_total_problem

__all__ = [
    "Answer",
    "Happened",
    "close",
    "open_correction",
    "open_new",
    "put_back",
    "put_in",
    "save",
    "undo",
]


class Happened(Enum):
    """What a save came to: of the round form, and of the close, a hand put in, an undo or a
    put back, in the same words (see the module's docstring)."""

    STORED = "stored"
    RESENT = "resent"
    SAME = "same"
    MERGED = "merged"
    UNCHANGED = "unchanged"
    REFUSED = "refused"
    CLASH = "clash"
    MOVED_ON = "moved on"
    OVER = "over"
    GONE = "gone"


# The round is settled as the form meant it: the scoreboard, told what happened.
SETTLED = frozenset(
    {Happened.STORED, Happened.RESENT, Happened.SAME, Happened.MERGED, Happened.UNCHANGED}
)
# Nothing saved, and no form left to show: the scoreboard, told why.
ELSEWHERE = frozenset({Happened.OVER, Happened.GONE})
_STATUS = {Happened.REFUSED: 422, Happened.CLASH: 409, Happened.MOVED_ON: 409}


@dataclass
class Answer:
    """What a save came to: the round the form is for now (``number``; a correction where
    ``editing``), what to say (in the page's language) and the rules' ``problems``, and the
    game's tally the form is drawn on again (None where no form is shown). ``cleared`` says
    that the cards typed for whoever went out were cleared (issue 43)."""

    happened: Happened
    number: int
    tally: Tally | None = None
    editing: bool = False
    said: str = ""
    problems: list[Problem] = field(default_factory=list)
    cleared: str | None = None
    # The close page's: why a hand the scorer typed was refused (by seat), and the hands the
    # scorer and that player's phone both changed (``clashes``), with the merge to show.
    seat_errors: dict[int, Message] = field(default_factory=dict)
    clashes: list[int] = field(default_factory=list)
    merged: Sheet | None = None

    @property
    def status(self) -> int:
        """The HTTP status of the form shown again: 422 refused, 409 clash or moved on."""
        return _STATUS.get(self.happened, 200)

    @property
    def level(self) -> str:
        """How a page shows ``said`` as a flash: done (success), done before or no form left
        to show (warning), or refused (error)."""
        if self.happened in SETTLED - {Happened.RESENT}:
            return "success"
        return "warning" if self.happened in ELSEWHERE | {Happened.RESENT} else "error"


def open_new(game: Game, form: RoundForm, went_out: str) -> None:
    """Make ``form`` the next round's, on the game's rounds as they are (``rounds_stamp``),
    with a one-time token, and ``went_out`` picked (the board's shortcut)."""
    form.number.data = str(len(game.rounds) + 1)
    form.token.data = secrets.token_urlsafe(16)
    form.rounds_version.data = services.rounds_stamp(game)
    form.went_out.data = went_out


def open_correction(game: Game, played: Round, form: RoundForm) -> None:
    """Make ``form`` the correction of round ``played`` as stored, carrying that round as the
    phone first sees it (its base, for merging with another phone's correction)."""
    sheet = merging.sheet_of_round(played)
    merging.put_sheet(form, sheet)
    form.version.data = str(played.version)
    form.rounds_version.data = services.rounds_stamp(game)
    form.base.data = merging.encode(sheet)


def save(
    game: Game, form: RoundForm, *, number: int | None = None, picks: Mapping[str, str] = {}
) -> Answer:
    """Save the round ``form`` holds into ``game`` (read under its write lock): the next round,
    or the correction of round ``number`` (``picks``: the choices sent from a clash, the
    ``pick-<part>`` fields). Answers what happened; ``form`` is left as the page shows it
    again. Nothing is half-saved: each write is one transaction (``rounds``)."""
    tally, version = services.tally_of(game), game.version
    cleared = form.clear_went_out(list(tally.names))
    if number is None:
        answer = _save_new(game, form, tally, version)
    else:
        answer = _save_correction(game, number, form, picks, tally, version)
    if answer.happened in (Happened.STORED, Happened.REFUSED, Happened.MOVED_ON):
        # Said where the typing was taken as this form's (not over another phone's round).
        answer.cleared = cleared
    return answer


def _as_now(game: Game, tally: Tally, version: int) -> Tally:
    """After a save that stored nothing: the game's tally as it is now. That is ``tally``,
    worked out for the game as read at ``version``, unless the save's rollback found another
    server's write in first (the game then reads afresh, at another version)."""
    return tally if game.version == version else services.tally_of(game)


def _refused_at_once(form: RoundForm, tally: Tally, number: int) -> list[Problem]:
    """What is refused before the rules are asked: nobody said who went out, or a total typed
    that is no whole number."""
    problems = [
        typed_total_problem(number, tally.names[seat], seat, hand.total)
        for seat, hand in enumerate(form.hands)
        if hand.total and typed_total(hand.total) is None
    ]
    if form.went_out_seat(len(tally.names)) == "":
        problems.insert(
            0, Problem(number, "went_out", N_("Round %(round)s: say who went out.", round=number))
        )
    return problems


# --- a new round ------------------------------------------------------------------------------

# What ``secrets.token_urlsafe`` makes; anything else is no token of this app's forms (and
# could collide with the ids that rounds closed from drafts are stored under).
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,43}")


def _resent(game: Game, form: RoundForm, tally: Tally) -> bool:
    """Whether this form's round was stored already, from this very form: its one-time token
    stored this round, with these hands. A token that is no token of ours, or that stored
    another round than the one sent (a copy of an old form, kept on a phone without signal,
    filled in for the next round), is replaced by a new one: the save is then checked as any
    other, and stores its own round or is refused with the typing kept."""
    token = form.token.data or ""
    saved = rounds.saved_under(token) if _TOKEN.fullmatch(token) else None
    number = whole_number(form.number.data)
    if (
        saved is not None
        and number is not None
        and saved == (game.id, number)
        and rounds.same_round(game, number, form.entry(tally, number), stored=tally)
    ):
        return True
    if saved is not None or not _TOKEN.fullmatch(token):
        form.token.data = secrets.token_urlsafe(16)
    return False


def _save_new(game: Game, form: RoundForm, tally: Tally, version: int) -> Answer:
    number = len(game.rounds) + 1
    if _resent(game, form, tally):
        # Answered as stored, before any check that the first save itself made fail.
        return Answer(Happened.RESENT, number, said=_("That round was already saved."))
    opened_for = whole_number(form.number.data)
    played = next((r for r in game.rounds if r.number == opened_for), None)
    if played is not None:
        # Another phone stored the round this form was opened for (and the game may have
        # moved on, or ended, since): this typing is merged into it, never stored over it.
        return _merged_new(game, form, played, tally)
    if game.status != GameStatus.IN_PROGRESS:
        return Answer(Happened.OVER, number, said=rounds.no_more_rounds(game))
    problems = _refused_at_once(form, tally, number)
    if problems:
        return Answer(Happened.REFUSED, number, tally, problems=problems)
    try:
        saved = rounds.add_round(
            game,
            form.entry(tally, number),
            number=opened_for,
            submission=(form.token.data or None),
            stamp=(form.rounds_version.data or None),
        )
    except rounds.RoundRefused as refused:
        return Answer(Happened.REFUSED, number, tally, problems=refused.problems)
    except rounds.RoundConflict as conflict:
        return _moved_on(game, form, opened_for, conflict, _as_now(game, tally, version))
    if saved is None:
        return Answer(Happened.RESENT, number, said=_("That round was already saved."))
    return Answer(Happened.STORED, number)


def _moved_on(
    game: Game,
    form: RoundForm,
    opened_for: int | None,
    conflict: rounds.RoundConflict,
    tally: Tally,
) -> Answer:
    """Another phone stored a round, or changed the rounds, since the form was made: the form
    made again on the game as it is now (``tally``)."""
    number = len(game.rounds) + 1
    if game.status != GameStatus.IN_PROGRESS:
        # The board, though nothing was stored: the typing stays kept on the phone.
        return Answer(Happened.OVER, number, said=f"{conflict} {words(tally.game_over)}")
    form.number.data = str(number)
    form.rounds_version.data = services.rounds_stamp(game)
    said = str(conflict)
    if number != opened_for:
        said += " " + _("This form is now for round %(number)s.", number=number)
    return Answer(Happened.MOVED_ON, number, tally, said=said)


def _merged_new(game: Game, form: RoundForm, played: Round, tally: Tally) -> Answer:
    """A new round's form saved after another phone stored that round (``played``): merged
    into it against the blank form it was opened as (``merging.merge_typed``). Typed the same
    (hands left blank keep what is stored), there is nothing to do; typed differently, nothing
    is saved and the form becomes that round's correction, as stored with this phone's typing
    on it, the parts that differ side by side to choose."""
    number = played.number
    names = tally.names
    stored = merging.sheet_of_round(played)
    mine = merging.sheet_of_form(form)
    merged, clashes = merging.merge_typed(stored, mine)
    if not clashes:
        said = _(
            "Round %(number)s is stored as you typed it: another phone saved it first.",
            number=number,
        )
        blank = merging.left_blank(mine, names)
        return Answer(
            Happened.SAME, number, said=said if blank is None else f"{said} {words(blank)}"
        )
    merging.mark_clashes(form, stored, merged, clashes, played.version)
    form.number.data = str(number)
    form.rounds_version.data = services.rounds_stamp(game)
    said = _(
        "Round %(number)s was stored on another phone meanwhile; nothing was saved. Round "
        "%(number)s reads: %(reads)s. Where you typed something else, choose below: what is "
        "stored now, or yours.",
        number=number,
        reads=words(changelog.describe_round(tally, number, cards=True)),
    )
    return Answer(Happened.CLASH, number, tally, editing=True, said=said)


# --- a correction -----------------------------------------------------------------------------


def _save_correction(
    game: Game,
    number: int,
    form: RoundForm,
    picks: Mapping[str, str],
    tally: Tally,
    version: int,
) -> Answer:
    played = next(r for r in game.rounds if r.number == number)
    problems = _refused_at_once(form, tally, number)
    if problems:
        return Answer(Happened.REFUSED, number, tally, editing=True, problems=problems)
    chose = bool(form.clashes.data)
    unchosen = merging.take_choices(form, tally.names, picks)
    if chose and not unchosen and merging.as_stored(form, played):
        said = _("Round %(number)s stays as it is stored.", number=number)
        return Answer(Happened.UNCHANGED, number, editing=True, said=said)
    if unchosen:
        said = _(
            "Choose for %(parts)s: what is stored now, or yours. Nothing was saved.",
            parts=words(listing(unchosen)),
        )
        return Answer(Happened.CLASH, number, tally, editing=True, said=said)
    try:
        rounds.edit_round(
            game,
            number,
            form.entry(tally, number),
            version=whole_number(form.version.data),
            stamp=(form.rounds_version.data or None),
            before=tally,
        )
    except rounds.RoundRefused as refused:
        return Answer(Happened.REFUSED, number, tally, editing=True, problems=refused.problems)
    except rounds.RoundConflict as conflict:
        return _merged_correction(game, number, form, conflict, _as_now(game, tally, version))
    said = _("Round %(number)s corrected.", number=number)
    return Answer(Happened.STORED, number, editing=True, said=said)


def _merged_correction(
    game: Game, number: int, form: RoundForm, conflict: rounds.RoundConflict, tally: Tally
) -> Answer:
    """A correction another phone got in first: the round as stored now with this phone's
    changes merged in hand by hand against the round it started from (``merging.merge``).
    Nothing clashing (and the other rounds as the form saw them), it is stored at once;
    otherwise the form holds the merge, the hands both changed side by side, to choose."""
    played = next((r for r in game.rounds if r.number == number), None)
    if played is None:
        said = _(
            "Round %(number)s was deleted on another phone meanwhile; nothing was saved.",
            number=number,
        )
        return Answer(Happened.GONE, number, said=said)
    merged = merging.merge_correction(form, played)
    merging.mark_clashes(form, merged.stored, merged.merged, merged.clashes, played.version)
    form.rounds_version.data = services.rounds_stamp(game)
    stale = isinstance(conflict, rounds.StaleSave)
    if not merged.clashes and not stale:
        return _save_clean_merge(game, number, form, merged, tally)
    said = [
        str(conflict)
        if stale
        else _("This round was changed on another phone meanwhile; nothing was saved."),
        _(
            "Round %(number)s now reads: %(reads)s.",
            number=number,
            reads=words(changelog.describe_round(tally, number, cards=True)),
        ),
    ]
    if merged.clashes:
        said.append(_("You and the other phone changed the same part: choose below."))
    return Answer(Happened.CLASH, number, tally, editing=True, said=" ".join(said))


def _save_clean_merge(
    game: Game, number: int, form: RoundForm, merged: merging.Correction, tally: Tally
) -> Answer:
    """A correction merged with another phone's, nothing clashing: stored, and the phone told
    what the other changed. Refused by the rules as merged, the form holds the merge (on the
    round as stored now), with the rules' reasons."""
    theirs = words(merging.parts_in_words(merged.stored, merged.theirs, tally.names))
    kept = _(
        "Another phone had changed round %(number)s meanwhile, and that stays: %(theirs)s.",
        number=number,
        theirs=theirs,
    )
    try:
        rounds.edit_round(
            game,
            number,
            form.entry(tally, number),
            version=whole_number(form.version.data),
            stamp=form.rounds_version.data,
            before=tally,
        )
    except rounds.RoundRefused as refused:
        not_saved = _("Your correction, merged with it, was not saved: see below.")
        return Answer(
            Happened.REFUSED,
            number,
            tally,
            editing=True,
            problems=refused.problems,
            said=f"{kept} {not_saved}",
        )
    said = f"{_('Round %(number)s corrected.', number=number)} {kept}"
    return Answer(Happened.MERGED, number, editing=True, said=said)


# --- the phones' draft closed, a hand put in late, undo and put back --------------------------


def close(
    game: Game,
    *,
    number: int | None,
    went_out: int | str | None,
    one_turn: bool,
    sent: Mapping[str, str],
) -> Answer:
    """Close the phones' draft of round ``number`` into a stored round: the close page's save
    (``sent``: its form; ``went_out`` as ``drafts.close`` takes it, where the draft names no
    one; "nobody went out" said on a phone is the draft's own). A hand the scorer left as
    shown keeps what the player's phone holds now; one both changed differently is a clash,
    and nothing is stored until the scorer chooses: a phone's typing is never overwritten
    unseen."""
    number_now = len(game.rounds) + 1
    draft = drafts.draft_of(game) if game.status == GameStatus.IN_PROGRESS else None
    filling: int | None = None
    try:
        if draft is not None:
            filled = any(f"cards-{seat.position}" in sent for seat in draft.seats)
            if filled and number not in (None, draft.number):
                raise drafts.DraftClosed(drafts.stored_meanwhile(number or 0, draft.number))
            out = "" if draft.went_out is None else str(draft.went_out.position)
            held = tuple(SheetHand(seat.cards, seat.made_contract) for seat in draft.seats)
            merged, writes, clashes = merging.merge_close(Sheet(out, held), sent)
            if clashes:
                return Answer(Happened.CLASH, number_now, clashes=clashes, merged=merged)
            for filling, hand in writes.items():
                drafts.write_hand(
                    game,
                    filling,
                    number=number,
                    cards=hand.cards,
                    made_contract=hand.made,
                    done=True,
                    closing=False,
                )
        stored = drafts.close(game, number=number, went_out=went_out, one_turn=one_turn)
    except drafts.DraftRefused as refused:
        db.session.rollback()
        errors = {} if filling is None else {filling: refused.message}
        return Answer(Happened.REFUSED, number_now, seat_errors=errors)
    except rounds.RoundRefused as refused:
        if went_out is None and draft is not None and not draft.out_said:
            _keep_nobody(game, number)
        return Answer(Happened.REFUSED, number_now, problems=refused.problems)
    except drafts.DraftClosed as overtaken:
        db.session.rollback()
        if game.status != GameStatus.IN_PROGRESS:
            return Answer(Happened.OVER, number_now, said=rounds.no_more_rounds(game))
        return Answer(Happened.MOVED_ON, number_now, said=str(overtaken))
    if stored is None:
        said = _("That round was stored already, on another phone.")
        return Answer(Happened.RESENT, number_now, said=said)
    said = _("Round %(number)s stored.", number=stored.number)
    return Answer(Happened.STORED, stored.number, said=said)


def _keep_nobody(game: Game, number: int | None) -> None:
    """A close that named nobody out, refused by the rules: the phones' draft says nobody went
    out from now on, so that every phone shows why the round is refused, as when a phone says
    it (the close page still offers the choice)."""
    try:
        # Not closed here: the round as the close sent it was refused (a later hand may close it).
        drafts.nobody_out(game, number=number, closing=False)
    except (drafts.DraftClosed, drafts.DraftRefused, drafts.OutAlready):
        db.session.rollback()


def put_in(game: Game, number: int, position: int, *, cards: str, made: bool, was: str) -> Answer:
    """Put seat ``position``'s hand as its phone had typed it into round ``number``, which was
    closed while that phone was still typing (``drafts.put_in_late``: a correction of that
    one hand, merged as corrections are against ``was``, the hand the phone was told was
    stored)."""
    try:
        changed = drafts.put_in_late(game, number, position, cards=cards, made=made, was=was)
    except drafts.DraftRefused as refused:
        return Answer(Happened.REFUSED, number, said=words(refused.message))
    except drafts.DraftClosed as closed:  # no such round stored, or the player went out
        return Answer(Happened.REFUSED, number, said=str(closed))
    except rounds.RoundConflict as conflict:
        return Answer(Happened.MOVED_ON, number, said=str(conflict))
    except rounds.RoundRefused as refused:
        said = _(
            "Round %(number)s cannot hold that hand: %(why)s Nothing was saved.",
            number=number,
            why=refused.in_words(),
        )
        return Answer(Happened.REFUSED, number, said=said, problems=refused.problems)
    if not changed:
        said = _("Round %(number)s holds that hand already.", number=number)
        return Answer(Happened.UNCHANGED, number, said=said)
    said = _(
        "Round %(number)s corrected: your hand is %(cards)s.",
        number=number,
        cards=" ".join(cards.split()),
    )
    return Answer(Happened.STORED, number, said=said)


def undo(game: Game, number: int, *, version: int | None) -> Answer:
    """Undo round ``number``, the one just saved, keeping it to put back (``version``: the
    game's version the button was drawn on; the same tap sent twice undoes one round)."""
    try:
        rounds.undo_last_round(game, number, version=version)
    except rounds.RoundConflict as conflict:
        return Answer(Happened.MOVED_ON, number, said=str(conflict))
    return Answer(Happened.STORED, number, said=_("Round %(number)s undone.", number=number))


def put_back(game: Game, number: int) -> Answer:
    """Put round ``number``, just undone, back as it was stored, every hand as each phone
    entered it."""
    try:
        rounds.put_back(game, number)
    except rounds.RoundRefused as refused:
        said = _(
            "Round %(number)s cannot be put back as it was: %(why)s",
            number=number,
            why=refused.in_words(),
        )
        return Answer(Happened.REFUSED, number, said=said, problems=refused.problems)
    except rounds.RoundConflict as conflict:
        return Answer(Happened.MOVED_ON, number, said=str(conflict))
    return Answer(Happened.STORED, number, said=_("Round %(number)s put back.", number=number))
