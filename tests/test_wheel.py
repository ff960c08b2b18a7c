"""The app as a wheel: built from a source distribution, installed into a fresh virtual
environment, it starts under ``flask serve`` far from any checkout and serves first-run setup,
its pages (one in Spanish, from the compiled catalogue the wheel carries) and its static files,
keeping its instance folder in the user's data folder.

The fresh environment gets only the wheel's own files: the dependencies are the suite's own,
reached through a ``.pth`` line, so nothing is downloaded and the wheel is built with the
suite's setuptools (no build isolation).
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from bench.serving import ROOT, served

pytestmark = pytest.mark.slow

SHIPPED = ("templates", "static")
# What a source distribution is made from; the rest of the checkout (tests, benchmarks, the
# virtual environment, local databases) stays behind.
LEFT_OUT = (".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache")
LEFT_OUT_FOLDERS = ("tests", "bench", "instance", "test-artifacts", "node_modules", ".hypothesis")


def run(command: list[str | Path], cwd: Path) -> str:
    finished = subprocess.run(
        [str(part) for part in command], cwd=cwd, capture_output=True, text=True, timeout=120
    )
    assert finished.returncode == 0, finished.stdout + finished.stderr
    return finished.stdout


def build_wheel(folder: Path) -> Path:
    """sdist, then a wheel from the sdist alone (as ``python -m build`` does): a file the sdist
    forgets is missing from the wheel too."""
    source = folder / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=lambda where, names: [
            name
            for name in names
            if any(Path(name).match(pattern) for pattern in LEFT_OUT)
            or (Path(where) == ROOT and name in LEFT_OUT_FOLDERS)
        ],
    )
    sdist_folder = folder / "sdist"
    build_sdist = "import sys, setuptools.build_meta as b; print(b.build_sdist(sys.argv[1]))"
    made = run([sys.executable, "-c", build_sdist, sdist_folder], cwd=source)
    sdist = sdist_folder / made.strip().splitlines()[-1]
    wheels = folder / "wheels"
    offline = ["-q", "--no-deps", "--no-index", "--no-build-isolation"]
    run([sys.executable, "-m", "pip", "wheel", *offline, "-w", wheels, sdist], cwd=folder)
    [wheel] = wheels.glob("scorekeeper-*.whl")
    return wheel


def fresh_environment(folder: Path, wheel: Path) -> Path:
    """A virtual environment holding the wheel and nothing else of its own: its dependencies
    are this environment's, reached through a ``.pth`` line (which, unlike a site folder, runs
    none of the ``.pth`` files there, so the suite's editable install of the checkout stays
    out of it)."""
    venv = folder / "venv"
    base = getattr(sys, "_base_executable", sys.executable)
    run([base, "-m", "venv", "--without-pip", venv], cwd=folder)
    python = venv / "bin" / "python"
    where = "import sysconfig; print(sysconfig.get_path('purelib'))"
    purelib = Path(run([python, "-c", where], cwd=folder).strip())
    (purelib / "suite-dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    offline = ["-q", "--no-deps", "--no-index", "--ignore-installed"]
    run([python, "-m", "pip", "install", *offline, wheel], cwd=folder)
    return python


def csrf_token(page: str) -> str:
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert found, page
    return found.group(1)


@pytest.mark.skipif(sys.platform == "win32", reason="the environment's layout is POSIX's")
def test_the_wheel_installs_and_serves_first_run(tmp_path: Path) -> None:
    python = fresh_environment(tmp_path, build_wheel(tmp_path))
    elsewhere = tmp_path / "elsewhere"  # not the checkout: nothing can be imported from there
    elsewhere.mkdir()
    data = tmp_path / "data"
    environment = {
        "PYTHONPATH": "",
        "SCOREKEEPER_INSTANCE_PATH": "",
        "XDG_DATA_HOME": str(data),
        "HOME": str(tmp_path / "home"),
    }
    where = subprocess.run(
        [str(python), "-c", "import scorekeeper; print(scorekeeper.__file__)"],
        cwd=elsewhere,
        env={**os.environ, **environment},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(where).is_relative_to(python.parent.parent), where
    package = Path(where).parent
    for folder in SHIPPED:
        shipped = {p.relative_to(package / folder) for p in (package / folder).rglob("*")}
        kept = {p.relative_to(ROOT / folder) for p in (ROOT / folder).rglob("*")}
        assert shipped == {p for p in kept if "__pycache__" not in p.parts}
    # The result card's font (its words in any language are drawn in it) travels too.
    font = Path("fonts") / "DejaVuSansCondensed-Subset.ttf"
    assert (package / font).read_bytes() == (ROOT / "scorekeeper" / font).read_bytes()

    serve = "-m flask --app scorekeeper serve --host 127.0.0.1 --port {port}"
    command = [str(python), *serve.split()]
    with served(
        command=command,
        environment=environment,
        ready_path="/healthz",
        log_folder=tmp_path,
        cwd=elsewhere,
    ) as server:
        browser = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        with browser.open(server.base + "/setup", timeout=10) as answer:
            page = answer.read().decode()
        assert answer.status == 200
        assert "Welcome to Scorekeeper" in page and "Setup code" not in page
        form = {
            "csrf_token": csrf_token(page),
            "household": "Wheelers",
            "username": "ada",
            "password": "correct horse battery",
            "confirm": "correct horse battery",
        }
        with browser.open(
            server.base + "/setup", data=urllib.parse.urlencode(form).encode(), timeout=30
        ) as answer:
            home = answer.read().decode()
        assert answer.url == server.base + "/", answer.url
        assert "Welcome, ada. Wheelers is ready." in home
        for path in ("/games/new", "/history", "/players", "/rules", "/account"):
            with browser.open(server.base + path, timeout=10) as answer:
                assert answer.status == 200, path
                assert "ada" in answer.read().decode(), path
        # A phone set to Spanish: the wheel's compiled catalogue is found and read.
        spanish = urllib.request.Request(
            server.base + "/account", headers={"Accept-Language": "es-CL,es;q=0.9"}
        )
        with browser.open(spanish, timeout=10) as answer:
            page = answer.read().decode()
        assert '<html lang="es">' in page and "Guardar el idioma" in page, page
        stylesheet = re.search(r'href="(/static/css/app\.css\?v=[^"]+)"', home)
        assert stylesheet, home
        with browser.open(server.base + stylesheet.group(1), timeout=10) as answer:
            assert answer.read() == (ROOT / "static" / "css" / "app.css").read_bytes()

    instance = data / "scorekeeper"
    assert (instance / "scorekeeper.db").is_file() and (instance / "secret_key").is_file()
    assert not (package / "instance").exists()
