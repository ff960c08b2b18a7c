"""Behind the proxy it ships with: ``flask serve`` started in a subprocess and sent requests
over a socket as Caddy forwards them (from loopback, with ``X-Forwarded-For``, ``-Proto``,
``-Host``), and Caddy itself in front, configured from ``deploy/`` as a family would.

What is tried: a stranger is asked for the setup code; sign-in throttling counts each phone's
address, not the proxy's, ignores addresses a client names itself, and holds forty guesses sent
at once (over two processes) to the limit; cookies are Secure and Strict-Transport-Security is
sent on HTTPS answers.

Skipped where Caddy is missing (the Caddy test), except under ``CI=true``, where it fails.
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import pytest

from bench.load import hidden_fields
from bench.serving import Server, free_port, served
from deploy.two_servers import running_caddy

from .conftest import IN_CI

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "correct horse battery"
# Argon2 at its cheapest: these tests count attempts, they do not time them.
FAST_PASSWORDS = {"SCOREKEEPER_PASSWORD_TIME_COST": "1", "SCOREKEEPER_PASSWORD_MEMORY_KIB": "8"}
STRANGER = "203.0.113.7"


@dataclass
class Phone:
    """One browser reaching ``port`` on loopback (from ``source``, an address of this
    machine), its session cookie kept by hand, every request sent with ``forwarded`` headers
    as a proxy in front would add them."""

    port: int
    forwarded: dict[str, str] = field(default_factory=dict)
    source: str = "127.0.0.1"
    cookie: str = ""

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=30, source_address=(self.source, 0)
        )

    def origin(self) -> str:
        """Where the browser thinks its pages come from."""
        scheme = self.forwarded.get("X-Forwarded-Proto", "http")
        return f"{scheme}://{self.forwarded.get('X-Forwarded-Host', f'127.0.0.1:{self.port}')}"

    def ask(
        self, method: str, path: str, form: dict[str, str] | None = None, **sent: str
    ) -> tuple[int, http.client.HTTPMessage, str]:
        headers = {**self.forwarded, **sent}
        if self.cookie:
            headers["Cookie"] = self.cookie
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            # As a browser does: over HTTPS the CSRF check wants the page the form came from.
            headers["Referer"] = self.origin() + path
        connection = self.connection()
        try:
            connection.request(method, path, body=body, headers=headers)
            answer = connection.getresponse()
            text = answer.read().decode()
        finally:
            connection.close()
        # Every cookie it is given, as a browser keeps them (the session's, a device cookie).
        kept = dict(part.split("=", 1) for part in self.cookie.split("; ") if "=" in part)
        for cookie in answer.headers.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            kept[name] = value
            if not value:
                del kept[name]
        self.cookie = "; ".join(f"{name}={value}" for name, value in kept.items())
        return answer.status, answer.headers, text

    def post_form(
        self, path: str, fields: dict[str, str]
    ) -> tuple[int, http.client.HTTPMessage, str]:
        """Open ``path``, then send its form with ``fields`` (and its CSRF token)."""
        status, _headers, page = self.ask("GET", path)
        assert status == 200, page[:500]
        return self.ask("POST", path, {**hidden_fields(page), **fields})


@contextmanager
def serving(tmp_path: Path, processes: int = 1, **settings: str) -> Iterator[tuple[Server, Path]]:
    """``flask serve`` on a new instance folder with ``SCOREKEEPER_<name>`` settings."""
    instance = tmp_path / "instance"
    environment = {
        "SCOREKEEPER_INSTANCE_PATH": str(instance),
        "SCOREKEEPER_SECRET_KEY": "behind the proxy",
        **FAST_PASSWORDS,
        **{f"SCOREKEEPER_{name}": value for name, value in settings.items()},
    }
    with served(
        environment=environment, processes=processes, ready_path="/healthz", log_folder=tmp_path
    ) as server:
        yield server, instance


def port_of(server: Server) -> int:
    return int(server.base.rsplit(":", 1)[1])


def set_up(port: int, instance: Path, username: str = "ann") -> Phone:
    """First-run setup, with the code from the server's console, as its owner."""
    owner = Phone(port)
    status, _headers, page = owner.post_form(
        "/setup",
        {
            "household": "The Proxies",
            "username": username,
            "password": PASSWORD,
            "confirm": PASSWORD,
            "setup_code": (instance / "setup_code").read_text().strip(),
        },
    )
    assert status == 303, page[:2000]
    return owner


