"""``household add``, ``users add|password|list``, ``link add`` (``shared/spec/access.md``); the
``--household`` option every command that works on a household's data takes is
``scorekeeper.households``."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click
from flask import Flask, current_app
from flask.cli import AppGroup

from .. import scope
from ..extensions import db
from ..households import find_household, household_option
from ..models import Game, LinkKind, Role
from . import bp, links, services

F = TypeVar("F", bound=Callable[..., Any])

household_group = AppGroup("household", help="Households: the families this server keeps.")
users_group = AppGroup("users", help="Accounts: who may sign in, in which household, as what.")
link_group = AppGroup("link", help="Table and watch links to one game.")


def _read_password(prompt: str) -> str:
    """One line of standard input where it is not a terminal, else asked twice."""
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\r\n")
    return str(click.prompt(prompt, hide_input=True, confirmation_prompt=True))


@household_group.command("add")
@click.argument("name")
def household_add(name: str) -> None:
    """Make a household; print its id on the last line."""
    try:
        household = services.add_household(name)
    except services.AccountError as problem:
        raise click.ClickException(str(problem)) from None
    click.echo(f"Household {household.name} made.")
    click.echo(household.id)


@users_group.command("add")
@click.argument("username")
@household_option
@click.option(
    "--role",
    type=click.Choice([role.value for role in Role]),
    default=Role.OWNER.value,
    show_default=True,
)
def users_add(username: str, household_name: str | None, role: str) -> None:
    """Make an account; the password is read from standard input (one line) when that is not a
    terminal, else asked twice."""
    household = find_household(household_name)
    password = _read_password("Password")
    try:
        user = services.add_user(username, password, household, role)
    except services.AccountError as problem:
        raise click.ClickException(str(problem)) from None
    click.echo(f"{user.username} is {user.role} of {household.name}.")


@users_group.command("password")
@click.argument("username")
def users_password(username: str) -> None:
    """Set a new password (read as for ``users add``); ends that person's sessions."""
    user = services.user_named(username)
    if user is None:
        raise click.ClickException(f"There is no account {username!r}.")
    try:
        services.set_password(user, _read_password("New password"))
    except services.AccountError as problem:
        raise click.ClickException(str(problem)) from None
    click.echo(f"{user.username}'s password is changed; their sessions are ended.")


@users_group.command("list")
def users_list() -> None:
    """List the accounts with their household and role."""
    for user in services.users():
        admin = "  (administrator)" if user.is_admin else ""
        click.echo(f"{user.username}\t{user.household.name}\t{user.role}{admin}")


@link_group.command("add")
@click.argument("game_id", type=int)
@click.option("--kind", type=click.Choice(["table", "watch"]), required=True)
def link_add(game_id: int, kind: str) -> None:
    """Make a table or watch link to game GAME_ID; print its address on the last line."""
    with scope.server_wide(scope.ServerWide.COMMAND_LINE):
        game = db.session.get(Game, game_id)
    if game is None:
        raise click.ClickException(f"There is no game {game_id}.")
    with scope.household(game.household_id):
        link, token = links.make_link(LinkKind(kind), "command line", game=game)
    public = (current_app.config.get("PUBLIC_URL") or "http://localhost:5000").rstrip("/")
    path = "/t/" if link.kind == LinkKind.TABLE else "/w/"
    click.echo(f"A {kind} link to game {game.id} ({game.rules_name}):")
    click.echo(f"{public}{path}{token}")


@bp.record_once
def _register(state: Any) -> None:
    app: Flask = state.app
    for group in (household_group, users_group, link_group):
        app.cli.add_command(group)
