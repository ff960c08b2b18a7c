"""A member's own language (``shared/spec/languages.md``): a form of its own on the account page,
asking no password, kept on the account so that it follows the member to every phone they
sign in on. The household's language is among its settings (``views.settings``)."""

from __future__ import annotations

from flask import flash, redirect, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from .. import languages
from ..access import Permission, requires, visitor
from ..extensions import db
from ..models import User
from . import bp
from .forms import LanguageForm


def _my_row() -> User | None:
    who = visitor().user
    return db.session.get(User, who.id) if who is not None else None


@bp.app_template_global()
def language_form() -> LanguageForm:
    """The account page's language form, showing the member's choice now."""
    me = _my_row()
    chosen = languages.known(me.language if me is not None else None) or ""
    return LanguageForm(formdata=None, language=chosen)


@bp.post("/account/language")
@requires(Permission.SIGNED_IN)
def choose_language() -> ResponseReturnValue:
    """Keep the member's choice ("" for their browser's) and say so in the language chosen."""
    form = LanguageForm()
    me = _my_row()
    if me is None or not form.validate_on_submit():
        # Only a script sends a value the list does not hold: the page says so at its top.
        flash(_("Choose a language from the list."), "error")
        return redirect(url_for("accounts.account"), code=303)
    chosen = languages.known(form.language.data)
    me.language = chosen
    db.session.commit()
    languages.choose_again()
    if chosen is None:
        flash(_("Your pages follow your browser's language now."), "success")
    else:
        shown = languages.name_of(chosen)
        flash(_("Your pages are in %(language)s now.", language=shown), "success")
    return redirect(url_for("accounts.account"), code=303)
