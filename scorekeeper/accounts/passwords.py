"""Passwords, hashed with Argon2id (argon2-cffi): memory-hard, salted, tuned by configuration.

A sign-in with an unknown username still verifies a password, against a hash made once for
the purpose, so it takes as long as a wrong password for a real account and says the same.
"""

from __future__ import annotations

from collections.abc import Iterable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from flask import current_app
from flask_babel import gettext as _
from flask_babel import ngettext
from zxcvbn import zxcvbn

from ..models import NO_PASSWORD

MIN_LENGTH = 8
MAX_LENGTH = 256
# zxcvbn's scores run 0 to 4; 3 is "safely unguessable: moderate protection from an offline
# slow-hash scenario" (its authors' words), what OWASP ASVS 2.1.7 asks a password to be.
LEAST_SCORE = 3
# zxcvbn reads at most this much (its own limit): a longer passphrase is judged by its start.
SCORED_LENGTH = 72


def N_(text: str) -> str:
    """Mark ``text`` for the catalogue (``pybabel extract -k N_``); it is translated where shown."""
    return text


# zxcvbn's advice is English only: each sentence it gives is marked here for the catalogue and
# shown in the page's language. One a later version may give, not named here, is left out rather
# than shown in English.
ADVICE = frozenset(
    {
        N_("Use a few words, avoid common phrases."),
        N_("No need for symbols, digits, or uppercase letters."),
        N_("Add another word or two. Uncommon words are better."),
        N_("Straight rows of keys are easy to guess."),
        N_("Short keyboard patterns are easy to guess."),
        N_("Use a longer keyboard pattern with more turns."),
        N_('Repeats like "aaa" are easy to guess.'),
        N_('Repeats like "abcabcabc" are only slightly harder to guess than "abc".'),
        N_("Avoid repeated words and characters."),
        N_('Sequences like "abc" or "6543" are easy to guess.'),
        N_("Avoid sequences."),
        N_("Recent years are easy to guess."),
        N_("Avoid recent years."),
        N_("Avoid years that are associated with you."),
        N_("Dates are often easy to guess."),
        N_("Avoid dates and years that are associated with you."),
        N_("This is a top-10 common password."),
        N_("This is a top-100 common password."),
        N_("This is a very common password."),
        N_("This is similar to a commonly used password."),
        N_("A word by itself is easy to guess."),
        N_("Names and surnames by themselves are easy to guess."),
        N_("Common names and surnames are easy to guess."),
        N_("Capitalization doesn't help very much."),
        N_("All-uppercase is almost as easy to guess as all-lowercase."),
        N_("Reversed words aren't much harder to guess."),
        N_("Predictable substitutions like '@' instead of 'a' don't help very much."),
    }
)


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
        return ngettext(
            "A password has at least %(num)d character.",
            "A password has at least %(num)d characters.",
            MIN_LENGTH,
        )
    if len(password) > MAX_LENGTH:
        return ngettext(
            "A password has at most %(num)d character.",
            "A password has at most %(num)d characters.",
            MAX_LENGTH,
        )
    words = [word for word in known_words if word]
    verdict = zxcvbn(password[:SCORED_LENGTH], user_inputs=words)
    if verdict["score"] >= LEAST_SCORE:
        return None
    feedback = verdict["feedback"]
    advice = [feedback.get("warning") or "", *feedback.get("suggestions", [])]
    said = [_(part.strip()) for part in advice if part.strip() in ADVICE]
    return " ".join(
        [
            _("That password would be easy to guess."),
            *said,
            _("A few uncommon words together make a strong one."),
        ]
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
