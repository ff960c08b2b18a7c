"""Alembic environment: migrates the Flask app's own database, one process at a time."""

from __future__ import annotations

from alembic import context
from flask import current_app
from sqlalchemy.engine import Connection

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
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
