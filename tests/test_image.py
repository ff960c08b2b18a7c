"""The container image (``Containerfile``), built and run here as a self-hoster runs it there.

No image registry can be reached from the machines that run the suite, so the base is made
from Debian's packages (``mmdebstrap``: bookworm with ``python3``, ``python3-venv`` and
``ca-certificates``, nothing else) and ``podman import``-ed; the host's CA bundle and a
``pip.conf`` naming it (and the host's package index, where it configures one over HTTP) are
copied in, so that pip inside the build reaches the index as the host does. The base is kept a
day in the cache folder (about 220 MB, a minute and a half to make); the image is built from a
clean clone of the checkout's HEAD, so what is tested is what is committed.

``compose.yaml`` is run by Debian's ``podman-compose`` (podman 4.3 has no ``podman compose``)
on the same build, made over in podman's own format (OCI) as ``podman-compose up`` builds it:
that format keeps no ``HEALTHCHECK``, so the container's health check is the compose file's.

On these machines podman needs runc and cgroupfs (cgroups v1, which crun refuses), explicit
ulimits, and builds need the host's network and the Docker format (the OCI format drops
``HEALTHCHECK``). Skipped where podman, mmdebstrap or podman-compose is missing, failed under
``CI=true``.
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
from collections.abc import Callable, Iterator
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
# What the image promises, not how fast this machine is (start times are measured in
# docs/performance.md): healthy before its own health check would call it unhealthy (a start
# period of 10 s, then 3 failures 10 s apart), and stopped by SIGTERM before podman's SIGKILL.
HEALTHY_WITHIN_SECONDS = 40.0
STOPPED_WITHIN_SECONDS = 10.0
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


def _need(tools: tuple[str, ...]) -> None:
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        message = f"the image test needs {', '.join(missing)}: apt-get install {' '.join(tools)}"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def tools() -> None:
    _need(("podman", "runc", "mmdebstrap"))


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
            if not old.name.startswith(f"base-bookworm-{day}"):
                old.unlink(missing_ok=True)  # an older day's
        pip_conf = tmp_path_factory.mktemp("base") / "pip.conf"
        pip_conf.write_text(_pip_conf())
        # A name of this process's own: another run of the suite on this machine may be
        # making the same day's base at the same time, and the last one made is kept.
        partial = cache / f"base-bookworm-{day}.{os.getpid()}.partial.tar"
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
        partial.replace(tarball)
    for tag in _podman("images", "--format", "{{.Repository}}:{{.Tag}}").split():
        if tag.startswith("localhost/scorekeeper-test-base:") and tag != name:
            _podman("rmi", tag, check=False)  # an older day's
    _podman("import", str(tarball), name)
    return name


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clean clone of HEAD: what is tested is what is committed."""
    folder = tmp_path_factory.mktemp("clone") / "scorekeeper"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(folder)], check=True)
    return folder


@pytest.fixture(scope="module")
def image(base_image: str, source: Path) -> Iterator[str]:
    """The image, built from the clone on the local base."""
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


def _answers_health(port: int, started: float, logs: Callable[[], str]) -> float:
    """Seconds from ``started`` to the first answer of the health check's address, asked
    through the published port (``podman healthcheck run``, a ``podman exec``, costs a second
    of its own on a loaded machine)."""
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5):
                return time.monotonic() - started
        except OSError:
            if time.monotonic() - started > 60:
                raise AssertionError(f"never healthy:\n{logs()}") from None
            time.sleep(0.1)


def _make_household(port: int, logs: str) -> None:
    """First-run setup from outside the container: it asks for the code from the log."""
    found = SETUP_CODE.search(logs)
    assert found, logs
    phone = Phone(port)
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


