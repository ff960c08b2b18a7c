"""Households, accounts and sessions: the work behind the sign-in, setup and members pages
and the ``household`` and ``users`` commands. Each function that changes something commits.

``sign_in`` is the one function that lets a person in: a later single sign-on calls it too.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta
from typing import Any

from flask import current_app, g, has_app_context, session
from flask_login import UserMixin, login_user, logout_user
from sqlalchemy import Delete, Update, delete, func, select, true
from sqlalchemy.engine import Connection
from sqlalchemy.orm import ORMExecuteState, Session

from .. import local_time, scope
from ..access import Account, good_until
from ..extensions import db, login_manager
from ..games import fast_lane
from ..households import household_named
from ..models import (
    USERNAME_LENGTH,
    Household,
    Link,
    Role,
    User,
    UserSession,
    access_version_now,
    move_access_version,
    utcnow,
)
from ..names import name_key, tidy_name, too_long
from ..recent import Recent
from ..versions import bump_games
from . import passwords

SESSION_LIFETIME = timedelta(days=30)
# last_seen is written at most this often: a poll every few seconds must not write each time.
SEEN_EVERY = timedelta(minutes=10)


class AccountError(ValueError):
    """A change refused; the message says why, for the field ``field``."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# --- households ------------------------------------------------------------------------------


def _tidy(text: str, field: str, empty: str) -> str:
    """``text`` tidied as every name is (``names.tidy_name``), or AccountError at ``field``."""
    tidy = tidy_name(text)
    if not tidy:
        raise AccountError(empty, field)
    if too_long(tidy, USERNAME_LENGTH):
        raise AccountError(f"A name has at most {USERNAME_LENGTH} characters.", field)
    return tidy


def check_household_name(name: str, own: Household | None = None) -> str:
    tidy = _tidy(name, "name", "Give the household a name.")
    held = household_named(tidy)
    if held is not None and held is not own:
        raise AccountError(f"There is a household named {tidy} already.", "name")
    return tidy


def add_household(name: str) -> Household:
    tidy = check_household_name(name)
    household = Household(name=tidy, name_key=name_key(tidy))
    db.session.add(household)
    db.session.commit()
    return household


def set_time_zone(household: Household, name: str) -> None:
    """Show ``household``'s times in the IANA zone ``name`` ("" or None: the server's), and
    commit. Every game of the household moves to a new version (a drawn board, a result card
    and a phone's copy show its dates), and so do its history pages and rounds CSV.

    Raises AccountError (field ``time_zone``) for a name that is not a zone known here."""
    chosen = (name or "").strip()
    if chosen and not local_time.is_zone(chosen):
        raise AccountError(
            "That is not a time zone: choose one from the list, like Europe/Berlin.", "time_zone"
        )
    household.time_zone = chosen or None
    with scope.household(household.id), scope.with_bin():
        bump_games(true(), counts=False)
        db.session.commit()
    local_time.forget_zone()


def memberless_household() -> Household | None:
    """The household a database from before accounts holds (or the command line made), which
    setup gives its owner: the only one, where it has no members."""
    found = db.session.scalars(select(Household).limit(2)).all()
    if len(found) != 1:
        return None
    with scope.household(found[0].id):
        members = db.session.scalar(select(func.count(User.id)))
    return found[0] if not members else None


# --- accounts --------------------------------------------------------------------------------


def user_named(username: str) -> User | None:
    with scope.server_wide(scope.ServerWide.USERNAME):
        return db.session.scalar(select(User).where(User.username_key == name_key(username)))


def check_username(username: str) -> str:
    tidy = _tidy(username, "username", "Choose a username.")
    if user_named(tidy) is not None:
        raise AccountError(f"The username {tidy} is taken.", "username")
    return tidy


def check_password(password: str, username: str, household_name: str) -> None:
    """Refuse a password too short, too long or easy to guess for this person (their name
    and their household's are the first words a guess would use)."""
    problem = passwords.problem_with(password, (username, household_name, *household_name.split()))
    if problem:
        raise AccountError(problem, "password")


