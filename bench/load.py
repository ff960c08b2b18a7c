"""The load run: a table full of phones against the app as it ships (``flask serve``), on loopback.

Scorers each keep score of their own games (open the round form, save a round, repeat) while
phones poll the scoreboards, for a bounded time. Afterwards the database itself is audited:
every save that was answered as stored must be there (rounds lost: none), every round must hold
a hand for every player, and every game's standings must be what its rounds add up to.

``--kill-server SECONDS`` also SIGKILLs the serving process that often, mid-save, and starts it
again on the same port: the audit then shows that a save is either all there or not there at
all, never half, and that every save answered as stored survived the kill.

    .venv/bin/python -m bench.load                        # SQLite, 20 s
    .venv/bin/python -m bench.load --database postgresql  # a throwaway PostgreSQL on loopback
    .venv/bin/python -m bench.load --kill-server 0.7     # with faults

The PostgreSQL run starts its own server as the test suite does (Debian's ``postgresql``
package must be installed) unless ``SCOREKEEPER_TEST_POSTGRES_URI`` names one.
"""

from __future__ import annotations

import argparse
import http.client
import http.cookiejar
import json
import os
import random
import re
import statistics
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .serving import ROOT, served

CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')
INPUT = re.compile(r"<input\b[^>]*>")
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')
LEFTOVERS = ("K 5 9", "JK A", "Q Q 3", "10 8 7 6", "A", "2 K", "9 9 9 4")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@dataclass
class Tally:
    save_ms: list[float] = field(default_factory=list)
    poll_ms: list[float] = field(default_factory=list)
    stored_tokens: set[str] = field(default_factory=set)
    saves: int = 0
    conflicts: int = 0
    errors: list[str] = field(default_factory=list)
    interrupted: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


# Every phone of a run signs in as the one scorer the run makes before the server starts.
ACCOUNT = ("load-scorer", "load-run-password")


def make_account(environment: dict[str, str]) -> None:
    """The household and the scorer the phones sign in as, made in the run's database."""
    from scorekeeper import create_app
    from scorekeeper.accounts import services
    from scorekeeper.extensions import db

    before = os.environ.get("SCOREKEEPER_INSTANCE_PATH")
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = environment["SCOREKEEPER_INSTANCE_PATH"]
    try:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": environment["SCOREKEEPER_SQLALCHEMY_DATABASE_URI"],
                "SECRET_KEY": environment["SCOREKEEPER_SECRET_KEY"],
                "PASSWORD_TIME_COST": 1,
                "PASSWORD_MEMORY_KIB": 1024,
            }
        )
    finally:
        if before is None:
            os.environ.pop("SCOREKEEPER_INSTANCE_PATH")
        else:
            os.environ["SCOREKEEPER_INSTANCE_PATH"] = before
    with app.app_context():
        household = services.add_household("Load")
        services.add_user(ACCOUNT[0], ACCOUNT[1], household, "scorer")
        db.engine.dispose()


