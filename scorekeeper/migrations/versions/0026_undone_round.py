"""games.undone: the last round undone, kept whole so that it can be put back for as long as
its undo was offered (issue 43)

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as table:
        table.add_column(sa.Column("undone", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as table:
        table.drop_column("undone")
