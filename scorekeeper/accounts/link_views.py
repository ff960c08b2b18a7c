"""The pages of a game's table and watch links: the links page, Share, revoking, and the
link pages themselves (``/t/<token>``, ``/w/<token>`` and the watch link's card and result)."""

from __future__ import annotations

from flask import abort, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from .. import scope
from ..access import Permission, link_is_live, links_held, requires, visitor
from ..extensions import db
from ..games.card import result_card
from ..games.watching import watch_page
from ..models import Game, Link, LinkKind
from ..web import UNPROCESSABLE, picture, render
from . import bp, links, services
from .forms import LinkForm

# --- table and watch links -------------------------------------------------------------------


def _game_or_404(game_id: int) -> Game:
    game = db.session.get(Game, game_id)
    if game is None:
        abort(404)
    return game


def _links_page(game: Game, status: int = 200, problem: str | None = None) -> ResponseReturnValue:
    shown = []
    for link in links.links_of_game(game):
        url = links.url_of(link)
        shown.append(
            {"link": link, "url": url, "qr": links.qr_svg(url), "live": link_is_live(link)}
        )
    return render(
        "accounts/links.html",
        status=status,
        game=game,
        links=shown,
        loopback=next(
            filter(None, (links.loopback_address(str(each["url"])) for each in shown)), None
        ),
        form=LinkForm(formdata=None),
        problem=problem,
    )


@bp.get("/games/<int:game_id>/links")
@requires(Permission.LINKS)
def game_links(game_id: int) -> ResponseReturnValue:
    return _links_page(_game_or_404(game_id))


def _live_link_of(game: Game, kind: LinkKind, through: int | None = None) -> Link | None:
    """The game's newest link of ``kind`` that still works, made ``through`` that link (None:
    made by a member, so not ending with a table link), or None."""
    live = (
        each
        for each in links.links_of_game(game)
        if each.kind == kind and each.through_id == through
    )
    return next((each for each in live if link_is_live(each)), None)


@bp.post("/games/<int:game_id>/links")
@requires(Permission.LINKS)
def add_game_link(game_id: int) -> ResponseReturnValue:
    game = _game_or_404(game_id)
    form = LinkForm()
    if not form.validate_on_submit():
        return _links_page(game, UNPROCESSABLE, _("Choose a table link or a watch link."))
    kind = LinkKind(form.kind.data)
    # The scoreboard's "QR code for the table" asks for the game's table link: the newest one
    # that still works, else a new one (issue 23: one tap from the scoreboard to a QR code).
    if request.form.get("reuse") == "1":
        reused = _live_link_of(game, kind)
        if reused is not None:
            return redirect(
                url_for("accounts.game_links", game_id=game.id) + f"#link-{reused.id}", 303
            )
    link, _token = links.make_link(kind, visitor().actor, game=game)
    return redirect(url_for("accounts.game_links", game_id=game.id) + f"#link-{link.id}", 303)


@bp.post("/games/<int:game_id>/share")
@requires(Permission.VIEW)
def share_game(game_id: int) -> ResponseReturnValue:
    """What Share hands over (issue 23): the game's watch link, which opens the live scores
    without an account. Whoever may make links gets the newest live one, made if there is
    none; a viewer gets one only where one exists, else words saying who can make one.

    A phone let in by a table link gets a watch link made through that table link, which ends
    when the table link does (``access.link_is_live``): what the table shares lasts no longer
    than the table's own way in (issue 36), and never a member's lasting one."""
    game = _game_or_404(game_id)
    held = visitor().link
    if held is not None:
        # The gate let this phone in by this link a moment ago, for this very game.
        let_in = db.session.get(Link, held.id)
        assert let_in is not None
        if let_in.kind == LinkKind.WATCH:
            return {"url": links.url_of(let_in)}  # a watch link passes on itself
        link = _live_link_of(game, LinkKind.WATCH, through=let_in.id)
        if link is None:
            link, _token = links.make_link(
                LinkKind.WATCH, visitor().actor, game=game, through=let_in
            )
        return {"url": links.url_of(link)}
    link = _live_link_of(game, LinkKind.WATCH)
    if link is None and visitor().may(Permission.LINKS):
        link, _token = links.make_link(LinkKind.WATCH, visitor().actor, game=game)
    if link is None:
        message = _("No watch link yet: an owner or scorer can make one from the scoreboard.")
        return {"message": message}
    return {"url": links.url_of(link)}


