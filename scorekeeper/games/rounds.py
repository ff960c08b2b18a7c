"""Round writes: save the next round, correct one, undo or delete the last, abandon the game,
count a May I. Each public function that writes does it in one transaction: it commits at the
end, or rolls back and raises, so nothing is ever half-saved.

What every save does, in order, all of it in this module or named here:

1. replays the game with the change (``services.replay``: the one replay of the save) and
   refuses a round the rules refuse (``RoundRefused``) before writing anything;
2. writes the rows, forgets the phones' drafts the change settles (``_drop_drafts``) and copies
   the tally into the summary columns (``services.recompute``), which moves the game's version
   (``versions.bump``, the write rule);
3. adds its line to the change log (``changelog``);
4. commits (``_commit``). At the commit, the listeners the factory installs
   (``scorekeeper.hooks``) bring the kept statistics up to date with the game in the same
   transaction (``history.stats``), which moves the household's statistics version and with
   it the kept rounds file's key (``history.rounds_file``);
5. keeps the tally it made for the version it wrote (``services.keep_tally``): the board drawn
   after the redirect reads it there instead of replaying the game again.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import ColumnElement, delete, select
from sqlalchemy.exc import IntegrityError

from scorekeeper.extensions import db
from scorekeeper.models import DraftHand, Game, GameEvent, Round, Seat, utcnow
from scorekeeper.rules import N_, LimitPer, Message, N_plural
from scorekeeper.rules.messages import listing
from scorekeeper.versions import bump
from scorekeeper.words import words

from . import changelog, round_entry
from .services import (
    UNDO_WINDOW,
    append_round,
    carry_tally,
    entries_of,
    keep_tally,
    put_back_offer,
    recompute,
    replay,
    rounds_stamp,
    rules_of,
    tally_of,
    undo_deadline,
)
from .tally import (
    IN_PROGRESS,
    ROUND_FIELD,
    WENT_OUT_FIELD,
    Problem,
    RoundEntry,
    Tally,
    cards_field,
    made_field,
    total_field,
)

__all__ = [
    "RoundConflict",
    "RoundRefused",
    "StaleSave",
    "abandon_game",
    "add_round",
    "delete_last_round",
    "edit_round",
    "no_more_rounds",
    "problems_of",
    "put_back",
    "same_round",
    "saved_under",
    "table_changed_after",
    "undo_last_round",
    "use_may_i",
]


class RoundRefused(ValueError):
    """A round that breaks the rules; ``problems`` says where and why. Nothing was saved."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(problem.message for problem in self.problems))

    def in_words(self) -> str:
        """Why, in the page's language."""
        return "; ".join(words(problem.message) for problem in self.problems)


class RoundConflict(Exception):
    """Another phone changed the game since this form was opened. Nothing was saved. Its
    text is in the language of the page that asked (it is shown as it is)."""


class StaleSave(RoundConflict):
    """The rounds changed on another phone since this form was opened (``rounds_stamp``
    differs): nothing was saved, so that no one's save is made on a game they have not seen."""


def problems_of(game: Game, entry: RoundEntry) -> list[Problem]:
    """Why the rules would refuse ``entry`` as the game's next round (empty: they would
    not); nothing is stored."""
    number = len(game.rounds) + 1
    return list(replay(game, [*entries_of(game), entry]).problems_of_round(number))


