"""Shared by the benchmark and the load run: gunicorn on loopback, and wrk to measure it."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def gunicorn(
    app: str,
    environment: dict[str, str] | None = None,
    workers: int = 2,
    threads: int = 4,
    ready_path: str = "/",
) -> Iterator[str]:
    """Serve ``app`` (a gunicorn app spec) on a free loopback port; yield its base URL."""
    port = free_port()
    log = open(ROOT / "bench" / "results" / f"gunicorn-{port}.log", "w")  # noqa: SIM115
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--workers",
            str(workers),
            "--threads",
            str(threads),
            "--bind",
            f"127.0.0.1:{port}",
            "--chdir",
            str(ROOT),
            "--log-level",
            "warning",
            app,
        ],
        env={**os.environ, **(environment or {})},
        stdout=log,
        stderr=log,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(base + ready_path, timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError(f"gunicorn did not start: see {log.name}") from None
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@dataclass(frozen=True)
class Load:
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    errors: int


def _milliseconds(value: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", value).groups()  # type: ignore[union-attr]
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}[unit]


def wrk(
    url: str,
    connections: int = 20,
    seconds: int = 10,
    threads: int = 2,
    headers: dict[str, str] | None = None,
) -> Load:
    """Measure ``url`` with wrk (Debian package ``wrk``): rate, median and 99th percentile."""
    if shutil.which("wrk") is None:
        raise SystemExit("the benchmark needs wrk: apt-get install wrk")
    options = [f"-H{name}: {value}" for name, value in (headers or {}).items()]
    output = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", *options, url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]
    p50 = _milliseconds(re.search(r"\s50%\s+(\S+)", output).group(1))  # type: ignore[union-attr]
    p99 = _milliseconds(re.search(r"\s99%\s+(\S+)", output).group(1))  # type: ignore[union-attr]
    errors = 0
    for match in re.finditer(r"Non-2xx or 3xx responses: (\d+)|Socket errors: (.*)", output):
        if match.group(1):
            errors += int(match.group(1))
        else:
            errors += sum(int(n) for n in re.findall(r"\d+", match.group(2)))
    return Load(rate, p50, p99, errors)
