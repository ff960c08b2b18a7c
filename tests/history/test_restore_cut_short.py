"""Issue 40, item 3: a restore cut short is finished or undone, never half there. What a restore
stored is marked from its first batch's transaction until its rebuild counts it; a restore
whose server stopped before that rebuild is counted by the next ratings' worker to look, and
its job tells the owner how it ended. (Through ``flask serve``, with SIGTERM and SIGKILL:
``test_restore_cut_short_serve.py``.)"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from bench.restore import write_backup
from scorekeeper import scope
from scorekeeper.derived import GameStat, RestoreMark
from scorekeeper.extensions import db
from scorekeeper.history import backup, rating_worker, ratings, restore_end, restores
from scorekeeper.models import Game, RestoreJob

from ..conftest import family_id
from .test_kept_stats import assert_kept_equals_scratch
from .test_ratings import assert_kept_equals_replay
from .test_restore_jobs import job

GAMES = 12
# A batch of five games: the first batch is stored while seven games wait.
BATCH = 5
UNDER_WAY = "A restore is being finished: the games it stored are counted here once it is done."


class _Stopped(BaseException):
    """The server's process ending where it stands: no ``except Exception`` catches it, and no
    rebuild runs after it."""


@pytest.fixture(scope="module")
def backup_file(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("backup") / "games.jsonl"
    write_backup(path, GAMES)
    return path.read_bytes()


@pytest.fixture(autouse=True)
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backup, "BATCH_GAMES", BATCH)


def _job_of(app: Flask, raw: bytes) -> int:
    """A restore's job, its upload saved, not yet read."""
    with app.test_request_context(), scope.household(family_id(app)):
        made = RestoreJob(total_lines=raw.count(b"\n"))
        db.session.add(made)
        db.session.commit()
        restores.save_upload(io.BytesIO(raw), restores.upload_path(made.id))
        job_id = made.id
        db.session.remove()
    return job_id


def _stop(*_: object, **__: object) -> None:
    raise _Stopped


