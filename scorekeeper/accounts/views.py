"""The pages of accounts and links: sign in and out, first-run setup, your password, the
household's members and invitations, a game's table and watch links, and the households of the
server (its administrator's)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Response, abort, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user
from sqlalchemy import func, select

from .. import local_time, scope
from ..access import Permission, from_this_machine, link_is_live, links_held, requires, visitor
from ..extensions import db
from ..games.card import result_card
from ..games.watching import watch_page
from ..households import households as all_households
from ..models import Game, Household, Link, LinkKind, Role, User, utcnow
from ..names import name_key
from ..web import UNPROCESSABLE, picture, render
from . import bp, links, passwords, services, throttle
from . import setup as setup_code
from .forms import (
    AcceptInviteForm,
    HouseholdForm,
    InviteForm,
    LinkForm,
    LoginForm,
    MemberForm,
    PasswordForm,
    RoleForm,
    SettingsForm,
    SetupForm,
)

WRONG_SIGN_IN = "That username and password do not match an account."


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
        try:
            place = throttle.take_place(name_key(username), request.remote_addr)
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
            return answer
        form.form_errors.append(WRONG_SIGN_IN)
    status = 401 if request.method == "POST" else 200
    return render("accounts/login.html", status=status, form=form, next_page=next_page)


@bp.post("/logout")
@requires(Permission.SIGNED_IN)
def logout() -> ResponseReturnValue:
    answer = services.end_session(redirect(url_for("accounts.login"), code=303))
    flash("You are signed out.", "success")
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
                "That is not the setup code: it is printed in the server's console and kept "
                "in instance/setup_code."
            ]
        else:
            try:
                # Every check first: a refused username or password leaves no household behind.
                username = services.check_username(form.username.data or "")
                services.check_password(
                    form.password.data or "", username, form.household.data or ""
                )
                household = adopted
                if household is None:
                    household = services.add_household(form.household.data or "")
                else:
                    name = services.check_household_name(form.household.data or "", household)
                    household.name, household.name_key = name, name_key(name)
                owner = services.add_user(
                    form.username.data or "", form.password.data or "", household, Role.OWNER
                )
            except services.AccountError as problem:
                db.session.rollback()
                _form_problems(form, problem, {"name": "household"})
            else:
                setup_code.forget_code()
                services.sign_in(owner)
                flash(f"Welcome, {owner.username}. {household.name} is ready.", "success")
                return redirect(url_for("main.index"), code=303)
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
        try:
            place = throttle.take_place(me.username_key, request.remote_addr)
        except throttle.TooManyAttempts as refused:
            form.current.errors = [str(refused)]
            page = render("accounts/account.html", form=form, me=me)
            return _too_many(page, refused)
        if not passwords.verify(me.password_hash, form.current.data or ""):
            form.current.errors = ["That is not your password now."]
        else:
            throttle.give_back(place)
            try:
                services.set_password(
                    me, form.password.data or "", keep_token=getattr(current_user, "token", None)
                )
            except services.AccountError as problem:
                _form_problems(form, problem)
            else:
                flash("Your password is changed; your other sessions are signed out.", "success")
                return redirect(url_for("accounts.account"), code=303)
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
            flash(f"{user.username} can sign in now, as {user.role}.", "success")
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
        flash("Choose a role from the list.", "error")
    elif user.role == Role.OWNER and form.role.data != Role.OWNER and not _owners_left(user):
        flash("A household keeps at least one owner: make someone else owner first.", "error")
    else:
        user.role = Role(form.role.data)
        db.session.commit()
        flash(f"{user.username} is now {user.role}.", "success")
    return redirect(url_for("accounts.members"), code=303)


@bp.post("/members/<int:user_id>/remove")
@requires(Permission.MEMBERS)
def remove_member(user_id: int) -> ResponseReturnValue:
    user = _member_or_404(user_id)
    if user.role == Role.OWNER and not _owners_left(user):
        flash("A household keeps at least one owner: make someone else owner first.", "error")
    elif user.is_admin:
        flash("The server's administrator cannot be removed here.", "error")
    else:
        name = user.username
        db.session.delete(user)
        db.session.commit()
        flash(f"{name} is no longer a member; their sessions are ended.", "success")
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
            flash(f"Welcome to {household.name}, {user.username}.", "success")
            return answer
    status = UNPROCESSABLE if request.method == "POST" else 200
    page = render(
        "accounts/invite.html", status=status, form=form, household=household, role=link.role
    )
    page.headers["Cache-Control"] = "no-store"  # the household's name, for its invitee only
    return page


# --- table and watch links -------------------------------------------------------------------


def _game_or_404(game_id: int) -> Game:
    game = db.session.get(Game, game_id)
    if game is None:
        abort(404)
    return game


def _links_page(game: Game, status: int = 200, problem: str | None = None) -> ResponseReturnValue:
    shown = []
    for link in links.links_of_game(game):
        url = links.url_of(link)
        shown.append(
            {"link": link, "url": url, "qr": links.qr_svg(url), "live": link_is_live(link)}
        )
    return render(
        "accounts/links.html",
        status=status,
        game=game,
        links=shown,
        form=LinkForm(formdata=None),
        problem=problem,
    )


@bp.get("/games/<int:game_id>/links")
@requires(Permission.LINKS)
def game_links(game_id: int) -> ResponseReturnValue:
    return _links_page(_game_or_404(game_id))


def _live_link_of(game: Game, kind: LinkKind, through: int | None = None) -> Link | None:
    """The game's newest link of ``kind`` that still works, made ``through`` that link (None:
    made by a member, so not ending with a table link), or None."""
    live = (
        each
        for each in links.links_of_game(game)
        if each.kind == kind and each.through_id == through
    )
    return next((each for each in live if link_is_live(each)), None)


@bp.post("/games/<int:game_id>/links")
@requires(Permission.LINKS)
def add_game_link(game_id: int) -> ResponseReturnValue:
    game = _game_or_404(game_id)
    form = LinkForm()
    if not form.validate_on_submit():
        return _links_page(game, UNPROCESSABLE, "Choose a table link or a watch link.")
    kind = LinkKind(form.kind.data)
    # The scoreboard's "QR code for the table" asks for the game's table link: the newest one
    # that still works, else a new one (issue 23: one tap from the scoreboard to a QR code).
    if request.form.get("reuse") == "1":
        reused = _live_link_of(game, kind)
        if reused is not None:
            return redirect(
                url_for("accounts.game_links", game_id=game.id) + f"#link-{reused.id}", 303
            )
    link, _token = links.make_link(kind, visitor().actor, game=game)
    return redirect(url_for("accounts.game_links", game_id=game.id) + f"#link-{link.id}", 303)


@bp.post("/games/<int:game_id>/share")
@requires(Permission.VIEW)
def share_game(game_id: int) -> ResponseReturnValue:
    """What Share hands over (issue 23): the game's watch link, which opens the live scores
    without an account. Whoever may make links gets the newest live one, made if there is
    none; a viewer gets one only where one exists, else words saying who can make one.

    A phone let in by a table link gets a watch link made through that table link, which ends
    when the table link does (``access.link_is_live``): what the table shares lasts no longer
    than the table's own way in (issue 36), and never a member's lasting one."""
    game = _game_or_404(game_id)
    held = visitor().link
    if held is not None:
        # The gate let this phone in by this link a moment ago, for this very game.
        let_in = db.session.get(Link, held.id)
        assert let_in is not None
        if let_in.kind == LinkKind.WATCH:
            return {"url": links.url_of(let_in)}  # a watch link passes on itself
        link = _live_link_of(game, LinkKind.WATCH, through=let_in.id)
        if link is None:
            link, _token = links.make_link(
                LinkKind.WATCH, visitor().actor, game=game, through=let_in
            )
        return {"url": links.url_of(link)}
    link = _live_link_of(game, LinkKind.WATCH)
    if link is None and visitor().may(Permission.LINKS):
        link, _token = links.make_link(LinkKind.WATCH, visitor().actor, game=game)
    if link is None:
        message = "No watch link yet: an owner or scorer can make one from the scoreboard."
        return {"message": message}
    return {"url": links.url_of(link)}


@bp.post("/links/<int:link_id>/revoke")
@requires(Permission.LINKS)
def revoke_link(link_id: int) -> ResponseReturnValue:
    link = db.session.get(Link, link_id)
    if link is None:
        abort(404)
    if link.kind == LinkKind.INVITE and not visitor().may(Permission.MEMBERS):
        abort(404)
    links.revoke(link)
    flash("The link is revoked: it opens nothing now.", "success")
    if link.kind == LinkKind.REVIEW and link.year is not None:
        return redirect(url_for("history.review_page", year=link.year) + "#review-links", code=303)
    if link.game_id is not None:
        return redirect(url_for("accounts.game_links", game_id=link.game_id), code=303)
    return redirect(url_for("accounts.members"), code=303)


def _open_link(token: str, kind: LinkKind) -> ResponseReturnValue:
    """Let this browser in by the link. A member of the link's household goes on to the game
    as themselves; a member of another household is first asked whether to sign out and follow
    it (the GET changes nothing; the POST from that page signs them out)."""
    link = links.find(token, kind)
    if link is None or link.game_id is None:
        abort(404)
    who = visitor()
    # A table link goes on to the game's scoreboard; a watch link shows it at its own address.
    if kind == LinkKind.WATCH:
        board = url_for("accounts.watch_link", token=token)
    else:
        board = url_for("games.show", game_id=link.game_id)
    if who.user is not None and who.user.household_id != link.household_id:
        if request.method != "POST":
            return render("accounts/follow_link.html", kind=kind.value)
        answer = services.end_session(redirect(board, code=303))
        links.open_in_session(link)
        return answer
    letting_in = who.user is None and link.id not in {id_ for id_, _hash in links_held()}
    if who.user is None:
        links.open_in_session(link)
    if kind != LinkKind.WATCH or request.method == "POST":
        return redirect(board, code=303)
    # A watch link is what a family pastes into a chat: its own address shows the live board
    # (read-only) with the preview in its head (the chat's robot has no session), and is what
    # the address bar holds, so sharing it on from there passes on a link that works.
    with scope.household(link.household_id):
        page = watch_page(
            link.game_id,
            here=url_for("accounts.watch_link", token=token, _external=True),
            card_url=url_for("accounts.watch_card", token=token, _external=True),
            result_url=url_for("accounts.watch_result", token=token),
        )
    if letting_in:
        # The answer that lets a phone in is kept by no cache (docs/security.md, 8.2.1); the
        # phone's later visits are asked again with their ETag, as any scoreboard is.
        page.headers["Cache-Control"] = "no-store"
        del page.headers["ETag"]
    return page


@bp.get("/w/<token>/card.png")
@requires(Permission.PUBLIC)
def watch_card(token: str) -> ResponseReturnValue:
    """The result card of a watch link's game, for the chat that shows the link."""
    link = links.find(token, LinkKind.WATCH)
    if link is None or link.game_id is None:
        abort(404)
    with scope.household(link.household_id):
        _result, png = result_card(link.game_id, with_png=True)
    return picture(png)


