"""Two app servers on one PostgreSQL behind Caddy, on loopback, for trying and testing.

    .venv/bin/python deploy/two_servers.py [--port 8080]      # or: deploy/two-servers

It starts a throwaway PostgreSQL server in a temporary folder (as the test suite does; Debian's
``postgresql`` package), brings its database up to date once, starts two ``flask serve``
processes on it that share one secret key (a cookie signed by one is good on the other), and
Caddy (Debian's ``caddy`` package) in front, sharing requests between them in turn. Caddy runs
without any network: plain HTTP on a loopback port, no certificates, no admin endpoint, its
HOME and XDG folders in the temporary folder. When everything answers, it prints one line of
JSON (``caddy``, ``servers``, ``database``, ``secret_key``, ``instance``) and keeps running
until stopped (Ctrl-C, SIGTERM, or its standard input closing when ``--until-stdin-closes``),
then stops everything and removes the folder.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, redirect_stdout
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.serving import Server, free_port, served  # noqa: E402


def caddyfile(port: int, upstreams: list[str], folder: Path) -> str:
    """Plain HTTP on loopback, no admin endpoint, no automatic HTTPS: nothing reaches out."""
    return f"""{{
	admin off
	auto_https off
	storage file_system {folder / "caddy-data"}
}}

http://127.0.0.1:{port} {{
	reverse_proxy {" ".join(upstreams)} {{
		lb_policy round_robin
		health_uri /healthz
		health_interval 2s
	}}
}}
"""


@contextmanager
def caddy(port: int, upstreams: list[str], folder: Path) -> Iterator[str]:
    """Caddy on ``port`` in front of ``upstreams`` (``host:port``), until the block ends."""
    base = f"http://127.0.0.1:{port}"

    def answers() -> bool:
        with urllib.request.urlopen(base + "/healthz", timeout=2):
            return True

    with running_caddy(caddyfile(port, upstreams, folder), folder, answers):
        yield base


@contextmanager
def running_caddy(config: str, folder: Path, answers: Callable[[], bool]) -> Iterator[None]:
    """Caddy run with the Caddyfile ``config``, its HOME and data in ``folder``, until the
    block ends; ready once ``answers()`` is true (an OSError counts as not yet)."""
    binary = shutil.which("caddy")
    if binary is None:
        raise SystemExit("Caddy is not installed: apt-get install caddy")
    path = folder / "Caddyfile"
    path.write_text(config)
    home = folder / "caddy-home"
    home.mkdir(exist_ok=True)
    environment = {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
    }
    log = open(folder / "caddy.log", "w")  # noqa: SIM115 - closed below
    process = subprocess.Popen(
        [binary, "run", "--config", str(path), "--adapter", "caddyfile"],
        env=environment,
        stdout=log,
        stderr=log,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if answers():
                    break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                log.flush()
                raise RuntimeError(
                    "Caddy did not start:\n" + (folder / "caddy.log").read_text()[-2000:]
                )
            time.sleep(0.1)
        yield
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def migrate(uri: str, secret: str, instance: Path) -> None:
    """Bring the database up to date once, before either server starts (two servers
    migrating one empty database at the same moment would race)."""
    from scorekeeper import create_app
    from scorekeeper.extensions import db

    os.environ["SCOREKEEPER_INSTANCE_PATH"] = str(instance)
    # Standard output is for the one line of JSON: the setup code goes to standard error.
    with redirect_stdout(sys.stderr):
        app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": secret})
    with app.app_context():
        db.engine.dispose()


@contextmanager
def two_servers(port: int | None = None, extra: dict[str, str] | None = None) -> Iterator[Any]:
    """PostgreSQL, two ``flask serve`` on it and Caddy in front; yields what ``main`` prints."""
    from tests.postgres import running_server

    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="scorekeeper-two-")))
        uri = stack.enter_context(running_server())
        if uri is None:
            raise SystemExit("no PostgreSQL server: apt-get install postgresql")
        secret = secrets.token_urlsafe(32)
        instance = folder / "instance"
        instance.mkdir()
        migrate(uri, secret, instance)
        environment = {
            "SCOREKEEPER_INSTANCE_PATH": str(instance),
            "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": uri,
            # One key for both: a phone's cookie is good on whichever server Caddy picks.
            "SCOREKEEPER_SECRET_KEY": secret,
            # Exactly one proxy in front (Caddy): its X-Forwarded-For is trusted, no other.
            "SCOREKEEPER_PROXY_COUNT": "1",
            **(extra or {}),
        }
        servers: list[Server] = [
            stack.enter_context(
                served(environment=environment, ready_path="/healthz", log_folder=folder)
            )
            for _ in range(2)
        ]
        upstreams = [server.base.removeprefix("http://") for server in servers]
        front = stack.enter_context(caddy(port or free_port(), upstreams, folder))
        yield {
            "caddy": front,
            "servers": [server.base for server in servers],
            "database": uri,
            "secret_key": secret,
            "instance": str(instance),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=None, help="Caddy's port (default: free)")
    parser.add_argument(
        "--until-stdin-closes",
        action="store_true",
        help="stop when standard input closes (for a test that starts this script)",
    )
    arguments = parser.parse_args()
    stopped = threading.Event()
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_: stopped.set())
    with two_servers(arguments.port) as running:
        print(json.dumps(running), flush=True)
        print(f"Serving on {running['caddy']} (Ctrl-C stops everything)", file=sys.stderr)
        if arguments.until_stdin_closes:
            threading.Thread(target=lambda: (sys.stdin.read(), stopped.set()), daemon=True).start()
        while not stopped.wait(0.5):
            pass


if __name__ == "__main__":
    main()
