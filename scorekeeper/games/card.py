"""The result card of a game: a 1200 x 630 PNG (the size chat apps preview a link with) that
says who won, or that the game is in progress, with every total, the rules, the date and the
rounds played (a tie-break hand said apart: ``rounds_played``). Where each player keeps their
own contract (12-Step), each line shows the contracts made beside the points, and a finished
game says why its winner won (the tie-break where there was one), as the board does: a winner
with more points than the player below them reads right. Drawn with Pillow, kept per game
version and language like the drawn scoreboards.

Its words are the page's language's (``result_of`` runs in the request that asks: a phone's,
or a chat's robot that names no language, which reads the household's), and they are drawn in
a font that has every letter a family's language and names need (``FONT``: Pillow's own has
no accents, and "¿Quién ganó?" would come out as boxes).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path

from flask import abort
from flask_babel import gettext as _
from flask_babel import ngettext
from PIL import Image, ImageDraw, ImageFont
from sqlalchemy import select

from .. import languages, local_time
from ..extensions import Kept, db
from ..models import Game
from ..words import rules_name as rules_name_in_words
from ..words import words
from . import services
from .phases import says_phases
from .scoreboard import Stamp
from .tally import Tally, points_in_words

WIDTH, HEIGHT = 1200, 630
MARGIN = 64
# The app's own colours (static/css/app.css, light scheme): a card reads like the scoreboard.
BACKGROUND = "#f7f6f2"
TEXT = "#1c1d1f"
MUTED = "#5a5f66"
ACCENT = "#1d6b45"
LINE = "#d5d3cc"
# More players than this are summed up in one line: the card has room for a family, not a club.
ROWS = 8
# The height of a line of the card's foot.
FOOT_LINE = 32
# The size of the line under a name that says where its total came from.
COMINGS_SIZE = 20
# DejaVu Sans Condensed, cut down to the Latin, Greek and Cyrillic alphabets and the
# punctuation the cards use (fonts/README.md says how, and its licence): as narrow as Pillow's
# own font, which has no letter beyond plain ASCII.
FONT = Path(__file__).resolve().parent.parent / "fonts" / "DejaVuSansCondensed-Subset.ttf"


@dataclass(frozen=True)
class Result:
    """What the card and the page's preview (og:title, og:description) say about a game."""

    title: str
    description: str
    headline: str
    subline: str
    totals: tuple[tuple[str, int, bool], ...]
    # Each line's contracts made, where they rank first ("11 of 12"); empty otherwise.
    contracts: tuple[str, ...] = ()
    # The same as numbers: (made, of all the contracts), for the card's short form ("11/12").
    contract_counts: tuple[tuple[int, int], ...] = ()
    # Why the winners won, in words (``Tally.why_won``), once the game is finished; while a
    # tie-break hand is owed, who is tied and that it comes next (``Tally.tie_break_next``).
    why: str | None = None
    # Where each line's total came from ("joined before round 5 with 135 points", "left after
    # round 3"), in words; "" for a player who sat every round.
    comings: tuple[str, ...] = ()
    # How a player who left ranks, where one did (they rank last, not for the lowest total).
    left_rank: str | None = None
    # The tie-break hand once played, its points added to no total (``Tally.tie_break_played``).
    tie_break_hand: str | None = None


def rounds_played(tally: Tally) -> str:
    """How many rounds were played, in the page's language: "10 rounds played", or "10 rounds
    and a tie-break hand played" where the tied players played one after the last round (its
    points count in no total, and it is no round of the game's own play)."""
    rounds = tally.regular_rounds
    if tally.played_tie_break_hand:
        return ngettext(
            "%(num)s round and a tie-break hand played",
            "%(num)s rounds and a tie-break hand played",
            rounds,
        )
    return ngettext("%(num)s round played", "%(num)s rounds played", rounds)


