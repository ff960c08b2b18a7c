"""The round pages of a game: the round form with the card pad, saving and correcting rounds,
undoing or deleting the last one, abandoning the game, and May I. Each reads the request, calls
one service of ``rounds`` (which writes in one transaction) and answers.

htmx answers: a refused form is re-rendered with 422 (409 when another phone got there first,
or the rounds changed since the form was made: the current totals and a "Re-apply my entries"
button above the entries as typed), with messages at the fields; the live preview of a
player's cards answers with that player's cards block only. A round saved by app.js (which
sends ``HX-Request``) is answered 204 with ``HX-Redirect`` to the scoreboard instead of a
redirect, so that the script can tell a stored save from a refusal or a lost signal.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from flask import Response, abort, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy.exc import OperationalError

from scorekeeper.access import Permission, requires
from scorekeeper.db import reading_only
from scorekeeper.extensions import db
from scorekeeper.inputs import whole_number
from scorekeeper.models import Game, Round
from scorekeeper.rules import N_
from scorekeeper.rules.messages import listing
from scorekeeper.status import GameStatus
from scorekeeper.web import UNPROCESSABLE, is_htmx, render
from scorekeeper.words import words

from . import bp, changelog, merging, rounds, scoreboard, services
from .forms import (
    NOBODY,
    PAD_RANKS,
    RoundForm,
    pad_key,
    read_hand,
    round_contracts,
    typed_total,
)
from .tally import (
    MAX_TYPED_TOTAL,
    ROUND_FIELD,
    Problem,
    Tally,
    hand_problem,
    typed_total_problem,
)
from .views import NO_CHANGE, game_or_404

CONFLICT = 409
# The change log's lines, kept as messages, in the language of the page that shows them.
bp.add_app_template_filter(changelog.line, "log_line")


def _fill_round_form(form: RoundForm, players: int, played: Round | None = None) -> None:
    """Give the form one hand a player: as submitted, or from ``played`` (a stored round)."""
    form.read_hands(players, request.form if request.method == "POST" else {})
    if played is not None:
        merging.put_sheet(form, merging.sheet_of_round(played, players))


def _apply_pad(form: RoundForm) -> int | None:
    """Apply a pad key (``add-<seat>`` / ``remove-<seat>``) to the seat's text; its seat."""
    found = pad_key(request.form, len(form.hands), lambda seat: form.hands[seat].cards)
    if found is None:
        return None
    seat, cards = found
    form.hands[seat].cards = cards
    return seat


def _hand_views(
    form: RoundForm, tally: Tally, contracts: tuple[int, ...], errors: dict[str, list[str]]
) -> list[dict[str, Any]]:
    rules = tally.rules
    went_out = form.went_out_seat(len(tally.names))
    views = []
    for seat, name in enumerate(tally.names):
        text = form.hands[seat].cards
        total_text = form.hands[seat].total
        cards, points, card_error = read_hand(text, rules)
        if card_error is None and cards and seat != went_out:
            # Cards the packs cannot hold are said as they are typed, as on a phone's own
            # hand; Save refuses them.
            card_error = hand_problem(rules, len(tally.names), text)
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
    tally = services.tally_of(game)
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
    hands = _hand_views(form, tally, contracts, errors)
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
        "hands": [hand for hand in hands if tally.lineup.plays(hand["seat"], number)],
        "dealer": tally.names[dealer],
        "errors": errors,
        "general": general,
        "conflict": conflict,
        "summary": summary,
        "nobody_allowed": tally.rules.nobody_out_allowed,
        "pad_ranks": PAD_RANKS,
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


def _unless_saving(
    game: Game, form: RoundForm, number: int, *, editing: bool
) -> ResponseReturnValue | None:
    """The answer to a round form sent for anything but a save (a pad key, a live preview, a
    change of who went out), or refused before the rules are asked (nobody said who went
    out); None when the round is to be saved."""
    players = len(game.seats)
    cleared = form.clear_went_out([seat.player.name for seat in game.seats])
    pad_seat = _apply_pad(form)
    if pad_seat is not None:
        return _render_round(game, form, number=number, editing=editing, only_seat=pad_seat)
    preview = _seat_arg("preview", players)
    if preview is not None:
        return _render_round(game, form, number=number, editing=editing, preview_seat=preview)
    if "save" not in request.form:
        return _render_round(game, form, number=number, editing=editing, message=cleared)
    if cleared:
        flash(cleared, "warning")
    problems = [
        typed_total_problem(number, game.seats[seat].player.name, seat, hand.total)
        for seat, hand in enumerate(form.hands)
        if hand.total and typed_total(hand.total) is None
    ]
    if form.went_out_seat(players) == "":
        problems.insert(
            0, Problem(number, "went_out", N_("Round %(round)s: say who went out.", round=number))
        )
    if problems:
        return _render_round(
            game, form, number=number, editing=editing, problems=problems, status=UNPROCESSABLE
        )
    return None


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
        game, form, number=number, editing=editing, status=UNAVAILABLE, message=str(SAVE_FAILED)
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
        return asked if services.tally_of(game).rules.nobody_out_allowed else ""
    seat = whole_number(asked, below=len(game.seats))
    return "" if seat is None else str(seat)


