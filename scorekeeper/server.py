"""``flask --app scorekeeper serve``: the app under waitress, the way to run it for real.

Waitress reads each request whole (headers and body) in its own event loop before a thread of
the app sees it, so a phone on a bad connection, or a client that trickles its headers on
purpose, holds a socket and nothing else: the app's threads only ever work on complete
requests. The connection limit is raised far above waitress's 100 so that idle or slow sockets
cannot take every place; the channel timeout drops the ones that stop sending altogether.
"""

from __future__ import annotations

import functools
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, NoReturn, ParamSpec, TypeVar

import click
from flask import Flask
from flask.cli import with_appcontext
from werkzeug.exceptions import HTTPException

from . import request_log
from .extensions import db
from .inputs import body_limit
from .limits import REQUEST_BYTES, RESTORE_BYTES
from .settings import StartRefused

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

P = ParamSpec("P")
T = TypeVar("T")


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
    one from this machine (``hosts.from_this_machine``)."""
    config = getattr(app, "config", {})
    settings: dict[str, Any] = {
        # Nothing larger than the largest page takes is worth reading at all (a page's own
        # limit is held as the headers are read: ``_channel``). Waitress refuses a body of
        # exactly its limit: one byte more, so that the largest the app takes gets through.
        "max_request_body_size": largest_body(app) + 1,
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


def largest_body(app: Any) -> int:
    """The largest body any page of ``app`` takes (a restore's, unless configured smaller):
    waitress reads nothing larger, and refuses a chunked body as it passes this."""
    largest = getattr(app, "config", {}).get("MAX_CONTENT_LENGTH") or RESTORE_BYTES
    taken = [body_limit(endpoint, largest) for endpoint in [None, *REQUEST_BYTES]]
    return max(limit or largest for limit in taken)


def body_limits(app: Any) -> Callable[[str, str], int | None]:
    """What a request (its method and its path as waitress read it) may carry to the page it
    goes to, as the app itself will take it (``inputs.body_limit``), from its routes alone:
    what waitress asks of each request's headers, before its body is read."""
    if not isinstance(app, Flask):
        return lambda _method, _path: None
    routes = app.url_map.bind("")
    largest = app.config.get("MAX_CONTENT_LENGTH")

    def limit(method: str, path: str) -> int | None:
        # The path as the app will see it: leading slashes merged as waitress merges them,
        # the bytes of a WSGI path read as UTF-8 as Werkzeug reads them.
        path = ("/" + path.lstrip("/")).encode("latin-1").decode("utf-8", "replace")
        try:
            endpoint: str | None = str(routes.match(path, method)[0])
        except HTTPException:  # no page there, or a redirect to one: a form's limit
            endpoint = None
        return body_limit(endpoint, largest)

    return limit


def _channel(limit_of: Callable[[str, str], int | None]) -> type:
    """Waitress's connection, with two changes.

    A body larger than its page takes is refused at its headers, not read: waitress reads a
    body whole (to disk past 512 KB) before the app sees the request, so the app's own 413
    came only once the last byte was in (30 MB sent to ``/login`` for a 1 MB form). Here a
    declared length over the page's limit (``body_limits``), or a chunked body once it passes
    it, ends the reading: the request goes on to the app with its body empty and that length,
    so the app answers it with its own 413 page (``inputs.refuse_a_body_too_large``) at once,
    without a ``100 Continue``; the connection is then closed, so the client stops sending.

    And an answer without a body (204, 304) leaves the connection open. Waitress 3.0 closes an
    HTTP/1.1 connection after every answer that carries no Content-Length, and it never sends
    one with a 204 or a 304 (RFC 9112 forbids it): so an unchanged scoreboard's poll (204) and
    a conditional GET (304), the answers a table's phones get most, each cost a new
    connection, to the phone or to the proxy in front. Such an answer ends with its headers
    (RFC 9112, 6.3), so nothing forces the close; a client asking for ``Connection: close``,
    and HTTP/1.0, are still answered as waitress does."""
    from waitress.channel import HTTPChannel
    from waitress.parser import HTTPRequestParser
    from waitress.task import WSGITask
    from waitress.utilities import RequestEntityTooLarge

    class SizedRequest(HTTPRequestParser):
        # Waitress's own, named for mypy (it reads waitress as untyped).
        error: Any = None
        body_rcv: Any = None
        # The page's limit, looked up once the headers are in; whether the body was refused.
        limit_known = False
        limit: int | None = None
        body_refused = False

        def received(self, data: bytes) -> int:
            consumed: int = super().received(data)
            if not self.headers_finished or self.empty or self.body_refused:
                return consumed
            if self.error is not None and not isinstance(self.error, RequestEntityTooLarge):
                return consumed  # a request waitress answers itself (400, 501)
            if not self.limit_known:  # once, at the headers' end
                self.limit, self.limit_known = limit_of(self.command, self.path), True
            limit = self.limit
            if limit is None:
                return consumed
            length = self.content_length  # as declared, or for a chunked body as read so far
            if self.chunked:
                length = len(self.body_rcv) if self.body_rcv is not None else 0
            if isinstance(self.error, RequestEntityTooLarge):
                length = max(length, limit + 1)  # past waitress's own limit, counted raw
            if length <= limit:
                return consumed
            self.body_refused = True
            self.error = None
            self.completed = True
            self.expect_continue = False  # the answer comes at once: no "go on and send it"
            self.headers["CONTENT_LENGTH"] = str(length)
            if self.body_rcv is not None:
                self.body_rcv.getbuf().close()
                self.body_rcv = None
            # The rest of what came is the refused body's, never the start of another request.
            return len(data)

    class Task(WSGITask):
        bodiless_keep_alive = False

        def build_response_header(self) -> bytes:
            if getattr(self.request, "body_refused", False):
                self.set_close_on_finish()  # the body is still coming: close, so it stops
            asked_to_close = self.request.headers.get("CONNECTION", "").lower() == "close"
            self.bodiless_keep_alive = (
                self.version == "1.1" and not self.has_body and not asked_to_close
            )
            try:
                return super().build_response_header()
            finally:
                self.bodiless_keep_alive = False

        def set_close_on_finish(self) -> None:
            if not self.bodiless_keep_alive:
                super().set_close_on_finish()

    class Channel(HTTPChannel):
        task_class = Task
        parser_class = SizedRequest

    return Channel


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
    from waitress.server import BaseWSGIServer, create_server

    _configure_logging(app)
    server = create_server(request_log.logged(app), **settings)
    channel = _channel(body_limits(app))
    # One listening socket, or several (a name with more than one address): each makes the
    # connections it accepts of its ``channel_class``.
    for dispatcher in [server, *getattr(server, "map", {}).values()]:
        if isinstance(dispatcher, BaseWSGIServer):
            dispatcher.channel_class = channel
    server.print_listen("Serving on http://{}:{}")
    _run_until_stopped(server)
    _close_database(app)


# How long a stop (SIGTERM, SIGINT) waits for the requests, restores and backups in flight
# before it closes what is left: well inside the 10 s a container manager allows, and the 5 s
# an image promises.
STOP_SECONDS = 4.0
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def _run_until_stopped(server: Any) -> None:
    """Waitress's loop, until SIGTERM or SIGINT; then a clean stop (``_stop``).

    Waitress's own ``run`` answers SIGTERM not at all (the process is killed, or, as a
    container's first process, which the kernel gives no default action, it ignores it) and
    SIGINT by dropping every connection. Here the signal sets a flag, which the loop reads
    between two polls of its sockets, and wakes the loop through waitress's trigger (a pipe
    among those sockets): Python retries a poll a signal interrupts, so without it the stop
    waited for the next socket event or the poll's timeout, and a request answered meanwhile
    was no longer seen in flight."""
    from waitress import wasyncore
    from waitress.server import BaseWSGIServer

    # One listening socket (a BaseWSGIServer, its own map), or several in a shared map.
    sockets: dict[int, Any] = getattr(server, "map", None) or server._map
    listener = next(d for d in sockets.values() if isinstance(d, BaseWSGIServer))
    stopping = threading.Event()

    def ask_to_stop(*_: object) -> None:
        if not stopping.is_set():  # once: the trigger is closed at the stop's end
            stopping.set()
            listener.pull_trigger()

    previous = {number: signal.signal(number, ask_to_stop) for number in STOP_SIGNALS}
    use_poll = server.adj.asyncore_use_poll
    # The poll's timeout only paces waitress's own upkeep (closing idle connections): a stop
    # does not wait for it.
    timeout = server.adj.asyncore_loop_timeout
    try:
        while sockets and not stopping.is_set():
            wasyncore.loop(timeout=timeout, map=sockets, use_poll=use_poll, count=1)
        _stop(server, sockets, use_poll)
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def whole_start(factory: Callable[P, T]) -> Callable[P, T]:
    """``factory`` (the app's) run whole: a SIGTERM that comes while it runs (the database
    brought up to date, the setup code written) waits for it to end, and then ends the process
    with status 0, before it serves or runs its command.

    Without this a SIGTERM in the first seconds of a start killed the process mid-migration
    (each is one transaction, so it was undone, but the process ended with the signal's status)
    or, as a container's first process, which the kernel gives no default action, was ignored:
    the server then served on until it was killed. From the factory's end to the serving loop
    (a few milliseconds) SIGTERM has its default action again. A SIGINT still interrupts at
    once (Python's KeyboardInterrupt: the migration's transaction is undone)."""

    @functools.wraps(factory)
    def start(*args: P.args, **kwargs: P.kwargs) -> T:
        if threading.current_thread() is not threading.main_thread():
            return factory(*args, **kwargs)  # only the main thread may set a signal's handler
        asked: list[int] = []
        previous = signal.signal(signal.SIGTERM, lambda number, _frame: asked.append(number))
        try:
            made = factory(*args, **kwargs)
        finally:
            signal.signal(signal.SIGTERM, previous)
        if asked:
            print("Stopped (SIGTERM) once the start was over, before serving.", file=sys.stderr)
            raise SystemExit(0)
        return made

    return start


def _stop(server: Any, sockets: dict[int, Any], use_poll: bool) -> None:
    """Stop taking connections; finish the requests whole in hand (and the restores and
    backups running) for up to ``STOP_SECONDS``, closing each connection as it falls idle, and
    refuse the rest by closing them: a request half received, or one not started by then."""
    from waitress import wasyncore
    from waitress.channel import HTTPChannel
    from waitress.server import BaseWSGIServer

    log = logging.getLogger(__name__)
    deadline = time.monotonic() + STOP_SECONDS
    for listener in [d for d in sockets.values() if isinstance(d, BaseWSGIServer)]:
        # The dispatcher's own close: the server's would close the trigger, which the
        # request threads still pull to have their answers sent.
        wasyncore.dispatcher.close(listener)
    busy = [c for c in sockets.values() if isinstance(c, HTTPChannel) and _busy(c)]
    log.info("stopping: %d request(s) in flight", len(busy))
    while time.monotonic() < deadline:
        channels = [c for c in list(sockets.values()) if isinstance(c, HTTPChannel)]
        for channel in channels:
            if not _busy(channel):
                channel.handle_close()
        if not any(_busy(c) for c in channels) and not _app_threads():
            break
        wasyncore.loop(timeout=0.05, map=sockets, use_poll=use_poll, count=1)
    left = sum(isinstance(c, HTTPChannel) for c in sockets.values())
    if left or _app_threads():
        log.warning(
            "stopped with %d connection(s) and %d task(s) unfinished after %.0f s",
            left,
            len(_app_threads()),
            STOP_SECONDS,
        )
    server.task_dispatcher.shutdown(cancel_pending=True, timeout=0.5)
    wasyncore.close_all(sockets)


def _busy(channel: Any) -> bool:
    """Whether a connection has a whole request being worked on or an answer being sent."""
    return bool(channel.requests or channel.total_outbufs_len)


def _app_threads() -> list[threading.Thread]:
    """The app's own threads still running (a restore, the daily backups), but those that may
    be cut off at any moment (``stops_with_the_server``: the ratings' worker, whose replay is
    marked in the database and taken up again at the next start)."""
    return [
        thread
        for thread in threading.enumerate()
        if thread is not threading.main_thread()
        and thread is not threading.current_thread()
        and not thread.name.startswith("waitress")
        and not getattr(thread, "stops_with_the_server", False)
        and thread.is_alive()
    ]


def _close_database(app: Any) -> None:
    """Close every pooled connection: SQLite folds its write-ahead log back into the file."""
    if isinstance(app, Flask):
        with app.app_context():
            db.engine.dispose()


def _configure_logging(app: Any) -> None:
    """Logs to standard error at ``SCOREKEEPER_LOG_LEVEL`` (request_log.py), and the app's own
    log through them only, not through Flask's handler as well."""
    request_log.configure(request_log.level(getattr(app, "config", None)))
    if isinstance(app, Flask):
        from flask.logging import default_handler

        app.logger.removeHandler(default_handler)


# A server process that ends is started again at once; after the second in a row to end sooner
# than QUICK_END_SECONDS after its start, only after a pause, 1 s doubled each time (at most
# RESTART_PAUSE_LONGEST), so that one failing at once (a database that refuses it) is not
# started again hundreds of times a second.
QUICK_END_SECONDS = 10.0
RESTART_PAUSE_LONGEST = 30.0


def _run_processes(app: Any, host: str, port: int, threads: int, processes: int) -> None:
    """Fork ``processes`` servers on one listening socket: the kernel hands each connection to
    one of them, so the interpreter lock of one process no longer holds up the others. What
    they must agree on lives in the database, as for two servers (a game's version, sessions,
    the access version); each keeps its own caches. A server that ends (a crash, the kernel's
    out-of-memory killer) is replaced at once, so the command keeps its number of processes
    for as long as it runs. A child dies with its parent (Linux), and the parent stops every
    child when it is stopped."""
    import contextlib

    _configure_logging(app)
    log = logging.getLogger(__name__)
    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    listening = socket.create_server((host, port), family=family, backlog=1024)
    settings = server_settings(app, host, port, threads)
    del settings["host"], settings["port"]
    settings["sockets"] = [listening]
    parent = os.getpid()
    children: dict[int, float] = {}  # each server's process id, and when it started
    stopping = False
    stop_signals = {signal.SIGTERM, signal.SIGINT}

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True
        for child in list(children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGTERM)

    def start_one() -> None:
        # No stop may fall between the check and the new child's place in ``children``: it
        # would miss the child, which would then serve on alone.
        signal.pthread_sigmask(signal.SIG_BLOCK, stop_signals)
        try:
            if stopping:
                return
            child = os.fork()
            if child == 0:
                _child(app, settings, parent, stop_signals)
            children[child] = time.monotonic()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, stop_signals)

    _threads_ended_before_forking(log)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for _ in range(processes):
        start_one()
    quick_ends = 0
    while children:
        try:
            ended, status = os.wait()
        except ChildProcessError:
            break
        started = children.pop(ended, None)
        if started is None or stopping:
            continue
        lived = time.monotonic() - started
        quick_ends = quick_ends + 1 if lived < QUICK_END_SECONDS else 0
        pause = min(RESTART_PAUSE_LONGEST, 2.0 ** (quick_ends - 2)) if quick_ends > 1 else 0.0
        log.warning(
            "server process %d %s after %.0f s; starting another%s",
            ended,
            _ending(status),
            lived,
            f" in {pause:.0f} s" if pause else "",
        )
        resume = time.monotonic() + pause
        while not stopping and time.monotonic() < resume:
            time.sleep(0.1)
        start_one()


