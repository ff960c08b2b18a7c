"""How many passwords may be tried: 10 for one account, 30 from one address, in 15 minutes
(``shared/spec/access.md``), counted in the database so that every process and every server
on it shares one count.

An attempt takes its place before the password is checked, so that forty guesses sent at once
are held to the limit as surely as forty sent one after another; a right password gives its
place back, and so does an attempt refused for being over the limit (it tried nothing).

Why not counting after the check: the check is Argon2, a deliberately slow hash, so many
guesses sent together would all be checked before the first one was counted.

A browser that signed in to the account before (its device cookie: ``devices``) is counted
under that cookie alone, 10 in 15 minutes, and not with the strangers: their guesses at the
account, from any number of addresses, never hold the member's own phone off it. The account
page's "your password now" is counted under the member's session alone, 10 in 15 minutes, for
the same reason: a session stolen still tries no faster than that, and the strangers' count
never holds a signed-in member off changing their own password.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask_babel import ngettext
from sqlalchemy import delete, func, select

from ..extensions import db
from ..models import SignInAttempt, utcnow
from ..text import lazy_gettext as _l

WINDOW = timedelta(minutes=15)
PER_ACCOUNT = 10
PER_ADDRESS = 30
PER_DEVICE = 10
PER_SESSION = 10

# What was over its limit, in the words the sign-in page shows (``{wait}``: "a minute", "12
# minutes"), in the page's language.
_WHY = {
    "account": _l(
        "Too many wrong passwords have been tried for this account in the last 15 minutes, "
        "so it takes none from a new phone or computer for now: wait {wait} and try again. "
        "On a phone or computer where you have signed in to it before, you can sign in now. "
        "If that was not you, someone may be guessing: tell the household's owner."
    ),
    "address": _l(
        "Too many wrong passwords have come from this network in the last 15 minutes: "
        "wait {wait} and try again."
    ),
    "device": _l(
        "Too many wrong passwords have been typed on this phone or computer in the last 15 "
        "minutes: wait {wait} and try again."
    ),
    "session": _l(
        "Too many wrong current passwords have been typed here in the last 15 minutes: wait "
        "{wait} and try again. If you have forgotten your password, whoever runs the server "
        "can set a new one."
    ),
}


class TooManyAttempts(Exception):
    """Over the limit: nothing was tried; ``retry_after`` seconds until a place is free;
    ``held`` what was over its limit ("account", "address", "device" or "session")."""

    def __init__(self, retry_after: int, held: str = "account") -> None:
        minutes = max(1, math.ceil(retry_after / 60))
        wait = ngettext("a minute", "%(num)d minutes", minutes)
        super().__init__(_WHY[held].format(wait=wait))
        self.retry_after = retry_after
        self.held = held


@dataclass(frozen=True)
class Place:
    """The rows an attempt took, to give back when its password was right."""

    ids: tuple[int, ...]


def _keys(
    account_key: str, address: str | None, device: str | None, session: str | None
) -> list[tuple[str, int]]:
    if session is not None:
        return [(f"session:{session}"[:300], PER_SESSION)]
    if device is not None:
        return [(f"device:{device}"[:300], PER_DEVICE)]
    keys = [(f"account:{account_key}"[:300], PER_ACCOUNT)]
    if address:
        keys.append((f"address:{where_from(address)}"[:300], PER_ADDRESS))
    return keys


def _held_by(key: str) -> str:
    """What a key counts: "account", "address", "device" or "session"."""
    return key.split(":", 1)[0]


def where_from(address: str) -> str:
    """The sender an address stands for: an IPv4 address itself (however spelled, mapped
    into IPv6 too), an IPv6 address by its /64, the network one home or phone is given, so
    that a client cannot try each guess from another address of its own."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


def session_key(token: str) -> str:
    """What a signed-in member's own tries are counted under: a digest of their session's
    token (never the token, nor the hash the sessions table keeps)."""
    return hashlib.sha256(f"own password:{token}".encode()).hexdigest()[:32]


def take_place(
    account_key: str,
    address: str | None,
    device: str | None = None,
    *,
    session: str | None = None,
) -> Place:
    """Count one attempt at the account named ``account_key`` (its name key) from
    ``address``, before its password is checked; ``TooManyAttempts`` where either is over its
    limit (then nothing is counted). From a known ``device`` (the nonce of a device cookie that
    names the account) it is counted under that alone; a signed-in member's own try
    (``session``: ``session_key``) under their session alone.

    Every attempt's row is written and committed before anyone counts, and each attempt
    counts every row it can see: so the last of any number of attempts made at once sees all
    the others, and no more than the limit are ever let through (at the edge, two made at
    the very same moment may both be refused)."""
    now = utcnow()
    since = now - WINDOW
    keys = _keys(account_key, address, device, session)
    rows = [SignInAttempt(key=key, at=now) for key, _limit in keys]
    db.session.add_all(rows)
    db.session.execute(delete(SignInAttempt).where(SignInAttempt.at < since))
    db.session.commit()
    place = Place(tuple(row.id for row in rows))
    waits: list[tuple[int, str]] = []
    for key, limit in keys:
        count, first = db.session.execute(
            select(func.count(SignInAttempt.id), func.min(SignInAttempt.at)).where(
                SignInAttempt.key == key, SignInAttempt.at >= since
            )
        ).one()
        if count > limit:
            waits.append((math.ceil((first + WINDOW - now).total_seconds()), _held_by(key)))
    if waits:
        give_back(place)
        wait, held = max(waits)
        raise TooManyAttempts(max(1, wait), held)
    return place


def give_back(place: Place) -> None:
    """The attempt's places are free again: its password was right, or it tried nothing."""
    db.session.execute(delete(SignInAttempt).where(SignInAttempt.id.in_(place.ids)))
    db.session.commit()


def closed_to_strangers(account_keys: list[str]) -> dict[str, datetime]:
    """Of the accounts named by ``account_keys`` (name keys), those strangers may not try now,
    each with when they may again."""
    now = utcnow()
    since = now - WINDOW
    keys = {f"account:{key}"[:300]: key for key in account_keys}
    rows = db.session.execute(
        select(SignInAttempt.key, func.count(SignInAttempt.id), func.min(SignInAttempt.at))
        .where(SignInAttempt.key.in_(list(keys)), SignInAttempt.at >= since)
        .group_by(SignInAttempt.key)
    ).all()
    return {keys[key]: first + WINDOW for key, count, first in rows if count >= PER_ACCOUNT}
