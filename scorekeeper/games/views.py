"""Starting a game, and binning it. The scoreboard's pages (which poll for other phones' saves)
are in ``board_views``, the round pages (the round form, saving and correcting rounds, undo,
abandon, May I) in ``round_views``, a phone's own hand in ``hand_views``, the game file's in
``gamefile_views``: all on the one blueprint ``games``.

htmx answers: a refused form is re-rendered with 422, with messages at the fields.
"""

from __future__ import annotations

from flask import (
    abort,
    flash,
    redirect,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select
from werkzeug.datastructures import MultiDict

from scorekeeper import house_rules, languages
from scorekeeper.access import Permission, requires
from scorekeeper.bin import services as bin_services
from scorekeeper.extensions import db
from scorekeeper.inputs import whole_number
from scorekeeper.limits import MAX_PLAYERS, NAME_LENGTH
from scorekeeper.models import Game, Player
from scorekeeper.names import name_key, tidy_name, too_long
from scorekeeper.rules import RuleSet
from scorekeeper.web import UNPROCESSABLE, render

from . import bp, services
from .forms import (
    NewGameForm,
)
from .seats import name_the_seat
from .tally import (
    check_table,
)

NO_CHANGE = 204
MIN_SEATS = 4


@bp.before_request
def _game_words() -> None:
    """A game's pages (its board, its rounds, each phone's hand) speak its own words."""
    game_id = (request.view_args or {}).get("game_id")
    if isinstance(game_id, int):
        languages.in_game(lambda: services.own_words_of(game_id))


def game_or_404(game_id: int, *, lock: bool = False) -> Game:
    """The game of this household with this id, else 404 (another household's too).

    ``lock`` for a write: the game's row is locked first (``SELECT ... FOR UPDATE``; SQLite,
    whose writes are serialised anyway, ignores it), so that two writes to one game take
    turns, and the later one sees the version and rounds the first wrote."""
    if lock:
        game = db.session.scalars(
            select(Game)
            .where(Game.id == game_id)
            .with_for_update(of=Game)
            .execution_options(populate_existing=True)
        ).first()
    else:
        game = db.session.get(Game, game_id)
    if game is None:
        abort(404)
    name_the_seat(game)
    return game


# --- start a game -----------------------------------------------------------------------------


def _seat_names(form: NewGameForm) -> list[str]:
    """The names typed, each as it will be stored (``names.tidy_name``): what the page gives
    back, checks and starts the game with is the one form of the name."""
    return [tidy_name(entry.data or "") for entry in form.players]


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
        if button == "add_player" and (value := tidy_name(value)):
            if name_key(value) not in {name_key(name) for name in names}:
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
    seated = {name_key(name) for name in names if name}
    family = [
        name
        for name in db.session.scalars(select(Player.name).order_by(Player.name)).all()
        if name_key(name) not in seated
    ]
    filled = [name for name in names if name]
    status = UNPROCESSABLE if problems else 200
    return render(
        "games/new.html",
        "games/_new_form.html",
        status=status,
        form=form,
        rule_groups=house_rules.grouped_choices(),
        family=family,
        dealer_seat=dealer_seat,
        problems=problems,
        rules=rules,
        packs=rules.packs(max(len(filled), 2)) if rules else None,
        players_count=len(filled),
        # app.js adds a seat as a name is typed in the last, up to the most at a table.
        most_seats=MAX_PLAYERS,
    )


def _start(
    form: NewGameForm, names: list[str], dealer_seat: int
) -> tuple[Game | None, dict[str, list[str]]]:
    problems: dict[str, list[str]] = {}
    rules = _rules_or_none(form.rules.data)
    if rules is None:
        problems.setdefault("rules", []).append(_("Choose the rules you play."))
    for seat, name in enumerate(names):
        if too_long(name):
            problems.setdefault(f"players-{seat}", []).append(
                ngettext(
                    "A name has at most %(num)s letter.",
                    "A name has at most %(num)s letters.",
                    NAME_LENGTH,
                )
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


@bp.post("/<int:game_id>/delete")
@requires(Permission.MANAGE)
def delete(game_id: int) -> ResponseReturnValue:
    bin_services.bin_game(game_or_404(game_id))
    flash(
        ngettext(
            "The game went to the bin: you can bring it back there for %(num)s day.",
            "The game went to the bin: you can bring it back there for %(num)s days.",
            bin_services.KEPT_FOR.days,
        ),
        "success",
    )
    return redirect(url_for("bin.index"), code=303)
