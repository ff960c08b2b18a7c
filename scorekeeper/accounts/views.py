"""The pages of accounts and links: sign in and out, first-run setup, your password, the
household's members and invitations, a game's table and watch links, and the households of the
server (its administrator's)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Response, abort, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import func, select

from .. import languages, local_time, scope
from ..access import ROLE_NAMES, Permission, requires, visitor
from ..extensions import db
from ..hosts import from_this_machine
from ..households import households as all_households
from ..models import Household, LinkKind, Role, User, utcnow
from ..names import name_key
from ..text import lazy_gettext as _l
from ..web import UNPROCESSABLE, render
from . import bp, devices, links, passwords, services, throttle
from . import setup as setup_code
from .forms import (
    AcceptInviteForm,
    HouseholdForm,
    HouseholdLanguageForm,
    InviteForm,
    LoginForm,
    MemberForm,
    PasswordForm,
    RatingsForm,
    RoleForm,
    SettingsForm,
    SetupForm,
)

WRONG_SIGN_IN = _l("That username and password do not match an account.")


def _safe_next(target: str | None) -> str:
    """Where to go after signing in: a path on this server only."""
    if target and any(ord(char) < 32 or ord(char) == 127 for char in target):
        target = None  # a line break would split the Location header
    if target and target.startswith("/") and not target.startswith("//"):
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc and "\\" not in target:
            return target
    return url_for("main.index")


def _me() -> User:
    """The signed-in account's own row (the gate only keeps a copy of what it needs)."""
    who = visitor().user
    me = db.session.get(User, who.id) if who is not None else None
    if me is None:
        abort(404)
    return me


def _form_problems(
    form: Any, problem: services.AccountError, fields: dict[str, str] | None = None
) -> None:
    """Show ``problem`` at its field (``fields`` renames a service's field to the form's)."""
    name = (fields or {}).get(problem.field, problem.field)
    field = getattr(form, name, None) if name else None
    if field is not None:
        field.errors = [*field.errors, str(problem)]
    else:
        form.form_errors.append(str(problem))


def _too_many(page: Response, refused: throttle.TooManyAttempts) -> Response:
    """``page`` as the answer of a password try over the limit: 429, and when to try again."""
    page.status_code = 429
    page.headers["Retry-After"] = str(refused.retry_after)
    return page


@bp.route("/login", methods=["GET", "POST"])
@requires(Permission.PUBLIC)
def login() -> ResponseReturnValue:
    form = LoginForm()
    next_page = _safe_next(request.values.get("next"))
    if form.validate_on_submit():
        username = (form.username.data or "")[:240]
        # A browser that signed in to this account before is counted apart from strangers.
        named = services.user_named(username)
        device = devices.known_device(named)
        try:
            place = throttle.take_place(name_key(username), request.remote_addr, device)
        except throttle.TooManyAttempts as refused:
            form.form_errors.append(str(refused))
            page = render("accounts/login.html", form=form, next_page=next_page)
            return _too_many(page, refused)
        user = services.authenticate(username, form.password.data or "")
        if user is not None:
            throttle.give_back(place)
            answer = redirect(next_page, code=303)
            before = visitor().user
            if before is not None and before.id != user.id:
                services.end_session(answer)  # another account was signed in on this browser
            services.sign_in(user)
            return devices.remember(answer, user)
        form.form_errors.append(WRONG_SIGN_IN)
        page = render("accounts/login.html", status=401, form=form, next_page=next_page)
        if named is None:
            return page
        known = device is not None
        return services.note_refused_when_sent(page, named, request.remote_addr, known)
    status = 401 if request.method == "POST" else 200
    return render("accounts/login.html", status=status, form=form, next_page=next_page)


@bp.post("/logout")
@requires(Permission.SIGNED_IN)
def logout() -> ResponseReturnValue:
    answer = services.end_session(redirect(url_for("accounts.login"), code=303))
    flash(_("You are signed out."), "success")
    return answer