def via_proxy(port: int, client: str, scheme: str = "https") -> Phone:
    """A phone at ``client`` as Caddy on this machine passes it on."""
    return Phone(
        port,
        {
            "X-Forwarded-For": client,
            "X-Forwarded-Proto": scheme,
            "X-Forwarded-Host": f"127.0.0.1:{port}",
        },
    )


@pytest.mark.parametrize("proxies", ["1", "0"])
def test_a_stranger_is_asked_for_the_setup_code(tmp_path: Path, proxies: str) -> None:
    """With the proxy declared the app sees the stranger's address; without it, a forwarded
    request never counts as one from the machine itself. Either way: the setup code."""
    with serving(tmp_path, PROXY_COUNT=proxies) as (server, instance):
        port = port_of(server)
        stranger = via_proxy(port, STRANGER)
        status, _headers, page = stranger.ask("GET", "/setup")
        assert status == 200 and 'name="setup_code"' in page
        fields = {"household": "Mine now", "username": "mallory", "password": PASSWORD}
        status, _headers, page = stranger.post_form("/setup", {**fields, "confirm": PASSWORD})
        assert status == 422 and "That is not the setup code" in page
        # Nobody became the owner: the server still sends everyone to setup; the machine
        # itself is not asked for the code unless a proxy is declared (everything in front
        # of the app connects from this machine too).
        status, _headers, page = Phone(port).ask("GET", "/setup")
        assert status == 200 and ('name="setup_code"' in page) == (proxies == "1")
        # With the code from the server's console, the stranger may set it up after all.
        code = (instance / "setup_code").read_text().strip()
        status, _headers, page = stranger.post_form(
            "/setup", {**fields, "confirm": PASSWORD, "setup_code": code}
        )
        assert status == 303, page[:2000]


def _wrong_sign_in(phone: Phone, username: str) -> int:
    status, _headers, _page = phone.post_form(
        "/login", {"username": username, "password": "not the password at all"}
    )
    return status


def test_throttling_counts_each_phone_not_the_proxy(tmp_path: Path) -> None:
    with serving(tmp_path, PROXY_COUNT="1") as (server, instance):
        port = port_of(server)
        set_up(port, instance)
        guesser = via_proxy(port, STRANGER)
        for number in range(30):
            assert _wrong_sign_in(guesser, f"guess{number}") == 401
        status, headers, page = guesser.post_form(
            "/login", {"username": "ann", "password": PASSWORD}
        )
        assert status == 429 and int(headers["Retry-After"]) > 0
        assert "Too many wrong passwords" in page
        # Ann, at another address behind the same proxy, is let in.
        status, _headers, _page = via_proxy(port, "198.51.100.4").post_form(
            "/login", {"username": "ann", "password": PASSWORD}
        )
        assert status == 303


def test_a_client_that_bypasses_the_proxy_cannot_name_its_address(tmp_path: Path) -> None:
    """Only the trusted proxy (127.0.0.1) may say whom it forwards: a client reaching the
    port from another address is counted as itself, whatever address it claims."""
    with serving(tmp_path, PROXY_COUNT="1") as (server, instance):
        port = port_of(server)
        set_up(port, instance)
        for number in range(30):
            claimed = Phone(port, {"X-Forwarded-For": f"192.0.2.{number + 1}"}, "127.0.0.2")
            assert _wrong_sign_in(claimed, f"guess{number}") == 401
        claimed = Phone(port, {"X-Forwarded-For": "192.0.2.200"}, "127.0.0.2")
        status, _headers, _page = claimed.post_form(
            "/login", {"username": "ann", "password": PASSWORD}
        )
        assert status == 429


def test_forty_guesses_at_once_on_two_processes_try_at_most_ten(tmp_path: Path) -> None:
    """Each guess takes its place before its password is checked, in the database that both
    processes share: of forty sent together, no more than the limit are tried."""
    with serving(tmp_path, processes=2, PROXY_COUNT="1") as (server, instance):
        port = port_of(server)
        set_up(port, instance)
        phones = [via_proxy(port, f"198.51.100.{number + 1}") for number in range(40)]
        forms = []
        for phone in phones:
            status, _headers, page = phone.ask("GET", "/login")
            assert status == 200
            forms.append(hidden_fields(page))

        def guess(number: int) -> int:
            fields = {**forms[number], "username": "ann", "password": f"guess number {number}"}
            return phones[number].ask("POST", "/login", fields)[0]

        with ThreadPoolExecutor(max_workers=40) as pool:
            answers = list(pool.map(guess, range(40)))
        assert set(answers) <= {401, 429}
        assert 1 <= answers.count(401) <= 10, answers
        # The account is held back now, on either process, even with the right password.
        status, _headers, _page = via_proxy(port, "198.51.100.99").post_form(
            "/login", {"username": "ann", "password": PASSWORD}
        )
        assert status == 429 if answers.count(401) == 10 else status == 303


