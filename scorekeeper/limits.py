"""Every size the app accepts, in one place: forms, game files, backups, the tally, uploads.

A person never comes near these (a real table has 2 to 8 players and plays 7 to 12 rounds), so
they exist to refuse the hostile and the mistaken (a script gone wrong, the wrong file) with a
message that names the limit, before the work of reading something huge is done. Their
refusals quote the figures from here, so changing one changes every message with it.
"""

from __future__ import annotations

from datetime import UTC, datetime

MEGABYTE = 1024 * 1024

# A game (shared/spec/game-format.md, "Limits"): players at the table in any one round, and
# names seated in all (those who left and those who joined count among the names, not at the
# table once gone or before they come).
MAX_PLAYERS = 16
MAX_NAMES = 64
MAX_ROUNDS = 500
MAX_HAND_CARDS = 60
# The most a card may score under any house rules (the rules engine refuses more, either way:
# ``card_values`` from -1000 to 1000), and so the most a hand scores: a full hand of such cards
# (a typed total, at most 9,999, and the down-and-out bonus, at most 1,000, are less).
MOST_CARD_POINTS = 1000
MOST_HAND_POINTS = MAX_HAND_CARDS * MOST_CARD_POINTS
# The most points a total the app computes can reach, and so the most a joiner may bring (a
# joiner is brought in at 0 or at the highest total so far): every round's highest hand, in the
# most rounds a game has.
MAX_TOTAL = MAX_ROUNDS * MOST_HAND_POINTS

# The columns' lengths: a name (player, house rules) and a leftover hand in card notation.
NAME_LENGTH = 60
CARDS_LENGTH = 400
# Longer free text of a form (a house rule's contracts, melds for the referee).
TEXT_LENGTH = 2000

# The referee: more cards than any hand or meld at the table holds is a typo, and a guard for
# the rules engine's search.
REFEREE_MAX_CARDS = 30
REFEREE_MAX_MELDS = 8

# One game file, uploaded or read by ``game import``; one line of a backup.
GAME_FILE_BYTES = 5 * MEGABYTE
BACKUP_LINE_BYTES = 5 * MEGABYTE
# What a request may carry: a form; a game-file upload (the file and the multipart framing
# around it); a whole-history restore, read line by line, so its size costs disk, not memory
# (the default of the ``MAX_CONTENT_LENGTH`` setting, which a family can raise).
FORM_BYTES = 1 * MEGABYTE
GAME_UPLOAD_BYTES = GAME_FILE_BYTES + 64 * 1024
RESTORE_BYTES = 64 * MEGABYTE
# The pages that take a file, and how large a request each takes; None: up to the
# ``MAX_CONTENT_LENGTH`` setting (RESTORE_BYTES unless configured).
REQUEST_BYTES: dict[str, int | None] = {
    "games.upload": GAME_UPLOAD_BYTES,
    "history.restore": None,
}
# The moments a stored time may name (a game's start, from a game file, a backup or the command
# line): wide enough for any real game, and far enough inside the years a datetime holds
# (1 to 9999) that every zone (UTC-12 to UTC+14) can show them. A time outside is refused where
# it comes in, never stored; one stored before this check is shown in UTC
# (``local_time.local``).
EARLIEST_YEAR = 1900
LATEST_YEAR = 2199
EARLIEST_TIME = datetime(EARLIEST_YEAR, 1, 1, tzinfo=UTC)
LATEST_TIME = datetime(LATEST_YEAR + 1, 1, 1, tzinfo=UTC)
# The reasons a backup line was refused, kept per line: a report of a huge broken backup must
# not grow without end.
MAX_PROBLEMS_PER_LINE = 20


def time_in_range(moment: datetime) -> bool:
    """Whether ``moment`` (aware) lies within the years the app stores and shows."""
    return EARLIEST_TIME <= moment < LATEST_TIME


def size_in_words(size: int) -> str:
    """``5 MB``, ``64 KB``: a size as a person reads it."""
    if size % MEGABYTE == 0:
        return f"{size // MEGABYTE} MB"
    if size >= MEGABYTE:
        return f"{size / MEGABYTE:.1f} MB"
    return f"{max(1, size // 1024)} KB"