def _to_board(game_id: int) -> ResponseReturnValue:
    """After a save: the scoreboard (for app.js, 204 naming it in ``HX-Redirect``)."""
    address = url_for("games.show", game_id=game_id)
    if is_htmx():
        return Response(status=NO_CHANGE, headers={"HX-Redirect": address})
    return redirect(address)


# What ``secrets.token_urlsafe`` makes; anything else is no token of this app's forms (and
# could collide with the ids that rounds closed from drafts are stored under).
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,43}")


def _resent(form: RoundForm, game: Game) -> bool:
    """Whether this form's round was stored already, from this very form: its one-time token
    stored this round, with these hands. A token that is no token of ours, or that stored
    another round than the one sent (a copy of an old form, kept on a phone without signal,
    filled in for the next round), is replaced by a new one: the save is then checked as any
    other, and stores its own round or is refused with the typing kept."""
    token = form.token.data or ""
    saved = rounds.saved_under(token) if _TOKEN.fullmatch(token) else None
    number = whole_number(form.number.data)
    if (
        saved is not None
        and number is not None
        and saved == (game.id, number)
        and rounds.same_round(game, number, form.entry(services.tally_of(game), number))
    ):
        return True
    if saved is not None or not _TOKEN.fullmatch(token):
        form.token.data = secrets.token_urlsafe(16)
    return False


def _new_round(game_id: int) -> ResponseReturnValue:
    game = game_or_404(game_id, lock="save" in request.form)
    players = len(game.seats)
    form = RoundForm()
    _fill_round_form(form, players)
    number = len(game.rounds) + 1
    if "save" in request.form and _resent(form, game):
        # A save sent again (its first answer lost, or queued offline and sent twice) is
        # answered as stored, before any check that the first save itself made fail.
        flash(_("That round was already saved."), "warning")
        return _to_board(game.id)
    opened_for = whole_number(form.number.data)
    played = next((r for r in game.rounds if r.number == opened_for), None)
    if "save" in request.form and played is not None:
        # Another phone stored the round this form was opened for (and the game may have
        # moved on, or ended, since): this typing is merged into it, never stored over it.
        return _merged_new_round(game, form, played)
    if game.status != GameStatus.IN_PROGRESS:
        flash(rounds.no_more_rounds(game), "warning")
        return redirect(url_for("games.show", game_id=game.id))
    if request.method == "GET":
        form.number.data = str(number)
        form.token.data = secrets.token_urlsafe(16)
        form.rounds_version.data = services.rounds_stamp(game)
        form.went_out.data = _went_out_asked(game)
        return _render_round(game, form, number=number, editing=False)

    unsaved = _unless_saving(game, form, number, editing=False)
    if unsaved is not None:
        return unsaved
    entry = form.entry(services.tally_of(game), number)
    form_number = whole_number(form.number.data)
    try:
        saved = rounds.add_round(
            game,
            entry,
            number=form_number,
            submission=(form.token.data or None),
            stamp=(form.rounds_version.data or None),
        )
    except rounds.RoundRefused as refused:
        return _render_round(
            game,
            form,
            number=number,
            editing=False,
            problems=refused.problems,
            status=UNPROCESSABLE,
        )
    except rounds.RoundConflict as conflict:
        game = game_or_404(game_id)
        if game.status != GameStatus.IN_PROGRESS:
            flash(f"{conflict} {words(services.tally_of(game).game_over)}", "warning")
            # A plain redirect even for app.js: nothing was stored, the typing stays kept.
            return redirect(url_for("games.show", game_id=game.id))
        number = len(game.rounds) + 1
        form.number.data = str(number)
        form.rounds_version.data = services.rounds_stamp(game)
        said = str(conflict)
        if number != form_number:
            said += " " + _("This form is now for round %(number)s.", number=number)
        return _render_round(
            game, form, number=number, editing=False, status=CONFLICT, conflict=said
        )
    if saved is None:
        flash(_("That round was already saved."), "warning")
    return _to_board(game.id)


