"""The container image (``Containerfile``), built and run here as a self-hoster runs it there.

No image registry can be reached from the machines that run the suite, so the base is made
from Debian's packages (``mmdebstrap``: bookworm with ``python3``, ``python3-venv`` and
``ca-certificates``, nothing else) and ``podman import``-ed; the host's CA bundle and a
``pip.conf`` naming it (and the host's package index, where it configures one over HTTP) are
copied in, so that pip inside the build reaches the index as the host does. The base is kept a
day in the cache folder (about 220 MB, a minute and a half to make); the image is built from a
clean clone of the checkout's HEAD, so what is tested is what is committed.

On these machines podman needs runc and cgroupfs (cgroups v1, which crun refuses), explicit
ulimits, and builds need the host's network and the Docker format (the OCI format drops
``HEALTHCHECK``). Skipped where podman or mmdebstrap is missing, failed under ``CI=true``.
"""

from __future__ import annotations

import datetime
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from bench.serving import free_port

from .conftest import IN_CI
from .test_behind_proxy import PASSWORD, Phone

# One worker runs the module (pytest-xdist's --dist loadgroup): the base and the image are made
# once, and no two workers write the cached base at once.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("image")]

ROOT = Path(__file__).resolve().parent.parent
PODMAN = ["podman", "--runtime=runc", "--cgroup-manager=cgroupfs"]
LIMITS = ["--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024"]
# Debian's bundle, where the ca-certificates package lays it out (the base's own path too).
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
MOST_ADDED_BYTES = 150_000_000
HEALTHY_WITHIN_SECONDS = 10.0
STOPPED_WITHIN_SECONDS = 5.0
SETUP_CODE = re.compile(r"setup code:\s+([0-9A-F]{6}-[0-9A-F]{6}-[0-9A-F]{6})")
ZONE = "Pacific/Auckland"


def _podman(*arguments: str, check: bool = True, timeout: float = 600) -> str:
    done = subprocess.run(
        [*PODMAN, *arguments], capture_output=True, text=True, timeout=timeout, check=False
    )
    if check and done.returncode != 0:
        raise AssertionError(f"podman {' '.join(arguments)}: {done.stderr[-3000:]}")
    return done.stdout.strip()


def _succeeds(*arguments: str) -> bool:
    done = subprocess.run([*PODMAN, *arguments], capture_output=True, timeout=60, check=False)
    return done.returncode == 0


@pytest.fixture(scope="module")
def tools() -> None:
    missing = [tool for tool in ("podman", "runc", "mmdebstrap") if shutil.which(tool) is None]
    if missing:
        message = (
            f"the image test needs {', '.join(missing)}: apt-get install podman runc mmdebstrap"
        )
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)


