"""The year in review in words and on its card: each figure's sentence (the page) and short
form (the card and its alt text), the headline and subline, and the 1200 x 630 PNG, kept under
the review's own key. What the figures are and how they are counted: ``review``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from babel import Locale

from .. import languages, local_time, scope
from ..extensions import Kept
from ..games.card import ACCENT, MARGIN, MUTED, TEXT, WIDTH, card_head, fit, font, png_of
from ..words import rules_name as rules_name_in_words
from ..words import words
from .formatting import decimal
from .rating_model import PROVISIONAL
from .review import Review, counted, review_of
from .words import _, format_date, format_percent, ngettext
from .words import language as current_language


@dataclass(frozen=True)
class Figure:
    """One figure of the review: its name, what it says in a sentence (the page), and in a few
    words (the card, and its alt text)."""

    label: str
    sentence: str
    short: str
    game_id: int | None = None


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _day_and_month(day: date) -> str:
    """ "24 December" ("24 de diciembre"): English as the app has always written it, any other
    language as its CLDR data writes a day of a month."""
    language = current_language()
    if language.split("_")[0] == "en":
        return str(format_date(day, "d MMMM"))
    skeleton = Locale.parse(language).datetime_skeletons.get("MMMMd")
    return str(format_date(day, skeleton.pattern if skeleton is not None else "d MMMM"))


def _who(found: Sequence[Any]) -> str:
    """ "Ann", "Ann and Ben", "Ann, Ben and Cy", in the page's language."""
    names = [each.name for each in found]
    if len(names) <= 1:
        return "".join(names)
    return _("%(names)s and %(last)s", names=", ".join(names[:-1]), last=names[-1])


def _games(count: int) -> str:
    return ngettext("%(count)s game", "%(count)s games", count, count=counted(count))


def _finished(count: int) -> str:
    return ngettext(
        "%(count)s finished game", "%(count)s finished games", count, count=counted(count)
    )


def _rounds(count: int) -> str:
    return ngettext("%(count)s round", "%(count)s rounds", count, count=counted(count))


def figures(review: Review) -> list[Figure]:
    """The review's figures in words, in the page's language, in the order the page and the
    card show them; a figure the year has nothing for is left out."""
    found = []
    if review.most_games:
        first = review.most_games[0]
        who, games = _who(review.most_games), _finished(first.count)
        sentence = (
            _("%(names)s played the most: %(games)s each.", names=who, games=games)
            if len(review.most_games) > 1
            else _("%(name)s played the most: %(games)s.", name=who, games=games)
        )
        found.append(Figure(_("Most games"), sentence, _("%(who)s, %(what)s", who=who, what=games)))
    if review.most_wins:
        first = review.most_wins[0]
        who = _who(review.most_wins)
        wins = ngettext("%(count)s win", "%(count)s wins", first.count, count=counted(first.count))
        sentence = (
            _("%(names)s won the most: %(wins)s each.", names=who, wins=wins)
            if len(review.most_wins) > 1
            else _(
                "%(name)s won the most: %(wins)s (of %(games)s).",
                name=who,
                wins=wins,
                games=_games(first.games),
            )
        )
        found.append(Figure(_("Most wins"), sentence, _("%(who)s, %(what)s", who=who, what=wins)))
    if review.streaks:
        length = review.streaks[0].length
        who = _who(review.streaks)
        sentence = (
            ngettext(
                "%(names)s won %(count)s game in a row each.",
                "%(names)s won %(count)s games in a row each.",
                length,
                names=who,
                count=counted(length),
            )
            if len(review.streaks) > 1
            else ngettext(
                "%(name)s won %(count)s game in a row.",
                "%(name)s won %(count)s games in a row.",
                length,
                name=who,
                count=counted(length),
            )
        )
        short = ngettext(
            "%(who)s, %(count)s in a row",
            "%(who)s, %(count)s in a row",
            length,
            who=who,
            count=counted(length),
        )
        found.append(Figure(_("Longest winning streak"), sentence, short))
    if review.comeback is not None:
        back = review.comeback
        when = _(
            "%(rules)s, %(day)s",
            rules=rules_name_in_words(back.rules_name),
            day=local_time.short_day(back.started),
        )
        values = {
            "name": back.name,
            "behind": back.behind,
            "leader": back.leader,
            "round": back.round_number,
            "when": when,
        }
        sentence = (
            _(
                "%(name)s was %(behind)s behind %(leader)s, level on phases, after round "
                "%(round)s, and won (%(when)s).",
                **values,
            )
            if back.level_on_contracts and back.phases
            else _(
                "%(name)s was %(behind)s behind %(leader)s, level on contracts, after round "
                "%(round)s, and won (%(when)s).",
                **values,
            )
            if back.level_on_contracts
            else _(
                "%(name)s was %(behind)s behind %(leader)s after round %(round)s, and won "
                "(%(when)s).",
                **values,
            )
        )
        short = _("%(name)s, from %(behind)s behind", name=back.name, behind=back.behind)
        found.append(Figure(_("Biggest comeback"), sentence, short, back.game_id))
    if review.hardest is not None:
        hard = review.hardest
        share = format_percent(hard.share)
        tried = {
            "contract": _capital(words(hard.description)),
            "rules": rules_name_in_words(hard.rules_name),
            "number": hard.contract,
            "made": counted(hard.made),
            "count": counted(hard.tries),
            "share": share,
        }
        found.append(
            Figure(
                _("Hardest phase") if hard.phases else _("Hardest contract"),
                ngettext(
                    "%(contract)s (%(rules)s, phase %(number)s): made %(made)s of the "
                    "%(count)s time it was tried (%(share)s).",
                    "%(contract)s (%(rules)s, phase %(number)s): made %(made)s of the "
                    "%(count)s times it was tried (%(share)s).",
                    hard.tries,
                    **tried,
                )
                if hard.phases
                else ngettext(
                    "%(contract)s (%(rules)s, contract %(number)s): made %(made)s of the "
                    "%(count)s time it was tried (%(share)s).",
                    "%(contract)s (%(rules)s, contract %(number)s): made %(made)s of the "
                    "%(count)s times it was tried (%(share)s).",
                    hard.tries,
                    **tried,
                ),
                _(
                    "%(contract)s: %(share)s made",
                    contract=_capital(words(hard.description)),
                    share=share,
                ),
            )
        )
    if review.leader is not None:
        lead = review.leader
        notes = []
        if lead.provisional:
            notes.append(
                ngettext(
                    "provisional: fewer than %(count)s game",
                    "provisional: fewer than %(count)s games",
                    PROVISIONAL,
                    count=PROVISIONAL,
                )
            )
        if not lead.games:
            notes.append(_("no game in %(year)s", year=review.year))
        rating = languages.rating(lead.shown)
        sentence = (
            _(
                "%(name)s ended the year with the best rating: %(rating)s (%(notes)s).",
                name=lead.name,
                rating=rating,
                notes="; ".join(notes),
            )
            if notes
            else _(
                "%(name)s ended the year with the best rating: %(rating)s.",
                name=lead.name,
                rating=rating,
            )
        )
        found.append(
            Figure(_("Rating leader"), sentence, _("%(who)s, %(what)s", who=lead.name, what=rating))
        )
    if review.climber is not None:
        up = review.climber
        climb = decimal(up.climb)
        found.append(
            Figure(
                _("Biggest climber"),
                _(
                    "%(name)s climbed the most: their rating rose %(climb)s over the year.",
                    name=up.name,
                    climb=climb,
                ),
                _("%(name)s, up %(climb)s", name=up.name, climb=climb),
            )
        )
    if review.busiest is not None:
        busy = review.busiest
        day = _day_and_month(busy.day)
        games, rounds = _games(busy.games), _rounds(busy.rounds)
        found.append(
            Figure(
                _("Busiest evening"),
                _(
                    "The evening of %(day)s: %(games)s and %(rounds)s.",
                    day=day,
                    games=games,
                    rounds=rounds,
                ),
                _("%(who)s, %(what)s", who=day, what=games),
            )
        )
    return found


