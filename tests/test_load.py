"""The whole app under a table full of phones, served by gunicorn: short load and fault runs.

Each run is bounded (a few seconds, loopback only) and audited in the database afterwards:
no errors, no round answered as saved but missing, no round half-written, every game's
standings what its rounds add up to. ``python -m bench.load`` runs the same for longer.
"""

from __future__ import annotations

import pytest

from bench.load import run

from .conftest import IN_CI
from .postgres import server_binaries

pytestmark = pytest.mark.slow


def assert_nothing_lost(report: dict[str, object]) -> None:
    assert report["errors"] == 0, report["error_samples"]
    assert report["saves_answered_stored"] > 0, report
    assert report["rounds_lost"] == 0, report
    assert report["incomplete_rounds"] == 0, report
    assert report["games_out_of_step"] == 0, report
    assert report["rounds_stored"] >= report["saves_answered_stored"], report


def test_load_on_sqlite() -> None:
    assert_nothing_lost(run("sqlite", seconds=5, scorers=4, pollers=12))


def test_load_on_postgresql() -> None:
    if server_binaries() is None and not IN_CI:
        pytest.skip("no PostgreSQL server installed")
    assert_nothing_lost(run("postgresql", seconds=5, scorers=4, pollers=12))


def test_workers_killed_mid_save_leave_every_game_whole() -> None:
    report = run("sqlite", seconds=6, scorers=4, pollers=4, kill_every=0.4)
    assert report["workers_killed"] >= 5
    assert_nothing_lost(report)
