"""Benchmark of corrections to a household's first game, served as the app ships (run by hand,
as ``python -m bench.history --scenario correction``; see ``bench/history.py``).

Household 1's first finished game of points-ranked rules is corrected through its round's edit
form so that its places change (``correct_first_game``): the player who came last goes out in
round 1 and the winner is caught with a heavy hand; the reverse correction gives the places
back. Timed, through ``flask serve`` (waitress) on loopback:

- one correction: the save, and the seconds until the ratings are up to date again;
- two more in a row (reverse, then correct again), each while the replay of the one before
  runs: each save;
- thirty alternating ones, one after the other: the saves' median and worst, their wall clock,
  the server's CPU over them;
- once the worker's replay after them is under way, saves correcting the household's latest
  game in the same way (up to five, each while the replay still runs): their median and worst;
- then the seconds and CPU until the ratings are up to date again, and one more such save of
  the latest game, with no replay running, to set beside them.

"Up to date" is read from the database (no mark left: ``RatingMark``), not from a page, so
that waiting costs the server nothing; the server's CPU is read from ``/proc`` (the serving
process and every process under it).
"""

from __future__ import annotations

import html
import os
import re
import statistics
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, select

from bench.history import ask, prepare
from bench.serving import served
from scorekeeper.derived import RatingMark
from scorekeeper.models import Game, Seat

STALE = "Ratings are being brought up to date"
STORM = 30
BESIDE = 5


def _first_game(uri: str, latest: bool = False) -> tuple[int, int, int]:
    """Household 1's first (or ``latest``) finished game of rules that rank by points alone
    (contract-rummy): its id, its winner's seat and its last place's seat."""
    engine = create_engine(uri)
    order = (Game.started.desc(), Game.id.desc()) if latest else (Game.started, Game.id)
    with engine.connect() as connection:
        game_id = connection.execute(
            select(Game.id)
            .where(
                Game.household_id == 1,
                Game.status == "finished",
                Game.rules_slug == "contract-rummy",
            )
            .order_by(*order)
            .limit(1)
        ).scalar()
        seats = connection.execute(
            select(Seat.position, Seat.place).where(Seat.game_id == game_id)
        ).all()
    engine.dispose()
    assert game_id is not None
    ranked = sorted(seats, key=lambda seat: (seat.place, seat.position))
    return int(game_id), ranked[0].position, ranked[-1].position


def _places(uri: str, game_id: int) -> list[int]:
    engine = create_engine(uri)
    with engine.connect() as connection:
        found = connection.execute(
            select(Seat.__table__.c.place)
            .where(Seat.__table__.c.game_id == game_id)
            .order_by(Seat.__table__.c.position)
        ).scalars()
        places = [int(place or 0) for place in found]
    engine.dispose()
    return places


_engines: dict[str, Any] = {}


def _marks(uri: str) -> list[int]:
    """The games the ratings' marks name (none: the ratings are up to date), read on one
    engine kept for the run: a poll must be quick to see a short replay under way."""
    engine = _engines.get(uri) or _engines.setdefault(uri, create_engine(uri))
    with engine.connect() as connection:
        return list(connection.execute(select(RatingMark.__table__.c.game_id)).scalars())


def _post_form(url: str, cookie: str, fields: dict[str, str]) -> tuple[float, int]:
    body = urllib.parse.urlencode(fields).encode()
    request = urllib.request.Request(url, data=body, headers={"Cookie": cookie})
    began = time.perf_counter()

    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *_: Any, **__: Any) -> None:
            return None

    opener = urllib.request.build_opener(Stay)
    try:
        with opener.open(request) as answer:
            status = answer.status
            answer.read()
    except urllib.error.HTTPError as answer:
        status = answer.code
    return (time.perf_counter() - began) * 1000, status


def correct_round_one(
    base: str, cookie: str, game_id: int, winner: int, last: int, places: list[int]
) -> tuple[float, int]:
    """Correct round 1 of ``game_id`` through its edit form so that its places change: the
    last goes out, the winner is caught with a heavy hand (swap ``winner`` and ``last`` for the
    reverse). Returns the save's time and status."""
    edit = f"{base}/games/{game_id}/rounds/1/edit"
    request = urllib.request.Request(edit, headers={"Cookie": cookie})
    with urllib.request.urlopen(request) as answer:
        page = answer.read().decode()
    fields = {}
    for tag in re.findall(r"<input[^>]*>", page):
        attributes = dict(re.findall(r'([\w-]+)="([^"]*)"', tag))
        if attributes.get("type") == "hidden" and "name" in attributes:
            fields[attributes["name"]] = html.unescape(attributes.get("value", ""))
    fields["went_out"] = str(last)
    for seat in range(len(places)):
        fields[f"hands-{seat}-cards"] = "" if seat == last else "K"
    fields[f"hands-{winner}-cards"] = "JK JK A A A A Q Q K K"
    fields[f"hands-{last}-made"] = "y"
    fields["save"] = "Save"
    return _post_form(edit, cookie, fields)