@contextmanager
def _stopped_after_the_first_batch(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The restore's server stops once its first batch is stored: before the next batch, and
    before any rebuild (the lock goes with the process, as it does here)."""
    with monkeypatch.context() as stopping:
        stopping.setattr(restores, "_cancel_requested", _stop)
        stopping.setattr(restore_end, "restored", _stop)
        yield


def _cut_short(app: Flask, monkeypatch: pytest.MonkeyPatch, raw: bytes) -> int:
    """A restore of ``raw`` whose server stopped after its first batch: its job's id. Its saved
    upload is left, as a killed process leaves it."""
    job_id = _job_of(app, raw)
    with _stopped_after_the_first_batch(monkeypatch), pytest.raises(_Stopped):
        restores.run(app, job_id, family_id(app), "owner")
    with app.app_context():
        restores.save_upload(io.BytesIO(raw), restores.upload_path(job_id))
    return job_id


def _upload_of(app: Flask, job_id: int) -> Path:
    with app.app_context():
        return restores.upload_path(job_id)


def _counts(app: Flask) -> tuple[int, int, list[tuple[int, int, bool]]]:
    """(games, kept game rows, marks as (lines, stored, read whole)) of the household."""
    with app.app_context(), scope.household(family_id(app)):
        found = (
            int(db.session.scalar(select(func.count(Game.id))) or 0),
            int(db.session.scalar(select(func.count(GameStat.game_id))) or 0),
            [
                (mark.lines, mark.stored, mark.read_whole)
                for mark in db.session.scalars(select(RestoreMark))
            ],
        )
        db.session.remove()
    return found


def _repair(app: Flask) -> bool:
    """What the ratings' worker does when it next looks (it runs by itself in a server);
    whether it is to look again a second later."""
    with app.app_context():
        again = rating_worker.run_pending()
        db.session.remove()
    return again


def test_a_restore_cut_short_is_counted_by_the_next_look_and_says_run_it_again(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch, backup_file: bytes
) -> None:
    job_id = _cut_short(app, monkeypatch, backup_file)
    # Half there: five games stored, none counted; the mark holds them, and the history says
    # a restore is being finished rather than that no game was played.
    assert _counts(app) == (BATCH, 0, [(BATCH, BATCH, False)])
    assert job(app, job_id).status == "running"
    for page in ("/history", "/records"):
        assert UNDER_WAY in client.get(page).get_data(as_text=True), page
    _repair(app)
    assert _counts(app) == (BATCH, BATCH, [])
    household = family_id(app)
    assert_kept_equals_scratch(app, household, "after the repair")
    assert_kept_equals_replay(app, household, "after the repair")
    told = job(app, job_id)
    assert (told.status, told.lines_done, told.stored, told.total_lines) == (
        "cut_short",
        BATCH,
        BATCH,
        GAMES,
    )
    page = client.get(f"/history/restores/{job_id}").get_data(as_text=True)
    assert "Cut short: run it again." in page and "every 1s" not in page
    assert f"The server stopped after line {BATCH} of {GAMES}." in page
    assert f"Stored {BATCH} games. Those games are counted" in page
    backup_page = client.get("/history/backup").get_data(as_text=True)
    assert "The last restore" in backup_page and "Cut short: run it again." in backup_page
    history = client.get("/history").get_data(as_text=True)
    assert UNDER_WAY not in history and "No game has been played yet" not in history
    # Run again, as the page says: the rest is stored, every game counted once.
    again = int(
        client.post("/history/backup", data={"file": (io.BytesIO(backup_file), "games.jsonl")})
        .headers["Location"]
        .rsplit("/", 1)[1]
    )
    done = job(app, again)
    assert (done.status, done.stored, done.already) == ("done", GAMES - BATCH, BATCH)
    assert _counts(app) == (GAMES, GAMES, [])
    assert_kept_equals_scratch(app, household, "read again")
    assert_kept_equals_replay(app, household, "read again")


def test_a_restore_stopped_before_its_rebuild_is_finished_after_the_restart(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch, backup_file: bytes
) -> None:
    job_id = _job_of(app, backup_file)
    # Every batch stored; the server stops before the rebuild that counts them.
    with monkeypatch.context() as stopping, pytest.raises(_Stopped):
        stopping.setattr(restore_end, "restored", _stop)
        restores.run(app, job_id, family_id(app), "owner")
    restores_left = _upload_of(app, job_id)
    with app.app_context():
        restores.save_upload(io.BytesIO(backup_file), restores_left)
    assert _counts(app) == (GAMES, 0, [(GAMES, GAMES, True)])
    _repair(app)
    assert _counts(app) == (GAMES, GAMES, [])
    assert_kept_equals_scratch(app, family_id(app), "after the repair")
    assert_kept_equals_replay(app, family_id(app), "after the repair")
    told = job(app, job_id)
    assert (told.status, told.lines_done, told.stored) == ("rebuilt", GAMES, GAMES)
    page = client.get(f"/history/restores/{job_id}").get_data(as_text=True)
    assert f"Finished after a restart: statistics rebuilt. Stored {GAMES} games." in page
    # The saved upload of a job that ended so is not kept.
    assert not restores_left.exists()


def test_a_repair_leaves_the_mark_of_a_restore_still_reading(
    app: Flask, monkeypatch: pytest.MonkeyPatch, backup_file: bytes
) -> None:
    """A mark whose restore holds the household's lock (another process reads it now) is not
    the repair's: that restore counts its games itself."""
    job_id = _cut_short(app, monkeypatch, backup_file)
    reading = restore_end.Lock()
    with app.app_context(), scope.household(family_id(app)):
        reading.take()
        try:
            # Left, and looked at again a second later (its restore may end, or its process
            # be found gone).
            assert _repair(app) is True
            assert _counts(app)[1:] == (0, [(BATCH, BATCH, False)])
        finally:
            reading.release()
            db.session.remove()
    assert job(app, job_id).status == "running"
    assert _repair(app) is False
    assert _counts(app)[1:] == (BATCH, [])
    assert job(app, job_id).status == "cut_short"


def test_a_repair_cut_off_leaves_the_mark_and_is_done_whole_at_the_next_look(
    app: Flask, monkeypatch: pytest.MonkeyPatch, backup_file: bytes
) -> None:
    job_id = _cut_short(app, monkeypatch, backup_file)

    def killed(*_: object, **__: object) -> None:
        raise RuntimeError("the server was killed in the middle of the repair")

    # Killed after the statistics were rebuilt, while the ratings were: nothing of it is kept.
    with monkeypatch.context() as killing, pytest.raises(RuntimeError):
        killing.setattr(ratings, "rebuild", killed)
        _repair(app)
    assert _counts(app)[1:] == (0, [(BATCH, BATCH, False)])
    assert job(app, job_id).status == "running"
    _repair(app)
    assert _counts(app)[1:] == (BATCH, [])
    assert job(app, job_id).status == "cut_short"
    assert_kept_equals_scratch(app, family_id(app), "repaired again")
    assert_kept_equals_replay(app, family_id(app), "repaired again")


def test_a_restore_that_ends_leaves_no_mark_and_counts_a_cut_short_ones_games(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch, backup_file: bytes
) -> None:
    """A restore read to its end takes away its own mark, and another's its server left: its
    rebuild counted those games too, and that job is told."""
    first = _cut_short(app, monkeypatch, backup_file)
    half = backup_file.split(b"\n", BATCH + 2)[BATCH + 1]
    second = _job_of(app, half + b"\n")
    restores.run(app, second, family_id(app), "owner")
    assert job(app, second).status == "done"
    assert job(app, first).status == "cut_short"
    assert _counts(app) == (BATCH + 1, BATCH + 1, [])
    assert_kept_equals_scratch(app, family_id(app), "after the second restore")
    # The first job's saved upload goes with the daily housekeeping.
    assert _upload_of(app, first).exists()
    with app.app_context():
        assert restores.tidy() == (0, 1)
    assert not _upload_of(app, first).exists()
