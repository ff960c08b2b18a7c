"""The round pages of a game: the round form with the card pad, saving and correcting rounds,
deleting the last one, abandoning the game, and May I. Each reads the request, calls one
service (which writes in one transaction) and answers. A save of the round form is one call,
``entering.save``, whose answer (stored, resent, merged, refused, clash...) ``_answer`` turns
into a page; the form's other sends (a pad key, a live preview) only draw it again.

htmx answers: a refused form is re-rendered with 422 (409 when another phone got there first,
or the rounds changed since the form was made: the current totals and a "Re-apply my entries"
button above the entries as typed), with messages at the fields; the live preview of a
player's cards answers with that player's cards block only. A round saved by app.js (which
sends ``HX-Request``) is answered 204 with ``HX-Redirect`` to the scoreboard instead of a
redirect, so that the script can tell a stored save from a refusal or a lost signal.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from flask import Response, abort, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from sqlalchemy.exc import OperationalError

from scorekeeper.access import Permission, requires
from scorekeeper.db import reading_only
from scorekeeper.extensions import db
from scorekeeper.inputs import whole_number
from scorekeeper.models import Game
from scorekeeper.rules import RuleSet
from scorekeeper.status import GameStatus
from scorekeeper.web import UNPROCESSABLE, is_htmx, render

from ..text import lazy_gettext as _l
from . import bp, changelog, entering, merging, rounds, scoreboard, services
from .forms import (
    NOBODY,
    RoundForm,
    pad_key,
    pad_of,
    read_hand,
    round_contracts,
    typed_total,
)
from .phases import says_phases
from .tally import (
    MAX_TYPED_TOTAL,
    ROUND_FIELD,
    Problem,
    Tally,
    hand_problem,
)
from .views import NO_CHANGE, game_or_404

CONFLICT = 409
# The change log's lines, kept as messages, in the language of the page that shows them.
bp.add_app_template_filter(changelog.line, "log_line")


def _fill_round_form(form: RoundForm, players: int) -> None:
    """Give the form one hand a player, as submitted (empty on a GET)."""
    form.read_hands(players, request.form if request.method == "POST" else {})


def _apply_pad(form: RoundForm, rules: RuleSet) -> int | None:
    """Apply a key of ``rules``' pad (``add-<seat>`` / ``remove-<seat>``) to the seat's text;
    its seat."""
    found = pad_key(
        request.form, len(form.hands), lambda seat: form.hands[seat].cards, pad_of(rules)
    )
    if found is None:
        return None
    seat, cards = found
    form.hands[seat].cards = cards
    return seat


def _every_phase_made(tally: Tally, number: int) -> tuple[bool, ...]:
    """Whether each seat made every phase played before round ``number``: a game of so many
    hands (``hands``) goes on after that, and the form names no phase left for them (a
    tie-break hand's players play the last phase again)."""
    rules = tally.rules
    if not rules.keeps_contracts or number < 2 or tally.is_tie_break(number):
        return (False,) * len(tally.names)
    made = tally.rounds[number - 2].contracts_made
    return tuple(count >= len(rules.phases) for count in made)


def _hand_views(
    form: RoundForm,
    tally: Tally,
    number: int,
    contracts: tuple[int, ...],
    errors: dict[str, list[str]],
) -> list[dict[str, Any]]:
    rules = tally.rules
    went_out = form.went_out_seat(len(tally.names))
    done = _every_phase_made(tally, number)
    views = []
    for seat, name in enumerate(tally.names):
        text = form.hands[seat].cards
        total_text = form.hands[seat].total
        cards, points, card_error = read_hand(text, rules)
        if card_error is None and cards and seat != went_out:
            # Cards the packs cannot hold are said as they are typed, as on a phone's own
            # hand; Save refuses them.
            card_error = hand_problem(rules, tally.table_size(len(tally.rounds) + 1), text)
        if seat == went_out and card_error is None:
            points = rules.down_and_out_bonus if form.one_turn and rules.has_bonus else 0
        if total_text:
            # A typed total is what the hand scores, whatever the cards field holds.
            points = typed_total(total_text)
            card_error = (
                None
                if points is not None
                else _("not a whole number from 0 to %(most)s", most=MAX_TYPED_TOTAL)
            )
        contract = rules.contract(contracts[seat])
        views.append(
            {
                "seat": seat,
                "name": name,
                "text": text,
                "made": form.hands[seat].made,
                "cards": cards,
                "points": points,
                "card_error": card_error,
                "contract": contract,
                "every_phase_made": done[seat],
                "went_out": seat == went_out,
                "made_follows_going_out": contract.going_out_only,
                "errors": errors.get(f"cards-{seat}", []),
                "made_errors": errors.get(f"made-{seat}", []),
                "total": total_text,
                "total_errors": errors.get(f"total-{seat}", []),
            }
        )
    return views


def _render_round(
    game: Game,
    form: RoundForm,
    tally: Tally,
    *,
    number: int,
    editing: bool,
    problems: list[Problem] | None = None,
    status: int = 200,
    message: str | None = None,
    conflict: str | None = None,
    only_seat: int | None = None,
    preview_seat: int | None = None,
) -> Response:
    contracts = round_contracts(tally, number)
    if editing:
        dealer = tally.rounds[number - 1].dealer
    else:
        dealer = tally.next_dealer if tally.next_dealer is not None else 0
    errors: dict[str, list[str]] = {}
    general: list[str] = []
    for problem in problems or []:
        if problem.round not in (None, number) or problem.field == ROUND_FIELD:
            general.append(problem.message)
        else:
            errors.setdefault(problem.field, []).append(problem.message)
    if message:
        general.insert(0, message)
    summary = [(_anchor(field), text) for field, texts in errors.items() for text in texts]
    hands = _hand_views(form, tally, number, contracts, errors)
    context: dict[str, Any] = {
        "game": game,
        "tally": tally,
        "form": form,
        "number": number,
        "editing": editing,
        "heading": (
            _("Correct round %(number)s", number=number)
            if editing
            else _("Round %(number)s", number=number)
        ),
        "hands": [hand for hand in hands if hand["seat"] in tally.dealt_in(number)],
        "dealer": tally.names[dealer],
        "errors": errors,
        "general": general,
        "conflict": conflict,
        "summary": summary,
        "nobody_allowed": tally.rules.nobody_out_allowed,
        "pad": pad_of(tally.rules),
        "phases": says_phases(tally.rules),
        "is_last": editing and number == len(tally.rounds),
        "clashes": merging.clash_choices(form, tally.names, request.form) if editing else [],
        "action": (
            url_for("games.edit_round", game_id=game.id, number=number)
            if editing
            else url_for("games.new_round", game_id=game.id)
        ),
    }
    if only_seat is not None and is_htmx():
        return render("games/_cards.html", status=status, hand=hands[only_seat], **context)
    if preview_seat is not None and is_htmx():
        template = "games/_cards.html" if request.form.get("redraw") else "games/_points.html"
        return render(template, status=status, hand=hands[preview_seat], **context)
    return render("games/round.html", "games/_round_form.html", status=status, **context)


def _anchor(field: str) -> str:
    """Where on the round form the message for ``field`` is shown."""
    kind, _, seat = field.partition("-")
    if kind in ("cards", "made", "total") and seat:
        return f"#hand-{seat}"
    return "#went-out" if field == "went_out" else "#table-error"


def _seat_arg(name: str, players: int) -> int | None:
    return whole_number(request.form.get(name), below=players)


def _unsaved(game: Game, form: RoundForm, number: int, *, editing: bool) -> Response:
    """The answer to a round form sent for anything but a save: a pad key (that hand's block),
    a live preview (its points), a change of who went out (the form again)."""
    tally = services.tally_of(game)
    cleared = form.clear_went_out(list(tally.names))
    draw = partial(_render_round, game, form, tally, number=number, editing=editing)
    pad_seat = _apply_pad(form, tally.rules)
    if pad_seat is not None:
        return draw(only_seat=pad_seat)
    preview = _seat_arg("preview", len(tally.names))
    if preview is not None:
        return draw(preview_seat=preview)
    return draw(message=cleared)


def _answer(game: Game, form: RoundForm, answer: entering.Answer) -> ResponseReturnValue:
    """The page for what a save came to: the scoreboard where the round is settled (told what
    happened) or where no form is left to show (told why); else the form again, saying why
    nothing was saved, with 422 or 409."""
    if answer.cleared:
        flash(answer.cleared, "warning")
    if answer.happened in entering.ELSEWHERE:
        flash(answer.said, "warning")
        # A plain redirect even for app.js: nothing was stored, the typing stays kept.
        return redirect(url_for("games.show", game_id=game.id))
    if answer.happened in entering.SETTLED:
        if answer.said:
            flash(answer.said, answer.level)
        return _to_board(game.id)
    assert answer.tally is not None
    return _render_round(
        game,
        form,
        answer.tally,
        number=answer.number,
        editing=answer.editing,
        problems=answer.problems,
        status=answer.status,
        conflict=answer.said or None,
    )


SAVE_FAILED = _l(
    "The database could not save this just now (it may be busy, full or restarting); "
    "nothing was saved. Your entries are below: save again in a moment."
)
UNAVAILABLE = 503


def _save_failed(game_id: int, number: int | None) -> ResponseReturnValue:
    """The round form again, as it was typed, after the database failed the save (a full
    disk, another writer past the busy timeout, a server restarting): read in a read-only
    transaction, which a busy SQLite still serves."""
    db.session.rollback()
    reading_only()
    game = game_or_404(game_id)
    form = RoundForm()
    _fill_round_form(form, len(game.seats))
    editing = number is not None
    if number is None:
        number = whole_number(form.number.data) or len(game.rounds) + 1
    elif not any(played.number == number for played in game.rounds):
        abort(404)
    return _render_round(
        game,
        form,
        services.tally_of(game),
        number=number,
        editing=editing,
        status=UNAVAILABLE,
        message=str(SAVE_FAILED),
    )


@bp.route("/<int:game_id>/rounds/new", methods=["GET", "POST"])
@requires(Permission.SCORE)
def new_round(game_id: int) -> ResponseReturnValue:
    try:
        return _new_round(game_id)
    except OperationalError:
        if request.method != "POST":
            raise
        return _save_failed(game_id, None)


def _went_out_asked(game: Game) -> str:
    """Who went out, as the board's shortcut into a new round names it (``?went_out=<seat>``
    or ``nobody`` where the rules allow it): picked on the form, shown, and changeable; anything
    else picks nobody, and the form asks as usual."""
    asked = request.args.get("went_out", "")
    if asked == NOBODY:
        return asked if services.rules_of(game).nobody_out_allowed else ""
    seat = whole_number(asked, below=len(game.seats))
    return "" if seat is None else str(seat)


def _to_board(game_id: int) -> ResponseReturnValue:
    """After a save: the scoreboard (for app.js, 204 naming it in ``HX-Redirect``)."""
    address = url_for("games.show", game_id=game_id)
    if is_htmx():
        return Response(status=NO_CHANGE, headers={"HX-Redirect": address})
    return redirect(address)


def _new_round(game_id: int) -> ResponseReturnValue:
    saving = "save" in request.form
    game = game_or_404(game_id, lock=saving)
    form = RoundForm()
    _fill_round_form(form, len(game.seats))
    if saving:
        return _answer(game, form, entering.save(game, form))
    if game.status != GameStatus.IN_PROGRESS:
        flash(rounds.no_more_rounds(game), "warning")
        return redirect(url_for("games.show", game_id=game.id))
    number = len(game.rounds) + 1
    if request.method == "GET":
        entering.open_new(game, form, went_out=_went_out_asked(game))
        return _render_round(game, form, services.tally_of(game), number=number, editing=False)
    return _unsaved(game, form, number, editing=False)


@bp.route("/<int:game_id>/rounds/<int:number>/edit", methods=["GET", "POST"])
@requires(Permission.SCORE)
def edit_round(game_id: int, number: int) -> ResponseReturnValue:
    try:
        return _edit_round(game_id, number)
    except OperationalError:
        if request.method != "POST":
            raise
        return _save_failed(game_id, number)


def _edit_round(game_id: int, number: int) -> ResponseReturnValue:
    game = game_or_404(game_id, lock=request.method == "POST")
    played = next((r for r in game.rounds if r.number == number), None)
    if played is None:
        abort(404)
    form = RoundForm()
    if request.method == "GET":
        _fill_round_form(form, len(game.seats))
        entering.open_correction(game, played, form)
        return _render_round(game, form, services.tally_of(game), number=number, editing=True)
    _fill_round_form(form, len(game.seats))
    if "save" in request.form:
        return _answer(game, form, entering.save(game, form, number=number, picks=request.form))
    return _unsaved(game, form, number, editing=True)


@bp.post("/<int:game_id>/rounds/<int:number>/delete")
@requires(Permission.SCORE)
def delete_round(game_id: int, number: int) -> ResponseReturnValue:
    game = game_or_404(game_id, lock=True)
    if not any(r.number == number for r in game.rounds):
        abort(404)
    try:
        rounds.delete_last_round(game, number, stamp=request.form.get("rounds_version") or None)
    except rounds.StaleSave as stale:
        flash(str(stale), "error")
        return redirect(url_for("games.edit_round", game_id=game.id, number=number))
    except rounds.RoundConflict as conflict:
        flash(str(conflict), "error")
        return redirect(url_for("games.show", game_id=game.id))
    flash(_("Round %(number)s deleted.", number=number), "success")
    return redirect(url_for("games.show", game_id=game.id))


# --- abandon, May I -----------------------------------------------------------------------


@bp.post("/<int:game_id>/abandon")
@requires(Permission.SCORE)
def abandon(game_id: int) -> ResponseReturnValue:
    game = game_or_404(game_id, lock=True)
    rounds.abandon_game(game)
    flash(_("The game was abandoned: it is kept, with no winner."), "success")
    return redirect(url_for("games.show", game_id=game.id))


@bp.post("/<int:game_id>/may-i")
@requires(Permission.SCORE)
def may_i(game_id: int) -> ResponseReturnValue:
    game = game_or_404(game_id, lock=True)
    seat = _seat_arg("seat", len(game.seats))
    change = -1 if request.form.get("change") == "-1" else 1
    status = 200
    if seat is None:
        abort(400)
    try:
        rounds.use_may_i(game, seat, change)
    except rounds.RoundRefused as refused:
        status = UNPROCESSABLE
        said = refused.in_words()
        if not is_htmx():
            flash(said, "error")
        else:
            context = scoreboard.board_context(game)
            context["may_i_error"] = said
            return render("games/_board.html", status=status, **context)
    if is_htmx():
        return render("games/_board.html", **scoreboard.board_context(game))
    return redirect(url_for("games.show", game_id=game.id) + "#may-i")
