"""The live scoreboard at a watch link's own address (issue 23): drawn here for the accounts'
link view, which lets the phone in, so that the address bar keeps the link itself and sharing
it on from there passes on a link that works."""

from __future__ import annotations

import hashlib

from flask import Response, abort

from scorekeeper.web import not_modified, page_etag, render, validated

from . import scoreboard
from .card import result_card


def watch_page(game_id: int, here: str, card_url: str, result_url: str) -> Response:
    """The game's scoreboard as the visitor may see it (a watch link's phone: read-only), its
    head carrying the chat's preview made from the link's own addresses, and its result card's
    page at ``result_url`` (the link's own, whose way back leads to the link again)."""
    stamp = scoreboard.stamp_of(game_id)
    if stamp is None:
        abort(404)
    can = scoreboard.viewer_can()
    # A relative's phone asking again with the page it holds gets 304 while the game is
    # unchanged, nothing drawn: its ETag names the game's version, who asks, and the address
    # (the page's own links are the watch link's), hashed: a header never carries the token.
    address = hashlib.blake2b(here.encode(), digest_size=8).hexdigest()
    etag = page_etag("watch", stamp.tag(can), address)
    unchanged = not_modified(etag)
    if unchanged is not None:
        return unchanged
    try:
        board = scoreboard.drawn_board(stamp, can)
    except LookupError:
        abort(404)
    response = render(
        "games/show.html",
        game_id=game_id,
        rules_name=stamp.rules_name,
        board=board,
        result=result_card(game_id, stamp=stamp)[0],
        preview_url=here,
        preview_card=card_url,
        watch_result=result_url,
    )
    # Again after rendering: a first page makes the session's CSRF secret, which the ETag names.
    return validated(response, etag and page_etag("watch", stamp.tag(can), address))
