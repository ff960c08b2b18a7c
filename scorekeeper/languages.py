"""Which language a page speaks (``shared/spec/languages.md``), the catalogues it is read in,
and numbers and dates written as that language writes them.

The languages are the catalogues under ``translations/``, named in ``LANGUAGES``: another
language is one more catalogue and one more line there, no code (``docs/translating.md``).

A page's language is the first of these that says one (``select_locale``, which Flask-Babel
asks once a request, the first time a word or a number is to be written):

1. the signed-in member's own choice, kept on their account (``users.language``: set on
   ``/account``, it follows them to every phone);
2. the browser's ``Accept-Language``, best match among ``LANGUAGES`` (``es-CL`` → ``es``);
3. the language of the household the page is about (``households.language``, its owner's
   choice in the household settings): the signed-in member's, the one a table, watch or review
   link belongs to, the one in scope outside a request; this is what a phone whose browser
   names no language the app has reads, and what is written where no browser asks (a chat's
   robot fetching a result card, a TV's browser, the rounds CSV: ``speaking``);
4. English.

The sign-in and setup pages belong to no household: 2, then 4.

Everything kept between requests that holds words is kept per language: a drawn board, a page
and its ETag (``web.person_tag`` names the language), a fast-lane pass (keyed by the
``Accept-Language`` header too), a result card, a year's review. An answer that consulted the
browser's header varies on it (``Vary: Accept-Language``).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel import Locale, localedata, numbers
from babel.support import NullTranslations, Translations
from flask import (
    Flask,
    Response,
    current_app,
    g,
    has_app_context,
    has_request_context,
    request,
)
from flask_babel import force_locale, get_locale, get_translations, refresh
from jinja2 import pass_context
from jinja2.runtime import Context
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup, escape
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from wtforms.i18n import messages_path

from . import scope, text
from .access import Account
from .extensions import Kept, db
from .models import Household, User

# The language the code's own messages are written in, then every catalogue there is; each
# named in its own language (the choice is read by someone who may not read the page's).
LANGUAGES: dict[str, str] = {"en": "English", "es": "Español"}
DEFAULT = "en"
CATALOGUES = Path(__file__).resolve().parent / "translations"


def known(code: str | None) -> str | None:
    """``code`` where it names a language the app has, else None."""
    return code if code in LANGUAGES else None


# --- which language ----------------------------------------------------------------------------


def best_of_browser() -> str | None:
    """The browser's best match among ``LANGUAGES`` (``es-CL`` → ``es``), or None: outside a
    request, and where the header names none of them. The answer now varies on the header."""
    if not has_request_context():
        return None
    g.language_from_browser = True
    return best_match(request.accept_languages)


def best_match(asked: Iterable[tuple[str, float]]) -> str | None:
    """The first language the browser asks for (its most wanted first) that the app has, by
    its whole tag or else its language alone: ``en-GB,es;q=0.5`` is English (werkzeug's own
    ``best_match`` would take ``es``, an exact match further down, over ``en-GB``). ``*``
    names no language in particular: None."""
    ours = {code.lower().replace("_", "-"): code for code in LANGUAGES}
    by_language = {tag.split("-")[0]: code for tag, code in reversed(ours.items())}
    for value, quality in asked:
        tag = value.strip().lower().replace("_", "-")
        if quality <= 0 or tag == "*":
            continue
        found = ours.get(tag) or by_language.get(tag.split("-")[0])
        if found is not None:
            return found
    return None


def _account() -> Account | None:
    """The signed-in member's account as the gate read it with their session, or None."""
    who = g.get("visitor") if has_request_context() else None
    account: Account | None = getattr(who, "user", None)
    return account


