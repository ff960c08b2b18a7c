"""Friendly pages for every error, so that nothing a person does ends on a bare error screen."""

from __future__ import annotations

from flask import Flask, Response, request, url_for
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import (
    HTTPException,
    InternalServerError,
    MethodNotAllowed,
    RequestEntityTooLarge,
)

from .access import signed_in_or_let_in
from .extensions import db
from .limits import size_in_words
from .web import is_htmx, render

MESSAGES = {
    400: "That request could not be understood.",
    404: "There is nothing at this address. It may have been deleted, or the link is mistyped.",
    405: "This page cannot be used that way.",
    413: "That file is too large.",
}


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_refused(error: CSRFError) -> Response:
        message = (
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
            message = f"That is too large: this page takes at most {size_in_words(taken)}."
        return render("error.html", "_error.html", status=413, code=413, message=message)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        code = error.code or 500
        message = MESSAGES.get(code) or error.description or "Something went wrong."
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
        message = (
            "The database could not answer just now (it may be busy, full or restarting); "
            "nothing was saved. Go back and try again in a moment."
        )
        return render("error.html", "_error.html", status=503, code=503, message=message)

    @app.errorhandler(InternalServerError)
    def server_error(error: InternalServerError) -> Response:
        message = "Something went wrong on our side. Nothing was half-saved; please try again."
        return render("error.html", "_error.html", status=500, code=500, message=message)