def _signs_in(port: int) -> bool:
    status, _headers, _page = Phone(port).post_form(
        "/login", {"username": "ann", "password": PASSWORD}
    )
    return status == 303


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
        """Seconds from the start to the first answer of the health check's address, which
        ``podman healthcheck run`` then passes."""
        seconds = _answers_health(self.port, self.started, self.logs)
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

        _make_household(first.port, first.logs())

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
        assert _signs_in(second.port)
        # A phone set to Spanish is answered from the compiled catalogue the image carries.
        spanish = {"Accept-Language": "es-CL,es;q=0.9"}
        status, _headers, page = Phone(second.port).ask("GET", "/login", **spanish)
        assert status == 200 and '<html lang="es"' in page and "Contraseña" in page, page[:300]
        # The health check asks the database: without it, the container is unhealthy.
        second.run("rm", "/data/scorekeeper.db")
        assert not _succeeds("healthcheck", "run", second.name)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{second.port}/healthz", timeout=10)
        assert refused.value.code == 503
    finally:
        second.remove()


@pytest.fixture(scope="module")
def oci_image(image: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The build made over in podman's own format, OCI, as ``podman-compose up`` builds it, in a
    second or two instead of a second build. A build of ``FROM`` alone only tags the same image
    again: the label makes podman commit it in that format, which has no place for the
    ``HEALTHCHECK``."""
    folder = tmp_path_factory.mktemp("oci")
    (folder / "Containerfile").write_text(f"FROM {image}\nLABEL org.scorekeeper.test=oci\n")
    name = f"localhost/scorekeeper-test-oci:{os.getpid()}"
    _podman("build", "--format=oci", "--layers=false", "--tag", name, str(folder))
    yield name
    _podman("rmi", "--force", name, check=False)


class ComposeProject:
    """``compose.yaml`` under ``podman-compose``, under a project name of the test's own (its
    container, volume and network are named after it, and labelled with it)."""

    def __init__(self, folder: Path) -> None:
        self.name = f"scorekeeper-test-{os.getpid()}-{time.monotonic_ns()}"
        self.folder = folder
        self.label = f"label=io.podman.compose.project={self.name}"
        self.port = free_port()

    def write(self, source: Path, image: str) -> None:
        """The clone's compose.yaml, with only what must differ here: the image already built
        (so nothing is built twice), a free loopback port for 8000, and that port as the
        public address."""
        compose = yaml.safe_load((source / "compose.yaml").read_text())
        app = compose["services"]["scorekeeper"]
        app["image"] = image
        app["build"] = str(source)
        app["ports"] = [f"127.0.0.1:{self.port}:8000"]
        app["environment"]["SCOREKEEPER_PUBLIC_URL"] = f"http://127.0.0.1:{self.port}"
        (self.folder / "compose.yaml").write_text(yaml.safe_dump(compose, sort_keys=False))

    def __call__(self, *arguments: str) -> str:
        """``podman-compose <arguments>``, its output: what this machine's podman needs (see
        the top) is given on its command line, the file stays as a family has it. podman-compose
        1.0 answers 0 whatever podman answered, so the test looks at the containers."""
        done = subprocess.run(
            [
                "podman-compose",
                f"--podman-args={' '.join(PODMAN[1:])}",
                f"--podman-run-args={' '.join(LIMITS)}",
                "--project-name",
                self.name,
                *arguments,
            ],
            cwd=self.folder,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        return done.stdout + done.stderr

    def listed(self, kind: str) -> list[str]:
        """The names of this project's containers, volumes or networks."""
        if kind == "container":
            found = _podman("ps", "--all", "--filter", self.label, "--format", "{{.Names}}")
        else:
            found = _podman(kind, "ls", "--filter", self.label, "--format", "{{.Name}}")
        return found.split()

    def remove_everything(self) -> None:
        """What ``down --volumes`` removes, and the network podman-compose 1.0 leaves; by the
        project's label, so that it holds whatever step failed."""
        for container in self.listed("container"):
            _podman("rm", "--force", "--time", "0", container, check=False)
        for volume in self.listed("volume"):
            _podman("volume", "rm", "--force", volume, check=False)
        for network in self.listed("network"):
            _podman("network", "rm", "--force", network, check=False)


