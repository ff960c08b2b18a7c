"""Which seat a phone picked at a game, kept in its session: a phone let in by a table link
enters that seat's hand (``hand_views``), and the change log names that seat's player for what
it changes (``name_the_seat``)."""

from __future__ import annotations

from flask import g, session

from scorekeeper.access import visitor
from scorekeeper.inputs import whole_number
from scorekeeper.models import Game

SEATS_KEY = "seats"
# A phone remembers its seat at this many games at most (the newest kept).
SEATS_KEPT = 20


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
        g.actor = f"{game.seats[position].player.name} ({who.link.kind} link)"
