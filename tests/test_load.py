"""The whole app under a table full of phones, served as it ships
(``flask serve``): short load and fault runs.

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


def test_server_killed_mid_save_leaves_every_game_whole() -> None:
    """SIGKILL the serving process again and again while rounds are saved, restart it each
    time: every round answered as stored is there, none is half-written."""
    report = run("sqlite", seconds=10, scorers=4, pollers=4, kill_every=0.6, kills=3)
    assert report["server_kills"] >= 3, report
    assert report["saves_stored_before_a_kill"] > 0, report
    assert report["requests_cut_by_a_kill"] > 0, report
    assert_nothing_lost(report)
