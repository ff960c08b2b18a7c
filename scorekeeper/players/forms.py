"""Forms of the players pages."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import BooleanField, SelectField, StringField
from wtforms.validators import DataRequired, InputRequired, Length, ValidationError

from ..limits import NAME_LENGTH


class RenameForm(FlaskForm):
    name = StringField(
        "New name",
        validators=[
            DataRequired("Type a name."),
            Length(max=NAME_LENGTH, message=f"A name can be at most {NAME_LENGTH} characters."),
        ],
    )


class MergeForm(FlaskForm):
    other = SelectField(
        "The other entry",
        coerce=int,
        validate_choice=True,
        validators=[InputRequired("Choose the entry to merge.")],
    )
    confirm = BooleanField(
        "They are the same person",
        validators=[DataRequired("Tick this to confirm: a merge cannot be undone.")],
    )

    def validate_other(self, field: SelectField) -> None:
        if not field.data:
            raise ValidationError("Choose the entry to merge.")
