"""rating_marks (ratings replayed after the save, issue 37) and households.ratings_shown
(ratings when the household wants them)

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating_marks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("started", sa.DateTime(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("household_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["household_id"], ["households.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("rating_marks", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_rating_marks_household_id"), ["household_id"], unique=False
        )
    with op.batch_alter_table("households", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("ratings_shown", sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table("households", schema=None) as batch_op:
        batch_op.drop_column("ratings_shown")
    with op.batch_alter_table("rating_marks", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rating_marks_household_id"))
    op.drop_table("rating_marks")
