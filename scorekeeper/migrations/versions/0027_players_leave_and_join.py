"""seats.left_after, joined_before, joined_total: a player leaves after a round or joins
before one, with the points the family decides (issue 43)

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as table:
        table.add_column(sa.Column("left_after", sa.Integer(), nullable=True))
        table.add_column(sa.Column("joined_before", sa.Integer(), nullable=True))
        table.add_column(
            sa.Column("joined_total", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("seats") as table:
        table.drop_column("joined_total")
        table.drop_column("joined_before")
        table.drop_column("left_after")
