"""game_stats, seat_stats, player_stats, stats_versions: the history's kept statistics, filled
for the games already held

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def _household() -> sa.Column[int]:
    return sa.Column("household_id", sa.Integer(), nullable=False)


def _household_key(_table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["household_id"], ["households.id"], ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "game_stats",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("started", sa.DateTime(), nullable=False),
        sa.Column("rules_slug", sa.String(length=80), nullable=False),
        sa.Column("rules_name", sa.String(length=80), nullable=False),
        sa.Column("round_count", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("twelve_step", sa.Boolean(), nullable=False),
        sa.Column("winner_id", sa.Integer(), nullable=True),
        _household(),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        _household_key("game_stats"),
        sa.ForeignKeyConstraint(["winner_id"], ["players.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    with op.batch_alter_table("game_stats", schema=None) as batch_op:
        batch_op.create_index(
            "ix_game_stats_fastest",
            ["household_id", "status", "twelve_step", "round_count", "started"],
            unique=False,
        )
        batch_op.create_index(
            batch_op.f("ix_game_stats_household_id"), ["household_id"], unique=False
        )
        batch_op.create_index(
            "ix_game_stats_length",
            ["household_id", "status", "round_count", "started"],
            unique=False,
        )
        batch_op.create_index(
            "ix_game_stats_rules",
            ["household_id", "rules_slug", "started", "game_id"],
            unique=False,
        )
        batch_op.create_index(
            "ix_game_stats_rules_name",
            ["household_id", "rules_slug", "rules_name", "game_id"],
            unique=False,
        )
        batch_op.create_index(
            "ix_game_stats_started", ["household_id", "started", "game_id"], unique=False
        )
        batch_op.create_index(
            "ix_game_stats_status",
            ["household_id", "status", "started", "game_id"],
            unique=False,
        )
        batch_op.create_index(batch_op.f("ix_game_stats_winner_id"), ["winner_id"], unique=False)

    op.create_table(
        "seat_stats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("started", sa.DateTime(), nullable=False),
        sa.Column("rules_slug", sa.String(length=80), nullable=False),
        sa.Column("rules_name", sa.String(length=80), nullable=False),
        sa.Column("round_count", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("is_winner", sa.Boolean(), nullable=False),
        sa.Column("kept_contract", sa.Boolean(), nullable=False),
        _household(),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        _household_key("seat_stats"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "player_id"),
    )
    with op.batch_alter_table("seat_stats", schema=None) as batch_op:
        batch_op.create_index("ix_seat_stats_game", ["game_id", "player_id", "place"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_seat_stats_household_id"), ["household_id"], unique=False
        )
        batch_op.create_index(
            "ix_seat_stats_player",
            ["household_id", "player_id", "started", "game_id"],
            unique=False,
        )
        batch_op.create_index(
            "ix_seat_stats_finished",
            ["household_id", "player_id", "status", "started", "game_id", "is_winner", "place"],
            unique=False,
        )
        batch_op.create_index(
            "ix_seat_stats_sums",
            [
                "household_id",
                "player_id",
                "rules_slug",
                "status",
                "rules_name",
                "is_winner",
                "total",
                "round_count",
                "started",
            ],
            unique=False,
        )
        batch_op.create_index(
            "ix_seat_stats_totals",
            ["household_id", "player_id", "status", "total"],
            unique=False,
        )

    op.create_table(
        "seat_contracts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("contract", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("made", sa.Integer(), nullable=False),
        _household(),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        _household_key("seat_contracts"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "player_id", "contract"),
    )
    with op.batch_alter_table("seat_contracts", schema=None) as batch_op:
        batch_op.create_index(
            "ix_seat_contracts_player",
            ["household_id", "player_id", "contract", "rounds", "made"],
            unique=False,
        )
        batch_op.create_index(
            batch_op.f("ix_seat_contracts_household_id"), ["household_id"], unique=False
        )

    op.create_table(
        "player_stats",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("finished", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("in_progress", sa.Integer(), nullable=False),
        sa.Column("abandoned", sa.Integer(), nullable=False),
        sa.Column("last_played", sa.DateTime(), nullable=True),
        sa.Column("detail", sa.JSON(), nullable=False),
        _household(),
        _household_key("player_stats"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id"),
    )
    with op.batch_alter_table("player_stats", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_player_stats_household_id"), ["household_id"], unique=False
        )

    op.create_table(
        "stats_versions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        _household(),
        _household_key("stats_versions"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("household_id"),
    )
    with op.batch_alter_table("stats_versions", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_stats_versions_household_id"), ["household_id"], unique=False
        )

    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.create_index(
            "ix_seats_household_game", ["household_id", "game_id", "position"], unique=False
        )

    # The games already held count at once.
    from scorekeeper.history import stats

    stats.rebuild_all(op.get_bind())


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_index("ix_seats_household_game")
    for table in ("stats_versions", "player_stats", "seat_contracts", "seat_stats", "game_stats"):
        op.drop_table(table)