def add_user(
    username: str, password: str, household: Household, role: Role | str, *, admin: bool = False
) -> User:
    """Make an account; the server's first account administers the server."""
    tidy = check_username(username)
    check_password(password, tidy, household.name)
    role = Role(role)
    with scope.server_wide(scope.ServerWide.ANY_ACCOUNT):
        first = db.session.scalar(select(User.id).limit(1)) is None
    with scope.household(household.id):
        user = User(
            username=tidy,
            username_key=name_key(tidy),
            password_hash=passwords.hash_password(password),
            role=role,
            is_admin=admin or first,
        )
        db.session.add(user)
        db.session.commit()
    current_app.extensions["scorekeeper_accounts_exist"] = True
    return user


def users() -> list[User]:
    with scope.server_wide(scope.ServerWide.COMMAND_LINE):
        return list(
            db.session.scalars(
                select(User).join(User.household).order_by(Household.name_key, User.username_key)
            )
        )


def set_password(user: User, password: str, *, keep_token: str | None = None) -> None:
    """A new password ends every session of the person but, where given, the one in use."""
    check_password(password, user.username, user.household.name)
    user.password_hash = passwords.hash_password(password)
    ending = delete(UserSession).where(UserSession.user_id == user.id)
    if keep_token is not None:
        ending = ending.where(UserSession.token_hash != _digest(keep_token))
    db.session.execute(ending)
    db.session.commit()


def authenticate(username: str, password: str) -> User | None:
    """The account these fit, or None: the same work and answer whichever of them is wrong."""
    user = user_named(username) if len(username) <= USERNAME_LENGTH * 4 else None
    ok = passwords.verify(user.password_hash if user is not None else None, password[:1024])
    if user is not None and ok and passwords.needs_rehash(user.password_hash):
        user.password_hash = passwords.hash_password(password)
        db.session.commit()
    return user if ok else None


# --- sessions --------------------------------------------------------------------------------


class SignedIn(UserMixin):
    """What Flask-Login keeps for a request: the account, known by its session's token."""

    def __init__(self, account: Account, token: str) -> None:
        self.account = account
        self.token = token

    def get_id(self) -> str:
        return self.token


def sign_in(user: User) -> None:
    """Let ``user`` in on this browser: a new session with a new id (anything the browser
    held before, a link or a form token, is dropped first)."""
    session.clear()
    token = secrets.token_urlsafe(32)
    db.session.add(UserSession(token_hash=_digest(token), user_id=user.id))
    db.session.commit()
    session.permanent = True
    login_user(SignedIn(Account.of(user), token))


def sign_out(token: str | None) -> None:
    if token:
        db.session.execute(delete(UserSession).where(UserSession.token_hash == _digest(token)))
        db.session.commit()
    logout_user()
    session.clear()


@login_manager.user_loader
def _load_session(token: str) -> SignedIn | None:
    """The account a session token stands for, or None where the session has ended: one
    small query, or none while this process checked the same token in the last
    ``SESSION_CHECK_SECONDS`` (see ``CheckedSessions``)."""
    digest = _digest(token)
    checked = checked_sessions()
    seconds = float(current_app.config.get("SESSION_CHECK_SECONDS") or 0)
    held = checked.get(digest, seconds)
    if held is not None and held[2] > utcnow():  # checked lately, and not ended since
        account, g.access_version, ends = held
        good_until(ends)
        return SignedIn(account, token)
    generation = checked.generation
    with scope.server_wide(scope.ServerWide.VISITOR):
        found = db.session.execute(
            select(
                access_version_now(),
                UserSession.id,
                UserSession.created_at,
                UserSession.last_seen,
                User.id,
                User.username,
                User.role,
                User.is_admin,
                User.household_id,
            )
            .join(User, User.id == UserSession.user_id)
            .where(UserSession.token_hash == digest)
        ).one_or_none()
    if found is None:
        return None
    version, session_id, created_at, last_seen = found[:4]
    now = utcnow()
    # 30 days since last use, and never longer than SESSION_MAX_DAYS since sign-in.
    ends = min(
        last_seen + SESSION_LIFETIME,
        created_at + timedelta(days=float(current_app.config["SESSION_MAX_DAYS"])),
    )
    if ends < now:
        return None
    if last_seen + SEEN_EVERY < now:
        _touch(session_id, now)
    account = Account(*found[4:])
    if seconds > 0:
        checked.put(digest, (account, version, ends), generation)
    # What the gate's decision rests on was read under this access version, and holds until
    # the session ends (the fast lane's passes name both: games.fast_lane).
    g.access_version = version
    good_until(ends)
    return SignedIn(account, token)


