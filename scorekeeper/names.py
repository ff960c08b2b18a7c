"""Names of players and accounts, tidied the one way every path that takes a name uses.

A name typed on a phone, read from a game file or a backup, or given on the command line is
stored in Unicode NFKC with control and invisible format characters (zero-width spaces, bidi
marks) removed and runs of spaces collapsed: "A\u200bnn" is "Ann", "Ｂｅｎ" is "Ben". Two names
are the same person where their keys (the tidied name, case folded) are equal.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from .limits import NAME_LENGTH

# Cc: control characters; Cf: invisible format characters (zero-width, bidi controls, BOM).
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf"})


def _visible(text: str) -> str:
    # Tabs and newlines are controls too, but they separate words: keep them as spaces.
    return "".join(
        " " if char.isspace() else char
        for char in text
        if char.isspace() or unicodedata.category(char) not in INVISIBLE_CATEGORIES
    )


def tidy_name(name: str) -> str:
    """``name`` as it is stored: NFKC, no invisible characters, single spaces, no ends."""
    # A restore reads the same few names in every round of thousands of games.
    return _tidy_kept(name) if len(name) <= KEPT_LENGTH else _tidy(name)


# Names this long or shorter are kept once tidied (a name may take 60 characters).
KEPT_LENGTH = 120


def _tidy(name: str) -> str:
    visible = _visible(unicodedata.normalize("NFKC", _visible(name)))
    return " ".join(visible.split())


_tidy_kept = lru_cache(maxsize=4096)(_tidy)


def tidy_field(text: object) -> object:
    """A form's name field filter (WTForms ``filters``): the text as it will be stored, so the
    form's checks (required, length) and the page it gives back read the name's one form."""
    return tidy_name(text) if isinstance(text, str) else text


def name_key(name: str) -> str:
    """What two spellings of one name share ("ann", " Ann ", "A\u200bnn")."""
    return tidy_name(name).casefold()


def too_long(tidy: str, limit: int = NAME_LENGTH) -> bool:
    """Whether the tidied name ``tidy`` or its key passes ``limit`` characters: case folding
    can lengthen a name ("ß" is "ss"), and both are stored in columns of that size."""
    return len(tidy) > limit or len(tidy.casefold()) > limit
