"""the bin: deleted games and house rules are kept 30 days

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("games", "house_rules"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("deleted_at", sa.DateTime(), nullable=True))
            batch_op.add_column(sa.Column("deleted_by", sa.String(length=120), nullable=True))


def downgrade() -> None:
    for table in ("games", "house_rules"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column("deleted_by")
            batch_op.drop_column("deleted_at")
