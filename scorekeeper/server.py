"""``flask --app scorekeeper serve``: the app under waitress, the way to run it for real.

Waitress reads each request whole (headers and body) in its own event loop before a thread of
the app sees it, so a phone on a bad connection, or a client that trickles its headers on
purpose, holds a socket and nothing else: the app's threads only ever work on complete
requests. The connection limit is raised far above waitress's 100 so that idle or slow sockets
cannot take every place; the channel timeout drops the ones that stop sending altogether.
"""

from __future__ import annotations

from typing import Any

import click
from flask import Flask
from flask.cli import with_appcontext

from .limits import RESTORE_BYTES

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_THREADS = 8
# Each open socket costs a file descriptor and a few KB; 1000 fits the usual limit of 1024
# descriptors per process with room for the database and log files.
CONNECTION_LIMIT = 1000
# Seconds a connection may send nothing before it is closed; a scoreboard polls every few
# seconds, so a phone still looking never comes near it.
CHANNEL_TIMEOUT = 30


def server_settings(
    host: str, port: int, threads: int, largest_request: int | None = None
) -> dict[str, Any]:
    """The waitress settings ``serve`` uses, shared with the benchmarks so they measure the
    server that ships."""
    return {
        # Waitress buffers a body whole (to disk past 512 KB) before the app can refuse it:
        # nothing larger than the app would take is worth reading at all.
        "max_request_body_size": largest_request or RESTORE_BYTES,
        "host": host,
        "port": port,
        "threads": threads,
        "connection_limit": CONNECTION_LIMIT,
        "channel_timeout": CHANNEL_TIMEOUT,
    }


def _keep_alive_channel() -> type:
    """Waitress's connection, except that an answer without a body (204, 304) leaves it open.

    Waitress 3.0 closes an HTTP/1.1 connection after every answer that carries no
    Content-Length, and it never sends one with a 204 or a 304 (RFC 9112 forbids it): so an
    unchanged scoreboard's poll (204) and a conditional GET (304), the answers a table's phones
    get most, each cost a new connection, to the phone or to the proxy in front. Such an answer
    ends with its headers (RFC 9112, 6.3), so nothing forces the close; a client asking for
    ``Connection: close``, and HTTP/1.0, are still answered as waitress does."""
    from waitress.channel import HTTPChannel
    from waitress.task import WSGITask

    class KeepAliveTask(WSGITask):  # type: ignore[misc]
        bodiless_keep_alive = False

        def build_response_header(self) -> bytes:
            asked_to_close = self.request.headers.get("CONNECTION", "").lower() == "close"
            self.bodiless_keep_alive = (
                self.version == "1.1" and not self.has_body and not asked_to_close
            )
            try:
                return super().build_response_header()  # type: ignore[no-any-return]
            finally:
                self.bodiless_keep_alive = False

        def set_close_on_finish(self) -> None:
            if not self.bodiless_keep_alive:
                super().set_close_on_finish()

    class KeepAliveChannel(HTTPChannel):  # type: ignore[misc]
        task_class = KeepAliveTask

    return KeepAliveChannel


def run(
    app: Any, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, threads: int = DEFAULT_THREADS
) -> None:
    """Serve the WSGI ``app`` until the process is stopped."""
    import logging

    from waitress.server import BaseWSGIServer, create_server

    config = getattr(app, "config", {})
    logging.basicConfig()
    server = create_server(
        app, **server_settings(host, port, threads, config.get("MAX_CONTENT_LENGTH"))
    )
    channel = _keep_alive_channel()
    # One listening socket, or several (a name with more than one address): each makes the
    # connections it accepts of its ``channel_class``.
    for dispatcher in [server, *getattr(server, "map", {}).values()]:
        if isinstance(dispatcher, BaseWSGIServer):
            dispatcher.channel_class = channel
    server.print_listen("Serving on http://{}:{}")
    server.run()


@click.command("serve")
@click.option("--host", default=DEFAULT_HOST, show_default=True, help="Address to listen on.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--threads",
    default=DEFAULT_THREADS,
    show_default=True,
    type=click.IntRange(1, 256),
    help="Requests worked on at once.",
)
@with_appcontext
def serve_command(host: str, port: int, threads: int) -> None:
    """Serve the app for real (waitress): slow clients cost a socket, not a thread."""
    from flask import current_app

    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    click.echo(f"Serving Scorekeeper on http://{host}:{port} with {threads} threads.", err=True)
    run(app, host, port, threads)


def init_app(app: Flask) -> None:
    app.cli.add_command(serve_command)