@bp.post("/links/<int:link_id>/revoke")
@requires(Permission.LINKS)
def revoke_link(link_id: int) -> ResponseReturnValue:
    link = db.session.get(Link, link_id)
    if link is None:
        abort(404)
    if link.kind == LinkKind.INVITE and not visitor().may(Permission.MEMBERS):
        abort(404)
    links.revoke(link)
    flash(_("The link is revoked: it opens nothing now."), "success")
    if link.kind == LinkKind.REVIEW and link.year is not None:
        return redirect(url_for("history.review_page", year=link.year) + "#review-links", code=303)
    if link.game_id is not None:
        return redirect(url_for("accounts.game_links", game_id=link.game_id), code=303)
    return redirect(url_for("accounts.members"), code=303)


def _open_link(token: str, kind: LinkKind) -> ResponseReturnValue:
    """Let this browser in by the link. A member of the link's household goes on to the game
    as themselves; a member of another household is first asked whether to sign out and follow
    it (the GET changes nothing; the POST from that page signs them out)."""
    link = links.find(token, kind)
    if link is None or link.game_id is None:
        abort(404)
    who = visitor()
    # A table link goes on to the game's scoreboard; a watch link shows it at its own address.
    if kind == LinkKind.WATCH:
        board = url_for("accounts.watch_link", token=token)
    else:
        board = url_for("games.show", game_id=link.game_id)
    if who.user is not None and who.user.household_id != link.household_id:
        if request.method != "POST":
            return render("accounts/follow_link.html", kind=kind.value)
        answer = services.end_session(redirect(board, code=303))
        links.open_in_session(link)
        return answer
    letting_in = who.user is None and link.id not in {id_ for id_, _hash in links_held()}
    if who.user is None:
        links.open_in_session(link)
    if kind != LinkKind.WATCH or request.method == "POST":
        return redirect(board, code=303)
    # A watch link is what a family pastes into a chat: its own address shows the live board
    # (read-only) with the preview in its head (the chat's robot has no session), and is what
    # the address bar holds, so sharing it on from there passes on a link that works.
    with scope.household(link.household_id):
        page = watch_page(
            link.game_id,
            here=url_for("accounts.watch_link", token=token, _external=True),
            card_url=url_for("accounts.watch_card", token=token, _external=True),
            result_url=url_for("accounts.watch_result", token=token),
        )
    if letting_in:
        # The answer that lets a phone in is kept by no cache (docs/security.md, 8.2.1); the
        # phone's later visits are asked again with their ETag, as any scoreboard is.
        page.headers["Cache-Control"] = "no-store"
        del page.headers["ETag"]
    return page


@bp.get("/w/<token>/card.png")
@requires(Permission.PUBLIC)
def watch_card(token: str) -> ResponseReturnValue:
    """The result card of a watch link's game, for the chat that shows the link."""
    link = links.find(token, LinkKind.WATCH)
    if link is None or link.game_id is None:
        abort(404)
    with scope.household(link.household_id):
        _result, png = result_card(link.game_id, with_png=True)
    return picture(png)


@bp.get("/w/<token>/result")
@requires(Permission.PUBLIC)
def watch_result(token: str) -> ResponseReturnValue:
    """The result card's page of a watch link's game, at the link's own address: its picture
    and download are the link's, and its way back leads to the link (``/games/<id>`` would ask
    a relative with no account to sign in)."""
    link = links.find(token, LinkKind.WATCH)
    if link is None or link.game_id is None:
        abort(404)
    if visitor().user is None:
        links.open_in_session(link)  # as the link itself does: Share and the board work on
    with scope.household(link.household_id):
        words, _png = result_card(link.game_id)
    return render(
        "games/result.html",
        game_id=link.game_id,
        result=words,
        card_url=url_for("accounts.watch_card", token=token),
        back_url=url_for("accounts.watch_link", token=token),
    )


@bp.route("/t/<token>", methods=["GET", "POST"])
@requires(Permission.PUBLIC)
def table_link(token: str) -> ResponseReturnValue:
    return _open_link(token, LinkKind.TABLE)


@bp.route("/w/<token>", methods=["GET", "POST"])
@requires(Permission.PUBLIC)
def watch_link(token: str) -> ResponseReturnValue:
    return _open_link(token, LinkKind.WATCH)
