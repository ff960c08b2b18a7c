"""Who may call each page: every view declares what it needs, and one gate checks it.

Each view function carries a declaration, made with ``@requires(Permission.X)``; the gate,
run before every request, finds who is asking (a signed-in account, or a phone let in by a
table or watch link), scopes every query to their household (``scope.py``), and lets the
request through only where their role, or their link, grants what the view declares. A view
with no declaration is refused, and a test walks ``app.url_map`` so none is left without one.
A link goes no further than the views ``LINK_REACHES`` lists for its kind, whatever it declares.

What each role and link may do is ``shared/spec/access.md``'s table, written out below once.
"""

from __future__ import annotations

import enum
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from flask import Flask, Response, abort, current_app, g, redirect, request, session, url_for
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

from . import actors, scope
from .db import READ_ONLY_METHODS
from .extensions import db
from .hosts import host_allowed
from .inputs import whole_number
from .models import Link, LinkKind, Role, User, access_version_now, utcnow
from .text import lazy_gettext as _l
from .web import is_htmx, render

F = TypeVar("F", bound=Callable[..., Any])

# A table link still works this long after its game ended, to fix a last round.
TABLE_LINK_GRACE = timedelta(days=1)
# Where a browser let in by a link keeps it: the link's id and its token's hash.
LINK_SESSION_KEY = "link"


class Permission(enum.StrEnum):
    PUBLIC = "public"  # anyone, signed in or not: sign-in, setup, link pages, referee, presets
    SIGNED_IN = "signed_in"  # any account: its own password, signing out
    VIEW = "view"  # see the household's games, history, players, records, house rules
    SCORE = "score"  # start games, save, edit and delete rounds, May I, abandon
    EDIT_RULES = "edit_rules"  # make and edit house rules
    MANAGE = "manage"  # rename and merge players, delete games and house rules
    BACKUP_DOWNLOAD = "backup_download"
    BACKUP_RESTORE = "backup_restore"
    LINKS = "links"  # make and revoke table and watch links
    MEMBERS = "members"  # add and remove members, change roles, invitations
    SETTINGS = "settings"  # the household's settings: its time zone
    ADMIN = "admin"  # the server's first account: add households


_VIEWER = frozenset({Permission.SIGNED_IN, Permission.VIEW})
_SCORER = _VIEWER | {
    Permission.SCORE,
    Permission.EDIT_RULES,
    Permission.BACKUP_DOWNLOAD,
    Permission.LINKS,
}
ROLE_PERMISSIONS: dict[Role, frozenset[Permission]] = {
    Role.VIEWER: _VIEWER,
    Role.SCORER: frozenset(_SCORER),
    Role.OWNER: frozenset(
        _SCORER
        | {Permission.MANAGE, Permission.BACKUP_RESTORE, Permission.MEMBERS, Permission.SETTINGS}
    ),
}
# A table link may see and score its own game; a watch link may only watch its scoreboard.
LINK_PERMISSIONS: dict[LinkKind, frozenset[Permission]] = {
    LinkKind.TABLE: frozenset({Permission.VIEW, Permission.SCORE}),
    LinkKind.WATCH: frozenset({Permission.VIEW}),
}

# A review link (one year in review, for relatives) is not here, nor in ``LINK_REACHES``: it lets
# no phone in, and its own two public pages look its token up each time (``history.review``).

