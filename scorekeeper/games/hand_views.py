"""Each player enters their own hand, on their own phone (``drafts`` keeps the round on the
server meanwhile): pick a seat once ("I'm Ann", remembered in this phone's session), tap "I
went out" or the cards left, and the scorer's "Close round", which may fill a missing hand.

A phone writes only the seat it picked: the seat is read from its session, never from the
form, and a form still naming the phone's old seat is refused (409). Only a member's account
may fill another player's hand, on the close page.

htmx answers as on the round form: a pad key answers with the cards area, the typed cards with
the points; a refusal re-renders with 422 (409 when another phone got there first); a waiting
page polls with the game's version and gets 204 while nothing changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Response, current_app, flash, redirect, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from sqlalchemy.exc import OperationalError
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.access import Permission, forbidden, requires, visitor
from scorekeeper.db import reading_only
from scorekeeper.extensions import db
from scorekeeper.inputs import whole_number
from scorekeeper.models import Game
from scorekeeper.rules import Message
from scorekeeper.status import GameStatus
from scorekeeper.web import UNPROCESSABLE, is_htmx, render
from scorekeeper.words import words

from ..text import lazy_gettext as _l
from . import (
    bp,
    changelog,
    comings,
    drafts,
    entering,
    late_hands,
    merging,
    rounds,
    scoreboard,
    services,
)
from .forms import pad_key, pad_of, read_hand, remove_card
from .late_hands import what_got_stored
from .merging import Sheet
from .phases import says_phases
from .seats import SEATS_KEPT, SEATS_KEY, held_elsewhere, lost_seat, seat_of_phone, take_seat
from .tally import Tally, hand_problem
from .views import game_or_404

CONFLICT = 409
# The "went out" button's value of a player who went down and out in one turn (the bonus).
ONE_TURN = "one-turn"
NO_CHANGE = 204
UNAVAILABLE = 503
SAVE_FAILED = _l(
    "The database could not save this just now (it may be busy, full or restarting); "
    "nothing was saved. Tap again in a moment."
)


def _hold_seat(game: Game, position: int) -> None:
    """This phone holds seat ``position`` (and remembers it), committed."""
    seats = session.get(SEATS_KEY)
    seats = dict(seats) if isinstance(seats, dict) else {}
    seats.pop(str(game.id), None)
    seats[str(game.id)] = position
    while len(seats) > SEATS_KEPT:
        seats.pop(next(iter(seats)))
    session[SEATS_KEY] = seats
    before = game.version
    take_seat(game, position)
    game_id, after = game.id, game.version
    db.session.commit()
    if after != before:
        services.carry_tally(game_id, before, after)


# --- pick a seat ------------------------------------------------------------------------------


@bp.route("/<int:game_id>/seat", methods=["GET", "POST"])
@requires(Permission.SCORE)
def pick_seat(game_id: int) -> ResponseReturnValue:
    """The seat picker: a seat another phone holds is shown as taken, and taken over only
    once this phone says so (``take_over``) on the question its tap brings."""
    game = game_or_404(game_id, lock=request.method == "POST")
    problem = None
    asking = None
    taken = held_elsewhere(game)
    at_table = scoreboard.at_table(services.tally_of(game))
    if request.method == "POST":
        position = whole_number(request.form.get("seat"), below=len(game.seats))
        position = position if position in at_table else None
        if position is not None and (position not in taken or request.form.get("take_over")):
            _hold_seat(game, position)
            return redirect(url_for("games.hand", game_id=game.id), code=303)
        if position is None:
            problem = _("Tap your name: this phone then enters that player's hand.")
        asking = position
    mine = seat_of_phone(game)
    return render(
        "games/seat.html",
        status=UNPROCESSABLE if problem else 200,
        game=game,
        names=[seat.player.name for seat in game.seats],
        at_table=at_table,
        mine=None if mine in taken else mine,
        taken=taken,
        asking=asking,
        problem=problem,
    )


# --- my hand ----------------------------------------------------------------------------------


def _my_hand(
    game: Game,
    position: int,
    *,
    status: int = 200,
    message: str | None = None,
    card_error: Message | str | None = None,
    typed: str | None = None,
    fragment: str | None = None,
    lost: bool = False,
    put_in: late_hands.PutIn | None = None,
    counting_oob: bool = False,
) -> Response:
    """The page of this phone's hand (or one of its fragments, for htmx); ``lost``: another
    phone holds its seat now; ``put_in``: the hand it had typed, to put in a round closed
    under it; ``counting_oob``: the "Counting: ..." line is to be swapped in by its id."""
    context: dict[str, Any] = {
        "game": game,
        "position": position,
        "lost": lost,
        "put_in": put_in,
        "sitting_out": False,
    }
    tally = services.tally_of(game)
    # A player who sits out the tie-break hand owed (only the tied play it) enters nothing:
    # the phone says so and waits for the hand to be stored.
    sitting_out = bool(tally.tie_break_owed) and position not in tally.tie_break_owed
    playing = game.status == GameStatus.IN_PROGRESS and position not in tally.lineup.left
    if playing and not lost and not sitting_out:
        draft = drafts.draft_of(game)
        mine = draft.seats[position]
        tally = services.tally_of(game)
        contract = tally.rules.contract(tally.next_contracts[position])
        # Where each keeps their own contract, one made in the last round moved them on.
        last_hand = (
            tally.rounds[-1].hands[position] if tally.keeps_contracts and tally.rounds else None
        )
        text = mine.cards if typed is None else typed
        cards, points, wrong = read_hand(text, tally.rules)
        if wrong is None and cards:
            # Cards the packs cannot hold are said at the field as they are typed; Done
            # refuses them (drafts).
            problem = hand_problem(tally.rules, tally.table_size(draft.number), text)
            wrong = problem and problem.capitalized()
        card_error = card_error or wrong
        context |= {
            "draft": draft,
            "refusal": drafts.why_refused(game, draft),
            "mine": mine,
            "contract": contract,
            # This phone's player made their contract (phase) in the last round: moved on.
            "moved_on": bool(last_hand and last_hand.in_round and last_hand.made_contract),
            # A game of so many hands (hands) goes on after a player made every phase.
            "every_phase_made": bool(
                last_hand and tally.rounds[-1].contracts_made[position] >= len(tally.rules.phases)
            ),
            # While a tie-break hand is owed: who is tied, and whether this seat plays it.
            "tie_break_next": tally.tie_break_next,
            "in_tie_break": position in tally.tie_break_owed,
            "dealer": tally.names[tally.next_dealer or 0],
            # Points for going down and out in one turn, where the rules give them.
            "bonus": tally.rules.down_and_out_bonus if tally.rules.has_bonus else None,
            "nobody_allowed": tally.rules.nobody_out_allowed,
            # A tie-break hand asks no "made": whoever goes out first wins it.
            "tie_break": tally.is_tie_break(draft.number),
            "hand": {
                "seat": "mine",
                "name": mine.name,
                "text": text,
                "cards": cards,
                "points": points,
                "card_error": card_error,
                "errors": [],
            },
        }
    elif playing and not lost:
        draft = None
        context |= {"tie_break_next": tally.tie_break_next, "sitting_out": True}
    else:
        draft = None
        context["game_over"] = tally.game_over if not lost else ""
        if not lost and (gone := comings.left_words(tally, position)):
            context["game_over"] = gone
    last = len(game.rounds)
    context |= {
        "phases": says_phases(tally.rules),
        "last_round": (changelog.describe_round(services.tally_of(game), last) if last else None),
        "last_number": last,
        "message": message,
        "counting_oob": counting_oob,
        "pad": pad_of(tally.rules),
        "action": url_for("games.hand", game_id=game.id),
        "poll_seconds": current_app.config["SCOREBOARD_POLL_SECONDS"],
    }
    if fragment is not None and is_htmx():
        return render(fragment, status=status, **context)
    response = render("games/hand.html", "games/_my_hand.html", status=status, **context)
    if is_htmx():
        # A pad key aimed at the cards, answered with the whole hand (the round moved on).
        response.headers["HX-Retarget"] = "#my-hand"
        response.headers["HX-Reswap"] = "outerHTML"
    return response


@bp.route("/<int:game_id>/hand", methods=["GET", "POST"])
@requires(Permission.SCORE)
def hand(game_id: int) -> ResponseReturnValue:
    game = game_or_404(game_id, lock=request.method == "POST")
    position = seat_of_phone(game)
    if position is None:
        return redirect(url_for("games.pick_seat", game_id=game.id), code=303)
    if lost_seat(game) is not None:
        # Another phone took this seat over: nothing is written from here, what this phone
        # had typed is shown, and the seat is only taken back by asking (the picker).
        sent = request.form.get("cards") if request.method == "POST" else request.args.get("cards")
        return _lost(game, position, sent, status=CONFLICT if request.method == "POST" else 200)
    if game.seats[position].phone is None:
        _hold_seat(game, position)  # a seat picked before seats were held: held from now on
    if request.method == "GET":
        opened = whole_number(request.args.get("open"))
        moved_on = opened is not None and (
            game.status != GameStatus.IN_PROGRESS or len(game.rounds) >= opened
        )
        unchanged = request.args.get("v") == str(game.version) or (
            opened is not None and "v" not in request.args
        )
        if is_htmx() and unchanged and not moved_on:
            # The pad's poll (``open`` without ``v``) waits for its round alone to end: the
            # other phones' hands coming in redraw nothing under the thumb, only the
            # "Counting: ..." line, where the game changed since that line was drawn.
            counted = request.args.get("counted")
            if "v" in request.args or counted in (None, str(game.version)):
                return Response(status=NO_CHANGE)
            # The line alone, swapped in by its id (out of band); the pad itself stays.
            line = _my_hand(game, position, fragment="games/_counting.html", counting_oob=True)
            line.headers["HX-Reswap"] = "none"
            return line
        message, put_in = None, None
        if moved_on and opened is not None:
            typed = request.args.get("cards")
            message, typed_else = what_got_stored(game, position, opened, typed)
            if "v" in request.args and not typed_else:
                message = None  # a hand that was in, stored as it was: the page says so
            put_in = late_hands.put_in_offer(game, position, opened, typed) if typed_else else None
        return _my_hand(game, position, message=message, put_in=put_in)
    tally = services.tally_of(game)
    if not tally.is_over and position not in tally.dealt_in(len(tally.rounds) + 1):
        # A phone still on the seat of a player who left reads the game, and writes nothing.
        return _my_hand(
            game, position, status=CONFLICT, message=words(drafts.not_dealt_in(game, position))
        )
    form_seat = request.form.get("seat")
    if form_seat is not None and whole_number(form_seat) != position:
        return _my_hand(
            game,
            position,
            status=CONFLICT,
            message=_(
                "This phone is now %(name)s's: nothing was saved. Check the hand below.",
                name=game.seats[position].player.name,
            ),
        )
    try:
        return _write_my_hand(game, position)
    except OperationalError:
        db.session.rollback()
        reading_only()
        return _my_hand(
            game_or_404(game_id), position, status=UNAVAILABLE, message=str(SAVE_FAILED)
        )


def _lost(game: Game, position: int, typed: str | None, *, status: int) -> Response:
    """The page of a phone whose seat another phone took over: what it had typed (sent with
    this request, else the seat's hand as the draft holds it), and the way back."""
    name = game.seats[position].player.name
    said = _(
        "Another phone took over %(name)s's seat: this phone no longer enters %(name)s's hand.",
        name=name,
    )
    if typed is None and game.status == GameStatus.IN_PROGRESS:
        typed = drafts.draft_of(game).seats[position].cards
    typed = " ".join((typed or "").split())[:400]
    if typed:
        said += " " + _("What this phone had typed, kept: %(cards)s.", cards=typed)
    return _my_hand(game, position, status=status, message=said, lost=True)


def _write_my_hand(game: Game, position: int) -> ResponseReturnValue:
    number = whole_number(request.form.get("number"))
    # A form without the cards field (going out, the waiting page) leaves the cards alone.
    sent = request.form.get("cards")
    cards = (sent or "")[:800]
    fragment = None
    if "add" in request.form:
        cards = pad_of(services.rules_of(game)).adds(cards, request.form.get("add", ""))
        fragment = "games/_my_cards.html"
    elif "remove" in request.form:
        cards = remove_card(cards, request.form.get("remove", ""))
        fragment = "games/_my_cards.html"
    elif request.form.get("preview") == "cards":
        # The phone's own script sends its typing: the chips and points come back around it.
        fragment = "games/_my_cards.html"
    elif "preview" in request.form:
        fragment = "games/_my_points.html"
    went_out = request.form.get("went_out")
    done = request.form.get("done")
    nobody = request.form.get("nobody")
    try:
        if nobody in ("1", "0"):
            stored = drafts.nobody_out(game, number=number, nobody=nobody == "1")
        elif went_out in ("1", "0", ONE_TURN):
            stored = drafts.go_out(
                game,
                position,
                number=number,
                went_out=went_out != "0",
                in_one_turn=went_out == ONE_TURN,
            )
        elif done in ("made", "not", "again"):
            stored = drafts.write_hand(
                game,
                position,
                number=number,
                cards=None if done == "again" or sent is None else cards,
                made_contract=None if done == "again" else done == "made",
                done=done != "again",
            )
        else:
            kept = None if sent is None and fragment != "games/_my_cards.html" else cards
            stored = drafts.write_hand(game, position, number=number, cards=kept)
    except (drafts.DraftClosed, drafts.OutAlready) as overtaken:
        db.session.rollback()
        game = game_or_404(game.id)
        if _sent_again(game, number, went_out, done):
            # A "done" or "I went out" sent again (a phone that had no signal, or whose answer
            # was lost) for a round stored since: nothing to apply, the stored round is shown.
            flash(_("Round %(number)s is stored already.", number=number), "success")
            return redirect(url_for("games.hand", game_id=game.id), code=303)
        message = str(overtaken)
        if number is not None and (
            game.status != GameStatus.IN_PROGRESS or 0 < number <= len(game.rounds)
        ):
            # The round this phone was entering was stored (or the game ended): what got
            # stored, and the typing sent with this request where it is not that.
            message, typed_else = what_got_stored(game, position, number, sent, said=message)
            if typed_else:
                put_in = late_hands.put_in_offer(game, position, number, sent)
                return _my_hand(game, position, status=CONFLICT, message=message, put_in=put_in)
        return _my_hand(game, position, status=CONFLICT, message=message)
    except drafts.DraftRefused as refused:
        db.session.rollback()
        game = game_or_404(game.id)
        return _my_hand(
            game,
            position,
            status=UNPROCESSABLE,
            card_error=None if nobody else refused.message,
            message=words(refused.message) if nobody else None,
            typed=cards,
            fragment=fragment,
        )
    if fragment is not None:
        return _my_hand(game, position, typed=cards, fragment=fragment)
    if stored:
        flash(_("Round %(number)s stored: every hand was in.", number=len(game.rounds)), "success")
    return redirect(url_for("games.hand", game_id=game.id), code=303)


def _sent_again(game: Game, number: int | None, went_out: str | None, done: str | None) -> bool:
    """Whether a hand's "done" or "went out" names a round that is stored now."""
    says_in = went_out in ("1", ONE_TURN) or done in ("made", "not")
    return says_in and number is not None and 0 < number <= len(game.rounds)


# --- the scorer closes the round --------------------------------------------------------------


def _close_page(
    game: Game,
    *,
    status: int = 200,
    problems: list[Message | str] | None = None,
    field_errors: dict[int, Message] | None = None,
    clashes: list[int] | None = None,
    merged: Sheet | None = None,
    as_sent: bool = False,
    pad_key: tuple[int, str] | None = None,
    preview: int | None = None,
    asked: bool = False,
) -> BaseResponse:
    """The close page; with ``merged``, the fields hold it (the scorer's entries where they
    clash) and the ``clashes`` (hands the scorer and that player's phone both changed) are
    shown side by side, to choose. ``as_sent``: the page as its form was sent (a pad key, a
    refusal), every entry kept, and what the page first showed too (its ``was-`` fields, the
    merge's base); ``pad_key``: a seat's cards as a pad key (no JavaScript) made them.
    ``preview``: for htmx, that seat's cards and points alone."""
    if game.status != GameStatus.IN_PROGRESS:
        flash(rounds.no_more_rounds(game), "warning")
        return redirect(url_for("games.show", game_id=game.id))
    draft = drafts.draft_of(game)
    tally = services.tally_of(game)
    players = len(draft.seats)
    sent = _sent_sheet(players) if as_sent else None
    if merged is not None:
        typed = {seat: hand.cards for seat, hand in enumerate(merged.hands)}
        typed_made = {seat: hand.made for seat, hand in enumerate(merged.hands)}
    elif sent is not None:
        typed, typed_made = dict(sent.typed), sent.made
        if pad_key is not None:
            typed[pad_key[0]] = pad_key[1]
    else:
        typed, typed_made = {}, {}
    shown = sent.shown if sent is not None else {}
    errors = field_errors or {}
    hands = [
        _close_hand(seat, typed.get(seat.position, seat.cards), errors.get(seat.position), tally)
        for seat in draft.seats
    ]
    context: dict[str, Any] = {
        "game": game,
        "hands": hands,
        "action": url_for("games.close_round", game_id=game.id),
        "pad": pad_of(tally.rules),
        "phases": says_phases(tally.rules),
        "tie_break": tally.is_tie_break(draft.number),
    }
    if preview is not None and is_htmx():
        return render("games/_cards.html", status=status, hand=hands[preview], **context)
    if clashes is None and sent is not None:
        clashes = sent.clashes
    # Who went out as the page was sent (not on a new round's page, after another phone's).
    kept = sent is not None or merged is not None
    went_out_chosen = request.form.get("went_out", "") if kept else ""
    if not went_out_chosen and draft.nobody_out and draft.went_out is None:
        went_out_chosen = "nobody"  # as a phone said, or the close refused said
    return render(
        "games/close.html",
        status=status,
        draft=draft,
        names=tally.names,
        contracts=[tally.rules.contract(number) for number in tally.next_contracts],
        may_fill=visitor().user is not None,
        refusal=drafts.why_refused(game, draft),
        nobody_allowed=tally.rules.nobody_out_allowed,
        problems=problems or [],
        typed_made=typed_made,
        shown=shown,
        went_out_chosen=went_out_chosen,
        bonus=tally.rules.down_and_out_bonus if tally.rules.has_bonus else None,
        one_turn_chosen=kept and request.form.get("went_out_in_one_turn") == "y",
        typing=late_hands.typed_over(draft, request.form if as_sent else {}),
        asked=asked,
        clashes=[
            {
                "seat": seat,
                "name": tally.names[seat],
                # What the clash was drawn with: the phone's hand then (the page's ``was-``
                # fields) where the page comes back as sent, else the phone's hand now.
                "phone": _hand_words(
                    *shown.get(seat, (draft.seats[seat].cards, draft.seats[seat].made_contract))
                ),
                "mine": _hand_words(hands[seat]["text"], typed_made.get(seat, False)),
                "picked": request.form.get(f"pick-{seat}", "") if as_sent else "",
            }
            for seat in clashes or []
        ],
        **context,
    )


@dataclass(frozen=True)
class _SentSheet:
    """The close page's entries as its form sent them: each hand's cards and made box (where
    the page had a field for it), and what the page showed of it when drawn (``was-``)."""

    typed: dict[int, str]
    made: dict[int, bool]
    shown: dict[int, tuple[str, bool]]
    clashes: list[int]


def _sent_sheet(players: int) -> _SentSheet:
    form = request.form
    typed: dict[int, str] = {}
    made: dict[int, bool] = {}
    shown: dict[int, tuple[str, bool]] = {}
    for seat in range(players):
        if f"cards-{seat}" in form:
            typed[seat] = form[f"cards-{seat}"][:800]
            made[seat] = bool(form.get(f"made-{seat}"))
        if f"was-{seat}" in form:
            shown[seat] = (form[f"was-{seat}"][:800], form.get(f"was-made-{seat}") == "y")
    return _SentSheet(typed, made, shown, merging.decode_parts(form.get("clashes"), players))


def _close_hand(
    seat: drafts.SeatDraft, text: str, error: Message | None, tally: Tally
) -> dict[str, Any]:
    """One hand of the close page as the round form's cards block draws it (games/_cards.html)."""
    cards, points, card_error = read_hand(text, tally.rules)
    return {
        "seat": seat.position,
        "name": seat.name,
        "field": f"cards-{seat.position}",
        "label": (
            _("%(name)s's cards left", name=seat.name)
            if seat.done
            else _("%(name)s's cards left (still counting)", name=seat.name)
        ),
        "text": text,
        "cards": cards,
        "points": points,
        "card_error": card_error,
        "errors": [error] if error else [],
    }


def _hand_words(cards: str, made: bool) -> str:
    hand = " ".join(cards.split()) or _("no cards")
    return _("%(hand)s, made the contract", hand=hand) if made else hand


def _went_out_arg(game: Game) -> int | str | None:
    """Who went out as the close page says (where the draft names nobody): a seat, None for
    nobody, "" when not said."""
    went_out = request.form.get("went_out", "")
    if went_out == "nobody":
        return None
    seat = whole_number(went_out, below=len(game.seats))
    return "" if seat is None else seat


@bp.route("/<int:game_id>/close", methods=["GET", "POST"])
@requires(Permission.SCORE)
def close_round(game_id: int) -> ResponseReturnValue:
    game = game_or_404(game_id, lock=request.method == "POST")
    if request.method == "GET":
        return _close_page(game)
    if "close" not in request.form:
        # A pad key or chip (no JavaScript), a hand's live preview, Enter in a field: the page
        # (or that hand's cards, for htmx) as sent, nothing stored.
        players = len(game.seats)
        preview = whole_number(request.form.get("preview"), below=players)
        keyed = pad_key(
            request.form,
            players,
            lambda seat: request.form.get(f"cards-{seat}", "")[:800],
            pad_of(services.rules_of(game)),
        )
        return _close_page(game, as_sent=True, pad_key=keyed, preview=preview)
    try:
        return _close(game)
    except OperationalError:
        db.session.rollback()
        reading_only()
        return _close_page(
            game_or_404(game_id), status=UNAVAILABLE, problems=[str(SAVE_FAILED)], as_sent=True
        )


def _close(game: Game) -> ResponseReturnValue:
    fills = any(f"cards-{seat.position}" in request.form for seat in game.seats)
    if fills and visitor().user is None:
        return forbidden(visitor())
    draft = drafts.draft_of(game) if game.status == GameStatus.IN_PROGRESS else None
    if late_hands.typed_over(draft, request.form) and request.form.get("close") != "over":
        # A hand being typed is closed over only when asked, as a second, deliberate choice.
        return _close_page(game, status=CONFLICT, as_sent=True, asked=True)
    answer = entering.close(
        game,
        number=whole_number(request.form.get("number")),
        went_out=_went_out_arg(game),
        one_turn=request.form.get("went_out_in_one_turn") == "y",
        sent=request.form,
    )
    happened = answer.happened
    if happened in entering.SETTLED or happened in entering.ELSEWHERE:
        flash(answer.said, answer.level)
        # A game that ended meanwhile is left with a plain 302, as before the service.
        code = 303 if happened in entering.SETTLED else 302
        return redirect(url_for("games.show", game_id=game.id), code=code)
    if happened is entering.Happened.CLASH:
        return _close_page(game, status=answer.status, clashes=answer.clashes, merged=answer.merged)
    if happened is entering.Happened.MOVED_ON:
        return _close_page(game, status=answer.status, problems=[answer.said])
    return _close_page(
        game,
        status=answer.status,
        problems=[problem.message for problem in answer.problems],
        field_errors=answer.seat_errors,
        as_sent=True,
    )