@bp.get("/w/<token>/result")
@requires(Permission.PUBLIC)
def watch_result(token: str) -> ResponseReturnValue:
    """The result card's page of a watch link's game, at the link's own address: its picture
    and download are the link's, and its way back leads to the link (``/games/<id>`` would ask
    a relative with no account to sign in)."""
    link = links.find(token, LinkKind.WATCH)
    if link is None or link.game_id is None:
        abort(404)
    if visitor().user is None:
        links.open_in_session(link)  # as the link itself does: Share and the board work on
    with scope.household(link.household_id):
        words, _png = result_card(link.game_id)
    return render(
        "games/result.html",
        game_id=link.game_id,
        result=words,
        card_url=url_for("accounts.watch_card", token=token),
        back_url=url_for("accounts.watch_link", token=token),
    )


@bp.route("/t/<token>", methods=["GET", "POST"])
@requires(Permission.PUBLIC)
def table_link(token: str) -> ResponseReturnValue:
    return _open_link(token, LinkKind.TABLE)


@bp.route("/w/<token>", methods=["GET", "POST"])
@requires(Permission.PUBLIC)
def watch_link(token: str) -> ResponseReturnValue:
    return _open_link(token, LinkKind.WATCH)


# --- the household's settings ---------------------------------------------------------------


@bp.route("/household", methods=["GET", "POST"])
@requires(Permission.SETTINGS)
def settings() -> ResponseReturnValue:
    """The household's settings (its owner's): the time zone its times are shown in."""
    household = _me().household
    server_zone = local_time.server_zone_name()
    form = SettingsForm(server_zone=server_zone)
    if request.method == "GET":
        form.time_zone.data = household.time_zone or ""
    elif form.validate_on_submit():
        try:
            services.set_time_zone(household, form.time_zone.data or "")
        except services.AccountError as problem:
            db.session.rollback()
            _form_problems(form, problem)
        else:
            flash(f"Times are shown in {local_time.zone_name()} now.", "success")
            return redirect(url_for("accounts.settings"), code=303)
    status = UNPROCESSABLE if request.method == "POST" else 200
    return render(
        "accounts/settings.html",
        status=status,
        form=form,
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
            flash(f"{household.name} is ready; its owner can sign in.", "success")
            return redirect(url_for("accounts.households"), code=303)
    status = UNPROCESSABLE if request.method == "POST" else 200
    return render("accounts/households.html", status=status, form=form, households=all_households())
