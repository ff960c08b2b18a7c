"""Issue 52: a game's own words (Carioca's escala, Continental's robar de contra) reach every
message on its pages, whichever way the message takes: the templates' ``_`` and ``ngettext``,
``gettext`` and ``ngettext`` in Python, the lazy strings, the rules engine's messages, a
flash, a plural message of the game's own."""

from __future__ import annotations

import re

from flask import Flask, render_template_string
from flask.testing import FlaskClient
from flask_babel import gettext, ngettext

from scorekeeper import house_rules, languages, scope
from scorekeeper.rules import N_plural
from scorekeeper.text import lazy_gettext, lazy_ngettext
from scorekeeper.words import words

from .conftest import family_id
from .helpers import start_game

SPANISH = {"Accept-Language": "es-CL"}


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_every_way_a_message_is_translated_says_the_game_s_words(app: Flask) -> None:
    with app.test_request_context(headers=SPANISH):
        languages.in_game("carioca")
        said = [
            gettext("A run of %(suit)s", suit="corazones"),
            ngettext("a run of %(size)s", "%(many)s runs of %(size)s", 2, size=4, many="dos"),
            str(lazy_gettext("A run of %(suit)s", suit="corazones")),
            str(
                lazy_ngettext(
                    "a run needs at least %(num)s card, and this has %(count)s",
                    "a run needs at least %(num)s cards, and this has %(count)s",
                    4,
                    count=3,
                )
            ),
            render_template_string(
                "{{ _('A run') }} / "
                "{{ ngettext('a run of %(size)s', '%(many)s runs of %(size)s', 2,"
                " size=4, many='dos') }}"
            ),
            words(N_plural("a run of %(size)s", "%(many)s runs of %(size)s", num=1, size=4)),
        ]
    assert all(re.search(r"\b[Ee]scalas?\b", text) for text in said), said
    assert not any(re.search(r"\b[Ee]scaleras?\b", text) for text in said), said
    with app.test_request_context(headers=SPANISH):
        languages.in_game("")
        assert ngettext("a run of %(size)s", "%(many)s runs of %(size)s", 1, size=4, many="") == (
            "una escalera de 4"
        )


def test_the_referee_at_a_carioca_table_says_escala(client: FlaskClient) -> None:
    """The referee's own sentences (written in Python) at a Carioca table, and the contract in
    words, say escala; at any other game's table, escalera."""
    page = _text(
        client.get("/referee?rules=carioca&cards=4H+5H+6H+7H", headers=SPANISH).get_data(
            as_text=True
        )
    )
    assert "Una escala de corazones" in page, page
    assert not re.search(r"\b[Ee]scaleras?\b", page)
    other = _text(
        client.get("/referee?rules=contract-rummy&cards=4H+5H+6H+7H", headers=SPANISH).get_data(
            as_text=True
        )
    )
    assert "Una escalera de corazones" in other and not re.search(r"\bescalas?\b", other)


def test_a_continental_table_s_plural_refusal_robs_de_contra(
    app: Flask, client: FlaskClient
) -> None:
    """House rules made from Continental with one May I a game: the second is refused in a
    flash, a plural message of Continental's own ("robar de contra", never «¿Puedo?»), in the
    plural form of the limit."""
    with app.test_request_context(), scope.household(family_id(app)):
        house_rules.save(
            "Continental de la casa",
            {"base": "continental", "may_i": {"limit": 1, "limit_per": "game"}},
        )
        slug = house_rules.saved()[0].slug
    game_id = start_game(client, slug, ["Ana", "Beto", "Carla"])
    for _ in range(2):
        client.post(f"/games/{game_id}/may-i", data={"seat": "0", "change": "1"}, headers=SPANISH)
    with client.session_transaction() as session:
        flashed = [text for _level, text in session.get("_flashes", [])]
    assert flashed == ["Ana ya robó de contra la única vez que podía en esta partida."], flashed
    board = _text(client.get(f"/games/{game_id}", headers=SPANISH).get_data(as_text=True))
    assert "Ana ya robó de contra la única vez" in board and "¿Puedo?" not in board


def test_a_game_s_own_messages_are_the_catalogue_s_with_its_placeholders() -> None:
    """Each message a game says its own way is one the code has, with the msgid's
    placeholders; a plural one gives each of the language's plural forms. Continental says
    every message about May I its own way (none is left saying «¿Puedo?» on its pages)."""
    from babel.messages.pofile import read_po

    for language in languages.LANGUAGES:
        path = languages.CATALOGUES / language / "LC_MESSAGES" / "messages.po"
        if not path.is_file():  # the code's own language
            continue
        with path.open("rb") as file:
            catalogue = read_po(file)
        by_id = {
            message.id[0] if isinstance(message.id, tuple) else message.id: message
            for message in catalogue
            if message.id
        }
        own = languages.game_words(language)
        if "continental" in own:
            # Those of a Phase 10 deck's wording ("phase" for contract) are said in a game of
            # that deck alone, whose words are Phase 10's even where house rules start from
            # Continental: no Continental page says them.
            may_i = {
                msgid
                for msgid in by_id
                if re.search(r"\bMay I\b", msgid) and not re.search(r"\bphase\b", msgid)
            }
            assert may_i - set(own["continental"].messages) == set()
        for game, said in own.items():
            for msgid, own in said.messages.items():
                message = by_id.get(msgid)
                assert message is not None, (game, msgid)
                wanted = set(re.findall(r"%\(\w+\)s", msgid))
                if isinstance(message.id, tuple):
                    assert isinstance(own, list), (game, msgid)
                    assert len(own) == catalogue.num_plurals, (game, msgid)
                    every = set(re.findall(r"%\(\w+\)s", message.id[1])) | wanted
                    for form in own:
                        assert set(re.findall(r"%\(\w+\)s", form)) <= every, (game, form)
                else:
                    assert isinstance(own, str), (game, msgid)
                    assert set(re.findall(r"%\(\w+\)s", own)) == wanted, (game, own)
