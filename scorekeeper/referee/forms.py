"""The question put to the referee, read from the query string: a ruling is a GET link."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    Field,
    HiddenField,
    IntegerField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import NumberRange, Optional

from ..limits import REFEREE_MAX_CARDS, REFEREE_MAX_MELDS
from ..rules import Card, CardError, RuleSet, parse_cards
from ..text import lazy_gettext as _l
from ..words import words

# What the referee can rule on, and the fields each question uses.
MODES: dict[str, Any] = {
    "meld": _l("One meld"),
    "contract": _l("Contract"),
    "layoff": _l("Lay-off"),
    "liberate": _l("Wild swap"),
    "hand": _l("My hand"),
}
# The same on a deck whose games call a contract a phase and a lay-off a hit (Phase 10's).
PHASE_MODES: dict[str, Any] = MODES | {"contract": _l("Phase"), "layoff": _l("Hit")}
CARD_FIELDS: dict[str, tuple[str, ...]] = {
    "meld": ("cards",),
    "contract": ("melds",),
    "layoff": ("meld", "cards"),
    "liberate": ("meld", "card"),
    "hand": ("cards",),
}
MAX_CARDS = REFEREE_MAX_CARDS
MAX_MELDS = REFEREE_MAX_MELDS
# Melds are written one per line, or separated by a slash (the link form: "5S 5H 5D / 7C 7D JK").
MELD_SEPARATOR = re.compile(r"\s*[\n\r/|;]+\s*")


class MeldsField(TextAreaField):
    """Several melds: one per line or separated by ``/``; the parameter may also repeat."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if valuelist:
            melds = (part.strip() for value in valuelist for part in MELD_SEPARATOR.split(value))
            self.data = "\n".join(meld for meld in melds if meld)


class RefereeForm(FlaskForm):
    """What the table asks: the rules, the question (``mode``) and the cards on the table."""

    class Meta:
        # A question changes nothing, and it has to survive being sent round the family chat.
        csrf = False

    mode = HiddenField(default="meld")
    rules = SelectField(_l("Rules"), validate_choice=False)
    players = IntegerField(
        _l("Players at the table"), validators=[Optional(), NumberRange(2, 30)], default=None
    )
    game = HiddenField()
    player = HiddenField()
    cards = StringField(_l("Cards"))
    melds = MeldsField(_l("Melds, one per line"))
    meld = StringField(_l("The meld on the table"))
    card = StringField(_l("The real card"))
    own = BooleanField(_l("It is the player's own meld"))
    contract_turn = BooleanField(_l("Is this the turn you laid your contract down?"))
    contract = IntegerField(
        _l("Contract"), validators=[Optional(), NumberRange(1, 99)], default=None
    )

    def __init__(self, formdata: Mapping[str, Any], **kwargs: Any) -> None:
        super().__init__(formdata=formdata, **kwargs)
        self.parsed: dict[str, list[Card]] = {}
        self.parsed_melds: list[list[Card]] = []
        if self.mode.data not in MODES:
            self.mode.data = "meld"

    @property
    def card_fields(self) -> tuple[str, ...]:
        """The fields holding cards in this question."""
        return CARD_FIELDS[self.mode.data]

    @property
    def complete(self) -> bool:
        """Whether every field the question needs has cards in it."""
        return all(
            (self.parsed_melds if name == "melds" else self.parsed.get(name))
            for name in self.card_fields
        )

    def read_cards(self, rules: RuleSet) -> bool:
        """Read the cards of the fields this question uses in the notation of the deck of
        ``rules`` (the table's: ``7R 12g W S`` on a Phase 10 deck), each problem at its field
        (the card that is not a card is quoted). Called once the numbers are checked
        (``validate``) and the table, and so its rules, is known."""
        valid = True
        for name in self.card_fields:
            field: Field = self[name]
            if name == "melds":
                valid = self._read_melds(field, rules) and valid
            else:
                valid = self._read_cards(field, rules) and valid
        return valid

    def _read_cards(self, field: Field, rules: RuleSet) -> bool:
        try:
            cards = parse_cards(field.data or "", rules)
        except CardError as error:
            return refuse(field, words(error))
        if len(cards) > MAX_CARDS:
            return refuse(
                field,
                ngettext(
                    "%(num)d card: the referee takes at most %(most)d.",
                    "%(num)d cards: the referee takes at most %(most)d.",
                    len(cards),
                    most=MAX_CARDS,
                ),
            )
        if field.name == "card" and len(cards) > 1:
            return refuse(field, _("Enter the one real card that takes the wild card's place."))
        self.parsed[field.name] = cards
        return True

    def _read_melds(self, field: Field, rules: RuleSet) -> bool:
        texts = [text for text in MELD_SEPARATOR.split(field.data or "") if text.strip()]
        if len(texts) > MAX_MELDS:
            return refuse(
                field,
                ngettext(
                    "That is %(num)d meld; a lay-down has at most %(most)d.",
                    "That is %(num)d melds; a lay-down has at most %(most)d.",
                    len(texts),
                    most=MAX_MELDS,
                ),
            )
        melds: list[list[Card]] = []
        ok = True
        for number, text in enumerate(texts, start=1):
            try:
                melds.append(parse_cards(text, rules))
            except CardError as error:
                ok = refuse(
                    field, _("Meld %(number)d: %(error)s", number=number, error=words(error))
                )
        if ok and sum(len(meld) for meld in melds) > MAX_CARDS:
            return refuse(
                field,
                ngettext(
                    "That is more than %(num)d card in all.",
                    "That is more than %(num)d cards in all.",
                    MAX_CARDS,
                ),
            )
        if ok:
            self.parsed_melds = melds
        return ok


def refuse(field: Field, message: str) -> bool:
    """Put ``message`` at ``field``; returns False so that callers can ``return refuse(...)``."""
    field.errors = [*field.errors, message]
    return False
