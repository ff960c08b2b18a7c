"""The kept statistics' tables and the words they store (a game's status, the presets
whose players each keep their own contract), and the household's statistics version."""

from __future__ import annotations

from sqlalchemy import Connection, update

from ... import scope
from ...derived import GameStat, PlayerStat, SeatContract, SeatStat, StatsVersion
from ...models import Game, Hand, Player, Round, Seat
from ...status import GameStatus

FINISHED = GameStatus.FINISHED.value
IN_PROGRESS = GameStatus.IN_PROGRESS.value
ABANDONED = GameStatus.ABANDONED.value
TWELVE_STEP = "twelve-step"
# Where each player keeps their own contract until they make it (the rules engine's
# ``contract_order == "own"``). The presets are listed too, for games stored before the
# frozen rules carried the option.
KEPT_CONTRACT_PRESETS = ("twelve-step", "russian-rummy")
# How many candidates for each record a player row keeps: the family's top 3 are among them.
TOP = 3

games_t = Game.__table__
seats_t = Seat.__table__
hands_t = Hand.__table__
rounds_t = Round.__table__
players_t = Player.__table__
game_stats = GameStat.__table__
seat_stats = SeatStat.__table__
player_stats = PlayerStat.__table__
seat_contracts = SeatContract.__table__
versions = StatsVersion.__table__


def bump_version(connection: Connection, household: scope.CoreHousehold) -> None:
    """Move the household's version; its row is made by the first write (two first writes
    at once both get there: the second one's insert does nothing)."""
    from sqlalchemy.dialects import postgresql, sqlite

    upsert = (
        postgresql.insert(versions)
        if connection.dialect.name == "postgresql"
        else sqlite.insert(versions)
    )
    connection.execute(
        upsert.values(household.row(version=0)).on_conflict_do_nothing(
            index_elements=[versions.c.household_id]
        )
    )
    connection.execute(
        update(versions).where(household.owns(versions)).values(version=versions.c.version + 1)
    )
