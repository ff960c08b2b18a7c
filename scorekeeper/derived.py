"""The derived tables: what is computed from a household's games and kept, so that no page
replays or aggregates every game: the kept statistics (``history.stats``: a row per game, per
seat, per contract made, per player, and the household's statistics version) and the skill
ratings (``history.ratings``). Every row can be rebuilt from the games at will, and a test
compares each with a computation from scratch.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column

from .extensions import Model
from .models import HouseholdOwned, UTCDateTime

# Marks a connection running the migrations (``migrations/env.py``), and one on which a
# migration asked for every household's statistics, or ratings, to be made again: done once
# the last migration has run, when the tables are those today's code counts with.
MIGRATING = "scorekeeper.migrating"
STATS_WANTED = "scorekeeper.stats_rebuild_wanted"
RATINGS_WANTED = "scorekeeper.ratings_replay_wanted"


class GameStat(HouseholdOwned, Model):
    """What one game (out of the bin) counts for in the history: kept by ``history.stats`` in
    the same transaction as every change to the game, so the history pages read these narrow
    rows through their indexes instead of the games themselves."""

    __tablename__ = "game_stats"
    __table_args__ = (
        Index("ix_game_stats_started", "household_id", "started", "game_id"),
        Index("ix_game_stats_status", "household_id", "status", "started", "game_id"),
        Index("ix_game_stats_rules", "household_id", "rules_slug", "started", "game_id"),
        Index("ix_game_stats_rules_name", "household_id", "rules_slug", "rules_name", "game_id"),
        Index("ix_game_stats_length", "household_id", "status", "round_count", "started"),
        Index(
            "ix_game_stats_fastest",
            "household_id",
            "status",
            "twelve_step",
            "round_count",
            "started",
        ),
    )

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    status: Mapped[str] = mapped_column(String(20))
    started: Mapped[datetime] = mapped_column(UTCDateTime)
    rules_slug: Mapped[str] = mapped_column(String(80))
    rules_name: Mapped[str] = mapped_column(String(80))
    round_count: Mapped[int] = mapped_column(Integer)
    players: Mapped[int] = mapped_column(Integer)
    # Played under 12-Step (the preset, or house rules built on it): the fastest games record.
    twelve_step: Mapped[bool] = mapped_column(Boolean)
    # The first winner by seat, for the fastest and longest games records.
    winner_id: Mapped[int | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), index=True
    )


class SeatStat(HouseholdOwned, Model):
    """One player's result in one game out of the bin, with what the statistics need of the
    game beside it; rewritten with its game's ``GameStat``."""

    __tablename__ = "seat_stats"
    __table_args__ = (
        UniqueConstraint("game_id", "player_id"),
        # Household first: SQLite, without statistics, takes the index matching most terms.
        Index("ix_seat_stats_player", "household_id", "player_id", "started", "game_id"),
        Index("ix_seat_stats_totals", "household_id", "player_id", "status", "total"),
        # Covers a player's finished games in order (streaks) and their places (head to head).
        Index(
            "ix_seat_stats_finished",
            "household_id",
            "player_id",
            "status",
            "started",
            "game_id",
            "is_winner",
            "place",
        ),
        # Covers the sums of a player's row (read from the index alone, never the table).
        Index(
            "ix_seat_stats_sums",
            "household_id",
            "player_id",
            "rules_slug",
            "status",
            "rules_name",
            "is_winner",
            "total",
            "round_count",
            "started",
        ),
        Index("ix_seat_stats_game", "game_id", "player_id", "place"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(20))
    started: Mapped[datetime] = mapped_column(UTCDateTime)
    rules_slug: Mapped[str] = mapped_column(String(80))
    rules_name: Mapped[str] = mapped_column(String(80))
    round_count: Mapped[int] = mapped_column(Integer)
    players: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    place: Mapped[int | None] = mapped_column(Integer)
    is_winner: Mapped[bool] = mapped_column(Boolean)
    # Each player keeps their own contract in this game (``history.stats.kept_contract``).
    kept_contract: Mapped[bool] = mapped_column(Boolean)
    # The player sat from the game's first round to its last: a game left early or joined late
    # counts its rounds and the points scored in them (``round_count``, ``total``: what points
    # a round add up), never among the best and worst totals.
    whole: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # The rounds the seat was dealt into where it did not play the whole game, as
    # [[first, last], ...] (``history.played``): whom it shared a round with (head to head,
    # ratings). None for a whole game.
    stretches: Mapped[list[list[int]] | None] = mapped_column(JSON, default=None)


class SeatContract(HouseholdOwned, Model):
    """How one contract went for one player in one game where each keeps their own contract:
    rounds spent on it, and made (1 or 0); rewritten with its game's ``GameStat``."""

    __tablename__ = "seat_contracts"
    __table_args__ = (
        UniqueConstraint("game_id", "player_id", "contract"),
        Index(
            "ix_seat_contracts_player",
            "household_id",
            "player_id",
            "phases",
            "contract",
            "rounds",
            "made",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    contract: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    made: Mapped[int] = mapped_column(Integer)
    # The game's contracts are phases (a Phase 10 deck's): a player's phase 2 is not their
    # 12-Step contract 2, and their page counts the two apart (``history.stats.says_phases``).
    phases: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class PlayerStat(HouseholdOwned, Model):
    """A player's statistics over every game out of the bin, recomputed from their
    ``SeatStat`` rows whenever one of their games changes: the players and records pages read
    one such row per player. ``detail`` holds the profile (per rules, head to head, contracts,
    best and worst game) and the candidates for the records (best streaks and totals)."""

    __tablename__ = "player_stats"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    games: Mapped[int] = mapped_column(Integer)
    finished: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    in_progress: Mapped[int] = mapped_column(Integer)
    abandoned: Mapped[int] = mapped_column(Integer)
    last_played: Mapped[datetime | None] = mapped_column(UTCDateTime)
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)


class StatsVersion(HouseholdOwned, Model):
    """Moves on every change to a household's kept statistics: the history pages' ETag."""

    __tablename__ = "stats_versions"
    __table_args__ = (UniqueConstraint("household_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    version: Mapped[int] = mapped_column(Integer, default=0)


class RatingStep(HouseholdOwned, Model):
    """A player's skill rating in one pool (every rule set, ``pool`` empty, or one rule set,
    its slug) just after one finished game: derived by ``history.ratings`` from the games'
    standings in order of play, and replayed from a changed game onwards. ``game_id`` is no
    foreign key: the steps of a game removed outright must still say where the replay starts."""

    __tablename__ = "rating_steps"
    __table_args__ = (
        UniqueConstraint("game_id", "player_id", "pool"),
        # A player's course in a pool, and their rating just before a game (the replay's start).
        Index("ix_rating_steps_player", "household_id", "player_id", "pool", "started", "game_id"),
        # Everything from a game onwards (what a replay removes first).
        Index("ix_rating_steps_started", "household_id", "started", "game_id"),
        Index("ix_rating_steps_game", "household_id", "game_id", "pool"),
        # A player's course read every so many games (``history.rating_chart``).
        Index("ix_rating_steps_course", "household_id", "player_id", "pool", "games"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    pool: Mapped[str] = mapped_column(String(80))
    started: Mapped[datetime] = mapped_column(UTCDateTime)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    # The games this rating rests on, this one included.
    games: Mapped[int] = mapped_column(Integer)
    # What the shown rating (``history.rating_model.shown``) moved by in this game.
    change: Mapped[float] = mapped_column(Float)


class PlayerRating(HouseholdOwned, Model):
    """A player's rating now in one pool (their latest ``RatingStep`` there), what the players
    pages read and sort by."""

    __tablename__ = "player_ratings"
    __table_args__ = (Index("ix_player_ratings_pool", "household_id", "pool", "shown"),)

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    pool: Mapped[str] = mapped_column(String(80), primary_key=True)
    pool_name: Mapped[str] = mapped_column(String(80))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    shown: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


class RatingMark(HouseholdOwned, Model):
    """ "The household's ratings are stale from this game on": left by a save whose change
    would replay more games than a save may (``history.ratings.refresh``), and taken away by the
    worker that replays them (``history.rating_worker``), in the same transaction as the last
    steps it writes. Kept in the database so that a server stopped mid-replay finishes it when
    it starts again; while a household has one, its pages say its ratings are being brought up
    to date instead of showing any."""

    __tablename__ = "rating_marks"

    id: Mapped[int] = mapped_column(primary_key=True)
    # Where the replay starts: the game's (started, game id), the replay's own order.
    started: Mapped[datetime] = mapped_column(UTCDateTime)
    game_id: Mapped[int] = mapped_column(Integer)


class RestoreMark(HouseholdOwned, Model):
    """ "A restore stored games that the kept statistics, records and ratings do not count yet":
    left by a restore in the transaction of its first batch that stores a game (its Core
    inserts pass the statistics by), moved on by each later batch, and taken away by the
    rebuild at its end, in the transaction that commits the rebuilt statistics
    (``history.restore_end``). A restore cut short by a stop of its server leaves it in the
    database, and the next server to look rebuilds from the games and takes it away; while a
    household has one, its history pages say a restore is being finished."""

    __tablename__ = "restore_marks"
    __table_args__ = (UniqueConstraint("run"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # One reading of a file: each of its batches finds its mark by this (a batch rolled back
    # made none), and its own rebuild knows it from another's.
    run: Mapped[str] = mapped_column(String(32))
    # The restore's job (``RestoreJob``), told how it ended; none for the command line's.
    job_id: Mapped[int | None] = mapped_column(Integer)
    # How far the file is stored: the last line of its last committed batch, and what became
    # of its lines up to there.
    lines: Mapped[int] = mapped_column(Integer)
    stored: Mapped[int] = mapped_column(Integer)
    already: Mapped[int] = mapped_column(Integer)
    refused: Mapped[int] = mapped_column(Integer)
    # Every line was read and stored: only the rebuild was left to do.
    read_whole: Mapped[bool] = mapped_column(Boolean, default=False)


class RatingReplay(HouseholdOwned, Model):
    """The pace of a household's replays left to the worker (``history.rating_worker``): where
    the one under way has reached (its own mark, told apart from a save's), and when the last
    one ended or was given up for an earlier change. The next starts no sooner than
    ``RATINGS_REPLAY_COOL_DOWN_SECONDS`` after that, covering every mark left meanwhile. In the
    database, as the marks are, so that every server process keeps the same pace."""

    __tablename__ = "rating_replays"
    __table_args__ = (UniqueConstraint("household_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # The replay under way goes on from this game's (started, game id); none: none is.
    reached_started: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    reached_game_id: Mapped[int | None] = mapped_column(Integer, default=None)
    # When the replay under way began (its parts tell it from another by this), and when the
    # last one ended.
    began: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    ended: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