@pytest.mark.parametrize(
    ("proxies", "scheme", "secure"),
    [("1", "https", True), ("1", "http", False), ("0", "https", False)],
)
def test_cookies_and_strict_transport_over_https_through_the_declared_proxy(
    tmp_path: Path, proxies: str, scheme: str, secure: bool
) -> None:
    with serving(tmp_path, PROXY_COUNT=proxies) as (server, instance):
        port = port_of(server)
        set_up(port, instance)
        phone = via_proxy(port, "198.51.100.4", scheme)
        status, headers, _page = phone.post_form(
            "/login", {"username": "ann", "password": PASSWORD}
        )
        assert status == 303
        cookie = next(each for each in headers.get_all("Set-Cookie") if "session=" in each)
        assert "HttpOnly" in cookie and "Path=/" in cookie and "Domain" not in cookie
        # A host-only cookie behind HTTPS: no sibling subdomain can set or shadow it.
        assert cookie.startswith("__Host-session=") == (proxies == "1")
        # Behind the declared proxy the cookie is Secure whatever the scheme (the proxy is
        # HTTPS); Strict-Transport-Security only on an answer that went out by HTTPS.
        assert ("Secure" in cookie) == (proxies == "1")
        assert ("Strict-Transport-Security" in headers) == secure
        status, headers, _page = phone.ask("GET", "/members")
        assert status == 200
        assert headers["Cache-Control"] == "no-store"
        assert (headers.get("Strict-Transport-Security") == "max-age=31536000") == secure


# --- through Caddy, as deploy/ sets it up ------------------------------------------------------


def deploy_environment(instance: Path) -> dict[str, str]:
    """deploy/scorekeeper.env as the unit reads it, with this test's instance folder."""
    settings = {}
    for line in (ROOT / "deploy" / "scorekeeper.env").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, value = line.partition("=")
            settings[name] = value
    assert settings["SCOREKEEPER_PROXY_COUNT"] == "1"
    return {**settings, "SCOREKEEPER_INSTANCE_PATH": str(instance), **FAST_PASSWORDS}


def unit_command() -> list[str]:
    """The unit's ExecStart, run by this interpreter (its port is filled in by ``served``)."""
    unit = (ROOT / "deploy" / "scorekeeper.service").read_text()
    start = re.search(r"^ExecStart=(\S+)/flask (.*)$", unit, re.M)
    assert start is not None
    arguments = start[2].split()
    arguments[arguments.index("--port") + 1] = "{port}"
    return [sys.executable, "-m", "flask", *arguments]


def deploy_caddyfile(https_port: int, app_port: int, folder: Path) -> tuple[str, str]:
    """deploy/Caddyfile as written, on loopback ports, with certificates from Caddy's own
    local authority instead of the internet's; and the host name it serves."""
    written = (ROOT / "deploy" / "Caddyfile").read_text()
    host = re.search(r"^(\S+) \{$", written, re.M)
    assert host is not None
    assert "reverse_proxy 127.0.0.1:8000" in written
    body = written.replace("reverse_proxy 127.0.0.1:8000", f"reverse_proxy 127.0.0.1:{app_port}")
    options = f"""{{
	admin off
	local_certs
	skip_install_trust
	http_port {free_port()}
	https_port {https_port}
	storage file_system {folder / "caddy-data"}
}}
"""
    return options + body, host[1]


class Resolved(http.client.HTTPSConnection):
    """HTTPS to a host name, connected to loopback instead (curl's ``--resolve``)."""

    def connect(self) -> None:
        raw = socket.create_connection(("127.0.0.1", self.port), timeout=self.timeout)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)  # type: ignore[attr-defined]


@dataclass
class ThroughCaddy(Phone):
    """A phone reaching ``host`` by HTTPS on Caddy's ``port``, with Caddy's own certificate."""

    host: str = ""
    context: ssl.SSLContext | None = None

    def connection(self) -> http.client.HTTPConnection:
        return Resolved(self.host, self.port, timeout=30, context=self.context)

    def origin(self) -> str:
        return f"https://{self.host}:{self.port}"


