"""Which seat a phone picked at a game, kept in its session: a phone let in by a table link
enters that seat's hand (``hand_views``), and the change log names that seat's player for what
it changes (``name_the_seat``).

One phone a seat: each phone has a random id in its session (``phone_id``, made on first need,
account or not), and a seat names the phone that holds it (``Seat.phone``). A seat held by
another phone is shown as taken, taken over only when asked (``take_seat``), and the phone that
held it finds it lost (``lost_seat``) on its next request or poll: the game's version moves
when a seat changes hands.
"""

from __future__ import annotations

import re
import secrets

from flask import g, session

from scorekeeper import actors
from scorekeeper.access import visitor
from scorekeeper.inputs import whole_number
from scorekeeper.models import Game
from scorekeeper.versions import bump

SEATS_KEY = "seats"
# A phone remembers its seat at this many games at most (the newest kept).
SEATS_KEPT = 20
PHONE_KEY = "phone"
_PHONE = re.compile(r"[0-9a-f]{32}")


def phone_id() -> str:
    """This phone's id, kept in its session (made here the first time)."""
    phone = session.get(PHONE_KEY)
    if not isinstance(phone, str) or not _PHONE.fullmatch(phone):
        phone = secrets.token_hex(16)
        session[PHONE_KEY] = phone
    return phone


def held_elsewhere(game: Game) -> set[int]:
    """The seats of ``game`` another phone holds."""
    phone = session.get(PHONE_KEY)
    return {seat.position for seat in game.seats if seat.phone and seat.phone != phone}


def lost_seat(game: Game) -> int | None:
    """The seat this phone picked at ``game`` where another phone holds it now, or None."""
    position = seat_of_phone(game)
    return position if position is not None and position in held_elsewhere(game) else None


def take_seat(game: Game, position: int) -> None:
    """This phone holds seat ``position`` of ``game`` from now on, and no other seat of it;
    the phone that held it loses it. Does not commit."""
    phone = phone_id()
    changed = False
    for seat in game.seats:
        wanted = phone if seat.position == position else None
        if seat.phone != wanted and (seat.phone == phone or seat.position == position):
            seat.phone = wanted
            changed = True
    if changed:
        bump(game, counts=False)  # which phone holds a seat changes no statistic


def seat_of_phone(game: Game) -> int | None:
    """The seat this phone picked at ``game``, or None."""
    seats = session.get(SEATS_KEY)
    if not isinstance(seats, dict):
        return None
    return whole_number(str(seats.get(str(game.id), "")), below=len(game.seats))


def name_the_seat(game: Game) -> None:
    """A phone let in by a table link that picked its seat at ``game`` writes as that seat's
    player: the change log says "Ben (table link)", not the link's maker."""
    who = visitor()
    if who.user is not None or who.link is None:
        return
    position = seat_of_phone(game)
    if position is not None:
        g.actor = actors.seat(str(who.link.kind), game.seats[position].player.name)