# What a link reaches, by endpoint, and nothing else whatever the arguments: a page that is not
# listed here refuses a link (a new page too, until it is added here on purpose). Of the pages
# about a game, a link reaches its own game's only; another game is not there (404).
# The pages every visitor may open that hold no family data: the ways in, the app's own files.
_WAYS_IN = frozenset(
    {
        "static",
        "main.health",
        "main.manifest",
        "main.service_worker",
        "accounts.login",
        "accounts.setup",
        "accounts.invite",
        "accounts.table_link",
        "accounts.watch_link",
        "accounts.watch_card",
        "accounts.watch_result",
        # A review link's two pages look their token up themselves and let nobody in: a phone
        # holding a table or watch link opens them as anyone would.
        "history.review_link",
        "history.review_link_card",
    }
)
# The rules and the referee, of the presets only (``house_rules`` shows a link no house
# rules); a table link's referee may also rule under its game's own rules (``?game=``).
_RULES = frozenset({"rules.index", "rules.show", "referee.index"})
# The game's scoreboard, its TV view, its result card (the picture and its page), Share
# (which hands over the game's watch link), and how the finished game moved its players'
# ratings, which its scoreboard shows ("Ben +1.8": the moves alone, to a link).
_WATCHING = frozenset(
    {
        "games.show",
        "games.board",
        "games.tv",
        "games.card",
        "games.result",
        "accounts.share_game",
        "history.game_ratings",
    }
)
# What the table does with its game: rounds, hands, seats, May I, abandon, its game file.
_SCORING = frozenset(
    {
        "games.new_round",
        "games.edit_round",
        "games.delete_round",
        "games.undo_round",
        "games.put_back_round",
        "games.pick_seat",
        "games.hand",
        "games.put_in_hand",
        "games.close_round",
        "games.may_i",
        "games.abandon",
        "games.export",
        # Who sits at that game: a player leaves, one joins, one comes back (issue 49).
        "games.leave",
        "games.undo_leave",
        "games.come_back",
        "games.join",
    }
)
LINK_REACHES: dict[LinkKind, frozenset[str]] = {
    LinkKind.TABLE: _WAYS_IN | _RULES | _WATCHING | _SCORING,
    LinkKind.WATCH: _WAYS_IN | _RULES | _WATCHING,
}
ROLE_CAN = {
    Role.OWNER: _l(
        "An owner may do everything in the household: games, rounds, house rules, "
        "players, backups, members, links and the household's settings."
    ),
    Role.SCORER: _l(
        "A scorer may start games, enter and correct rounds, make house rules, "
        "download a backup, and make table and watch links."
    ),
    Role.VIEWER: _l(
        "A viewer may look at the household's games, history, players, records and "
        "rules, and use the referee, but not change anything."
    ),
}
LINK_CAN = {
    LinkKind.TABLE: _l("A table link lets this phone see and score one game, nothing else."),
    LinkKind.WATCH: _l("A watch link shows one game's scoreboard, read-only."),
}
# What a role or a link is called where a person reads it (templates: ``|role_name``).
ROLE_NAMES = {Role.OWNER: _l("owner"), Role.SCORER: _l("scorer"), Role.VIEWER: _l("viewer")}
LINK_NAMES = {LinkKind.TABLE: _l("table link"), LinkKind.WATCH: _l("watch link")}


@dataclass(frozen=True)
class Access:
    permission: Permission


def requires(permission: Permission) -> Callable[[F], F]:
    """Declare what a view needs. Every view has one; ``check_request`` enforces it (and
    ``LINK_REACHES`` says which views a link may call at all)."""

    def declare(view: F) -> F:
        view.access = Access(permission)  # type: ignore[attr-defined]  # F has no attributes
        return view

    return declare


def declared(app: Flask, endpoint: str) -> Access | None:
    """The declaration of ``endpoint``'s view (static files are public by nature)."""
    if endpoint == "static":
        return Access(Permission.PUBLIC)
    view = app.view_functions.get(endpoint)
    return getattr(view, "access", None)


# --- who is asking --------------------------------------------------------------------------


@dataclass(frozen=True)
class Account:
    """What the gate needs of a signed-in account, copied out of the session's rows (a
    service that ends its transaction must not leave the request without them)."""

    id: int
    username: str
    role: str
    is_admin: bool
    household_id: int
    # The language the member chose, and their household's (``languages``; None: none chosen),
    # read with the session at no cost of their own.
    language: str | None = None
    household_language: str | None = None

    @classmethod
    def of(cls, user: User) -> Account:
        return cls(
            user.id,
            user.username,
            user.role,
            user.is_admin,
            user.household_id,
            user.language,
            user.household.language,
        )


