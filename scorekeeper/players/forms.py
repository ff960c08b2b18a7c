"""Forms of the players pages."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import BooleanField, SelectField, StringField
from wtforms.validators import DataRequired, InputRequired, Length, ValidationError

from ..limits import NAME_LENGTH
from ..names import tidy_field
from ..text import lazy_gettext as _l


class RenameForm(FlaskForm):
    name = StringField(
        _l("New name"),
        filters=[tidy_field],
        validators=[
            DataRequired(_l("Type a name.")),
            Length(
                max=NAME_LENGTH,
                message=_l("A name can be at most %(num)d characters.", num=NAME_LENGTH),
            ),
        ],
    )


class MergeForm(FlaskForm):
    other = SelectField(
        _l("The other entry"),
        coerce=int,
        validate_choice=True,
        validators=[InputRequired(_l("Choose the entry to merge."))],
    )
    confirm = BooleanField(
        _l("They are the same person"),
        validators=[DataRequired(_l("Tick this to confirm: a merge cannot be undone."))],
    )

    def validate_other(self, field: SelectField) -> None:
        if not field.data:
            raise ValidationError(_l("Choose the entry to merge."))
