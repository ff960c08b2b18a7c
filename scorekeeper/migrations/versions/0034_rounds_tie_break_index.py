"""ix_rounds_tie_break_hand: the rounds that are tie-break hands, by game and household (a
partial index, of those rows alone), so that a history page finds which of its games played
one by their ids, not by reading every round of the household

Revision ID: 0034
Revises: 0033
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0034"
down_revision = "0033"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_rounds_tie_break_hand",
        "rounds",
        ["game_id", "household_id"],
        unique=False,
        sqlite_where=sa.text("tie_break_hand = 1"),
        postgresql_where=sa.text("tie_break_hand"),
    )


def downgrade() -> None:
    op.drop_index("ix_rounds_tie_break_hand", table_name="rounds")
