"""A player who joined and left before playing a round is taken off the game (issue 49): the
board stored such a seat (joined before round N, left after round N - 1) when "leaves" mended a
mistaken "Add a player", and its game file was refused on import and in a backup's restore (a
leave comes after a round played, ``game-format.md``). The board now takes the join back; this
takes back the ones stored before, as if they never were.

Revision ID: 0030
Revises: 0029
Create Date: 2026-12-07

The seat holds no hand (it was dealt into no round). The seats after it move up one place at the
table, and the phones' drafts of the round being entered with them; the places in the standings
after its own move up one (such a seat ranks among those who left, and never wins).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0030"
down_revision = "0029"
branch_labels = None
depends_on = None

seats = sa.table(
    "seats",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.Integer),
    sa.column("position", sa.Integer),
    sa.column("place", sa.Integer),
    sa.column("left_after", sa.Integer),
    sa.column("joined_before", sa.Integer),
)
hands = sa.table("hands", sa.column("seat_id", sa.Integer))
drafts = sa.table(
    "draft_hands",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.Integer),
    sa.column("position", sa.Integer),
)
games = sa.table("games", sa.column("id", sa.Integer), sa.column("version", sa.Integer))


def upgrade() -> None:
    bind = op.get_bind()
    never = bind.execute(
        sa.select(seats.c.id, seats.c.game_id, seats.c.position, seats.c.place)
        .where(
            seats.c.joined_before.is_not(None),
            seats.c.left_after.is_not(None),
            seats.c.joined_before > seats.c.left_after,
            ~sa.exists().where(hands.c.seat_id == seats.c.id),
        )
        # The last seat of a game first: the positions of those before it stay as read.
        .order_by(seats.c.game_id, seats.c.position.desc())
    ).all()
    for seat_id, game_id, position, place in never:
        bind.execute(
            sa.delete(drafts).where(drafts.c.game_id == game_id, drafts.c.position == position)
        )
        bind.execute(sa.delete(seats).where(seats.c.id == seat_id))
        if place is not None:
            bind.execute(
                sa.update(seats)
                .where(seats.c.game_id == game_id, seats.c.place > place)
                .values(place=seats.c.place - 1)
            )
        # One row at a time, in order: each moves to the position just freed (a position is
        # unique in its game, checked row by row).
        _move_up(bind, seats, game_id, position)
        _move_up(bind, drafts, game_id, position)
        bind.execute(
            sa.update(games).where(games.c.id == game_id).values(version=games.c.version + 1)
        )
    if never:
        # The kept statistics and the ratings counted the seats taken off: counted again, once
        # the last migration has run.
        from scorekeeper.history import ratings, stats

        stats.rebuild_all(bind)
        ratings.rebuild_all(bind)


def _move_up(bind: sa.Connection, table: sa.TableClause, game_id: int, position: int) -> None:
    after = bind.execute(
        sa.select(table.c.id)
        .where(table.c.game_id == game_id, table.c.position > position)
        .order_by(table.c.position)
    ).scalars()
    for row_id in list(after):
        bind.execute(
            sa.update(table).where(table.c.id == row_id).values(position=table.c.position - 1)
        )


def downgrade() -> None:
    # The seats taken off are not made again: the game reads as if they never were.
    pass
