"""Schema changes ship as migrations that a family's database survives, on SQLite and PostgreSQL."""

from __future__ import annotations

import flask_migrate
from alembic.script import ScriptDirectory
from flask import Flask
from flask_migrate import Config
from sqlalchemy import inspect, text

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.games.transfer import export_game, import_game
from scorekeeper.models import Game

from .helpers import game_document, twelve_step_to_the_end
from .history.test_kept_stats import assert_kept_equals_scratch
from .history.test_phase_10_history import tied_file


def revisions(app: Flask) -> list[str]:
    """Every revision, oldest first."""
    config = Config()
    config.set_main_option("script_location", app.extensions["migrate"].directory)
    script = ScriptDirectory.from_config(config)
    return [revision.revision for revision in reversed(list(script.walk_revisions()))]


def restart(app: Flask) -> Flask:
    """The app started again on the same database, as after an upgrade."""
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    return create_app(
        {"SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"], "TESTING": True}
    )


def without_export_time(document: dict[str, object]) -> dict[str, object]:
    # A schema from before uids (0002) gives every game a new one when it is upgraded.
    return {k: v for k, v in document.items() if k not in ("exported", "id", "uid")}


def test_every_migration_goes_down_and_up_again(app: Flask) -> None:
    directory = app.extensions["migrate"].directory
    with app.app_context():
        flask_migrate.downgrade(directory=directory, revision="base")
        assert inspect(db.engine).get_table_names() in ([], ["alembic_version"])
        for revision in revisions(app):
            flask_migrate.upgrade(directory=directory, revision=revision)
            version = db.session.execute(text("SELECT version_num FROM alembic_version")).scalar()
            db.session.commit()
            assert version == revision


def test_a_family_database_on_the_previous_schema_is_upgraded_with_its_games(app: Flask) -> None:
    known = revisions(app)
    if len(known) < 2:
        return  # only one schema so far: the empty-database test covers it
    previous = known[-2]
    document = game_document("twelve-step", ["Ann", "Ben", "Cy"], twelve_step_to_the_end())
    with app.app_context():
        game_id = import_game(document).id
        before = without_export_time(export_game(db.session.get(Game, game_id)))
        # End this session's transaction: the downgrade's DDL must not wait for our own reads.
        db.session.remove()
        flask_migrate.downgrade(directory=app.extensions["migrate"].directory, revision=previous)
    upgraded = restart(app)
    with upgraded.app_context():
        version = db.session.execute(text("SELECT version_num FROM alembic_version")).scalar()
        assert version == known[-1]
        after = without_export_time(export_game(db.session.get(Game, game_id)))
        db.engine.dispose()
    assert after == before


NEVER_AGAIN = ("games", "players", "links", "house_rules", "users", "restore_jobs")


def _schema(app: Flask) -> dict[str, object]:
    """Every table's columns, key, indexes, unique constraints and foreign keys, as read back
    from the database."""
    with app.app_context():
        inspector = inspect(db.engine)
        found: dict[str, object] = {}
        for table in inspector.get_table_names():
            if table in ("alembic_version", "sqlite_sequence"):
                continue
            found[table] = (
                [
                    (c["name"], str(c["type"]), c["nullable"], c.get("default"))
                    for c in inspector.get_columns(table)
                ],
                inspector.get_pk_constraint(table)["constrained_columns"],
                sorted(
                    (i["name"], tuple(i["column_names"]), i["unique"])
                    for i in inspector.get_indexes(table)
                ),
                sorted(
                    (u["name"], tuple(u["column_names"]))
                    for u in inspector.get_unique_constraints(table)
                ),
                sorted(
                    (
                        f["name"],
                        tuple(f["constrained_columns"]),
                        f["referred_table"],
                        tuple(f["referred_columns"]),
                        str(f.get("options")),
                    )
                    for f in inspector.get_foreign_keys(table)
                ),
            )
        db.session.remove()
    return found


def _autoincrement(app: Flask) -> set[str]:
    """The tables SQLite will never give an id of again."""
    with app.app_context():
        rows = db.session.execute(
            text("SELECT name, sql FROM sqlite_master WHERE type = 'table'")
        ).all()
        db.session.remove()
    return {name for name, sql in rows if "AUTOINCREMENT" in sql.upper()}


