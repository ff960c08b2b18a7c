"""Response headers that keep the pages from being framed, sniffed or scripted from elsewhere,
kept out of caches and on HTTPS, and the session cookie, signed again only when it changes or
grows old, and never set by a refusal."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import Flask, Request, Response, current_app, g, request, session
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature

from .access import LINK_SESSION_KEY, visitor

# An unchanged session cookie is signed and sent again at most this often: its expiry (30
# days, PERMANENT_SESSION_LIFETIME) then runs from at most this long before the last visit.
COOKIE_RENEWED_AFTER = timedelta(hours=1)

# No inline scripts or styles anywhere: htmx is loaded from /static and its own indicator
# styles are switched off (see templates/base.html), charts are styled by classes.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "base-uri 'self'",
        "object-src 'none'",
        "frame-ancestors 'none'",
    ]
)

# On every answer, the fast lane's (``games.fast_lane``) included.
SECURITY_HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
)

# Behind the declared HTTPS proxy, browsers are told to come back by HTTPS only, for a year
# (OWASP ASVS 9.1.1; deploy/Caddyfile sends the same).
STRICT_TRANSPORT = ("Strict-Transport-Security", "max-age=31536000")


def security_headers(app: Flask, scheme: str) -> tuple[tuple[str, str], ...]:
    """The headers every answer carries, the fast lane's (``games.fast_lane``) included: with
    ``Strict-Transport-Security`` where the request came by HTTPS through the declared proxy."""
    if scheme == "https" and app.config.get("PROXY_COUNT"):
        return (*SECURITY_HEADERS, STRICT_TRANSPORT)
    return SECURITY_HEADERS


def init_app(app: Flask) -> None:
    app.session_interface = RenewedNowAndThen()

    @app.after_request
    def add_security_headers(response: Response) -> Response:
        headers = response.headers
        for name, value in security_headers(current_app, request.scheme):
            headers.setdefault(name, value)
        if "Cache-Control" not in headers and _private():
            # A household's people, links, exports and accounts stay out of every cache, the
            # browser's own included. Pages that say otherwise chose to: a scoreboard is
            # "private, no-cache", asked again (conditionally) each time (web.validated).
            headers["Cache-Control"] = "no-store"
        return response


def _private() -> bool:
    """Whether this request's answer may carry a household's data or an account's: it was
    made by a member signed in or a phone let in by a link, or it let one in (a link opened,
    an invitation taken)."""
    who = visitor()
    return (
        who.user is not None
        or who.link is not None
        or any(key in session for key in LETTING_IN_KEYS)
    )


# What a session holds once it lets someone in: Flask-Login's account, or a link.
LETTING_IN_KEYS = ("_user_id", LINK_SESSION_KEY)


class SignedAt(SecureCookieSession):
    """A session that remembers when its cookie was signed."""

    signed_at: datetime | None = None


class RenewedNowAndThen(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, except that an unchanged cookie is not signed and set
    again on every answer (a phone polling every 3 s would get a fresh one each time), only
    once it is ``COOKIE_RENEWED_AFTER`` old. A changed session is always sent at once."""

    session_class = SignedAt

    def open_session(self, app: Flask, request: Request) -> SignedAt | None:
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        try:
            data, signed_at = serializer.loads(value, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        session = self.session_class(data)
        session.signed_at = signed_at
        return session

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        if response.status_code >= 400 and (g.get(REFUSED) or not _came_with(session)):
            # A refusal touches no session: no cookie is set, renewed or cleared. Above all,
            # a request that came without the browser's session (a form another website
            # posted, which the SameSite cookie stays away from) must not answer with a new
            # one, which would take the place of the member's or the table phone's.
            if session.accessed:
                response.vary.add("Cookie")
            return
        super().save_session(app, session, response)

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if session.modified:
            return True
        if not (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            return False
        signed_at = getattr(session, "signed_at", None)
        return signed_at is None or datetime.now(UTC) - signed_at >= COOKIE_RENEWED_AFTER


# Set in ``g`` by a refusal made before any view ran (the CSRF check's, ``errors``): its answer
# leaves the session as the request found it, whoever sent it (``RenewedNowAndThen``).
REFUSED = "refused_untouched"


def refused() -> None:
    """This request is refused before any view ran: its answer changes no session."""
    g.setdefault(REFUSED, True)


def _came_with(session: SessionMixin) -> bool:
    """Whether the request carried a good session cookie (``open_session`` read its time)."""
    return getattr(session, "signed_at", None) is not None
