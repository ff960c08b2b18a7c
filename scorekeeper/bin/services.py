"""Deleting into the bin, bringing back, emptying, and the purge of what has waited 30 days.

Deleting sets ``deleted_at``: ``scope.py`` hides such rows from every query, so a deleted game
leaves the history, the records and the statistics at once, and comes back whole. The purge
runs when the app starts and then at most once a day, on the first request after the day.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import Flask
from flask_babel import gettext as _
from sqlalchemy import delete, select
from sqlalchemy.exc import SQLAlchemyError

from .. import house_rules, local_time, scope
from ..extensions import db
from ..history import restores
from ..models import Game, HouseRules, utcnow
from ..versions import bump

KEPT_FOR = timedelta(days=30)
PURGE_EVERY = timedelta(days=1)
_purge_lock = threading.Lock()


class BinError(ValueError):
    """Something cannot be brought back; the message says why."""


@dataclass(frozen=True)
class Binned:
    kind: str  # "game" or "rules"
    id: int
    title: str
    deleted_at: datetime
    deleted_by: str
    gone_on: datetime


def bin_game(game: Game) -> None:
    game.deleted_at = utcnow()
    game.deleted_by = scope.actor() or None
    bump(game)
    db.session.commit()


def bin_house_rules(slug: str) -> str:
    """Put saved house rules in the bin; returns their name. Raises ``UnknownRules``."""
    record = house_rules.get(slug)
    record.deleted_at = utcnow()
    record.deleted_by = scope.actor() or None
    db.session.commit()
    return record.name


def contents() -> list[Binned]:
    """The household's bin, most recently deleted first."""
    with scope.with_bin():
        games = db.session.scalars(select(Game).where(Game.deleted_at.is_not(None))).all()
        rules = db.session.scalars(
            select(HouseRules).where(HouseRules.deleted_at.is_not(None))
        ).all()
        found = [
            Binned(
                "game",
                game.id,
                _(
                    "%(game)s, %(day)s: %(players)s",
                    game=game.rules_name,
                    day=local_time.day(game.started),
                    players=", ".join(seat.player.name for seat in game.seats),
                ),
                game.deleted_at,
                game.deleted_by or "",
                game.deleted_at + KEPT_FOR,
            )
            for game in games
            if game.deleted_at is not None
        ] + [
            Binned(
                "rules",
                record.id,
                _("House rules %(name)s", name=record.name),
                record.deleted_at,
                record.deleted_by or "",
                record.deleted_at + KEPT_FOR,
            )
            for record in rules
            if record.deleted_at is not None
        ]
    return sorted(found, key=lambda item: item.deleted_at, reverse=True)


def restore_game(game_id: int) -> Game:
    with scope.with_bin():
        game = db.session.get(Game, game_id)
        if game is None or game.deleted_at is None:
            raise LookupError(game_id)
        game.deleted_at = None
        game.deleted_by = None
        bump(game)
        db.session.commit()
    return game


def restore_house_rules(record_id: int) -> HouseRules:
    with scope.with_bin():
        record = db.session.get(HouseRules, record_id)
        if record is None or record.deleted_at is None:
            raise LookupError(record_id)
    # Its name must still be free among the rules in use.
    try:
        house_rules.check_name_free(record.name, record.id)
    except house_rules.NameTaken:
        raise BinError(
            _("Other house rules are called %(name)s now: rename them first.", name=record.name)
        ) from None
    record.deleted_at = None
    record.deleted_by = None
    db.session.commit()
    return record


def empty() -> int:
    """Delete for good everything in the household's bin; how many things."""
    with scope.with_bin():
        count = 0
        for model in (Game, HouseRules):
            for row in db.session.scalars(select(model).where(model.deleted_at.is_not(None))):
                db.session.delete(row)
                count += 1
        db.session.commit()
    return count


def purge(now: datetime | None = None) -> int:
    """Delete for good, in every household, what has waited in the bin 30 days."""
    limit = (now or utcnow()) - KEPT_FOR
    with scope.server_wide(scope.ServerWide.HOUSEKEEPING), scope.with_bin():
        gone = 0
        old_games = db.session.scalars(select(Game).where(Game.deleted_at < limit)).all()
        for game in old_games:
            db.session.delete(game)  # its seats, rounds, hands and log go with it
            gone += 1
        result = db.session.execute(delete(HouseRules).where(HouseRules.deleted_at < limit))
        gone += int(getattr(result, "rowcount", 0) or 0)
        db.session.commit()
    return gone


def purge_now_and_then(app: Flask) -> None:
    """Purge at most once a day per process; a busy or failing database waits for the next."""
    last: datetime | None = app.extensions.get("bin_purged")
    now = utcnow()
    if last is not None and now - last < PURGE_EVERY:
        return
    if not _purge_lock.acquire(blocking=False):
        return
    try:
        app.extensions["bin_purged"] = now
        with app.app_context():
            try:
                purge(now)
                # Old restore jobs and the uploads of interrupted ones go at the same time.
                restores.tidy(now)
            except (SQLAlchemyError, OSError):
                db.session.rollback()
                app.logger.warning("the bin's purge failed; it is tried again tomorrow")
            finally:
                db.session.remove()
    finally:
        _purge_lock.release()
