"""users.language and households.language: the language a member chose for their pages (none:
as their browser says), and the household's, for phones whose browser names none the app has
and for what is written where no browser asks (none: English); issue 41

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as table:
        table.add_column(sa.Column("language", sa.String(length=16), nullable=True))
    with op.batch_alter_table("households") as table:
        table.add_column(sa.Column("language", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("households") as table:
        table.drop_column("language")
    with op.batch_alter_table("users") as table:
        table.drop_column("language")