# How long the command waits for its own threads before it says what it waits for.
FORK_WAIT_SAID_SECONDS = 1.0


def _threads_ended_before_forking(log: logging.Logger) -> None:
    """Wait for every thread of the command but this one to end (the start's daily backups, a
    ratings worker a start's commit woke) before the server processes are forked.

    A fork copies the memory of every thread and runs only the one that forked: a lock another
    thread held at that instant (one of SQLite's own, a pool's) stays held in the child, which
    then waits for it forever. So it went: the start's backups were being written as two
    processes were forked, and one of them answered none of the requests the kernel handed it,
    while the other served on."""
    others = [t for t in threading.enumerate() if t is not threading.current_thread()]
    for thread in others:
        if callable(leave := getattr(thread, "leave", None)):
            leave()  # a thread that can end sooner (the ratings' worker) is asked to
    for thread in others:
        thread.join(FORK_WAIT_SAID_SECONDS)
        if thread.is_alive():
            log.info("waiting for the start's own work (%s) before serving", thread.name)
            thread.join()


def _ending(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"was ended by signal {os.WTERMSIG(status)}"
    return f"exited with status {os.waitstatus_to_exitcode(status)}"


def _child(
    app: Any, settings: dict[str, Any], parent: int, stop_signals: Iterable[int]
) -> NoReturn:
    """A forked server process: serves until stopped, and never returns into the command."""
    import ctypes
    import traceback

    code = 0
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stop_signals)
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: go when the parent goes
        except (OSError, AttributeError):
            pass  # not Linux: the parent still stops its children when stopped
        # Where the parent went before the line above, go too (finally).
        if os.getppid() == parent:
            _fresh_connections(app)
            _serve(app, settings)
    except KeyboardInterrupt:
        pass
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        sys.stderr.flush()
        os._exit(code)


