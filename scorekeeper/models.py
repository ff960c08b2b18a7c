"""The family's records: players, house rules, games, their seats, rounds, hands and change log,
and who may reach them: households, accounts, their sessions and links.

Everything a family keeps carries its household (``HouseholdOwned``); ``scorekeeper.scope``
filters every query by it and fills it in on every insert, so no query names it itself.

A game keeps a frozen copy of its rules (``Game.rules``, the rules engine's ``to_dict()``) so
that a later change to a preset or a house rule never alters a game already played. The
columns on ``Seat`` and ``Game`` that summarise a game (totals, places, winners, contracts) are
recomputed from the rounds and the rules whenever a round changes; they exist so that the
history and statistics pages can aggregate in SQL without replaying every game.
"""

from __future__ import annotations

import enum
import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    ScalarSelect,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
    literal_column,
    select,
    text,
    true,
    update,
)
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.orm import Mapped, declared_attr, mapped_column, relationship

from . import scope
from .extensions import Model
from .limits import CARDS_LENGTH, NAME_LENGTH
from .scope import household_for_insert
from .status import GameStatus

USERNAME_LENGTH = NAME_LENGTH
# The password hash of an account with no password yet: no hash of anything looks like it.
NO_PASSWORD = "!none"
UID_LENGTH = 64
TIME_ZONE_LENGTH = 64
# A language's code as ``languages.LANGUAGES`` names it (``es``; room for ``pt-BR`` and more).
LANGUAGE_LENGTH = 16


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A moment in time, stored as naive UTC (SQLite has no time zones) and read back aware."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("UTCDateTime needs an aware datetime")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


# SQLite gives a deleted row's id to the next row unless told not to (AUTOINCREMENT): the tables
# whose ids appear in addresses and caches never give one again (PostgreSQL's sequences never
# do). Migration 0010.
NEVER_AGAIN: dict[str, Any] = {"sqlite_autoincrement": True}


def new_uid() -> str:
    return str(uuid.uuid4())


class Role(enum.StrEnum):
    """What an account may do in its household (``shared/spec/access.md``)."""

    OWNER = "owner"
    SCORER = "scorer"
    VIEWER = "viewer"


class LinkKind(enum.StrEnum):
    TABLE = "table"
    WATCH = "watch"
    INVITE = "invite"
    # One household's one year in review, read-only, for relatives with no account (issue 26).
    REVIEW = "review"


class Household(Model):
    """One family: everything it keeps is invisible to every other household."""

    __tablename__ = "households"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    name_key: Mapped[str] = mapped_column(String(NAME_LENGTH), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # An IANA name (``America/New_York``) the family reads its times in; None: the server's
    # (``local_time``). Times are stored in UTC all the same.
    time_zone: Mapped[str | None] = mapped_column(String(TIME_ZONE_LENGTH), default=None)
    # Whether its pages show the skill ratings (``history.ratings``): the owner's choice in
    # the household settings; off, every rating, move and leader is left out (still kept).
    ratings_shown: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # The language its pages speak to a phone whose browser names none the app has, and what
    # is written where no browser asks (``languages``); None: English.
    language: Mapped[str | None] = mapped_column(String(LANGUAGE_LENGTH), default=None)

    def __repr__(self) -> str:
        return f"<Household {self.id} {self.name!r}>"


class HouseholdOwned:
    """A row that belongs to one household: filtered and filled in by ``scorekeeper.scope``."""

    @declared_attr
    def household_id(cls) -> Mapped[int]:
        return mapped_column(
            ForeignKey("households.id", ondelete="CASCADE"),
            index=True,
            default=household_for_insert,
        )


class Binnable:
    """A row that goes to the household's bin when deleted, for 30 days, before it is gone:
    ``scorekeeper.scope`` hides it from every query meanwhile."""

    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    deleted_by: Mapped[str | None] = mapped_column(String(120), default=None)


class User(HouseholdOwned, Model):
    """A person's account: one household, one role. The server's first account administers it."""

    __tablename__ = "users"
    __table_args__ = NEVER_AGAIN

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(USERNAME_LENGTH))
    username_key: Mapped[str] = mapped_column(String(USERNAME_LENGTH), unique=True)
    # ``NO_PASSWORD`` for a member a restore brought back: nobody signs in as them until a
    # password is set (``users password``).
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(20))
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # The language the member chose for their pages, on every phone (``languages``); None: as
    # their browser says.
    language: Mapped[str | None] = mapped_column(String(LANGUAGE_LENGTH), default=None)

    household: Mapped[Household] = relationship(lazy="joined")

    @property
    def has_password(self) -> bool:
        return self.password_hash != NO_PASSWORD

    def __repr__(self) -> str:
        return f"<User {self.id} {self.username!r} {self.role}>"


