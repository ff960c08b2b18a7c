"""A household's backup (games, players and merges, house rules, members), written by the
server every day and on demand, listed on the backup page, downloaded and restored."""

from __future__ import annotations

import fcntl
import io
import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import func, select

from scorekeeper import create_app, house_rules, scope
from scorekeeper.extensions import db
from scorekeeper.games.transfer import export_game
from scorekeeper.history import backup_files, household_file
from scorekeeper.models import (
    NO_PASSWORD,
    AccessVersion,
    Game,
    Household,
    HouseRules,
    Player,
    PlayerMerge,
    RestoreJob,
    Seat,
    User,
)
from scorekeeper.players import services as players

from ..conftest import FAST_PASSWORDS, PASSWORD, add_member, family_id, household_id, sign_in
from .factory import contract_rummy, day, play

COUNTED = (Game, Seat, Player, PlayerMerge, HouseRules, User, Household)


def household(app: Flask, language: str | None = None) -> int:
    """The household Family: three members, games, a merge, house rules, a player with none;
    its pages in ``language`` where one is given."""
    for name, role in (("ann", "owner"), ("ben", "scorer"), ("cy", "viewer")):
        add_member(app, name, role)
    home = family_id(app)
    with app.app_context(), scope.household(home):
        contract_rummy(["Bob", "Ann"], "Bob", {"Ann": "K"}, day(1))
        contract_rummy(["Robert", "Cy"], "Robert", {"Cy": "5"}, day(2))
        gran = house_rules.save("Gran", {"base": "twelve-step", "may_i": {"allowed": False}})
        play(["Ann", "Cy"], [("Ann", {"Cy": "K"})], rules=gran.options, started=day(3))
        db.session.add(Player(name="Dee", name_key="dee"))
        db.session.commit()
        bob = db.session.scalar(select(Player).where(Player.name == "Bob"))
        robert = db.session.scalar(select(Player).where(Player.name == "Robert"))
        assert bob is not None and robert is not None
        players.merge(bob, robert)
        held = db.session.get(Household, home)
        assert held is not None
        held.time_zone = "America/Chicago"
        held.language = language
        db.session.commit()
        db.session.remove()
    return home


def snapshot(app: Flask, home: int) -> dict[str, Any]:
    """What a household holds, as a person would compare it (no ids, no times of writing)."""
    with app.app_context(), scope.household(home):
        held = db.session.get(Household, home)
        assert held is not None
        games = [
            {k: v for k, v in export_game(game).items() if k not in ("id", "exported")}
            for game in db.session.scalars(select(Game).order_by(Game.started))
        ]
        found = {
            "household": held.name,
            "time_zone": held.time_zone,
            "language": held.language,
            "members": sorted(db.session.execute(select(User.username, User.role)).all()),
            "players": sorted(db.session.scalars(select(Player.name))),
            "house_rules": sorted(
                (r.name, r.slug, json.dumps(r.options, sort_keys=True))
                for r in db.session.scalars(select(HouseRules))
            ),
            "merges": players.merges(),
            "games": games,
        }
        db.session.remove()
    return found


def counts(app: Flask) -> tuple[int, ...]:
    with app.app_context():
        found = tuple(
            int(db.session.scalar(select(func.count()).select_from(model)) or 0)
            for model in COUNTED
        )
        db.session.remove()
    return found


def fresh_server(app: Flask, instance: Path) -> Flask:
    """A new app on the same database emptied of everything, as a fresh server's."""
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            if table.name != AccessVersion.__tablename__:
                db.session.execute(table.delete())
        db.session.commit()
        db.session.remove()
        db.engine.dispose()
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = str(instance)
    return create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
            "WTF_CSRF_ENABLED": False,
            "RESTORE_IN_BACKGROUND": False,
            "DAILY_BACKUPS": False,
            **FAST_PASSWORDS,
        }
    )


def written_by_cli(runner: FlaskCliRunner, *options: str) -> Path:
    result = runner.invoke(args=["history", "backup", *options])
    assert result.exit_code == 0, result.output
    return Path(result.stdout.strip().splitlines()[-1])


