"""Backup and restore of the whole history as game files, and every round as CSV.

A backup is one game document (``shared/spec/game-format.md``) per line, written by the games
feature's ``export_game``. Writing streams: games are loaded a batch at a time with everything
the export reads (seats, players, rounds, hands) fetched in a few ``selectin`` queries per
batch, and each batch is let go before the next. Reading checks each line with the rules
engine and stores the games a batch at a time with Core inserts (``read_backup_batches``); one
refused game never costs the others. A household's backup (``household_file``) has one more
line first, the household's document: it is restored before the games that follow it.
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Generator, Iterator
from concurrent.futures import Future
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Literal

from flask import current_app, has_app_context
from flask_babel import gettext as _
from sqlalchemy import and_, case, func, select
from sqlalchemy.orm import selectinload

from .. import local_time
from ..extensions import db
from ..games.gamefile import GameFile, GameFileError, text_may_hold_nul
from ..games.transfer import AlreadyStored, check_game_document, export_game, store_game_file
from ..limits import BACKUP_LINE_BYTES, MAX_PROBLEMS_PER_LINE, size_in_words
from ..models import Game, Hand, Player, Round, Seat
from ..rules import N_, Message, N_plural, RuleSet
from ..text import lazy_gettext as _l
from ..words import rules_name
from . import household_file, restore_end
from .bulk_loader import store_game_files
from .queries import STATUS_LABELS
from .words import grouped, ngettext

BATCH = 200
# A restore stores its games in batches of at most this many games, hands or lines (a batch
# is one transaction; its progress and a request to cancel are read between batches).
BATCH_GAMES = 250
BATCH_HANDS = 20_000
BATCH_LINES = 1_000
# How much of an over-long line is read at a time while skipping it.
SKIP_CHUNK = 64 * 1024
# The rounds CSV's headings, in the household's language (``rounds_file``: a spreadsheet's
# columns for the family, not keys a program reads back).
CSV_COLUMNS = (
    _l("game"),
    _l("started"),
    _l("rules"),
    _l("status"),
    _l("round"),
    _l("player"),
    _l("seat"),
    _l("contract"),
    _l("made_contract"),
    _l("went_out"),
    _l("cards"),
    _l("points"),
    _l("running_total"),
    # "yes" where the points were typed as a total, with no cards (a family counting on paper).
    _l("typed_total"),
    # "yes" on the row of the player who went out laying down their whole contract on one turn,
    # where the rules give a bonus for it (Continental's −10, already in the points).
    _l("went_out_in_one_turn"),
    # "yes" on the rows of a tie-break hand (the tied players' extra hand, ``tie_break: replay``):
    # its points are the hand's, counted in no total, so the running total stays as it was.
    _l("tie_break_hand"),
)


def household_lines(with_members: bool = True) -> Iterator[str]:
    """The household in scope as a backup (``household_file``): its document's line (with its
    members, or without for whoever may not see them), then one line per game."""
    document = household_file.document(with_members)
    yield json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"
    # What the document read is let go before the games are read (in the same transaction: a
    # backup is one read, inside ``db.reading`` where it is not a request's).
    db.session.expunge_all()
    yield from export_lines()


def export_lines() -> Iterator[str]:
    """Every game as one JSON line, oldest first."""
    ids = db.session.scalars(select(Game.id).order_by(Game.started, Game.id)).all()
    for start in range(0, len(ids), BATCH):
        batch = ids[start : start + BATCH]
        games = db.session.scalars(
            select(Game)
            .where(Game.id.in_(batch))
            .order_by(Game.started, Game.id)
            .options(
                selectinload(Game.seats).selectinload(Seat.player),
                selectinload(Game.rounds).selectinload(Round.hands),
            )
        ).all()
        lines = [
            json.dumps(export_game(game), ensure_ascii=False, separators=(",", ":")) + "\n"
            for game in games
        ]
        # Let go of the batch so a long history never sits in memory at once.
        db.session.expunge_all()
        yield from lines


@dataclass
class ImportReport:
    stored: list[tuple[int, int]] = field(default_factory=list)
    refused: list[tuple[int, list[str]]] = field(default_factory=list)
    # (line, id of the game held) for games the household had already: restoring twice is safe.
    already: list[tuple[int, int]] = field(default_factory=list)
    # What a household's backup brought besides games (``household_file``), one sentence each.
    notes: list[str] = field(default_factory=list)

    def add(self, line: LineRead) -> None:
        """Count what became of one line."""
        if line.outcome == "stored":
            self.stored.append((line.number, line.game_id or 0))
        elif line.outcome == "already":
            self.already.append((line.number, line.game_id or 0))
        elif line.outcome == "household":
            self.notes.extend(line.notes)
        else:
            self.refused.append((line.number, list(line.problems)))

    @property
    def summary(self) -> str:
        return summary(len(self.stored), len(self.already), len(self.refused))


def summary(stored: int, already: int, refused: int) -> str:
    """ "Stored 3 games; 1 game was here already; refused 2 lines.", in the page's language."""
    parts = [
        ngettext("Stored %(count)s game", "Stored %(count)s games", stored, count=grouped(stored))
    ]
    if already:
        parts.append(
            ngettext(
                "%(count)s game was here already",
                "%(count)s games were here already",
                already,
                count=grouped(already),
            )
        )
    if refused:
        parts.append(
            ngettext(
                "refused %(count)s line", "refused %(count)s lines", refused, count=grouped(refused)
            )
        )
    return "; ".join(parts) + "."


