"""Households, accounts and sessions: the work behind the sign-in, setup and members pages
and the ``household`` and ``users`` commands. Each function that changes something commits.

``sign_in`` is the one function that lets a person in: a later single sign-on calls it too.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta
from typing import Any, TypeVar

from flask import current_app, g, session
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import UserMixin, current_user, login_user, logout_user
from sqlalchemy import Delete, Update, delete, func, select, true
from sqlalchemy.engine import Connection
from sqlalchemy.orm import joinedload
from werkzeug.wrappers import Response

from .. import local_time, scope
from ..access import Account, good_until
from ..extensions import Kept, db, login_manager
from ..households import household_named
from ..models import (
    USERNAME_LENGTH,
    Household,
    Link,
    RefusedSignIn,
    Role,
    User,
    UserSession,
    access_version_now,
    move_access_version,
    utcnow,
)
from ..names import name_key, tidy_name, too_long
from ..versions import bump_games
from . import passwords

Answer = TypeVar("Answer", bound=Response)
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
        raise AccountError(
            ngettext(
                "A name has at most %(num)d character.",
                "A name has at most %(num)d characters.",
                USERNAME_LENGTH,
            ),
            field,
        )
    return tidy


def check_household_name(name: str, own: Household | None = None) -> str:
    tidy = _tidy(name, "name", _("Give the household a name."))
    held = household_named(tidy)
    if held is not None and held is not own:
        raise AccountError(_("There is a household named %(name)s already.", name=tidy), "name")
    return tidy


def add_household(name: str, language: str | None = None) -> Household:
    """A new household named ``name``, speaking ``language`` where no browser asks (None:
    English), committed."""
    tidy = check_household_name(name)
    household = Household(name=tidy, name_key=name_key(tidy), language=language)
    db.session.add(household)
    db.session.commit()
    return household


def set_ratings_shown(household: Household, shown: bool) -> None:
    """Show ``household``'s ratings on its pages, or none of them, and commit. The ratings are
    kept either way. Every game of the household moves to a new version (a finished board
    links to how the game moved them), and its history pages' data version reads the setting."""
    household.ratings_shown = shown
    with scope.household(household.id), scope.with_bin():
        bump_games(true(), counts=False)
        db.session.commit()


