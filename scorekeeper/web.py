"""Small pieces every feature's views share: htmx detection and page-or-fragment rendering.

How a refusal comes back to htmx, decided once for the whole app: a form that fails
validation is answered with status 422 and the re-rendered form fragment (with its messages at
the fields); ``static/js/app.js`` tells htmx to swap 422 answers like 200 ones. Without
JavaScript, the same view re-renders the full page with status 422.
"""

from __future__ import annotations

from typing import Any

from flask import Response, make_response, render_template, request

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
