"""Words are text (issue 48): no name a family types and no translation can become markup.

A scorer could name a player ``x hx-post=/games/50/delete hx-trigger=load y``; a Spanish
translation held a straight quote inside an ``aria-label`` ("Retirar un "¿Puedo?" de
%(name)s"), which ended the attribute early, so the name's words became attributes of the
button and htmx posted the delete as soon as the owner opened the board in Spanish.

Every GET route of ``app.url_map`` is asked by each role, a stranger and each kind of link, in
English and in Spanish, on a household whose name, one player's name and whose house rules'
name are hostile; then once more in Spanish with a hostile catalogue (every translation with a
quote, an attribute and an element added, as a careless or hostile translator could type).
Every page is parsed as a browser does, and none may hold an element or an attribute that the
app did not write: the hostile ones are all named ``zzevil`` (an htmx attribute is caught by
its value). The walk also checks that the hostile words did reach attributes and text (else
the test would prove nothing).

SQLite only: what a page writes does not depend on the database it was read from.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser
from typing import Any

import flask_babel
import pytest
from flask import Flask
from flask.testing import FlaskClient

from .test_access import World, _address
from .test_spanish_pages import WHO, _make_world, _phone

pytestmark = pytest.mark.xdist_group("words-are-text")

MARK = "zzevil"
# 44 characters, as the review's: a quote of each kind, an htmx attribute, an element.
PLAYER = f"Zed\" {MARK}=1 hx-get=/{MARK} x='<{MARK}>"
HOUSEHOLD = f"Casa\" {MARK}=2 '<{MARK} x>"
RULES = f"Reglas\" {MARK}=3 hx-post=/{MARK} '<{MARK}>"
PLAYERS = [PLAYER, "Beto", "Coco", "Dani", "Eli", "Fer"]
# What a hostile translator adds to every message (no %: the message is still formatted).
TRANSLATED = f' " {MARK}=4 hx-get=/{MARK} \'<{MARK} y="1">'

LANGUAGES = {"en": {"Accept-Language": "en-GB,en;q=0.9"}, "es": {"Accept-Language": "es-MX"}}
# Attributes that act: a hostile value in one of these is as bad as a new attribute.
ACTING = ("hx-", "on", "href", "src", "action", "formaction", "data-hx")


@dataclass
class Found:
    """What one page holds that the app did not write, and where its hostile words landed."""

    written: list[str] = field(default_factory=list)
    in_attributes: int = 0
    in_text: int = 0


class _Parser(HTMLParser):
    """Each element and attribute of a page, as a browser's parser sees them."""

    def __init__(self, found: Found) -> None:
        super().__init__(convert_charrefs=True)
        self.found = found

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if MARK in tag:
            self.found.written.append(f"<{tag}>")
        for name, value in attrs:
            if MARK in name:
                self.found.written.append(f"<{tag} {name}=…>")
            elif value and MARK in value:
                # The hostile words name /zzevil; a slug made of a name ("reglas-zzevil-3") is
                # the app's own address.
                if name.startswith(ACTING) and value.startswith(f"/{MARK}"):
                    self.found.written.append(f"<{tag} {name}={value!r}>")
                self.found.in_attributes += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        if MARK in data:
            self.found.in_text += 1


def hostile_markup(page: str) -> Found:
    found = Found()
    parser = _Parser(found)
    parser.feed(page)
    parser.close()
    return found


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    folder = tmp_path_factory.mktemp("words")
    saved = os.environ.get("SCOREKEEPER_INSTANCE_PATH")
    made = _make_world(
        f"sqlite:///{folder / 'walk.db'}",
        folder / "instance",
        household=HOUSEHOLD,
        players=PLAYERS,
        rules_name=RULES,
    )
    yield made
    from scorekeeper.extensions import db

    with made.app.app_context():
        db.session.remove()
        db.engine.dispose()
    if saved is None:
        os.environ.pop("SCOREKEEPER_INSTANCE_PATH", None)
    else:
        os.environ["SCOREKEEPER_INSTANCE_PATH"] = saved


