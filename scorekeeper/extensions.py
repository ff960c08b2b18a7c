"""Flask extensions, created unbound here and bound to the app in the factory."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from flask_compress import Compress
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData, Table
from sqlalchemy.orm import DeclarativeBase

# Named constraints, so that Alembic migrations can drop and alter them on SQLite too.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)

    if TYPE_CHECKING:
        # Every model here maps one table (SQLAlchemy types it as any ``FromClause``).
        __table__: ClassVar[Table]


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()
compress = Compress()
login_manager = LoginManager()

if TYPE_CHECKING:
    from flask_sqlalchemy.model import Model as FlaskModel

    # What ``db.Model`` is at run time (Flask-SQLAlchemy's mixins over ``Base``), named for
    # mypy, which cannot take a base class from an attribute (python/mypy#8603).
    class Model(FlaskModel, Base):
        __abstract__ = True

else:
    Model = db.Model
