"""player_merges, and restore_jobs.notes: what a household's backup carries besides games

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_merges",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("absorbed_name", sa.String(length=60), nullable=False),
        sa.Column("absorbed_key", sa.String(length=60), nullable=False),
        sa.Column("merged_at", sa.DateTime(), nullable=False),
        sa.Column("merged_by", sa.String(length=120), nullable=False),
        sa.Column("household_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["household_id"], ["households.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("player_id", "absorbed_key"),
    )
    with op.batch_alter_table("player_merges", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_player_merges_household_id"), ["household_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_player_merges_player_id"), ["player_id"], unique=False)
    with op.batch_alter_table("restore_jobs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("notes", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("restore_jobs", schema=None) as batch_op:
        batch_op.drop_column("notes")
    with op.batch_alter_table("player_merges", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_merges_player_id"))
        batch_op.drop_index(batch_op.f("ix_player_merges_household_id"))
    op.drop_table("player_merges")
