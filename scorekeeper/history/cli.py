"""``flask --app scorekeeper history export|import|csv``: the same services as the web pages."""

from __future__ import annotations

import json
import os
import sys
from typing import IO, BinaryIO

import click
from flask import current_app

from ..accounts import services
from ..db import reading
from ..households import household_option, households, in_household
from ..limits import BACKUP_LINE_BYTES
from ..models import utcnow
from . import backup, backup_files, household_file
from .views import bp

# Where an export goes; both exports take it.
output_option = click.option(
    "-o",
    "--output",
    type=click.File("w", encoding="utf-8", lazy=True),
    default="-",
    help="Where to write (default: standard output).",
)


@bp.cli.command("export")
@output_option
@household_option
def export_command(output: IO[str], household_name: str | None) -> None:
    """Write every game of the household as one game document per line (JSON lines)."""
    count = 0
    with in_household(household_name), reading():
        for line in backup.export_lines():
            output.write(line)
            count += 1
    output.flush()
    click.echo(f"Exported {count} game{'' if count == 1 else 's'}.", err=True)


@bp.cli.command("backup")
@household_option
def backup_command(household_name: str | None) -> None:
    """Write the household's backup now (games, players, merges, house rules, members) into
    instance/backups/, keeping the last BACKUP_KEEP; print its path on the last line."""
    with in_household(household_name) as household:
        household_id, name = household.id, household.name
        path = backup_files.write(household_id, backup_files.on_demand_name(utcnow()))
        gone = backup_files.prune(household_id, int(current_app.config["BACKUP_KEEP"]))
    click.echo(f"Wrote the backup of {name} ({path.stat().st_size} bytes).", err=True)
    if gone:
        click.echo(f"Deleted {len(gone)} older: {', '.join(gone)}.", err=True)
    click.echo(str(path))


@bp.cli.command("import")
@click.argument("file", type=click.File("rb"))
@household_option
def import_command(file: BinaryIO, household_name: str | None) -> None:
    """Store every game of FILE (one game document per line; - for standard input).

    A refused game is reported by its line number on standard error, the others are stored;
    the exit status is 1 when any line was refused.
    """
    report = backup.ImportReport()
    if household_name is None:
        household_name = _household_made_for(file)
    with (
        in_household(household_name),
        click.progressbar(
            # A pipe's length is unknown: its bar fills when it ends.
            length=_size(file) or 1,
            label="Restoring",
            file=sys.stderr,
            show_pos=False,
        ) as bar,
    ):
        read = 0
        for line in backup.read_backup(file):
            report.add(line)
            position = _position(file)
            if position is not None:
                bar.update(position - read)
                read = position
    for number, problems in report.refused:
        for problem in problems:
            click.echo(f"line {number}: {problem}", err=True)
    for note in report.notes:
        click.echo(note)
    click.echo(report.summary)
    if report.refused:
        sys.exit(1)


def _household_made_for(file: BinaryIO) -> str | None:
    """On a server with no household yet, the household a household's backup (``FILE``) was
    written of, made under its name; None elsewhere (the usual default then applies)."""
    if households() or not file.seekable():
        return None
    try:
        first = file.readline(BACKUP_LINE_BYTES + 1)
        file.seek(0)
        name = household_file.household_name(json.loads(first.decode("utf-8-sig")))
    except (ValueError, RecursionError, OSError):
        return None
    if name is None:
        return None
    try:
        return services.add_household(name).name
    except services.AccountError:
        return None


def _size(file: BinaryIO) -> int | None:
    """The file's length in bytes, for the progress bar; None for a pipe."""
    try:
        return os.fstat(file.fileno()).st_size if file.seekable() else None
    except (OSError, ValueError):
        return None


def _position(file: BinaryIO) -> int | None:
    try:
        return file.tell() if file.seekable() else None
    except (OSError, ValueError):
        return None


@bp.cli.command("csv")
@output_option
@household_option
def csv_command(output: IO[str], household_name: str | None) -> None:
    """Write every round of every game of the household as CSV, one row per player and round."""
    with in_household(household_name), reading():
        for chunk in backup.csv_lines():
            output.write(chunk)
    output.flush()
