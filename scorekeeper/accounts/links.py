"""Table links, watch links, review links and invitations: long random tokens that let a phone
in (a review link lets none in: it shows one year in review at its own address).

A token is derived from the link's ``nonce`` and the server's secret key (HMAC-SHA256, 256
bits), and only its SHA-256 is stored: the database alone opens nothing, and whoever may make
links can show a link's QR code again. A revoked, expired, unknown or malformed token answers
404, like any address that leads nowhere.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import ipaddress
import secrets
from datetime import timedelta
from urllib.parse import urlsplit

import segno
from flask import current_app, request, session, url_for
from markupsafe import Markup
from sqlalchemy import select, update

from .. import scope
from ..access import LINK_SESSION_KEY, LINKS_KEPT, let_in_now, link_is_live, links_held
from ..extensions import db
from ..models import Game, Link, LinkKind, Role, utcnow

INVITE_LIFETIME = timedelta(days=7)
# Tokens are url-safe base64 of 32 bytes: nothing longer or of other letters is looked up.
TOKEN_LENGTH = 43
TOKEN_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _token(nonce: str) -> str:
    key = str(current_app.config["SECRET_KEY"]).encode()
    digest = hmac.new(key, f"scorekeeper-link:{nonce}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def make_link(
    kind: LinkKind,
    made_by: str,
    *,
    game: Game | None = None,
    role: Role | None = None,
    year: int | None = None,
    through: Link | None = None,
) -> tuple[Link, str]:
    """A new link and its token (the token is shown, never stored). A review link names its
    ``year`` and no game; it belongs to the household in scope, as an invitation does. A link
    made ``through`` another (Share on a table-link phone) ends when that one ends."""
    if (kind == LinkKind.REVIEW) != (year is not None):
        raise ValueError("a review link, and only a review link, names a year")
    nonce = secrets.token_urlsafe(32)
    token = _token(nonce)
    link = Link(
        kind=kind,
        game_id=game.id if game is not None else None,
        role=role,
        year=year,
        nonce=nonce,
        token_hash=_digest(token),
        made_by=made_by,
        expires_at=utcnow() + INVITE_LIFETIME if kind == LinkKind.INVITE else None,
        through_id=through.id if through is not None else None,
    )
    if game is not None:
        link.household_id = game.household_id
    db.session.add(link)
    db.session.commit()
    return link, token


def token_of(link: Link) -> str:
    return _token(link.nonce)


def find(token: str, kind: LinkKind) -> Link | None:
    """The live link of ``kind`` with this token, whichever household holds it, or None."""
    if len(token) != TOKEN_LENGTH or not set(token) <= TOKEN_LETTERS:
        return None
    with scope.server_wide(scope.ServerWide.VISITOR):
        link = db.session.scalar(select(Link).where(Link.token_hash == _digest(token)))
        if link is None or link.kind != kind:
            return None
        if kind == LinkKind.INVITE:
            live = link.revoked_at is None and link.used_at is None
            return link if live and link.expires_at and link.expires_at > utcnow() else None
        return link if link_is_live(link) else None


def take_invitation(link: Link) -> bool:
    """Mark the invitation used, unless it was used, revoked or expired meanwhile: whether it
    was taken. One conditional UPDATE, so that of two people accepting it at once one takes it
    (the other's UPDATE waits for the first to commit, then finds it used). Does not commit: the
    account it makes is stored in the same transaction."""
    now = utcnow()
    # The one accepting is of no household yet: the invitation's own is named.
    with scope.household(link.household_id):
        taken = db.session.execute(
            update(Link)
            .where(
                Link.id == link.id,
                Link.kind == LinkKind.INVITE,
                Link.used_at.is_(None),
                Link.revoked_at.is_(None),
                Link.expires_at > now,
            )
            .values(used_at=now)
            .execution_options(synchronize_session=False)
        )
    return bool(getattr(taken, "rowcount", 0) == 1)


def url_of(link: Link) -> str:
    """The address to share: from ``PUBLIC_URL`` where set, else the one this page came by."""
    endpoint = {
        LinkKind.TABLE: "accounts.table_link",
        LinkKind.WATCH: "accounts.watch_link",
        LinkKind.INVITE: "accounts.invite",
        LinkKind.REVIEW: "history.review_link",
    }[LinkKind(link.kind)]
    path = url_for(endpoint, token=token_of(link))
    public = (current_app.config.get("PUBLIC_URL") or "").rstrip("/")
    return f"{public}{path}" if public else f"{request.host_url.rstrip('/')}{path}"


def loopback_address(url: str) -> str | None:
    """The host (and port) of ``url`` where it names this machine only (``localhost``,
    127.0.0.1, ::1), else None: a phone that scans it opens itself, not the server (``flask
    run`` before the README's step 2)."""
    parts = urlsplit(url)
    host = (parts.hostname or "").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return parts.netloc
    try:
        return parts.netloc if ipaddress.ip_address(host).is_loopback else None
    except ValueError:
        return None


def qr_svg(url: str) -> Markup:
    """The QR code of ``url`` as inline SVG (no script, no inline style)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out, kind="svg", xmldecl=False, svgns=True, scale=6, border=2, svgclass="qr", title=url
    )
    # segno writes the SVG and escapes the title; the URL is of our own making.
    return Markup(out.getvalue().decode())  # nosec B704


def open_in_session(link: Link) -> None:
    """This browser is now let in by ``link`` (until the link stops working)."""
    session.pop("_user_id", None)
    # Kept beside the links it opened before, each until it stops working (access.links_held).
    kept = [[id_, token_hash] for id_, token_hash in links_held() if id_ != link.id]
    session[LINK_SESSION_KEY] = [*kept, [link.id, link.token_hash]][-LINKS_KEPT:]
    session.permanent = True
    let_in_now(link)


def links_of_game(game: Game) -> list[Link]:
    return list(
        db.session.scalars(
            select(Link)
            .where(Link.game_id == game.id, Link.revoked_at.is_(None))
            .order_by(Link.created_at.desc())
        )
    )


def links_of_year(year: int) -> list[Link]:
    """The household's review links of ``year`` not revoked, newest first."""
    return list(
        db.session.scalars(
            select(Link)
            .where(Link.kind == LinkKind.REVIEW, Link.year == year, Link.revoked_at.is_(None))
            .order_by(Link.created_at.desc())
        )
    )


def invitations() -> list[Link]:
    return list(
        db.session.scalars(
            select(Link)
            .where(
                Link.kind == LinkKind.INVITE,
                Link.revoked_at.is_(None),
                Link.used_at.is_(None),
                Link.expires_at > utcnow(),
            )
            .order_by(Link.created_at.desc())
        )
    )


def revoke(link: Link) -> None:
    """``link`` opens nothing from now on, and neither does any link made through it."""
    now = utcnow()
    link.revoked_at = now
    db.session.execute(
        update(Link)
        .where(Link.through_id == link.id, Link.revoked_at.is_(None))
        .values(revoked_at=now)
        .execution_options(synchronize_session=False)
    )
    db.session.commit()
