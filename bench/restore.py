"""Benchmark of restoring a backup (run by hand, not by the test suite).

    .venv/bin/python -m bench.restore [--games 10000] [--database sqlite|postgresql|both]
                                      [--path cli|job|both]

Writes a backup of ``--games`` realistic games (4 to 6 players, 7 to 12 rounds with cards,
random but reproducible, each replayed through the rules engine's tally and written by the game
file's own writer, with a uid) to a file in the temporary folder, then restores it into an
empty database, once per database and path:

- ``cli``: ``flask history import FILE`` (its click command, run in-process by click's runner);
- ``job``: what the web restore's background thread runs (``history.restores.run``) on the
  saved upload.

Each restore runs in a fresh process, which reports its wall-clock seconds, its own CPU
seconds (on a machine busy with other work the wall clock says more about the others; the CPU
time does not count PostgreSQL's server) and its peak resident memory (``VmHWM``); PostgreSQL
is a throwaway server started in a temporary folder (``tests/postgres.py``). The table printed
at the end sets each figure beside the goal (issue 15: 10,000 games in 30 s or less, memory
flat).

``--phases`` adds, per restore, the wall clock and the CPU of each phase (checking the lines,
storing the batches, the kept statistics' rebuild, the ratings' rebuild; the CPU of the thread
that ran it) and, on PostgreSQL, the CPU the server's backends of the bench's database used (read
from ``/proc``: the server is local); ``--profile FILE`` writes a cProfile of the restore.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOAL_SECONDS = 30.0
GOAL_GAMES = 10_000
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Joe", "Kim", "Lou"]
# Presets whose games last 7 to 12 rounds (the contract follows the round number).
RULES = ("twelve-step", "contract-rummy", "bellevue", "russian-rummy")


def write_backup(path: Path, games: int, seed: int = 15) -> None:
    """``games`` game documents, one per line, as ``history export`` writes them."""
    from bench.history import play_rounds
    from scorekeeper.games.gamefile_out import write_game_file
    from scorekeeper.games.tally import tally_game
    from scorekeeper.rules import get_ruleset

    rng = random.Random(seed)
    rulesets = {slug: get_ruleset(slug) for slug in RULES}
    start = datetime(2015, 1, 1, 19, tzinfo=UTC)
    written = 0
    with path.open("w", encoding="utf-8") as out:
        while written < games:
            rules = rulesets[rng.choice(RULES)]
            count = rng.randint(4, 6)
            if rules.max_players is not None and count > rules.max_players:
                continue
            entries = play_rounds(rules, count, rng)
            if not 7 <= len(entries) <= 12:
                continue
            names = rng.sample(NAMES, count)
            tally = tally_game(rules, names, 0, entries)
            if tally.problems:
                raise SystemExit(f"a generated game was refused: {tally.problems[0].message}")
            document = write_game_file(
                tally,
                rules.to_dict(),
                started=start + timedelta(hours=written * 9, minutes=rng.randrange(120)),
                game_id=written + 1,
                exported=start,
                uid=f"bench-{seed}-{written:06d}",
            )
            out.write(json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n")
            written += 1


def peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Phases:
    """Wall clock and thread CPU of each phase of a restore, by wrapping the functions that do
    them (a phase run inside another is counted in both)."""

    def __init__(self) -> None:
        self.seconds: dict[str, list[float]] = {}

    def wrap(self, owner: Any, name: str, phase: str) -> None:
        function = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                kept = self.seconds.setdefault(phase, [0.0, 0.0])
                kept[0] += time.perf_counter() - wall
                kept[1] += time.thread_time() - cpu

        setattr(owner, name, timed)


def server_cpu_seconds(engine: Any) -> float | None:
    """CPU used so far by the live backends of the engine's PostgreSQL database (local)."""
    from sqlalchemy import text

    if engine.dialect.name != "postgresql":
        return None
    with engine.connect() as connection:
        pids = connection.execute(
            text("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
        ).scalars()
        total = 0
        for pid in pids:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                return None
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def child(
    uri: str, path: str, backup: Path, phases: bool = False, profile: str | None = None
) -> dict[str, Any]:
    """One restore in this (fresh) process; its figures."""
    from sqlalchemy import func, select

    from scorekeeper import create_app, scope
    from scorekeeper.accounts import services
    from scorekeeper.extensions import db
    from scorekeeper.history import restores
    from scorekeeper.models import Game, RestoreJob

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": uri,
            "SECRET_KEY": "bench",
            "RESTORE_IN_BACKGROUND": False,
        }
    )
    with app.app_context():
        household = services.add_household("Family")
        household_id = household.id
        db.session.remove()
    timer = Phases()
    if phases:
        from scorekeeper.history import backup as backup_module
        from scorekeeper.history import ratings, stats

        timer.wrap(backup_module, "_read_line", "check")
        timer.wrap(backup_module, "store_game_files", "store")
        timer.wrap(stats, "rebuild", "statistics")
        timer.wrap(ratings, "rebuild", "ratings")
    with app.app_context():
        server_before = server_cpu_seconds(db.engine) if phases else None
    profiler = cProfile.Profile() if profile else None
    before = peak_rss_mb()
    started = time.perf_counter()
    cpu = time.process_time()
    if profiler is not None:
        profiler.enable()
    if path == "cli":
        result = app.test_cli_runner().invoke(args=["history", "import", str(backup)])
        summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
        if result.exit_code != 0:
            raise SystemExit(f"history import failed: {result.output[-2000:]}")
    else:
        with app.test_request_context(), scope.household(household_id):
            job = RestoreJob()
            db.session.add(job)
            db.session.commit()
            job_id = job.id
            upload = restores.upload_path(job_id)
            with backup.open("rb") as stream:
                job.total_lines = restores.save_upload(stream, upload)
            db.session.commit()
            db.session.remove()
        restores.run(app, job_id, household_id, "bench")
        with app.app_context(), scope.household(household_id):
            done = db.session.get(RestoreJob, job_id)
            assert done is not None
            summary = f"{done.status}: stored {done.stored}, already {done.already}"
            summary += f", refused {done.refused}"
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu
    if profiler is not None and profile:
        profiler.disable()
        profiler.dump_stats(profile)
    with app.app_context():
        stored = int(db.session.scalar(select(func.count(Game.id))) or 0)
        server_after = server_cpu_seconds(db.engine) if phases else None
    extra: dict[str, Any] = {}
    if phases:
        extra["phases"] = {
            name: [round(value, 2) for value in kept] for name, kept in timer.seconds.items()
        }
        if server_before is not None and server_after is not None:
            extra["server_cpu_seconds"] = round(server_after - server_before, 2)
    return {
        **extra,
        "seconds": seconds,
        "cpu_seconds": cpu,
        "rss_mb": peak_rss_mb(),
        "rss_before_mb": before,
        "stored": stored,
        "summary": summary,
    }


