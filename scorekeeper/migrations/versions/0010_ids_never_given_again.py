"""ids never given again: AUTOINCREMENT on SQLite for the tables whose ids leave the server

SQLite gives a new row the highest id in use plus one, so the id of the newest game, player or
link, once that row is deleted for good, goes to the next one made, by any household: a chat's
preview, a phone's saved page, a bookmark or a cache naming the old row would then name the
new one. With AUTOINCREMENT, SQLite never gives an id again (``sqlite_sequence`` remembers the
highest given). PostgreSQL's sequences never give an id again already: nothing to do there.

The tables are those whose ids appear in addresses or caches: games (every game page, the drawn
boards, result cards and the fast lane's passes), players, links, house rules (the bin), accounts
(the members page) and restore jobs (their page, and their upload's file name). Rounds, seats
and hands are named by their game and number only.

Batch mode rebuilds each table (a copy under a new name, then renamed): its rows, ids, indexes,
constraints and the foreign keys that point at it survive, foreign keys being off while
migrating (``migrations/env.py``, which checks every reference afterwards). An id freed before
this migration, above the highest in use now, may still be given once.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24
"""

from __future__ import annotations

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

TABLES = ("games", "players", "links", "house_rules", "users", "restore_jobs")


def _rebuild(autoincrement: bool) -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    for table in TABLES:
        with op.batch_alter_table(
            table, recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}
        ):
            pass


def upgrade() -> None:
    _rebuild(autoincrement=True)


def downgrade() -> None:
    _rebuild(autoincrement=False)