def members_choice() -> str | None:
    """The signed-in member's own choice (None: as their browser says), read with their
    session (``access.Account``); read again after this request changed it."""
    account = _account()
    if account is None:
        return None
    if not g.get("language_changed"):
        return known(account.language)
    account_id = int(account.id)
    with scope.household(int(account.household_id)):
        chosen = _read(
            ("member language", account_id),
            lambda: db.session.scalar(select(User.language).where(User.id == account_id)),
        )
    return known(chosen)


def household_language(household_id: int) -> str:
    """The household's language: its owner's choice, English where none was made. A member's
    own household's was read with their session; any other is read here."""
    account = _account()
    if (
        account is not None
        and account.household_id == household_id
        and not g.get("language_changed")
    ):
        return known(account.household_language) or DEFAULT
    with scope.household(household_id):
        chosen = _read(
            ("household language", household_id),
            lambda: db.session.scalar(
                select(Household.language).where(Household.id == household_id)
            ),
        )
    return known(chosen) or DEFAULT


def households_choice() -> str | None:
    """The language of the household in scope (the visitor's, a link's, a command's)."""
    household = scope.current()
    if not isinstance(household, int) or household == scope.NOBODY or not has_app_context():
        return None
    return household_language(household)


def _read(key: tuple[object, ...], read: Callable[[], str | None]) -> str | None:
    """A language kept on a row, read by ``read``: kept (``extensions.Kept``) under ``key`` and
    the access version this request was let in under, which every UPDATE of an account or a
    household moves on, on any server (``accounts.services.moving_access``); read each time
    where the request has none (a review link's page, a chat's robot), and where nothing of who
    asks is to be kept (``SESSION_CHECK_SECONDS`` 0, as for the sessions themselves). None where
    the database cannot say (the page is then written in the next language in line, never
    refused)."""
    version = None
    if (
        has_request_context()
        and not g.get("language_changed")
        and float(current_app.config.get("SESSION_CHECK_SECONDS") or 0) > 0
    ):
        version = g.get("access_version")
    kept = Kept.of() if version is not None else None
    if kept is not None:
        held: str | None = kept.get((*key, version))
        if held is not None:
            return held or None
    try:
        # No flush of the request's own changes for a read of a setting (a view may be midway).
        with db.session.no_autoflush:
            found = read() or ""
    except SQLAlchemyError:  # the database away: the page says so, in the browser's language
        return None
    if kept is not None:
        kept.put((*key, version), found)
    return found or None


def select_locale() -> str:
    """The page's locale: its language (the member's choice, the browser's, the household's,
    English), with the browser's region where it names one Babel can write numbers and dates
    for (``es_MX``): the catalogue is the language's, the numbers and dates the region's."""
    return regional(members_choice() or best_of_browser() or households_choice() or DEFAULT)


def regional(language: str) -> str:
    """``language`` with the region of the first tag the browser names in it that Babel knows
    (``es-MX`` → ``es_MX``, ``es-419`` → ``es_419``), else ``language`` itself: outside a
    request, where the language's catalogue names a region already (``pt_BR``), and where the
    browser names none. The answer then varies on the header."""
    if "_" in language or not has_request_context():
        return language
    for value, quality in request.accept_languages:
        parts = value.strip().replace("_", "-").split("-")
        if quality <= 0 or len(parts) < 2 or parts[0].lower() != language:
            continue
        g.language_from_browser = True
        region = parts[1].upper()
        if localedata.exists(f"{language}_{region}"):
            return f"{language}_{region}"
    return language


def locale() -> str:
    """The locale numbers and dates are written in: the page's language with its region
    (``es_MX``, ``es``). Whatever is kept with numbers or dates in it is kept per locale."""
    return str(get_locale() or DEFAULT)


def current() -> str:
    """The language the page being drawn speaks, as ``<html lang>`` names it: its catalogue's
    code (``es``, whatever the region its numbers are written for)."""
    found = locale()
    return found if found in LANGUAGES else found.split("_")[0]


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """Write in ``code`` inside the block, whoever asked: what is written for the household
    rather than for the phone asking (``household_language``)."""
    with force_locale(known(code) or DEFAULT):
        yield


