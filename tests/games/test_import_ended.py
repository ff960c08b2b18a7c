"""Issue 37, item 7: a game stored from a game file ended, as the app counts it, when the
file says it started (a file carries no other time: game-format.md), not at the moment of the
import, whichever way it comes in: the game file's page or a backup's restore."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from io import BytesIO

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.models import Game, utcnow

from ..conftest import family_id
from ..helpers import game_document, twelve_step_to_the_end

NAMES = ("Ann", "Ben", "Cy")
STARTED = datetime(2019, 3, 2, 19, 30, tzinfo=UTC)


def _ends(app: Flask) -> dict[str, datetime | None]:
    with app.app_context(), scope.household(family_id(app)):
        found = dict(db.session.execute(select(Game.uid, Game.ended)).all())
        db.session.remove()
    return found


def test_an_imported_game_ended_when_it_started_not_at_the_import(
    app: Flask, client: FlaskClient
) -> None:
    finished = twelve_step_to_the_end(NAMES)
    page = game_document(
        "twelve-step", NAMES, finished, started=STARTED.isoformat(), uid="old-game-1"
    )
    answer = client.post(
        "/games/import",
        data={"file": (BytesIO(json.dumps(page).encode()), "game.json")},
        content_type="multipart/form-data",
    )
    assert answer.status_code in (302, 303), answer.text
    restored = game_document(
        "twelve-step", NAMES, finished, started=STARTED.isoformat(), uid="old-game-2"
    )
    playing = game_document(
        "twelve-step", NAMES, finished[:2], started=STARTED.isoformat(), uid="old-game-3"
    )
    undated = game_document("twelve-step", NAMES, finished, uid="new-game-4")
    backup = b"".join(json.dumps(d).encode() + b"\n" for d in (restored, playing, undated))
    answer = client.post(
        "/history/backup",
        data={"file": (BytesIO(backup), "games.jsonl")},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 303
    ends = _ends(app)
    assert ends["old-game-1"] == STARTED and ends["old-game-2"] == STARTED
    assert ends["old-game-3"] is None
    # A file with no start: the game starts and ends at the import.
    undated_end = ends["new-game-4"]
    assert undated_end is not None and utcnow() - undated_end < timedelta(minutes=5)