@dataclass(frozen=True)
class LetIn:
    """What the gate needs of the link a phone was let in by."""

    id: int
    kind: str
    game_id: int | None
    household_id: int
    made_by: str

    @classmethod
    def of(cls, link: Link) -> LetIn:
        return cls(link.id, link.kind, link.game_id, link.household_id, link.made_by)


@dataclass(frozen=True)
class Visitor:
    """Who the request comes from: an account, a link, or nobody."""

    user: Account | None = None
    link: LetIn | None = None

    @property
    def household_id(self) -> int | None:
        if self.user is not None:
            return self.user.household_id
        if self.link is not None:
            return self.link.household_id
        return None

    @property
    def role(self) -> Role | None:
        return Role(self.user.role) if self.user is not None else None

    def may(self, permission: Permission | str) -> bool:
        """Whether this visitor's role or link grants ``permission`` (not game-specific)."""
        permission = Permission(permission)
        if permission is Permission.PUBLIC:
            return True
        if self.user is not None:
            if permission is Permission.ADMIN:
                return self.user.is_admin
            return permission in ROLE_PERMISSIONS[Role(self.user.role)]
        if self.link is not None:
            return permission in LINK_PERMISSIONS.get(LinkKind(self.link.kind), frozenset())
        return False

    @property
    def actor(self) -> str:
        """How the change log names this visitor."""
        if self.user is not None:
            return self.user.username
        if self.link is not None:
            return actors.link(str(self.link.kind), self.link.made_by)
        return ""


def visitor() -> Visitor:
    """Who this request comes from (nobody outside a request)."""
    return g.get("visitor") or Visitor()


def let_in_now(link: Link) -> None:
    """The rest of this request comes from the phone ``link`` has just let in: the page it
    draws is that phone's (a watch link's relative sees no "Sign in"), not a stranger's."""
    g.visitor = Visitor(link=LetIn.of(link))


def link_is_live(link: Link) -> bool:
    """A link lets a phone in until revoked, and a table link until a day after its game; a
    link made through another (Share on a table-link phone) only while that one is live too."""
    if link.through is not None and not link_is_live(link.through):
        return False
    now = utcnow()
    if link.revoked_at is not None or (link.expires_at is not None and link.expires_at < now):
        return False
    if link.game_id is not None and link.game is None:
        return False  # its game is in the bin
    if link.kind == LinkKind.TABLE and link.game is not None and link.game.ended is not None:
        return link.game.ended + TABLE_LINK_GRACE > now
    if link.kind == LinkKind.REVIEW:
        # One year of its household's, shown at the link's own address (``history.review``).
        return link.year is not None and link.game_id is None
    return link.kind in (LinkKind.TABLE, LinkKind.WATCH)


def link_lasts_until(link: Link) -> datetime | None:
    """Until when ``link_is_live`` will keep saying yes, time alone passing (None: no end)."""
    ends = [link.expires_at] if link.expires_at is not None else []
    if link.kind == LinkKind.TABLE and link.game is not None and link.game.ended is not None:
        ends.append(link.game.ended + TABLE_LINK_GRACE)
    if link.through is not None and (through_ends := link_lasts_until(link.through)):
        ends.append(through_ends)
    return min(ends, default=None)


def good_until(when: datetime | None) -> None:
    """What the gate decides for this request holds no later than ``when`` (a session's or a
    link's end, a cookie's): the fast lane's passes (games/fast_lane.py) end there too."""
    if when is None:
        return
    held = g.get("good_until")
    if held is None or when < held:
        g.good_until = when


# A phone keeps every link it opened, each until it stops working (issue 23: the table link of
# tonight's second game does not lose the first); a session holds at most this many, the newest.
LINKS_KEPT = 8


