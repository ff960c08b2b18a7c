"""What ``flask serve`` writes to standard error: one line per request, and the logging set-up
that carries it.

A request's line holds the time, the process, the method, the path, the status and the
milliseconds until the answer was made::

    2026-03-01 20:15:02,417 [4121] INFO scorekeeper.requests: GET /t/*** 200 3.1 ms

A link's token is its holder's key to a game or a household, so the paths of links
(``/t/<token>``, ``/w/<token>``, ``/w/<token>/card.png``, ``/y/<token>`` and its card,
``/invite/<token>``) are written with
the token masked; a query string's values (a setup code, a ``next`` address) are masked too,
and only the names of its arguments are kept. ``SCOREKEEPER_LOG_LEVEL`` (``LOG_LEVEL`` in the
configuration) sets the level of every log the server writes: INFO, the default, includes the
request lines; WARNING leaves them out (and costs nothing per request). ``flask run``'s
development server writes its own lines (werkzeug's), masked the same way.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sized
from typing import Any
from urllib.parse import quote, unquote

from flask import Flask, request

logger = logging.getLogger("scorekeeper.requests")

DEFAULT_LEVEL = "INFO"
FORMAT = "%(asctime)s [%(process)d] %(levelname)s %(name)s: %(message)s"
MASK = "***"
# Werkzeug merges repeated slashes (redirecting ``//t/<token>`` to ``/t/<token>``): so does this.
# Anywhere in the path: "/./t/<token>" still reaches the link page.
LINK_PATH = re.compile(r"/+(t|w|y|invite)/+[^/]+")
# A path is written percent-encoded, so no line break or control character reaches the log,
# and cut at this length.
LONGEST_PATH = 300
UNESCAPED = "/:@!$&'()*+,;=-._~"

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def shown_path(path: str, query: str = "") -> str:
    """``path`` as the log writes it: a link's token masked, the query's values masked, the
    whole percent-encoded (a WSGI path is bytes read as Latin-1) and at most LONGEST_PATH long.
    """
    masked = LINK_PATH.sub(lambda link: f"/{link.group(1)}/{MASK}", path)
    shown = quote(masked.encode("latin-1", "replace"), safe=UNESCAPED)
    if query:
        arguments = [
            f"{quote(name, safe='%')}={MASK}" if sep else MASK
            for name, sep, _ in (item.partition("=") for item in query.split("&") if item)
        ]
        shown += "?" + "&".join(arguments)
    return shown if len(shown) <= LONGEST_PATH else shown[:LONGEST_PATH] + "..."


# A request line as werkzeug's development server (``flask run``) writes it, in its request
# lines (coloured: after an ANSI escape) and in its complaints about a bad request.
REQUEST_LINE = re.compile(r"(?<![A-Z])(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS|TRACE|CONNECT) (\S+)")


def shown_target(target: str) -> str:
    """A request's target (path and query, as werkzeug logs it: percent-decoded where it can
    be) as ``shown_path`` writes it."""
    path, _, query = target.partition("?")
    return shown_path(unquote(path).encode("utf-8", "replace").decode("latin-1"), query)


class MaskedDevelopmentLog(logging.Filter):
    """The development server's lines with link tokens and query values masked, as
    ``flask serve`` writes them (werkzeug logs each request to its logger, ``werkzeug``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        record.msg = REQUEST_LINE.sub(
            lambda line: f"{line.group(1)} {shown_target(line.group(2))}", message
        )
        record.args = ()
        return True


def mask_development_server() -> None:
    """Mask what ``flask run`` logs (once a process)."""
    development = logging.getLogger("werkzeug")
    if not any(isinstance(each, MaskedDevelopmentLog) for each in development.filters):
        development.addFilter(MaskedDevelopmentLog())


def level(config: Any = None) -> int:
    """The configured level: ``LOG_LEVEL`` in the app's configuration (from
    ``SCOREKEEPER_LOG_LEVEL`` or ``config.py``), else that variable, else INFO. A name or a
    number; ValueError for anything else."""
    chosen = (config or {}).get("LOG_LEVEL") or os.environ.get("SCOREKEEPER_LOG_LEVEL")
    chosen = chosen or DEFAULT_LEVEL
    if isinstance(chosen, int) and not isinstance(chosen, bool):
        return chosen
    name = str(chosen).strip().upper()
    number = logging.getLevelName(name)
    if not isinstance(number, int):
        raise ValueError(
            f"SCOREKEEPER_LOG_LEVEL={chosen!r} is not a level: "
            "DEBUG, INFO, WARNING, ERROR or CRITICAL"
        )
    return number


_HANDLER_NAME = "scorekeeper"


def configure(chosen: int) -> None:
    """Every log to standard error, one line each, at ``chosen`` and above (once a process)."""
    root = logging.getLogger()
    if not any(handler.get_name() == _HANDLER_NAME for handler in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.set_name(_HANDLER_NAME)
        handler.setFormatter(logging.Formatter(FORMAT))
        root.addHandler(handler)
    root.setLevel(chosen)


def logged(app: WSGIApp) -> WSGIApp:
    """``app`` writing a line for each request it answers (``app`` itself when the level
    leaves request lines out)."""
    if not logger.isEnabledFor(logging.INFO):
        return app

    def logging_app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        started = time.perf_counter()
        status = ["500"]  # what the server answers for an app that fails before starting one

        def recording_start(line: str, headers: Any, exc_info: Any = None) -> Any:
            status[0] = line.partition(" ")[0]
            return start_response(line, headers, exc_info)

        def write() -> None:
            logger.info(
                "%s %s %s %.1f ms",
                quote(environ.get("REQUEST_METHOD", ""), safe=""),
                shown_path(environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", "")),
                status[0],
                (time.perf_counter() - started) * 1000,
            )

        try:
            body = app(environ, recording_start)
        except BaseException:
            write()
            raise
        file_wrapper = environ.get("wsgi.file_wrapper")
        if isinstance(file_wrapper, type) and isinstance(body, file_wrapper):
            # The server sends a file it wrapped itself, and only one it recognises as its own.
            write()
            return body
        return (SizedAnswer if hasattr(body, "__len__") else Answer)(body, write)

    return logging_app


class Answer:
    """An answer's body, unchanged, that writes the request's line once the server closes it
    (the whole body made)."""

    def __init__(self, body: Iterable[bytes], done: Callable[[], None]) -> None:
        self.body = body
        self.done = done

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.body)

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            self.done()


class SizedAnswer(Answer):
    """A body of known length stays one: waitress sets Content-Length from a single chunk."""

    def __len__(self) -> int:
        assert isinstance(self.body, Sized)  # made only for a body with a length
        return len(self.body)


class MaskedFlask(Flask):
    """Flask, whose line for an unhandled error names the address as the request log does:
    a link's token and the query's values masked (Flask's own line writes them out whole)."""

    def log_exception(self, exc_info: Any) -> None:
        query = request.query_string.decode("latin-1")
        self.logger.error(
            "Exception on %s [%s]",
            shown_path(request.path, query),
            request.method,
            exc_info=exc_info,
        )