def _fresh_connections(app: Any) -> None:
    """A forked child must not share its parent's database connections."""
    if isinstance(app, Flask):
        with app.app_context():
            db.engine.dispose(close=False)


def refuse_taken_port(host: str, port: int) -> None:
    """``StartRefused`` where ``port`` on ``host`` cannot be listened on (another program holds
    it, the address is not this machine's), before "Serving ..." says otherwise. Bound and let
    go again as waitress binds it (SO_REUSEADDR: a port still closing from a stop a moment ago
    is free)."""
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise StartRefused(
            f"--host {host!r}: not an address of this machine ({error.strerror}); expected "
            "an address to listen on, like 127.0.0.1 or 0.0.0.0."
        ) from None
    for family, kind, protocol, _, address in addresses:
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as error:
                raise StartRefused(
                    f"--host {host} --port {port}: cannot listen there ({error.strerror}); "
                    "another program (or another Scorekeeper) may hold the port: stop it, or "
                    "choose another --port."
                ) from None


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

    # Flask types current_app as the app, not the proxy it is.
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    if processes > 1 and not hasattr(os, "fork"):
        raise click.UsageError("--processes above 1 needs a system that can fork (Linux, macOS).")
    refuse_taken_port(host, port)
    click.echo(
        f"Serving Scorekeeper on http://{host}:{port} with {threads} threads"
        + (f" in each of {processes} processes." if processes > 1 else "."),
        err=True,
    )
    run(app, host, port, threads, processes)
    _close_database(app)  # the command's own connections (--processes: the migration's)
    _end_at_once()


def _end_at_once() -> NoReturn:
    """End the process once the server has stopped, without Python's own ending: freeing every
    object and tearing down each module took half a second of CPU, and several seconds of a
    stop's 5 s on a loaded machine, for nothing. Nothing is left for it: the requests and the
    app's threads are done or were given up (``_stop``), the database is closed, and the logs
    and standard streams are flushed here."""
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def init_app(app: Flask) -> None:
    app.cli.add_command(serve_command)
