"""rounds.went_out_in_one_turn and draft_hands.in_one_turn: the down-and-out bonus of a round
(Continental's −10), kept with the round and with the phone's own hand (issue 42)

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every round stored before had no bonus: false, the server's default for the rows there.
    with op.batch_alter_table("rounds") as table:
        table.add_column(
            sa.Column(
                "went_out_in_one_turn", sa.Boolean(), nullable=False, server_default=sa.false()
            )
        )
    with op.batch_alter_table("draft_hands") as table:
        table.add_column(
            sa.Column("in_one_turn", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("draft_hands") as table:
        table.drop_column("in_one_turn")
    with op.batch_alter_table("rounds") as table:
        table.drop_column("went_out_in_one_turn")
