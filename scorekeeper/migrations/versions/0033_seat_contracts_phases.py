"""seat_contracts.phases: a kept contract is a phase where its game's deck is Phase 10's (issue
51), so that a player's page counts their phases apart from their standard games' contracts

Revision ID: 0033
Revises: 0032
Create Date: 2026-12-08

Every household's statistics are counted again (at the end of the migrations): the kept rows
of a Phase 10 game say they are phases, and each player's row keeps its phases apart.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0033"
down_revision = "0032"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seat_contracts") as table:
        table.add_column(
            sa.Column("phases", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        table.drop_index("ix_seat_contracts_player")
        table.create_index(
            "ix_seat_contracts_player",
            ["household_id", "player_id", "phases", "contract", "rounds", "made"],
            unique=False,
        )
    from scorekeeper.history import stats

    stats.rebuild_all(op.get_bind())


def downgrade() -> None:
    with op.batch_alter_table("seat_contracts") as table:
        table.drop_index("ix_seat_contracts_player")
        table.create_index(
            "ix_seat_contracts_player",
            ["household_id", "player_id", "contract", "rounds", "made"],
            unique=False,
        )
        table.drop_column("phases")
