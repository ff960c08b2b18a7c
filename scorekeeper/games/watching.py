"""The live scoreboard at a watch link's own address (issue 23): drawn here for the accounts'
link view, which lets the phone in, so that the address bar keeps the link itself and sharing
it on from there passes on a link that works."""

from __future__ import annotations

from flask import Response, abort

from scorekeeper.web import render

from . import scoreboard
from .card import result_card


def watch_page(game_id: int, here: str, card_url: str) -> Response:
    """The game's scoreboard as the visitor may see it (a watch link's phone: read-only), its
    head carrying the chat's preview made from the link's own addresses."""
    stamp = scoreboard.stamp_of(game_id)
    if stamp is None:
        abort(404)
    try:
        board = scoreboard.drawn_board(stamp, scoreboard.viewer_can())
    except LookupError:
        abort(404)
    return render(
        "games/show.html",
        game_id=game_id,
        rules_name=stamp.rules_name,
        board=board,
        result=result_card(game_id, stamp=stamp)[0],
        preview_url=here,
        preview_card=card_url,
    )
