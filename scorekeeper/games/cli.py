"""``flask --app scorekeeper game import FILE`` and ``game export ID``."""

from __future__ import annotations

import json
import sys
from typing import BinaryIO

import click

from scorekeeper.db import reading
from scorekeeper.extensions import db
from scorekeeper.models import Game

from ..households import household_option, in_household
from . import bp
from .gamefile import GameFileError, load_document
from .transfer import AlreadyStored, export_game, import_game


@bp.cli.command("import")
@click.argument("file", type=click.File("rb"))
@household_option
def import_command(file: BinaryIO, household_name: str | None) -> None:
    """Store the game in FILE (a game file) and print its id on the last line."""
    try:
        document = load_document(file)
    except GameFileError as error:
        click.echo(f"{file.name} was refused; nothing was stored:", err=True)
        for problem in error.problems:
            click.echo(f"- {problem}", err=True)
        sys.exit(1)
    with in_household(household_name):
        try:
            game = import_game(document)
        except GameFileError as error:
            click.echo(f"{file.name} was refused; nothing was stored:", err=True)
            for problem in error.problems:
                click.echo(f"- {problem}", err=True)
            sys.exit(1)
        except AlreadyStored as held:
            click.echo(f"{file.name}: {held}", err=True)
            click.echo(held.game_id)
            return
        names = ", ".join(seat.player.name for seat in game.seats)
        click.echo(
            f"Imported {game.rules_name}: {names}; {game.round_count} rounds, {game.status}."
        )
        click.echo(game.id)


@bp.cli.command("export")
@click.argument("game_id", type=int)
def export_command(game_id: int) -> None:
    """Print the game file of game GAME_ID."""
    with reading():
        game = db.session.get(Game, game_id)
        document = None if game is None else export_game(game)
    if document is None:
        click.echo(f"There is no game {game_id}.", err=True)
        sys.exit(1)
    click.echo(json.dumps(document, indent=2, ensure_ascii=False))
