"""The forms of signing in, first-run setup, passwords, members, invitations, links and the
household's settings."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, PasswordField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, EqualTo, Length, ValidationError

from .. import local_time
from ..languages import DEFAULT as DEFAULT_LANGUAGE
from ..languages import LANGUAGES
from ..models import USERNAME_LENGTH, LinkKind, Role
from ..names import tidy_field
from ..text import lazy_gettext as _l
from ..text import lazy_ngettext
from .passwords import MAX_LENGTH, MIN_LENGTH

ROLE_CHOICES = [
    SelectChoice(Role.OWNER.value, _l("Owner: everything, members and backups too")),
    SelectChoice(Role.SCORER.value, _l("Scorer: games, rounds, house rules, table links")),
    SelectChoice(Role.VIEWER.value, _l("Viewer: looks, changes nothing")),
]
_password_length = Length(
    min=MIN_LENGTH,
    max=MAX_LENGTH,
    message=lazy_ngettext(
        "A password has at least %(num)d character (and at most %(max)d).",
        "A password has at least %(num)d characters (and at most %(max)d).",
        MIN_LENGTH,
        max=MAX_LENGTH,
    ),
)
# Of a name as it will be stored: each name field tidies its text first (``tidy_field``).
_name_length = Length(
    max=USERNAME_LENGTH,
    message=lazy_ngettext(
        "At most %(num)d character.", "At most %(num)d characters.", USERNAME_LENGTH
    ),
)


class LoginForm(FlaskForm):
    username = StringField(
        _l("Username"), [DataRequired(_l("Type your username.")), Length(max=240)]
    )
    password = PasswordField(
        _l("Password"), [DataRequired(_l("Type your password.")), Length(max=MAX_LENGTH)]
    )


class NewPasswordFields(FlaskForm):
    password = PasswordField(
        _l("Password"), [DataRequired(_l("Choose a password.")), _password_length]
    )
    confirm = PasswordField(
        _l("The same password again"),
        [DataRequired(_l("Type the password again.")), EqualTo("password", _l("The two differ."))],
    )


class SetupForm(NewPasswordFields):
    household = StringField(
        _l("Your household's name"),
        [DataRequired(_l("Name your household.")), _name_length],
        filters=[tidy_field],
    )
    username = StringField(
        _l("Your username"),
        [DataRequired(_l("Choose a username.")), _name_length],
        filters=[tidy_field],
    )
    setup_code = StringField(_l("Setup code"), [Length(max=64)])


class PasswordForm(NewPasswordFields):
    current = PasswordField(
        _l("Your password now"),
        [DataRequired(_l("Type your password now.")), Length(max=MAX_LENGTH)],
    )


class MemberForm(FlaskForm):
    username = StringField(
        _l("Username"), [DataRequired(_l("Choose a username.")), _name_length], filters=[tidy_field]
    )
    role = SelectField(_l("Role"), choices=ROLE_CHOICES, default=Role.SCORER.value)
    password = PasswordField(
        _l("First password"), [DataRequired(_l("Choose a password.")), _password_length]
    )


class InviteForm(FlaskForm):
    # Its own id: the members page shows this form beside the one that adds a member.
    role = SelectField(
        _l("Role"), choices=ROLE_CHOICES, default=Role.SCORER.value, id="invite-role"
    )


class RoleForm(FlaskForm):
    role = SelectField(_l("Role"), choices=ROLE_CHOICES)


class AcceptInviteForm(NewPasswordFields):
    username = StringField(
        _l("Choose a username"),
        [DataRequired(_l("Choose a username.")), _name_length],
        filters=[tidy_field],
    )


class LinkForm(FlaskForm):
    kind = SelectField(
        _l("Kind"),
        choices=[
            SelectChoice(LinkKind.TABLE.value, _l("Table link")),
            SelectChoice(LinkKind.WATCH.value, _l("Watch link")),
        ],
    )


class HouseholdForm(NewPasswordFields):
    name = StringField(
        _l("Household name"),
        [DataRequired(_l("Name the household.")), _name_length],
        filters=[tidy_field],
    )
    username = StringField(
        _l("Its owner's username"),
        [DataRequired(_l("Choose a username.")), _name_length],
        filters=[tidy_field],
    )


class SettingsForm(FlaskForm):
    """The household's settings: the time zone its times are shown in ("" is the server's)."""

    time_zone = SelectField(_l("Show every time in"), default="", validate_choice=False)

    def __init__(
        self, *args: Any, server_zone: str, kept: str | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.time_zone.choices = [
            SelectChoice("", _("The server's (%(zone)s)", zone=server_zone)),
            *(SelectChoice(zone, place) for zone, place in local_time.zone_choices(kept)),
        ]

    def validate_time_zone(self, field: SelectField) -> None:
        chosen = field.data or ""
        if chosen and not local_time.is_zone(chosen):
            shown = chosen if len(chosen) <= 60 else chosen[:60] + "…"
            raise ValidationError(
                _(
                    "“%(zone)s” is not a time zone: choose one from the list, a place like "
                    "America/New_York or Europe/Berlin.",
                    zone=shown,
                )
            )


class RatingsForm(FlaskForm):
    """The household's settings: whether its pages show the skill ratings (on by default)."""

    # Which of the settings page's forms was sent.
    setting = HiddenField(default="ratings")
    ratings_shown = BooleanField(
        _l("Show ratings: each player's, how a game moved them, the leaders")
    )


# --- languages (``scorekeeper.languages``) -----------------------------------------------------


class LanguageForm(FlaskForm):
    """A member's own language, on their account page: "" is their browser's, on each phone."""

    language = SelectField(
        _l("Show my pages in"),
        choices=[
            SelectChoice("", _l("My browser's language")),
            # Each language named in its own words, and marked so for a screen reader.
            *(SelectChoice(code, name, {"lang": code}) for code, name in LANGUAGES.items()),
        ],
        default="",
    )


class HouseholdLanguageForm(FlaskForm):
    """The household's language, in its settings (its owner's): English until one is chosen."""

    # Which of the settings page's forms was sent.
    setting = HiddenField(default="language")
    language = SelectField(
        _l("The household's language"),
        choices=[SelectChoice(code, name, {"lang": code}) for code, name in LANGUAGES.items()],
        default=DEFAULT_LANGUAGE,
    )