def cpu_seconds(pid: int) -> float:
    """The user and system CPU of process ``pid`` and every process under it, from ``/proc``
    (threads included; a process that ended is not counted)."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    used: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The command's name is in parentheses and may hold spaces: the fields follow it.
        fields = stat[stat.rindex(")") + 2 :].split()
        parents[int(entry.name)] = int(fields[1])
        used[int(entry.name)] = int(fields[11]) + int(fields[12])
    total, family = 0, {pid}
    for candidate in sorted(parents):
        ancestor, seen = candidate, 0
        while ancestor not in family and ancestor in parents and seen < 64:
            ancestor, seen = parents[ancestor], seen + 1
        if ancestor in family:
            family.add(candidate)
    for member in family:
        total += used.get(member, 0)
    return total / ticks


def _under_way(uri: str, first: int, seconds: float = 300) -> bool:
    """Whether the worker's replay is seen under way (its mark moved on past ``first``, the
    game corrected) before it ends; looked at for ``seconds`` at most."""
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        marks = _marks(uri)
        if not marks:
            return False
        if first not in marks:
            return True
        time.sleep(0.05)
    return False


def _until_up_to_date(uri: str) -> float:
    """Seconds until no mark is left (the database polled from here, not through a page)."""
    began = time.perf_counter()
    while _marks(uri):
        time.sleep(0.1)
    return time.perf_counter() - began


def correction(folder: Path, games: int, uri: str | None, reuse: bool) -> None:
    """The corrections above, through ``flask serve``; SQLite in ``folder``, or ``uri``."""
    database = uri or f"sqlite:///{folder / 'history-one.db'}"
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = str(folder)
    cookie, _busiest = prepare(uri or folder / "history-one.db", 1, games, reuse)
    game_id, winner, last = _first_game(database)
    environment = {
        "SCOREKEEPER_INSTANCE_PATH": str(folder),
        "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": database,
        "SCOREKEEPER_SECRET_KEY": "bench",
        # The saves alone: not beside the day's backup of the whole history, written on start.
        "SCOREKEEPER_DAILY_BACKUPS": "false",
    }
    rows: list[tuple[str, str]] = []
    changed: list[bool] = []
    with served(environment=environment, ready_path="/healthz") as server:
        assert server.process is not None
        pid = server.process.pid

        def correct(reverse: bool, game: tuple[int, int, int] = (game_id, winner, last)) -> float:
            corrected, best, worst = game
            was = _places(database, corrected)
            out, caught = (best, worst) if reverse else (worst, best)
            took, status = correct_round_one(server.base, cookie, corrected, caught, out, was)
            assert status in (302, 303), f"the save answered {status}"
            if corrected == game_id:
                changed.append(_places(database, corrected) != was)
            return took

        # A page of ratings drawn before, so the server is warm as at the table.
        ask(server.base + "/players", cookie)
        _until_up_to_date(database)
        rows.append(("one correction: the save", f"{correct(False):.0f} ms"))
        rows.append(("its ratings up to date again", f"{_until_up_to_date(database):.1f} s"))
        two = [correct(True), correct(False)]
        rows.append(("two more in a row (reverse, correct): the saves", _ms(two)))
        rows.append(("their ratings up to date again", f"{_until_up_to_date(database):.1f} s"))
        cpu, began = cpu_seconds(pid), time.perf_counter()
        storm = [correct(n % 2 == 0) for n in range(STORM)]
        storm_s, storm_cpu = time.perf_counter() - began, cpu_seconds(pid) - cpu
        rows.append(
            (
                f"{STORM} alternating: the saves, median / worst",
                f"{statistics.median(storm):.0f} / {max(storm):.0f} ms",
            )
        )
        rows.append(
            (f"{STORM} alternating: wall clock, server CPU", f"{storm_s:.1f} s, {storm_cpu:.1f} s")
        )
        began = time.perf_counter()
        latest = _first_game(database, latest=True)
        beside: list[float] = []
        if _under_way(database, game_id):
            while len(beside) < BESIDE:
                took = correct(len(beside) % 2 == 1, latest)
                if not _marks(database):
                    break
                beside.append(took)
        rows.append(
            (
                "saves of the latest game while the replay after them runs: median / worst",
                f"{statistics.median(beside):.0f} / {max(beside):.0f} ms ({len(beside)} saves)"
                if beside
                else "none: the replay was over first",
            )
        )
        settled = time.perf_counter() - began + _until_up_to_date(database)
        rows.append(
            (
                f"after the {STORM}: ratings up to date again, server CPU till then",
                f"{settled:.1f} s, {cpu_seconds(pid) - cpu - storm_cpu:.1f} s",
            )
        )
        alone = correct(len(beside) % 2 == 1, latest)
        _until_up_to_date(database)
        rows.append(("the same save of the latest game, no replay running", f"{alone:.0f} ms"))
    backend = "PostgreSQL" if uri else "SQLite"
    print(
        f"\ncorrection on {backend}: {games:,} games; game {game_id} (household 1's first "
        f"finished contract-rummy game) corrected {len(changed)} times"
        + ("" if all(changed) else " (SOME LEFT THE PLACES AS THEY WERE: not the figure asked)")
    )
    print("| what | figure |")
    print("| --- | ---: |")
    for what, figure in rows:
        print(f"| {what} | {figure} |")
    sys.stdout.flush()


def _ms(times: list[float]) -> str:
    return ", ".join(f"{took:.0f}" for took in times) + " ms"
