"""A web restore answers at once and reads the backup in the background, with a progress page."""

from __future__ import annotations

import io
import stat
import time
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.history import backup, restores
from scorekeeper.models import Game, RestoreJob

from ..conftest import family_id, signed_in
from .test_backup import games


def backup_of_three(client: FlaskClient, app: Flask) -> bytes:
    with app.app_context():
        games()
    return client.get("/history/backup/games.jsonl").get_data()


def upload(client: FlaskClient, raw: bytes) -> str:
    answer = client.post("/history/backup", data={"file": (io.BytesIO(raw), "games.jsonl")})
    assert answer.status_code == 303, answer.status_code
    return answer.headers["Location"]


def job(app: Flask, job_id: int) -> RestoreJob:
    with app.app_context(), scope.household(family_id(app)):
        found = db.session.scalar(select(RestoreJob).where(RestoreJob.id == job_id))
        assert found is not None
        db.session.expunge(found)
        return found


def game_count(app: Flask) -> int:
    with app.app_context():
        return int(db.session.scalar(select(func.count(Game.id))) or 0)


def test_a_restore_reports_its_counts_and_refused_lines(client: FlaskClient, app: Flask) -> None:
    raw = backup_of_three(client, app)
    with app.app_context():
        db.session.execute(Game.__table__.delete())
        db.session.commit()
    location = upload(client, raw + b"\n[1, 2]\nnot json\n")
    assert location.startswith("/history/restores/")
    page = client.get(location)
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert "Stored 3 games; refused 2 lines." in text
    assert "6 of 6 lines" in text
    assert "<strong>Line 5:</strong> This line is not a game document." in text
    assert "<strong>Line 6:</strong> This line is not JSON" in text
    # Done: no more polling, no Cancel button; the saved upload is gone.
    assert "every 1s" not in text and "Cancel" not in text
    assert list((Path(app.instance_path) / "restores").iterdir()) == []
    done = job(app, int(location.rsplit("/", 1)[1]))
    assert (done.status, done.stored, done.already, done.refused) == ("done", 3, 0, 2)
    assert done.finished_at is not None
    # The same file again stores nothing.
    again = client.get(upload(client, raw)).get_data(as_text=True)
    assert "Stored 0 games; 3 games were here already." in again
    assert game_count(app) == 3


def test_a_running_job_polls_and_a_stale_one_reads_as_interrupted(
    client: FlaskClient, app: Flask
) -> None:
    with app.app_context(), scope.household(family_id(app)):
        running = RestoreJob(status="running", total_lines=10, lines_done=4, stored=4)
        stale = RestoreJob(
            status="running", updated_at=restores.utcnow() - 2 * restores.INTERRUPTED_AFTER
        )
        db.session.add_all([running, stale])
        db.session.commit()
        ids = running.id, stale.id
    page = client.get(f"/history/restores/{ids[0]}").get_data(as_text=True)
    assert 'hx-trigger="every 1s"' in page and "4 of 10 lines" in page and "Cancel" in page
    fragment = client.get(f"/history/restores/{ids[0]}", headers={"HX-Request": "true"})
    assert "<html" not in fragment.get_data(as_text=True)
    page = client.get(f"/history/restores/{ids[1]}").get_data(as_text=True)
    assert "Interrupted: upload the file again (games already restored are skipped)." in page
    assert "every 1s" not in page
    assert client.post(f"/history/restores/{ids[1]}/cancel").status_code == 303
    assert job(app, ids[1]).status == "cancelled"


