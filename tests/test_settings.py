"""Every ``SCOREKEEPER_*`` setting is read and checked when the app starts: ``flask serve`` with
a wrong value stops at once with one line naming the variable, what it holds and what is
expected, and exit status 2; so do an instance folder that cannot be written, a database that
cannot be reached or whose driver is missing, and a port in use."""

from __future__ import annotations

import ast
import os
import re
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from bench.serving import ROOT, free_port, served
from scorekeeper import create_app
from scorekeeper.settings import (
    FALSE,
    SCHEMA,
    TRUE,
    StartRefused,
    boolean,
    from_environment,
    show,
)

# A wrong value for every setting that can hold one (SECRET_KEY takes any text); more of them
# are read in-process below (test_wrong_values_are_refused).
WRONG = [
    ("PUBLIC_URL", "192.168.1.20:8000"),
    ("SQLALCHEMY_DATABASE_URI", "nosuchdb://somewhere/scores"),
    ("PROXY_COUNT", "one"),
    ("TRUSTED_PROXY", "proxy.internal"),
    ("TRUSTED_HOSTS", "cards.example.org/games"),
    ("TIME_ZONE", "Mars/Olympus_Mons"),
    ("LOG_LEVEL", "loud"),
    ("SESSION_MAX_DAYS", "abc"),
    ("SESSION_CHECK_SECONDS", "-5"),
    ("FAST_LANE_SECONDS", "-1"),
    ("DAILY_BACKUPS", "maybe"),
    ("BACKUP_KEEP", "0"),
    ("MAX_CONTENT_LENGTH", "64MB"),
    ("SCOREBOARD_POLL_SECONDS", "-3"),
    ("HISTORY_PAGE_SIZE", "0"),
    ("PASSWORD_TIME_COST", "0"),
    ("PASSWORD_MEMORY_KIB", "4"),
    ("COMPRESS_LEVEL", "11"),
    ("COMPRESS_DEFLATE_LEVEL", "fast"),
    ("AUTO_MIGRATE", "perhaps"),
    ("RESTORE_IN_BACKGROUND", "2"),
    ("RESTORE_BATCH_PAUSE_MS", "60001"),
    ("BACKUPS_IN_BACKGROUND", "yes please"),
    ("RATINGS_REPLAYED_IN_SAVE", "-1"),
    ("RATINGS_REPLAY_CHUNK", "0"),
    ("RATINGS_IN_BACKGROUND", "later"),
    ("RATINGS_REPLAY_PAUSE_MS", "-5"),
    ("RATINGS_REPLAY_COOL_DOWN_SECONDS", "a minute"),
]
MORE_WRONG = [
    ("PUBLIC_URL", "ftp://cards.example.org"),
    ("PUBLIC_URL", "https://"),
    ("PUBLIC_URL", "http://cards.example.org:port"),
    ("SQLALCHEMY_DATABASE_URI", "not a database"),
    ("PROXY_COUNT", "-1"),
    ("TRUSTED_HOSTS", '["cards.example.org", 7]'),
    ("SESSION_MAX_DAYS", "0"),
    ("FAST_LANE_SECONDS", "2.5"),
    ("SCOREBOARD_POLL_SECONDS", "0"),
    ("DAILY_BACKUPS", "y"),
    ("DAILY_BACKUPS", ""),
]
# Settings whose refusals are tested on their own below.
TESTED_APART = {"SECRET_KEY", "INSTANCE_PATH"}


def start(environment: dict[str, str], *arguments: str) -> subprocess.CompletedProcess[str]:
    """``flask --app scorekeeper serve`` with ``environment``, until it ends (it must, and
    soon: a refused start ends at once)."""
    return subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "serve", *arguments],
        env={**os.environ, "PYTHONPATH": str(ROOT), **environment},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def refusal(started: subprocess.CompletedProcess[str], alone: bool = True) -> str:
    """The one line a refused start writes: status 2, no traceback, no "Serving", and (where
    ``alone``) nothing else at all."""
    assert started.returncode == 2, started.stderr
    assert "Traceback" not in started.stderr
    assert "Serving" not in started.stdout + started.stderr
    lines = started.stderr.strip().splitlines()
    if alone:
        assert len(lines) == 1, started.stderr
    assert [line for line in lines if line.startswith("Error")] == lines[-1:], started.stderr
    return lines[-1]


def test_every_setting_has_a_wrong_value_tested() -> None:
    assert {name for name, _ in WRONG} | TESTED_APART == set(SCHEMA)


