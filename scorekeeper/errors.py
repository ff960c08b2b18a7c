"""Friendly pages for every error, so that nothing a person does ends on a bare error screen."""

from __future__ import annotations

from flask import Flask, Response, request, url_for
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm.exc import ObjectDeletedError
from werkzeug.exceptions import (
    HTTPException,
    InternalServerError,
    MethodNotAllowed,
    RequestEntityTooLarge,
)

from .access import signed_in_or_let_in
from .extensions import db
from .limits import size_in_words
from .security import refused
from .text import lazy_gettext as _l
from .web import is_htmx, render

# Every error page in the page's language: Werkzeug's own descriptions are English. A code not
# named here says what its kind says (a 4xx the request, a 5xx the server).
MESSAGES = {
    400: _l("That request could not be understood."),
    401: _l("Sign in first: this page is for the household's members."),
    403: _l("This page is not open to you; nothing was changed."),
    404: _l("There is nothing at this address. It may have been deleted, or the link is mistyped."),
    405: _l("This page cannot be used that way."),
    408: _l("The request took too long to arrive. Try again."),
    413: _l("That file is too large."),
    414: _l("That address is too long."),
    416: _l("That part of the file is not there."),
    429: _l("Too many requests just now: wait a moment and try again."),
    431: _l("That request carries too much with it: try again, or clear this site's cookies."),
    500: _l("Something went wrong on our side. Nothing was half-saved; please try again."),
    503: _l(
        "The database could not answer just now (it may be busy, full or restarting); "
        "nothing was saved. Go back and try again in a moment."
    ),
}
REQUEST_REFUSED = _l("That request could not be answered.")
SERVER_FAILED = _l("Something went wrong.")


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_refused(error: CSRFError) -> Response:
        refused()  # nothing a member or a phone holds changes: not even their cookie
        message = _(
            "This form has expired or did not come from this app. "
            "Reload the page and try again; nothing was saved."
        )
        answer = render("error.html", "_error.html", status=400, code=400, message=message)
        if is_htmx() and not signed_in_or_let_in():
            # Nobody is signed in any more (a save kept on a phone while its session ended):
            # the phone is to sign in, and keeps what it was sending (app.js reads this).
            answer.headers["HX-Redirect"] = url_for(
                "accounts.login", next=request.full_path.rstrip("?")
            )
        return answer

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(error: RequestEntityTooLarge) -> Response:
        taken = request.max_content_length
        message = MESSAGES[413]
        if taken:
            message = _(
                "That is too large: this page takes at most %(size)s.", size=size_in_words(taken)
            )
        return render("error.html", "_error.html", status=413, code=413, message=message)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        code = error.code or 500
        message = MESSAGES.get(code) or (REQUEST_REFUSED if code < 500 else SERVER_FAILED)
        response = render("error.html", "_error.html", status=code, code=code, message=message)
        if isinstance(error, MethodNotAllowed) and error.valid_methods:
            response.headers["Allow"] = ", ".join(error.valid_methods)
        return response

    @app.errorhandler(OperationalError)
    def database_unavailable(error: OperationalError) -> Response:
        # A write that waited out the busy timeout, a full disk, a server restarting: the
        # transaction is gone, so the session must let go of it before anything else is read.
        db.session.rollback()
        app.logger.warning("database unavailable: %s", error)
        message = MESSAGES[503]
        return render("error.html", "_error.html", status=503, code=503, message=message)

    @app.errorhandler(ObjectDeletedError)
    def deleted_meanwhile(error: ObjectDeletedError) -> Response:
        # What the request had read was deleted by another request (another server) before it
        # read it again (a commit or rollback had expired it): as if it had never been there.
        db.session.rollback()
        return render("error.html", "_error.html", status=404, code=404, message=MESSAGES[404])

    @app.errorhandler(InternalServerError)
    def server_error(error: InternalServerError) -> Response:
        message = MESSAGES[500]
        return render("error.html", "_error.html", status=500, code=500, message=message)
