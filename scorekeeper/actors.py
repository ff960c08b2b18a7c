"""Who did something, as the app stores it (a change log line's actor, who made a link, who
put something in the bin) and as a person reads it, in their language.

A member is stored by their username, as typed. Anyone else is stored as a code, never as
words: the command line, a phone holding a link (by the link's kind and who made it), a phone
that took a seat at the table (by the link's kind and the seat's player). A code opens with a
control character, which no tidied name holds (``names``), so no member's name is ever read
as one. ``shown`` writes a stored actor in the page's language; actors stored before the codes
("table link made by ana", "Ben (table link)", "command line") are read the same way.
"""

from __future__ import annotations

import re

from flask_babel import gettext as _

# What opens a code, and parts it: a control character, never in a name.
MARK = "\x1f"
COMMAND_LINE = f"{MARK}cli"


def link(kind: str, made_by: str) -> str:
    """A phone holding a ``kind`` link that ``made_by`` made."""
    return f"{MARK}link{MARK}{kind}{MARK}{made_by}"


def seat(kind: str, player: str) -> str:
    """A phone holding a ``kind`` link that took ``player``'s seat."""
    return f"{MARK}seat{MARK}{kind}{MARK}{player}"


# How the app stored them before the codes, in English.
_OLD_LINK = re.compile(r"(table|watch) link made by (.+)", re.DOTALL)
_OLD_SEAT = re.compile(r"(.+) \((table|watch) link\)", re.DOTALL)


def _parts(stored: str) -> tuple[str, str, str] | None:
    """(what, kind, name) of a stored actor that is no member: ``("cli", "", "")``,
    ``("link", "table", "ana")``, ``("seat", "table", "Ben")``; None for a member."""
    if stored.startswith(MARK):
        what, _mark, rest = stored[1:].partition(MARK)
        kind, _mark, name = rest.partition(MARK)
        return what, kind, name
    if stored == "command line":
        return "cli", "", ""
    found = _OLD_LINK.fullmatch(stored)
    if found is not None:
        return "link", found.group(1), found.group(2)
    found = _OLD_SEAT.fullmatch(stored)
    if found is not None:
        return "seat", found.group(2), found.group(1)
    return None


def shown(stored: str | None) -> str:
    """A stored actor as the page's language writes it (a member's username as it is)."""
    if not stored:
        return ""
    parts = _parts(stored)
    if parts is None:
        return stored
    what, kind, name = parts
    if what == "cli":
        return _("command line")
    if what == "link":
        made_by = shown(name)
        if kind == "watch":
            return _("watch link made by %(name)s", name=made_by)
        return _("table link made by %(name)s", name=made_by)
    if what == "seat":
        if kind == "watch":
            return _("%(name)s (watch link)", name=name)
        return _("%(name)s (table link)", name=name)
    return stored