def add_round(
    game: Game,
    entry: RoundEntry,
    *,
    number: int | None = None,
    submission: str | None = None,
    stamp: str | None = None,
) -> Round | None:
    """Save the next round of ``game``.

    ``number`` is the round the form was opened for: when another phone saved it meanwhile,
    RoundConflict. ``stamp`` is the ``rounds_stamp`` the form was made on: when the rounds
    changed since (a round corrected or deleted elsewhere), StaleSave. ``submission`` is the
    form's one-time token: a form sent twice (a phone resending a save queued offline, whose
    first answer was lost) stores one round, and the second call returns None, before any
    check that the first save itself made stale. Raises RoundRefused when the round breaks the
    rules (nothing saved).
    """
    if submission and saved_under(submission) is not None:
        return None
    if game.status != IN_PROGRESS:
        raise RoundRefused(
            [Problem(None, "round", N_("This game is over: no more rounds can be entered."))]
        )
    next_number = len(game.rounds) + 1
    if number is not None and number != next_number:
        raise RoundConflict(_saved_meanwhile(number))
    if stamp is not None and stamp != rounds_stamp(game):
        raise StaleSave(
            _(
                "The rounds were changed on another phone since this form was opened; nothing "
                "was saved."
            )
        )
    rounds = [*entries_of(game), entry]
    tally = replay(game, rounds)
    problems = tally.problems_of_round(next_number)
    if problems:
        raise RoundRefused(problems)
    seats = list(game.seats)
    try:
        played = append_round(game, seats, tally.rounds[-1], submission)
        game.undone = None  # a round saved in its place: the one undone is not put back
        _drop_drafts(game, DraftHand.number <= next_number)
        db.session.flush()
        recompute(game, tally)
        _reset_may_i(game, tally)
        changelog.log(
            game,
            N_(
                "Round %(number)s saved: %(round)s.",
                number=next_number,
                round=changelog.describe_round(tally, next_number),
            ),
        )
        if tally.is_over:
            changelog.log(game, changelog.ending(tally))
        _commit(game, tally)
    except IntegrityError:
        db.session.rollback()
        if submission and saved_under(submission) is not None:
            return None
        raise RoundConflict(_saved_meanwhile(next_number)) from None
    except Exception:
        db.session.rollback()
        raise
    return played


def no_more_rounds(game: Game) -> str:
    """What a page that enters rounds says of a game that is over: how it ended, and that no
    more rounds can be entered (in the page's language)."""
    return _("%(ended)s No more rounds can be entered.", ended=words(tally_of(game).game_over))


def _saved_meanwhile(number: int) -> str:
    return _(
        "Round %(number)s was saved on another phone meanwhile; check the scoreboard before "
        "entering the next round.",
        number=number,
    )


def _drop_drafts(game: Game, which: ColumnElement[bool]) -> None:
    """Forget the phones' drafts (``which`` of them) of rounds that this change settles: a
    round stored (by any form) ends its draft and those before it, and a round deleted or
    undone ends the drafts begun after it, so an old draft never comes back to be stored."""
    db.session.execute(
        delete(DraftHand)
        .where(DraftHand.game_id == game.id, which)
        .execution_options(synchronize_session=False)
    )


def same_round(game: Game, number: int, entry: RoundEntry, *, stored: Tally | None = None) -> bool:
    """Whether ``entry`` is round ``number`` of ``game`` as stored: the same seat out and the
    same hands (cards as read, contracts, points), whatever spacing the cards were typed in.
    ``stored``: the game's tally as read, where the caller has it."""
    entries = entries_of(game)
    if not 1 <= number <= len(entries):
        return False
    tally = replay(game, [*entries[: number - 1], entry])
    if tally.problems_of_round(number) or len(tally.rounds) < number:
        return False
    # Every part of the round as the tally worked it out (the rounds before it are the same).
    kept = (tally_of(game) if stored is None else stored).rounds[number - 1]
    return kept == tally.rounds[number - 1]


def saved_under(submission: str) -> tuple[int, int] | None:
    """The (game id, round number) of the round stored from the form with this one-time
    token, or None where none was."""
    found = db.session.execute(
        select(Round.game_id, Round.number).where(Round.submission == submission)
    ).first()
    return None if found is None else (found[0], found[1])


def _reset_may_i(game: Game, tally: Tally) -> None:
    """A new round starts every May I count afresh, except where the limit is for the whole
    game, or per contract and a player is still on the contract they had (a kept-contract
    game, contract not made)."""
    if tally.rules.may_i.limit_per is LimitPer.GAME:
        return
    last = tally.rounds[-1] if tally.rounds else None
    for seat in game.seats:
        still_on_it = (
            last is not None
            and tally.keeps_contracts
            and not last.hands[seat.position].made_contract
        )
        if not still_on_it:
            seat.may_i_used = 0


def _round(game: Game, number: int) -> Round:
    for played in game.rounds:
        if played.number == number:
            return played
    raise LookupError(f"Round {number} is not a round of this game.")