@bp.route("/setup", methods=["GET", "POST"])
@requires(Permission.PUBLIC)
def setup() -> ResponseReturnValue:
    with scope.server_wide(scope.ServerWide.ANY_ACCOUNT):
        if db.session.scalar(select(User.id).limit(1)) is not None:
            abort(404)
    adopted = services.memberless_household()
    form = SetupForm()
    ask_code = not from_this_machine()
    if request.method == "GET" and adopted is not None:
        form.household.data = adopted.name
    if form.validate_on_submit():
        if ask_code and not setup_code.code_matches(form.setup_code.data or ""):
            form.setup_code.errors = [
                _(
                    "That is not the setup code: it is printed in the server's console and kept "
                    "in instance/setup_code."
                )
            ]
        else:
            try:
                # Every check first: a refused username or password leaves no household behind.
                username = services.check_username(form.username.data or "")
                services.check_password(
                    form.password.data or "", username, form.household.data or ""
                )
                household = adopted
                # The household speaks the first-run page's language (shared/spec/languages.md).
                spoken = languages.current()
                language = spoken if spoken != languages.DEFAULT else None
                if household is None:
                    household = services.add_household(form.household.data or "", language)
                else:
                    name = services.check_household_name(form.household.data or "", household)
                    household.name, household.name_key = name, name_key(name)
                    household.language = household.language or language
                owner = services.add_user(
                    form.username.data or "", form.password.data or "", household, Role.OWNER
                )
            except services.AccountError as problem:
                db.session.rollback()
                _form_problems(form, problem, {"name": "household"})
            else:
                setup_code.forget_code()
                services.sign_in(owner)
                flash(
                    _(
                        "Welcome, %(name)s. %(household)s is ready.",
                        name=owner.username,
                        household=household.name,
                    ),
                    "success",
                )
                return devices.remember(redirect(url_for("main.index"), code=303), owner)
    status = UNPROCESSABLE if request.method == "POST" else 200
    return render(
        "accounts/setup.html", status=status, form=form, ask_code=ask_code, adopted=adopted
    )


@bp.route("/account", methods=["GET", "POST"])
@requires(Permission.SIGNED_IN)
def account() -> ResponseReturnValue:
    form = PasswordForm()
    me = _me()
    if form.validate_on_submit():
        # The member's own session is counted apart from strangers' guesses at the account:
        # those never hold a signed-in member off changing their password.
        token = getattr(current_user, "token", None)
        own = throttle.session_key(token) if token else None
        try:
            place = throttle.take_place(me.username_key, request.remote_addr, session=own)
        except throttle.TooManyAttempts as refused:
            form.current.errors = [str(refused)]
            page = render("accounts/account.html", form=form, me=me)
            return _too_many(page, refused)
        if not passwords.verify(me.password_hash, form.current.data or ""):
            form.current.errors = [_("That is not your password now.")]
        else:
            throttle.give_back(place)
            try:
                services.set_password(
                    me, form.password.data or "", keep_token=getattr(current_user, "token", None)
                )
            except services.AccountError as problem:
                _form_problems(form, problem)
            else:
                flash(_("Your password is changed; your other sessions are signed out."), "success")
                # The device cookie names the password: this browser's is made anew.
                return devices.remember(redirect(url_for("accounts.account"), code=303), me)
    status = UNPROCESSABLE if request.method == "POST" else 200
    return render("accounts/account.html", status=status, form=form, me=me)


# --- members ---------------------------------------------------------------------------------


def _members_page(status: int = 200, **forms: Any) -> ResponseReturnValue:
    members = db.session.scalars(select(User).order_by(User.username_key)).all()
    invites = links.invitations()
    return render(
        "accounts/members.html",
        status=status,
        members=members,
        invites=[(invite, links.url_of(invite)) for invite in invites],
        member_form=forms.get("member_form") or MemberForm(formdata=None),
        invite_form=forms.get("invite_form") or InviteForm(formdata=None),
        role_form=RoleForm(formdata=None),
        new_invite=forms.get("new_invite"),
        refused=services.refused_sign_ins(),
        closed=throttle.closed_to_strangers([member.username_key for member in members]),
    )


