"""Every SQLAlchemy event listener of the app, in one list, installed once by the factory.

Nothing else registers a listener, and nothing registers one at import: what a commit does
besides the writes a service makes is all here, each with why.

The database itself (``db``):

- every new connection (``Engine`` ``connect``): SQLite's WAL, busy timeout and foreign keys;
- every transaction (``Engine`` ``begin``): SQLite takes the write lock up front
  (``BEGIN IMMEDIATE``) where the request may write.

The household scope (``scope``):

- every ORM statement (``do_orm_execute``): kept to the household in scope, the bin hidden;
- every flush (``before_flush``): new rows get their household.

Who may come in (``accounts.services``): an UPDATE or DELETE of an account, a session, a link
or a household moves the access version in its own transaction (``Engine``
``before_execute``, once a transaction, ORM or Core alike). Every checked session and fast-lane
pass is kept under the access version it was decided under, so they lapse with it on every
server; nothing is forgotten by hand.

What a write to a game keeps up to date (``history.stats``): every write to a game moves its
version through ``versions.bump`` (the write rule), which marks the game in the session;

- ``before_commit``: the kept statistics of the marked games (what the history, players and
  records pages read) are rewritten in the same transaction, and the household's statistics
  version moves, which is also the key of the kept rounds file (``history.rounds_file``): the
  next download builds it afresh;
- ``after_commit``: where the save left the household's ratings stale (a correction further
  back than a save replays itself, ``history.ratings``), the ratings' worker is woken (in a
  request: once it is done, so that the save does not wait for the replay's first part)
  (``history.rating_worker``);
- ``after_rollback`` / ``after_soft_rollback``: the marks of an undone change are forgotten.
"""

from __future__ import annotations

from flask import Flask
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from . import scope
from .accounts import services as accounts
from .db import begin_sqlite, configure_sqlite
from .history import rating_worker, stats

_installed: list[bool] = []


def install() -> None:
    """Register every listener above, once a process (the listeners are on the classes
    ``Engine`` and ``Session``, shared by every app the process makes)."""
    if _installed:
        return
    _installed.append(True)
    event.listen(Engine, "connect", configure_sqlite)
    event.listen(Engine, "begin", begin_sqlite)

    event.listen(Session, "do_orm_execute", scope.scope_statement)
    event.listen(Session, "before_flush", scope.fill_households)

    event.listen(Engine, "before_execute", accounts.moving_access)

    event.listen(Session, "before_commit", stats.refresh_marked)
    event.listen(Session, "after_commit", rating_worker.after_commit)
    event.listen(Session, "after_rollback", stats.forget_marks)
    event.listen(Session, "after_soft_rollback", stats.forget_marks_soft)


def install_app(app: Flask) -> None:
    """What each app registers: a request whose commit left ratings stale wakes the ratings'
    worker once it is done (``rating_worker.after_commit``)."""
    app.teardown_request(rating_worker.wake_after_request)
