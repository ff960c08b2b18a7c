"""The scoreboard pages of a game: the page itself, the board it polls, the TV view and the
result card. Each is made here, by its view; what is kept between requests (the drawn board,
the whole page, the result card) is kept in the app's one store (``extensions.Kept``) under a
key naming everything it shows, so nothing is ever invalidated by hand.

A phone that already holds the answer gets 304 (its ETag names the game's version, what the
viewer may do and who they are: ``web.page_etag``); an open scoreboard's poll gets 204 while
the game is unchanged. The fast lane (``games.fast_lane``) gives those same two answers, and
the page kept for this very ETag, in front of Flask, to the phones these views let in.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from dataclasses import replace

from flask import Response, abort, current_app, redirect, request, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from scorekeeper import languages
from scorekeeper.access import Permission, requires
from scorekeeper.extensions import Kept, db
from scorekeeper.models import Game
from scorekeeper.web import is_htmx, not_modified, page_etag, picture, render, validated

from . import bp, fast_lane, scoreboard, services
from .card import result_card, rounds_played
from .phases import says_phases

NO_CHANGE = 204

# Every page of a game asks it: the board, the TV, the phones, the round form.
bp.add_app_template_global(says_phases, "says_phases")
bp.add_app_template_global(rounds_played, "rounds_played")


def _stamp_or_404(game_id: int) -> scoreboard.Stamp:
    stamp = scoreboard.stamp_of(game_id)
    if stamp is None:
        abort(404)
    return stamp


def _drawn_or_404(stamp: scoreboard.Stamp, can: scoreboard.Can) -> Markup:
    try:
        return scoreboard.drawn_board(stamp, can)
    except LookupError:
        abort(404)


def page_answer(page: scoreboard.KeptPage, gzipped: bool) -> Response:
    """A kept page as sent: gzipped where the phone takes it (Flask-Compress leaves an answer
    encoded already as it is), else plain for Flask-Compress to encode as the phone asks."""
    if gzipped:
        response = Response(page.gzipped, mimetype="text/html")
        response.content_encoding = "gzip"
    else:
        response = Response(page.body, mimetype="text/html")
    response.vary.add("HX-Request")
    return response


@bp.get("/<int:game_id>")
@requires(Permission.VIEW)
def show(game_id: int) -> ResponseReturnValue:
    stamp = _stamp_or_404(game_id)
    can = scoreboard.viewer_can()
    fast_lane.admit(stamp, can)
    etag = page_etag(stamp.tag(can))
    unchanged = not_modified(etag)
    if unchanged is not None:
        return unchanged

    def draw() -> Response:
        return render(
            "games/show.html",
            "games/_board_drawn.html",
            game_id=game_id,
            rules_name=stamp.rules_name,
            board=_drawn_or_404(stamp, can),
            result=result_card(game_id, stamp=stamp)[0],
            watch_result=None if can.view else url_for("games.result", game_id=game_id),
        )

    if etag is not None and not is_htmx():
        response = _kept_page(etag, draw, lambda: page_etag(stamp.tag(can)))
    else:
        response = draw()
    # Again after rendering: a first page makes the session's CSRF secret, which the ETag
    # names (and none where a flashed message was shown, which rendering took away).
    return validated(response, etag and page_etag(stamp.tag(can)))


@bp.get("/<int:game_id>/result")
@requires(Permission.VIEW)
def result(game_id: int) -> ResponseReturnValue:
    """The result card in a page (issue 23): the picture with its words, Share, a download and
    the way back to the scoreboard."""
    stamp = _stamp_or_404(game_id)
    words, _png = result_card(game_id, stamp=stamp)
    return render("games/result.html", game_id=game_id, result=words)


def _kept_page(
    etag: str, draw: Callable[[], Response], etag_now: Callable[[], str | None]
) -> Response:
    """The whole page, kept for exactly its ETag (what a 304 says the phone holds) and the
    address its links name: drawn by ``draw`` where it is not kept yet, and filed under the
    ETag it has once drawn (a first page makes the session's CSRF secret, which the ETag
    names)."""
    kept = Kept.of()
    address = scoreboard.address_of_request()
    key = scoreboard.page_key(etag, address)
    page: scoreboard.KeptPage | None = kept.get(key, scoreboard.page_seconds(current_app))
    if page is None:
        body = draw().get_data()
        level = int(current_app.config.get("COMPRESS_LEVEL", 6))
        page = scoreboard.KeptPage(gzip.compress(body, level, mtime=0))
        drawn_for = etag_now()
        if drawn_for is not None:
            kept.put(scoreboard.page_key(drawn_for, address), page)
    return page_answer(page, scoreboard.takes_gzip(request.headers.get("Accept-Encoding")))


@bp.get("/<int:game_id>/board")
@requires(Permission.VIEW)
def board(game_id: int) -> ResponseReturnValue:
    """What an open scoreboard polls: 204 while the game is unchanged, else the new board."""
    stamp = _stamp_or_404(game_id)
    if not is_htmx():
        return redirect(url_for("games.show", game_id=game_id))
    can = scoreboard.viewer_can()
    fast_lane.admit(stamp, can)
    unchanged = request.args.get("v") == str(stamp.version)
    etag = page_etag(stamp.tag(can), "same" if unchanged else "new")
    cached = not_modified(etag)
    if cached is not None:
        return cached
    if unchanged:
        return validated(Response(b"", status=NO_CHANGE), etag)
    response = render("games/_board_drawn.html", board=_drawn_or_404(stamp, can))
    return validated(response, etag and page_etag(stamp.tag(can), "new"))


@bp.get("/<int:game_id>/tv")
@requires(Permission.VIEW)
def tv(game_id: int) -> ResponseReturnValue:
    """The scoreboard in large type for a tablet or a TV beside the table: standings and who
    deals next. Polls itself like the board: 204 while the game is unchanged; a conditional
    GET gets 304 while it is."""
    stamp = _stamp_or_404(game_id)
    can = scoreboard.viewer_can()
    if is_htmx() and request.args.get("v") == str(stamp.version):
        return Response(b"", status=NO_CHANGE)
    etag = page_etag(stamp.tag(can), "tv")
    unchanged = not_modified(etag)
    if unchanged is not None:
        return unchanged
    game = db.session.get(Game, game_id)
    if game is None:
        abort(404)
    context = {
        "game": game,
        "tally": services.tally_of(game),
        "poll_seconds": current_app.config["SCOREBOARD_POLL_SECONDS"],
    }
    response = render("games/tv.html", "games/_tv.html", **context)
    # Filed under the version of the rows just read (a save may have come in between).
    drawn = replace(stamp, version=game.version)
    return validated(response, etag and page_etag(drawn.tag(can), "tv"))


@bp.get("/<int:game_id>/card.png")
@requires(Permission.VIEW)
def card(game_id: int) -> ResponseReturnValue:
    """The result card to share: the picture a link to the game previews with in a chat.
    The same picture for everyone who may see it in one language: its ETag is the game's
    version and the language alone."""
    stamp = _stamp_or_404(game_id)
    created = f"{stamp.created.timestamp():.6f}"
    etag = f"card.{stamp.game_id}.{stamp.version}.{created}.{languages.locale()}"
    png = None
    if not request.if_none_match.contains_weak(etag):
        _result_words, png = result_card(game_id, with_png=True, stamp=stamp)
    return picture(png, etag)