@pytest.mark.parametrize(("name", "value"), WRONG)
def test_a_wrong_value_stops_the_start_naming_it(tmp_path: Path, name: str, value: str) -> None:
    line = refusal(
        start({"SCOREKEEPER_INSTANCE_PATH": str(tmp_path), f"SCOREKEEPER_{name}": value})
    )
    assert line.startswith(f"Error: SCOREKEEPER_{name}={value!r}: expected "), line
    assert SCHEMA[name].expected in line


@pytest.mark.parametrize(("name", "value"), MORE_WRONG)
def test_wrong_values_are_refused(name: str, value: str) -> None:
    with pytest.raises(StartRefused) as refused:
        from_environment({f"SCOREKEEPER_{name}": value})
    assert refused.value.message == (
        f"SCOREKEEPER_{name}={value!r}: expected {SCHEMA[name].expected}."
    )


def test_a_name_that_is_no_setting_stops_the_start_with_the_nearest(tmp_path: Path) -> None:
    line = refusal(
        start({"SCOREKEEPER_INSTANCE_PATH": str(tmp_path), "SCOREKEEPER_PUBLICURL": "http://a"})
    )
    assert "SCOREKEEPER_PUBLICURL is not a setting" in line
    assert "did you mean SCOREKEEPER_PUBLIC_URL?" in line


def test_an_instance_folder_that_is_a_file_stops_the_start(tmp_path: Path) -> None:
    taken = tmp_path / "instance"
    taken.write_text("not a folder")
    line = refusal(start({"SCOREKEEPER_INSTANCE_PATH": str(taken)}))
    assert f"SCOREKEEPER_INSTANCE_PATH={str(taken)!r}: the instance folder is a file" in line


