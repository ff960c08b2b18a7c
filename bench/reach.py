"""How soon a round stored on one phone shows on the others at its table, and what the tables
cost the server while nobody types (issue 52, item 5).

    .venv/bin/python -m bench.reach [--tables 8] [--latency 0.3] [--seconds 60] [--idle 30]
                                    [--poll-seconds N] [--database sqlite|postgresql]

A fresh database (``bench.tables.prepare``: a scorer's account, ``--tables`` 4-player games each
with a table link), served as the app ships (``flask serve``, waitress, 8 threads, one process),
and four phones a table, each a thread with its own connection and cookies: the scorer signed
in, three by the table link. Each phone opens its board and then polls it as htmx does: it reads
the poll's address and its ``every Ns`` from the page (``--poll-seconds`` sets the app's
``SCOREBOARD_POLL_SECONDS``; without it the app's default), asks every N seconds from a phase of
its own, and asks nothing while its last poll is on its way (htmx drops a trigger while its
element's request is in flight). Every request, the saves too, travels ``--latency`` seconds
there and back (half each way) on top of the server's own time, as a phone at 300 ms does.

- **Idle** (``--idle`` seconds): nobody types. The requests a second the phones send, and the
  server's CPU (``/proc``: the serving process and those under it) a second and a table.
- **Play** (``--seconds``): each table's scorer saves a round (the round form, then Save) every
  ``SAVE_EVERY`` seconds from a phase of its own. For each round, from the tap of Save on the
  scorer's phone (the request leaving it) to the moment each of the other three phones holds
  the new board (its poll's answer arrived): each phone's time, and the time until the last of
  the three has it (the round "on every phone"). Medians, 90th percentiles and the worst.

The machine's load is printed beside the figures: every figure moves with it.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .corrections import cpu_seconds
from .load import database
from .serving import served
from .tables import SECRET, prepare

PHONES_A_TABLE = 4
SAVE_EVERY = 20.0
POLL = re.compile(r'hx-get="(/games/\d+/board\?v=(\d+))"\s+hx-trigger="every (\d+(?:\.\d+)?)s')
BOARD_VERSION = re.compile(r"/games/\d+/board\?v=(\d+)")
# As bench/locustfile.py reads a form (it imports locust, which this bench does not need).
CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')
HIDDEN = re.compile(r"<input\b[^>]*>")
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')
LEFTOVERS = ("K 5 9", "JK A", "Q Q 3", "10 8 7 6", "A", "2 K", "9 9 9 4")


def hidden_fields(page: str) -> dict[str, str]:
    fields = {}
    for tag in HIDDEN.findall(page):
        attributes = dict(ATTRIBUTE.findall(tag))
        if attributes.get("type") == "hidden" and "name" in attributes:
            fields[attributes["name"]] = attributes.get("value", "")
    return fields


@dataclass
class Phone:
    """One phone: its own keep-alive connection and cookies."""

    host: str
    port: int
    latency: float
    cookies: dict[str, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    asked: int = 0

    def __post_init__(self) -> None:
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=60)

    def ask(
        self, method: str, path: str, body: dict[str, str] | None = None, htmx: bool = False
    ) -> tuple[int, dict[str, str], str, float]:
        """(status, headers, text, when the answer reached the phone): the request travels
        half the latency there and the answer half back."""
        headers = {"Accept-Encoding": "identity", "Accept-Language": "en-US"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            headers["HX-Request"] = "true"
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        time.sleep(self.latency / 2)
        with self.lock:
            self.asked += 1
            try:
                self.connection.request(method, path, body=data, headers=headers)
                answer = self.connection.getresponse()
            except (http.client.HTTPException, OSError):
                self.connection.close()
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
                self.connection.request(method, path, body=data, headers=headers)
                answer = self.connection.getresponse()
            text = answer.read().decode("utf-8", "replace")
            for name, value in answer.getheaders():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    self.cookies[key] = rest.split(";", 1)[0]
            found = {name.lower(): value for name, value in answer.getheaders()}
        time.sleep(self.latency / 2)
        return answer.status, found, text, time.monotonic()


@dataclass
class Table:
    game: int
    scorer: Phone
    others: list[Phone]
    poll: str = ""
    every: float = 3.0
    # (version, when the scorer tapped Save) of each round saved, and when each phone had it.
    saved: dict[int, float] = field(default_factory=dict)
    reached: dict[int, list[float]] = field(default_factory=dict)


def _open_board(phone: Phone, game: int) -> tuple[str, float]:
    status, _headers, text, _at = phone.ask("GET", f"/games/{game}")
    found = POLL.search(text)
    if status != 200 or found is None:
        raise RuntimeError(f"game {game}: the board did not open ({status})")
    return found[2], float(found[3])


def _poller(table: Table, phone: Phone, stop: threading.Event, reach: bool) -> None:
    """Poll as htmx does until ``stop``; where a poll brings a new board, note when."""
    version, every = _open_board(phone, table.game)
    table.every = every
    start = time.monotonic() + random.uniform(0, every)
    tick = start
    while not stop.is_set():
        pause = tick - time.monotonic()
        if pause > 0 and stop.wait(pause):
            return
        tick += every
        status, _headers, text, at = phone.ask(
            "GET", f"/games/{table.game}/board?v={version}", htmx=True
        )
        if status == 200:
            found = BOARD_VERSION.search(text)
            if found:
                version = found[1]
                if reach:
                    table.reached.setdefault(int(version), []).append(at)
        elif status != 204:
            raise RuntimeError(f"poll of game {table.game}: HTTP {status}")
        while tick <= time.monotonic():  # a poll that took longer than the interval: the
            tick += every  # triggers meanwhile were dropped


def _save(table: Table, rng: random.Random) -> None:
    """The scorer opens the round form and saves a round; the tap is when Save leaves."""
    phone, game = table.scorer, table.game
    status, _headers, page, _at = phone.ask("GET", f"/games/{game}/rounds/new")
    if status != 200:
        return  # the game is over
    hidden = hidden_fields(page)
    token = CSRF.search(page)
    went_out = rng.randrange(PHONES_A_TABLE)
    form = {
        "csrf_token": token.group(1) if token else "",
        "number": hidden.get("number", ""),
        "token": hidden.get("token", ""),
        "version": hidden.get("version", ""),
        "went_out": str(went_out),
        "save": "1",
    }
    leftovers = iter(rng.sample(LEFTOVERS, PHONES_A_TABLE - 1))
    for seat in range(PHONES_A_TABLE):
        if seat == went_out:
            form[f"hands-{seat}-made"] = "y"
        else:
            form[f"hands-{seat}-cards"] = next(leftovers)
    tapped = time.monotonic()
    status, _headers, _text, _at = phone.ask("POST", f"/games/{game}/rounds/new", form)
    if status != 302:
        raise RuntimeError(f"save in game {game}: HTTP {status}")
    # The board the save moved to, opened by the scorer's phone, names the new version.
    status, _headers, text, _at = phone.ask("GET", f"/games/{game}")
    found = BOARD_VERSION.search(text)
    if found:
        table.saved[int(found[1])] = tapped


def _scorer(table: Table, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    if stop.wait(rng.uniform(0, SAVE_EVERY)):
        return
    while not stop.is_set():
        _save(table, rng)
        if stop.wait(SAVE_EVERY):
            return


def _sign_in(phone: Phone, account: tuple[str, str]) -> None:
    _status, _headers, page, _at = phone.ask("GET", "/login")
    token = CSRF.search(page)
    fields = {"csrf_token": token.group(1) if token else "", "username": account[0]}
    status, _h, _t, _a = phone.ask("POST", "/login", {**fields, "password": account[1]})
    if status != 303:
        raise RuntimeError(f"sign-in: HTTP {status}")


def _load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def _spread(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)
    return {
        "median": statistics.median(ordered),
        "p90": ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
        "worst": ordered[-1],
        "count": len(ordered),
    }


def run(
    tables: int, latency: float, seconds: float, idle: float, poll: int | None, kind: str
) -> dict[str, Any]:
    with (
        tempfile.TemporaryDirectory(prefix="scorekeeper-reach-") as folder,
        database(kind, Path(folder)) as uri,
    ):
        plan = prepare(uri, folder, tables)
        environment = {
            **os.environ,
            "SCOREKEEPER_INSTANCE_PATH": folder,
            "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": uri,
            "SCOREKEEPER_SECRET_KEY": SECRET,
            "SCOREKEEPER_PASSWORD_TIME_COST": "1",
            "SCOREKEEPER_PASSWORD_MEMORY_KIB": "1024",
            "SCOREKEEPER_LOG_LEVEL": "WARNING",
        }
        if poll is not None:
            environment["SCOREKEEPER_SCOREBOARD_POLL_SECONDS"] = str(poll)
        with served(environment=environment, ready_path="/healthz") as server:
            assert server.process is not None
            parts = urllib.parse.urlsplit(server.base)
            host, port = parts.hostname or "127.0.0.1", int(parts.port or 80)
            account = (plan["account"][0], plan["account"][1])
            made: list[Table] = []
            for each in plan["tables"]:
                scorer = Phone(host, port, latency)
                _sign_in(scorer, account)
                others = []
                for _ in range(PHONES_A_TABLE - 1):
                    other = Phone(host, port, latency)
                    other.ask("GET", f"/t/{each['token']}")
                    others.append(other)
                made.append(Table(each["game"], scorer, others))
            figures: dict[str, Any] = {"load_before": _load_average()}

            # Idle: every phone polls, nobody types.
            stop = threading.Event()
            threads = [
                threading.Thread(target=_poller, args=(table, phone, stop, False), daemon=True)
                for table in made
                for phone in [table.scorer, *table.others]
            ]
            for thread in threads:
                thread.start()
            time.sleep(max(table.every for table in made) + 2)  # every phone polling
            phones = [phone for table in made for phone in [table.scorer, *table.others]]
            asked, cpu, began = sum(p.asked for p in phones), cpu_seconds(server.process.pid), 0.0
            began = time.monotonic()
            time.sleep(idle)
            spent = time.monotonic() - began
            requests = (sum(p.asked for p in phones) - asked) / spent
            busy = (cpu_seconds(server.process.pid) - cpu) / spent
            stop.set()
            for thread in threads:
                thread.join()
            figures.update(
                poll_seconds=made[0].every,
                idle_requests_a_second=requests,
                idle_requests_a_second_a_table=requests / tables,
                idle_cpu_a_second=busy,
                idle_cpu_ms_a_second_a_table=1000 * busy / tables,
            )

            # Play: the scorers save rounds while the others poll.
            stop = threading.Event()
            threads = [
                threading.Thread(target=_poller, args=(table, phone, stop, True), daemon=True)
                for table in made
                for phone in table.others
            ]
            threads += [
                threading.Thread(target=_scorer, args=(table, stop, number), daemon=True)
                for number, table in enumerate(made)
            ]
            for thread in threads:
                thread.start()
            time.sleep(seconds)
            stop.set()
            for thread in threads:
                thread.join()
            figures["load_after"] = _load_average()
    each_phone: list[float] = []
    every_phone: list[float] = []
    for table in made:
        for version, tapped in table.saved.items():
            arrived = table.reached.get(version, [])
            if len(arrived) == PHONES_A_TABLE - 1:
                each_phone += [at - tapped for at in arrived]
                every_phone.append(max(arrived) - tapped)
    figures["each_phone_seconds"] = _spread(each_phone)
    figures["every_phone_seconds"] = _spread(every_phone)
    figures["rounds"] = sum(len(table.saved) for table in made)
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--latency", type=float, default=0.3, help="seconds there and back")
    parser.add_argument("--seconds", type=float, default=60, help="of play")
    parser.add_argument("--idle", type=float, default=30, help="seconds of nobody typing")
    parser.add_argument("--poll-seconds", type=int, default=None)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    arguments = parser.parse_args(argv)
    figures = run(
        arguments.tables,
        arguments.latency,
        arguments.seconds,
        arguments.idle,
        arguments.poll_seconds,
        arguments.database,
    )
    json.dump(figures, sys.stdout, indent=2)
    print()
    every, each = figures["every_phone_seconds"], figures["each_phone_seconds"]
    if every:
        print(
            f"poll every {figures['poll_seconds']:g} s, {figures['rounds']} rounds: on every "
            f"phone median {every['median']:.2f} s, p90 {every['p90']:.2f}, worst "
            f"{every['worst']:.2f}; each phone median {each['median']:.2f} s (goal: 1.5 s)"
        )
    print(
        f"idle: {figures['idle_requests_a_second_a_table']:.2f} requests a second a table, "
        f"{figures['idle_cpu_ms_a_second_a_table']:.1f} ms of CPU a second a table "
        f"(load average {figures['load_before']} before, {figures['load_after']} after)"
    )


if __name__ == "__main__":
    main()