def links_held() -> list[tuple[int, str]]:
    """The links this session was let in by, oldest first, as (id, token hash): the list
    ``accounts.links.open_in_session`` keeps, or the single pair sessions held before."""
    held = session.get(LINK_SESSION_KEY)
    if not isinstance(held, list):
        return []
    if len(held) == 2 and isinstance(held[0], int):
        held = [held]
    return [
        (pair[0], str(pair[1]))
        for pair in held
        if isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], int)
    ][-LINKS_KEPT:]


def link_in_session() -> Link | None:
    """The live link this browser was let in by (``accounts.links.open_in_session``) for this
    request: of the game its address names, else of the newest that still works, the one that
    may do most (a phone's rights only grow by its own links)."""
    held = links_held()
    if not held:
        return None
    # Read before the link: what the gate decides rests on rows no older than this version
    # (the fast lane's passes name it: games.fast_lane).
    g.access_version = db.session.scalar(select(access_version_now()))
    found = db.session.scalars(select(Link).where(Link.id.in_([id_ for id_, _hash in held])))
    by_id = {link.id: link for link in found}
    live = [
        link
        for id_, token_hash in reversed(held)
        if (link := by_id.get(id_)) is not None
        and hmac.compare_digest(token_hash, link.token_hash)
        # Only the kinds that let a phone in (a review link is looked up at its own address on
        # every request and never kept in a session).
        and link.kind in LINK_REACHES
        and link_is_live(link)
    ]
    if not live:
        return None
    # Of the links held for the game this request names (else the newest link's game), the
    # one that may do most, the newest of those: a watch link opened on a table's phone (its
    # own Share's, a relative's) holds beside the table link and takes nothing from it.
    named = _game_named()
    game_id = named if any(each.game_id == named for each in live) else live[0].game_id
    link = max((each for each in live if each.game_id == game_id), key=_rights)
    good_until(link_lasts_until(link))
    return link


def _rights(link: Link) -> int:
    """How much a link lets its phone do (a table link more than a watch link)."""
    return len(LINK_PERMISSIONS.get(LinkKind(link.kind), frozenset()))


def _find_visitor() -> Visitor:
    with scope.server_wide(scope.ServerWide.VISITOR):
        user = current_user._get_current_object() if current_user.is_authenticated else None
        if user is not None:
            return Visitor(user=user.account)
        link = link_in_session()
        if link is not None:
            return Visitor(link=LetIn.of(link))
    return Visitor()


def signed_in_or_let_in() -> bool:
    """Whether this request comes from a member signed in or a phone let in by a live link
    (found now where the gate has not run yet, as before the CSRF check)."""
    found = g.get("visitor")
    if found is None:
        try:
            found = _find_visitor()
        except Exception:  # the database is away: say nothing of who this is
            return True
    return found.user is not None or found.link is not None


# What answers before the first account exists, instead of leading to setup: the setup page,
# what it is drawn with, the health check, and the service worker and manifest a browser asks
# for on its own (a worker's script behind a redirect is refused, and logged as an error).
BEFORE_SETUP = frozenset(
    {None, "static", "accounts.setup", "main.health", "main.service_worker", "main.manifest"}
)


# --- the gate -------------------------------------------------------------------------------


def refuse_unknown() -> BaseResponse:
    """401 for htmx (it follows ``HX-Redirect``), else a redirect to sign-in."""
    login = url_for("accounts.login", next=request.full_path.rstrip("?"))
    if is_htmx():
        message = _("Sign in first: this page is for the household's members.")
        response = render("_error.html", status=401, code=401, message=message)
        response.headers["HX-Redirect"] = login
        return response
    return redirect(login)


def forbidden(who: Visitor) -> Response:
    if who.user is not None:
        can, role = ROLE_CAN[Role(who.user.role)], ROLE_NAMES[Role(who.user.role)]
    else:
        kind = LinkKind(who.link.kind) if who.link is not None else LinkKind.WATCH
        can, role = LINK_CAN[kind], LINK_NAMES[kind]
    refused = _("Your role (%(role)s) does not allow this; nothing was changed.", role=role)
    return render("error.html", "_error.html", status=403, code=403, message=f"{refused} {can}")


