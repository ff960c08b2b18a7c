"""Game files in and out of the household: a document checked under the household's house
rules (``check_game_document``), the game it describes stored (``import_game``,
``store_game_file``) and a game written out (``export_game``). The document's format itself is
``gamefile`` (pure); a game's rows are made as ``services`` makes them; a restore stores its
batches through ``history.bulk_loader``. Each function that writes does it in one transaction.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import partial
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from scorekeeper import house_rules, scope
from scorekeeper.db import reading
from scorekeeper.extensions import db
from scorekeeper.models import Game, utcnow
from scorekeeper.rules import N_, N_plural, RuleSet

from .changelog import log, stored
from .gamefile import GameFile, GameFileError, holds_nul, read_game_file
from .gamefile_out import imported_end, write_game_file
from .services import _new_game, _resolve_rules, append_round, recompute, tally_of

__all__ = [
    "AlreadyStored",
    "check_game_document",
    "export_game",
    "import_game",
    "import_log_line",
    "store_game_file",
]


def check_game_document(
    document: Mapping[str, Any],
    *,
    may_hold_nul: bool = True,
    rules_kept: dict[str, RuleSet] | None = None,
) -> GameFile:
    """The game a game file describes, checked by the rules engine (nothing is stored).

    ``may_hold_nul`` False (``text_may_hold_nul`` of the JSON text it was read from) skips
    looking for a NUL through the whole document. ``rules_kept``
    keeps the rule sets read so far by their JSON (a restore reads the same few rules in
    thousands of games; a rule set is never changed once built).
    Raises GameFileError (with ``.problems``) when the file is refused."""
    if may_hold_nul and holds_nul(document):
        # No text in a game holds one, and PostgreSQL cannot store it.
        raise GameFileError([N_("The file holds a NUL character (\\u0000): no game file does.")])
    resolve = _resolve_rules if rules_kept is None else partial(_resolve_kept, rules_kept)
    try:
        return read_game_file(document, resolve)
    except house_rules.UnknownRules as error:
        raise GameFileError([error.message]) from None


# The most rule sets a restore keeps at once (a backup with every game's rules its own).
_RULES_KEPT = 64


def _resolve_kept(kept: dict[str, RuleSet], rules: Any) -> RuleSet:
    key = json.dumps(rules, sort_keys=True)
    found = kept.get(key)
    if found is None:
        found = _resolve_rules(rules)
        if len(kept) < _RULES_KEPT:
            kept[key] = found
    return found


def import_game(document: Mapping[str, Any]) -> Game:
    """Store the game a game file describes, in one transaction, and return it.

    Raises GameFileError (with ``.problems``) and stores nothing when the file is refused.
    The check (a replay of up to ``MAX_ROUNDS`` rounds: most of a second) only reads, so it
    holds up no save (``db.reading``); the write lock is taken for the storing alone."""
    with reading():
        checked = check_game_document(document)
    return store_game_file(checked)


def store_game_file(checked: GameFile) -> Game:
    """Store a checked game file's game, in one transaction, and return it. Raises
    AlreadyStored where the household holds its uid."""
    _refuse_a_game_held(checked.uid)
    try:
        game = _new_game(
            checked.rules,
            checked.names,
            checked.first_dealer,
            checked.started,
            checked.uid,
            checked.tally.lineup,
        )
        seats = list(game.seats)
        for result in checked.tally.rounds:
            append_round(game, seats, result)
        db.session.flush()
        recompute(game, checked.tally)
        # ``recompute`` ends a game that is over now: an imported one ended when it started.
        game.ended = imported_end(checked.started, checked.tally.is_over, utcnow())
        log(game, import_log_line(checked))
        db.session.commit()
    except IntegrityError:
        # Another import of the same game got there first (the uid is unique per household).
        db.session.rollback()
        _refuse_a_game_held(checked.uid)
        raise
    except Exception:
        db.session.rollback()
        raise
    return game


def import_log_line(checked: GameFile) -> str:
    """The change log's line of a game stored from a game file, as the log stores it (a
    restore's batches write it as it is)."""
    return stored(
        N_plural(
            "Game imported from a game file (%(num)s round).",
            "Game imported from a game file (%(num)s rounds).",
            num=len(checked.rounds),
        )
    )


class AlreadyStored(Exception):
    """The household holds this game already (the same ``uid``): nothing was stored."""

    def __init__(self, game_id: int) -> None:
        self.message = N_(
            "This game is here already, as game %(number)s; nothing was stored.", number=game_id
        )
        super().__init__(str(self.message))
        self.game_id = game_id


def _refuse_a_game_held(uid: str | None) -> None:
    if uid is None:
        return
    # A game in the bin holds its uid too (it is unique per household, binned or not).
    with scope.with_bin():
        held = db.session.scalar(select(Game.id).where(Game.uid == uid))
    if held is not None:
        raise AlreadyStored(held)


def export_game(game: Game) -> dict[str, Any]:
    """The game file of ``game``: the full export document (see game-format.md)."""
    return write_game_file(
        tally_of(game),
        game.rules,
        started=game.started,
        game_id=game.id,
        exported=utcnow(),
        uid=game.uid,
    )