def result_of(tally: Tally, rules_name: str, started: datetime) -> Result:
    """The result of a game in words, in the page's language: winners or how it stands, and
    each player's total."""
    played = rounds_played(tally)
    if tally.winners:
        headline = words(tally.winner_words)
    elif tally.is_over:
        headline = _("Game abandoned")
    elif tally.tie_break_owed:
        headline = _("Tie-break hand next")
    else:
        headline = _("In progress")
    rules = rules_name_in_words(rules_name)
    totals = tuple((s.name, s.total, s.is_winner) for s in tally.standings)
    # The family's date: an evening game in the Americas is not dated the next day.
    parts = [rules, local_time.day(started), played]
    contracts: tuple[str, ...] = ()
    counts: tuple[tuple[int, int], ...] = ()
    if tally.keeps_contracts:
        # "Ann 140" above "Cy 120" is right here: the card says why (issue 23).
        # A Phase 10 deck's game says phases where another says contracts (games.phases).
        phases = says_phases(tally.rules)
        parts.append(_("ranked by phases made") if phases else _("ranked by contracts made"))
        # Of the phases played (a house's ``phases_played`` plays fewer than ten).
        of = len(tally.rules.phases)
        counts = tuple((s.contracts_made, of) for s in tally.standings)
        contracts = tuple(_("%(made)s of %(all)s", made=made, all=of) for made, of in counts)
        lines = [
            ngettext(
                "%(name)s %(made)s of %(num)s phase, %(points)s",
                "%(name)s %(made)s of %(num)s phases, %(points)s",
                of,
                name=name,
                made=made,
                points=words(points_in_words(total)),
            )
            if phases
            else ngettext(
                "%(name)s %(made)s of %(num)s contract, %(points)s",
                "%(name)s %(made)s of %(num)s contracts, %(points)s",
                of,
                name=name,
                made=made,
                points=words(points_in_words(total)),
            )
            for (name, total, _winner), (made, of) in zip(totals, counts, strict=True)
        ]
    else:
        lines = [f"{name} {_number(total)}" for name, total, _winner in totals]
    comings = tuple(words(tally.lineup.comings_in_words(s.seat)) for s in tally.standings)
    lines = [
        _("%(player)s (%(comings)s)", player=line, comings=said) if said else line
        for line, said in zip(lines, comings, strict=True)
    ]
    left_rank = words(tally.left_rank) if tally.left_rank else None
    subline = " · ".join(parts)
    # Who is tied and that the next hand is theirs, while a tie-break hand is owed.
    why_now = tally.why_won or tally.tie_break_next
    why = words(why_now) if why_now else None
    tie_break_hand = words(tally.tie_break_played) if tally.tie_break_played else None
    description = (
        "; ".join(lines)
        + f". {subline}."
        + (f" {why}" if why else "")
        + (f" {tie_break_hand}" if tie_break_hand else "")
        + (f" {left_rank}" if left_rank else "")
    )
    return Result(
        title=_("%(headline)s: %(rules)s", headline=headline, rules=rules),
        description=description,
        headline=headline,
        subline=subline,
        totals=totals,
        contracts=contracts,
        contract_counts=counts,
        why=why,
        comings=comings if any(comings) else (),
        left_rank=left_rank,
        tie_break_hand=tie_break_hand,
    )


def _number(value: int) -> str:
    """A number as the page's language writes it (1,250 / 1.250)."""
    return languages.number(value)


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """The cards' font at ``size`` pixels, shipped with the package (no system font to depend
    on), read once a process for each size. Pillow's basic layout: the same drawing on every
    machine, whether or not its Pillow has the complex-script library."""
    return ImageFont.truetype(str(FONT), size, layout_engine=ImageFont.Layout.BASIC)


def fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> tuple[str, int]:
    """``text`` at ``size`` or smaller until it fits ``width``, shortened with … as a last
    resort; the text and the size used."""
    while size > 24 and draw.textlength(text, font=font(size)) > width:
        size -= 4
    while len(text) > 1 and draw.textlength(text, font=font(size)) > width:
        text = text[:-2] + "…"
    return text, size


def lines_of(draw: ImageDraw.ImageDraw, text: str, size: int, width: int, most: int) -> list[str]:
    """``text`` broken between words into lines of ``width`` at ``size``, at most ``most`` of
    them (the last shortened with … where even they cannot hold it all)."""
    lines: list[str] = []
    words = text.split(" ")
    while words and len(lines) < most - 1:
        line = [words.pop(0)]
        while words and draw.textlength(" ".join([*line, words[0]]), font=font(size)) <= width:
            line.append(words.pop(0))
        lines.append(" ".join(line))
    if words:
        last = " ".join(words)
        while len(last) > 1 and draw.textlength(last, font=font(size)) > width:
            last = last[:-2] + "…"
        lines.append(last)
    return lines


