"""Small pieces every feature's views share: htmx detection and page-or-fragment rendering.

How a refusal comes back to htmx, decided once for the whole app: a form that fails
validation is answered with status 422 and the re-rendered form fragment (with its messages at
the fields); ``static/js/app.js`` tells htmx to swap 422 answers like 200 ones. Without
JavaScript, the same view re-renders the full page with status 422.
"""

from __future__ import annotations

import hashlib
from typing import Any

from flask import Response, g, make_response, render_template, request, session
from flask_babel import get_locale
from werkzeug.http import quote_etag

UNPROCESSABLE = 422


def is_htmx() -> bool:
    """Whether htmx sent this request (and so wants a fragment, not a page)."""
    return request.headers.get("HX-Request") == "true" and not request.headers.get(
        "HX-History-Restore-Request"
    )


def render(page: str, fragment: str | None = None, status: int = 200, **context: Any) -> Response:
    """The full ``page`` for a normal request, only ``fragment`` for an htmx one.

    Both come from the same templates (the page includes the fragment), and the answer varies
    on ``HX-Request`` so that no cache hands one where the other was asked for.
    """
    template = fragment if fragment is not None and is_htmx() else page
    response = make_response(render_template(template, **context), status)
    response.vary.add("HX-Request")
    return response


# --- conditional GET ----------------------------------------------------------------------------
#
# A page that can say cheaply what its answer depends on (a game's version, the household's
# data) carries an ETag made of that and of who is asking, so a phone that already holds the
# answer gets 304 without anything being rendered. The ETag is weak: the same page is sent
# compressed or not, and its CSRF token is signed afresh, yet it is the same page (and
# Flask-Compress leaves weak ETags as they are).


def person_tag() -> str:
    """Who the layout around a page is drawn for: the account or link, the session's CSRF
    secret (a page kept from before a sign-out holds a token that no longer works) and the
    language the page speaks (``languages``: a page drawn in Spanish is never an English
    phone's 304, nor kept for it)."""
    # Who was let in, as the gate (``access.check_request``) left it for this request: web
    # sits below access and reads the answer rather than asking.
    who = g.get("visitor")
    user = who.user if who is not None else None
    link = who.link if who is not None else None
    parts = (
        f"u{user.id}.{user.username}.{user.role}.{user.is_admin:d}" if user is not None else "",
        f"l{link.id}" if link is not None else "",
        str(session.get("csrf_token", "")),
        str(get_locale()),
    )
    return hashlib.blake2b("|".join(parts).encode(), digest_size=12).hexdigest()


def page_etag(*parts: object) -> str | None:
    """The ETag of the answer about to be rendered from ``parts`` (what the page shows), or
    None when it carries a message flashed for this one request (it must not come back)."""
    if session.get("_flashes"):
        return None
    return etag_text("f" if is_htmx() else "p", parts, person_tag())


def etag_text(kind: str, parts: tuple[object, ...], person: str) -> str:
    """How an ETag is spelled: the kind of answer (``f`` a fragment, ``p`` a page), what it
    shows and who it is for. Shared with the fast lane (``games.fast_lane``), which answers
    the same questions before Flask."""
    return ".".join([kind, *(str(part) for part in parts), person])


def not_modified(etag: str | None) -> Response | None:
    """304, with nothing rendered, when the phone already holds the answer ``etag`` names."""
    if etag is None or not request.if_none_match.contains_weak(etag):
        return None
    response = Response(status=304)
    return validated(response, etag)


# What an answer validated by an ETag varies on: htmx's fragment or the page, the person (their
# cookie), the language the browser asks for (``languages``), and its compression
# (Flask-Compress would add this one; named here so that an answer made before Flask,
# ``games.fast_lane``, carries the same).
VARIES = ("HX-Request", "Cookie", "Accept-Language", "Accept-Encoding")


def validators(etag: str | None) -> list[tuple[str, str]]:
    """The headers of an answer that differs by person and by htmx: kept by no shared cache,
    and asked again (conditionally) every time. The views' answers (``validated``) and the fast
    lane's (``games.fast_lane``) both carry these."""
    headers = [("Cache-Control", "private, no-cache"), ("Vary", ", ".join(VARIES))]
    if etag is not None:
        headers.append(("ETag", quote_etag(etag, weak=True)))
    return headers


def validated(response: Response, etag: str | None) -> Response:
    """``response`` with ``validators(etag)``, its own Vary kept."""
    for name, value in validators(etag):
        if name == "Vary":
            response.vary.update(VARIES)
        else:
            response.headers[name] = value
    return response


def picture(png: bytes | None, etag: str | None = None) -> Response:
    """A card (PNG) as every page that draws one answers it: checked again before each use, so
    that a phone never shows a card older than the scores, and kept by no shared cache. Its
    ETag is ``etag`` where the caller has one without drawing the card (``png`` None then when
    the phone already holds it), else a digest of the picture; a phone holding it gets 304."""
    response = Response(png or b"", mimetype="image/png")
    response.headers["Cache-Control"] = "private, no-cache"
    response.set_etag(etag or hashlib.sha256(png or b"").hexdigest()[:32], weak=True)
    response.make_conditional(request)
    return response
