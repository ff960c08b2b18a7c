"""seat_stats.whole: the seat played every round of its game (nobody's partial game, left
early or joined late, stands among the records of best and worst totals)

Revision ID: 0028
Revises: 0027
Create Date: 2026-11-28

Every household's statistics are counted again (at the end of the migrations): a seat's
rounds and points are now those it played.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seat_stats") as table:
        table.add_column(sa.Column("whole", sa.Boolean(), nullable=False, server_default=sa.true()))
    from scorekeeper.history import stats

    stats.rebuild_all(op.get_bind())


def downgrade() -> None:
    with op.batch_alter_table("seat_stats") as table:
        table.drop_column("whole")
