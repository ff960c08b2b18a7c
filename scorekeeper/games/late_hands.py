"""A hand closed under its phone: what the phone is told when the round it was typing was
stored (by the round form, the scorer's close, or the game ending), the one tap that puts in
what it had typed (a correction of that hand, merged as corrections are:
``entering.put_in``), and the close page's question before it closes over a hand being
typed (``drafts.Draft.still_typing``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flask import flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import format_decimal, ngettext
from flask_babel import gettext as _

from scorekeeper.access import Permission, requires
from scorekeeper.inputs import whole_number
from scorekeeper.models import Game
from scorekeeper.words import words

from . import bp, changelog, drafts, entering, services
from .forms import card_tokens
from .seats import lost_seat, seat_of_phone
from .views import game_or_404


@dataclass(frozen=True)
class PutIn:
    """What a phone had typed of round ``number`` beyond what was stored (``was``), offered
    to put in with one tap; ``going_out_only``: its contract is made only by going out, so
    there is no "made" to say."""

    number: int
    cards: str
    was: str
    going_out_only: bool


@dataclass(frozen=True)
class Typing:
    """A hand being typed that a close would store as it stands."""

    position: int
    name: str
    cards: str


def typed_over(draft: drafts.Draft | None, form: Mapping[str, str]) -> list[Typing]:
    """The hands still being typed on their phones (``Draft.still_typing``) that a close sent
    with ``form`` would store as they stand: not those the scorer typed in on the close page
    (their field holds other than the page showed, its ``was-`` field)."""
    if draft is None:
        return []
    return [
        Typing(seat.position, seat.name, seat.cards)
        for seat in draft.still_typing()
        if form.get(f"cards-{seat.position}", "") == form.get(f"was-{seat.position}", "")
    ]


def what_got_stored(
    game: Game, position: int, number: int, typed: str | None, *, said: str | None = None
) -> tuple[str, bool]:
    """What a phone still on round ``number`` is told when its poll finds the round over
    (stored on the round form, closed by the scorer, or the game abandoned): what was stored
    as its hand, and what it had typed where that is not it (then True beside it). ``said``:
    what the phone is told already that the round is over, in place of this function's own
    first sentence."""
    typed = (typed or "").strip()[:400]
    name = game.seats[position].player.name
    had_typed = _("You had typed: %(cards)s.", cards=typed)
    if number > len(game.rounds):
        over = said or _("Round %(number)s was not stored: the game ended.", number=number)
        return (f"{over} {had_typed}", True) if typed else (over, False)
    played = services.tally_of(game).rounds[number - 1]
    hand = played.hands[position]
    if played.went_out == position:
        stored = _("%(name)s went out", name=name)
    else:
        stored = ngettext(
            "%(name)s %(cards)s = %(points)s point",
            "%(name)s %(cards)s = %(points)s points",
            hand.points,
            name=name,
            points=format_decimal(hand.points),
            cards=words(changelog.hand_text(hand)),
        )
    if said:
        told = f"{said} " + _("Stored: %(hand)s.", hand=stored)
    else:
        told = _(
            "Round %(number)s was stored on another phone: %(hand)s.", number=number, hand=stored
        )
    if typed and card_tokens(typed) != card_tokens(hand.cards or ""):
        return f"{told} {had_typed}", True
    return told, False


def put_in_offer(game: Game, position: int, number: int, typed: str | None) -> PutIn | None:
    """The one tap offered to a phone whose round ``number`` was stored while it typed other
    cards (``typed``) than its hand got: None where the round is not stored, or the player
    went out."""
    typed = " ".join((typed or "").split())[:400]
    if not typed or not 1 <= number <= len(game.rounds):
        return None
    tally = services.tally_of(game)
    played = tally.rounds[number - 1]
    if played.went_out == position or played.hands[position].typed_total:
        return None
    hand = played.hands[position]
    going_out_only = tally.rules.contract(hand.contract).going_out_only
    return PutIn(number, typed, hand.cards or "", going_out_only)


@bp.post("/<int:game_id>/hand/put-in")
@requires(Permission.SCORE)
def put_in_hand(game_id: int) -> ResponseReturnValue:
    """Put in the hand this phone had typed when its round was closed under it: one tap, a
    correction of that one hand of the round."""
    game = game_or_404(game_id, lock=True)
    position = seat_of_phone(game)
    back = redirect(url_for("games.hand", game_id=game.id), code=303)
    number = whole_number(request.form.get("number"))
    if position is None or lost_seat(game) is not None or number is None:
        flash(_("This phone does not hold that seat now: nothing was saved."), "error")
        return back
    answer = entering.put_in(
        game,
        number,
        position,
        cards=request.form.get("cards", "")[:800],
        made=request.form.get("done") == "made",
        was=request.form.get("was", "")[:800],
    )
    flash(answer.said, answer.level)
    return back