def run_one(uri: str, path: str, backup: Path, options: list[str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="restore-bench-") as instance:
        env = {**os.environ, "SCOREKEEPER_INSTANCE_PATH": instance}
        command = [sys.executable, "-m", "bench.restore", "--child", uri, path, str(backup)]
        done = subprocess.run(
            [*command, *options],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise SystemExit(f"the restore failed:\n{done.stderr[-3000:]}")
        return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def fresh_postgres(server_uri: str, name: str) -> str:
    from sqlalchemy import create_engine, text

    engine = create_engine(server_uri, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        connection.execute(text(f"CREATE DATABASE {name}"))
    engine.dispose()
    return server_uri.rsplit("/", 1)[0] + "/" + name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=GOAL_GAMES)
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--path", choices=("cli", "job", "both"), default="both")
    parser.add_argument("--phases", action="store_true", help="time each phase of a restore")
    parser.add_argument("--profile", metavar="FILE", help="write a cProfile of each restore")
    parser.add_argument("--child", nargs=3, metavar=("URI", "PATH", "FILE"), help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        uri, path, backup = arguments.child
        figures = child(uri, path, Path(backup), arguments.phases, arguments.profile)
        print(json.dumps(figures))
        return
    options = ["--phases"] * arguments.phases

    backup = Path(tempfile.gettempdir()) / f"scorekeeper-restore-bench-{arguments.games}.jsonl"
    if not backup.exists():
        began = time.perf_counter()
        write_backup(backup.with_suffix(".part"), arguments.games)
        backup.with_suffix(".part").rename(backup)
        print(f"wrote {backup} in {time.perf_counter() - began:.1f} s", file=sys.stderr)
    size = backup.stat().st_size / 1e6
    print(f"backup: {arguments.games} games, {size:.1f} MB ({backup})", file=sys.stderr)

    databases = ["sqlite", "postgresql"] if arguments.database == "both" else [arguments.database]
    paths = ["cli", "job"] if arguments.path == "both" else [arguments.path]
    goal = GOAL_SECONDS * arguments.games / GOAL_GAMES
    rows: list[tuple[str, str, dict[str, Any]]] = []

    from tests.postgres import running_server

    for database in databases:
        for path in paths:
            if database == "sqlite":
                with tempfile.TemporaryDirectory(prefix="restore-bench-db-") as folder:
                    profile = _profile_option(arguments.profile, database, path)
                    uri = f"sqlite:///{folder}/bench.db"
                    figures = run_one(uri, path, backup, options + profile)
            else:
                with running_server() as server:
                    if server is None:
                        print("no PostgreSQL server: skipped", file=sys.stderr)
                        continue
                    profile = _profile_option(arguments.profile, database, path)
                    uri = fresh_postgres(server, "restore_bench")
                    figures = run_one(uri, path, backup, options + profile)
            print(f"{database} {path}: {figures}", file=sys.stderr)
            rows.append((database, path, figures))

    print(
        "\n| database | path | games stored | seconds | app CPU s | server CPU s | goal | met | "
        "peak RSS MB (before the restore) |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | --- "
        "| ---: |"
    )
    for database, path, figures in rows:
        met = "yes" if figures["seconds"] <= goal else "**no**"
        print(
            f"| {database} | {path} | {figures['stored']} | {figures['seconds']:.1f} | "
            f"{figures.get('cpu_seconds', float('nan')):.1f} | "
            f"{figures.get('server_cpu_seconds', float('nan')):.1f} | "
            f"<= {goal:.0f} | {met} | {figures['rss_mb']:.0f} ({figures['rss_before_mb']:.0f}) |"
        )


def _profile_option(profile: str | None, database: str, path: str) -> list[str]:
    """``--profile FILE`` for one restore: FILE with the database and path before its suffix."""
    if not profile:
        return []
    named = Path(profile)
    return ["--profile", str(named.with_name(f"{named.stem}-{database}-{path}{named.suffix}"))]


if __name__ == "__main__":
    main()
