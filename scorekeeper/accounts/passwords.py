"""Passwords, hashed with Argon2id (argon2-cffi): memory-hard, salted, tuned by configuration.

A sign-in with an unknown username still verifies a password, against a hash made once for
the purpose, so it takes as long as a wrong password for a real account and says the same.
"""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from flask import current_app

from ..models import NO_PASSWORD

MIN_LENGTH = 8
MAX_LENGTH = 256


def _hasher() -> PasswordHasher:
    config = current_app.config
    key = (config["PASSWORD_TIME_COST"], config["PASSWORD_MEMORY_KIB"])
    cached = current_app.extensions.get("password_hasher")
    if cached is None or cached[0] != key:
        hasher = PasswordHasher(time_cost=key[0], memory_cost=key[1], parallelism=1)
        cached = (key, hasher, hasher.hash("not a password of anyone's"))
        current_app.extensions["password_hasher"] = cached
    return cached[1]  # type: ignore[no-any-return]


def _decoy() -> str:
    _hasher()
    return current_app.extensions["password_hasher"][2]  # type: ignore[no-any-return]


def problem_with(password: str) -> str | None:
    """Why ``password`` cannot be used, or None."""
    if len(password) < MIN_LENGTH:
        return f"A password has at least {MIN_LENGTH} characters."
    if len(password) > MAX_LENGTH:
        return f"A password has at most {MAX_LENGTH} characters."
    return None


def hash_password(password: str) -> str:
    return _hasher().hash(password)


def verify(stored_hash: str | None, password: str) -> bool:
    """Whether ``password`` matches; with no hash (no such account, or one a restore brought
    back with no password yet: ``NO_PASSWORD``), the same work, False."""
    usable = stored_hash is not None and stored_hash != NO_PASSWORD
    try:
        return _hasher().verify(stored_hash if usable else _decoy(), password) and usable
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored_hash: str) -> bool:
    """Whether a hash was made with other settings than today's (rehashed at sign-in)."""
    try:
        return _hasher().check_needs_rehash(stored_hash)
    except (InvalidHashError, ValueError):
        return True