def edit_round(
    game: Game,
    number: int,
    entry: RoundEntry,
    *,
    version: int | None,
    stamp: str | None = None,
    before: Tally | None = None,
) -> Round:
    """Correct round ``number``. ``version`` is the round's version the form was opened on:
    an older one means another phone changed it meanwhile (RoundConflict); ``stamp`` the
    ``rounds_stamp``: another round changed, added or deleted since is StaleSave (the totals
    the correction was made beside are not the game's any more). Raises RoundRefused when the
    corrected game breaks the rules (for this round or a later one). ``before``: the game's
    tally as read, where the caller has it."""
    played = _round(game, number)
    if version is not None and version != played.version:
        raise RoundConflict(_("This round was changed on another phone meanwhile."))
    if stamp is not None and stamp != rounds_stamp(game):
        raise StaleSave(
            _(
                "Other rounds were changed on another phone since this form was opened; "
                "nothing was saved."
            )
        )
    if before is None:
        before = tally_of(game)
    rounds = entries_of(game)
    was = rounds[number - 1]
    rounds[number - 1] = entry
    tally = replay(game, rounds)
    if tally.problems:
        kept = _tie_break_unsettled(game, rounds, number, before, was)
        raise RoundRefused([kept] if kept is not None else tally.problems)
    seats = list(game.seats)
    try:
        round_entry.store(played, seats, tally.rounds[number - 1])
        played.version += 1
        recompute(game, tally)
        changelog.log(
            game,
            N_(
                "Round %(number)s corrected: %(changes)s.",
                number=number,
                changes=changelog.changes(before, tally, number),
            ),
        )
        if tally.is_over and not before.is_over:
            changelog.log(game, changelog.ending(tally))
        elif before.is_over and not tally.is_over:
            changelog.log(game, N_("The game is no longer over after this correction."))
        _commit(game, tally)
    except Exception:
        db.session.rollback()
        raise
    return played


def _tie_break_unsettled(
    game: Game, rounds: Sequence[RoundEntry], number: int, before: Tally, was: RoundEntry
) -> Problem | None:
    """Why a correction of round ``number`` (``rounds`` as corrected; ``was`` the round as
    stored) is refused where a later round is a stored tie-break hand that the corrected game
    no longer calls for (the tie it settles gone, or between other players): said at the part
    of the round that changed, not as the later round's refusal. None where no such hand."""
    for later in range(number + 1, len(rounds) + 1):
        if not rounds[later - 1].tie_break_hand:
            continue
        tied = before.dealt_in(later)
        if replay(game, rounds[: later - 1]).tie_break_owed == tied:
            return None
        message = N_(
            "Round %(round)s as corrected leaves no tie for round %(later)s, the tie-break "
            "hand of %(names)s, to settle: delete round %(later)s first, or correct round "
            "%(round)s so that they stay level.",
            round=number,
            later=later,
            names=listing([before.names[seat] for seat in tied]),
        )
        return Problem(number, _changed_field(was, rounds[number - 1]), message)
    return None


def _changed_field(was: RoundEntry, now: RoundEntry) -> str:
    """The round form's field of the first part that differs between ``was`` and ``now``."""
    if was.went_out != now.went_out:
        return WENT_OUT_FIELD
    for seat, (old, new) in enumerate(zip(was.hands, now.hands, strict=False)):
        if new.total is not None and old.total != new.total:
            return total_field(seat)
        if old.made_contract != new.made_contract and old.cards == new.cards:
            return made_field(seat)
        if old != new:
            return cards_field(seat)
    return ROUND_FIELD


