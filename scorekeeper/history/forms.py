"""Forms of the history pages: the filter of past games, and the restore upload."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask_babel import gettext as _
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import DateField, Form, IntegerField, SelectField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import NumberRange, Optional

from ..text import lazy_gettext as _l
from ..words import rules_name
from .queries import STATUSES


def options(pairs: Iterable[tuple[Any, str]]) -> list[SelectChoice]:
    """(value, label) pairs as select options."""
    return [SelectChoice(value, label) for value, label in pairs]


class FilterForm(Form):
    """Read from the query string (a GET form: nothing to protect from forgery)."""

    player = SelectField(_l("Player"), coerce=int, default=0, validate_choice=False)
    rules = SelectField(_l("Rules"), default="", validate_choice=False)
    since = DateField(_l("From"), validators=[Optional()], format="%Y-%m-%d")
    until = DateField(_l("To"), validators=[Optional()], format="%Y-%m-%d")
    status = SelectField(_l("Status"), choices=options([("", _l("Any")), *STATUSES]), default="")

    def __init__(
        self,
        *args: Any,
        players: list[tuple[int, str]],
        rules: list[tuple[str, str]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.player.choices = options([(0, _("Anyone")), *players])
        self.rules.choices = options(
            [("", _("Any")), *((slug, rules_name(name)) for slug, name in rules)]
        )

    def validate(self, extra_validators: Any = None) -> bool:
        """Check every filter, with messages that say what to type instead."""
        super().validate(extra_validators)
        if self.player.errors or self.player.data not in _values(self.player):
            self.player.errors = [_("There is no such player: choose one from the list.")]
        if self.rules.data not in _values(self.rules):
            self.rules.errors = [_("No game was played under those rules: choose from the list.")]
        if self.status.errors:
            self.status.errors = [_("Choose a status from the list.")]
        _check_dates(self.since, self.until)
        return not self.errors


def _check_dates(since: DateField, until: DateField) -> None:
    """A range of days' messages: what to type instead, and an end before its start."""
    for field in (since, until):
        if field.errors:
            field.errors = [_("Type a date like 2025-12-24.")]
    if since.data and until.data and until.data < since.data:
        until.errors = [_("The end date is before the start date.")]


def _values(field: SelectField) -> set[Any]:
    return {choice.value for choice in field.choices or []}


class RestoreForm(FlaskForm):
    file = FileField(
        _l("Backup file (.jsonl)"),
        validators=[FileRequired(_l("Choose the backup file to read."))],
    )


class SeasonForm(Form):
    """Which season: a year, or a range of days (either end may be left open). Read from the
    query string."""

    year = IntegerField(_l("Year"), validators=[Optional(), NumberRange(1, 9998)])
    since = DateField(_l("From"), validators=[Optional()], format="%Y-%m-%d")
    until = DateField(_l("To"), validators=[Optional()], format="%Y-%m-%d")

    def validate(self, extra_validators: Any = None) -> bool:
        super().validate(extra_validators)
        if self.year.errors:
            self.year.errors = [_("Type a year like 2025.")]
        _check_dates(self.since, self.until)
        return not self.errors
