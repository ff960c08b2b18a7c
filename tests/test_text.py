"""Translations made at import are text wherever they are written (``scorekeeper.text``)."""

from __future__ import annotations

from flask import Flask, render_template_string
from flask_babel import Babel
from markupsafe import escape
from wtforms import Form, SelectField, StringField
from wtforms.fields.choices import SelectChoice

from scorekeeper.text import lazy_gettext, lazy_ngettext


class _Hostile(Form):
    name = StringField(lazy_gettext('Name" hx-get="/evil'))
    kind = SelectField(choices=[SelectChoice("a", lazy_gettext("<b>A</b>"))])


def test_a_lazy_message_is_written_as_text() -> None:
    app = Flask(__name__)
    Babel(app)
    with app.test_request_context():
        form = _Hostile()
        page = render_template_string(
            "{{ form.name.label }}{{ form.kind() }}<p title='{{ word }}'>{{ word }}</p>{{ many }}",
            form=form,
            word=lazy_gettext("it's <i>"),
            many=lazy_ngettext("%(num)s <game>", "%(num)s <games>", 2),
        )
    assert 'hx-get="/evil' not in page and "<b>" not in page and "<i>" not in page
    assert "Name&#34; hx-get=&#34;/evil" in page and "&lt;b&gt;A&lt;/b&gt;" in page
    assert "title='it&#39;s &lt;i&gt;'" in page and "2 &lt;games&gt;" in page
    assert str(escape(lazy_gettext("a & b"))) == "a &amp; b"
