"""Response headers that keep the pages from being framed, sniffed or scripted from elsewhere."""

from __future__ import annotations

from flask import Flask, Response

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


def init_app(app: Flask) -> None:
    @app.after_request
    def add_security_headers(response: Response) -> Response:
        headers = response.headers
        headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        headers.setdefault("X-Content-Type-Options", "nosniff")
        headers.setdefault("Referrer-Policy", "same-origin")
        headers.setdefault("X-Frame-Options", "DENY")
        return response
