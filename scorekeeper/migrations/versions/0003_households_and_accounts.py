"""households, accounts, sessions and links; every family row belongs to a household

A database made before households holds one family: its players, games, rounds, house rules
and change log move, unchanged, into one household named "Family" with no members, which the
first-run setup then gives its owner. Every game gets the uid its game file travels with.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

OWNED = ("players", "house_rules", "games", "seats", "rounds", "hands", "game_events")


def upgrade() -> None:
    op.create_table(
        "households",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("name_key", sa.String(length=60), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_households")),
        sa.UniqueConstraint("name_key", name=op.f("uq_households_name_key")),
    )

    connection = op.get_bind()
    holds_data = any(
        # The table names are this migration's own, from the tuple below (bandit B608).
        connection.execute(sa.text(f"SELECT 1 FROM {table} LIMIT 1")).first()  # nosec B608
        is not None
        for table in ("players", "games", "house_rules")
    )
    household_id = None
    if holds_data:
        households = sa.table(
            "households",
            sa.column("id", sa.Integer),
            sa.column("name", sa.String),
            sa.column("name_key", sa.String),
            sa.column("created_at", sa.DateTime),
        )
        connection.execute(
            households.insert().values(
                name="Family",
                name_key="family",
                created_at=datetime.now(UTC).replace(tzinfo=None),
            )
        )
        household_id = connection.execute(sa.text("SELECT id FROM households")).scalar_one()

    for table in OWNED:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("household_id", sa.Integer(), nullable=True))
        if household_id is not None:
            connection.execute(
                sa.text(f"UPDATE {table} SET household_id = :household"),  # nosec B608: own names
                {"household": household_id},
            )

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("uid", sa.String(length=64), nullable=True))
    games = sa.table("games", sa.column("id", sa.Integer), sa.column("uid", sa.String))
    for (game_id,) in connection.execute(sa.text("SELECT id FROM games")).all():
        connection.execute(
            games.update().where(games.c.id == game_id).values(uid=str(uuid.uuid4()))
        )
    with op.batch_alter_table("game_events", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("actor", sa.String(length=120), nullable=False, server_default="")
        )

    for table in OWNED:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.alter_column("household_id", existing_type=sa.Integer(), nullable=False)
            batch_op.create_index(f"ix_{table}_household_id", ["household_id"], unique=False)
            batch_op.create_foreign_key(
                f"fk_{table}_household_id_households",
                "households",
                ["household_id"],
                ["id"],
                ondelete="CASCADE",
            )

    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_constraint("uq_players_name_key", type_="unique")
        batch_op.create_unique_constraint(
            "uq_players_household_id_name_key", ["household_id", "name_key"]
        )
    with op.batch_alter_table("house_rules", schema=None) as batch_op:
        batch_op.drop_constraint("uq_house_rules_slug", type_="unique")
        batch_op.create_unique_constraint(
            "uq_house_rules_household_id_slug", ["household_id", "slug"]
        )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.alter_column("uid", existing_type=sa.String(length=64), nullable=False)
        batch_op.create_unique_constraint("uq_games_household_id_uid", ["household_id", "uid"])
        # The history reads one household's games: its id leads the covering indexes.
        batch_op.drop_index("ix_games_status_started")
        batch_op.create_index(
            "ix_games_status_started", ["household_id", "status", "started"], unique=False
        )
        batch_op.drop_index("ix_games_summary")
        batch_op.create_index(
            "ix_games_summary",
            [
                "household_id",
                "status",
                "started",
                "round_count",
                "rules_slug",
                "rules_name",
                "updated_at",
            ],
            unique=False,
        )
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_index("ix_seats_game_summary")
        batch_op.create_index(
            "ix_seats_game_summary",
            ["game_id", "player_id", "is_winner", "place", "total", "household_id"],
            unique=False,
        )
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.drop_index("ix_hands_seat_contract")
        batch_op.create_index(
            "ix_hands_seat_contract",
            ["seat_id", "contract", "made_contract", "household_id"],
            unique=False,
        )

    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(length=60), nullable=False),
        sa.Column("username_key", sa.String(length=60), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("is_admin", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("household_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["household_id"],
            ["households.id"],
            name=op.f("fk_users_household_id_households"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("username_key", name=op.f("uq_users_username_key")),
    )
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.create_index("ix_users_household_id", ["household_id"], unique=False)

    op.create_table(
        "user_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("last_seen", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_user_sessions_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_user_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_user_sessions_token_hash")),
    )
    with op.batch_alter_table("user_sessions", schema=None) as batch_op:
        batch_op.create_index("ix_user_sessions_user_id", ["user_id"], unique=False)

    op.create_table(
        "links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("role", sa.String(length=20), nullable=True),
        sa.Column("nonce", sa.String(length=64), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("made_by", sa.String(length=60), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=True),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
        sa.Column("used_at", sa.DateTime(), nullable=True),
        sa.Column("household_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_links_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["household_id"],
            ["households.id"],
            name=op.f("fk_links_household_id_households"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_links")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_links_token_hash")),
    )
    with op.batch_alter_table("links", schema=None) as batch_op:
        batch_op.create_index("ix_links_game_id", ["game_id"], unique=False)
        batch_op.create_index("ix_links_household_id", ["household_id"], unique=False)


def downgrade() -> None:
    op.drop_table("links")
    op.drop_table("user_sessions")
    op.drop_table("users")
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.drop_index("ix_hands_seat_contract")
        batch_op.create_index(
            "ix_hands_seat_contract", ["seat_id", "contract", "made_contract"], unique=False
        )
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_index("ix_seats_game_summary")
        batch_op.create_index(
            "ix_seats_game_summary",
            ["game_id", "player_id", "is_winner", "place", "total"],
            unique=False,
        )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_summary")
        batch_op.create_index(
            "ix_games_summary",
            ["status", "started", "round_count", "rules_slug", "rules_name", "updated_at"],
            unique=False,
        )
        batch_op.drop_index("ix_games_status_started")
        batch_op.create_index("ix_games_status_started", ["status", "started"], unique=False)
        batch_op.drop_constraint("uq_games_household_id_uid", type_="unique")
        batch_op.drop_column("uid")
    with op.batch_alter_table("house_rules", schema=None) as batch_op:
        batch_op.drop_constraint("uq_house_rules_household_id_slug", type_="unique")
        batch_op.create_unique_constraint("uq_house_rules_slug", ["slug"])
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_constraint("uq_players_household_id_name_key", type_="unique")
        batch_op.create_unique_constraint("uq_players_name_key", ["name_key"])
    with op.batch_alter_table("game_events", schema=None) as batch_op:
        batch_op.drop_column("actor")
    for table in OWNED:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint(f"fk_{table}_household_id_households", type_="foreignkey")
            batch_op.drop_index(f"ix_{table}_household_id")
            batch_op.drop_column("household_id")
    op.drop_table("households")
