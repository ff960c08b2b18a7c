"""Database engine settings that keep several phones saving at once from tripping over each other.

SQLite gets write-ahead logging (readers never wait for the writer), a busy timeout (a writer
waits its turn instead of failing with "database is locked"), foreign keys, and transactions that
take the write lock when they begin (``BEGIN IMMEDIATE``) whenever they may write. A deferred
transaction that reads first and writes later cannot wait for the lock: SQLite fails it at once
when another writer got in between, which is exactly the "database is locked" a family would see.
Read-only requests (GET, HEAD) keep deferred transactions, so polling scoreboards never queue
behind a save, and so does every long read outside a request (backups, exports, the command
line's CSV): they run inside ``reading()``, which on PostgreSQL reads one snapshot (REPEATABLE
READ, READ ONLY) and takes no lock a write waits for.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from operator import itemgetter
from typing import Any

from flask import g, has_request_context, request
from sqlalchemy.engine import Connection

from .extensions import db

BUSY_TIMEOUT_MS = 15_000
READ_ONLY_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def configure_sqlite(dbapi_connection: Any, _record: Any) -> None:
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    # Let SQLAlchemy's "begin" event below emit BEGIN itself instead of the driver.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA synchronous = NORMAL")
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.close()


# The execution option of a connection that runs one read alone (the fast lane's stamp, before
# Flask): SQLite runs a lone SELECT in its own read transaction, so no BEGIN is sent for it.
LONE_READ = "scorekeeper_lone_read"


# Set inside ``reading()``: every transaction begun in the block only reads.
_reading: ContextVar[bool] = ContextVar("scorekeeper_reading", default=False)


class Writers:
    """The transactions of this process waiting for SQLite's write lock (``begin_sqlite``). A
    long writer in the background (the ratings worker) ends its part when one waits, and lets
    it go first (``none_waiting``): SQLite's own wait retries now and then, and a writer that
    takes the lock again at once after its commit would keep a save waiting part after part."""

    def __init__(self) -> None:
        self._waiting = 0
        self._changed = threading.Condition()

    @contextmanager
    def wait(self) -> Iterator[None]:
        with self._changed:
            self._waiting += 1
        try:
            yield
        finally:
            with self._changed:
                self._waiting -= 1
                self._changed.notify_all()

    def waiting(self) -> bool:
        return self._waiting > 0

    def none_waiting(self, timeout: float) -> None:
        """Wait until no transaction of this process waits for the lock (``timeout`` at most)."""
        with self._changed:
            self._changed.wait_for(lambda: self._waiting == 0, timeout)


WRITERS = Writers()


def begin_sqlite(connection: Connection) -> None:
    if connection.dialect.name != "sqlite" or connection.get_execution_options().get(LONE_READ):
        return
    reading = _reading.get() or (
        has_request_context()
        and (request.method in READ_ONLY_METHODS or g.get("reading_only", False))
    )
    if reading:
        connection.exec_driver_sql("BEGIN")
        return
    with WRITERS.wait():
        connection.exec_driver_sql("BEGIN IMMEDIATE")


@contextmanager
def reading() -> Iterator[None]:
    """Run the block as one long read that never holds up a write (a backup, an export).

    What the session held open before is committed first (a command's look-up of its
    household began a transaction that, outside a request, holds SQLite's write lock). Inside,
    SQLite begins deferred: with WAL, saves go on beside the read, which sees the database as
    it was when it began. On PostgreSQL the read is REPEATABLE READ and READ ONLY: one
    snapshot from start to end, taking only the share locks no write waits for. The read is
    ended (rolled back) when the block ends; the block must not write."""
    session = db.session
    session.commit()
    token = _reading.set(True)
    try:
        if session.get_bind().dialect.name == "postgresql":
            session.connection(
                execution_options={
                    "isolation_level": "REPEATABLE READ",
                    "postgresql_readonly": True,
                }
            )
        yield
    finally:
        session.rollback()
        _reading.reset(token)


def reading_only() -> None:
    """The rest of this request only reads: its transactions need not wait for the write
    lock (a save that failed still shows its form while another writer holds the lock)."""
    g.reading_only = True


def engine_options(uri: str) -> dict[str, Any]:
    """Engine options: pool health checks for a server, a driver timeout for SQLite."""
    if uri.startswith("sqlite"):
        return {"connect_args": {"timeout": BUSY_TIMEOUT_MS / 1000}}
    return {"pool_pre_ping": True, "pool_size": 5, "max_overflow": 10}


def insert_rows(connection: Connection, table: Any, rows: list[dict[str, Any]]) -> None:
    """Insert ``rows`` (all with the same keys, at least one) into ``table`` on ``connection``,
    in its transaction: on PostgreSQL through psycopg by COPY, elsewhere by an executemany.

    psycopg's executemany sends one statement per row, and a restore writes hundreds of
    thousands (its hands, the kept statistics' seat rows, the ratings' steps). Each value goes
    through its column's type as in an insert (aware times made naive UTC, JSON written)."""
    dialect = connection.dialect
    if dialect.name != "postgresql" or dialect.driver != "psycopg":
        connection.execute(table.insert(), rows)
        return
    columns = list(rows[0])
    names = ", ".join(table.c[column].name for column in columns)
    # Only the columns whose type changes a value on its way in; a row is read in one call.
    processed = [
        (at, process)
        for at, column in enumerate(columns)
        if (process := table.c[column].type.dialect_impl(dialect).bind_processor(dialect))
    ]
    values_of = itemgetter(*columns) if len(columns) > 1 else lambda row: (row[columns[0]],)
    driver = connection.connection.driver_connection
    assert driver is not None
    with driver.cursor() as cursor, cursor.copy(f"COPY {table.name} ({names}) FROM STDIN") as copy:
        for row in rows:
            values = list(values_of(row))
            for at, process in processed:
                values[at] = process(values[at])
            copy.write_row(values)
