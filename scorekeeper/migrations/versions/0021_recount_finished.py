"""The kept statistics counted again: a player's points a round now counts finished games only,
as Games and Wins beside it do (issue 37); the rows kept before counted every game's rounds

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-26
"""

from __future__ import annotations

from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # No table changes: every household's kept rows are made again from its games, as 0008
    # first made them, so no player keeps a figure counted the old way until their next game.
    from scorekeeper.history import stats

    stats.rebuild_all(op.get_bind())


def downgrade() -> None:
    # The old count is not made again: the rows stay as the new code counts them.
    pass
