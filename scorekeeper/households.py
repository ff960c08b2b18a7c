"""Households as the command line names them: by name, or none where the server holds one.

Every feature's commands that work in one household (``game import``, ``history export``,
``users add``) take the same ``--household NAME`` and find it the same way; they sit above this,
as the accounts' services (a household's name is unique) do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click
from sqlalchemy import select

from . import actors, scope
from .extensions import db
from .models import Household
from .names import name_key

F = TypeVar("F", bound=Callable[..., Any])


def household_named(name: str) -> Household | None:
    return db.session.scalar(select(Household).where(Household.name_key == name_key(name)))


def households() -> list[Household]:
    return list(db.session.scalars(select(Household).order_by(Household.name_key)))


def household_option(view: F) -> F:
    """``--household NAME``: which household; optional where the server holds at most one."""
    return click.option(
        "--household",
        "household_name",
        metavar="NAME",
        default=None,
        help="The household (may be left out where the server holds only one).",
    )(view)


def find_household(name: str | None) -> Household:
    """The household named ``name``, or the server's only one (made, as ``Family``, where there
    is none); exits with a message where that is not clear."""
    if name is not None:
        found = household_named(name)
        if found is None:
            known = ", ".join(h.name for h in households()) or "none yet"
            raise click.ClickException(f"There is no household {name!r} (there are: {known}).")
        return found
    try:
        household_id = scope.sole_household(db.session)
    except scope.NoHouseholdError:
        raise click.ClickException(
            "This server holds several households: say which with --household NAME."
        ) from None
    db.session.commit()
    found = db.session.get(Household, household_id)
    assert found is not None
    return found


@contextmanager
def in_household(name: str | None) -> Iterator[Household]:
    """Run the block scoped to the household (see ``find_household``); changes it logs are
    made by "command line"."""
    household = find_household(name)
    with scope.household(household.id), scope.acting_as(actors.COMMAND_LINE):
        yield household