def test_a_household_comes_back_whole_on_a_fresh_server_and_twice_changes_nothing(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = household(app, language="es")
    before = snapshot(app, home)
    assert before["merges"] == [("Bob", "Robert")] and "Dee" in before["players"]
    path = written_by_cli(runner)
    assert path.parent == Path(app.instance_path) / "backups" / str(home)
    assert backup_files.NAME.match(path.name) and oct(path.stat().st_mode & 0o777) == "0o600"
    assert oct(path.parent.parent.stat().st_mode & 0o777) == "0o700"
    text = path.read_text(encoding="utf-8")
    head = json.loads(text.splitlines()[0])
    assert head["format"] == "scorekeeper-household" and head["version"] == 1
    assert head["members"] == [
        {"username": "ann", "role": "owner"},
        {"username": "ben", "role": "scorer"},
        {"username": "cy", "role": "viewer"},
    ]
    assert "argon2" not in text and "password" not in text and "token" not in text
    kept = tmp_path / "kept.jsonl"
    kept.write_bytes(path.read_bytes())

    fresh = fresh_server(app, tmp_path / "fresh-instance")
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "fresh-instance"))
    fresh_runner = fresh.test_cli_runner()
    restored = fresh_runner.invoke(args=["history", "import", str(kept)])
    assert restored.exit_code == 0, restored.output
    assert "Stored 3 games." in restored.stdout
    assert "users password" in restored.stdout and "ann, ben, cy" in restored.stdout
    with fresh.app_context():
        made = db.session.scalar(select(Household.id))
        users = db.session.scalars(select(User)).all()
        assert {user.password_hash for user in users} == {NO_PASSWORD}
        db.session.remove()
    assert made is not None
    after = snapshot(fresh, made)
    assert after == before
    held = counts(fresh)

    again = fresh_runner.invoke(args=["history", "import", str(kept)])
    assert again.exit_code == 0, again.output
    assert "Stored 0 games; 3 games were here already." in again.stdout
    assert counts(fresh) == held
    assert snapshot(fresh, made) == before

    # Nobody signs in as a restored member until the owner sets a password on the server.
    client = fresh.test_client()
    refused = client.post("/login", data={"username": "ann", "password": ""})
    assert refused.status_code == 401
    set_it = fresh_runner.invoke(args=["users", "password", "ann"], input=PASSWORD + "\n")
    assert set_it.exit_code == 0, set_it.output
    sign_in(fresh, client, "ann")
    assert client.get("/history/backup").status_code == 200
    with fresh.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_restore_merges_a_player_the_backup_had_merged(app: Flask) -> None:
    home = family_id(app)
    with app.app_context(), scope.household(home):
        contract_rummy(["Bob", "Ann"], "Bob", {"Ann": "K"}, day(1))
        contract_rummy(["Robert", "Cy"], "Robert", {"Cy": "5"}, day(2))
        line = {
            "format": "scorekeeper-household",
            "version": 1,
            "household": {"name": "Family"},
            "merges": [{"player": "Bob", "merged": "Robert"}],
        }
        applied = household_file.apply(line)
        assert applied.notes == ["1 merge restored."] and not applied.problems
        assert household_file.apply(line).notes == ["0 merges restored, 1 was here already."]
        names = sorted(db.session.scalars(select(Player.name)))
        assert names == ["Ann", "Bob", "Cy"]
        assert players.merges() == [("Bob", "Robert")]