def read_lines(stream: BinaryIO) -> Iterator[tuple[int, bytes | None]]:
    """(number, line) for every line of ``stream``, counting from 1; the line is None where it
    is longer than BACKUP_LINE_BYTES: such a line is read past a chunk at a time, never held
    whole, so a backup of any length costs at most one line of memory."""
    number = 0
    while True:
        line = stream.readline(BACKUP_LINE_BYTES + 1)
        if not line:
            return
        number += 1
        if len(line) <= BACKUP_LINE_BYTES or line.endswith(b"\n"):
            yield number, line
            continue
        del line
        while True:
            rest = stream.readline(SKIP_CHUNK)
            if not rest or rest.endswith(b"\n"):
                break
        yield number, None


@dataclass(frozen=True)
class LineRead:
    """What became of one line of a backup: ``stored`` (``game_id`` is the new game),
    ``already`` (``game_id`` is the game held), ``refused`` (``problems`` says why), or
    ``household``: the household's line of a household's backup, restored (``notes`` says
    what it brought and what it could not)."""

    number: int
    outcome: Literal["stored", "already", "refused", "household"]
    game_id: int | None = None
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def read_backup(stream: BinaryIO) -> Iterator[LineRead]:
    """What became of each line of ``stream`` (``read_backup_batches``), line by line."""
    with closing(read_backup_batches(stream)) as batches:
        for batch in batches:
            yield from batch


