"""The year in review's pages (issue 26, item 3): the household's year and its card, for its
members; Share, which hands over the year's review link; and that link's own two pages, which
show the year read-only to relatives with no account.

A review link lets nobody in. Its pages are public endpoints that look the token up on every
request (a revoked, expired, unknown or malformed token, or a year other than its own, answers
404), and render that one year of that one household: nothing is put in the session (the page
is drawn without the layout, whose CSRF token would make one), and nothing on it leads to
another page of the household's. ``access.LINK_REACHES`` does not list the kind: no session
ever holds one; its two pages are ways in that a phone holding any other link may open too
(``docs/security.md``). The page's ETag is a keyed digest of what it shows, not the household's
data version, which would tell the link's holder when the family plays.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any, NoReturn

from flask import Response, abort, current_app, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from sqlalchemy import select

from scorekeeper.access import Permission, link_is_live, requires, visitor

from .. import languages, scope
from ..accounts import links
from ..extensions import db
from ..models import Household, Link, LinkKind
from ..web import etag_text, not_modified, page_etag, picture, render, validated
from . import review, review_words, seasons, services
from .views import bp


def _year_or_404(year: int, version: str) -> None:
    """A year has a review only if a game was played in it: any other answers 404, on a page
    that links to the years that have one."""
    if not review.FIRST_YEAR <= year <= review.LAST_YEAR:
        abort(404)
    played = seasons.played_years(version)
    if year not in played:
        refuse_unplayed(
            year,
            played,
            "history.review_page",
            _("No game was played in %(year)s, so there is no year in review for it."),
        )


def refuse_unplayed(year: int, played: list[int], endpoint: str, so: str) -> NoReturn:
    """Answer 404 for ``year``, in which no game was played (``so``: what it therefore lacks),
    on a page linking ``endpoint`` for each year ``played``."""
    see_also = [(str(number), url_for(endpoint, year=number)) for number in played]
    abort(
        render(
            "error.html",
            "_error.html",
            status=404,
            code=404,
            message=so % {"year": year},
            see_also_intro=_("The years played:") if played else _("No game has been played yet."),
            see_also=see_also,
        )
    )


def _household_name() -> str:
    household = scope.current()
    name = db.session.scalar(select(Household.name).where(Household.id == household))
    return name or ""


def _preview(year_review: review.Review, household: str) -> dict[str, str]:
    """What a chat shows for the review (``_preview.html``)."""
    return {
        "title": _(
            "%(household)s: %(headline)s",
            household=household,
            headline=review_words.headline(year_review),
        ),
        "description": review_words.alt_text(year_review, household),
    }


@bp.get("/review/<int:year>")
@requires(Permission.VIEW)
def review_page(year: int) -> Response:
    """The household's year in review, with its card, Share, and the year's review links for
    whoever may make links."""
    version = services.data_version()
    _year_or_404(year, version)
    may_link = visitor().may(Permission.LINKS)
    # The links listed change the page too (made by Share, revoked), not the data version.
    listed = links.links_of_year(year) if may_link else []
    listing = (may_link, *(link.id for link in listed))
    etag = page_etag(version, request.full_path, listing)
    unchanged = not_modified(etag)
    if unchanged is not None:
        return unchanged
    household = _household_name()
    year_review = review.review_of(year, version)
    shown = [(link, links.url_of(link)) for link in listed]
    response = render(
        "history/review.html",
        **_shown(year_review, household),
        review_links=shown,
        may_link=may_link,
    )
    return validated(response, etag and page_etag(version, request.full_path, listing))


def _shown(year_review: review.Review, household: str) -> dict[str, Any]:
    """What both pages of a year's review show of it: the household's own and a review link's."""
    return {
        "review": year_review,
        "figures": review_words.figures(year_review),
        "household": household,
        "alt": review_words.alt_text(year_review, household),
        "preview": _preview(year_review, household),
        "min_tries": review.MIN_TRIES,
    }


@bp.get("/review/<int:year>/card.png")
@requires(Permission.VIEW)
def review_card(year: int) -> Response:
    version = services.data_version()
    _year_or_404(year, version)
    return picture(review_words.review_card(year, version, _household_name()))


def _live_review_link(year: int) -> Link | None:
    return next((each for each in links.links_of_year(year) if link_is_live(each)), None)


@bp.post("/review/<int:year>/share")
@requires(Permission.VIEW)
def share_review(year: int) -> ResponseReturnValue:
    """What Share hands over: the year's review link, which shows the review without an account.
    Whoever may make links gets the newest live one, made if there is none; anyone else gets
    one only where one exists, else words saying who can make one."""
    _year_or_404(year, services.data_version())
    link = _live_review_link(year)
    if link is None and visitor().may(Permission.LINKS):
        link, _token = links.make_link(LinkKind.REVIEW, visitor().actor, year=year)
    if link is None:
        return {"message": _("No link to this year yet: an owner or scorer can make one here.")}
    return {"url": links.url_of(link)}


def _review_link_or_404(token: str) -> Link:
    link = links.find(token, LinkKind.REVIEW)
    if link is None or link.year is None:
        abort(404)
    return link


def _opaque(link: Link, year_review: review.Review, household: str) -> str:
    """What the link's page shows, as its ETag spells it: a keyed digest, so that whoever holds
    the link learns nothing of the household beyond the page (not its data version, which moves
    with every game of every year), and the page changes only when the year or the name does."""
    shown = repr((link.id, year_review, household)).encode()
    key = str(current_app.secret_key).encode()
    return hmac.new(key, shown, hashlib.sha256).hexdigest()[:32]


@bp.get("/y/<token>")
@requires(Permission.PUBLIC)
def review_link(token: str) -> Response:
    """The year a review link names, read-only, at the link's own address, with its card as
    the chat's preview. Looked up on every request; nothing is kept in the session."""
    link = _review_link_or_404(token)
    assert link.year is not None
    with scope.household(link.household_id):
        version = services.data_version()
        household = _household_name()
        year_review = review.review_of(link.year, version)
        # In the page's language: the browser's, else the household's (``languages``).
        shown = (_opaque(link, year_review, household), languages.locale())
        etag = etag_text("p", ("review-link", *shown), "")
        unchanged = not_modified(etag)
        if unchanged is not None:
            return unchanged
        response = render(
            "history/review_link.html",
            **_shown(year_review, household),
            here=url_for("history.review_link", token=token, _external=True),
            card=url_for("history.review_link_card", token=token, _external=True),
        )
    return validated(response, etag)


@bp.get("/y/<token>/card.png")
@requires(Permission.PUBLIC)
def review_link_card(token: str) -> Response:
    """The card of a review link's year, for the chat that shows the link."""
    link = _review_link_or_404(token)
    assert link.year is not None
    with scope.household(link.household_id):
        return picture(
            review_words.review_card(link.year, services.data_version(), _household_name())
        )