def test_a_damaged_or_foreign_household_line_gets_a_clear_message(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    future = {"format": "scorekeeper-household", "version": 7, "household": {"name": "X"}}
    odd = {
        "format": "scorekeeper-household",
        "version": 1,
        "members": [{"username": "zed", "role": "king"}, "nobody"],
        "players": "Ann",
        "house_rules": [{"name": "Bad", "rules": {"base": "no-such-game"}}],
    }
    game = json.dumps(
        {
            "format": "scorekeeper-game",
            "version": 1,
            "rules": "contract-rummy",
            "players": ["Ann", "Ben"],
            "rounds": [],
        }
    )
    for head, expected in ((future, "reads version 1"), (odd, "no username or no role")):
        path = tmp_path / "backup.jsonl"
        path.write_text(json.dumps(head) + "\n" + game + "\n", encoding="utf-8")
        result = runner.invoke(args=["history", "import", str(path)])
        assert expected in result.output, result.output
        assert "Traceback" not in result.output
    assert "'players' is not a list" in result.output
    assert "House rules 'Bad' cannot be read" in result.output
    with app.app_context():
        assert db.session.scalar(select(func.count(User.id))) == 0
        # The game on the next line is stored all the same, each time (it has no uid).
        assert db.session.scalar(select(func.count(Game.id))) == 2


def test_a_household_line_after_the_first_is_refused(
    app: Flask, tmp_path: Path, runner: FlaskCliRunner
) -> None:
    head = {"format": "scorekeeper-household", "version": 1, "players": ["Zoe"]}
    path = tmp_path / "backup.jsonl"
    path.write_text("\n" + json.dumps(head) + "\n" + json.dumps(head) + "\n", encoding="utf-8")
    result = runner.invoke(args=["history", "import", str(path)])
    assert result.exit_code == 1
    assert "line 3: A household's line belongs first" in result.stderr
    assert "1 player restored." in result.stdout


# --- written every day ------------------------------------------------------------------------


def test_the_daily_backup_is_written_once_a_day_and_pruned_to_backup_keep(app: Flask) -> None:
    home = household(app)
    app.config.update(DAILY_BACKUPS=True, BACKUPS_IN_BACKGROUND=False, BACKUP_KEEP=3)
    place = Path(app.instance_path) / "backups" / str(home)
    first = datetime(2026, 3, 1, 0, 5, tzinfo=UTC)
    backup_files.backup_now_and_then(app, first)
    assert sorted(os.listdir(place)) == [".lock", "2026-03-01.jsonl"]
    written = (place / "2026-03-01.jsonl").stat()
    # Later the same day: not due in this process, and where another process asks (nothing
    # remembered), today's file is there already.
    backup_files.backup_now_and_then(app, first + timedelta(hours=20))
    app.extensions.pop("backups_due")
    backup_files.backup_now_and_then(app, first + timedelta(hours=21))
    assert (place / "2026-03-01.jsonl").stat().st_mtime_ns == written.st_mtime_ns
    assert (place / "2026-03-01.jsonl").stat().st_ino == written.st_ino
    for later in range(1, 5):
        backup_files.backup_now_and_then(app, first + timedelta(days=later))
    names = [kept.name for kept in backup_files_kept(app, home)]
    assert names == ["2026-03-05.jsonl", "2026-03-04.jsonl", "2026-03-03.jsonl"]
    assert not [name for name in os.listdir(place) if name.endswith(".tmp")]


def backup_files_kept(app: Flask, home: int) -> list[backup_files.KeptBackup]:
    with app.test_request_context():
        return backup_files.kept(home)


def test_the_first_request_of_the_day_writes_every_households_backup(
    app: Flask, client: FlaskClient
) -> None:
    household(app)
    others = household_id(app, "Others")
    app.config.update(DAILY_BACKUPS=True, BACKUPS_IN_BACKGROUND=False)
    root = Path(app.instance_path) / "backups"
    assert not root.exists()
    assert client.get("/history").status_code == 200
    today = backup_files.daily_name(datetime.now(UTC))
    assert (root / str(family_id(app)) / today).is_file()
    assert (root / str(others) / today).is_file()
    stamp = (root / str(others) / today).stat().st_mtime_ns
    assert client.get("/history").status_code == 200
    assert (root / str(others) / today).stat().st_mtime_ns == stamp


def test_a_second_writer_at_the_same_moment_writes_nothing(app: Flask) -> None:
    """Another process holding the household's folder (it is writing today's file) keeps this
    one from writing; a file half-written is never under a backup's name."""
    home = household(app)
    place = Path(app.instance_path) / "backups" / str(home)
    place.mkdir(parents=True)
    moment = datetime.now(UTC)
    today = backup_files.daily_name(moment)
    held = os.open(place / ".lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(held, fcntl.LOCK_EX)
        (place / ".writing-abc.tmp").write_text('{"format": "scorekeeper-hou')
        with app.app_context():
            assert backup_files.write_daily(moment) == ([], 0)
            assert backup_files.kept(home) == []
    finally:
        os.close(held)
    with app.app_context():
        written, failed = backup_files.write_daily(moment)
        assert [path.name for path in written] == [today] and failed == 0
        # The leftover of a writer that stopped goes a day later.
        assert (place / ".writing-abc.tmp").exists()
        backup_files.prune(home, 14, moment + timedelta(days=2))
        assert not (place / ".writing-abc.tmp").exists()
        assert [kept.name for kept in backup_files.kept(home)] == [today]


# --- the page: listing, downloading, restoring --------------------------------------------------


@pytest.fixture
def kept_backup(app: Flask, runner: FlaskCliRunner) -> Path:
    household(app)
    return written_by_cli(runner)


def member(app: Flask, username: str, role: str, home: str = "Family") -> FlaskClient:
    add_member(app, username, role, home)
    client = app.test_client()
    sign_in(app, client, username)
    return client


def test_the_owner_sees_downloads_and_restores_a_kept_backup(app: Flask, kept_backup: Path) -> None:
    owner = member(app, "olive", "owner")
    page = owner.get("/history/backup")
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert kept_backup.name[:10] in text and "KB" in text
    assert f"/history/backups/{kept_backup.name}/restore" in text
    download = owner.get(f"/history/backups/{kept_backup.name}")
    assert download.status_code == 200
    assert download.get_data() == kept_backup.read_bytes()
    assert "attachment" in download.headers["Content-Disposition"]

    # A member removed since the backup comes back, with no password yet, and the page says so.
    with app.app_context():
        db.session.execute(User.__table__.delete().where(User.username == "cy"))
        db.session.commit()
    before = counts(app)
    answer = owner.post(f"/history/backups/{kept_backup.name}/restore")
    assert answer.status_code == 303
    job_page = owner.get(answer.headers["Location"]).get_data(as_text=True)
    assert "Stored 0 games; 3 games were here already." in job_page
    assert "1 member restored, 2 were here already." in job_page
    assert "no password yet: cy" in job_page and "users password" in job_page
    assert counts(app)[:-2] == before[:-2] and counts(app)[-2] == before[-2] + 1
    members = owner.get("/members").get_data(as_text=True)
    assert "no password yet" in members


def test_a_scorer_may_neither_see_the_kept_files_nor_restore(app: Flask, kept_backup: Path) -> None:
    """Issue 36 item 3: the kept daily files list the members; a scorer gets none of them."""
    scorer = member(app, "sam", "scorer")
    text = scorer.get("/history/backup").get_data(as_text=True)
    assert kept_backup.name[:10] not in text and "/restore" not in text
    assert "only an owner of the household can see and download them" in text
    assert scorer.get(f"/history/backups/{kept_backup.name}").status_code == 403
    before = counts(app)
    refused = scorer.post(f"/history/backups/{kept_backup.name}/restore")
    assert refused.status_code == 403
    assert counts(app) == before
    with app.app_context():
        assert db.session.scalar(select(func.count(RestoreJob.id))) == 0


def test_a_viewer_gets_nothing(app: Flask, kept_backup: Path) -> None:
    viewer = member(app, "vic", "viewer")
    assert viewer.get("/history/backup").status_code == 403
    assert viewer.get(f"/history/backups/{kept_backup.name}").status_code == 403
    assert viewer.post(f"/history/backups/{kept_backup.name}/restore").status_code == 403


def test_another_households_backup_is_not_there(app: Flask, kept_backup: Path) -> None:
    stranger = member(app, "otto", "owner", "Others")
    assert kept_backup.name[:10] not in stranger.get("/history/backup").get_data(as_text=True)
    assert stranger.get(f"/history/backups/{kept_backup.name}").status_code == 404
    assert stranger.post(f"/history/backups/{kept_backup.name}/restore").status_code == 404
    # Nor by its household's number in the address.
    home = kept_backup.parent.name
    for address in (
        f"/history/backups/..%2F{home}%2F{kept_backup.name}",
        f"/history/backups/../{home}/{kept_backup.name}",
    ):
        assert stranger.get(address).status_code == 404, address


@pytest.mark.parametrize(
    "name",
    [
        "..%2F..%2Fsecret_key",
        "..%2f..%2fsecret_key",
        "%2E%2E%2F%2E%2E%2Fsecret_key",
        "..",
        "%2Fetc%2Fpasswd",
        "2026-03-01.jsonl%2F..%2F..%2F..%2Fsecret_key",
        "..%5C..%5Csecret_key",
        "2026-03-01.jsonl%00",
        ".lock",
        "2026-03-01.jsonl.tmp",
    ],
)
def test_a_name_from_the_address_never_leaves_the_folder(
    app: Flask, kept_backup: Path, name: str
) -> None:
    owner = member(app, "olive", "owner")
    secret = (Path(app.instance_path) / "secret_key").read_bytes()
    for method in ("GET", "POST"):
        address = f"/history/backups/{name}" + ("/restore" if method == "POST" else "")
        answer = owner.open(address, method=method)
        assert answer.status_code in (400, 404), (address, answer.status_code)
        assert secret.strip() not in answer.get_data()


def test_a_link_named_like_a_backup_is_not_followed(app: Flask, kept_backup: Path) -> None:
    owner = member(app, "olive", "owner")
    decoy = kept_backup.parent / "2020-01-01.jsonl"
    decoy.symlink_to(Path(app.instance_path) / "secret_key")
    assert owner.get("/history/backups/2020-01-01.jsonl").status_code == 404
    assert "2020-01-01" not in owner.get("/history/backup").get_data(as_text=True)


def test_the_household_backup_downloads_as_of_now(app: Flask, client: FlaskClient) -> None:
    household(app)
    answer = client.get("/history/backup/household.jsonl")
    assert answer.status_code == 200
    lines = answer.get_data(as_text=True).splitlines()
    assert json.loads(lines[0])["format"] == "scorekeeper-household" and len(lines) == 4
    upload = client.post(
        "/history/backup", data={"file": (io.BytesIO(answer.get_data()), "household.jsonl")}
    )
    assert upload.status_code == 303
    page = client.get(upload.headers["Location"]).get_data(as_text=True)
    assert "3 games were here already" in page
    assert "0 members restored, 4 were here already." in page


def test_a_scorers_download_holds_no_members_and_restores(app: Flask, client: FlaskClient) -> None:
    """Issue 36 item 3: a scorer's household backup is games, players and house rules only;
    it is restored as any backup (the owner's, with members, too: the test above)."""
    household(app)
    scorer = member(app, "sam", "scorer")
    answer = scorer.get("/history/backup/household.jsonl")
    assert answer.status_code == 200
    lines = answer.get_data(as_text=True).splitlines()
    document = json.loads(lines[0])
    assert "members" not in document and document["players"] and len(lines) == 4
    for username in ("sam", "ann", "ben", "cy"):
        assert f'"{username}"' not in lines[0]
    owners = client.get("/history/backup/household.jsonl").get_data(as_text=True)
    members = json.loads(owners.splitlines()[0])["members"]
    assert {"sam", "ann", "ben", "cy"} <= {each["username"] for each in members}
    # Read back into another household by its owner: games, players and rules, no members.
    elsewhere = member(app, "otto", "owner", "Others")
    upload = elsewhere.post(
        "/history/backup", data={"file": (io.BytesIO(answer.get_data()), "household.jsonl")}
    )
    assert upload.status_code == 303
    page = elsewhere.get(upload.headers["Location"]).get_data(as_text=True)
    assert (
        "Stored 3 games" in page and "4 players restored" in page and "member restored" not in page
    )
    assert "ben" not in elsewhere.get("/members").get_data(as_text=True)


@pytest.mark.parametrize("role", [["owner"], {"owner": True}, 7, None, "admin"])
def test_a_crafted_role_leaves_that_member_out_and_restores_the_rest(app: Flask, role: Any) -> None:
    home = family_id(app)
    with app.app_context(), scope.household(home):
        line = {
            "format": "scorekeeper-household",
            "version": 1,
            "household": {"name": "Family"},
            "members": [
                {"username": "mallory", "role": role},
                {"username": "ann", "role": "viewer"},
            ],
            "players": ["Zed"],
        }
        applied = household_file.apply(line)
        assert any("mallory" in problem for problem in applied.problems)
        assert sorted(db.session.scalars(select(User.username))) == ["ann"]
        assert db.session.scalars(select(Player.name)).all() == ["Zed"]
        db.session.remove()