@pytest.fixture
def compose_project(tools: None, tmp_path: Path) -> Iterator[ComposeProject]:
    _need(("podman-compose",))
    project = ComposeProject(tmp_path)
    try:
        yield project
    finally:
        project.remove_everything()
    left = {kind: project.listed(kind) for kind in ("container", "volume", "network")}
    assert not any(left.values()), f"left behind: {left}"


def _healthy(container: str) -> str:
    """The container's own health check, run as podman's timer runs it; then its status.

    podman runs the check every interval from a transient systemd timer (``systemd-run
    --on-unit-inactive=10s podman healthcheck run <id>``). Where systemd is not PID 1 (this
    machine, many CI containers) podman logs "unable to get systemd connection to add
    healthchecks" and nothing runs it, the status staying "starting"; so the test runs it."""
    configured = _podman("inspect", "--format", "{{json .Config.Healthcheck}}", container)
    assert configured not in ("", "null"), "the container has no health check"
    _podman("healthcheck", "run", container)
    return _podman("inspect", "--format", "{{.State.Health.Status}}", container)


def test_compose_as_a_family_runs_it_with_podman_compose(
    compose_project: ComposeProject, oci_image: str, source: Path
) -> None:
    # The image as podman-compose builds it keeps no health check of its own.
    assert _podman("image", "inspect", "--format", "{{.HealthCheck}}", oci_image) == "<nil>"
    compose_project.write(source, oci_image)

    started = time.monotonic()
    compose_project("up", "-d")
    [container] = compose_project.listed("container")
    healthy = _answers_health(compose_project.port, started, lambda: _podman("logs", container))
    print(f"podman-compose up: answering after {healthy:.1f} s")
    assert _healthy(container) == "healthy"
    _make_household(compose_project.port, compose_project("logs", "scorekeeper"))

    # down removes the container and keeps the volume, with the household in it.
    compose_project("down")
    assert compose_project.listed("container") == []
    [volume] = compose_project.listed("volume")
    assert volume.endswith("scorekeeper-data")

    started = time.monotonic()
    compose_project("up", "-d")
    [container] = compose_project.listed("container")
    _answers_health(compose_project.port, started, lambda: _podman("logs", container))
    assert _healthy(container) == "healthy"
    assert not SETUP_CODE.search(compose_project("logs", "scorekeeper"))
    assert _signs_in(compose_project.port)


def test_the_compose_file_runs_the_image_as_the_containerfile_declares_it() -> None:
    """compose.yaml (no podman needed): the app with its volume on /data, the port the image
    exposes, a restart policy, the public address and the image's health check (one shell line:
    podman-compose 1.0 hands a list's arguments to the shell unquoted); PostgreSQL commented
    out."""
    containerfile = (ROOT / "Containerfile").read_text()
    assert 'VOLUME ["/data"]' in containerfile and "EXPOSE 8000" in containerfile
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    app = compose["services"]["scorekeeper"]
    declared = re.search(r"^HEALTHCHECK ((?:--\S+ )+)", containerfile, re.MULTILINE)
    assert declared
    options = dict(o.removeprefix("--").split("=") for o in declared.group(1).split())
    check = app["healthcheck"]
    assert {key.replace("_", "-"): str(check[key]) for key in check if key != "test"} == options
    kind, command = check["test"]
    assert kind == "CMD-SHELL" and "'http://127.0.0.1:8000/healthz'" in command.replace('"', "'")
    assert app["restart"] == "unless-stopped"
    assert [port.rsplit(":", 1)[1] for port in app["ports"]] == ["8000"]
    [volume] = app["volumes"]
    name, _, mounted = volume.partition(":")
    assert mounted == "/data" and name in compose["volumes"]
    assert app["environment"]["SCOREKEEPER_PUBLIC_URL"].startswith("http")
    assert all(key.startswith("SCOREKEEPER_") or key == "TZ" for key in app["environment"])
    assert "postgres" not in compose["services"]
    assert "#   image: postgres:" in (ROOT / "compose.yaml").read_text()
