"""Shared by the benchmark, the load run and the tests: the app served as it ships (``flask
serve``, waitress) on loopback, and wrk to measure it."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
STARTUP_SECONDS = 180


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve_command(port: int, threads: int, processes: int = 1) -> list[str]:
    """The production command, ``flask --app scorekeeper serve``, on a loopback port."""
    return [
        sys.executable,
        "-m",
        "flask",
        "--app",
        "scorekeeper",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--threads",
        str(threads),
        "--processes",
        str(processes),
    ]


@dataclass
class Server:
    """One serving process on a fixed port, which can be killed and started again."""

    command: list[str]
    environment: dict[str, str]
    log: IO[str]
    ready_path: str
    base: str
    cwd: Path = ROOT
    process: subprocess.Popen[bytes] | None = field(default=None)

    def start(self) -> None:
        self.process = subprocess.Popen(
            self.command,
            env=self.environment,
            cwd=self.cwd,
            stdout=self.log,
            stderr=self.log,
        )
        # A generous bound, for a hang: importing and migrating has taken over 30 s on two cores
        # busy with the suite's parallel workers. A server that exits fails at once (below).
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            try:
                with urllib.request.urlopen(self.base + self.ready_path, timeout=2):
                    return
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError(f"the server did not start: see {self.log.name}") from None
                time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, whatever it was doing is cut off."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@contextmanager
def served(
    command: list[str] | None = None,
    environment: dict[str, str] | None = None,
    threads: int = 8,
    processes: int = 1,
    ready_path: str = "/",
    port: int | None = None,
    log_folder: Path | None = None,
    cwd: Path = ROOT,
) -> Iterator[Server]:
    """Run ``command`` (default: the app's ``serve``) on a free loopback port until the block
    ends; the command is built by ``serve_command`` unless given (then ``{port}`` and
    ``{threads}`` in it are filled in), and runs in ``cwd`` (default: the checkout)."""
    port = port or free_port()
    if command is None:
        command = serve_command(port, threads, processes)
    else:
        command = [part.format(port=port, threads=threads) for part in command]
    folder = log_folder or ROOT / "bench" / "results"
    folder.mkdir(parents=True, exist_ok=True)
    log = open(folder / f"serve-{port}.log", "w")  # noqa: SIM115 - closed below
    server = Server(
        command=command,
        # Serve the code under test, wherever the package happens to be installed from.
        environment={**os.environ, "PYTHONPATH": str(ROOT), **(environment or {})},
        log=log,
        ready_path=ready_path,
        base=f"http://127.0.0.1:{port}",
        cwd=cwd,
    )
    try:
        server.start()
        yield server
    finally:
        server.stop()
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