def _merged_new_round(game: Game, form: RoundForm, played: Round) -> ResponseReturnValue:
    """A new round's form saved after another phone stored that round (``played``): merged
    into it against the blank form it was opened as (``merging.merge_typed``). Typed the same
    (hands left blank keep what is stored), there is nothing to do, and the phone is told so;
    typed differently, nothing is saved and the form comes back as that round's correction,
    as stored with this phone's typing on it, the parts that differ side by side to choose.
    Saved from there, the choice goes through ``edit_round`` as any correction does."""
    number = played.number
    names = [seat.player.name for seat in game.seats]
    stored = merging.sheet_of_round(played, len(names))
    mine = merging.sheet_of_form(form)
    merged, clashes = merging.merge_typed(stored, mine)
    if not clashes:
        said = _(
            "Round %(number)s is stored as you typed it: another phone saved it first.",
            number=number,
        )
        blank = merging.left_blank(mine, names)
        flash(said if blank is None else f"{said} {words(blank)}", "success")
        return _to_board(game.id)
    merging.mark_clashes(form, stored, merged, clashes, played.version)
    form.number.data = str(number)
    form.rounds_version.data = services.rounds_stamp(game)
    reads = words(changelog.describe_round(services.tally_of(game), number, cards=True))
    said = _(
        "Round %(number)s was stored on another phone meanwhile; nothing was saved. Round "
        "%(number)s reads: %(reads)s. Where you typed something else, choose below: what is "
        "stored now, or yours.",
        number=number,
        reads=reads,
    )
    return _render_round(game, form, number=number, editing=True, status=CONFLICT, conflict=said)


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
    players = len(game.seats)
    form = RoundForm()
    if request.method == "GET":
        _fill_round_form(form, players, played)
        form.version.data = str(played.version)
        form.rounds_version.data = services.rounds_stamp(game)
        form.base.data = merging.encode(merging.sheet_of_round(played, players))
        return _render_round(game, form, number=number, editing=True)
    _fill_round_form(form, players)
    unsaved = _unless_saving(game, form, number, editing=True)
    if unsaved is not None:
        return unsaved
    chose = bool(form.clashes.data)
    unchosen = merging.take_choices(form, [seat.player.name for seat in game.seats], request.form)
    if chose and not unchosen and merging.as_stored(form, played):
        # Every clash settled as stored now: there is nothing to correct.
        flash(_("Round %(number)s stays as it is stored.", number=number), "success")
        return _to_board(game.id)
    if unchosen:
        return _render_round(
            game,
            form,
            number=number,
            editing=True,
            status=CONFLICT,
            conflict=_(
                "Choose for %(parts)s: what is stored now, or yours. Nothing was saved.",
                parts=words(listing(unchosen)),
            ),
        )
    version = whole_number(form.version.data)
    try:
        rounds.edit_round(
            game,
            number,
            form.entry(services.tally_of(game), number),
            version=version,
            stamp=(form.rounds_version.data or None),
        )
    except rounds.RoundRefused as refused:
        return _render_round(
            game, form, number=number, editing=True, problems=refused.problems, status=UNPROCESSABLE
        )
    except rounds.RoundConflict as conflict:
        return _merged_conflict(game_id, number, form, conflict)
    flash(_("Round %(number)s corrected.", number=number), "success")
    return _to_board(game.id)


def _merged_conflict(
    game_id: int, number: int, form: RoundForm, conflict: rounds.RoundConflict
) -> ResponseReturnValue:
    """The conflict page after a correction another phone got in first: the form holds the
    round as stored now with this phone's changes merged in hand by hand against the round it
    started from (``merging.merge``), and the hands both changed side by side, to choose."""
    game = game_or_404(game_id)
    played = next((r for r in game.rounds if r.number == number), None)
    if played is None:
        flash(
            _(
                "Round %(number)s was deleted on another phone meanwhile; nothing was saved.",
                number=number,
            ),
            "warning",
        )
        return redirect(url_for("games.show", game_id=game.id))
    merged = merging.merge_correction(form, played)
    merging.mark_clashes(form, merged.stored, merged.merged, merged.clashes, played.version)
    form.rounds_version.data = services.rounds_stamp(game)
    if not merged.clashes and not isinstance(conflict, rounds.StaleSave):
        return _save_clean_merge(game, number, form, merged)
    tally = services.tally_of(game)
    now_reads = words(changelog.describe_round(tally, number, cards=True))
    if isinstance(conflict, rounds.StaleSave):
        said = [str(conflict)]
    else:
        said = [_("This round was changed on another phone meanwhile; nothing was saved.")]
    said.append(_("Round %(number)s now reads: %(reads)s.", number=number, reads=now_reads))
    if merged.clashes:
        said.append(_("You and the other phone changed the same part: choose below."))
    return _render_round(
        game, form, number=number, editing=True, status=CONFLICT, conflict=" ".join(said)
    )


def _save_clean_merge(
    game: Game, number: int, form: RoundForm, merged: merging.Correction
) -> ResponseReturnValue:
    """A correction merged with another phone's, nothing clashing: stored at once, and the
    phone told what the other changed. Refused by the rules as merged, the form comes back
    holding the merge (on the round as stored now), with the rules' reasons."""
    names = [seat.player.name for seat in game.seats]
    theirs = words(merging.parts_in_words(merged.stored, merged.theirs, names))
    kept = _(
        "Another phone had changed round %(number)s meanwhile, and that stays: %(theirs)s.",
        number=number,
        theirs=theirs,
    )
    try:
        rounds.edit_round(
            game,
            number,
            form.entry(services.tally_of(game), number),
            version=whole_number(form.version.data),
            stamp=form.rounds_version.data,
        )
    except rounds.RoundRefused as refused:
        return _render_round(
            game,
            form,
            number=number,
            editing=True,
            problems=refused.problems,
            status=UNPROCESSABLE,
            conflict=" ".join(
                [kept, _("Your correction, merged with it, was not saved: see below.")]
            ),
        )
    flash(" ".join([_("Round %(number)s corrected.", number=number), kept]), "success")
    return _to_board(game.id)


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
