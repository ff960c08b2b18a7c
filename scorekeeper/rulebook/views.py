"""The rules pages and the house-rules editor.

``/rules`` lists the presets and the saved house rules; ``/rules/<slug>`` shows one rule set,
every part generated from the rule set itself (its attributes and ``describe_options``), so
that the page and the referee can never disagree. ``/rules/new?base=SLUG`` starts house rules
from a preset; ``/rules/<slug>/edit`` and ``/rules/<slug>/delete`` change or remove saved ones.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from scorekeeper.access import Permission, requires
from scorekeeper.bin import services as bin_services

from .. import house_rules, languages
from ..rules import (
    DECKS,
    PRESETS,
    RuleSet,
    RuleSetError,
    deck_words,
    describe_options,
    get_ruleset,
    own_words,
)
from ..web import UNPROCESSABLE, render
from ..words import words
from .forms import HouseRulesForm, house_rules_form, kept_values, redrawn
from .sections import applies, packs_table, sections_for, sources_of, value_words_for

bp = Blueprint("rules", __name__, url_prefix="/rules")


@bp.get("", strict_slashes=False)
@requires(Permission.PUBLIC)
def index() -> Response:
    presets = [get_ruleset(slug) for slug in PRESETS]
    return render("rules/index.html", presets=presets, saved=house_rules.saved())


@bp.get("/<slug>")
@requires(Permission.PUBLIC)
def show(slug: str) -> Response:
    ruleset = _load(slug)
    languages.in_game(own_words(ruleset))
    record = None if slug in PRESETS else house_rules.get(slug)
    options = {option.key: option for option in describe_options(ruleset)}
    return render(
        "rules/show.html",
        ruleset=ruleset,
        record=record,
        base=get_ruleset(ruleset.base),
        options=options,
        sections=sections_for(ruleset.deck),
        packs=packs_table(ruleset),
        documents=sources_of(ruleset),
        value_words=value_words_for(ruleset.deck),
        phases=ruleset.deck.wording.phases,
        shows=lambda key: applies(key, ruleset.deck),
    )


@bp.route("/new", methods=["GET", "POST"])
@requires(Permission.EDIT_RULES)
def new() -> ResponseReturnValue:
    base = request.values.get("base", PRESETS[0])
    if base not in PRESETS:
        abort(404)
    preset = get_ruleset(base)
    form, redraw = _form(preset)
    if request.method == "GET":
        form.name.data = ""
        form.base.data = base
    elif not redraw and form.validate_on_submit():
        try:
            record = house_rules.save(form.name.data, form.options())
        except (house_rules.NameMissing, house_rules.NameTaken) as error:
            form.name.errors = [*form.name.errors, _name_problem(error)]
        except RuleSetError as error:
            form.show_problems(error.problems)
        else:
            flash(
                _(
                    "Saved %(name)s. It is offered for new games and in the referee.",
                    name=record.name,
                )
            )
            return redirect(url_for("rules.show", slug=record.slug), 303)
    return _editor(form, preset, None)


@bp.route("/<slug>/edit", methods=["GET", "POST"])
@requires(Permission.EDIT_RULES)
def edit(slug: str) -> ResponseReturnValue:
    record = _saved(slug)
    ruleset = get_ruleset(record.options)
    form, redraw = _form(ruleset)
    if request.method == "POST" and not redraw and form.validate_on_submit():
        try:
            house_rules.update(slug, form.name.data, form.options())
        except (house_rules.NameMissing, house_rules.NameTaken) as error:
            form.name.errors = [*form.name.errors, _name_problem(error)]
        except RuleSetError as error:
            form.show_problems(error.problems)
        else:
            flash(_("Saved the changes to %(name)s.", name=form.name.data))
            return redirect(url_for("rules.show", slug=slug), 303)
    return _editor(form, ruleset, record)


@bp.route("/<slug>/delete", methods=["GET", "POST"])
@requires(Permission.MANAGE)
def delete(slug: str) -> ResponseReturnValue:
    record = _saved(slug)
    if request.method == "POST":
        name = bin_services.bin_house_rules(slug)
        flash(
            _(
                "%(name)s went to the bin: the owner can bring them back for 30 days. Games "
                "played with them keep their own copy.",
                name=name,
            )
        )
        return redirect(url_for("rules.index"), 303)
    return render("rules/delete.html", record=record)


def _name_problem(error: house_rules.NameMissing | house_rules.NameTaken) -> str:
    """What is wrong with the name, in the page's language."""
    if isinstance(error, house_rules.NameTaken):
        return _(
            "There are already rules called %(name)s: choose another name.",
            name=repr(error.name),
        )
    return _("Give these rules a name.")


def _form(ruleset: RuleSet) -> tuple[HouseRulesForm, bool]:
    """The editor's form for rules starting from ``ruleset``, and whether it was sent only to
    be drawn again (for the deck chosen: "redraw", the button beside the deck, which the page
    presses when the deck changes). Its card values and packs are always the chosen deck's:
    where another deck was chosen, those typed for the deck before are kept aside and those
    kept for the chosen one come back (``forms.redrawn``). The page speaks the words of the
    chosen deck's games (Phase 10's grupo for a set, in the contracts written too)."""
    if request.method != "POST":
        languages.in_game(deck_words(ruleset.deck))
        return house_rules_form(ruleset), False
    formdata: MultiDict[str, str] = request.form
    drawn = formdata.get("drawn_deck", "")
    drawn = drawn if drawn in DECKS else ruleset.deck.slug
    chosen = formdata.get("deck", "")
    if chosen in DECKS and chosen != drawn:
        defaults = get_ruleset({"base": ruleset.base, "deck": chosen})
        formdata = redrawn(formdata, drawn, chosen, defaults)
        drawn = chosen
    languages.in_game(deck_words(DECKS[drawn]))
    form = house_rules_form(ruleset, deck=drawn, formdata=formdata)
    form.kept = kept_values(formdata)
    return form, "redraw" in formdata


def _editor(form: HouseRulesForm, ruleset: RuleSet, record: object) -> Response:
    status = UNPROCESSABLE if form.errors else 200
    base = get_ruleset(form.base.data if form.base.data in PRESETS else ruleset.base)
    deck = DECKS[form.drawn_deck]
    # The options named and explained in the words of the deck drawn (a phase on Phase 10's).
    drawn = base if base.deck is deck else get_ruleset({"base": base.slug, "deck": deck.slug})
    return render(
        "rules/edit.html",
        status=status,
        form=form,
        record=record,
        base=base,
        options={option.key: option for option in describe_options(drawn)},
        presets=[(slug, words(get_ruleset(slug).name)) for slug in PRESETS],
        value_words=value_words_for(deck),
        deck=deck,
        phases=deck.wording.phases,
        shows=lambda key: applies(key, deck),
    )


def _load(slug: str) -> RuleSet:
    try:
        return house_rules.load(slug)
    except house_rules.UnknownRules:
        abort(404)


def _saved(slug: str) -> house_rules.HouseRules:
    try:
        return house_rules.get(slug)
    except house_rules.UnknownRules:
        abort(404)
