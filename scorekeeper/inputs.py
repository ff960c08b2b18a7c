"""Numbers as people type them into forms and addresses."""

from __future__ import annotations

LARGEST_ID = 2**31 - 1  # the ids and numbers in addresses are 32-bit integer columns


def whole_number(text: str | None, *, below: int | None = None) -> int | None:
    """``text`` as a whole number written with the digits 0-9, at most LARGEST_ID (and less
    than ``below`` when given); None for anything else. ``str.isdigit`` is no such test: it
    takes "²" and "٣", and ``int`` refuses the first and any number of 4,300 digits or more."""
    text = (text or "").strip()
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(LARGEST_ID)):
        return None
    number = int(text)
    if number > LARGEST_ID or (below is not None and number >= below):
        return None
    return number