def _pip_conf() -> str:
    """A pip.conf for inside the build: the CA bundle, and the host's index where it names one
    over HTTP(S) (a ``file:`` index on the host's disk means nothing inside)."""
    listed = subprocess.run(
        [sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True, check=False
    ).stdout
    lines = ["[global]", f"cert = {CA_BUNDLE}"]
    for key in ("index-url", "extra-index-url"):
        found = re.findall(rf"^(?:global|:env:)\.{key}='([^']*)'", listed, re.MULTILINE)
        addresses = [a for value in found for a in value.split() if a.startswith("http")]
        if addresses:
            lines.append(f"{key} = {' '.join(dict.fromkeys(addresses))}")
    return "\n".join(lines) + "\n"


def _cache() -> Path:
    folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return folder / "scorekeeper-tests"


@pytest.fixture(scope="module")
def base_image(tools: None, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The bare base, made at most once a day: bookworm, python3, venv, CA certificates."""
    day = datetime.date.today().isoformat()
    name = f"localhost/scorekeeper-test-base:{day}"
    if _succeeds("image", "exists", name):
        return name
    cache = _cache()
    cache.mkdir(parents=True, exist_ok=True)
    tarball = cache / f"base-bookworm-{day}.tar"
    if not tarball.is_file():
        for old in cache.glob("base-bookworm-*.tar"):
            old.unlink()
        pip_conf = tmp_path_factory.mktemp("base") / "pip.conf"
        pip_conf.write_text(_pip_conf())
        partial = tarball.with_suffix(".partial")
        subprocess.run(
            [
                "mmdebstrap",
                "--quiet",
                "--variant=apt",
                "--include=python3,python3-venv,ca-certificates",
                f"--customize-hook=copy-in {CA_BUNDLE} {CA_BUNDLE.parent}",
                f"--customize-hook=upload {pip_conf} /etc/pip.conf",
                "--format=tar",
                "bookworm",
                str(partial),
            ],
            check=True,
            timeout=1200,
        )
        partial.rename(tarball)
    for tag in _podman("images", "--format", "{{.Repository}}:{{.Tag}}").split():
        if tag.startswith("localhost/scorekeeper-test-base:") and tag != name:
            _podman("rmi", tag, check=False)  # an older day's
    _podman("import", str(tarball), name)
    return name


@pytest.fixture(scope="module")
def image(base_image: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The image, built from a clean clone of HEAD on the local base."""
    source = tmp_path_factory.mktemp("clone") / "scorekeeper"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(source)], check=True)
    name = f"localhost/scorekeeper-test:{os.getpid()}"
    started = time.monotonic()
    _podman(
        "build",
        "--network=host",
        "--format=docker",
        "--layers=false",
        *LIMITS,
        "--build-arg",
        f"BASE={base_image}",
        "--tag",
        name,
        str(source),
        timeout=1200,
    )
    print(f"\nimage built in {time.monotonic() - started:.0f} s")
    yield name
    _podman("rmi", "--force", name, check=False)


class Container:
    """One container of the image on ``volume``, its port published on loopback."""

    def __init__(self, image: str, volume: str, name: str) -> None:
        self.name = name
        self.port = free_port()
        _podman(
            "run",
            "--detach",
            "--name",
            name,
            *LIMITS,
            "--publish",
            f"127.0.0.1:{self.port}:8000",
            "--volume",
            f"{volume}:/data",
            "--env",
            f"TZ={ZONE}",
            "--env",
            f"SCOREKEEPER_PUBLIC_URL=http://127.0.0.1:{self.port}",
            image,
        )
        self.started = time.monotonic()  # ``podman run --detach`` returns once it runs

    def healthy_after(self) -> float:
        """Seconds from the start to the first answer of the health check's address (asked
        through the published port: ``podman healthcheck run``, a ``podman exec``, costs a
        second of its own on a loaded machine), which ``podman healthcheck run`` then passes."""
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=5):
                    break
            except OSError:
                if time.monotonic() - self.started > 60:
                    raise AssertionError(f"never healthy:\n{self.logs()}") from None
                time.sleep(0.1)
        seconds = time.monotonic() - self.started
        assert _succeeds("healthcheck", "run", self.name), self.logs()
        return seconds

    def logs(self) -> str:
        done = subprocess.run(
            [*PODMAN, "logs", self.name], capture_output=True, text=True, check=False
        )
        return done.stdout + done.stderr

    def run(self, *command: str) -> str:
        return _podman("exec", self.name, *command)

    def stop(self) -> tuple[int, float]:
        """``podman stop`` (SIGTERM, then SIGKILL after 10 s): the exit status and seconds."""
        started = time.monotonic()
        _podman("stop", "--time", "10", self.name)
        seconds = time.monotonic() - started
        return int(_podman("inspect", "--format", "{{.State.ExitCode}}", self.name)), seconds

    def remove(self) -> None:
        _podman("rm", "--force", "--volumes", "--time", "0", self.name, check=False)


@pytest.fixture
def volume() -> Iterator[str]:
    name = f"scorekeeper-test-{os.getpid()}-{time.monotonic_ns()}"
    _podman("volume", "create", name)
    yield name
    _podman("volume", "rm", "--force", name, check=False)