class Phone:
    """One browser, signed in: its own cookies (session, CSRF), no automatic redirects."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), _NoRedirect()
        )
        for attempt in range(80):
            try:
                _, page, _ = self.request("/login")
                form = {"csrf_token": _csrf(page), "username": ACCOUNT[0], "password": ACCOUNT[1]}
                status, _, _ = self.request("/login", form)
            except (OSError, http.client.HTTPException, RuntimeError):
                if attempt == 79:
                    raise
                time.sleep(0.1)  # a worker killed mid-answer: ask again, as a phone would
                continue
            if status != 303:
                raise RuntimeError(f"could not sign in: HTTP {status}")
            return

    def request(
        self, path: str, data: dict[str, str] | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, str, float]:
        """(status, body, milliseconds); for a redirect the body is where it leads."""
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body, headers=headers or {})
        started = time.perf_counter()
        try:
            with self.opener.open(request, timeout=30) as answer:
                text = answer.read().decode()
                status = answer.status
        except urllib.error.HTTPError as refused:
            status, text = refused.code, refused.read().decode(errors="replace")
            if status in (301, 302, 303):
                text = refused.headers.get("Location", "")
        return status, text, (time.perf_counter() - started) * 1000


def hidden_fields(page: str) -> dict[str, str]:
    """name -> value of every hidden input of a page."""
    fields = {}
    for tag in INPUT.findall(page):
        attributes = dict(ATTRIBUTE.findall(tag))
        if attributes.get("type") == "hidden" and "name" in attributes:
            fields[attributes["name"]] = attributes.get("value", "")
    return fields


def create_games(phone: Phone, count: int, rules: str = "twelve-step") -> list[int]:
    """Start games through the web form, as a family would."""
    games = []
    for number in range(count):
        status, page, _ = phone.request("/games/new")
        token = _csrf(page)
        names = [f"Load{number}-{seat}" for seat in range(4)]
        form = {"csrf_token": token, "rules": rules, "first_dealer": "0", "start": "1"}
        form.update({f"players-{seat}": name for seat, name in enumerate(names)})
        status, location, _ = phone.request("/games/new", form)
        if status != 302:
            raise RuntimeError(f"could not start a game: HTTP {status}")
        games.append(int(re.search(r"/games/(\d+)", location).group(1)))  # type: ignore[union-attr]
    return games


def _csrf(page: str) -> str:
    match = CSRF.search(page)
    if not match:
        raise RuntimeError("no CSRF token on the page")
    return match.group(1)


def scorer(phone: Phone, games: list[int], stop: threading.Event, tally: Tally, seed: int) -> None:
    """Save round after round, moving to the next game when one ends."""
    chance = random.Random(seed)
    queue = list(games)
    while queue and not stop.is_set():
        game = queue[0]
        try:
            status, page, _ = phone.request(f"/games/{game}/rounds/new")
            if status == 302:  # the game is over
                queue.pop(0)
                continue
            if status != 200:
                raise RuntimeError(f"round form: HTTP {status}")
            hidden = hidden_fields(page)
            went_out = chance.randrange(4)
            form = {
                "csrf_token": _csrf(page),
                "number": hidden.get("number", ""),
                "token": hidden.get("token", ""),
                "version": hidden.get("version", ""),
                "went_out": str(went_out),
                "save": "1",
            }
            for seat in range(4):
                if seat == went_out:
                    form[f"hands-{seat}-made"] = "y"
                else:
                    form[f"hands-{seat}-cards"] = chance.choice(LEFTOVERS)
            status, _, elapsed = phone.request(f"/games/{game}/rounds/new", form)
        except (OSError, http.client.HTTPException, RuntimeError) as error:
            with tally.lock:
                tally.interrupted += 1
                if isinstance(error, RuntimeError):
                    tally.errors.append(f"scorer: {error}")
            time.sleep(0.05)
            continue
        with tally.lock:
            tally.save_ms.append(elapsed)
            if status == 302:
                tally.saves += 1
                tally.stored_tokens.add(form["token"])
            elif status == 409:
                tally.conflicts += 1
            else:
                tally.errors.append(f"save answered HTTP {status}")


def poller(phone: Phone, games: list[int], stop: threading.Event, tally: Tally, seed: int) -> None:
    """A phone with the scoreboard open: poll often, reload the whole page now and then."""
    chance = random.Random(seed)
    game = chance.choice(games)
    version = ""
    while not stop.is_set():
        try:
            if chance.random() < 0.2 or not version:
                status, page, elapsed = phone.request(f"/games/{game}")
                match = re.search(r"/games/\d+/board\?v=(\d+)", page)
                version = match.group(1) if match else ""
            else:
                status, page, elapsed = phone.request(
                    f"/games/{game}/board?v={version}", headers={"HX-Request": "true"}
                )
                match = re.search(r"/games/\d+/board\?v=(\d+)", page)
                if status == 200 and match:
                    version = match.group(1)
        except (OSError, http.client.HTTPException):
            # A server killed mid-answer cuts the connection or the body short.
            with tally.lock:
                tally.interrupted += 1
            time.sleep(0.05)
            continue
        with tally.lock:
            tally.poll_ms.append(elapsed)
            if status not in (200, 204):
                tally.errors.append(f"poll answered HTTP {status}")
        time.sleep(0.05)


def audit(database_uri: str, stored_tokens: set[str]) -> dict[str, int]:
    """Count, in the database itself, what a save promised and what is really there."""
    from sqlalchemy import func, select

    from scorekeeper import create_app
    from scorekeeper.extensions import db
    from scorekeeper.games.transfer import export_game
    from scorekeeper.models import Game, Hand, Round, Seat

    app = create_app({"SQLALCHEMY_DATABASE_URI": database_uri, "SECRET_KEY": "audit"})
    with app.app_context():
        tokens = set(db.session.scalars(select(Round.submission)).all())
        lost = len(stored_tokens - tokens)
        rounds = db.session.scalar(select(func.count()).select_from(Round)) or 0
        hands = db.session.scalar(select(func.count()).select_from(Hand)) or 0
        seats_per_game = dict(
            db.session.execute(select(Seat.game_id, func.count()).group_by(Seat.game_id)).all()
        )
        incomplete = 0
        for game_id, _number, held in db.session.execute(
            select(Round.game_id, Round.number, func.count(Hand.id))
            .join(Hand, Hand.round_id == Round.id, isouter=True)
            .group_by(Round.id, Round.game_id, Round.number)
        ):
            if held != seats_per_game.get(game_id):
                incomplete += 1
        # Standings stored must be what the rounds add up to (no half-applied save).
        mismatched = 0
        for game in db.session.scalars(select(Game)):
            totals = {seat.player.name: seat.total for seat in game.seats}
            document = export_game(game)
            recomputed = {row["player"]: row["total"] for row in document["standings"]}
            summed: dict[str, int] = dict.fromkeys(totals, 0)
            for played in document["rounds"]:
                for name, hand in played["players"].items():
                    summed[name] += hand["points"]
            if (
                totals != recomputed
                or totals != summed
                or game.round_count != len(document["rounds"])
            ):
                mismatched += 1
        db.engine.dispose()
    return {
        "rounds_stored": rounds,
        "hands_stored": hands,
        "rounds_lost": lost,
        "incomplete_rounds": incomplete,
        "games_out_of_step": mismatched,
    }


def _first_save_of(tally: Tally, within: float) -> None:
    """Wait until one more save is answered stored, or ``within`` seconds have passed."""
    with tally.lock:
        before = tally.saves
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        with tally.lock:
            if tally.saves > before:
                return
        time.sleep(0.02)


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@contextmanager
def database(kind: str, folder: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{folder / 'scorekeeper.db'}"
        return
    from tests.postgres import running_server

    with running_server() as uri:
        if uri is None:
            raise SystemExit("no PostgreSQL server: apt-get install postgresql")
        yield uri


def run(
    kind: str = "sqlite",
    seconds: float = 20,
    scorers: int = 8,
    pollers: int = 24,
    kill_every: float | None = None,
    threads: int = 8,
    kills: int = 0,
) -> dict[str, Any]:
    """Phones score and poll for ``seconds``; with ``kill_every``, the server is killed and
    started again that often (a random moment around it), and the run goes on past
    ``seconds`` until it has been killed ``kills`` times (a busy machine starts it slowly)."""
    with (
        tempfile.TemporaryDirectory(prefix="scorekeeper-load-") as folder,
        database(kind, Path(folder)) as uri,
    ):
        environment = {
            "SCOREKEEPER_INSTANCE_PATH": folder,
            "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": uri,
            "SCOREKEEPER_SECRET_KEY": "load-run",
            # Every phone signs in once; the run measures saving rounds, not Argon2.
            "SCOREKEEPER_PASSWORD_TIME_COST": "1",
            "SCOREKEEPER_PASSWORD_MEMORY_KIB": "1024",
        }
        (ROOT / "bench" / "results").mkdir(exist_ok=True)
        make_account(environment)
        with served(environment=environment, threads=threads, ready_path="/healthz") as server:
            base = server.base
            setup = Phone(base)
            games = create_games(setup, scorers * 3)
            tally = Tally()
            stop = threading.Event()
            # Every phone signs in before the first kill: a busy machine's slow restarts
            # otherwise left a phone outside for all of a short run, and it never saved.
            phones = [
                threading.Thread(
                    target=scorer, args=(Phone(base), games[n::scorers], stop, tally, n)
                )
                for n in range(scorers)
            ] + [
                threading.Thread(target=poller, args=(Phone(base), games, stop, tally, 1000 + n))
                for n in range(pollers)
            ]
            ends = time.monotonic() + seconds
            for phone in phones:
                phone.start()
            killed = 0
            # Saves answered stored before a kill: what the audit checks survived one.
            stored_before_a_kill = 0
            try:
                if kill_every:
                    chance = random.Random(7)
                    # Past ``seconds`` until killed ``kills`` times after a stored save (on a
                    # busy machine saves are slow to come), and at most two minutes more.
                    while time.monotonic() < ends or (
                        (killed < kills or not stored_before_a_kill)
                        and time.monotonic() < ends + 120
                    ):
                        if killed % 2:
                            # Every other server lives until it has stored a save: a busy
                            # machine's fresh server (templates not compiled yet) is slower
                            # than ``kill_every``, and a run of cold kills stored nothing.
                            _first_save_of(tally, within=30)
                        # A random moment, so the kill lands anywhere in a save.
                        time.sleep(kill_every * chance.uniform(0.5, 1.5))
                        with tally.lock:
                            stored_before_a_kill = tally.saves
                        server.kill()
                        killed += 1
                        server.start()
                time.sleep(max(0.0, ends - time.monotonic()))
            finally:
                stop.set()
                for phone in phones:
                    phone.join()
        report = {
            "database": kind,
            "seconds": seconds,
            "scorers": scorers,
            "pollers": pollers,
            "server_kills": killed,
            "saves_stored_before_a_kill": stored_before_a_kill,
            "saves_answered_stored": tally.saves,
            "saves_refused_as_stale": tally.conflicts,
            "requests_cut_by_a_kill": tally.interrupted,
            "errors": len(tally.errors),
            "error_samples": sorted(set(tally.errors))[:5],
            "save_p50_ms": round(statistics.median(tally.save_ms), 1) if tally.save_ms else None,
            "save_p99_ms": round(_percentile(tally.save_ms, 0.99), 1),
            "poll_p50_ms": round(statistics.median(tally.poll_ms), 1) if tally.poll_ms else None,
            "poll_p99_ms": round(_percentile(tally.poll_ms, 0.99), 1),
            "polls": len(tally.poll_ms),
        }
        report.update(audit(uri, tally.stored_tokens))
        return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--scorers", type=int, default=8)
    parser.add_argument("--pollers", type=int, default=24)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--kill-server", type=float, metavar="SECONDS", default=None)
    arguments = parser.parse_args()
    report = run(
        arguments.database,
        arguments.seconds,
        arguments.scorers,
        arguments.pollers,
        arguments.kill_server,
        arguments.threads,
    )
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