# A session's account, the access version it was read under (None: no such row), and when
# the session ends unless used again.
Checked = tuple[Account, int | None, datetime]


class CheckedSessions(Recent[str, Checked]):
    """Sessions this process found valid in the last few seconds, by token hash, so that a
    phone polling every 3 s costs no session query on most polls.

    The bound, for every server: a session ended (signing out, a new password, a member
    removed, a role changed) stops working at once on the server that ended it (any change to
    ``user_sessions`` or ``users`` through this process empties the whole store), and within
    ``SESSION_CHECK_SECONDS`` (default 5; 0 checks every request) on every other server on the
    same database."""


def checked_sessions() -> CheckedSessions:
    extensions = current_app.extensions
    checked = extensions.get("checked_sessions")
    if checked is None:
        checked = extensions.setdefault("checked_sessions", CheckedSessions())
    return checked


def _forget_checked_sessions() -> None:
    if has_app_context():
        checked = current_app.extensions.get("checked_sessions")
        if checked is not None:
            checked.forget()
        fast_lane.forget_passes()


# What lets a phone in: a change to any of them empties the store (and the fast lane's passes,
# ``games.fast_lane``, which rest on the same decisions).
_LETTING_IN = (UserSession, User, Link, Household)

# A change is forgotten twice: before it runs, and again once committed, so that a request of
# another thread that checked the session in between (the row not yet gone) is not held.
_CHANGED = "scorekeeper_sessions_changed"


def sessions_changed_in_bulk(state: ORMExecuteState) -> None:
    """An UPDATE or DELETE of sessions or accounts (sign-out, a new password, ending every
    session) empties the store."""
    changing = state.is_update or state.is_delete
    if changing and state.bind_mapper is not None and state.bind_mapper.class_ in _LETTING_IN:
        _changing(state.session)


def sessions_changed(session: Session, *_: object) -> None:
    """A changed or removed account (a role, a member removed) empties the store too."""
    for changed in (*session.dirty, *session.deleted):
        if isinstance(changed, _LETTING_IN):
            _changing(session)
            return


def _changing(session: Session) -> None:
    """Who may come in is changing in ``session``'s transaction: forget what this process
    checked (the access version moves with the statement itself: ``moving_access``)."""
    session.info[_CHANGED] = True
    _forget_checked_sessions()


# The tables whose UPDATE or DELETE may shut a phone out.
_LETTING_IN_TABLES = frozenset(model.__tablename__ for model in _LETTING_IN)
# Marks a statement that cannot shut anyone out (a session's last use moved forward).
KEEPS_ACCESS = "scorekeeper_keeps_access"


def moving_access(
    connection: Connection,
    statement: object,
    _multiparams: object,
    _params: object,
    options: dict[str, Any],
) -> None:
    """Every UPDATE or DELETE of accounts, sessions, links or households moves the access
    version on in its own transaction, once a transaction: whether made through the ORM (a
    flush, a bulk change) or as a Core statement. The fast lane's passes (games/fast_lane.py)
    lapse with it on every server. SQL typed by hand outside the app does not move it: a pass
    then lasts at most FAST_LANE_SECONDS."""
    if not isinstance(statement, Update | Delete):
        return
    table = getattr(statement, "table", None)
    if getattr(table, "name", None) not in _LETTING_IN_TABLES or options.get(KEEPS_ACCESS):
        return
    transaction = connection.get_transaction()
    if transaction is not None and connection.info.get(_MOVED) is transaction:
        return
    move_access_version(connection)
    if transaction is not None:
        connection.info[_MOVED] = transaction


_MOVED = "scorekeeper_access_moved"


def sessions_changed_for_good(session: Session) -> None:
    if session.info.pop(_CHANGED, False):
        _forget_checked_sessions()


def sessions_unchanged(session: Session) -> None:
    session.info.pop(_CHANGED, None)


def _touch(session_id: int, now: object) -> None:
    """Move a session's last use forward, in its own short transaction; a busy database only
    delays it to a later request."""
    from sqlalchemy import update
    from sqlalchemy.exc import OperationalError

    try:
        with db.engine.begin() as connection:
            connection.execute(
                update(UserSession)
                .where(UserSession.id == session_id)
                .values(last_seen=now)
                .execution_options(**{KEEPS_ACCESS: True})
            )
    except OperationalError:
        pass