@pytest.fixture
def caddy_installed() -> None:
    if shutil.which("caddy") is None:
        if IN_CI:
            pytest.fail("Caddy is not installed: apt-get install caddy")
        pytest.skip("Caddy is not installed")


def test_deployed_as_written_behind_caddy(tmp_path: Path, caddy_installed: None) -> None:
    """The unit's settings and command behind the Caddyfile: first-run setup from the machine
    itself, signing in, HTTPS everywhere, a forged forwarding header moves nothing."""
    instance = tmp_path / "instance"
    https_port = free_port()
    with served(
        command=unit_command(),
        environment=deploy_environment(instance),
        ready_path="/healthz",
        log_folder=tmp_path,
    ) as server:
        config, host = deploy_caddyfile(https_port, port_of(server), tmp_path)
        context = ssl.create_default_context()
        phone = ThroughCaddy(https_port, host=host, context=context)
        ask = phone.ask

        def answers() -> bool:
            # Caddy's own authority signs the certificate: trust it, and nothing else.
            root = tmp_path / "caddy-data" / "pki" / "authorities" / "local" / "root.crt"
            if not root.exists():
                return False
            context.load_verify_locations(root)
            return ask("GET", "/healthz")[0] == 200

        with running_caddy(config, tmp_path, answers):
            status, headers, _page = ask("GET", "/")
            assert status == 302 and headers["Location"].endswith("/setup")
            status, headers, page = ask("GET", "/setup")
            # Behind the proxy nobody counts as on the machine itself: the code, from the
            # server's console (here its file).
            assert status == 200 and 'name="setup_code"' in page
            assert headers["Strict-Transport-Security"] == "max-age=31536000"
            fields = {
                **hidden_fields(page),
                "household": "The Deployed",
                "username": "ann",
                "password": PASSWORD,
                "confirm": PASSWORD,
                "setup_code": (instance / "setup_code").read_text().strip(),
            }
            status, headers, page = ask("POST", "/setup", fields)
            assert status == 303, page[:2000]
            assert "Secure" in headers["Set-Cookie"]
            _status, _headers, page = ask("GET", "/members")
            ask("POST", "/logout", {**hidden_fields(page)})
            status, _headers, page = ask("GET", "/login")
            fields = {**hidden_fields(page), "username": "ann", "password": PASSWORD}
            status, headers, page = ask("POST", "/login", fields)
            assert status == 303, page[:2000]
            assert "Secure" in headers["Set-Cookie"]
            # A table link points at the public address, whatever a client forges on the way.
            _status, _headers, page = ask("GET", "/games/new")
            game = {**hidden_fields(page), "rules": "twelve-step", "start": "Start the game"}
            game |= {"players-0": "Ann", "players-1": "Ben", "first_dealer": "0"}
            status, headers, page = ask("POST", "/games/new", game)
            assert status == 302, page[:2000]
            links = headers["Location"].rstrip("/") + "/links"
            forged = {"X-Forwarded-Prefix": "/evil", "X-Forwarded-Port": "666"}
            _status, _headers, page = ask("GET", links, **forged)
            status, headers, _page = ask(
                "POST", links, {**hidden_fields(page), "kind": "table"}, **forged
            )
            assert status == 303
            status, headers, page = ask("GET", headers["Location"].split("#")[0], **forged)
            assert status == 200 and headers["Cache-Control"] == "no-store"
            assert re.search(r"https://scores\.example\.org/t/[A-Za-z0-9_-]{43}", page)
            assert "/evil" not in page and ":666" not in page


@pytest.mark.parametrize("name", ["localhost", "proxy.internal", ""])
def test_a_trusted_proxy_that_is_not_an_address_stops_the_start(tmp_path: Path, name: str) -> None:
    """waitress compares the proxy's address with each connection's as text: a name would
    never match, and every stranger would then seem to be the proxy itself."""
    environment = {
        **os.environ,
        "SCOREKEEPER_INSTANCE_PATH": str(tmp_path),
        "SCOREKEEPER_PROXY_COUNT": "1",
        "SCOREKEEPER_TRUSTED_PROXY": name or " ",
    }
    started = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "serve", "--port", "1"],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert started.returncode == 2
    assert "SCOREKEEPER_TRUSTED_PROXY=" in started.stderr
    assert "expected the IP address the proxy connects from" in started.stderr


# --- issue 48: another website, and a table phone that opens a watch link ----------------------


