"""The rounds CSV kept (``scorekeeper.history.rounds_file``): built once per version of a
household's data, then sent from its file; every write makes the next download fresh; each
household's file is its own."""

from __future__ import annotations

import gzip
import io
import json
import random
import stat
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.history import backup, rounds_file

from ..conftest import family_id, household_id, signed_in
from ..helpers import game_document, import_lines, save_round, start_game
from .test_kept_stats import _write

URL = "/history/rounds.csv"


def _played(client: FlaskClient, names: list[str]) -> int:
    """A game of ``names`` with one round saved (a game without rounds has no CSV rows)."""
    game_id = start_game(client, "contract-rummy", names)
    save_round(client, game_id, names[0], {name: "K" for name in names[1:]}, set(), expect=None)
    return game_id


def _fresh(app: Flask, household: int) -> bytes:
    """The CSV as built from the database now, without any kept file."""
    with app.test_request_context(), scope.household(household):
        text = "".join(backup.csv_lines())
        db.session.remove()
    return text.encode("utf-8")


def _kept(app: Flask, household: int) -> list[Path]:
    return sorted(Path(app.instance_path, rounds_file.FOLDER).glob(f"rounds-{household}-*.csv"))


def test_the_csv_is_built_once_then_sent_from_its_file(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    household = family_id(app)
    _played(client, ["Ann", "Ben"])
    first = client.get(URL)
    assert first.status_code == 200 and first.mimetype == "text/csv"
    assert first.data == _fresh(app, household)
    assert "attachment" in first.headers["Content-Disposition"]
    etag, _ = first.get_etag()
    assert etag
    [kept] = _kept(app, household)
    assert kept.read_bytes() == first.data
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE(kept.parent.stat().st_mode) == 0o700

    def no_build() -> None:
        raise AssertionError("the CSV was built again")

    monkeypatch.setattr(backup, "csv_lines", no_build)
    again = client.get(URL)
    assert again.status_code == 200 and again.data == first.data
    assert again.get_etag()[0] == etag
    assert "attachment" in again.headers["Content-Disposition"]
    assert again.headers["Cache-Control"] == "no-store"  # an export of every round
    held = client.get(URL, headers={"If-None-Match": f'"{etag}"'})
    assert held.status_code == 304 and not held.data


@pytest.mark.parametrize("seed", [3])
def test_every_write_makes_the_next_download_fresh(
    app: Flask, client: FlaskClient, seed: int
) -> None:
    household = family_id(app)
    rng = random.Random(seed)
    done: list[str] = []
    changed = 0
    before = client.get(URL)
    for _ in range(45):
        done.append(_write(app, client, household, rng))
        response = client.get(URL)
        assert response.status_code == 200
        fresh = _fresh(app, household)
        assert response.data == fresh, done[-1]
        if fresh != before.data:
            changed += 1
            assert response.get_etag()[0] != before.get_etag()[0], done[-1]
        # Only the newest file of the household stays.
        assert len(_kept(app, household)) == 1, done[-1]
        before = response
    kinds = {entry.split()[0] for entry in done}
    assert {"start", "round", "edit", "bin", "bring", "import", "rename", "merge"} <= kinds, kinds
    assert changed > 20, changed


def test_a_restore_makes_the_next_download_fresh(app: Flask, client: FlaskClient) -> None:
    household = family_id(app)
    _played(client, ["Ann", "Ben"])
    before = client.get(URL).data
    document = game_document("contract-rummy", ["Cy", "Dee"], [("Cy", {"Dee": "K Q"}, set())] * 7)
    with app.app_context(), scope.household(household):
        report = import_lines(io.BytesIO((json.dumps(document) + "\n").encode()))
        db.session.remove()
    assert len(report.stored) == 1, report.refused
    after = client.get(URL).data
    assert after != before and after == _fresh(app, household)
    assert b"Dee" in after


def test_each_household_has_its_own_file(app: Flask, client: FlaskClient) -> None:
    _played(client, ["Ann", "Ben"])
    mine = client.get(URL)
    # Read to its end, as a server sends it, before another request: a streamed answer left
    # open keeps its app context pushed, and the test client's next request (another phone's
    # sign-in) would share its ``g`` (who is signed in) where no server ever shares it.
    assert b"Ann" in mine.data
    mine.close()
    other = signed_in(app, "stranger", "owner", household="Others")
    _played(other, ["Zed", "Yul"])
    theirs = other.get(URL)
    assert b"Zed" in theirs.data and b"Ann" not in theirs.data
    assert b"Ann" in mine.data and b"Zed" not in mine.data
    # The other's ETag is no use to this household: it gets its own CSV, not a 304.
    held = client.get(URL, headers={"If-None-Match": f'"{theirs.get_etag()[0]}"'})
    assert held.status_code == 200 and held.data == mine.data
    assert _kept(app, family_id(app)) and _kept(app, household_id(app, "Others"))


def test_a_download_stopped_half_way_keeps_no_file(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    household = family_id(app)
    _played(client, ["Ann", "Ben"])
    response = client.get(URL, buffered=False)
    next(iter(response.response))
    response.close()
    folder = Path(app.instance_path, rounds_file.FOLDER)
    assert not _kept(app, household)
    assert not list(folder.glob(".rounds-*.part"))


def test_a_phone_taking_gzip_gets_the_kept_file_gzipped(app: Flask, client: FlaskClient) -> None:
    household = family_id(app)
    _played(client, ["Ann", "Ben"])
    built = client.get(URL, headers={"Accept-Encoding": "gzip"})
    # The first download is sent as it is built, not compressed.
    assert built.status_code == 200 and built.content_encoding is None
    assert built.data == _fresh(app, household)
    packed = client.get(URL, headers={"Accept-Encoding": "gzip, deflate"})
    assert packed.status_code == 200 and packed.content_encoding == "gzip"
    assert gzip.decompress(packed.data) == _fresh(app, household)
    assert "Accept-Encoding" in packed.headers["Vary"]
    plain = client.get(URL)
    assert plain.content_encoding is None and plain.data == _fresh(app, household)
    # Each form has its own ETag: the plain one's is no use for the gzipped one.
    assert packed.get_etag()[0] != plain.get_etag()[0]
    held = client.get(
        URL,
        headers={"Accept-Encoding": "gzip", "If-None-Match": f'"{packed.get_etag()[0]}"'},
    )
    assert held.status_code == 304
    mismatch = client.get(
        URL,
        headers={"Accept-Encoding": "gzip", "If-None-Match": f'"{plain.get_etag()[0]}"'},
    )
    assert mismatch.status_code == 200 and mismatch.content_encoding == "gzip"


def test_a_file_kept_by_a_version_of_fewer_columns_is_not_sent_by_the_next(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An upgrade that adds a column (went_out_in_one_turn, issue 42; tie_break_hand, issue 51)
    changes no data: the file the older version kept for the same data is built again, not
    sent without the column."""
    household = family_id(app)
    _played(client, ["Ann", "Ben"])
    with monkeypatch.context() as older:
        older.setattr(backup, "CSV_COLUMNS", backup.CSV_COLUMNS[:-1])
        kept_before = client.get(URL)
    assert b"tie_break_hand" not in kept_before.data
    now = client.get(URL)
    assert now.status_code == 200
    assert now.data.splitlines()[0].endswith(b",went_out_in_one_turn,tie_break_hand")
    assert now.data == _fresh(app, household)
    assert now.get_etag()[0] != kept_before.get_etag()[0]
