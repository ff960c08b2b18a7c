"""The limits of ``scorekeeper/limits.py`` (game-format.md, "Limits"): each refused with a
message that names it, before the work of reading something huge is done."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.games.gamefile import GameFileError, load_document, read_game_file
from scorekeeper.games.tally import HandEntry, RoundEntry, tally_game
from scorekeeper.history.backup import read_lines
from scorekeeper.limits import (
    BACKUP_LINE_BYTES,
    GAME_FILE_BYTES,
    MAX_HAND_CARDS,
    MAX_NAMES,
    MAX_PLAYERS,
    MAX_ROUNDS,
    TEXT_LENGTH,
)
from scorekeeper.models import Game
from scorekeeper.rules import get_ruleset

from .helpers import game_document, save_round, start_game, twelve_step_to_the_end

ROOT = Path(__file__).resolve().parent.parent


def names(count: int) -> list[str]:
    return [f"Player {seat}" for seat in range(count)]


def games_stored(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count(Game.id))) or 0


class CountingStream(io.RawIOBase):
    """``size`` bytes of ``fill``, counting how many were read."""

    def __init__(self, size: int, fill: bytes = b" ") -> None:
        self.size, self.fill, self.read_bytes = size, fill, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        count = min(len(buffer), self.size - self.read_bytes)
        buffer[:count] = self.fill * count
        self.read_bytes += count
        return count


# --- players, rounds, cards -------------------------------------------------------------------


def test_a_game_file_of_more_players_than_the_limit_is_refused_by_name() -> None:
    """At most MAX_PLAYERS at the table at once, and MAX_NAMES names in all (issue 49)."""
    document = game_document("contract-rummy", names(MAX_PLAYERS + 1), [])
    with pytest.raises(GameFileError) as refused:
        read_game_file(document)
    assert refused.value.problems == [
        f"A game has at most {MAX_PLAYERS} players at the table at once; this one has "
        f"{MAX_PLAYERS + 1}."
    ]
    document = game_document("contract-rummy", names(MAX_NAMES + 1), [])
    with pytest.raises(GameFileError) as refused:
        read_game_file(document)
    assert refused.value.problems == [
        f"A game seats at most {MAX_NAMES} names in all; this file has {MAX_NAMES + 1}."
    ]


def test_the_new_game_form_refuses_more_players_than_the_limit(
    app: Flask, client: FlaskClient
) -> None:
    form = {"rules": "contract-rummy", "start": "y", "first_dealer": "0"}
    form.update({f"players-{seat}": name for seat, name in enumerate(names(MAX_PLAYERS + 1))})
    response = client.post("/games/new", data=form)
    assert response.status_code == 422
    assert f"A game has at most {MAX_PLAYERS} players" in response.get_data(as_text=True)
    assert games_stored(app) == 0


def test_a_game_file_of_more_rounds_than_the_limit_is_refused_before_reading_them() -> None:
    # Rounds that are not even objects: the count refuses the file before any is read.
    document = game_document("twelve-step", names(3), [])
    document["rounds"] = [None] * (MAX_ROUNDS + 1)
    with pytest.raises(GameFileError) as refused:
        read_game_file(document)
    assert refused.value.problems == [
        f"A game has at most {MAX_ROUNDS} rounds; this file has {MAX_ROUNDS + 1}."
    ]


def test_the_tally_refuses_a_round_past_the_limit() -> None:
    """The web's round saves and the file both go through the tally."""
    rules = get_ruleset("twelve-step")
    entry = RoundEntry(went_out=0, hands=(HandEntry(), HandEntry("K", True), HandEntry("Q")))
    messages = [p.message for p in tally_game(rules, names(3), 0, [entry] * MAX_ROUNDS).problems]
    assert not [m for m in messages if "rounds" in m and "at most" in m]
    over = tally_game(rules, names(3), 0, [entry] * (MAX_ROUNDS + 1)).problems
    assert any(
        p.message
        == f"A game has at most {MAX_ROUNDS} rounds; this one would have {MAX_ROUNDS + 1}."
        for p in over
    )


