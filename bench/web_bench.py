"""The web benchmark: pages served by ``flask serve``, measured against a bare Flask endpoint.

    .venv/bin/python -m bench.web_bench [--seconds 10] [--connections 20] [--games 10000]

It fills a fresh SQLite database with ``--games`` generated games (bench/history.py) and
one 4-player game of 30 rounds, serves the app and bench/bare_app.py with the same waitress
settings, and drives each with wrk (Debian package ``wrk``) over loopback, as a phone would
ask (``Accept-Encoding: gzip``). It reports requests per second, the ratio to the bare
endpoint, p50 and p99 latency, SQL queries per page and bytes per page (as sent, compressed),
the bytes of a first visit (page, stylesheet, scripts, htmx) and of a later page with the
static files cached, and the rules engine's referee timings. Figures land in
``bench/results/web.json`` too. The machine is shared and noisy: compare ratios and medians.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from sqlalchemy import event, select

from .serving import ROOT, Load, served, wrk

# The bare endpoint under the very settings of ``flask serve`` (bench/bare_app.py), so that the
# ratio measures the app and nothing else.
BARE_COMMAND = [
    sys.executable,
    "-m",
    "bench.bare_app",
    "--port",
    "{port}",
    "--threads",
    "{threads}",
]
# What Chromium sends over plain HTTP (brotli only over HTTPS).
GZIP = {"Accept-Encoding": "gzip, deflate"}


def thirty_round_game() -> dict[str, Any]:
    """A 4-player 12-Step game, 30 rounds in, nobody near the end."""
    names = ["Ann", "Ben", "Cy", "Dee"]
    chance = random.Random(30)
    rounds = []
    for number in range(30):
        out = names[number % 4]
        rounds.append(
            {
                "went_out": out,
                "players": {
                    name: {"made_contract": True, "cards": ""}
                    if name == out
                    else {"made_contract": False, "cards": chance.choice(["K 5 9", "JK A", "Q 3"])}
                    for name in names
                },
            }
        )
    return {
        "format": "scorekeeper-game",
        "version": 1,
        "rules": "twelve-step",
        "players": names,
        "rounds": rounds,
    }


def prepare(database: Path, games: int) -> tuple[int, int]:
    """Fill the database; return the 30-round game's id and its scoreboard version."""
    from bench.history import fill
    from scorekeeper import create_app
    from scorekeeper.extensions import db
    from scorekeeper.games.transfer import import_game
    from scorekeeper.models import Game

    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}", "SECRET_KEY": "b"})
    with app.app_context():
        began = time.perf_counter()
        fill(1, games)
        print(f"generated {games} games in {time.perf_counter() - began:.0f} s", file=sys.stderr)
        game = import_game(thirty_round_game())
        version = db.session.scalar(select(Game.version).where(Game.id == game.id))
        game_id = game.id
        db.engine.dispose()
    return game_id, int(version or 0)


def page_costs(database: Path, urls: dict[str, str]) -> dict[str, dict[str, int]]:
    """SQL queries and bytes of each page, asked in-process the way a phone asks."""
    from scorekeeper import create_app
    from scorekeeper.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}", "SECRET_KEY": "b"})
    client = app.test_client()
    costs = {}
    with app.app_context():
        engine = db.engine
    for name, url in urls.items():
        headers = dict(GZIP)
        if "board?v=" in url:
            headers["HX-Request"] = "true"
        client.get(url, headers=headers)  # warm caches
        statements: list[str] = []

        def count(*args: object, statements: list[str] = statements) -> None:
            statements.append("")

        event.listen(engine, "before_cursor_execute", count)
        answer = client.get(url, headers=headers)
        event.remove(engine, "before_cursor_execute", count)
        costs[name] = {
            "status": answer.status_code,
            "queries": len(statements),
            "bytes": len(answer.get_data()),
            "bytes_uncompressed": len(
                client.get(url, headers={**headers, "Accept-Encoding": ""}).get_data()
            ),
        }
    page = client.get(urls["scoreboard"], headers=GZIP).get_data(as_text=False)
    text = client.get(urls["scoreboard"]).get_data(as_text=True)
    static = re.findall(r'(?:href|src)="(/static/[^"]+)"', text)
    static_bytes = sum(len(client.get(url, headers=GZIP).get_data()) for url in static)
    costs["first_visit"] = {"bytes": len(page) + static_bytes, "files": len(static) + 1}
    costs["later_page"] = {"bytes": len(page), "files": 1}
    with app.app_context():
        db.engine.dispose()
    return costs