def set_time_zone(household: Household, name: str) -> None:
    """Show ``household``'s times in the IANA zone ``name`` ("" or None: the server's), and
    commit. Every game of the household moves to a new version (a drawn board, a result card
    and a phone's copy show its dates), and so do its history pages and rounds CSV.

    Raises AccountError (field ``time_zone``) for a name that is not a zone known here."""
    chosen = (name or "").strip()
    if chosen and not local_time.is_zone(chosen):
        raise AccountError(
            _("That is not a time zone: choose one from the list, like Europe/Berlin."), "time_zone"
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
    tidy = _tidy(username, "username", _("Choose a username."))
    if user_named(tidy) is not None:
        raise AccountError(_("The username %(name)s is taken.", name=tidy), "username")
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


# --- refused sign-ins ------------------------------------------------------------------------

# What the members page lists, and how long and how many of them are kept.
REFUSED_SHOWN = 10
REFUSED_KEPT = 200
REFUSED_KEPT_FOR = timedelta(days=30)


def note_refused_when_sent(
    answer: Answer, user: User, address: str | None, known_device: bool
) -> Answer:
    """``answer``, which notes the wrong password given for ``user`` (``note_refused``) once it
    has been sent: a wrong password for a name that exists then answers with the same work as
    one for a name nobody has, and the time of the answer tells no one which names exist."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    user_id, household_id = user.id, user.household_id

    def note() -> None:
        with app.app_context():
            try:
                note_refused(user_id, household_id, address, known_device)
            except Exception:  # the answer is gone: the log is the one place left to say so
                app.logger.exception("a refused sign-in was not noted")
            finally:
                db.session.remove()

    answer.call_on_close(note)
    return answer


def note_refused(user_id: int, household_id: int, address: str | None, known_device: bool) -> None:
    """A wrong password given at sign-in for the account ``user_id``, for its household's owner
    to see. The household keeps the last ``REFUSED_KEPT`` of the last 30 days (the throttle
    holds how many come in: at most 10 a quarter of an hour from strangers, and from each known
    device)."""
    with scope.household(household_id):
        db.session.add(
            RefusedSignIn(
                user_id=user_id, address=(address or "unknown")[:64], known_device=known_device
            )
        )
        db.session.flush()
        oldest_kept = db.session.scalar(
            select(RefusedSignIn.id)
            .order_by(RefusedSignIn.id.desc())
            .offset(REFUSED_KEPT - 1)
            .limit(1)
        )
        gone = RefusedSignIn.at < utcnow() - REFUSED_KEPT_FOR
        if oldest_kept is not None:
            gone = gone | (RefusedSignIn.id < oldest_kept)
        db.session.execute(
            delete(RefusedSignIn).where(gone).execution_options(synchronize_session=False)
        )
        db.session.commit()


def refused_sign_ins() -> list[RefusedSignIn]:
    """The household's latest refused sign-ins, newest first."""
    return list(
        db.session.scalars(
            select(RefusedSignIn)
            .options(joinedload(RefusedSignIn.user))
            .order_by(RefusedSignIn.at.desc(), RefusedSignIn.id.desc())
            .limit(REFUSED_SHOWN)
        )
    )


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


# What a browser kept for the one whose session ends (round forms and typing, saves waiting for
# a signal, the service worker's copies of pages) is not for whoever uses it next.
CLEAR_SITE_DATA = '"cache", "storage"'


def end_session(answer: Answer) -> Answer:
    """End this browser's session, on the server too, and have ``answer`` tell the browser to
    forget what it kept for it: signing out, and a link, an invitation or another account's
    sign-in taken up in a member's session, go through here alike. Whatever lets the next
    one in (``sign_in``, ``links.open_in_session``) comes after, in the same request."""
    sign_out(getattr(current_user, "token", None))
    answer.headers["Clear-Site-Data"] = CLEAR_SITE_DATA
    return answer


@login_manager.user_loader
def _load_session(token: str) -> SignedIn | None:
    """The account a session token stands for, or None where the session has ended.

    A session this process found valid is kept (``extensions.Kept``) under its token's hash
    and the access version it was read under, for ``SESSION_CHECK_SECONDS`` (default 5; 0
    checks every request): a phone polling every 3 s then costs one read of the access version
    instead of the session's look-up. Signing out, a new password, a member removed or a role
    changed moves the access version in its own transaction, on any server (``_moving_access``),
    so a kept session stops counting at once; the bound is for what rests on time alone (the
    session's last use, written now and then: ``_touch``)."""
    digest = _digest(token)
    seconds = float(current_app.config.get("SESSION_CHECK_SECONDS") or 0)
    kept = Kept.of()
    with scope.server_wide(scope.ServerWide.VISITOR):
        now_version = db.session.scalar(select(access_version_now())) if seconds > 0 else None
        if now_version is not None:
            held: Checked | None = kept.get(("session", digest, now_version), seconds)
            if held is not None and held[1] > utcnow():  # checked lately, and not ended since
                account, ends = held
                g.access_version = now_version
                good_until(ends)
                return SignedIn(account, token)
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
                User.language,
                Household.language,
            )
            .join(User, User.id == UserSession.user_id)
            .join(User.household)
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
    if seconds > 0 and version is not None:  # no access version's row: nothing could end it
        kept.put(("session", digest, version), (account, ends))
    # What the gate's decision rests on was read under this access version, and holds until
    # the session ends (the fast lane's passes name both: games.fast_lane).
    g.access_version = version
    good_until(ends)
    return SignedIn(account, token)


# A session's account, and when the session ends unless used again.
Checked = tuple[Account, datetime]


# What lets a phone in: an UPDATE or DELETE of any of them moves the access version.
_LETTING_IN = (UserSession, User, Link, Household)

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
    flush, a bulk change) or as a Core statement. The sessions kept as checked
    (``_load_session``) and the fast lane's passes (games/fast_lane.py) lapse with it on every
    server. SQL typed by hand outside the app does not move it: a kept session then counts for
    at most SESSION_CHECK_SECONDS more, a pass for FAST_LANE_SECONDS."""
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
