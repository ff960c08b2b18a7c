"""``flask --app scorekeeper serve``: the app under waitress, the way to run it for real.

Waitress reads each request whole (headers and body) in its own event loop before a thread of
the app sees it, so a phone on a bad connection, or a client that trickles its headers on
purpose, holds a socket and nothing else: the app's threads only ever work on complete
requests. The connection limit is raised far above waitress's 100 so that idle or slow sockets
cannot take every place; the channel timeout drops the ones that stop sending altogether.
"""

from __future__ import annotations

import os
from typing import Any

import click
from flask import Flask
from flask.cli import with_appcontext

from .limits import RESTORE_BYTES

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_THREADS = 8
# Where the proxy in front connects from when ``TRUSTED_PROXY`` names nothing else: Caddy on
# the same machine (deploy/Caddyfile).
DEFAULT_TRUSTED_PROXY = "127.0.0.1"
# Each open socket costs a file descriptor and a few KB; 1000 fits the usual limit of 1024
# descriptors per process with room for the database and log files.
CONNECTION_LIMIT = 1000
# Seconds a connection may send nothing before it is closed; a scoreboard polls every few
# seconds, so a phone still looking never comes near it.
CHANNEL_TIMEOUT = 30


# What Caddy sets on every request it passes on; the app reads these and nothing else
# (X-Forwarded-Port and -Prefix come from the client unchanged through Caddy).
PROXY_HEADERS = frozenset({"x-forwarded-for", "x-forwarded-proto", "x-forwarded-host"})


def server_settings(app: Any, host: str, port: int, threads: int) -> dict[str, Any]:
    """The waitress settings ``serve`` uses for ``app`` as it is configured.

    Behind a declared proxy (``PROXY_COUNT`` hops), waitress takes the ``X-Forwarded-*``
    headers Caddy sets from requests that come from the proxy's address (``TRUSTED_PROXY``)
    only, and strips them from any other, so a client that reaches the port directly cannot
    name its own address. With no proxy declared, the headers are passed on untouched: the app
    then counts none of them, and treats a request that carries them as forwarded, never as
    one from this machine (``access.from_this_machine``)."""
    config = getattr(app, "config", {})
    settings: dict[str, Any] = {
        # Waitress buffers a body whole (to disk past 512 KB) before the app can refuse it:
        # nothing larger than the app would take is worth reading at all.
        "max_request_body_size": config.get("MAX_CONTENT_LENGTH") or RESTORE_BYTES,
        "host": host,
        "port": port,
        "threads": threads,
        "connection_limit": CONNECTION_LIMIT,
        "channel_timeout": CHANNEL_TIMEOUT,
        "clear_untrusted_proxy_headers": False,
    }
    proxies = int(config.get("PROXY_COUNT") or 0)
    if proxies:
        settings |= {
            "trusted_proxy": config.get("TRUSTED_PROXY") or DEFAULT_TRUSTED_PROXY,
            "trusted_proxy_count": proxies,
            "trusted_proxy_headers": set(PROXY_HEADERS),
            "clear_untrusted_proxy_headers": True,
            # A forwarded request from any other address is a proxy set up wrong: say so.
            "log_untrusted_proxy_headers": True,
        }
    return settings


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
    app: Any,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    threads: int = DEFAULT_THREADS,
    processes: int = 1,
) -> None:
    """Serve the WSGI ``app`` until the process is stopped; with ``processes`` above 1, as that
    many processes sharing one listening socket (``_run_processes``)."""
    if processes > 1:
        _run_processes(app, host, port, threads, processes)
        return
    _serve(app, server_settings(app, host, port, threads))


def _serve(app: Any, settings: dict[str, Any]) -> None:
    import logging

    from waitress.server import BaseWSGIServer, create_server

    logging.basicConfig()
    server = create_server(app, **settings)
    channel = _keep_alive_channel()
    # One listening socket, or several (a name with more than one address): each makes the
    # connections it accepts of its ``channel_class``.
    for dispatcher in [server, *getattr(server, "map", {}).values()]:
        if isinstance(dispatcher, BaseWSGIServer):
            dispatcher.channel_class = channel
    server.print_listen("Serving on http://{}:{}")
    server.run()


def _run_processes(app: Any, host: str, port: int, threads: int, processes: int) -> None:
    """Fork ``processes`` servers on one listening socket: the kernel hands each connection to
    one of them, so the interpreter lock of one process no longer holds up the others. What
    they must agree on lives in the database, as for two servers (a game's version, sessions,
    the access version); each keeps its own caches. A child dies with its parent (Linux), and
    the parent stops every child when it is stopped."""
    import contextlib
    import ctypes
    import signal
    import socket

    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    listening = socket.create_server((host, port), family=family, backlog=1024)
    settings = server_settings(app, host, port, threads)
    del settings["host"], settings["port"]
    settings["sockets"] = [listening]
    children: list[int] = []
    for _ in range(processes):
        child = os.fork()
        if child == 0:
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: go when the parent goes
            except (OSError, AttributeError):
                pass  # not Linux: the parent still stops its children when stopped
            _fresh_connections(app)
            _serve(app, settings)
            os._exit(0)
        children.append(child)

    def stop(*_: object) -> None:
        for child in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for child in children:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(child, 0)


def _fresh_connections(app: Any) -> None:
    """A forked child must not share its parent's database connections."""
    if isinstance(app, Flask):
        from .extensions import db

        with app.app_context():
            db.engine.dispose(close=False)


@click.command("serve")
@click.option("--host", default=DEFAULT_HOST, show_default=True, help="Address to listen on.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--threads",
    default=DEFAULT_THREADS,
    show_default=True,
    type=click.IntRange(1, 256),
    help="Requests worked on at once, in each process.",
)
@click.option(
    "--processes",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes sharing the port (one per core makes use of every core).",
)
@with_appcontext
def serve_command(host: str, port: int, threads: int, processes: int) -> None:
    """Serve the app for real (waitress): slow clients cost a socket, not a thread."""
    from flask import current_app

    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    if processes > 1 and not hasattr(os, "fork"):
        raise click.UsageError("--processes above 1 needs a system that can fork (Linux, macOS).")
    click.echo(
        f"Serving Scorekeeper on http://{host}:{port} with {threads} threads"
        + (f" in each of {processes} processes." if processes > 1 else "."),
        err=True,
    )
    run(app, host, port, threads, processes)


def init_app(app: Flask) -> None:
    app.cli.add_command(serve_command)
