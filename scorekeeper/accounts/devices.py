"""Device cookies: a browser that has signed in to an account before is let try its password
while strangers are held off that account (OWASP's "Slow down online guessing attacks with
device cookies", ASVS 2.2.1).

A successful sign-in leaves a cookie signed with the server's secret key (itsdangerous, as
Flask signs its session) that names the accounts signed in to on this browser and holds a
random nonce of the browser's own. At the next sign-in to one of those accounts, its attempts
are counted under that nonce and the account (``throttle``: 10 in 15 minutes), apart from
the strangers' count on the account and their address, so that eleven guesses from anywhere
do not lock the member out of their own phone; a device cookie that itself fails too often is
held off alone.

What a cookie names is checked against the account as it is now: its id (an account removed
and another made under the same name is not it) and a mark of its password hash (keyed with
the secret), so a password change makes every other browser a stranger again until it signs
in anew. A cookie forged, of another server's key, of another account or older than a year
counts for nothing: its bearer is a stranger.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta
from typing import TypeVar

from flask import current_app, request
from itsdangerous import BadData, URLSafeTimedSerializer
from werkzeug.wrappers import Response

from ..models import User

Answer = TypeVar("Answer", bound=Response)
LIFETIME = timedelta(days=365)
# A browser shared by a family remembers this many accounts, the latest signed in.
ACCOUNTS_KEPT = 4
_SALT = "scorekeeper-device"


def cookie_name() -> str:
    """``__Host-device`` where the session cookie is host-only (behind HTTPS), else ``device``."""
    held_to_host = str(current_app.config.get("SESSION_COOKIE_NAME", "")).startswith("__Host-")
    return "__Host-device" if held_to_host else "device"


def _signer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(str(current_app.config["SECRET_KEY"]), salt=_SALT)


def _mark(user: User) -> str:
    """A mark of the account's password as it is now (never the hash itself)."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    digest = hmac.new(key, f"device:{user.id}:{user.password_hash}".encode(), hashlib.sha256)
    return digest.hexdigest()[:32]


def _held() -> tuple[str, list[tuple[int, str]]] | None:
    """This browser's nonce and the (account id, mark) pairs its cookie names, where it carries
    a good one."""
    sent = request.cookies.get(cookie_name())
    if not sent or len(sent) > 2000:
        return None
    try:
        held = _signer().loads(sent, max_age=int(LIFETIME.total_seconds()))
    except BadData:
        return None
    if not isinstance(held, dict):
        return None
    nonce, named = held.get("n"), held.get("a")
    if not isinstance(nonce, str) or not 16 <= len(nonce) <= 64 or not isinstance(named, list):
        return None
    pairs = [
        (pair[0], pair[1])
        for pair in named
        if isinstance(pair, list)
        and len(pair) == 2
        and type(pair[0]) is int
        and isinstance(pair[1], str)
    ]
    return nonce, pairs[-ACCOUNTS_KEPT:]


def known_device(user: User | None) -> str | None:
    """What this browser's tries at ``user`` are counted under, where its device cookie names
    ``user`` as it is now (the browser's nonce and the account: on a family's shared tablet,
    one member's mistyping holds off no other), else None (a stranger)."""
    held = _held()
    if held is None or user is None:
        return None
    nonce, pairs = held
    mark = _mark(user)
    known = any(id_ == user.id and hmac.compare_digest(seen, mark) for id_, seen in pairs)
    return f"{nonce}:{user.id}" if known else None


def remember(answer: Answer, user: User) -> Answer:
    """``answer`` leaves this browser a device cookie naming ``user`` (beside the accounts it
    named before), under the browser's nonce, or a new one."""
    held = _held()
    nonce, pairs = held if held is not None else (secrets.token_urlsafe(24), [])
    kept = [[id_, seen] for id_, seen in pairs if id_ != user.id]
    named = [*kept, [user.id, _mark(user)]][-ACCOUNTS_KEPT:]
    answer.set_cookie(
        cookie_name(),
        _signer().dumps({"n": nonce, "a": named}),
        max_age=int(LIFETIME.total_seconds()),
        path="/",
        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
        httponly=True,
        samesite="Lax",
    )
    return answer