def test_a_hand_of_more_cards_than_the_limit_is_refused(app: Flask, client: FlaskClient) -> None:
    game = start_game(client, "twelve-step", ["Ann", "Ben", "Cy"])
    # 61 cards, within what three players' packs hold, so only the hand's size is wrong.
    too_many = " ".join(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"] * 5 + ["A"])
    response = save_round(client, game, "Ann", {"Ben": too_many, "Cy": "K"}, expect=422)
    body = response.get_data(as_text=True)
    assert f"{MAX_HAND_CARDS + 1} cards are entered; a hand holds at most {MAX_HAND_CARDS}" in body
    # What was typed stays in the form.
    assert too_many in body
    document = game_document(
        "twelve-step", ["Ann", "Ben", "Cy"], [("Ann", {"Ben": too_many, "Cy": "K"}, ())]
    )
    with pytest.raises(GameFileError) as refused:
        read_game_file(document)
    assert f"a hand holds at most {MAX_HAND_CARDS}" in str(refused.value)


def test_long_text_in_house_rules_is_refused(app: Flask, client: FlaskClient) -> None:
    page = client.get("/rules/new?base=twelve-step")
    assert page.status_code == 200
    response = client.post(
        "/rules/new", data={"name": "Long", "base": "twelve-step", "contracts": "x" * 5000}
    )
    assert response.status_code == 422
    assert f"at most {TEXT_LENGTH} characters" in response.get_data(as_text=True)


# --- game files: 5 MB, and never read past it ------------------------------------------------


def test_a_large_game_file_is_refused_after_reading_at_most_its_limit() -> None:
    stream = CountingStream(39 * 1024 * 1024)
    with pytest.raises(GameFileError) as refused:
        load_document(stream)  # type: ignore[arg-type]
    assert "larger than 5 MB, the most a game file may be" in str(refused.value)
    assert stream.read_bytes <= GAME_FILE_BYTES + 1


def test_game_import_refuses_a_39_mb_file(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "huge.json"
    rounds = ",".join(["{}"] * (39 * 1024 * 1024 // 3))
    path.write_text('{"format": "scorekeeper-game", "version": 1, "rounds": [' + rounds + "]}")
    result = runner.invoke(args=["game", "import", str(path)])
    assert result.exit_code == 1
    assert "larger than 5 MB, the most a game file may be" in result.output
    assert games_stored(app) == 0


def test_the_upload_refuses_a_file_over_the_limit_naming_it(
    app: Flask, client: FlaskClient
) -> None:
    raw = b" " * (GAME_FILE_BYTES + 200_000)
    response = client.post("/games/import", data={"file": (io.BytesIO(raw), "big.json")})
    assert response.status_code == 413
    assert "this page takes at most 5.1 MB" in response.get_data(as_text=True)
    # A file just over 5 MB whose request still fits is refused by the game file's own limit.
    raw = b" " * (GAME_FILE_BYTES + 10)
    response = client.post("/games/import", data={"file": (io.BytesIO(raw), "big.json")})
    assert response.status_code == 422
    assert "larger than 5 MB, the most a game file may be" in response.get_data(as_text=True)


def test_other_forms_take_far_less_than_an_upload(app: Flask, client: FlaskClient) -> None:
    response = client.post("/games/new", data={"rules": "x" * (2 * 1024 * 1024)})
    assert response.status_code == 413
    assert "at most 1 MB" in response.get_data(as_text=True)


def test_a_page_that_reads_no_form_refuses_a_body_over_its_limit(client: FlaskClient) -> None:
    """Refused from the length it declares, before anything reads the body: ``flask serve``
    passes a body it stopped reading at the headers on with that length and nothing of it."""
    response = client.get("/", environ_overrides={"CONTENT_LENGTH": str(2 * 1024 * 1024)})
    assert response.status_code == 413
    assert "at most 1 MB" in response.get_data(as_text=True)


def test_the_limits_hold_on_flask_3_0_which_keeps_no_limit_of_its_own_per_request(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Flask 3.0, which pyproject.toml allows, has no ``Request._max_content_length`` (3.1 added
    it): the per-page limits must not rest on it."""
    import flask.wrappers

    monkeypatch.delattr(flask.wrappers.Request, "_max_content_length", raising=False)
    assert client.get("/games/new").status_code == 200
    response = client.post("/games/new", data={"rules": "x" * (2 * 1024 * 1024)})
    assert response.status_code == 413
    assert "at most 1 MB" in response.get_data(as_text=True)


# --- backups: any length, line by line ---------------------------------------------------------


def test_an_over_long_line_is_skipped_without_being_held() -> None:
    lines = b"first\n" + b"x" * (BACKUP_LINE_BYTES + 10) + b"\n" + b"third"
    read = [
        (number, None if line is None else line[:10])
        for number, line in read_lines(io.BytesIO(lines))
    ]
    assert read == [(1, b"first\n"), (2, None), (3, b"third")]
    exactly = b"y" * BACKUP_LINE_BYTES + b"\n"
    assert [number for number, line in read_lines(io.BytesIO(exactly)) if line] == [1]


def _game_line(players: list[str]) -> bytes:
    document = game_document("twelve-step", players, twelve_step_to_the_end(players)[:2])
    return json.dumps(document).encode() + b"\n"


def test_a_restore_refuses_long_lines_by_number_and_stores_the_rest(
    app: Flask, client: FlaskClient
) -> None:
    backup = (
        _game_line(["Ann", "Ben", "Cy"])
        + b" " * (BACKUP_LINE_BYTES + 1)
        + b"\n"
        + _game_line(["Dee", "Eve", "Fay"])
    )
    # Larger than a game file: the restore has its own, larger limit.
    assert len(backup) > GAME_FILE_BYTES
    response = client.post(
        "/history/backup",
        data={"file": (io.BytesIO(backup), "b.jsonl")},
        follow_redirects=True,
    )
    body = response.get_data(as_text=True)
    assert response.status_code == 200, body
    assert "Stored 2 games; refused 1 line." in body
    assert "longer than 5 MB, the most one game may take" in body
    assert games_stored(app) == 2


MEASURE = """
import sys
from scorekeeper import create_app
app = create_app({"SQLALCHEMY_DATABASE_URI": sys.argv[1], "SECRET_KEY": "m"})
result = app.test_cli_runner().invoke(args=["history", "import", sys.argv[2]])
print(result.output.splitlines()[-1])
# VmHWM, not getrusage: ru_maxrss carries over the forking parent's size across exec.
peak = next(line for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(int(peak.split()[1]) // 1024)
"""


@pytest.mark.slow
def test_restoring_a_100_mb_backup_stays_under_300_mb(tmp_path: Path) -> None:
    """Real games, over-long lines, and near-limit lines that parse (a 4.9 MB document):
    the peak memory of the whole process stays far below the backup's size."""
    path = tmp_path / "backup.jsonl"
    near_limit = game_document("twelve-step", ["Gus", "Hal", "Ida"], [])
    near_limit["padding"] = "p" * (BACKUP_LINE_BYTES - 100_000)
    near_line = json.dumps(near_limit).encode() + b"\n"
    with path.open("wb") as backup:
        for copy in range(8):
            backup.write(_game_line([f"Ann{copy}", "Ben", "Cy"]))
            backup.write(b"z" * (BACKUP_LINE_BYTES * 2) + b"\n")
            backup.write(near_line)
    size = path.stat().st_size
    assert size > 100 * 1024 * 1024
    database = f"sqlite:///{tmp_path / 'restore.db'}"
    measured = subprocess.run(
        [sys.executable, "-c", MEASURE, database, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "SCOREKEEPER_INSTANCE_PATH": str(tmp_path), "PATH": ""},
        check=True,
    )
    summary, peak = measured.stdout.strip().splitlines()[-2:]
    assert summary == "Stored 16 games; refused 8 lines.", measured.stdout + measured.stderr
    assert int(peak) < 300, f"peak {peak} MB for a {size // 2**20} MB backup"