def card_head(headline: str, subline: str) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A card's canvas with what every card opens with (the bar, the app's name, a headline
    and a muted line under it, and the rule below them): the rest is drawn from y 270 down.
    A headline too long for one line at 48 px takes two at 44 (two winners' long names).
    Shared with the year in review's card (``history.review``)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN
    draw.rectangle((0, 0, WIDTH, 16), fill=ACCENT)
    draw.text((MARGIN, 44), "Scorekeeper", font=font(30), fill=ACCENT)
    fitted, size = fit(draw, headline, 72, inner)
    if size < 48:
        for step, line in enumerate(lines_of(draw, headline, 44, inner, 2)):
            draw.text((MARGIN, 86 + step * 48), line, font=font(44), fill=TEXT)
    else:
        draw.text((MARGIN, 90), fitted, font=font(size), fill=TEXT)
    fitted, size = fit(draw, subline, 34, inner)
    draw.text((MARGIN, 186), fitted, font=font(size), fill=MUTED)
    draw.line((MARGIN, 244, WIDTH - MARGIN, 244), fill=LINE, width=3)
    return image, draw


def png_of(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def draw_card(result: Result) -> bytes:
    """The PNG of ``result``: headline, a line of rules, date and rounds, then the totals, each
    with the line under the name that says where it came from (a join, a leave, a comeback)."""
    image, draw = card_head(result.headline, result.subline)
    inner = WIDTH - 2 * MARGIN
    shown = result.totals[:ROWS]
    columns = 2 if len(shown) > 4 else 1
    rows = -(-len(shown) // columns)
    column_width = inner // columns
    left_out = len(result.totals) - ROWS
    foot = [ngettext("and %(num)s more", "and %(num)s more", left_out)] if left_out > 0 else []
    foot += [result.why] if result.why else []
    foot += [result.tie_break_hand] if result.tie_break_hand else []
    foot += [result.left_rank] if result.left_rank else []
    # The foot (who won and why, any players left out) takes the card's last lines, up to 3.
    foot_lines = lines_of(draw, " · ".join(foot), 24, inner, 3) if foot else []
    row_height = min(80, (HEIGHT - 280 - 40 - FOOT_LINE * len(foot_lines)) // max(rows, 1))
    # A line under a name that says where the total came from takes its room from the name.
    font_size = min(48, row_height - 16 - (COMINGS_SIZE + 4 if result.comings else 0))
    small = max(20, font_size * 2 // 3)
    # Where each row's parts go: its name has the room the contracts and points leave.
    placed = []
    for index, (name, total, winner) in enumerate(shown):
        x = MARGIN + (index // rows) * column_width
        right = x + column_width - (40 if columns > 1 else 0)
        number = _number(total)
        taken = draw.textlength(number, font=font(font_size))
        made = ""
        if result.contract_counts:
            # The contracts made, beside the points they rank before: "11 of 12 made" ("11/12"
            # where two columns leave a name too little room).
            done, of = result.contract_counts[index]
            made = ngettext("%(made)s of %(num)s made", "%(made)s of %(num)s made", of, made=done)
            if columns > 1:
                made = f"{done}/{of}"
            taken += draw.textlength(made, font=font(small)) + 24
        room = int(right - x - taken - 24)
        y = 270 + (index % rows) * row_height
        said = result.comings[index] if result.comings else ""
        placed.append((x, y, right, room, name, number, made, winner, said))
    # Every name at one size, the largest at which the longest fits (a short name printed
    # bigger than the others reads as singled out); cut with … only below 24 px.
    sizes = [fit(draw, name, font_size, room)[1] for _, _, _, room, name, *_ in placed]
    name_size = min(sizes, default=font_size)
    for x, y, right, room, name, number, made, winner, said in placed:
        colour = ACCENT if winner else TEXT
        baseline = y + font_size
        if made:
            made_right = right - draw.textlength(number, font=font(font_size)) - 24
            draw.text((made_right, baseline), made, font=font(small), fill=MUTED, anchor="rs")
        label, label_size = fit(draw, name, name_size, room)
        if winner:
            # The default font has no star: a bar before the winner's line marks it.
            draw.rectangle((x - 28, y + 4, x - 18, y + font_size), fill=ACCENT)
        # On one baseline, however much a long name had to shrink.
        draw.text((x, baseline), label, font=font(label_size), fill=colour, anchor="ls")
        draw.text((right, baseline), number, font=font(font_size), fill=colour, anchor="rs")
        if said:
            # Under the name, the whole width of the line: "left after round 3".
            size = COMINGS_SIZE
            while size > 14 and draw.textlength(said, font=font(size)) > right - x:
                size -= 2
            line = lines_of(draw, said, size, right - x, 1)[0]
            draw.text((x, baseline + 4), line, font=font(size), fill=MUTED, anchor="lt")
    foot_top = HEIGHT - 20 - FOOT_LINE * len(foot_lines)
    for step, line in enumerate(foot_lines):
        draw.text((MARGIN, foot_top + FOOT_LINE * step), line, font=font(24), fill=MUTED)
    return png_of(image)


def result_card(
    game_id: int, *, with_png: bool = False, stamp: Stamp | None = None
) -> tuple[Result, bytes | None]:
    """The game's result in words (and its card's PNG when asked), in the page's language,
    kept (``extensions.Kept``) by game id, version, creation time and language, never less: a
    version changes with every change, and the creation time tells apart two games of one id
    (a database restored under a running server). The scoreboard has read the game's stamp
    already (``stamp``): no query while it is kept."""
    language = languages.locale()
    if stamp is not None:
        key = ("result", game_id, stamp.version, stamp.created, language)
    else:
        found = db.session.execute(
            select(Game.version, Game.created_at).where(Game.id == game_id)
        ).one_or_none()
        if found is None:
            abort(404)
        key = ("result", game_id, *found, language)
    kept: tuple[Result, bytes | None] | None = Kept.of().get(key)
    if kept is not None and (kept[1] is not None or not with_png):
        return kept
    game = db.session.get(Game, game_id)
    if game is None:
        abort(404)
    result = result_of(services.tally_of(game), game.rules_name, game.started)
    png = draw_card(result) if with_png else None
    # Filed under the version of the rows just read, as the drawn boards are.
    Kept.of().put(("result", game_id, game.version, game.created_at, language), (result, png))
    return result, png
