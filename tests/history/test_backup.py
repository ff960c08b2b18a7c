"""Backup and restore of the whole history (command line and web), and the rounds CSV."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import delete, func, select

from scorekeeper.extensions import db
from scorekeeper.models import Game, Hand, Seat

from .factory import contract_rummy, day, document, play, twelve_step_rounds

VOLATILE = ("id", "exported")


def games() -> None:
    contract_rummy(["Ann", "Ben"], "Ann", {"Ben": "K Q"}, day(1))
    play(
        ["Ann", "Ben", "Cy"],
        twelve_step_rounds("Cy", {"Ann": "K", "Ben": "5 5"}, {3: {"Ann"}}),
        rules="twelve-step",
        started=day(2),
    )
    play(["Ben", "Dee"], [("Dee", {"Ben": "JK"})], started=day(3), abandoned=True)


def lasting(line: str) -> dict[str, Any]:
    document = json.loads(line)
    return {key: value for key, value in document.items() if key not in VOLATILE}


def test_export_then_import_into_an_empty_history_gives_the_same_games(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    with app.app_context():
        games()
    exported = runner.invoke(args=["history", "export"])
    assert exported.exit_code == 0, exported.output
    lines = exported.stdout.splitlines()
    assert len(lines) == 3 and "Exported 3 games." in exported.stderr
    assert [json.loads(line)["started"][:10] for line in lines] == [
        "2025-01-01",
        "2025-01-02",
        "2025-01-03",
    ]
    assert json.loads(lines[2])["status"] == "abandoned"

    with app.app_context():
        db.session.execute(delete(Game))
        db.session.commit()
    backup = tmp_path / "games.jsonl"
    backup.write_text("\n".join(lines) + "\n", encoding="utf-8")
    imported = runner.invoke(args=["history", "import", str(backup)])
    assert imported.exit_code == 0, imported.output
    assert "Stored 3 games." in imported.stdout

    again = runner.invoke(args=["history", "export"]).stdout.splitlines()
    assert [lasting(line) for line in again] == [lasting(line) for line in lines]


def test_a_refused_line_is_reported_and_the_others_are_stored(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    good = json.dumps(document(["Ann", "Ben"], [("Ann", {"Ben": "K"})]))
    bad_card = json.dumps(document(["Ann", "Ben"], [("Ann", {"Ben": "1H"})]))
    backup = tmp_path / "games.jsonl"
    backup.write_text("\n".join([good, "{not json", bad_card, "", good]) + "\n")
    result = runner.invoke(args=["history", "import", str(backup)])
    assert result.exit_code == 1
    assert "line 2: This line is not JSON" in result.stderr
    assert "line 3:" in result.stderr and "1H" in result.stderr
    assert "line 1" not in result.stderr and "line 5" not in result.stderr
    assert "Stored 2 games; refused 2 lines." in result.stdout
    with app.app_context():
        assert db.session.scalar(select(func.count(Game.id))) == 2


def test_download_and_upload_on_the_web(client: FlaskClient, app: Flask) -> None:
    with app.app_context():
        games()
    page = client.get("/history/backup")
    assert page.status_code == 200 and 'enctype="multipart/form-data"' in page.get_data(
        as_text=True
    )
    download = client.get("/history/backup/games.jsonl")
    assert download.status_code == 200
    assert download.headers["Content-Disposition"].startswith("attachment; filename=scorekeeper-")
    body = download.get_data(as_text=True)
    assert len(body.splitlines()) == 3

    missing = client.post("/history/backup", data={})
    assert missing.status_code == 422
    assert "Choose the backup file to read." in missing.get_data(as_text=True)

    upload = body + "[1, 2]\n"
    answer = client.post(
        "/history/backup",
        data={"file": (io.BytesIO(upload.encode()), "games.jsonl")},
        content_type="multipart/form-data",
    )
    # The answer is a redirect to the restore's progress page (read before answering here).
    assert answer.status_code == 303
    answer = client.get(answer.headers["Location"])
    assert answer.status_code == 200
    text = answer.get_data(as_text=True)
    # The games carry their uids: restored into the household they came from, none is doubled.
    assert "Stored 0 games; 3 games were here already; refused 1 line." in text
    assert "<strong>Line 4:</strong> This line is not a game document." in text
    with app.app_context():
        assert db.session.scalar(select(func.count(Game.id))) == 3


def test_rounds_csv_has_a_row_per_hand_with_running_totals(client: FlaskClient, app: Flask) -> None:
    with app.app_context():
        games()
        play(["=SUM(A1)", "Ann"], [("Ann", {"=SUM(A1)": "K"})], started=day(4))
        hands = db.session.scalar(select(func.count(Hand.id)))
        totals = {
            (game_id, position): total
            for game_id, position, total in db.session.execute(
                select(Seat.game_id, Seat.position, Seat.total)
            )
        }
    response = client.get("/history/rounds.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert len(rows) == hands
    last = {(int(r["game"]), int(r["seat"]) - 1): int(r["running_total"]) for r in rows}
    assert last == totals
    first = rows[0]
    assert (first["round"], first["player"], first["went_out"], first["points"]) == (
        "1",
        "Ann",
        "yes",
        "0",
    )
    assert "'=SUM(A1)" in {r["player"] for r in rows}
