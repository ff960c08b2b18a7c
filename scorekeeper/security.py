"""Response headers that keep the pages from being framed, sniffed or scripted from elsewhere,
and the session cookie, signed again only when it changes or grows old."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import Flask, Request, Response
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature

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


def init_app(app: Flask) -> None:
    app.session_interface = RenewedNowAndThen()

    @app.after_request
    def add_security_headers(response: Response) -> Response:
        headers = response.headers
        for name, value in SECURITY_HEADERS:
            headers.setdefault(name, value)
        return response


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

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if session.modified:
            return True
        if not (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            return False
        signed_at = getattr(session, "signed_at", None)
        return signed_at is None or datetime.now(UTC) - signed_at >= COOKIE_RENEWED_AFTER