def read_backup_batches(stream: BinaryIO, job_id: int | None = None) -> Generator[list[LineRead]]:
    """Store the game on each line of ``stream``, yielding what became of the lines of each
    batch, in their order, once the batch is committed. Blank lines are skipped; a refused
    line comes with its number (counting from 1) and the problems found (at most
    MAX_PROBLEMS_PER_LINE of them), and the others are still stored.

    Each line is checked by the rules engine as it is read; the games that pass are stored a
    batch at a time (at most ``BATCH_GAMES`` games or ``BATCH_HANDS`` hands) with a few Core
    inserts per table in one transaction (``store_game_files``). Where a batch fails at the
    database, it is stored again game by game, so that one game the database refuses never
    costs the others. On PostgreSQL each batch is stored by a thread of its own while the next
    is checked (``_Storer``), so the server stores while the app checks; at most two batches'
    checked games are in memory at a time, never the whole file. Stopping between batches
    leaves every game of the batches yielded so far stored, and no other. Until the rebuild at
    the end (``restore_end.restored``) counts them, the batches' mark holds the games stored
    (a reader cut short is counted by the next server to start), and this reader the
    household's restore lock; ``job_id`` names the job reading, for that mark."""
    pending: list[LineRead | _Checked] = []
    rules_kept: dict[str, RuleSet] = {}
    games = hands = 0
    # Games stored, or found already there: a restore run again after one whose end was cut
    # short (the server stopped, the database busy) stores nothing but still rebuilds.
    seen = 0
    # What became of the lines of the batches done, for the mark (``restore_end.leave``).
    counts = dict.fromkeys(("stored", "already", "refused"), 0)
    run, lock, whole = restore_end.Run(job_id), restore_end.Lock(), False
    # Only the first line that is not blank may be a household's (``household_file``).
    first = True
    storer = _Storer() if restore_end.stores_aside() else None
    try:
        for number, raw in read_lines(stream):
            read = _read_line(number, raw, rules_kept)
            if storer is not None:
                # The storing thread is back from the server many times a batch, and each time
                # waits for this one to let go of the interpreter: otherwise up to Python's
                # switch interval (5 ms), which made the restore a quarter slower.
                time.sleep(0)
            if read is None:
                continue
            if isinstance(read, _Household):
                done_household = _restore_household(read, first)
                seen += done_household.outcome == "household"
                read = done_household
                if first:
                    first = False
                    yield [read]
                    continue
            first = False
            pending.append(read)
            if isinstance(read, _Checked):
                games += 1
                hands += read.hands
            if games >= BATCH_GAMES or hands >= BATCH_HANDS or len(pending) >= BATCH_LINES:
                batch, pending, games, hands = pending, [], 0, 0
                lock.take()
                if storer is None:
                    done = _store_batch(batch, run, dict(counts))
                    seen += _count(done, counts)
                    yield done
                    continue
                # The batch before this one was stored while this one was checked. It is
                # yielded before this one is handed over, so that a cancel stops after it.
                if done := storer.collect():
                    seen += _count(done, counts)
                    yield done
                storer.hand_over(batch, run, dict(counts))
        if storer is not None and (done := storer.collect()):
            seen += _count(done, counts)
            yield done
        if pending:
            lock.take()
            done = _store_batch(pending, run, dict(counts))
            seen += _count(done, counts)
            yield done
        whole = True
    finally:
        try:
            if storer is not None:
                # A batch handed over and not yet yielded (the reader failed meanwhile) is
                # stored all the same: counted, so that the rebuild below sees it.
                seen += _count(storer.close(), counts)
            # Every reader closes this generator in its app context (``closing``); one dropped
            # unclosed and collected later has no database left to rebuild in (its mark stays,
            # for the next server to look).
            if seen and has_app_context():
                if whole:
                    restore_end.read_whole(run)
                restore_end.restored(run)
        finally:
            lock.release()


def _count(done: list[LineRead], counts: dict[str, int]) -> int:
    """Add a batch's lines to ``counts``; returns the games of it now in the household: stored,
    or found already there."""
    for line in done:
        if line.outcome in counts:
            counts[line.outcome] += 1
    return sum(line.outcome in ("stored", "already") for line in done)


class _Storer:
    """The thread storing a restore's batches (``restore_end.Aside``), one at a time, while the
    reader checks the next batch."""

    def __init__(self) -> None:
        self._aside = restore_end.Aside()
        self._stored: Future[list[LineRead]] | None = None

    def hand_over(
        self, pending: list[LineRead | _Checked], run: restore_end.Run, before: dict[str, int]
    ) -> None:
        assert self._stored is None, "one batch at a time"
        self._stored = self._aside.submit(_store_batch, pending, run, before)

    def collect(self) -> list[LineRead]:
        """What became of the batch handed over last (waiting for it), or nothing."""
        stored, self._stored = self._stored, None
        return [] if stored is None else stored.result()

    def close(self) -> list[LineRead]:
        try:
            return self.collect()
        finally:
            self._aside.shutdown()


@dataclass(frozen=True)
class _Household:
    """A household's line (``household_file``), read but not yet restored."""

    number: int
    document: dict[str, Any]


