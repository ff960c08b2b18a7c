"""hands.typed_total: a hand's points typed as a total instead of counted from cards

A family that counts on paper may type a player's total for a round; such a hand keeps no
cards. Every hand stored before was counted from its cards, so the column starts false.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("typed_total", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.drop_column("typed_total")