def _size(image: str) -> int:
    return int(_podman("image", "inspect", "--format", "{{.Size}}", image))


def test_the_image_as_a_family_runs_it(image: str, base_image: str, volume: str) -> None:
    added = _size(image) - _size(base_image)
    print(f"image adds {added / 1e6:.0f} MB to its base")
    assert added <= MOST_ADDED_BYTES

    first = Container(image, volume, f"{volume}-first")
    try:
        healthy = first.healthy_after()
        print(f"healthy after {healthy:.1f} s")
        assert healthy <= HEALTHY_WITHIN_SECONDS

        # Not root: the server, and the files it writes in the volume.
        assert first.run("id", "-u") != "0"
        owner = first.run("stat", "-c", "%u", "/data/scorekeeper.db", "/data/secret_key")
        assert set(owner.split()) == {first.run("id", "-u")}
        # TZ names the zone of households that chose none.
        zone = "from scorekeeper import local_time; print(local_time.machine_zone_name())"
        assert first.run("python3", "-c", zone) == ZONE

        # First-run setup from outside the container: it asks for the code from the log.
        found = SETUP_CODE.search(first.logs())
        assert found, first.logs()
        phone = Phone(first.port)
        status, _headers, page = phone.ask("GET", "/")
        assert status == 302
        status, _headers, page = phone.ask("GET", "/setup")
        assert status == 200 and 'name="setup_code"' in page
        fields = {
            "household": "The Containers",
            "username": "ann",
            "password": PASSWORD,
            "confirm": PASSWORD,
        }
        status, _headers, page = phone.post_form("/setup", {**fields, "setup_code": "0-0-0"})
        assert status == 422
        status, _headers, page = phone.post_form("/setup", {**fields, "setup_code": found.group(1)})
        assert status == 303, page[:2000]

        exit_status, seconds = first.stop()
        print(f"stopped in {seconds:.1f} s with status {exit_status}")
        assert exit_status == 0, first.logs()
        assert seconds < STOPPED_WITHIN_SECONDS
        assert "stopping:" in first.logs()
    finally:
        first.remove()

    # A new container (an upgrade) on the same volume keeps the household and the accounts.
    second = Container(image, volume, f"{volume}-second")
    try:
        second.healthy_after()
        assert not SETUP_CODE.search(second.logs())
        status, _headers, _page = Phone(second.port).post_form(
            "/login", {"username": "ann", "password": PASSWORD}
        )
        assert status == 303
        # The health check asks the database: without it, the container is unhealthy.
        second.run("rm", "/data/scorekeeper.db")
        assert not _succeeds("healthcheck", "run", second.name)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{second.port}/healthz", timeout=10)
        assert refused.value.code == 503
    finally:
        second.remove()


def test_the_compose_file_runs_the_image_as_the_containerfile_declares_it() -> None:
    """compose.yaml (no podman needed): the app with its volume on /data, the port the image
    exposes, a restart policy and the public address; PostgreSQL commented out."""
    containerfile = (ROOT / "Containerfile").read_text()
    assert 'VOLUME ["/data"]' in containerfile and "EXPOSE 8000" in containerfile
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    app = compose["services"]["scorekeeper"]
    assert app["restart"] == "unless-stopped"
    assert [port.rsplit(":", 1)[1] for port in app["ports"]] == ["8000"]
    [volume] = app["volumes"]
    name, _, mounted = volume.partition(":")
    assert mounted == "/data" and name in compose["volumes"]
    assert app["environment"]["SCOREKEEPER_PUBLIC_URL"].startswith("http")
    assert all(key.startswith("SCOREKEEPER_") or key == "TZ" for key in app["environment"])
    assert "postgres" not in compose["services"]
    assert "#   image: postgres:" in (ROOT / "compose.yaml").read_text()