def _restore_household(line: _Household, first: bool) -> LineRead:
    """Restore a household's line where it is the backup's first; refuse it elsewhere."""
    if not first:
        return _refused(
            line.number, N_("A household's line belongs first in its backup: it was not read.")
        )
    try:
        applied = household_file.apply(line.document)
    except household_file.HouseholdFileError as error:
        return _refused(line.number, error.message)
    except Exception:
        db.session.rollback()
        current_app.logger.exception("restoring the household's line %d failed", line.number)
        return _refused(
            line.number, N_("The household's line could not be restored (an error in the app).")
        )
    notes = [*applied.notes, *applied.problems]
    if applied.members_made:
        notes.append(household_file.password_note(applied.members_made))
    return LineRead(line.number, "household", notes=tuple(notes))


@dataclass(frozen=True)
class _Checked:
    """A line whose game the rules engine passed, waiting for its batch to be stored."""

    number: int
    game: GameFile

    @property
    def hands(self) -> int:
        return len(self.game.rounds) * len(self.game.names)


def _read_line(
    number: int, raw: bytes | None, rules_kept: dict[str, RuleSet]
) -> LineRead | _Checked | _Household | None:
    """The checked game of one line, the line refused, or None for a blank line."""
    if raw is None:
        return _refused(
            number,
            N_(
                "This line is longer than %(size)s, the most one game may take: it was not read.",
                size=size_in_words(BACKUP_LINE_BYTES),
            ),
        )
    if not raw or raw.isspace():
        return None
    # One copy of the line at a time: a line near the limit is 5 MB for each copy held.
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return _refused(number, N_("This line is not UTF-8 text."))
    finally:
        del raw
    try:
        may_hold_nul = text_may_hold_nul(text)
        document = json.loads(text)
    except json.JSONDecodeError as error:
        return _refused(number, N_("This line is not JSON (%(error)s).", error=error.msg))
    except (ValueError, RecursionError):
        # A number of thousands of digits, or lists nested thousands deep.
        return _refused(
            number, N_("This line is not a game: its numbers or nesting are far too large.")
        )
    finally:
        del text
    if not isinstance(document, dict):
        return _refused(number, N_("This line is not a game document."))
    if document.get("format") == "scorekeeper-household":
        return _Household(number, document)
    try:
        return _Checked(
            number, check_game_document(document, may_hold_nul=may_hold_nul, rules_kept=rules_kept)
        )
    except GameFileError as error:
        problems = [
            p if isinstance(p, Message) else str(p)
            for p in getattr(error, "problems", None) or [str(error)]
        ]
        return _refused(number, *_at_most(problems))
    except ValueError as error:
        return _refused(number, str(error))
    except Exception:
        current_app.logger.exception("checking line %d failed", number)
        return _refused(number, N_("This game could not be stored (an error in the app)."))


def _refused(number: int, *problems: str) -> LineRead:
    return LineRead(number, "refused", problems=problems)


def _store_batch(
    pending: list[LineRead | _Checked], run: restore_end.Run, before: dict[str, int]
) -> list[LineRead]:
    """Store the checked games of ``pending`` in one transaction, with the run's mark moved on
    from ``before`` (what became of the lines of the batches before), or, where that fails, one
    by one (each with its statistics, as a game file's import), and return what became of every
    line of it, in order."""
    checked = [line for line in pending if isinstance(line, _Checked)]
    outcomes: dict[int, LineRead] = {}
    if checked:
        try:
            results = store_game_files([line.game for line in checked])
            stored = sum(was_stored for was_stored, _ in results)
            after = {
                "stored": before["stored"] + stored,
                "already": before["already"] + len(results) - stored,
                # The lines of a batch that are not games to store are refused lines.
                "refused": before["refused"] + len(pending) - len(checked),
            }
            restore_end.leave(run, pending[-1].number, after)
            db.session.commit()
        except Exception:
            db.session.rollback()
            current_app.logger.warning(
                "a batch of %d games failed; storing them one by one", len(checked), exc_info=True
            )
            outcomes = {line.number: _store(line) for line in checked}
        else:
            for line, (was_stored, game_id) in zip(checked, results, strict=True):
                outcome: Literal["stored", "already"] = "stored" if was_stored else "already"
                outcomes[line.number] = LineRead(line.number, outcome, game_id=game_id)
        db.session.expunge_all()
    return [outcomes[line.number] if isinstance(line, _Checked) else line for line in pending]


