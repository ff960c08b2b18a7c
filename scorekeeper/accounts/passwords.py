"""Passwords, hashed with Argon2id (argon2-cffi): memory-hard, salted, tuned by configuration.

A sign-in with an unknown username still verifies a password, against a hash made once for
the purpose, so it takes as long as a wrong password for a real account and says the same.
"""

from __future__ import annotations

from collections.abc import Iterable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from flask import current_app
from zxcvbn import zxcvbn

from ..models import NO_PASSWORD

MIN_LENGTH = 8
MAX_LENGTH = 256
# zxcvbn's scores run 0 to 4; 3 is "safely unguessable: moderate protection from an offline
# slow-hash scenario" (its authors' words), what OWASP ASVS 2.1.7 asks a password to be.
LEAST_SCORE = 3
# zxcvbn reads at most this much (its own limit): a longer passphrase is judged by its start.
SCORED_LENGTH = 72


def _hasher() -> PasswordHasher:
    config = current_app.config
    key = (config["PASSWORD_TIME_COST"], config["PASSWORD_MEMORY_KIB"])
    cached = current_app.extensions.get("password_hasher")
    if cached is None or cached[0] != key:
        hasher = PasswordHasher(time_cost=key[0], memory_cost=key[1], parallelism=1)
        cached = (key, hasher, hasher.hash("not a password of anyone's"))
        current_app.extensions["password_hasher"] = cached
    return cached[1]


def _decoy() -> str:
    _hasher()
    return current_app.extensions["password_hasher"][2]


def problem_with(password: str, known_words: Iterable[str] = ()) -> str | None:
    """Why ``password`` cannot be used, or None: too short or long, or easy to guess (zxcvbn
    scores it below ``LEAST_SCORE``, counting ``known_words``, such as the username and the
    household's name, as the first words an attacker would try), with zxcvbn's advice."""
    if len(password) < MIN_LENGTH:
        return f"A password has at least {MIN_LENGTH} characters."
    if len(password) > MAX_LENGTH:
        return f"A password has at most {MAX_LENGTH} characters."
    words = [word for word in known_words if word]
    verdict = zxcvbn(password[:SCORED_LENGTH], user_inputs=words)
    if verdict["score"] >= LEAST_SCORE:
        return None
    feedback = verdict["feedback"]
    advice = [feedback.get("warning") or "", *feedback.get("suggestions", [])]
    said = " ".join(part.strip() for part in advice if part.strip())
    return (
        "That password would be easy to guess. "
        + (said + " " if said else "")
        + "A few uncommon words together make a strong one."
    )


def hash_password(password: str) -> str:
    return _hasher().hash(password)


def verify(stored_hash: str | None, password: str) -> bool:
    """Whether ``password`` matches; with no hash (no such account, or one a restore brought
    back with no password yet: ``NO_PASSWORD``), the same work, False."""
    usable = stored_hash is not None and stored_hash != NO_PASSWORD
    checked = stored_hash if stored_hash is not None and usable else _decoy()
    try:
        return _hasher().verify(checked, password) and usable
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored_hash: str) -> bool:
    """Whether a hash was made with other settings than today's (rehashed at sign-in)."""
    try:
        return _hasher().check_needs_rehash(stored_hash)
    except (InvalidHashError, ValueError):
        return True
