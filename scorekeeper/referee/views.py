"""The referee page: ``/referee``, a GET form whose every answer is a link.

A normal request gets the whole page; an htmx request (the form asking as cards are typed)
gets the ruling and, out of band, the messages at the fields. Impossible input (a card
mistyped, more copies of a card than the packs hold) is answered 422 with the message at its
field; rules that do not exist, 404.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, request, url_for
from flask_babel import gettext as _
from wtforms.fields.choices import SelectChoice

from scorekeeper.access import Permission, requires

from .. import house_rules, languages
from ..pads import pad_of
from ..rules import PRESETS, own_words
from ..text import lazy_gettext as _l
from ..web import UNPROCESSABLE, is_htmx, render
from ..words import words
from .forms import MODES, PHASE_MODES, RefereeForm, refuse
from .rulings import contract_number, form_refused, link_params, rule, table_for

bp = Blueprint("referee", __name__)

PROMPTS = {
    "meld": _l("Enter the cards of a meld: the ruling appears here."),
    "contract": _l("Enter the melds laid down, one per line: the ruling appears here."),
    "layoff": _l("Enter the meld on the table and the cards added to it."),
    "liberate": _l("Enter the meld with the wild card, and the real card put in for it."),
    "hand": _l("Enter your whole hand to see whether it makes the contract."),
}
# The same where a contract is a phase and a lay-off a hit (a Phase 10 deck).
PHASE_PROMPTS = PROMPTS | {
    "layoff": _l("Enter the meld on the table and the cards hit on it."),
    "hand": _l("Enter your whole hand to see whether it makes the phase."),
}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


@bp.get("/referee")
@requires(Permission.PUBLIC)
def index() -> Response:
    form = RefereeForm(request.args)
    form.rules.choices = [SelectChoice(slug, name) for slug, name in house_rules.choices()]
    form.validate()
    status = 200
    try:
        table = table_for(form)
    except (house_rules.UnknownRules, ValueError) as error:
        # A link to house rules since deleted (or no longer readable): say so at the rules
        # field, and offer the presets.
        if isinstance(error, house_rules.UnknownRules):
            status = 404
            refuse(form.rules, _("There are no rules called %(slug)s.", slug=repr(error.slug)))
        else:
            status = UNPROCESSABLE
            refuse(form.rules, words(error))
        form.rules.data = PRESETS[0]
        form.game.data = ""
        table = table_for(form)
    # A table of a game with its own words (Carioca's escala) rules in them.
    languages.in_game(own_words(table.rules))
    form.read_cards(table.rules)
    verdict = None if form.rules.errors else rule(form, table)
    if status == 200 and form_refused(form):
        status = UNPROCESSABLE
    # Any: mypy would match a str against url_for's own keywords (_external: bool).
    params: dict[str, Any] = link_params(form, table)
    link = url_for("referee.index", **params)
    response = render(
        "referee/index.html",
        "referee/_live.html",
        status,
        form=form,
        rule_groups=house_rules.grouped_choices(),
        table=table,
        verdict=verdict,
        link=link,
        share_link=url_for("referee.index", _external=True, **params),
        modes=PHASE_MODES if table.phases else MODES,
        contract=contract_number(form, table),
        context_params=_context_params(params),
        ranks=RANKS,
        pad=pad_of(table.rules),
        prompts=PHASE_PROMPTS if table.phases else PROMPTS,
    )
    if is_htmx():
        response.headers["HX-Replace-Url"] = link
    return response


def _context_params(params: dict[str, str]) -> dict[str, str]:
    """The parameters that say whose table it is, kept when switching to another question."""
    return {
        key: value for key, value in params.items() if key in ("rules", "players", "game", "player")
    }
