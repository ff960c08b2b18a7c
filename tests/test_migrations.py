"""Schema changes ship as migrations that a family's database survives, on SQLite and PostgreSQL."""

from __future__ import annotations

import flask_migrate
from alembic.script import ScriptDirectory
from flask import Flask
from flask_migrate import Config
from sqlalchemy import inspect, text

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.games.services import export_game, import_game
from scorekeeper.models import Game

from .helpers import game_document, twelve_step_to_the_end


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
