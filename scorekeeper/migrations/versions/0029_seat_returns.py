"""seats.returns: the leaves a player came back from, in order (a comeback, issue 49)

Revision ID: 0029
Revises: 0028
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0029"
down_revision = "0028"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as table:
        table.add_column(sa.Column("returns", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as table:
        table.drop_column("returns")
