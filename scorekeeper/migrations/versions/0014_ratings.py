"""rating_steps and player_ratings: the players' skill ratings (issue 26), filled from the
kept statistics of every household

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from scorekeeper.history import ratings

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating_steps",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("pool", sa.String(length=80), nullable=False),
        sa.Column("started", sa.DateTime(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("change", sa.Float(), nullable=False),
        sa.Column("household_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["household_id"], ["households.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "player_id", "pool"),
    )
    with op.batch_alter_table("rating_steps", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_rating_steps_household_id"), ["household_id"], unique=False
        )
        batch_op.create_index(
            "ix_rating_steps_player",
            ["household_id", "player_id", "pool", "started", "game_id"],
            unique=False,
        )
        batch_op.create_index(
            "ix_rating_steps_started", ["household_id", "started", "game_id"], unique=False
        )
        batch_op.create_index(
            "ix_rating_steps_game", ["household_id", "game_id", "pool"], unique=False
        )
        batch_op.create_index(
            "ix_rating_steps_course",
            ["household_id", "player_id", "pool", "games"],
            unique=False,
        )
    op.create_table(
        "player_ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("pool", sa.String(length=80), nullable=False),
        sa.Column("pool_name", sa.String(length=80), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("shown", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("household_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["household_id"], ["households.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id", "pool"),
    )
    with op.batch_alter_table("player_ratings", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_player_ratings_household_id"), ["household_id"], unique=False
        )
        batch_op.create_index(
            "ix_player_ratings_pool", ["household_id", "pool", "shown"], unique=False
        )
    ratings.rebuild_all(op.get_bind())


def downgrade() -> None:
    with op.batch_alter_table("player_ratings", schema=None) as batch_op:
        batch_op.drop_index("ix_player_ratings_pool")
        batch_op.drop_index(batch_op.f("ix_player_ratings_household_id"))
    op.drop_table("player_ratings")
    with op.batch_alter_table("rating_steps", schema=None) as batch_op:
        batch_op.drop_index("ix_rating_steps_course")
        batch_op.drop_index("ix_rating_steps_game")
        batch_op.drop_index("ix_rating_steps_started")
        batch_op.drop_index("ix_rating_steps_player")
        batch_op.drop_index(batch_op.f("ix_rating_steps_household_id"))
    op.drop_table("rating_steps")