def choose_again() -> None:
    """This request changed what its language rests on (a member's or a household's choice):
    what it writes from now on is in the new one, read again past what is kept (under this
    request's access version, which the change moved on)."""
    g.language_changed = True
    refresh()


def name_of(code: str) -> str:
    """The language ``code`` named in the page's language, as a sentence writes it ("español",
    "inglés"; "Spanish"), by Babel; its own name where Babel has none."""
    try:
        named = Locale.parse(code).get_display_name(locale())
    except (ValueError, TypeError):
        named = None
    return str(named) if named else LANGUAGES.get(code, code)


# --- a game's own words ---------------------------------------------------------------------


@dataclass(frozen=True)
class GameWords:
    """How a language says a game's own words (its glossary's ``[game.<name>]``): whole
    messages of its own (by msgid: "May I" is "Robar de contra" in Continental; a plural
    message's, one text for each of the language's plural forms), and words put for the
    language's own in every other message ("escalera" is "escala" in Carioca)."""

    messages: dict[str, str | list[str]]
    words: dict[str, str]

    def say(self, message: str, translated: str, form: int | None = None) -> str:
        """``translated``, the catalogue's text for ``message`` (in its plural form ``form``,
        for a count), in the game's words."""
        own = self.messages.get(message)
        if isinstance(own, list):
            return own[min(form or 0, len(own) - 1)]
        if own is not None:
            return own
        if not self.words:
            return translated
        return self._pattern().sub(lambda found: self.words[found.group(0)], translated)

    def _pattern(self) -> re.Pattern[str]:
        return _words_pattern(tuple(sorted(self.words, key=len, reverse=True)))


@cache
def _words_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(re.escape(word) for word in words) + r")\b")


@cache
def game_words(language: str) -> dict[str, GameWords]:
    """``language``'s words of each game that has its own, from its glossary (read once)."""
    path = CATALOGUES / language / "glossary.toml"
    if not path.is_file():
        return {}
    games = tomllib.loads(path.read_text(encoding="utf-8")).get("game", {})
    return {
        name: GameWords(dict(found.get("messages", {})), dict(found.get("words", {})))
        for name, found in games.items()
    }


def in_game(name: str | Callable[[], str]) -> None:
    """This request's page is about a game that speaks its own words ``name`` (``""``: the
    language's own; ``rules.own_words``), or that ``name()`` says, asked the first time a word
    is written (a poll answered with no word asks nothing)."""
    if has_request_context():
        g.game_words = name


def own_words(message: str, translated: str, form: int | None = None) -> str:
    """``translated`` (the catalogue's text for ``message``, in its plural form ``form`` for a
    count) in the words of the game this page is about, where its language's glossary gives
    them. Every translation passes here (``text.InGameCatalogue``, installed by ``init_app``)."""
    name = g.get("game_words") if has_request_context() else None
    if callable(name):
        try:
            # No flush of the request's own changes for a read of the game's rules.
            with db.session.no_autoflush:
                name = name()
        except SQLAlchemyError:  # the database away or busy: its page says so, in plain words
            name = None
        g.game_words = name
    if not name:
        return translated
    said = game_words(current()).get(name)
    return translated if said is None else said.say(message, translated, form)


# --- numbers and dates, in the page's language --------------------------------------------------

# An en dash stands for a figure there is none of (no games yet), in every language.
NOTHING = "–"


@cache
def babel_locale(name: str) -> Locale:
    """Babel's locale of ``name`` (``es_MX``), read once: parsing it again for every number
    of a page was a third of a long page's time."""
    return Locale.parse(name)


@cache
def _number_pattern(pattern: str) -> numbers.NumberPattern:
    return numbers.parse_pattern(pattern)


