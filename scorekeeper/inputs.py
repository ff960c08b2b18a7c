"""Request input the database can always be asked about: no NUL characters, ids in range.

PostgreSQL refuses text holding NUL (``\\x00``) and integers beyond its column types, and
SQLite refuses integers beyond 64 bits, each with an error rather than "no such row". Nothing
a person types needs a NUL, so it is dropped from every form field and query argument (names
and values) as the request is read; an address with a NUL or an id past the largest one a
column can hold matches no page (404).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import Flask, Request, current_app, request
from werkzeug.datastructures import ImmutableMultiDict, iter_multi_items
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.routing import IntegerConverter, UnicodeConverter

from .limits import FORM_BYTES, REQUEST_BYTES

NUL = "\x00"
LARGEST_ID = 2**31 - 1  # the ids and numbers in addresses are 32-bit integer columns


def without_nul(value: Any) -> Any:
    return value.replace(NUL, "") if isinstance(value, str) else value


class CleanParameters(ImmutableMultiDict[str, Any]):
    """Form fields and query arguments with every NUL dropped (uploaded files untouched)."""

    def __init__(self, mapping: Any = None) -> None:
        items: Iterable[tuple[str, Any]] | None = None
        if mapping is not None:
            # A multipart part whose name cannot be read (a line break in it) comes back named
            # None: no field of ours, and it would break whatever reads the names as text.
            items = [
                (without_nul(k), without_nul(v))
                for k, v in iter_multi_items(mapping)
                if isinstance(k, str)
            ]
        super().__init__(items)


class CleanRequest(Request):
    parameter_storage_class = CleanParameters
    # A limit set on this one request (``request.max_content_length = ...``), kept here rather
    # than in Flask's own attribute for it, which Flask 3.0 does not have.
    chosen_max_content_length: int | None = None

    def _load_form_data(self) -> None:
        super()._load_form_data()
        # Files reach only the pages that take one: elsewhere a file sent in a text field's
        # name would reach the form as a file object where text is read.
        endpoint = self.url_rule.endpoint if self.url_rule is not None else None
        if endpoint not in REQUEST_BYTES and self.__dict__.get("files"):
            self.__dict__["files"] = self.parameter_storage_class()

    @property
    def max_content_length(self) -> int | None:
        """The most a request may carry (413 beyond it, before the body is read): what its
        endpoint takes (``limits.REQUEST_BYTES``, or a form's ``FORM_BYTES``), never more than
        ``MAX_CONTENT_LENGTH``."""
        if self.chosen_max_content_length is not None:
            return self.chosen_max_content_length
        largest: int | None = current_app.config["MAX_CONTENT_LENGTH"] if current_app else None
        return body_limit(self.url_rule.endpoint if self.url_rule is not None else None, largest)

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        self.chosen_max_content_length = value


def body_limit(endpoint: str | None, largest: int | None) -> int | None:
    """The most a request to ``endpoint`` may carry (None: no endpoint, an address that matches
    no page), ``largest`` being the ``MAX_CONTENT_LENGTH`` setting: the request's own
    ``max_content_length``, and what ``flask serve`` reads of a body before it refuses it."""
    taken = REQUEST_BYTES.get(endpoint or "", FORM_BYTES)
    if taken is None:
        return largest
    return taken if largest is None else min(taken, largest)


def refuse_a_body_too_large() -> None:
    """413 for a request that says it carries more than its page takes, before anything reads
    a byte of it: the form would refuse it when read, but only where the page reads its form.
    ``flask serve`` stops reading such a body at its headers (a chunked one where it passes the
    limit) and passes the request on, its body empty and its length as declared or as read."""
    taken = request.max_content_length
    if taken is not None and (request.content_length or 0) > taken:
        raise RequestEntityTooLarge()


class IdConverter(IntegerConverter):
    """``<int:...>`` within the range of the integer columns, written as the app writes it:
    ``/review/02025`` is no address (404), not the year 2025 under a second one."""

    regex = r"(?:0|[1-9]\d*)"

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", LARGEST_ID)
        super().__init__(map, *args, **kwargs)


class TextConverter(UnicodeConverter):
    """``<slug>``: one path segment without a NUL."""

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(map, *args, **kwargs)
        self.regex = self.regex.replace("[^/]", "[^/\\x00]")


def init_app(app: Flask) -> None:
    """Call before the blueprints are registered (their rules take these converters)."""
    app.request_class = CleanRequest
    app.before_request(refuse_a_body_too_large)  # the first: before the CSRF check reads the form
    app.url_map.converters["int"] = IdConverter
    app.url_map.converters["default"] = TextConverter
    app.url_map.converters["string"] = TextConverter


def whole_number(text: str | None, *, below: int | None = None) -> int | None:
    """``text`` as a whole number written with the digits 0-9, at most LARGEST_ID (and less
    than ``below`` when given); None for anything else. ``str.isdigit`` is no such test: it
    takes "²" and "٣", and ``int`` refuses the first and any number of 4,300 digits or more."""
    text = (text if isinstance(text, str) else "").strip()
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(LARGEST_ID)):
        return None
    number = int(text)
    if number > LARGEST_ID or (below is not None and number >= below):
        return None
    return number
