"""The pages of a game: start it, enter and correct rounds with the card pad, May I, abandon,
and the game file (download, upload). The scoreboard's pages are in ``board_views``.

htmx answers: a refused form is re-rendered with 422 (409 when another phone got there first,
or the rounds changed since the form was made: the current totals and a "Re-apply my entries"
button above the entries as typed), with messages at the fields; the live preview of a
player's cards answers with that player's cards block only. A round saved by app.js (which
sends ``HX-Request``) is answered 204 with ``HX-Redirect`` to the scoreboard instead of a
redirect, so that the script can tell a stored save from a refusal or a lost signal.
"""

from __future__ import annotations

import json
import re
import secrets
from typing import Any

from flask import (
    Response,
    abort,
    flash,
    redirect,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from sqlalchemy import select
from sqlalchemy.exc import OperationalError
from werkzeug.datastructures import MultiDict

from scorekeeper import house_rules
from scorekeeper.access import Permission, requires
from scorekeeper.bin import services as bin_services
from scorekeeper.db import reading_only
from scorekeeper.extensions import db
from scorekeeper.inputs import whole_number
from scorekeeper.limits import NAME_LENGTH
from scorekeeper.models import Game, Player
from scorekeeper.names import tidy_name, too_long
from scorekeeper.rules import CardError, RuleSet, parse_cards
from scorekeeper.status import GameStatus
from scorekeeper.web import UNPROCESSABLE, is_htmx, render

from . import bp, scoreboard, services
from .forms import (
    NOBODY,
    PAD_RANKS,
    HandInput,
    NewGameForm,
    RoundForm,
    UploadForm,
    add_card,
    remove_card,
)
from .gamefile import load_document
from .tally import (
    MAX_TYPED_TOTAL,
    ROUND_FIELD,
    HandEntry,
    Problem,
    RoundEntry,
    Tally,
    check_table,
    points_of,
    total_field,
)

CONFLICT = 409
NO_CHANGE = 204
MIN_SEATS = 4


def game_or_404(game_id: int) -> Game:
    """The game of this household with this id, else 404 (another household's too)."""
    game = db.session.get(Game, game_id)
    if game is None:
        abort(404)
    return game


# --- start a game -----------------------------------------------------------------------------


def _seat_names(form: NewGameForm) -> list[str]:
    return [(entry.data or "").strip() for entry in form.players]


def _set_seats(form: NewGameForm, names: list[str]) -> None:
    while len(form.players):
        form.players.pop_entry()
    for name in names:
        form.players.append_entry(name)


def _rules_or_none(slug: str | None) -> RuleSet | None:
    try:
        return house_rules.load(slug or "")
    except (LookupError, ValueError):
        return None


@bp.route("/new", methods=["GET", "POST"])
@requires(Permission.SCORE)
def new() -> ResponseReturnValue:
    form = NewGameForm()
    form.rules.choices = house_rules.choices()
    names = _seat_names(form) if request.method == "POST" else []
    dealer_seat = whole_number(form.first_dealer.data) or 0
    action = _pressed(request.form)
    problems: dict[str, list[str]] = {}

    if action is not None:
        button, value = action
        if button == "add_player" and value:
            if value.casefold() not in {name.casefold() for name in names}:
                empty = next((seat for seat, name in enumerate(names) if not name), None)
                if empty is None:
                    names.append(value)
                else:
                    names[empty] = value
        elif button in ("up", "down") and whole_number(value) is not None:
            seat = whole_number(value) or 0
            other = seat - 1 if button == "up" else seat + 1
            if 0 <= seat < len(names) and 0 <= other < len(names):
                names[seat], names[other] = names[other], names[seat]
                if dealer_seat in (seat, other):
                    dealer_seat = other if dealer_seat == seat else seat
        elif button == "start":
            game, problems = _start(form, names, dealer_seat)
            if game is not None:
                return redirect(url_for("games.show", game_id=game.id))

    while len(names) < MIN_SEATS:
        names.append("")
    if names[-1]:
        names.append("")
    _set_seats(form, names)
    if dealer_seat >= len(names):
        dealer_seat = 0
    rules = _rules_or_none(form.rules.data) or _rules_or_none("twelve-step")
    seated = {name.casefold() for name in names if name}
    family = [
        name
        for name in db.session.scalars(select(Player.name).order_by(Player.name)).all()
        if name.casefold() not in seated
    ]
    filled = [name for name in names if name]
    status = UNPROCESSABLE if problems else 200
    return render(
        "games/new.html",
        "games/_new_form.html",
        status=status,
        form=form,
        family=family,
        dealer_seat=dealer_seat,
        problems=problems,
        rules=rules,
        packs=rules.packs(max(len(filled), 2)) if rules else None,
        players_count=len(filled),
    )


def _start(
    form: NewGameForm, names: list[str], dealer_seat: int
) -> tuple[Game | None, dict[str, list[str]]]:
    problems: dict[str, list[str]] = {}
    rules = _rules_or_none(form.rules.data)
    if rules is None:
        problems.setdefault("rules", []).append("Choose the rules you play.")
    for seat, name in enumerate(names):
        if too_long(tidy_name(name)):
            problems.setdefault(f"players-{seat}", []).append(
                f"A name has at most {NAME_LENGTH} letters."
            )
    filled = [(seat, name) for seat, name in enumerate(names) if name]
    seats = [seat for seat, _ in filled]
    first = seats.index(dealer_seat) if dealer_seat in seats else 0
    if rules is not None:
        for problem in check_table(rules, [name for _, name in filled], first):
            problems.setdefault(problem.field, []).append(problem.message)
    if problems or rules is None:
        return None, problems
    try:
        game = services.start_game(rules, [name for _, name in filled], first)
    except services.GameRefused as refused:
        for problem in refused.problems:
            problems.setdefault(problem.field, []).append(problem.message)
        return None, problems
    return game, problems


def _pressed(submitted: MultiDict[str, str]) -> tuple[str, str] | None:
    """Which helper button was pressed: (name, value), the name without its seat suffix."""
    for key, value in submitted.items(multi=True):
        for button in ("add_player", "up", "down", "start"):
            if key == button:
                return button, value
            if key.startswith(f"{button}-"):
                return button, key.removeprefix(f"{button}-")
    return None


# --- entering and correcting rounds ---------------------------------------------------------


def _round_entry(game: Game, form: RoundForm, number: int) -> RoundEntry:
    """The round as entered. The toggle of whoever went out is on whatever the form says, and
    a contract made only by going out follows who went out, as the page shows them."""
    tally = services.tally_of(game)
    contracts = _contracts(tally, number)
    seat_out = form.went_out_seat(len(tally.names))
    went_out = None if seat_out in ("", None) else int(seat_out)
    hands = []
    for seat, hand in enumerate(form.hands):
        made: bool | None = hand.made
        if seat == went_out:
            made = None
        elif tally.rules.contract(contracts[seat]).going_out_only:
            made = False
        total = _typed_total(hand.total) if hand.total else None
        hands.append(HandEntry(cards=hand.cards, made_contract=made, total=total))
    return RoundEntry(went_out=went_out, hands=tuple(hands))


def _typed_total(text: str) -> int | None:
    """A total typed on the round form, or None when it is no whole number 0 to 9999."""
    total = whole_number(text)
    return None if total is None or total > MAX_TYPED_TOTAL else total


def _contracts(tally: Tally, number: int) -> tuple[int, ...]:
    """The contract each seat works on in round ``number`` (played, or the next one)."""
    if number <= len(tally.rounds):
        return tuple(hand.contract for hand in tally.rounds[number - 1].hands)
    return tally.next_contracts


def _fill_round_form(form: RoundForm, players: int, played: Any = None) -> None:
    """Give the form one hand a player: as submitted, or from ``played`` (a stored round)."""
    form.read_hands(players, request.form if request.method == "POST" else {})
    if played is not None:
        for stored in played.hands:
            form.hands[stored.seat.position] = HandInput(
                stored.cards,
                stored.made_contract,
                str(stored.points) if stored.typed_total else "",
            )
        form.went_out.data = NOBODY if played.went_out is None else str(played.went_out.position)


def _apply_pad(form: RoundForm) -> int | None:
    """Apply a pad key (``add-<seat>`` / ``remove-<seat>``) to the seat's text; its seat."""
    for key, value in request.form.items():
        for prefix, change in (("add-", add_card), ("remove-", remove_card)):
            seat = whole_number(key.removeprefix(prefix), below=len(form.hands))
            if key.startswith(prefix) and seat is not None:
                hand = form.hands[seat]
                hand.cards = change(hand.cards, value)
                return seat
    return None


def _hand_views(
    form: RoundForm, tally: Tally, contracts: tuple[int, ...], errors: dict[str, list[str]]
) -> list[dict[str, Any]]:
    rules = tally.rules
    went_out = form.went_out_seat(len(tally.names))
    views = []
    for seat, name in enumerate(tally.names):
        text = form.hands[seat].cards
        total_text = form.hands[seat].total
        try:
            cards = parse_cards(text)
            points: int | None = 0 if seat == went_out else points_of(text, rules)
            card_error = None
        except CardError as error:
            cards, points, card_error = [], None, str(error)
        if total_text:
            # A typed total is what the hand scores, whatever the cards field holds.
            points = _typed_total(total_text)
            card_error = None if points is not None else "not a whole number from 0 to 9999"
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
    contracts = _contracts(tally, number)
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
        "hands": hands,
        "dealer": tally.names[dealer],
        "errors": errors,
        "general": general,
        "conflict": conflict,
        "summary": summary,
        "nobody_allowed": tally.rules.nobody_out_allowed,
        "pad_ranks": PAD_RANKS,
        "is_last": editing and number == len(tally.rounds),
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
    pad_seat = _apply_pad(form)
    if pad_seat is not None:
        return _render_round(game, form, number=number, editing=editing, only_seat=pad_seat)
    preview = _seat_arg("preview", players)
    if preview is not None:
        return _render_round(game, form, number=number, editing=editing, preview_seat=preview)
    if "save" not in request.form:
        return _render_round(game, form, number=number, editing=editing)
    problems = [
        Problem(
            number,
            total_field(seat),
            f"Round {number}, {game.seats[seat].player.name}: a total is a whole number "
            f"from 0 to {MAX_TYPED_TOTAL} (entered: {hand.total}).",
        )
        for seat, hand in enumerate(form.hands)
        if hand.total and _typed_total(hand.total) is None
    ]
    if form.went_out_seat(players) == "":
        problems.insert(0, Problem(number, "went_out", f"Round {number}: say who went out."))
    if problems:
        return _render_round(
            game, form, number=number, editing=editing, problems=problems, status=UNPROCESSABLE
        )
    return None


SAVE_FAILED = (
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
        game, form, number=number, editing=editing, status=UNAVAILABLE, message=SAVE_FAILED
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
    saved = services.saved_under(token) if _TOKEN.fullmatch(token) else None
    number = whole_number(form.number.data)
    if (
        saved is not None
        and number is not None
        and saved == (game.id, number)
        and services.same_round(game, number, _round_entry(game, form, number))
    ):
        return True
    if saved is not None or not _TOKEN.fullmatch(token):
        form.token.data = secrets.token_urlsafe(16)
    return False


def _new_round(game_id: int) -> ResponseReturnValue:
    game = game_or_404(game_id)
    players = len(game.seats)
    form = RoundForm()
    _fill_round_form(form, players)
    number = len(game.rounds) + 1
    if "save" in request.form and _resent(form, game):
        # A save sent again (its first answer lost, or queued offline and sent twice) is
        # answered as stored, before any check that the first save itself made fail.
        flash("That round was already saved.", "warning")
        return _to_board(game.id)
    if game.status != GameStatus.IN_PROGRESS:
        flash("This game is over: no more rounds can be entered.", "warning")
        return redirect(url_for("games.show", game_id=game.id))
    if request.method == "GET":
        form.number.data = str(number)
        form.token.data = secrets.token_urlsafe(16)
        form.rounds_version.data = services.rounds_stamp(game)
        return _render_round(game, form, number=number, editing=False)

    unsaved = _unless_saving(game, form, number, editing=False)
    if unsaved is not None:
        return unsaved
    entry = _round_entry(game, form, number)
    form_number = whole_number(form.number.data)
    try:
        saved = services.add_round(
            game,
            entry,
            number=form_number,
            submission=(form.token.data or None),
            stamp=(form.rounds_version.data or None),
        )
    except services.RoundRefused as refused:
        return _render_round(
            game,
            form,
            number=number,
            editing=False,
            problems=refused.problems,
            status=UNPROCESSABLE,
        )
    except services.RoundConflict as conflict:
        game = game_or_404(game_id)
        if game.status != GameStatus.IN_PROGRESS:
            flash(f"{conflict} The game is over.", "warning")
            # A plain redirect even for app.js: nothing was stored, the typing stays kept.
            return redirect(url_for("games.show", game_id=game.id))
        number = len(game.rounds) + 1
        form.number.data = str(number)
        form.rounds_version.data = services.rounds_stamp(game)
        words = str(conflict)
        if number != form_number:
            words += f" This form is now for round {number}."
        return _render_round(
            game, form, number=number, editing=False, status=CONFLICT, conflict=words
        )
    if saved is None:
        flash("That round was already saved.", "warning")
    return _to_board(game.id)


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
    game = game_or_404(game_id)
    played = next((r for r in game.rounds if r.number == number), None)
    if played is None:
        abort(404)
    players = len(game.seats)
    form = RoundForm()
    if request.method == "GET":
        _fill_round_form(form, players, played)
        form.version.data = str(played.version)
        form.rounds_version.data = services.rounds_stamp(game)
        return _render_round(game, form, number=number, editing=True)
    _fill_round_form(form, players)
    unsaved = _unless_saving(game, form, number, editing=True)
    if unsaved is not None:
        return unsaved
    version = whole_number(form.version.data)
    try:
        services.edit_round(
            game,
            number,
            _round_entry(game, form, number),
            version=version,
            stamp=(form.rounds_version.data or None),
        )
    except services.RoundRefused as refused:
        return _render_round(
            game, form, number=number, editing=True, problems=refused.problems, status=UNPROCESSABLE
        )
    except services.RoundConflict as conflict:
        game = game_or_404(game_id)
        played = next((r for r in game.rounds if r.number == number), None)
        if played is None:
            flash(
                f"Round {number} was deleted on another phone meanwhile; nothing was saved.",
                "warning",
            )
            return redirect(url_for("games.show", game_id=game.id))
        form.version.data = str(played.version)
        form.rounds_version.data = services.rounds_stamp(game)
        stored = services.describe_round(services.tally_of(game), number, cards=True)
        if isinstance(conflict, services.StaleSave):
            words = str(conflict)
        else:
            words = "This round was changed on another phone meanwhile; nothing was saved."
        return _render_round(
            game,
            form,
            number=number,
            editing=True,
            status=CONFLICT,
            conflict=f"{words} Round {number} now reads: {stored}.",
        )
    flash(f"Round {number} corrected.", "success")
    return _to_board(game.id)


@bp.post("/<int:game_id>/rounds/<int:number>/delete")
@requires(Permission.SCORE)
def delete_round(game_id: int, number: int) -> ResponseReturnValue:
    game = game_or_404(game_id)
    if not any(r.number == number for r in game.rounds):
        abort(404)
    try:
        services.delete_last_round(game, number, stamp=request.form.get("rounds_version") or None)
    except services.StaleSave as stale:
        flash(str(stale), "error")
        return redirect(url_for("games.edit_round", game_id=game.id, number=number))
    except services.RoundConflict as conflict:
        flash(str(conflict), "error")
        return redirect(url_for("games.show", game_id=game.id))
    flash(f"Round {number} deleted.", "success")
    return redirect(url_for("games.show", game_id=game.id))


@bp.post("/<int:game_id>/rounds/<int:number>/undo")
@requires(Permission.SCORE)
def undo_round(game_id: int, number: int) -> ResponseReturnValue:
    """The scoreboard's one-tap undo of the round just saved (services.UNDO_WINDOW)."""
    game = game_or_404(game_id)
    try:
        services.undo_last_round(game, number)
    except services.RoundConflict as conflict:
        flash(str(conflict), "error")
    else:
        flash(f"Round {number} undone.", "success")
    return redirect(url_for("games.show", game_id=game.id))


# --- abandon, May I -----------------------------------------------------------------------


@bp.post("/<int:game_id>/abandon")
@requires(Permission.SCORE)
def abandon(game_id: int) -> ResponseReturnValue:
    game = game_or_404(game_id)
    services.abandon_game(game)
    flash("The game was abandoned: it is kept, with no winner.", "success")
    return redirect(url_for("games.show", game_id=game.id))


@bp.post("/<int:game_id>/may-i")
@requires(Permission.SCORE)
def may_i(game_id: int) -> ResponseReturnValue:
    game = game_or_404(game_id)
    seat = _seat_arg("seat", len(game.seats))
    change = -1 if request.form.get("change") == "-1" else 1
    status = 200
    if seat is None:
        abort(400)
    try:
        services.use_may_i(game, seat, change)
    except services.RoundRefused as refused:
        status = UNPROCESSABLE
        if not is_htmx():
            flash(str(refused), "error")
        else:
            context = scoreboard.board_context(game)
            context["may_i_error"] = str(refused)
            return render("games/_board.html", status=status, **context)
    if is_htmx():
        return render("games/_board.html", **scoreboard.board_context(game))
    return redirect(url_for("games.show", game_id=game.id) + "#may-i")


@bp.post("/<int:game_id>/delete")
@requires(Permission.MANAGE)
def delete(game_id: int) -> ResponseReturnValue:
    bin_services.bin_game(game_or_404(game_id))
    flash("The game went to the bin: you can bring it back there for 30 days.", "success")
    return redirect(url_for("bin.index"), code=303)


# --- the game file ----------------------------------------------------------------------------


@bp.get("/<int:game_id>/export")
@requires(Permission.VIEW)
def export(game_id: int) -> ResponseReturnValue:
    game = game_or_404(game_id)
    body = json.dumps(services.export_game(game), indent=2, ensure_ascii=False)
    response = Response(body + "\n", mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="scorekeeper-game-{game.id}.json"'
    )
    return response


@bp.route("/import", methods=["GET", "POST"])
@requires(Permission.SCORE)
def upload() -> ResponseReturnValue:
    form = UploadForm()
    problems: list[str] = []
    if form.validate_on_submit():
        try:
            game = services.import_game(load_document(form.file.data.stream))
        except services.AlreadyStored as held:
            flash(str(held), "warning")
            return redirect(url_for("games.show", game_id=held.game_id))
        except services.GameFileError as refused:
            problems = refused.problems
        else:
            flash("The game was imported.", "success")
            return redirect(url_for("games.show", game_id=game.id))
    elif request.method == "POST":
        problems = [message for messages in form.errors.values() for message in messages]
    status = UNPROCESSABLE if problems else 200
    return render("games/upload.html", status=status, form=form, problems=problems)