class UserSession(Model):
    """One signed-in browser. The cookie holds a random token; only its hash is kept here, so
    that signing out, or changing a password, ends the session wherever the cookie is."""

    __tablename__ = "user_sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_seen: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    user: Mapped[User] = relationship(lazy="joined")


class SignInAttempt(Model):
    """A password tried (at sign-in, or as the current one on the account page), under the
    account's name and under the address it came from: ``accounts.throttle`` counts them, so
    every process and server on the database shares one count."""

    __tablename__ = "sign_in_attempts"
    __table_args__ = (Index("ix_sign_in_attempts_key_at", "key", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # "account:<name key>" or "address:<IP address>"
    key: Mapped[str] = mapped_column(String(300))
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)


class RefusedSignIn(HouseholdOwned, Model):
    """A wrong password given for one of the household's accounts at sign-in: its owner sees
    the recent ones on the members page (who, when, from where, from a known device or not)."""

    __tablename__ = "refused_sign_ins"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    address: Mapped[str] = mapped_column(String(64))
    known_device: Mapped[bool] = mapped_column(Boolean, default=False)

    user: Mapped[User] = relationship()


class Link(HouseholdOwned, Model):
    """A table link, a watch link (both for one game), a review link (one ``year`` of the
    household's, its year in review) or an invitation to join the household.

    The token is derived from ``nonce`` and the server's secret key, and stored only as its
    hash: the database alone lets nobody in, and the scoreboard can show a link's QR again.
    """

    __tablename__ = "links"
    __table_args__ = NEVER_AGAIN

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    role: Mapped[str | None] = mapped_column(String(20))
    # The year a review link shows; None for every other kind.
    year: Mapped[int | None] = mapped_column(Integer)
    nonce: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    made_by: Mapped[str] = mapped_column(String(USERNAME_LENGTH))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # The link this one was made through (Share on a table-link phone): it ends when that does.
    through_id: Mapped[int | None] = mapped_column(
        ForeignKey("links.id", ondelete="CASCADE"), index=True
    )

    game: Mapped[Game | None] = relationship()
    through: Mapped[Link | None] = relationship(remote_side=[id])


class Player(HouseholdOwned, Model):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("household_id", "name_key"), NEVER_AGAIN)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    name_key: Mapped[str] = mapped_column(String(NAME_LENGTH))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    seats: Mapped[list[Seat]] = relationship(back_populates="player")

    def __repr__(self) -> str:
        return f"<Player {self.id} {self.name!r}>"


class PlayerMerge(HouseholdOwned, Model):
    """That the entry named ``absorbed_name`` was merged into ``player``
    (``players.services.merge``): kept so that a household's backup carries its merges, and a
    restore applies each once."""

    __tablename__ = "player_merges"
    __table_args__ = (UniqueConstraint("player_id", "absorbed_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    absorbed_name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    absorbed_key: Mapped[str] = mapped_column(String(NAME_LENGTH))
    merged_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    merged_by: Mapped[str] = mapped_column(String(120), default=scope.actor)

    player: Mapped[Player] = relationship()


class HouseRules(HouseholdOwned, Binnable, Model):
    """A family's own rule set: a preset with some options changed, saved under a name."""

    __tablename__ = "house_rules"
    __table_args__ = (UniqueConstraint("household_id", "slug"), NEVER_AGAIN)

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(80))
    name: Mapped[str] = mapped_column(String(80))
    base: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class Game(HouseholdOwned, Binnable, Model):
    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_status_started", "household_id", "status", "started"),
        UniqueConstraint("household_id", "uid"),
        # Covers the history's scans of finished games: on SQLite the frozen rules make each
        # row long, and reading a column stored after them means reading the whole row.
        Index(
            "ix_games_summary",
            "household_id",
            "status",
            "started",
            "round_count",
            "rules_slug",
            "rules_name",
            "updated_at",
        ),
        NEVER_AGAIN,
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # The game's identity wherever its game file travels: a restore skips a game it holds.
    uid: Mapped[str] = mapped_column(String(UID_LENGTH), default=new_uid)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    rules_slug: Mapped[str] = mapped_column(String(80), index=True)
    rules_name: Mapped[str] = mapped_column(String(80))
    status: Mapped[str] = mapped_column(String(20), default=GameStatus.IN_PROGRESS.value)
    started: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    ended: Mapped[datetime | None] = mapped_column(UTCDateTime)
    first_dealer: Mapped[int] = mapped_column(Integer, default=0)
    round_count: Mapped[int] = mapped_column(Integer, default=0)
    tie_break: Mapped[str | None] = mapped_column(Text)
    # Bumped on every change; scoreboards poll it to know when to redraw.
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)
    # The last round undone, kept whole (who went out, every hand as stored, when it was saved)
    # so that the board can offer to put it back for as long as its undo was offered
    # (``games.rounds.put_back``); None once a round is saved or deleted in its place.
    undone: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[Round]] = relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan"
    )
    events: Mapped[list[GameEvent]] = relationship(
        back_populates="game", order_by="GameEvent.id", cascade="all, delete-orphan"
    )