def test_another_website_and_a_watch_link_take_nothing_behind_caddy(
    tmp_path: Path, caddy_installed: None
) -> None:
    """The attack review's scripts, through the deployment as written: a form another website
    posts to any route (it comes without the SameSite cookie, or with it and without the
    form's token) is refused and sets no cookie, so the member stays signed in and the table's
    phone keeps its game (issue 48 item 2); and that phone, having opened the watch link its
    own Share gave, still scores (item 3)."""
    from .test_refusals_keep_sessions import every_form_route

    instance = tmp_path / "instance"
    https_port = free_port()
    with served(
        command=unit_command(),
        environment=deploy_environment(instance),
        ready_path="/healthz",
        log_folder=tmp_path,
    ) as server:
        config, host = deploy_caddyfile(https_port, port_of(server), tmp_path)
        context = ssl.create_default_context()

        def through_caddy() -> ThroughCaddy:
            return ThroughCaddy(https_port, host=host, context=context)

        owner = through_caddy()

        def answers() -> bool:
            root = tmp_path / "caddy-data" / "pki" / "authorities" / "local" / "root.crt"
            if not root.exists():
                return False
            context.load_verify_locations(root)
            return owner.ask("GET", "/healthz")[0] == 200

        with running_caddy(config, tmp_path, answers):
            code = (instance / "setup_code").read_text().strip()
            status, _headers, page = owner.post_form(
                "/setup",
                {
                    "household": "The Deployed",
                    "username": "ann",
                    "password": PASSWORD,
                    "confirm": PASSWORD,
                    "setup_code": code,
                },
            )
            assert status == 303, page[:2000]
            assert owner.cookie.startswith("__Host-session=")
            game = {"rules": "twelve-step", "start": "Start the game", "first_dealer": "0"}
            game |= {"players-0": "Ann", "players-1": "Ben"}
            status, headers, page = owner.post_form("/games/new", game)
            assert status == 302, page[:2000]
            board = headers["Location"].removeprefix(owner.origin()).rstrip("/")
            game_id = int(board.rsplit("/", 1)[1])
            status, headers, _page = owner.post_form(f"{board}/links", {"kind": "table"})
            assert status == 303
            _status, _headers, page = owner.ask("GET", headers["Location"].split("#")[0])
            table_path = re.search(r"https://scores\.example\.org(/t/[A-Za-z0-9_-]{43})", page)
            assert table_path is not None
            table = through_caddy()
            assert table.ask("GET", table_path[1])[0] == 303
            held = {"owner": owner.cookie, "table": table.cookie}

            elsewhere = {
                "Origin": "https://elsewhere.example",
                "Referer": "https://elsewhere.example/",
            }
            routes = every_form_route(tmp_path, game_id)
            assert "/logout" in routes and f"{board}/may-i" in routes
            for route in routes:
                # Without the cookie (SameSite=Lax stays home), then with it but no token.
                for phone in (through_caddy(), owner, table):
                    cookie = phone.cookie
                    status, headers, page = phone.ask(
                        "POST", route, {"seat": "0", "change": "1", "name": "Mallory"}, **elsewhere
                    )
                    assert status == 400 and "did not come from this app" in page, (route, status)
                    assert headers.get_all("Set-Cookie") is None, (route, headers)
                    assert phone.cookie == cookie
            assert (owner.cookie, table.cookie) == (held["owner"], held["table"])
            status, _headers, _page = owner.ask("GET", "/members")
            assert status == 200
            assert table.ask("GET", f"{board}/rounds/new")[0] == 200

            # The table phone shares the game, and opens the watch link it was handed.
            _status, _headers, page = table.ask("GET", board)
            token = hidden_fields(page)["csrf_token"]
            status, _headers, shared = table.ask("POST", f"{board}/share", {"csrf_token": token})
            assert status == 200, shared
            watch = re.search(r"https://scores\.example\.org(/w/[A-Za-z0-9_-]{43})", shared)
            assert watch is not None
            for opened in (watch[1], f"{watch[1]}/result"):
                assert table.ask("GET", opened)[0] == 200
                assert table.ask("GET", f"{board}/rounds/new")[0] == 200
                status, _headers, page = table.ask(
                    "POST", f"{board}/may-i", {"csrf_token": token, "seat": "0", "change": "1"}
                )
                assert status == 302, page[:2000]
                table.ask(
                    "POST", f"{board}/may-i", {"csrf_token": token, "seat": "0", "change": "-1"}
                )