def test_an_instance_folder_that_cannot_be_made_stops_the_start(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    inside = tmp_path / "file" / "instance"
    line = refusal(start({"SCOREKEEPER_INSTANCE_PATH": str(inside)}))
    assert f"SCOREKEEPER_INSTANCE_PATH={str(inside)!r}: the instance folder cannot be made" in line


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into any folder, whatever its mode")
def test_an_instance_folder_that_cannot_be_written_stops_the_start(tmp_path: Path) -> None:
    shut = tmp_path / "instance"
    shut.mkdir(mode=0o500)
    line = refusal(start({"SCOREKEEPER_INSTANCE_PATH": str(shut)}))
    assert "cannot be made or written (Permission denied)" in line


def test_a_database_that_cannot_be_reached_stops_the_start_password_masked(
    tmp_path: Path,
) -> None:
    address = f"postgresql+psycopg://scorekeeper:hunter22secret@127.0.0.1:{free_port()}/scores"
    line = refusal(
        start(
            {
                "SCOREKEEPER_INSTANCE_PATH": str(tmp_path),
                "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": address,
            }
        )
    )
    assert "hunter22secret" not in line
    assert "SCOREKEEPER_SQLALCHEMY_DATABASE_URI='postgresql+psycopg://scorekeeper:***@" in line
    assert "the database cannot be reached" in line


def test_a_database_whose_driver_is_missing_names_the_extra(tmp_path: Path) -> None:
    # psycopg as it is where the postgres extra was not installed: not there to import.
    shim = tmp_path / "without-psycopg"
    shim.mkdir()
    (shim / "psycopg.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'psycopg'\", name='psycopg')\n"
    )
    address = "postgresql+psycopg://scorekeeper:hunter22secret@127.0.0.1/scores"
    line = refusal(
        start(
            {
                "PYTHONPATH": os.pathsep.join([str(shim), str(ROOT)]),
                "SCOREKEEPER_INSTANCE_PATH": str(tmp_path / "instance"),
                "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": address,
            }
        )
    )
    assert "hunter22secret" not in line
    assert "its driver psycopg is not installed" in line
    assert "pip install 'scorekeeper[postgres]'" in line


def test_a_port_in_use_stops_the_start_before_serving(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        started = start(
            {"SCOREKEEPER_INSTANCE_PATH": str(tmp_path)}, "--host", "127.0.0.1", "--port", str(port)
        )
    # A new instance says its setup code first: the refusal is the one line after it.
    line = refusal(started, alone=False)
    assert re.search(rf"--port {port}: cannot listen there \(Address already in use\)", line)


@pytest.mark.parametrize("spelling", sorted(TRUE | FALSE | {"TRUE", "Off", "YES", "nO"}))
def test_a_boolean_takes_the_usual_spellings(spelling: str) -> None:
    assert boolean(spelling) is (spelling.lower() in TRUE)


def test_values_are_read_into_their_types(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {
        "INSTANCE_PATH": str(tmp_path),
        "DAILY_BACKUPS": "no",
        "RESTORE_IN_BACKGROUND": "Off",
        "SESSION_MAX_DAYS": "7",
        "TRUSTED_HOSTS": "cards.example.org, scores.example.org",
        "PUBLIC_URL": "http://192.168.1.20:8000",
        "TRUSTED_PROXY": "::1",
        "PROXY_COUNT": "1",
        "SECRET_KEY": "",  # empty: made on first start, as when unset
    }.items():
        monkeypatch.setenv(f"SCOREKEEPER_{name}", value)
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite'}"})
    assert app.config["DAILY_BACKUPS"] is False
    assert app.config["RESTORE_IN_BACKGROUND"] is False
    assert app.config["SESSION_MAX_DAYS"] == 7
    assert app.config["EXTRA_HOSTS"] == ["cards.example.org", "scores.example.org"]
    assert app.config["TRUSTED_PROXY"] == "::1"
    assert app.config["SECRET_KEY"] == (tmp_path / "secret_key").read_text().strip()


def test_right_values_start_and_serve(tmp_path: Path) -> None:
    environment = {
        "SCOREKEEPER_INSTANCE_PATH": str(tmp_path),
        "SCOREKEEPER_PUBLIC_URL": "http://192.168.1.20:8000",
        "SCOREKEEPER_DAILY_BACKUPS": "off",
        "SCOREKEEPER_LOG_LEVEL": "warning",
        "SCOREKEEPER_TIME_ZONE": "Europe/Berlin",
        "SCOREKEEPER_TRUSTED_HOSTS": '["cards.example.org"]',
        "SCOREKEEPER_SCOREBOARD_POLL_SECONDS": "5",
        "SCOREKEEPER_SESSION_CHECK_SECONDS": "0",
    }
    with (
        served(environment=environment, ready_path="/healthz", log_folder=tmp_path) as server,
        urllib.request.urlopen(server.base + "/healthz", timeout=10) as answer,
    ):
        assert answer.status == 200


def test_the_settings_table_matches_the_schema() -> None:
    page = (ROOT / "docs" / "operating.md").read_text()
    table = page.split("| setting (`SCOREKEEPER_` + …) |", 1)[1].split("\n\n", 1)[0]
    documented = set(re.findall(r"^\| `([A-Z_]+)`(?:, `([A-Z_]+)`)?", table, re.MULTILINE))
    names = {name for pair in documented for name in pair if name}
    assert names == set(SCHEMA)


def test_flask_run_refuses_a_wrong_value_too(tmp_path: Path) -> None:
    started = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "run", "--port", str(free_port())],
        env={
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "SCOREKEEPER_INSTANCE_PATH": str(tmp_path),
            "SCOREKEEPER_DAILY_BACKUPS": "no way",
        },
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refusal(started) == (
        f"Error: SCOREKEEPER_DAILY_BACKUPS='no way': expected {SCHEMA['DAILY_BACKUPS'].expected}."
    )


@pytest.mark.parametrize(
    "address",
    [
        "postgresql+psycopg://ann:s3cret-pw@db.example.org/scores",
        "postgresql+psycopg://ann@db.example.org/scores?password=s3cret-pw&sslmode=require",
        "postgresql+psycopg://ann@db.example.org/scores?sslpassword=s3cret-pw",
        "postgresql+psycopg://ann:s3c@ret-pw@db.example.org/scores",  # an "@" in it
        "nosuch:ann:s3cret-pw@db.example.org/scores",  # not an address at all
        "ann@s3cret-pw",  # no scheme, an "@"
    ],
)
def test_no_password_of_a_database_address_is_ever_shown(address: str) -> None:
    """Wherever the password stands (user part, query, an address that does not parse), the
    refusal's line never holds any of it."""
    shown = show("SQLALCHEMY_DATABASE_URI", address)
    assert "s3c" not in shown and "ret-pw" not in shown, shown


# --- instance/config.py: the same names, as Python values, checked by the same readers --------


def _config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str) -> Path:
    """An instance folder whose ``config.py`` is ``source``, as the app's."""
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text(source)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(instance))
    return instance / "config.py"


def _refused(test_config: dict[str, object] | None = None) -> str:
    with pytest.raises(StartRefused) as refused:
        create_app(test_config)
    return refused.value.message


