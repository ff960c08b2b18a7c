"""Issue 40 item 2: no part of a database password is printed in any line a refused start
writes, wherever the password stands in the address and whatever it holds. The driver's reason
names the host as the driver read the address, which an unencoded "@" makes part of the
password: the line names the host as the shown address does instead, and any three characters
together of the password are scrubbed from whatever the driver says.

The review's command as it ran it (``flask --app scorekeeper routes``); every form of address
against the real driver (psycopg); then every password hypothesis makes, in every form, against
a driver's reason that names everything it read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from bench.serving import ROOT, free_port
from scorekeeper import create_app
from scorekeeper.config import unreachable
from scorekeeper.settings import StartRefused, show

from .test_settings import refusal

# (the address, with {port} a port nothing listens on; the password as its owner means it; the
# host the line names, where the address is read as its owner meant it)
ADDRESSES = [
    # The review's: an "@" in the password, the driver resolves "ss3cr3t@127.0.0.1".
    ("postgresql+psycopg://u:pa@ss3cr3t@127.0.0.1:{port}/db", "pa@ss3cr3t", None),
    ("postgresql+psycopg://u:pa@ss3cr3t@no-such-host.invalid:{port}/db", "pa@ss3cr3t", None),
    ("postgresql+psycopg://u:pa:ss3cr3t@127.0.0.1:{port}/db", "pa:ss3cr3t", "127.0.0.1"),
    ("postgresql+psycopg://u:pa@ss:3cr3t@127.0.0.1:{port}/db", "pa@ss:3cr3t", None),
    ("postgresql+psycopg://u:pa%40ss3cr3t@127.0.0.1:{port}/db", "pa@ss3cr3t", "127.0.0.1"),
    ("postgresql+psycopg://u:pa/ss?3cr#3t@127.0.0.1:{port}/db", "pa/ss?3cr#3t", "127.0.0.1"),
    ("postgresql+psycopg://u@127.0.0.1:{port}/db?password=pa@ss3cr3t", "pa@ss3cr3t", None),
    ("postgresql+psycopg://u@127.0.0.1:{port}/db?password=pa%40ss3cr3t", "pa@ss3cr3t", "127.0.0.1"),
    (
        "postgresql+psycopg://u@127.0.0.1:{port}/db?sslpassword=pa@ss3cr3t&sslmode=disable",
        "pa@ss3cr3t",
        None,
    ),
    ("postgresql+psycopg://127.0.0.1:{port}/db?password=pa@ss3cr3t", "pa@ss3cr3t", None),
    ("nosuch:u:pa@ss3cr3t@127.0.0.1:{port}/db", "pa@ss3cr3t", None),  # no address at all
    ("host=127.0.0.1 port={port} password=pa@ss3cr3t", "pa@ss3cr3t", None),  # libpq's own form
    ("u@pa@ss3cr3t", "pa@ss3cr3t", None),
]


def pieces(password: str) -> set[str]:
    """Every three characters together of ``password``: any longer part of it holds one."""
    return {password[at : at + 3] for at in range(len(password) - 2)}


def test_the_reviews_address_prints_no_part_of_its_password(tmp_path: Path) -> None:
    """The review's command as it ran it: an "@" in the password, and the driver's reason
    named the host it resolved, "ss3cr3t@127.0.0.1"."""
    address = f"postgresql+psycopg://u:pa@ss3cr3t@127.0.0.1:{free_port()}/db"
    started = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "routes"],
        env={
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "SCOREKEEPER_INSTANCE_PATH": str(tmp_path),
            "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": address,
        },
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    line = refusal(started)
    assert not [piece for piece in pieces("pa@ss3cr3t") if piece in started.stderr], line
    assert "the database cannot be reached" in line and "written %40" in line


@pytest.mark.parametrize(("address", "password", "host"), ADDRESSES)
def test_a_refused_start_names_no_part_of_the_database_password(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
    address: str,
    password: str,
    host: str | None,
) -> None:
    """The real driver's reasons (psycopg's), every form of the address."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("SCOREKEEPER_SQLALCHEMY_DATABASE_URI", address.format(port=free_port()))
    with pytest.raises(StartRefused) as refused:
        create_app()
    line = refused.value.message
    printed = line + "".join(capfd.readouterr())
    assert not [piece for piece in pieces(password) if piece in printed], printed
    if host is not None:
        assert "the database cannot be reached" in line
        assert f"@{host}:" in line or f"//{host}:" in line, line


def _as_the_driver_says(address: str) -> Exception:
    """What psycopg says where it cannot reach ``address``: the host, port, user and database
    as it read them."""
    try:
        url = make_url(address)
    except (ArgumentError, ValueError):
        return OSError(f"invalid connection string {address!r}")
    return OSError(
        f"failed to resolve host '{url.host}': connection to server at \"{url.host}\", port "
        f'{url.port} failed: FATAL:  password authentication failed for user "{url.username}"; '
        f"database \"{url.database}\" does not exist; host: '{url.host}'"
    )


FORMS = [
    "postgresql+psycopg://u:{password}@127.0.0.1:5432/db",
    "postgresql+psycopg://u:{quoted}@127.0.0.1:5432/db",
    "postgresql+psycopg://u@127.0.0.1:5432/db?password={password}",
    "postgresql+psycopg://u@127.0.0.1:5432/db?password={quoted}&sslmode=require",
    "postgresql+psycopg://u@127.0.0.1/db?sslmode=require&sslpassword={password}",
]


@settings(max_examples=300, deadline=None)
@given(
    password=st.text(alphabet="abs3xy@:/?#%&=+ .'\"[]", min_size=3, max_size=16),
    form=st.sampled_from(FORMS),
)
def test_no_form_of_password_shows_any_part_of_it(password: str, form: str) -> None:
    address = form.format(password=password, quoted=quote(password, safe=""))
    message = unreachable(address, _as_the_driver_says(address)).message
    # What the line takes from the address and from the driver (the rest is the app's words).
    shown = show("SQLALCHEMY_DATABASE_URI", address)
    reason = message.split(": the database cannot be reached (", 1)[1].rsplit("); expected", 1)[0]
    assert message.startswith(shown)
    for piece in pieces(password):
        assert piece not in shown, (address, shown)
        assert piece not in reason, (address, reason)