def test_ids_are_never_given_again_and_the_rebuilt_tables_keep_everything(app: Flask) -> None:
    directory = app.extensions["migrate"].directory
    sqlite = app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite")
    tables = [(f"Ann{number}", "Ben", "Cy") for number in range(3)]
    documents = [game_document("twelve-step", t, twelve_step_to_the_end(t)) for t in tables]
    with app.app_context():
        kept = [import_game(document).id for document in documents[:2]]
        before = [without_export_time(export_game(db.session.get(Game, n))) for n in kept]
        newest = import_game(documents[2]).id
        db.session.remove()
    at_head = _schema(app)
    if sqlite:
        assert _autoincrement(app) == set(NEVER_AGAIN)
    with app.app_context():
        # Later migrations change the schema too: 0010 alone changes nothing _schema sees.
        flask_migrate.downgrade(directory=directory, revision="0010")
    at_0010 = _schema(app)
    with app.app_context():
        flask_migrate.downgrade(directory=directory, revision="0009")
    assert _schema(app) == at_0010
    if sqlite:
        assert _autoincrement(app) == set()
    with app.app_context():
        # A game removed for good before the upgrade (its number SQLite would give again);
        # from the upgrade on, no number is given again.
        db.session.execute(text("DELETE FROM games WHERE id = :id"), {"id": newest})
        db.session.commit()
        flask_migrate.upgrade(directory=directory)
    upgraded = restart(app)
    assert _schema(upgraded) == at_head
    with upgraded.app_context():
        after = [without_export_time(export_game(db.session.get(Game, n))) for n in kept]
        latest = import_game(documents[2]).id
        db.session.execute(text("DELETE FROM games WHERE id = :id"), {"id": latest})
        db.session.commit()
        assert import_game(documents[2]).id > latest
        db.session.remove()
        db.engine.dispose()
    assert after == before


def test_the_kept_statistics_are_counted_again_as_the_code_counts_them(app: Flask) -> None:
    """0021: a player's kept row counted the old way (points a round over every game's rounds)
    is made again from the games, equal to a computation from scratch."""
    document = game_document("twelve-step", ["Ann", "Ben", "Cy"], twelve_step_to_the_end())
    with app.app_context():
        game = import_game(document)
        household = game.household_id
        db.session.remove()
        flask_migrate.downgrade(directory=app.extensions["migrate"].directory, revision="0020")
        with db.engine.begin() as connection:
            # What a row kept before 0021 may hold: figures the code no longer counts so.
            connection.execute(text("UPDATE player_stats SET wins = 99, finished = 0"))
        db.engine.dispose()
    upgraded = restart(app)
    assert_kept_equals_scratch(upgraded, household, "after 0021")
    with upgraded.app_context():
        db.engine.dispose()


def test_phases_are_kept_apart_from_contracts_on_upgrade(app: Flask) -> None:
    """0033: rows kept before it summed Phase 10's phase N into 12-Step's contract N on a
    player's page; the upgrade counts them again, Ann's phases apart from her contracts."""
    twelve = game_document("twelve-step", ["Ann", "Ben", "Cy"], twelve_step_to_the_end())
    with app.app_context():
        game = import_game(twelve)
        household, twelve_id = game.household_id, game.id
        phase_10 = import_game(tied_file()).id
        db.session.remove()
        flask_migrate.downgrade(directory=app.extensions["migrate"].directory, revision="0032")
        with db.engine.begin() as connection:
            # What a row kept before 0033 holds: phase 9 and 10 among the contracts.
            connection.execute(
                text("UPDATE player_stats SET detail = :old"),
                {"old": '{"by_rules": [], "contracts": [[9, 2, 2, 2], [10, 2, 2, 2]]}'},
            )
        db.engine.dispose()
    upgraded = restart(app)
    assert_kept_equals_scratch(upgraded, household, "after 0033")
    with upgraded.app_context():
        kept = db.session.execute(
            text("SELECT DISTINCT game_id, phases FROM seat_contracts ORDER BY game_id")
        ).all()
        db.session.remove()
        db.engine.dispose()
    assert [(game_id, bool(phases)) for game_id, phases in kept] == [
        (game_id, game_id == phase_10) for game_id, _ in kept
    ]
    assert {game_id for game_id, _ in kept} == {phase_10, twelve_id}