def _urls(world: World) -> list[tuple[str, str]]:
    """(endpoint, address) of every GET route, for the game in progress and the finished one."""
    app: Flask = world.app
    urls: list[tuple[str, str]] = []
    for rule in sorted(app.url_map.iter_rules(), key=lambda rule: rule.endpoint):
        if "GET" not in (rule.methods or ()) or rule.endpoint == "static":
            continue
        shown = [world]
        if "game_id" in rule.arguments and rule.endpoint != "games.delete":
            shown.append(replace(world, playing=world.finished))
        for each in shown:
            urls.append((rule.endpoint, _address(each, rule.endpoint, set(rule.arguments))))
    return sorted(set(urls))


@dataclass
class Walked:
    pages: int = 0
    written: list[str] = field(default_factory=list)
    in_attributes: int = 0
    in_text: int = 0
    errors: list[str] = field(default_factory=list)


def walk(world: World, headers: dict[str, str]) -> Walked:
    walked = Walked()
    phones: dict[str, FlaskClient] = {who: _phone(world, who) for who in WHO}
    for endpoint, url in _urls(world):
        for who, phone in phones.items():
            answer = phone.get(url, headers=headers)
            if answer.status_code >= 500:
                walked.errors.append(f"{url} as {who}: {answer.status_code}")
            if answer.mimetype in ("text/html", "image/svg+xml"):
                found = hostile_markup(answer.get_data(as_text=True))
                walked.pages += 1
                walked.written += [f"{endpoint} {url} as {who}: {w}" for w in found.written]
                walked.in_attributes += found.in_attributes
                walked.in_text += found.in_text
            answer.close()
    return walked


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_no_name_becomes_markup_in_any_language(world: World, language: str) -> None:
    walked = walk(world, LANGUAGES[language])
    assert walked.errors == []
    assert walked.written == []
    # The hostile names were on the pages, in attributes (aria-labels, values) and in text.
    assert walked.pages > 300
    assert walked.in_attributes > 0 and walked.in_text > 0


class _HostileTranslations:
    """A catalogue whose every message ends in ``TRANSLATED``."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def ugettext(self, text: str) -> str:
        return str(self.real.ugettext(text)) + TRANSLATED

    def ungettext(self, singular: str, plural: str, count: int) -> str:
        return str(self.real.ungettext(singular, plural, count)) + TRANSLATED

    def upgettext(self, context: str, text: str) -> str:
        return str(self.real.upgettext(context, text)) + TRANSLATED

    def unpgettext(self, context: str, singular: str, plural: str, count: int) -> str:
        return str(self.real.unpgettext(context, singular, plural, count)) + TRANSLATED

    gettext = ugettext
    ngettext = ungettext
    pgettext = upgettext
    npgettext = unpgettext

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def test_no_translation_becomes_markup(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    real = flask_babel.Domain.get_translations

    def hostile(domain: flask_babel.Domain) -> Any:
        return _HostileTranslations(real(domain))

    monkeypatch.setattr(flask_babel.Domain, "get_translations", hostile)
    walked = walk(world, LANGUAGES["es"])
    assert walked.written == []
    assert walked.pages > 300
    assert walked.in_attributes > 0 and walked.in_text > 0


# --- the parser itself --------------------------------------------------------------------


def test_the_parser_finds_what_the_app_did_not_write() -> None:
    # The review's board: the translation's quote ended the aria-label, the name's words
    # became the button's attributes.
    page = (
        '<button aria-label="Retirar un "¿Puedo?" de x hx-post=/zzevil hx-trigger=load y">'
        f'-</button><p><{MARK}></p><a href="/{MARK}">x</a>'
        f'<p title="Zed&#34; {MARK}=1">Zed&#34; {MARK}=1 &lt;{MARK}&gt;</p>'
    )
    found = hostile_markup(page)
    assert found.written == [
        "<button hx-post='/zzevil'>",
        f"<{MARK}>",
        f"<a href='/{MARK}'>",
    ]
    assert (found.in_attributes, found.in_text) == (3, 1)
