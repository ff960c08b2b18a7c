"""restore_marks: what a restore stored and its rebuild has not yet counted, so that a restore
cut short by a stop of its server is counted by the next (issue 40)

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "restore_marks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run", sa.String(length=32), nullable=False),
        sa.Column("job_id", sa.Integer(), nullable=True),
        sa.Column("lines", sa.Integer(), nullable=False),
        sa.Column("stored", sa.Integer(), nullable=False),
        sa.Column("already", sa.Integer(), nullable=False),
        sa.Column("refused", sa.Integer(), nullable=False),
        sa.Column("read_whole", sa.Boolean(), nullable=False),
        sa.Column("household_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["household_id"], ["households.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("run"),
    )
    with op.batch_alter_table("restore_marks", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_restore_marks_household_id"), ["household_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("restore_marks", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_restore_marks_household_id"))
    op.drop_table("restore_marks")
