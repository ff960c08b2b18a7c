"""links.year: the year a review link shows (issue 26, the year in review)

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("links", schema=None) as batch_op:
        batch_op.add_column(sa.Column("year", sa.Integer(), nullable=True))


def downgrade() -> None:
    # The review links go with their column: without a year they would open nothing.
    op.execute(sa.text("DELETE FROM links WHERE kind = 'review'"))
    with op.batch_alter_table("links", schema=None) as batch_op:
        batch_op.drop_column("year")
