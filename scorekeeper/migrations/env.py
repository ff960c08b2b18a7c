"""Alembic environment: migrates the Flask app's own database, one process at a time."""

from __future__ import annotations

from alembic import context
from flask import current_app
from sqlalchemy.engine import Connection

from scorekeeper.derived import MIGRATING, RATINGS_WANTED, STATS_WANTED
from scorekeeper.history import ratings, stats

# Logging is left to the app (and to gunicorn): no fileConfig here.
db = current_app.extensions["migrate"].db
target_metadata = db.metadata

# Several gunicorn workers start at once and each brings the database up to date; on
# PostgreSQL this lock makes the others wait and then find nothing left to do. (On SQLite the
# migration's BEGIN IMMEDIATE, see scorekeeper/db.py, serialises them the same way.)
MIGRATION_LOCK = 7_211_984


def run_migrations_offline() -> None:
    context.configure(url=str(db.engine.url), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def _sqlite_foreign_keys(connection: Connection, on: bool) -> None:
    """Switch SQLite's foreign keys on or off, outside any transaction (inside one the pragma
    does nothing). Off while migrating: a batch migration rebuilds a table by dropping it,
    and dropping ``games`` with foreign keys on would cascade into every seat and round."""
    raw = connection.connection.driver_connection
    assert raw is not None  # an open connection's DBAPI connection is there
    raw.execute(f"PRAGMA foreign_keys = {'ON' if on else 'OFF'}")


def run_migrations_online() -> None:
    with db.engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            _sqlite_foreign_keys(connection, on=False)
        try:
            _migrate(connection)
        finally:
            if sqlite:
                connection.rollback()
                problems = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                connection.rollback()
                _sqlite_foreign_keys(connection, on=True)
                if problems:
                    raise RuntimeError(f"a migration broke references: {problems[:5]}")


def _migrate(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        transactional_ddl=True,
        compare_type=True,
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        connection.info[MIGRATING] = True
        try:
            context.run_migrations()
        finally:
            connection.info.pop(MIGRATING, None)
        # Statistics a migration asked to be counted again (``stats.rebuild_all``) are counted
        # now that the tables are today's, when they are (not on a way down or part way up).
        wanted = connection.info.pop(STATS_WANTED, False)
        ratings_wanted = connection.info.pop(RATINGS_WANTED, False)
        at_head = set(context.get_context().get_current_heads()) == set(context.script.get_heads())
        if wanted and at_head:
            stats.rebuild_all(connection)
        if ratings_wanted and at_head:
            # The ratings are replayed from the kept statistics: after them.
            ratings.rebuild_all(connection)


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
