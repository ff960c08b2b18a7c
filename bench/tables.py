"""100 tables at once: locust (headless) against ``flask serve`` on SQLite and on PostgreSQL.

    .venv/bin/pip install -e '.[bench]'          # locust
    .venv/bin/python -m bench.tables [--tables 100] [--seconds 60] [--database both] [--processes 2]
                                     [--poll-seconds 1]

For each database it makes a fresh one (a throwaway PostgreSQL server on loopback as the test
suite does, ``apt-get install postgresql``), a household with a scorer's account, and
``--tables`` 4-player games each with a table link; serves the app as it ships (waitress, 8
threads); and runs bench/locustfile.py headless with 4 phones a table: each polls its board
every ``--poll-seconds`` (1, the app's own pace; 3 was the app's before issue 52), the
scorer's phone saves a round a minute, the others came in by the table link.
The phones sit down over the first ``--ramp`` seconds (signing in, opening the link and the
page); the goal's latencies are those of the play that follows once the last phone has sat
down (``--seconds``, plus what the ramp left over), while failures are counted over the whole
run, and locust's own figures for the whole run, sitting down included, are printed too.
Afterwards it audits the database (every round answered as saved is there, whole, and every
game's standings add up) and prints p50 and p99 per kind of request and overall, failures,
and the goal of issue 15: p99 < 100 ms, zero errors; the server's CPU a second over the play
(``/proc``: the serving process and those under it, from the end of the ramp to the end);
and each round's reach, from the scorer's tap of Save to each other phone of the table holding
the new board and to the last of the three (no latency added: loopback).
Locust runs on the same machine as the server and takes its own share of the CPU.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .corrections import cpu_seconds
from .load import audit, database
from .serving import ROOT, served

ACCOUNT = ("table-scorer", "table-scorer-password")
SECRET = "tables-run"
P99_GOAL_MS = 100.0
# Time for the last phones to finish sitting down after the last one was started.
SETTLE_SECONDS = 15


def prepare(uri: str, instance: str, tables: int) -> dict[str, Any]:
    """The household, the scorer, and the games with their table links."""
    from scorekeeper import create_app, scope
    from scorekeeper.accounts import links
    from scorekeeper.accounts import services as accounts
    from scorekeeper.extensions import db
    from scorekeeper.games.services import start_game
    from scorekeeper.house_rules import load
    from scorekeeper.models import LinkKind

    os.environ["SCOREKEEPER_INSTANCE_PATH"] = instance
    # The daily backup would write into the run's folder as it is removed (this app's, the
    # server's and the audit's).
    os.environ["SCOREKEEPER_DAILY_BACKUPS"] = "false"
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": uri,
            "SECRET_KEY": SECRET,
            "PASSWORD_TIME_COST": 1,
            "PASSWORD_MEMORY_KIB": 1024,
        }
    )
    plan: dict[str, Any] = {"account": list(ACCOUNT), "tables": []}
    with app.app_context():
        household = accounts.add_household("Tables")
        accounts.add_user(ACCOUNT[0], ACCOUNT[1], household, "scorer")
        with scope.household(household.id):
            for number in range(tables):
                names = [f"T{number}-{seat}" for seat in range(4)]
                game = start_game(load("twelve-step"), names)
                _, token = links.make_link(LinkKind.TABLE, ACCOUNT[0], game=game)
                plan["tables"].append({"game": game.id, "token": token})
        db.engine.dispose()
    return plan


def run(
    kind: str,
    tables: int,
    seconds: int,
    ramp: int,
    threads: int,
    processes: int = 1,
    poll_seconds: float = 1.0,
) -> dict[str, Any]:
    locust = shutil.which("locust", path=str(Path(sys.executable).parent)) or shutil.which("locust")
    if locust is None:
        raise SystemExit("the run needs locust: pip install -e '.[bench]'")
    with (
        tempfile.TemporaryDirectory(prefix="scorekeeper-tables-") as folder,
        database(kind, Path(folder)) as uri,
    ):
        plan = prepare(uri, folder, tables)
        plan_file = Path(folder) / "tables.json"
        plan_file.write_text(json.dumps(plan))
        saved_file = Path(folder) / "saved.json"
        environment = {
            "SCOREKEEPER_INSTANCE_PATH": folder,
            "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": uri,
            "SCOREKEEPER_SECRET_KEY": SECRET,
            "SCOREKEEPER_PASSWORD_TIME_COST": "1",
            "SCOREKEEPER_PASSWORD_MEMORY_KIB": "1024",
            "SCOREKEEPER_DAILY_BACKUPS": "false",
        }
        phones = tables * 4
        with served(
            environment=environment, threads=threads, processes=processes, ready_path="/healthz"
        ) as server:
            assert server.process is not None
            phones_run = subprocess.Popen(
                [
                    locust,
                    "-f",
                    str(ROOT / "bench" / "locustfile.py"),
                    "--headless",
                    "--users",
                    str(phones),
                    "--spawn-rate",
                    str(max(1, phones // max(1, ramp))),
                    "--run-time",
                    f"{seconds + ramp + SETTLE_SECONDS}s",
                    "--host",
                    server.base,
                    "--csv",
                    str(Path(folder) / "locust"),
                    "--only-summary",
                    "--loglevel",
                    "WARNING",
                    "--stop-timeout",
                    "10",
                ],
                env={
                    **os.environ,
                    "SCOREKEEPER_TABLES": str(plan_file),
                    "SCOREKEEPER_SAVED": str(saved_file),
                    "SCOREKEEPER_POLL_SECONDS": str(poll_seconds),
                },
                cwd=ROOT,
            )
            # The server's CPU over the play: from when the last phones have sat down.
            time.sleep(ramp + SETTLE_SECONDS)
            cpu, began = cpu_seconds(server.process.pid), time.monotonic()
            phones_run.wait()
            cpu_a_second = (cpu_seconds(server.process.pid) - cpu) / (time.monotonic() - began)
        with open(Path(folder) / "locust_stats.csv") as stats:
            rows = list(csv.DictReader(stats))
        failures_file = Path(folder) / "locust_failures.csv"
        failures = []
        if failures_file.exists():
            with open(failures_file) as held:
                failures = list(csv.DictReader(held))
        counted = json.loads(saved_file.read_text()) if saved_file.exists() else {}
        saved = set(counted.get("saved", []))
        report = {
            "database": kind,
            "tables": tables,
            "phones": phones,
            "processes": processes,
            "seconds": seconds + ramp + SETTLE_SECONDS,
            "steady": counted.get("steady", {}),
            "seated_for": counted.get("seated", {}).get("for", 0.0),
            "rows": rows,
            "failures": failures,
            "requests_in_all": counted.get("requests", 0),
            "failures_in_all": counted.get("failures", -1),
            "saves_answered": len(saved),
            "poll_seconds": poll_seconds,
            "cpu_a_second": cpu_a_second,
            "reach": counted.get("reach", []),
            "load_average": " ".join(Path("/proc/loadavg").read_text().split()[:3]),
        }
        report.update(audit(uri, saved))
        return report


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def print_report(report: dict[str, Any]) -> None:
    rows = report["rows"]
    total = next(row for row in rows if row["Name"] == "Aggregated")
    # Every failed request of the run, sitting down included (-1: locust wrote no count).
    errors = report["failures_in_all"]
    if errors < 0:
        errors = int(total["Failure Count"]) or 1
    print(
        f"\n{report['database']}: {report['tables']} tables, {report['phones']} phones, "
        f"{report['processes']} server process(es), "
        f"{report['seconds']} s, {report['requests_in_all']} requests in all; "
        f"rounds answered as saved: {report['saves_answered']}, "
        f"stored: {report['rounds_stored']}, lost: {report['rounds_lost']}, "
        f"incomplete: {report['incomplete_rounds']}, games out of step: "
        f"{report['games_out_of_step']}\n"
    )
    print(f"Once every phone had sat down ({report['seated_for']:.0f} s of play):\n")
    print("| request | count | req/s | p50 ms | p99 ms | max ms |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    steady: dict[str, list[float]] = report["steady"]
    every = [time for times in steady.values() for time in times]
    seconds = max(report["seated_for"], 1e-9)
    for name, times in [*sorted(steady.items()), ("every request", every)]:
        print(
            f"| {name} | {len(times)} | {len(times) / seconds:.1f} | "
            f"{_percentile(times, 0.5):.0f} | {_percentile(times, 0.99):.0f} | "
            f"{max(times, default=0):.0f} |"
        )
    print(
        f"\nThe whole run, sitting down included (locust): {total['Request Count']} requests, "
        f"p50 {total['50%']} ms, p99 {total['99%']} ms, max "
        f"{float(total['Max Response Time']):.0f} ms."
    )
    p99 = _percentile(every, 0.99) if every else float("inf")
    broken = errors + report["rounds_lost"] + report["incomplete_rounds"]
    broken += report["games_out_of_step"]
    print(
        f"\n| figure | measured | goal | met |\n| --- | ---: | ---: | --- |\n"
        f"| p99, every request once seated | {p99:.0f} ms | < {P99_GOAL_MS:.0f} ms | "
        f"{'yes' if p99 < P99_GOAL_MS else 'NO'} |\n"
        f"| errors (failed requests of the whole run, rounds lost or half-stored) | {broken} | "
        f"0 | {'yes' if broken == 0 else 'NO'} |"
    )
    reach: list[list[float]] = report["reach"]
    each = [took for _game, _tap, took in reach]
    last: dict[tuple[float, float], float] = {}
    for game, tap, took in reach:
        last[(game, tap)] = max(last.get((game, tap), 0.0), took)
    every_phone = list(last.values())
    print(
        f"\nPolls every {report['poll_seconds']:g} s. The server's CPU over the play: "
        f"{report['cpu_a_second']:.3f} s a second ({100 * report['cpu_a_second']:.1f}% of a core), "
        f"{1000 * report['cpu_a_second'] / report['tables']:.1f} ms a second a table; load "
        f"average at the end {report['load_average']}."
    )
    print(
        f"A round's reach, from the tap of Save ({len(every_phone)} rounds): each phone median "
        f"{_percentile(each, 0.5):.2f} s, p90 {_percentile(each, 0.9):.2f} s; on every phone "
        f"of the table (the last of the three) median {_percentile(every_phone, 0.5):.2f} s, "
        f"p90 {_percentile(every_phone, 0.9):.2f} s, worst {max(every_phone, default=0):.2f} s."
    )
    for failure in report["failures"][:5]:
        print(f"  failure: {failure.get('Name')}: {failure.get('Error')}", end="")
        print(f" x{failure.get('Occurrences')}")
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=int, default=60, help="after the ramp")
    parser.add_argument("--ramp", type=int, default=30, help="seconds the phones sit down over")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--processes", type=int, default=1, help="flask serve --processes")
    parser.add_argument(
        "--poll-seconds", type=float, default=1.0, help="each phone's poll (the app's: 1)"
    )
    arguments = parser.parse_args()
    kinds = ["sqlite", "postgresql"] if arguments.database == "both" else [arguments.database]
    (ROOT / "bench" / "results").mkdir(exist_ok=True)
    for kind in kinds:
        report = run(
            kind,
            arguments.tables,
            arguments.seconds,
            arguments.ramp,
            arguments.threads,
            arguments.processes,
            arguments.poll_seconds,
        )
        (ROOT / "bench" / "results" / f"tables-{kind}.json").write_text(
            json.dumps(report, indent=2)
        )
        print_report(report)


if __name__ == "__main__":
    main()