def _write_number(value: float | Decimal, pattern: str, name: str) -> str:
    """``value`` written by ``pattern`` for the locale ``name``, as Babel's ``format_decimal``
    writes it. Kept: Babel looks the locale's symbols up again for every number (a long
    page's ratings and totals were a third of its time), and a page's figures repeat."""
    # Its text in the key too: -0.0 equals 0.0, and is written with its sign.
    return _kept_number(value, str(value), pattern, name)


@lru_cache(maxsize=8192)
def _kept_number(value: float | Decimal, text: str, pattern: str, name: str) -> str:
    return _number_pattern(pattern).apply(value, babel_locale(name))


@cache
def _zero(pattern: str, name: str) -> str:
    return _write_number(0, pattern, name)


def number(value: float | None) -> str:
    """A whole number, grouped as the page's language groups it: 1,250 / 1.250."""
    if value is None:
        return NOTHING
    return _write_number(value, "#,##0", locale())


def half_away(value: float | Decimal, places: int) -> Decimal:
    """``value`` to ``places`` decimal places as families round: halves away from zero, on
    the number as written (34.45 is 34.5 and 1.85 is 1.9, though neither float is exactly
    that: the shortest text that reads back as the float is what is rounded)."""
    exact = value if isinstance(value, Decimal) else Decimal(repr(float(value)))
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def decimal(value: float | None, places: int = 1) -> str:
    """``places`` decimal places (18.6 / 18,6), grouped, halves rounded away from zero
    (``half_away``); never a signed zero (a rating of -0.04 is 0.0); an en dash for
    nothing."""
    if value is None:
        return NOTHING
    pattern = "#,##0." + "0" * places if places > 0 else "#,##0"
    name = locale()
    text = _write_number(half_away(value, places), pattern, name)
    zero = _zero(pattern, name)
    return zero if text.lstrip("-\u2212") == zero else text


def percent(value: float | None, places: int = 0) -> str:
    """A share as a percentage, as the language writes one (0.4166 → 42% / 42 %), with
    ``places`` decimal places; an en dash for nothing."""
    if value is None:
        return NOTHING
    language = locale()
    pattern = babel_locale(language).percent_formats[None].pattern
    if places > 0:
        # The language's own pattern ("#,##0 %"), its last digit given the decimal places.
        whole, rest = pattern.rsplit("0", 1)
        pattern = f"{whole}0.{'0' * places}{rest}"
    # Halves away from zero, on the percentage as written (``half_away``).
    shown = half_away(Decimal(repr(float(value))) * 100, places) / 100
    return numbers.format_percent(shown, format=pattern, locale=babel_locale(language))


def rating(value: float | None) -> str:
    """A rating, one decimal place, below zero with a true minus sign as a move is written
    (``signed``): "−0.9", "1.8", never a signed zero; an en dash for nothing. Babel writes the
    hyphen-minus of the language's number format, in both languages."""
    return decimal(value).replace("-", "\u2212")


def signed(value: float, places: int = 1) -> str:
    """A move up or down as people write it in every language: +1.8 / +1,8, −0.4 (a true
    minus sign), ±0.0."""
    shown = decimal(abs(value), places)
    if shown == decimal(0.0, places):
        return "±" + shown
    return ("+" if value > 0 else "\u2212") + shown


# --- WTForms' own messages ---------------------------------------------------------------------


@cache
def _wtforms_catalogue(language: str) -> NullTranslations:
    """WTForms' own catalogue of ``language`` (it ships them), read from disk once a process."""
    return Translations.load(messages_path(), [language], domain="wtforms")


class WTFormsMessages:
    """WTForms' own messages ("This field is required.") in the page's language. Flask-WTF
    translates them with what it finds on the request as ``wtforms_translations``, and would
    read WTForms' catalogue from disk for every request that needs one: it finds this, which
    reads each language's once."""

    def ugettext(self, string: str) -> str:
        return str(_wtforms_catalogue(current()).ugettext(string))

    def ungettext(self, singular: str, plural: str, count: int) -> str:
        return str(_wtforms_catalogue(current()).ungettext(singular, plural, count))


