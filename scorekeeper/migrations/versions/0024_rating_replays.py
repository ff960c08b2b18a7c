"""rating_replays: the pace of a household's ratings replays left to the worker (issue 40)

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating_replays",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("reached_started", sa.DateTime(), nullable=True),
        sa.Column("reached_game_id", sa.Integer(), nullable=True),
        sa.Column("began", sa.DateTime(), nullable=True),
        sa.Column("ended", sa.DateTime(), nullable=True),
        sa.Column("household_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["household_id"], ["households.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("household_id"),
    )
    with op.batch_alter_table("rating_replays", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_rating_replays_household_id"), ["household_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("rating_replays", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rating_replays_household_id"))
    op.drop_table("rating_replays")
