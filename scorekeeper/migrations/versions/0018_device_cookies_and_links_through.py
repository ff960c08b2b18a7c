"""refused_sign_ins, and links.through_id: the wrong passwords an owner sees, and the link a
link was made through (issue 36)

Revision ID: 0018
Revises: 0016
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0016"
branch_labels = None
depends_on = None

NEVER_AGAIN = {"sqlite_autoincrement": True}


def upgrade() -> None:
    op.create_table(
        "refused_sign_ins",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("known_device", sa.Boolean(), nullable=False),
        sa.Column("household_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["household_id"], ["households.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("refused_sign_ins", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_refused_sign_ins_at"), ["at"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_refused_sign_ins_household_id"), ["household_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_refused_sign_ins_user_id"), ["user_id"], unique=False)
    # SQLite rebuilds the table for its foreign key: it keeps never giving an id again (0010).
    with op.batch_alter_table("links", table_kwargs=NEVER_AGAIN) as batch_op:
        batch_op.add_column(sa.Column("through_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_links_through_id"), ["through_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_links_through_id_links"),
            "links",
            ["through_id"],
            ["id"],
            ondelete="CASCADE",
        )


def downgrade() -> None:
    # A link made through another goes with the column: kept, it would outlive that link.
    op.execute(sa.text("DELETE FROM links WHERE through_id IS NOT NULL"))
    with op.batch_alter_table("links", table_kwargs=NEVER_AGAIN) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_links_through_id_links"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_links_through_id"))
        batch_op.drop_column("through_id")
    with op.batch_alter_table("refused_sign_ins", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_refused_sign_ins_user_id"))
        batch_op.drop_index(batch_op.f("ix_refused_sign_ins_household_id"))
        batch_op.drop_index(batch_op.f("ix_refused_sign_ins_at"))
    op.drop_table("refused_sign_ins")