WTFORMS_MESSAGES = WTFormsMessages()


def _wtforms_messages() -> None:
    request.wtforms_translations = WTFORMS_MESSAGES  # type: ignore[attr-defined]


# --- translations in templates are text --------------------------------------------------------


def _as_text(translated: str, variables: dict[str, Any], autoescape: bool) -> str:
    """A message as a template writes it: the translation is text, whatever a translator typed
    (a straight quote, an angle bracket), so it cannot end an attribute or open an element;
    its values are escaped unless they are markup already (a link built of escaped parts).
    Jinja's own newstyle gettext trusts the catalogue's text as markup instead."""
    if autoescape:
        return escape(translated) % variables
    return translated % variables


def _text_gettext(translate: Callable[[str], str]) -> Callable[..., str]:
    @pass_context
    def gettext(context: Context, message: str, /, **variables: Any) -> str:
        return _as_text(translate(message), variables, context.eval_ctx.autoescape)

    return gettext


def _text_ngettext(translate: Callable[[str, str, int], str]) -> Callable[..., str]:
    @pass_context
    def ngettext(
        context: Context, singular: str, plural: str, count: int, /, **variables: Any
    ) -> str:
        variables.setdefault("num", count)
        translated = translate(singular, plural, count)
        return _as_text(translated, variables, context.eval_ctx.autoescape)

    return ngettext


def _text_pgettext(translate: Callable[[str, str], str]) -> Callable[..., str]:
    @pass_context
    def pgettext(context: Context, where: str, message: str, /, **variables: Any) -> str:
        translated = translate(where, message)
        return _as_text(translated, variables, context.eval_ctx.autoescape)

    return pgettext


def _text_npgettext(translate: Callable[[str, str, str, int], str]) -> Callable[..., str]:
    @pass_context
    def npgettext(
        context: Context, where: str, singular: str, plural: str, count: int, /, **variables: Any
    ) -> str:
        variables.setdefault("num", count)
        translated = translate(where, singular, plural, count)
        return _as_text(translated, variables, context.eval_ctx.autoescape)

    return npgettext


def script_words(words: dict[str, str]) -> Markup:
    """Words handed to ``app.js`` as JSON (``_script_words.html``): the text of each, not its
    HTML, since the script puts them in as text."""
    return htmlsafe_json_dumps(
        {key: word.unescape() if isinstance(word, Markup) else word for key, word in words.items()}
    )


# --- in the app ----------------------------------------------------------------------------------


def _vary(response: Response) -> Response:
    """An answer whose words rested on the browser's header says so to every cache."""
    if g.get("language_from_browser"):
        response.vary.add("Accept-Language")
    return response


FILTERS: dict[str, Callable[..., str]] = {
    "number": number,
    "decimal": decimal,
    "percent": percent,
    "signed": signed,
    "rating": rating,
}


def init_app(app: Flask) -> None:
    """After Flask-Babel's ``init_app``: its gettext in templates, with every translation text."""
    # Flask-Babel's catalogues are already in the game's words (``text.InGameCatalogue``).
    app.jinja_env.globals.update(
        gettext=_text_gettext(lambda text: get_translations().ugettext(text)),
        ngettext=_text_ngettext(lambda one, many, n: get_translations().ungettext(one, many, n)),
        pgettext=_text_pgettext(lambda where, text: get_translations().upgettext(where, text)),
        npgettext=_text_npgettext(
            lambda where, one, many, n: get_translations().unpgettext(where, one, many, n)
        ),
    )
    app.add_template_filter(script_words, "script_words")
    text.in_game_words = own_words
    app.jinja_env.globals["current_language"] = current
    app.jinja_env.globals["LANGUAGES"] = LANGUAGES
    for name, fn in FILTERS.items():
        app.add_template_filter(fn, name)
    app.before_request(_wtforms_messages)
    app.after_request(_vary)