def headline(review: Review) -> str:
    return _("%(year)s at the table", year=review.year)


def subline(review: Review, household: str) -> str:
    if review.empty:
        return _("%(household)s · no games this year", household=household)
    return _(
        "%(household)s · %(games)s · %(rounds)s",
        household=household,
        games=_finished(review.finished),
        rounds=_rounds(review.rounds),
    )


def alt_text(review: Review, household: str) -> str:
    """What the card shows, in words (the alt text of every page that shows it)."""
    lines = [_("%(title)s: %(text)s.", title=headline(review), text=subline(review, household))]
    lines += [
        _("%(title)s: %(text)s.", title=figure.label, text=figure.short)
        for figure in figures(review)
    ]
    return " ".join(lines)


def draw_review_card(review: Review, household: str) -> bytes:
    """The PNG of the year: the game card's head (``games.card``), then a line a figure."""
    image, draw = card_head(headline(review), subline(review, household))
    shown = figures(review)
    if not shown:
        draw.text((MARGIN, 300), _("No games played this year."), font=font(40), fill=MUTED)
    shown = shown[:8]
    # The lines share the room below the head (y 262 to 610): as large as they fit.
    row = min(64, (610 - 262) // max(len(shown), 1))
    size = row - 18
    label_width = 380
    words_width = WIDTH - 2 * MARGIN - label_width
    for index, figure in enumerate(shown):
        baseline = 262 + (index + 1) * row - 12
        label, label_size = fit(draw, figure.label, size - 6, label_width - 20)
        draw.text((MARGIN, baseline), label, font=font(label_size), fill=ACCENT, anchor="ls")
        words, words_size = fit(draw, figure.short, size, words_width)
        draw.text(
            (MARGIN + label_width, baseline), words, font=font(words_size), fill=TEXT, anchor="ls"
        )
    return png_of(image)


def review_card(number: int, version: str, household: str) -> bytes:
    """The year's card, kept under the same key as the review, and the household's name."""
    key = ("review-card", scope.current(), number, version, household, languages.locale())
    return Kept.of().get_or_make(
        key, lambda: draw_review_card(review_of(number, version), household)
    )