def test_cancel_stops_after_the_current_batch(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Batches of two games: the first batch is stored, then the request to stop is read.
    monkeypatch.setattr(backup, "BATCH_GAMES", 2)
    raw = backup_of_three(client, app)
    with app.app_context():
        db.session.execute(Game.__table__.delete())
        db.session.commit()
    with app.test_request_context(), scope.household(family_id(app)):
        made = RestoreJob(total_lines=3, cancel_requested=True)
        db.session.add(made)
        db.session.commit()
        job_id = made.id
        path = restores.upload_path(job_id)
        restores.save_upload(io.BytesIO(raw), path)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        db.session.remove()
    restores.run(app, job_id, family_id(app), "owner")
    stopped = job(app, job_id)
    assert (stopped.status, stopped.stored, stopped.lines_done) == ("cancelled", 2, 2)
    assert game_count(app) == 2
    assert not path.exists()


def test_another_household_gets_404(client: FlaskClient, app: Flask) -> None:
    location = upload(client, b"[1]\n")
    other = signed_in(app, "other-owner", "owner", "Others")
    assert other.get(location).status_code == 404
    assert other.post(location + "/cancel").status_code == 404
    assert client.get(location).status_code == 200


def test_a_restore_really_runs_in_its_thread(client: FlaskClient, app: Flask) -> None:
    raw = backup_of_three(client, app)
    with app.app_context():
        db.session.execute(Game.__table__.delete())
        db.session.commit()
    app.config["RESTORE_IN_BACKGROUND"] = True
    job_id = int(upload(client, raw).rsplit("/", 1)[1])
    deadline = time.monotonic() + 30
    while job(app, job_id).status not in ("done", "failed") and time.monotonic() < deadline:
        time.sleep(0.1)
    finished = job(app, job_id)
    assert (finished.status, finished.stored, finished.lines_done) == ("done", 3, 3)
    assert game_count(app) == 3


def test_old_jobs_and_interrupted_uploads_are_tidied_with_the_daily_purge(app: Flask) -> None:
    from datetime import timedelta

    from scorekeeper.bin.services import purge_now_and_then

    from ..conftest import household_id

    now = restores.utcnow()
    long_ago = now - restores.JOBS_KEPT_FOR - timedelta(days=1)
    lately = now - restores.JOBS_KEPT_FOR + timedelta(days=1)
    others = household_id(app, "Others")
    with app.test_request_context():
        made = {}
        for name, household, values in [
            ("old", family_id(app), {"status": "done", "finished_at": long_ago}),
            ("old elsewhere", others, {"status": "cancelled", "finished_at": long_ago}),
            ("recent", family_id(app), {"status": "done", "finished_at": lately}),
            ("stale", family_id(app), {"status": "running", "updated_at": long_ago}),
            ("running", others, {"status": "running", "updated_at": now}),
        ]:
            with scope.household(household):
                row = RestoreJob(**values)
                db.session.add(row)
                db.session.commit()
                made[name] = row.id
        for name in ("stale", "running"):
            restores.save_upload(io.BytesIO(b"{}\n"), restores.upload_path(made[name]))
        uploads = {name: restores.upload_path(made[name]) for name in ("stale", "running")}
        db.session.remove()
    app.extensions.pop("bin_purged", None)
    purge_now_and_then(app)
    with app.app_context():
        kept = set(db.session.scalars(select(RestoreJob.id)))
    assert kept == {made["recent"], made["stale"], made["running"]}
    assert not uploads["stale"].exists() and uploads["running"].exists()
    # The interrupted job still reads as interrupted; its Cancel needs no file.
    assert restores.interrupted(job(app, made["stale"]))


def test_a_household_reads_one_backup_at_a_time(client: FlaskClient, app: Flask) -> None:
    from datetime import timedelta

    from scorekeeper.models import RestoreStatus, utcnow

    raw = backup_of_three(client, app)
    with app.app_context(), scope.household(family_id(app)):
        reading = RestoreJob(status=RestoreStatus.RUNNING.value, total_lines=3)
        db.session.add(reading)
        db.session.commit()
        reading_id = reading.id
        db.session.remove()
    refused = client.post("/history/backup", data={"file": (io.BytesIO(raw), "games.jsonl")})
    text = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert 'id="restore-file-error"' in text and "being read already" in text
    assert f'href="/history/restores/{reading_id}"' in text
    with app.app_context():
        assert db.session.scalar(select(func.count(RestoreJob.id))) == 1
    # Another household is not held back by this one's.
    assert upload(signed_in(app, "zed", household="Others"), raw).startswith("/history/restores/")
    # A job left behind by a server that stopped holds nobody back.
    with app.app_context(), scope.household(family_id(app)):
        left = db.session.get(RestoreJob, reading_id)
        assert left is not None
        left.updated_at = utcnow() - restores.INTERRUPTED_AFTER - timedelta(seconds=1)
        db.session.commit()
        db.session.remove()
    assert upload(client, raw).startswith("/history/restores/")