@bp.get("/members")
@requires(Permission.MEMBERS)
def members() -> ResponseReturnValue:
    return _members_page()


@bp.post("/members")
@requires(Permission.MEMBERS)
def add_member() -> ResponseReturnValue:
    form = MemberForm()
    if form.validate_on_submit():
        me = _me()
        try:
            user = services.add_user(
                form.username.data or "", form.password.data or "", me.household, form.role.data
            )
        except services.AccountError as problem:
            db.session.rollback()
            _form_problems(form, problem)
        else:
            role = ROLE_NAMES[Role(user.role)]
            flash(
                _("%(name)s can sign in now, as %(role)s.", name=user.username, role=role),
                "success",
            )
            return redirect(url_for("accounts.members"), code=303)
    return _members_page(UNPROCESSABLE, member_form=form)


def _member_or_404(user_id: int) -> User:
    user = db.session.get(User, user_id)
    if user is None:
        abort(404)
    return user


def _owners_left(without: User) -> int:
    return int(
        db.session.scalar(
            select(func.count(User.id)).where(User.role == Role.OWNER, User.id != without.id)
        )
        or 0
    )


@bp.post("/members/<int:user_id>/role")
@requires(Permission.MEMBERS)
def change_role(user_id: int) -> ResponseReturnValue:
    user = _member_or_404(user_id)
    form = RoleForm()
    if not form.validate_on_submit():
        flash(_("Choose a role from the list."), "error")
    elif user.role == Role.OWNER and form.role.data != Role.OWNER and not _owners_left(user):
        flash(_("A household keeps at least one owner: make someone else owner first."), "error")
    else:
        user.role = Role(form.role.data)
        db.session.commit()
        role = ROLE_NAMES[Role(user.role)]
        flash(_("%(name)s is now %(role)s.", name=user.username, role=role), "success")
    return redirect(url_for("accounts.members"), code=303)


@bp.post("/members/<int:user_id>/remove")
@requires(Permission.MEMBERS)
def remove_member(user_id: int) -> ResponseReturnValue:
    user = _member_or_404(user_id)
    if user.role == Role.OWNER and not _owners_left(user):
        flash(_("A household keeps at least one owner: make someone else owner first."), "error")
    elif user.is_admin:
        flash(_("The server's administrator cannot be removed here."), "error")
    else:
        name = user.username
        db.session.delete(user)
        db.session.commit()
        flash(_("%(name)s is no longer a member; their sessions are ended.", name=name), "success")
    return redirect(url_for("accounts.members"), code=303)


@bp.post("/members/invite")
@requires(Permission.MEMBERS)
def invite_member() -> ResponseReturnValue:
    form = InviteForm()
    if not form.validate_on_submit():
        return _members_page(UNPROCESSABLE, invite_form=form)
    link, _token = links.make_link(
        LinkKind.INVITE, visitor().actor, role=Role(form.role.data or Role.SCORER)
    )
    return _members_page(new_invite=(link, links.url_of(link)))


@bp.route("/invite/<token>", methods=["GET", "POST"])
@requires(Permission.PUBLIC)
def invite(token: str) -> ResponseReturnValue:
    link = links.find(token, LinkKind.INVITE)
    if link is None:
        abort(404)
    form = AcceptInviteForm()
    household = db.session.get(Household, link.household_id)
    assert household is not None
    if form.validate_on_submit():
        username, password = form.username.data or "", form.password.data or ""
        try:
            # What is typed is checked before the invitation is taken: a refusal keeps it.
            tidy = services.check_username(username)
            services.check_password(password, tidy, household.name)
            if not links.take_invitation(link):
                db.session.rollback()
                abort(404)  # someone else used it a moment ago
            # The account is stored in the transaction that took the invitation.
            user = services.add_user(username, password, household, link.role or "viewer")
        except services.AccountError as problem:
            db.session.rollback()
            _form_problems(form, problem)
        else:
            answer = redirect(url_for("main.index"), code=303)
            if visitor().user is not None:
                services.end_session(answer)  # the member signed in before is not the invitee
            services.sign_in(user)
            flash(
                _(
                    "Welcome to %(household)s, %(name)s.",
                    household=household.name,
                    name=user.username,
                ),
                "success",
            )
            return devices.remember(answer, user)
    status = UNPROCESSABLE if request.method == "POST" else 200
    page = render(
        "accounts/invite.html", status=status, form=form, household=household, role=link.role
    )
    page.headers["Cache-Control"] = "no-store"  # the household's name, for its invitee only
    return page