class Seat(HouseholdOwned, Model):
    """A player's place at one game's table, and their standing in it."""

    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("game_id", "position"),
        UniqueConstraint("game_id", "player_id"),
        # The statistics read seats game by game without touching the table.
        Index(
            "ix_seats_game_summary",
            "game_id",
            "player_id",
            "is_winner",
            "place",
            "total",
            "household_id",
        ),
        # A game's seats, as every scoped query asks for them (household and game): without
        # it SQLite picks the household's index and reads every seat of the family.
        Index("ix_seats_household_game", "household_id", "game_id", "position"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer, default=0)
    contract: Mapped[int] = mapped_column(Integer, default=1)
    contracts_made: Mapped[int] = mapped_column(Integer, default=0)
    place: Mapped[int | None] = mapped_column(Integer)
    is_winner: Mapped[bool] = mapped_column(Boolean, default=False)
    may_i_used: Mapped[int] = mapped_column(Integer, default=0)
    # The phone entering this seat's own hand (``games.seats``: a random id in its session),
    # or None while no phone holds it.
    phone: Mapped[str | None] = mapped_column(String(32))
    # Comings and goings (issue 43): the last round played by a player who left the game, and
    # the round a player joined before with the points they brought (None: there from the
    # start, to the end).
    left_after: Mapped[int | None] = mapped_column(Integer)
    joined_before: Mapped[int | None] = mapped_column(Integer)
    joined_total: Mapped[int] = mapped_column(Integer, default=0)
    # Comebacks (issue 49): each leave the player came back from, in order, as
    # ``[left_after, back_before, total or None]`` (None: back with the total they had); then
    # ``left_after`` is the last leave, where they did not come back, and ``joined_before`` the
    # first join. None where the player never came back.
    returns: Mapped[list[list[int | None]] | None] = mapped_column(JSON, default=None)

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(back_populates="seats", lazy="selectin")
    hands: Mapped[list[Hand]] = relationship(back_populates="seat")