def undo_last_round(
    game: Game, number: int, now: datetime | None = None, *, version: int | None = None
) -> bool:
    """Take back round ``number``, the last one, within UNDO_WINDOW of its saving: a slip of
    the thumb at the table. Later, or for another round, RoundConflict says why.

    ``version`` is the game's version the undo button was drawn on. The same undo sent again
    (a double tap: the round is gone, the game changed since that version by this undo alone)
    is answered as the first was, and returns False; True when the round was undone now."""
    if _undone_already(game, number, version):
        return False
    offered = put_back_offer(game, now)
    if offered is not None:
        raise RoundConflict(
            _(
                "Round %(undone)s was just undone: put it back, or tap round %(number)s's "
                "number to correct it. Only the round just saved can be undone.",
                undone=offered[0],
                number=number,
            )
        )
    deadline = undo_deadline(game)
    if deadline is None or game.rounds[-1].number != number:
        raise RoundConflict(
            _(
                "Round %(number)s is not the last round any more; only the last round can be "
                "undone.",
                number=number,
            )
        )
    if (now or utcnow()) > deadline:
        minutes = int(UNDO_WINDOW.total_seconds() // 60)
        raise RoundConflict(
            ngettext(
                "Round %(number)s was saved more than %(num)s minute ago and cannot be undone "
                "any more: tap its number to correct it.",
                "Round %(number)s was saved more than %(num)s minutes ago and cannot be undone "
                "any more: tap its number to correct it.",
                minutes,
                number=number,
            )
        )
    delete_last_round(game, number, log=_undone(number), keep=True)
    return True


def _undone(number: int) -> Message:
    return N_("Round %(number)s undone.", number=number)


def _undone_already(game: Game, number: int, version: int | None) -> bool:
    """Whether round ``number`` was undone since ``version`` and nothing was logged since:
    an undo drawn on ``version`` and sent again is the undo already made."""
    if version is None or version >= game.version or len(game.rounds) != number - 1:
        return False
    return _last_line(game) == changelog.stored(_undone(number))


def table_changed_after(game: Game, number: int) -> tuple[Seat, bool] | None:
    """The first seat whose player left (False) or joined or came back (True) after round
    ``number`` (None: nobody did). That round stands while the change does, or the leave or
    join would point at a round that is not there (and the game file would not read again); a
    comeback is a leave and a join."""
    for seat in game.seats:
        aways = seat.returns or ()
        gone = [seat.left_after, *(away[0] for away in aways)]
        came = [seat.joined_before, *(away[1] for away in aways)]
        if any(first is not None and first > number for first in came):
            return seat, True
        if any(last is not None and last >= number for last in gone):
            return seat, False
    return None


def delete_last_round(
    game: Game,
    number: int,
    *,
    log: Message | None = None,
    stamp: str | None = None,
    keep: bool = False,
) -> None:
    """Delete round ``number``, which must be the last one (else RoundConflict). ``log`` is
    the change log's line (by default "Round N deleted."). ``stamp`` is the ``rounds_stamp``
    the page asking was made on: when the rounds changed since, StaleSave (nobody deletes a
    correction they have not seen). ``keep`` (an undo) keeps the round whole in
    ``Game.undone`` for ``put_back``, and the phones' drafts of the rounds after it, which
    come back with it."""
    if not game.rounds or game.rounds[-1].number != number:
        raise RoundConflict(
            _(
                "Round %(number)s is not the last round any more; only the last round can be "
                "deleted.",
                number=number,
            )
        )
    changed = table_changed_after(game, number)
    if changed is not None:
        seat, came = changed
        said = (
            _(
                "Round %(number)s cannot be taken back: %(name)s joined the game after it.",
                number=number,
                name=seat.player.name,
            )
            if came
            else _(
                "Round %(number)s cannot be taken back: %(name)s left the game after it.",
                number=number,
                name=seat.player.name,
            )
        )
        raise RoundConflict(said)
    if stamp is not None and stamp != rounds_stamp(game):
        raise StaleSave(
            _(
                "Round %(number)s was changed on another phone since this page was opened; "
                "nothing was deleted. Here it is as it is now.",
                number=number,
            )
        )
    played = game.rounds[-1]
    try:
        game.undone = _kept(game, played) if keep else None
        db.session.delete(played)
        _drop_drafts(game, DraftHand.number == number if keep else DraftHand.number >= number)
        db.session.flush()
        db.session.expire(game, ["rounds"])
        for seat in game.seats:
            db.session.expire(seat, ["hands"])
        tally = recompute(game)
        changelog.log(game, log or N_("Round %(number)s deleted.", number=number))
        _commit(game, tally)
    except Exception:
        db.session.rollback()
        raise


def _kept(game: Game, played: Round) -> dict[str, object]:
    """Round ``played`` as ``Game.undone`` keeps it: everything ``put_back`` stores again (its
    entry whole, when it was saved, the form's token)."""
    entry = round_entry.entry_of(played, round_entry.positions_of(game.seats))
    return round_entry.kept(
        entry,
        number=played.number,
        saved=played.created_at.isoformat(),
        submission=played.submission,
    )


def _put(number: int) -> Message:
    return N_("Round %(number)s put back.", number=number)


def put_back(game: Game, number: int, now: datetime | None = None) -> bool:
    """Put round ``number``, the last one undone, back as it was stored (every hand, who went
    out, when it was saved, so its own undo lasts as long as before), while the board offers
    it (``services.put_back_offer``). The same tap sent again (the round is back, nothing
    logged since) returns False; True when it was put back now. Raises RoundConflict when it
    cannot be put back any more, RoundRefused when the rules refuse it now (a correction of
    an earlier round made meanwhile)."""
    if (
        game.undone is None
        and len(game.rounds) == number
        and _last_line(game) == (changelog.stored(_put(number)))
    ):
        return False
    offered = put_back_offer(game, now)
    if offered is None or offered[0] != number:
        raise RoundConflict(
            _(
                "Round %(number)s cannot be put back any more: enter it again, or correct "
                "the round before.",
                number=number,
            )
        )
    kept = game.undone
    assert kept is not None
    entry = round_entry.entry_of_kept(kept)
    tally = replay(game, [*entries_of(game), entry])
    problems = tally.problems_of_round(number)
    if problems:
        raise RoundRefused(problems)
    submission = kept.get("submission")
    if isinstance(submission, str) and saved_under(submission) is not None:
        submission = None
    try:
        played = append_round(game, list(game.seats), tally.rounds[-1], submission or None)
        played.created_at = datetime.fromisoformat(str(kept["saved"]))
        game.undone = None
        _drop_drafts(game, DraftHand.number <= number)
        db.session.flush()
        recompute(game, tally)
        _reset_may_i(game, tally)
        changelog.log(game, _put(number))
        if tally.is_over:
            changelog.log(game, changelog.ending(tally))
        _commit(game, tally)
    except Exception:
        db.session.rollback()
        raise
    return True


def _last_line(game: Game) -> str | None:
    return db.session.scalars(
        select(GameEvent.text)
        .where(GameEvent.game_id == game.id)
        .order_by(GameEvent.id.desc())
        .limit(1)
    ).first()


def abandon_game(game: Game) -> None:
    """Stop the game before its end: it keeps its rounds and has no winner."""
    if game.status != IN_PROGRESS:
        return
    try:
        tally = recompute(game, replay(game, abandoned=True))
        changelog.log(game, N_("Game abandoned."))
        _commit(game, tally)
    except Exception:
        db.session.rollback()
        raise


def use_may_i(game: Game, position: int, change: int) -> Seat:
    """Count a May I for the player at ``position`` (``change`` +1) or take one back (-1).

    Raises RoundRefused when the rules do not allow it or the player has none left."""
    rules = rules_of(game)
    seats = list(game.seats)
    if not 0 <= position < len(seats):
        raise LookupError(position)
    seat = seats[position]
    name = seat.player.name
    if not rules.may_i.allowed:
        raise RoundRefused(
            [Problem(None, "may_i", N_("%(rules)s does not play May I.", rules=rules.name))]
        )
    if game.status != IN_PROGRESS:
        raise RoundRefused([Problem(None, "may_i", N_("This game is over."))])
    used = seat.may_i_used + change
    if used < 0:
        return seat
    limit = rules.may_i.limit
    if limit is not None and used > limit:
        raise RoundRefused(
            [
                Problem(
                    None,
                    f"may_i-{position}",
                    N_plural(
                        "%(name)s has used their one May I for this game.",
                        "%(name)s has used all %(num)s May I for this game.",
                        num=limit,
                        name=name,
                    )
                    if rules.may_i.limit_per is LimitPer.GAME
                    else N_plural(
                        "%(name)s has used their one May I for this contract.",
                        "%(name)s has used all %(num)s May I for this contract.",
                        num=limit,
                        name=name,
                    ),
                )
            ]
        )
    try:
        before = game.version
        seat.may_i_used = used
        bump(game)
        changelog.log(
            game,
            N_("%(name)s called a May I (%(used)s used).", name=name, used=used)
            if change > 0
            else N_("%(name)s took back a May I (%(used)s used).", name=name, used=used),
        )
        game_id, after = game.id, game.version
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    carry_tally(game_id, before, after)  # the tally counts no May I
    return seat


def _commit(game: Game, tally: Tally) -> None:
    """Commit the write (the statistics follow at the commit: ``scorekeeper.hooks``), then
    keep its tally for the version it wrote: the page after the save shows it unreplayed."""
    game_id, version = game.id, game.version
    db.session.commit()
    keep_tally(game_id, version, tally)
