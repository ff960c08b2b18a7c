"""sign_in_attempts: the passwords tried lately, counted by every process and server alike

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sign_in_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sign_in_attempts")),
    )
    op.create_index("ix_sign_in_attempts_key_at", "sign_in_attempts", ["key", "at"])
    op.create_index(op.f("ix_sign_in_attempts_at"), "sign_in_attempts", ["at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_sign_in_attempts_at"), table_name="sign_in_attempts")
    op.drop_index("ix_sign_in_attempts_key_at", table_name="sign_in_attempts")
    op.drop_table("sign_in_attempts")
