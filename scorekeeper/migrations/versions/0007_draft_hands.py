"""draft_hands: the round in progress, one hand a seat, entered on each player's phone

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "draft_hands",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("cards", sa.String(length=400), nullable=False),
        sa.Column("made_contract", sa.Boolean(), nullable=False),
        sa.Column("went_out", sa.Boolean(), nullable=False),
        sa.Column("done", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("household_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["household_id"], ["households.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "number", "position"),
    )
    with op.batch_alter_table("draft_hands", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_draft_hands_game_id"), ["game_id"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_draft_hands_household_id"), ["household_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("draft_hands", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_draft_hands_household_id"))
        batch_op.drop_index(batch_op.f("ix_draft_hands_game_id"))
    op.drop_table("draft_hands")
