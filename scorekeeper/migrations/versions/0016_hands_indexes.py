"""hands: the indexes on round_id and on seat_id dropped, as the unique (round_id, seat_id) and
ix_hands_seat_contract (seat_id, ...) serve the same reads and every hand stored paid for them
(issue 26, item 4: a restore's hands)

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-25
"""

from __future__ import annotations

from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_hands_seat_id"))
        batch_op.drop_index(batch_op.f("ix_hands_round_id"))


def downgrade() -> None:
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_hands_round_id"), ["round_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_hands_seat_id"), ["seat_id"], unique=False)