@pytest.mark.parametrize(("name", "value"), WRONG)
def test_a_wrong_value_in_instance_config_stops_the_start_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    file = _config_file(tmp_path, monkeypatch, f"{name} = {value!r}\n")
    expected = SCHEMA[name].expected
    assert _refused() == f"{name} = {value!r} in {file}: expected {expected}."


@pytest.mark.parametrize(
    ("name", "source"),
    [
        ("PROXY_COUNT", "True"),
        ("PROXY_COUNT", "None"),
        ("SESSION_MAX_DAYS", "2.5"),
        ("DAILY_BACKUPS", "2"),
        ("TRUSTED_HOSTS", '["cards.example.org", 7]'),
        ("LOG_LEVEL", "{'level': 'INFO'}"),
    ],
)
def test_a_python_value_of_the_wrong_kind_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, source: str
) -> None:
    file = _config_file(tmp_path, monkeypatch, f"{name} = {source}\n")
    value = ast.literal_eval(source)
    assert _refused() == f"{name} = {value!r} in {file}: expected {SCHEMA[name].expected}."


def test_instance_config_values_are_read_into_their_types(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _config_file(
        tmp_path,
        monkeypatch,
        "DAILY_BACKUPS = 'no'\n"
        "SESSION_MAX_DAYS = 7\n"
        "TRUSTED_HOSTS = ['cards.example.org', 'scores.example.org']\n"
        "PUBLIC_URL = None\n"
        "TIME_ZONE = ''\n"
        "PROXY_COUNT = 1\n"
        "TRUSTED_PROXY = '::1'\n"
        "SECRET_KEY = b'kept as bytes'\n"
        "SESSION_COOKIE_NAME = 'scores'  # Flask's own: as it is\n",
    )
    database = f"sqlite:///{tmp_path / 'db.sqlite'}"
    app = create_app({"SQLALCHEMY_DATABASE_URI": database, "AUTO_MIGRATE": False})
    assert app.config["DAILY_BACKUPS"] is False
    assert app.config["SESSION_MAX_DAYS"] == 7
    assert app.config["EXTRA_HOSTS"] == ["cards.example.org", "scores.example.org"]
    assert app.config["PUBLIC_URL"] is None and app.config["TIME_ZONE"] is None
    assert app.config["PROXY_COUNT"] == 1 and app.config["TRUSTED_PROXY"] == "::1"
    assert app.config["SECRET_KEY"] == b"kept as bytes"
    assert app.config["SESSION_COOKIE_NAME"] == "scores"


def test_the_instance_path_in_instance_config_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = _config_file(tmp_path, monkeypatch, "INSTANCE_PATH = '/srv/scores'\n")
    assert _refused().startswith(
        f"INSTANCE_PATH = '/srv/scores' in {file}: the instance folder is chosen before"
    )


def test_a_wrong_secret_key_in_instance_config_is_not_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = _config_file(tmp_path, monkeypatch, "SECRET_KEY = 1234.5678\n")
    assert _refused() == f"SECRET_KEY = *** in {file}: expected any text."


def test_an_unreachable_database_set_in_instance_config_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    port = free_port()
    address = f"postgresql+psycopg://ann:hunter22secret@127.0.0.1:{port}/scores"
    file = _config_file(tmp_path, monkeypatch, f"SQLALCHEMY_DATABASE_URI = {address!r}\n")
    line = _refused()
    shown = f"postgresql+psycopg://ann:***@127.0.0.1:{port}/scores"
    assert line.startswith(f"SQLALCHEMY_DATABASE_URI = {shown!r} in {file}: the database cannot")
    assert "hunter22secret" not in line


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("PUBLIC_URL = (\n", "SyntaxError, line 1"),
        ("import os\nPUBLIC_URL = os.environ['NO_SUCH_VARIABLE_HERE']\n", "KeyError, line 2"),
        ("PUBLIC_URL = open('/no/such/file').read()\n", "FileNotFoundError, line 1"),
    ],
)
def test_an_instance_config_that_does_not_run_stops_the_start_naming_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, why: str
) -> None:
    file = _config_file(tmp_path, monkeypatch, source)
    assert _refused().startswith(f"{file}: cannot be read ({why}); expected Python that sets")


def test_a_wrong_value_in_instance_config_stops_serve_with_one_line(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text("SESSION_MAX_DAYS = 'abc'\n")
    line = refusal(start({"SCOREKEEPER_INSTANCE_PATH": str(instance)}))
    expected = SCHEMA["SESSION_MAX_DAYS"].expected
    assert (
        line == f"Error: SESSION_MAX_DAYS = 'abc' in {instance / 'config.py'}: expected {expected}."
    )