# --- the household's settings ---------------------------------------------------------------


@bp.route("/household", methods=["GET", "POST"])
@requires(Permission.SETTINGS)
def settings() -> ResponseReturnValue:
    """The household's settings (its owner's): the time zone its times are shown in, whether
    its pages show ratings, and its language (three forms, told apart by ``setting``)."""
    household = _me().household
    server_zone = local_time.server_zone_name()
    form = SettingsForm(server_zone=server_zone, kept=household.time_zone)
    sent_ratings = request.form.get("setting") == "ratings"
    rating_form = (
        RatingsForm()
        if sent_ratings
        else RatingsForm(formdata=None, ratings_shown=household.ratings_shown)
    )
    sent_language = request.form.get("setting") == "language"
    language_form = (
        HouseholdLanguageForm()
        if sent_language
        else HouseholdLanguageForm(
            formdata=None, language=languages.known(household.language) or languages.DEFAULT
        )
    )
    if request.method == "GET":
        form.time_zone.data = household.time_zone or ""
    elif sent_language:
        form.time_zone.data = household.time_zone or ""
        if language_form.validate_on_submit():
            household.language = languages.known(language_form.language.data)
            db.session.commit()
            languages.choose_again()
            shown = languages.name_of(household.language or languages.DEFAULT)
            flash(_("The household's language is %(language)s now.", language=shown), "success")
            return redirect(url_for("accounts.settings"), code=303)
    elif sent_ratings:
        form.time_zone.data = household.time_zone or ""
        if rating_form.validate_on_submit():
            services.set_ratings_shown(household, bool(rating_form.ratings_shown.data))
            flash(
                _("Ratings are shown on the household's pages now.")
                if household.ratings_shown
                else _("Ratings are kept to yourselves now: no page shows them."),
                "success",
            )
            return redirect(url_for("accounts.settings"), code=303)
    elif form.validate_on_submit():
        try:
            services.set_time_zone(household, form.time_zone.data or "")
        except services.AccountError as problem:
            db.session.rollback()
            _form_problems(form, problem)
        else:
            flash(_("Times are shown in %(zone)s now.", zone=local_time.zone_name()), "success")
            return redirect(url_for("accounts.settings"), code=303)
    status = UNPROCESSABLE if request.method == "POST" else 200
    return render(
        "accounts/settings.html",
        status=status,
        form=form,
        rating_form=rating_form,
        language_form=language_form,
        household=household,
        shown=local_time.zone_name(),
        now=local_time.short_day_time(utcnow()),
    )


# --- households of the server ------------------------------------------------------------------


@bp.route("/households", methods=["GET", "POST"])
@requires(Permission.ADMIN)
def households() -> ResponseReturnValue:
    form = HouseholdForm()
    if form.validate_on_submit():
        try:
            username = services.check_username(form.username.data or "")
            services.check_password(form.password.data or "", username, form.name.data or "")
            household = services.add_household(form.name.data or "")
            services.add_user(
                form.username.data or "", form.password.data or "", household, Role.OWNER
            )
        except services.AccountError as problem:
            db.session.rollback()
            _form_problems(form, problem)
        else:
            flash(
                _("%(household)s is ready; its owner can sign in.", household=household.name),
                "success",
            )
            return redirect(url_for("accounts.households"), code=303)
    status = UNPROCESSABLE if request.method == "POST" else 200
    return render("accounts/households.html", status=status, form=form, households=all_households())
