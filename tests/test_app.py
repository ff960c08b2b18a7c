"""The foundation: factory, configuration layers, storage, security headers, static files."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, inspect, select, text

from scorekeeper import create_app, scope
from scorekeeper.access import Permission, requires
from scorekeeper.extensions import db
from scorekeeper.models import Player
from scorekeeper.names import name_key

from .conftest import PASSWORD, add_member, family_id, signed_in


def test_home_page_is_made_for_phones(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert 'name="viewport" content="width=device-width, initial-scale=1"' in page
    assert "htmx-2.0.11.min.js?v=" in page
    assert 'hx-headers=\'{"X-CSRFToken": "' in page


def test_health_check_touches_the_database(client: FlaskClient) -> None:
    assert client.get("/healthz").get_json() == {"status": "ok"}


def test_unknown_page_is_a_friendly_404(client: FlaskClient) -> None:
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert "There is nothing at this address" in response.get_data(as_text=True)


def test_security_headers(client: FlaskClient) -> None:
    headers = client.get("/").headers
    policy = headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"


def test_static_files_have_versioned_urls_cached_for_a_year(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    start = page.index("/static/css/app.css?v=")
    url = page[start : page.index('"', start)]
    response = client.get(url)
    assert response.status_code == 200
    assert response.cache_control.max_age == 365 * 24 * 3600
    assert response.cache_control.immutable
    unversioned = client.get("/static/css/app.css")
    assert unversioned.cache_control.max_age != 365 * 24 * 3600


def test_post_without_csrf_token_is_refused(app: Flask) -> None:
    stored: list[str] = []

    @app.post("/test-only/echo")
    @requires(Permission.SIGNED_IN)
    def echo() -> str:
        stored.append("saved")
        return "saved"

    client = signed_in(app, "ann")
    app.config["WTF_CSRF_ENABLED"] = True
    refused = client.post("/test-only/echo", data={"name": "Ann"})
    assert refused.status_code == 400
    assert "has expired or did not come from this app" in refused.get_data(as_text=True)
    assert stored == []

    page = client.get("/").get_data(as_text=True)
    token = page.split('"X-CSRFToken": "')[1].split('"')[0]
    accepted = client.post("/test-only/echo", headers={"X-CSRFToken": token})
    assert accepted.status_code == 200
    assert stored == ["saved"]


def test_session_cookie_is_http_only_and_same_site(app: Flask) -> None:
    assert app.config["SESSION_COOKIE_HTTPONLY"] is True
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Lax"
    add_member(app, "ann")
    answer = app.test_client().post("/login", data={"username": "ann", "password": PASSWORD})
    cookie = answer.headers.get("Set-Cookie", "")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # plain HTTP at home; behind a TLS proxy, see test_access


def test_secret_key_is_generated_once_and_kept_in_instance(
    database_uri: str, instance_path: Path
) -> None:
    first = create_app({"SQLALCHEMY_DATABASE_URI": database_uri})
    second = create_app({"SQLALCHEMY_DATABASE_URI": database_uri})
    key_file = instance_path / "secret_key"
    assert key_file.read_text().strip() == first.config["SECRET_KEY"]
    assert len(first.config["SECRET_KEY"]) == 64
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    for app in (first, second):
        with app.app_context():
            db.engine.dispose()


def test_configuration_layers_in_order(
    database_uri: str, instance_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    instance_path.mkdir(parents=True, exist_ok=True)
    (instance_path / "config.py").write_text(
        "SECRET_KEY = 'from-instance'\nHISTORY_PAGE_SIZE = 10\nSCOREBOARD_POLL_SECONDS = 7\n"
    )
    monkeypatch.setenv("SCOREKEEPER_HISTORY_PAGE_SIZE", "40")
    monkeypatch.setenv("SCOREKEEPER_SCOREBOARD_POLL_SECONDS", "9")
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_uri, "SCOREBOARD_POLL_SECONDS": 2})
    assert app.config["SECRET_KEY"] == "from-instance"  # instance file over default
    assert app.config["HISTORY_PAGE_SIZE"] == 40  # environment over instance file
    assert app.config["SCOREBOARD_POLL_SECONDS"] == 2  # test config over environment
    assert not (instance_path / "secret_key").exists()
    with app.app_context():
        db.engine.dispose()


def test_new_database_gets_the_whole_schema(app: Flask) -> None:
    with app.app_context():
        tables = set(inspect(db.engine).get_table_names())
        version = db.session.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert {"players", "games", "seats", "rounds", "hands", "game_events", "house_rules"} <= tables
    assert version is not None


def test_older_database_is_brought_up_to_date_on_start(app: Flask) -> None:
    import flask_migrate

    with app.app_context():
        db.session.add(Player(name="Ann", name_key=name_key("Ann")))
        db.session.commit()
        flask_migrate.downgrade(directory=app.extensions["migrate"].directory, revision="base")
        assert "players" not in inspect(db.engine).get_table_names()
        db.engine.dispose()
    again = create_app(
        {"SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"], "TESTING": True}
    )
    with again.app_context():
        assert "players" in inspect(db.engine).get_table_names()
        db.engine.dispose()


def test_sqlite_uses_write_ahead_logging_and_waits_for_locks(app: Flask) -> None:
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("SQLite settings")
        assert db.session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.session.execute(text("PRAGMA busy_timeout")).scalar() >= 5000
        assert db.session.execute(text("PRAGMA foreign_keys")).scalar() == 1


def test_many_phones_saving_at_once_never_see_a_locked_database(app: Flask) -> None:
    errors: list[BaseException] = []
    writers, saves = 8, 15
    household = family_id(app)

    def scorer(number: int) -> None:
        try:
            for save in range(saves):
                with app.test_request_context("/", method="POST"), scope.household(household):
                    # Read, then write in the same transaction: the pattern that trips SQLite.
                    db.session.scalar(select(func.count()).select_from(Player))
                    name = f"Player {number}-{save}"
                    db.session.add(Player(name=name, name_key=name_key(name)))
                    db.session.commit()
                    db.session.remove()
        except BaseException as error:  # collected and reported below
            errors.append(error)

    threads = [threading.Thread(target=scorer, args=(n,)) for n in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Player)) == writers * saves


def test_migrations_have_a_single_head(app: Flask) -> None:
    from alembic.script import ScriptDirectory
    from flask_migrate import Config

    config = Config()
    config.set_main_option("script_location", app.extensions["migrate"].directory)
    heads = ScriptDirectory.from_config(config).get_heads()
    assert len(heads) == 1, f"several migration heads: {heads}; merge them"


def test_static_files_and_pages_travel_compressed(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers.get("Content-Encoding") == "gzip"
    htmx = client.get(
        "/static/vendor/htmx-2.0.11.min.js", headers={"Accept-Encoding": "gzip, deflate"}
    )
    assert htmx.status_code == 200
    assert htmx.headers.get("Content-Encoding") in {"gzip", "deflate"}
    assert len(htmx.get_data()) < 25_000  # 52 KB on disk
    assert "Accept-Encoding" in htmx.headers.get("Vary", "")


def test_home_page_queries_do_not_grow_with_the_games_listed(app: Flask) -> None:
    from sqlalchemy import event

    from scorekeeper.games.transfer import import_game

    def document(names: list[str]) -> dict[str, object]:
        return {"format": "scorekeeper-game", "version": 1, "rules": "contract-rummy",
                "players": names, "rounds": []}  # fmt: skip

    # Every request checks its session here: a session held from an earlier request
    # (kept under the access version) would save a query on some pages and not others.
    app.config["SESSION_CHECK_SECONDS"] = 0
    client = signed_in(app, "ann")
    statements: list[str] = []

    def count(*args: object) -> None:
        if not str(args[2]).startswith("BEGIN"):
            statements.append(str(args[2]))

    with app.app_context():
        engine = db.engine
    counts = []
    for batch in (["Ann", "Ben"], ["Cy", "Dee"], ["Eve", "Fay"], ["Gus", "Hal"]):
        with app.app_context():
            import_game(document(batch))
            import_game(document([f"{batch[0]}2", f"{batch[1]}2", "Ivy"]))
        statements.clear()
        event.listen(engine, "before_cursor_execute", count)
        page = client.get("/").get_data(as_text=True)
        event.remove(engine, "before_cursor_execute", count)
        assert batch[0] in page
        counts.append(len(statements))
    assert len(set(counts)) == 1, counts


def test_the_same_message_twice_is_said_once(client: FlaskClient) -> None:
    """A save resent while its first answer was lost leaves the same line in the session
    twice (the first answer's page never drawn); the page says it once, other lines still."""
    with client.session_transaction() as session:
        session["_flashes"] = [
            ("warning", "Round 1 is stored already."),
            ("warning", "Round 1 is stored already."),
            ("success", "Round 1 is stored already."),
            ("warning", "round 1 is stored already."),
        ]
    page = client.get("/login").get_data(as_text=True)
    assert page.count('<p class="flash flash-warning" role="status">Round 1 is') == 1
    assert page.count('<p class="flash flash-success" role="status">Round 1 is') == 1
    assert page.count("round 1 is stored already.") == 1