def referee_timings() -> str:
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "rules_bench.py"), "--quick"],
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=20)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3, help="measurements a page (medians)")
    arguments = parser.parse_args()
    (ROOT / "bench" / "results").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as folder:
        database = Path(folder) / "scorekeeper.db"
        game_id, version = prepare(database, arguments.games)
        urls = {
            "scoreboard": f"/games/{game_id}",
            "scoreboard_poll_unchanged": f"/games/{game_id}/board?v={version}",
            "history": "/history",
            "players": "/players",
            "records": "/records",
        }
        under_load = ("scoreboard", "scoreboard_poll_unchanged", "history")
        costs = page_costs(database, urls)
        settings = {"seconds": arguments.seconds, "connections": arguments.connections}
        environment = {
            "SCOREKEEPER_INSTANCE_PATH": folder,
            "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "SCOREKEEPER_SECRET_KEY": "bench",
        }
        # This machine is shared and noisy (the bare endpoint alone swings two-fold from one
        # run to the next), so both servers run side by side, each page is measured right
        # after the bare endpoint, several rounds over, and the medians are reported.
        rounds: dict[str, list[tuple[Load, Load]]] = {}
        with (
            served(BARE_COMMAND) as bare_server,
            served(environment=environment, ready_path="/healthz") as app_server,
        ):
            bare, base = bare_server.base, app_server.base
            # A phone at the table has been here before: it sends its session cookie.
            with urllib.request.urlopen(base + urls["scoreboard"]) as first:
                cookie = first.headers["Set-Cookie"].split(";")[0]
            # Warm every worker (imports, drawn boards, page cache) before measuring anything.
            wrk(bare + "/", headers=GZIP, seconds=2)
            for url in urls.values():
                wrk(base + url, headers={**GZIP, "Cookie": cookie}, seconds=2)
            for _ in range(arguments.rounds):
                for name in under_load:
                    headers = {**GZIP, "Cookie": cookie}
                    if "board?v=" in urls[name]:
                        headers["HX-Request"] = "true"
                    yardstick = wrk(bare + "/", headers=GZIP, **settings)
                    measured = wrk(base + urls[name], headers=headers, **settings)
                    rounds.setdefault(name, []).append((yardstick, measured))
    rows = []
    for name, pairs in rounds.items():
        cost = costs.get(name, {})
        median = statistics.median
        rows.append(
            {
                "page": name,
                "bare_requests_per_second": round(median(b.requests_per_second for b, _ in pairs)),
                "requests_per_second": round(median(m.requests_per_second for _, m in pairs)),
                "ratio_to_bare": round(
                    median(m.requests_per_second / b.requests_per_second for b, m in pairs), 2
                ),
                "p50_ms": round(median(m.p50_ms for _, m in pairs), 2),
                "p99_ms": round(median(m.p99_ms for _, m in pairs), 2),
                "errors": sum(m.errors for _, m in pairs),
                "queries": cost.get("queries"),
                "bytes": cost.get("bytes"),
            }
        )
    # Measured one request at a time by bench/history.py; here only their weight.
    for name in urls:
        if name not in rounds:
            cost = costs[name]
            rows.append({"page": name, "queries": cost["queries"], "bytes": cost["bytes"]})
    print(f"\n{arguments.connections} connections, {arguments.seconds} s a measurement, ", end="")
    print(f"medians of {arguments.rounds} rounds, each page measured right after the bare endpoint")
    print("both served by waitress (flask serve settings), 8 threads, on loopback\n")
    print(
        "| page | bare req/s | req/s | ratio to bare | p50 ms | p99 ms | errors "
        "| SQL queries | bytes (gzip) |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    columns = (
        "bare_requests_per_second",
        "requests_per_second",
        "ratio_to_bare",
        "p50_ms",
        "p99_ms",
        "errors",
    )
    for row in rows:
        cells = [row["page"], *(row.get(column, "") for column in columns)]
        cells += [row.get("queries", ""), row.get("bytes", "")]
        print("| " + " | ".join(str(cell) for cell in cells) + " |")
    first, later = costs["first_visit"], costs["later_page"]
    print(f"\nfirst visit: {first['bytes']} bytes in {first['files']} files; ", end="")
    print(f"a later page with the static files cached: {later['bytes']} bytes\n")
    timings = referee_timings()
    print(timings)
    (ROOT / "bench" / "results" / "web.json").write_text(
        json.dumps({"rows": rows, "costs": costs, "referee": timings}, indent=2)
    )


if __name__ == "__main__":
    main()