def _store(line: _Checked) -> LineRead:
    """Store one checked game in its own transaction (a failed batch's fallback)."""
    try:
        game = store_game_file(line.game)
    except AlreadyStored as held:
        return LineRead(line.number, "already", game_id=held.game_id)
    except ValueError as error:
        db.session.rollback()
        return _refused(line.number, str(error))
    except Exception:
        db.session.rollback()
        current_app.logger.exception("importing line %d failed", line.number)
        return _refused(line.number, N_("This game could not be stored (an error in the app)."))
    game_id = game.id
    db.session.expunge_all()
    return LineRead(line.number, "stored", game_id=game_id)


def _at_most(problems: list[str]) -> list[str]:
    if len(problems) <= MAX_PROBLEMS_PER_LINE:
        return problems
    more = len(problems) - MAX_PROBLEMS_PER_LINE
    return [
        *problems[:MAX_PROBLEMS_PER_LINE],
        N_plural(
            "… and %(num)s more problem on this line.",
            "… and %(num)s more problems on this line.",
            num=more,
        ),
    ]


def _spreadsheet_text(value: str) -> str:
    """A cell a spreadsheet shows as typed, never runs as a formula (``=``, ``+``, ``-``, ``@``)."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def csv_lines() -> Iterator[str]:
    """Every hand of every round, one CSV row each, with each player's running total (summed
    by the database; a tie-break hand's points count in no total), in order of play. Streamed
    from one query."""
    counted = case((Round.tie_break_hand, 0), else_=Hand.points)
    running = func.sum(counted).over(partition_by=Hand.seat_id, order_by=Round.number)
    stmt = (
        select(
            Game.id,
            Game.started,
            Game.rules_name,
            Game.status,
            Round.number,
            Player.name,
            Seat.position,
            Hand.contract,
            Hand.made_contract,
            Round.went_out_id == Seat.id,
            Hand.cards,
            Hand.points,
            running,
            Hand.typed_total,
            and_(Round.went_out_id == Seat.id, Round.went_out_in_one_turn),
            Round.tie_break_hand,
        )
        .join(Round, Round.id == Hand.round_id)
        .join(Seat, Seat.id == Hand.seat_id)
        .join(Game, Game.id == Round.game_id)
        .join(Player, Player.id == Seat.player_id)
        .order_by(Game.started, Game.id, Round.number, Seat.position)
        .execution_options(yield_per=1000)
    )
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([str(heading) for heading in CSV_COLUMNS])
    # yes and no, each status and each preset's name as the headings' language writes them (a
    # family's own name for its house rules as typed), each worked out once.
    yes, no = _("yes"), _("no")
    statuses = {status: str(label) for status, label in STATUS_LABELS.items()}
    rules_names: dict[str, str] = {}
    for row in db.session.execute(stmt):
        (
            game_id,
            started,
            rules,
            status,
            number,
            name,
            position,
            contract,
            made,
            out,
            cards,
            points,
            total,
            typed,
            one_turn,
            tie_break,
        ) = row
        writer.writerow(
            [
                game_id,
                local_time.moment(started, "seconds"),
                _spreadsheet_text(
                    rules_names.get(rules) or rules_names.setdefault(rules, rules_name(rules))
                ),
                statuses.get(status, status),
                number,
                _spreadsheet_text(name),
                position + 1,
                contract,
                yes if made else no,
                yes if out else no,
                cards,
                points,
                total,
                yes if typed else no,
                yes if one_turn else no,
                yes if tie_break else no,
            ]
        )
        if buffer.tell() > 64 * 1024:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()
