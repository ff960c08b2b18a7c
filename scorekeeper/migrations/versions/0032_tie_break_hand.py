"""rounds.tie_break_hand: the tie-break hand the tied players alone play after a game's last
round, where the rules play one (Phase 10's ``tie_break: replay``, issue 51); its points count
in no total

Revision ID: 0032
Revises: 0031
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0032"
down_revision = "0031"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # No round stored before was a tie-break hand: false, the server's default for those rows.
    with op.batch_alter_table("rounds") as table:
        table.add_column(
            sa.Column("tie_break_hand", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("rounds") as table:
        table.drop_column("tie_break_hand")