class Round(HouseholdOwned, Model):
    __tablename__ = "rounds"
    __table_args__ = (
        UniqueConstraint("game_id", "number"),
        # The games of a history page that played a tie-break hand: a search of these few
        # rows by game, where the household's own index read every round of the household.
        Index(
            "ix_rounds_tie_break_hand",
            "game_id",
            "household_id",
            sqlite_where=text("tie_break_hand = 1"),
            postgresql_where=text("tie_break_hand"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    went_out_id: Mapped[int | None] = mapped_column(ForeignKey("seats.id"))
    # Whoever went out laid down their contract and went out on one turn: the rules'
    # down-and-out bonus counts in their points (only where the rules give one).
    went_out_in_one_turn: Mapped[bool] = mapped_column(Boolean, default=False)
    # The tie-break hand the tied players alone play after the game's last round (the rules'
    # ``tie_break: replay``): whoever went out wins; its points count in no total.
    tie_break_hand: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Bumped on every edit: a form that carries an older version was overtaken by another phone.
    version: Mapped[int] = mapped_column(Integer, default=1)
    # The token of the form that created the round: the same form sent twice stores one round.
    submission: Mapped[str | None] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    game: Mapped[Game] = relationship(back_populates="rounds")
    went_out: Mapped[Seat | None] = relationship(foreign_keys=[went_out_id])
    # A round is never shown without its hands: load them for all rounds at once.
    hands: Mapped[list[Hand]] = relationship(
        back_populates="round",
        cascade="all, delete-orphan",
        order_by="Hand.seat_id",
        lazy="selectin",
    )


class Hand(HouseholdOwned, Model):
    """What one player held when a round ended: leftover cards, points, contract made."""

    __tablename__ = "hands"
    __table_args__ = (
        UniqueConstraint("round_id", "seat_id"),
        # How long each contract held a player: read from the index alone.
        Index("ix_hands_seat_contract", "seat_id", "contract", "made_contract", "household_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # No index of their own: the unique (round, seat) serves a round's hands, and
    # ix_hands_seat_contract a seat's; each index more costs every hand stored (a restore
    # stores hundreds of thousands: docs/performance.md).
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"))
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))
    contract: Mapped[int] = mapped_column(Integer)
    made_contract: Mapped[bool] = mapped_column(Boolean, default=False)
    cards: Mapped[str] = mapped_column(String(CARDS_LENGTH), default="")
    points: Mapped[int] = mapped_column(Integer, default=0)
    # The points were typed as a total (a family counting on paper): ``cards`` is then empty.
    typed_total: Mapped[bool] = mapped_column(Boolean, default=False)

    round: Mapped[Round] = relationship(back_populates="hands")
    seat: Mapped[Seat] = relationship(back_populates="hands")


class GameEvent(HouseholdOwned, Model):
    """One line of a game's change log: what changed, when, and who changed it."""

    __tablename__ = "game_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    text: Mapped[str] = mapped_column(Text)
    # "Ann", "table link made by Ann", "command line"; empty for entries from before accounts.
    actor: Mapped[str] = mapped_column(String(120), default=scope.actor)

    game: Mapped[Game] = relationship(back_populates="events")


class DraftHand(HouseholdOwned, Model):
    """One seat's hand of the round being played, as that player's own phone entered it:
    the round in progress is kept on the server, one row a seat, so that two phones never
    overwrite each other and nothing typed is lost by a reload. ``games.drafts`` closes the
    rows of a round into a stored round and deletes them."""

    __tablename__ = "draft_hands"
    __table_args__ = (UniqueConstraint("game_id", "number", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)
    cards: Mapped[str] = mapped_column(String(CARDS_LENGTH), default="")
    made_contract: Mapped[bool] = mapped_column(Boolean, default=False)
    went_out: Mapped[bool] = mapped_column(Boolean, default=False)
    # Who went out says they went down and out in one turn (the rules' bonus).
    in_one_turn: Mapped[bool] = mapped_column(Boolean, default=False)
    # The player said "that's my hand": counted, not still being counted.
    done: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class RestoreStatus(enum.StrEnum):
    """Where a restore of an uploaded backup stands."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    CANCELLED = "cancelled"
    FAILED = "failed"
    # Ended by a stop of its server, and finished by the next to start (``history.restore_end``):
    # every line was stored and the statistics rebuilt after the restart; or the file was cut
    # short, the games stored counted, and the rest waits for the file to be read again.
    REBUILT = "rebuilt"
    CUT_SHORT = "cut_short"


class RestoreJob(HouseholdOwned, Model):
    """A backup being read in the background: its progress, kept where every server process
    can read it. ``updated_at`` moves while the job runs; a running job that stopped moving
    was left behind by a server that stopped (``history.restores.INTERRUPTED_AFTER``)."""

    __tablename__ = "restore_jobs"
    __table_args__ = NEVER_AGAIN

    id: Mapped[int] = mapped_column(primary_key=True)
    status: Mapped[str] = mapped_column(String(16), default=RestoreStatus.QUEUED.value)
    total_lines: Mapped[int] = mapped_column(Integer, default=0)
    lines_done: Mapped[int] = mapped_column(Integer, default=0)
    stored: Mapped[int] = mapped_column(Integer, default=0)
    already: Mapped[int] = mapped_column(Integer, default=0)
    refused: Mapped[int] = mapped_column(Integer, default=0)
    # [[line number, [problem, ...]], ...], the first ``REFUSED_LINES_KEPT`` of them.
    refused_lines: Mapped[list[Any]] = mapped_column(JSON, default=list)
    # What a household's backup brought besides games (house rules, members, players, merges),
    # one sentence each; empty for a backup of games only.
    notes: Mapped[list[str] | None] = mapped_column(JSON, default=list)
    cancel_requested: Mapped[bool] = mapped_column(Boolean, default=False)
    started_by: Mapped[str] = mapped_column(String(120), default=scope.actor)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)


class AccessVersion(Model):
    """One row (id 1) whose version moves, in the transaction of the change, with every change
    to what lets a phone in: an account, a session, a link, a household. The sessions kept as
    checked (``accounts.services._load_session``) and the fast lane's passes
    (``games.fast_lane``) name the version they were decided under and lapse when it moves, on
    every process and server at once."""

    __tablename__ = "access_versions"

    id: Mapped[int] = mapped_column(primary_key=True)
    version: Mapped[int] = mapped_column(BigInteger, default=0)


def access_version_now() -> ScalarSelect[int]:
    """The access version, as a column to read beside whatever a decision rests on."""
    table = AccessVersion.__table__
    return select(table.c.version).where(table.c.id == literal_column("1")).scalar_subquery()


def move_access_version(connection: Connection) -> None:
    """Move the access version on: inside the transaction that changes who may come in."""
    table = AccessVersion.__table__
    connection.execute(update(table).where(table.c.id == 1).values(version=table.c.version + 1))


scope.name_models(HouseholdOwned, Binnable, Household.__table__)
