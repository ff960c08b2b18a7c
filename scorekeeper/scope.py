"""Which household's rows a query sees, decided in one place for every query.

Every model that belongs to a household (``models.HouseholdOwned``) is filtered here, on every
ORM statement the session runs (``with_loader_criteria``, which also reaches relationship
loads, joins, subqueries, and ORM updates and deletes), and every new such row is given its
household here, before it is flushed. No view or service names a household in a query, so none
can forget to; a household id sent by a client is never read.

Where the scope comes from:

- in a request, from whoever was let in (``access.py`` sets it from the signed-in account or
  the link): until then, and for a visitor let in by nobody, the household is "none", and every
  household-owned table looks empty;
- in a command or a test, from ``household(id)``; outside any request and any such block the
  query is unscoped (the command line's own work on the whole server), and new rows go to the
  database's one household (made, named ``Family``, where there is none).

The hook does not see Core statements. Those on a household's tables are made here too, and
only in the modules ``CORE_MODULES`` names (``tests/test_lint.py`` holds every other module to
the ORM, and every module but this one and ``models`` to never naming ``household_id`` in a
statement or a row):

- ``core_read``: a Core ``select`` under the scope in force, for the hottest reads;
- ``for_household(id)`` (``CoreHousehold``): Core statements of one household named
  explicitly, its conditions (``owns``) and its new rows (``rows``, ``row``, ``insert_from``),
  for the statistics (kept in the session's ``before_commit``, for one household at a time)
  and the bulk loader (its inserts and COPY name every row's household);
- ``for_writing(session)``: the same, of the household new rows go to now.

The few reads that must look across households go through ``server_wide(reason)``, which lifts
the filter inside its block; ``ServerWide`` lists the reasons and ``SERVER_WIDE_SITES`` the
functions that may give each (``tests/test_lint.py`` checks that list against the code, so a
new escape needs a line there):

- ``VISITOR``: who is visiting (the account of a session's token, the link of a token or of the
  browser's session) is found before their household is known;
- ``USERNAME``: usernames are unique on the whole server (signing in, a new account's name);
- ``ANY_ACCOUNT``: whether the server holds any account yet (setup; the first administers it);
- ``HOUSEKEEPING``: the daily housekeeping (the bin's purge, old restore jobs) runs once for
  every household;
- ``STALE_RATINGS``: the ratings' worker finds every household whose ratings wait for it;
- ``RESTORES_LEFT``: the same worker finds every household a restore left games uncounted in;
- ``COMMAND_LINE``: an administrator's command names a game by id, or lists every account.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, Final

from flask import g, has_request_context
from sqlalchemy import (
    ColumnElement,
    FromClause,
    Insert,
    Integer,
    Select,
    Table,
    bindparam,
    insert,
    literal,
    select,
)
from sqlalchemy.orm import (
    DeclarativeBase,
    ORMExecuteState,
    Session,
    scoped_session,
    with_loader_criteria,
)

from .names import name_key


class _Unscoped:
    def __repr__(self) -> str:
        return "UNSCOPED"


UNSCOPED: Final = _Unscoped()
_NOT_SET: Final = object()
# No household has this id: what a visitor let in by nobody is shown.
NOBODY: Final = 0
DEFAULT_HOUSEHOLD_NAME = "Family"

_override: ContextVar[Any] = ContextVar("scorekeeper_household", default=_NOT_SET)
_actor: ContextVar[str | None] = ContextVar("scorekeeper_actor", default=None)
_bin: ContextVar[bool] = ContextVar("scorekeeper_bin", default=False)


class _Scoped:
    """What ``models`` hands ``name_models``: the scope sits below the models and names none."""

    household_owned: type = object
    binnable: type = object
    households: Table | None = None


_scoped = _Scoped()


class NoHouseholdError(RuntimeError):
    """A row was to be stored where no household is in scope (a bug, never a visitor's doing)."""


def current() -> int | _Unscoped:
    """The household every query is scoped to now: an id (``NOBODY`` matches no row), or
    ``UNSCOPED``."""
    override = _override.get()
    if override is not _NOT_SET:
        return override
    if has_request_context():
        return int(g.get("household_id") or NOBODY)
    return UNSCOPED


def set_for_request(household_id: int | None) -> None:
    """Scope the rest of this request to ``household_id`` (None: to no household)."""
    g.household_id = household_id or NOBODY


@contextmanager
def household(household_id: int) -> Iterator[None]:
    """Scope everything inside the block to one household (commands, tests, jobs)."""
    token = _override.set(household_id)
    try:
        yield
    finally:
        _override.reset(token)


class ServerWide(enum.Enum):
    """Why a read looks across households (``server_wide``): the only reasons there are."""

    VISITOR = "who is visiting is found before their household is known"
    USERNAME = "usernames are unique on the whole server"
    ANY_ACCOUNT = "whether the server holds any account yet"
    HOUSEKEEPING = "the daily housekeeping runs once for every household"
    STALE_RATINGS = "the ratings' worker finds every household whose ratings wait for it"
    RESTORES_LEFT = "the ratings' worker finds every household a restore left games uncounted in"
    COMMAND_LINE = "an administrator's command names a game by id, or lists every account"


# The functions that look across households, by reason: ``tests/test_lint.py`` finds every
# ``server_wide`` in the package and holds it to this list, both ways.
SERVER_WIDE_SITES: Final[Mapping[ServerWide, frozenset[str]]] = {
    ServerWide.VISITOR: frozenset(
        {
            "scorekeeper.access._find_visitor",
            "scorekeeper.accounts.links.find",
            "scorekeeper.accounts.services._load_session",
        }
    ),
    ServerWide.USERNAME: frozenset(
        {
            "scorekeeper.accounts.services.user_named",
            "scorekeeper.history.household_file._members",
        }
    ),
    ServerWide.ANY_ACCOUNT: frozenset(
        {
            "scorekeeper.access.accounts_exist",
            "scorekeeper.accounts.services.add_user",
            "scorekeeper.accounts.views.setup",
            "scorekeeper.history.household_file._members",
        }
    ),
    ServerWide.HOUSEKEEPING: frozenset(
        {"scorekeeper.bin.services.purge", "scorekeeper.history.restores.tidy"}
    ),
    ServerWide.STALE_RATINGS: frozenset({"scorekeeper.history.rating_worker._stale_households"}),
    ServerWide.RESTORES_LEFT: frozenset({"scorekeeper.history.restore_end.households_marked"}),
    ServerWide.COMMAND_LINE: frozenset(
        {"scorekeeper.accounts.cli.link_add", "scorekeeper.accounts.services.users"}
    ),
}

# The modules that run Core statements on a household's tables, each with how they are scoped
# (``tests/test_lint.py`` holds every other module to the ORM, which the hook below scopes).
CORE_MODULES: Final[Mapping[str, str]] = {
    "scorekeeper.games.scoreboard": "a game's stamp, read at every poll: ``core_read``",
    "scorekeeper.history.bulk_loader": (
        "a restore's bulk loader (``store_game_files``): Core inserts and COPY of the household"
        " in scope, ``for_writing``"
    ),
    "scorekeeper.history.stats.tables": (
        "the kept statistics' tables, for the package ``history.stats``: rewritten before"
        " the commit from the games the session marked (loaded under the scope) and rebuilt"
        " for one named household, every statement naming its household: ``for_household``"
    ),
    "scorekeeper.history.seasons": (
        "a season's seats, read by the ids of its games (found under the scope) with a Core"
        " ``select`` the index on the game serves"
    ),
    "scorekeeper.history.review": (
        "a year's seats and hands, read by the ids of its finished games (found under the"
        " scope) with Core ``select``s the indexes on the game and the round serve"
    ),
    "scorekeeper.history.ratings": (
        "the ratings, replayed from the kept statistics' refresh and rebuilt for one named"
        " household: ``for_household``"
    ),
    "scorekeeper.history.rating_worker": (
        "the worker's replay marks and paces, of the one household a replay's part works on"
        " (found by ``STALE_RATINGS``), every statement naming it: ``for_household``"
    ),
    "scorekeeper.history.rating_reads": (
        "whether the household in scope has ratings waiting for the worker, one ``exists``"
        " on its marks: ``for_household``"
    ),
}


@contextmanager
def server_wide(reason: ServerWide) -> Iterator[None]:
    """Look across households inside the block, for ``reason`` (one of the few there are:
    ``ServerWide``, and only where ``SERVER_WIDE_SITES`` says)."""
    token = _override.set(UNSCOPED)
    try:
        yield
    finally:
        _override.reset(token)


def actor() -> str:
    """Who the change log names for a change made now: the account or link of the request
    (set by ``access.py``), or what ``acting_as`` says."""
    named = _actor.get()
    if named is not None:
        return named
    if has_request_context():
        return str(g.get("actor") or "")
    return ""


@contextmanager
def acting_as(who: str) -> Iterator[None]:
    token = _actor.set(who)
    try:
        yield
    finally:
        _actor.reset(token)


@contextmanager
def with_bin() -> Iterator[None]:
    """Let the block see rows in the bin too (the bin page, restoring, purging, slugs)."""
    token = _bin.set(True)
    try:
        yield
    finally:
        _bin.reset(token)


_core_reads: dict[tuple[Hashable, bool, bool], Select[Any]] = {}


def core_read(
    key: Hashable, build: Callable[[], Select[Any]], model: type[DeclarativeBase]
) -> tuple[Select[Any], dict[str, Any]]:
    """A Core ``select`` of ``model``'s table under this scope, and the parameters to run it
    with: for the hottest reads (a scoreboard's version, asked at every poll), where the ORM's
    work per statement is most of the cost. The hook below does not see Core statements, so
    their household and bin conditions are added here, beside it. ``build`` makes the
    statement without them; it is built once per ``key`` and kind of scope, then reused."""
    household = current()
    scoped = household is not UNSCOPED and issubclass(model, _scoped.household_owned)
    hide_bin = not _bin.get() and issubclass(model, _scoped.binnable)
    statement = _core_reads.get((key, scoped, hide_bin))
    if statement is None:
        statement = build()
        table = model.__table__
        if scoped:
            statement = statement.where(table.c.household_id == bindparam("scope_household"))
        if hide_bin:
            statement = statement.where(table.c.deleted_at.is_(None))
        _core_reads[(key, scoped, hide_bin)] = statement
    return statement, ({"scope_household": household} if scoped else {})


def household_for_insert() -> int:
    """The column default of ``household_id``; ``_fill_households`` sets it first, so this is
    reached only by a Core insert made outside any household."""
    found = current()
    if isinstance(found, int) and found != NOBODY:
        return found
    raise NoHouseholdError("a household-owned row was inserted outside any household")


HOUSEHOLD_COLUMN: Final = "household_id"


class CoreHousehold:
    """Core statements of one household, named explicitly (the hook does not see Core): the
    conditions that keep a statement to it, and its new rows."""

    __slots__ = ("id",)

    def __init__(self, household_id: int) -> None:
        self.id = household_id

    def owns(self, table: FromClause) -> ColumnElement[bool]:
        """The condition keeping ``table``'s rows (or an alias's) to this household."""
        column: ColumnElement[Any] = table.c[HOUSEHOLD_COLUMN]
        return column == self.id

    def rows(self, rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        """``rows`` for a Core insert, each given this household (in place: the bulk loader's
        batches are thousands of rows)."""
        given = list(rows)
        for row in given:
            row[HOUSEHOLD_COLUMN] = self.id
        return given

    def row(self, **values: Any) -> dict[str, Any]:
        """One row of this household for a Core insert."""
        return {HOUSEHOLD_COLUMN: self.id, **values}

    def insert_from(self, table: Table, names: list[str], selected: Select[Any]) -> Insert:
        """``INSERT INTO table (names..., household) SELECT selected..., this household``."""
        return insert(table).from_select(
            [*names, HOUSEHOLD_COLUMN], selected.add_columns(literal(self.id, Integer))
        )


def for_household(household_id: int) -> CoreHousehold:
    """Core statements of ``household_id``: for code that is given the household (the kept
    statistics of a game or of a restore), never one sent by a client."""
    return CoreHousehold(household_id)


def for_writing(session: Session | scoped_session[Any]) -> CoreHousehold:
    """Core statements of the household new rows go to now: the one in scope, or the
    database's only one where nothing is scoped (the command line's default, as for ORM
    inserts). Raises ``NoHouseholdError`` where the scope is nobody."""
    found = current()
    if found is UNSCOPED:
        return CoreHousehold(sole_household(session))
    if isinstance(found, int) and found != NOBODY:
        return CoreHousehold(found)
    raise NoHouseholdError("household rows were to be stored by nobody")


def sole_household(session: Session | scoped_session[Any]) -> int:
    """The database's one household, made (as ``Family``) where there is none; the command
    line's default. More than one is an error: the command must name one."""
    # Core statements on the session's connection: this runs inside a flush, where the
    # session itself cannot be asked to load or add anything.
    connection = session.connection()
    table = _scoped.households
    assert table is not None, "models names the scope's models"
    ids = connection.execute(select(table.c.id).limit(2)).scalars().all()
    if len(ids) > 1:
        raise NoHouseholdError("this database holds several households: name one")
    if ids:
        return int(ids[0])
    made = connection.execute(
        table.insert().values(
            name=DEFAULT_HOUSEHOLD_NAME,
            name_key=name_key(DEFAULT_HOUSEHOLD_NAME),
            created_at=datetime.now(UTC),
        )
    )
    key = made.inserted_primary_key
    assert key is not None  # a one-row insert has its row's key
    return int(key[0])


def name_models(household_owned: type[Any], binnable: type[Any], households: Table) -> None:
    """What the scope works on (``models`` names them at its import): rows of
    ``household_owned`` are kept to the household in scope, rows of ``binnable`` in the bin are
    hidden, and ``households`` is the table ``sole_household`` reads and fills. The listeners
    that do it (``scope_statement``, ``fill_households``) are installed by the factory
    (``scorekeeper.hooks``)."""
    _scoped.household_owned = household_owned
    _scoped.binnable = binnable
    _scoped.households = households


def scope_statement(state: ORMExecuteState) -> None:
    """Every ORM SELECT, UPDATE and DELETE (``do_orm_execute``): kept to the household in
    scope, and blind to the bin."""
    if not (state.is_select or state.is_update or state.is_delete):
        return
    # Relationship and column loads carry the criteria of the statement that loaded
    # their parent already.
    if state.is_select and (state.is_column_load or state.is_relationship_load):
        return
    if not _bin.get():
        # Deleted games and house rules wait in the bin, out of every page and count.
        state.statement = state.statement.options(
            with_loader_criteria(
                _scoped.binnable, lambda cls: cls.deleted_at.is_(None), include_aliases=True
            )
        )
    scope = current()
    if scope is UNSCOPED:
        return
    state.statement = state.statement.options(
        with_loader_criteria(
            _scoped.household_owned,
            lambda cls: cls.household_id == scope,
            include_aliases=True,
        )
    )


def fill_households(session: Session, _context: Any, _instances: Any) -> None:
    """Every flush (``before_flush``): new household-owned rows get the household in scope,
    and a row of another household is refused."""
    household_owned: type[Any] = _scoped.household_owned
    fresh = [row for row in session.new if isinstance(row, household_owned)]
    missing = [row for row in fresh if getattr(row, "household_id", None) is None]
    scope = current()
    if isinstance(scope, int) and any(row.household_id not in (None, scope) for row in fresh):
        raise NoHouseholdError("a row of another household was to be stored")
    if not missing:
        return
    if scope is UNSCOPED:
        household_id = sole_household(session)
    elif scope == NOBODY:
        raise NoHouseholdError("a household-owned row was to be stored by nobody")
    else:
        assert isinstance(scope, int)  # neither UNSCOPED nor NOBODY: a household's id
        household_id = scope
    for row in missing:
        row.household_id = household_id