def _game_named() -> int | None:
    """The game this request is about, from its address or its ``game`` argument."""
    game_id = (request.view_args or {}).get("game_id")
    if game_id is None and request.args.get("game"):
        game_id = whole_number(request.args.get("game"))
        if game_id is None:
            return None
    return int(game_id) if game_id is not None else None


def check_request() -> BaseResponse | None:
    """Run before every request: host, who is asking, their household, and what they may do."""
    # Flask types current_app as the app, not the proxy it is.
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    if not host_allowed(app, request.host):
        abort(400, "This server does not answer to that name.")
    endpoint = request.endpoint
    # Finding who is asking only reads. On a request that will write, that read is ended
    # before the view: the view's own transaction takes SQLite's write lock (and meets a busy
    # database inside the view, which keeps what was typed), not this look-up.
    writing = request.method not in READ_ONLY_METHODS
    g.reading_only = writing
    try:
        who = _find_visitor()
        setting_up = endpoint not in BEFORE_SETUP and not accounts_exist(app)
    finally:
        if writing:
            g.reading_only = False
            db.session.rollback()
    g.visitor = who
    scope.set_for_request(who.household_id)
    g.actor = who.actor
    if endpoint is None:
        return None  # no such page: the 404 that follows needs nobody's permission
    if setting_up:
        return redirect(url_for("accounts.setup"))
    access = declared(app, endpoint)
    if access is None:
        # A view somebody forgot to declare is refused, never opened (and a test fails).
        abort(403)
    if who.user is None and who.link is not None:
        return _check_link(who, endpoint, access)
    if access.permission is Permission.PUBLIC:
        return None
    if who.user is None:
        return refuse_unknown()
    if not who.may(access.permission):
        return forbidden(who)
    return None


def _check_link(who: Visitor, endpoint: str, access: Access) -> BaseResponse | None:
    """A link opens its own game, and only the pages ``LINK_REACHES`` lists: another game is
    not there (404), and any other page is refused (a page of the household's, opened in the
    browser, leads back to the link's game instead)."""
    link = who.link
    assert link is not None
    kind = LinkKind(link.kind)
    named = _game_named()
    if named is not None and named != link.game_id:
        abort(404)
    if endpoint not in LINK_REACHES[kind] or not who.may(access.permission):
        about_the_game = "game_id" in (request.view_args or {})
        if request.method == "GET" and not is_htmx() and not about_the_game:
            return redirect(url_for("games.show", game_id=link.game_id))
        return forbidden(who)
    if kind is LinkKind.WATCH and request.args.get("game"):
        abort(404)  # the referee under a game's rules is for the table, not the watchers
    return None


def sees_house_rules(who: Visitor) -> bool:
    """Whether ``who`` is shown the household's house rules (to see, or to rule under): its
    members are; a phone let in by a link is shown the presets only (a table link's referee
    rules under its game's own copy of its rules, ``/referee?game=``)."""
    return who.user is not None or who.link is None


def accounts_exist(app: Flask) -> bool:
    """Whether anyone has an account yet (until then every page leads to setup)."""
    if app.extensions.get("scorekeeper_accounts_exist"):
        return True
    with scope.server_wide(scope.ServerWide.ANY_ACCOUNT):
        found = db.session.scalar(select(User.id).limit(1)) is not None
    if found:
        app.extensions["scorekeeper_accounts_exist"] = True
    return found


def init_app(app: Flask) -> None:
    app.before_request(check_request)

    @app.context_processor
    def who_is_asking() -> dict[str, Any]:
        return {"visitor": visitor(), "Permission": Permission}

    app.add_template_filter(lambda role: ROLE_NAMES[Role(role or Role.VIEWER)], "role_name")

    @app.errorhandler(401)
    def unauthorised(error: HTTPException) -> BaseResponse:
        return refuse_unknown()
