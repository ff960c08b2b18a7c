"""seat_stats.stretches: the rounds a seat was dealt into where it left, joined or came back
(issue 49): head to head and ratings compare two players only where they shared a round

Revision ID: 0031
Revises: 0030
Create Date: 2026-12-07

Every household's statistics and ratings are counted again (at the end of the migrations): a
seat that came back counts the rounds it played, its gaps left out, and a leaver is rated
against the players of its last round.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0031"
down_revision = "0030"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seat_stats") as table:
        table.add_column(sa.Column("stretches", sa.JSON(), nullable=True))
    from scorekeeper.history import ratings, stats

    stats.rebuild_all(op.get_bind())
    ratings.rebuild_all(op.get_bind())


def downgrade() -> None:
    with op.batch_alter_table("seat_stats") as table:
        table.drop_column("stretches")
