"""Flask extensions, created unbound here and bound to the app in the factory."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from flask import Flask, current_app
from flask_babel import Babel, Domain
from flask_compress import Compress
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData, Table
from sqlalchemy.orm import DeclarativeBase
from werkzeug.utils import cached_property

from .text import InGameDomain

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


class _Babel(Babel):
    """Flask-Babel, its catalogues read in the words of the game a page is about
    (``text.InGameCatalogue``): the one place every translation passes."""

    @cached_property
    def domain_instance(self) -> Domain:
        return InGameDomain(domain=self.domain)


babel = _Babel()

T = TypeVar("T")


class Kept:
    """The one store of what is kept between requests (drawn boards, pages, tallies, result
    cards, checked sessions): one per app, bounded, the least recently used out first.

    Nothing in it is ever invalidated by hand: whatever it rests on is part of its key (a
    game's version, what the viewer may do, the access version), so a change makes a new key
    and the old entry ages out. ``max_age`` bounds what rests on time alone."""

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self.held: OrderedDict[Hashable, tuple[float, Any]] = OrderedDict()
        self.lock = threading.Lock()

    def init_app(self, app: Flask) -> None:
        app.extensions["kept"] = Kept(app.config.get("KEPT_ENTRIES", self.size))

    @staticmethod
    def of(app: Flask | None = None) -> Kept:
        """This app's store (``app`` outside a request, as in front of Flask)."""
        store: Kept = (app or current_app).extensions["kept"]
        return store

    def get(self, key: Hashable, max_age: float | None = None) -> Any:
        """What was kept under ``key`` (less than ``max_age`` seconds ago), else None."""
        with self.lock:
            held = self.held.get(key)
            if held is None:
                return None
            if max_age is not None and time.monotonic() - held[0] > max_age:
                del self.held[key]
                return None
            self.held.move_to_end(key)
            return held[1]

    def put(self, key: Hashable, value: T) -> T:
        with self.lock:
            self.held[key] = (time.monotonic(), value)
            self.held.move_to_end(key)
            while len(self.held) > self.size:
                self.held.popitem(last=False)
        return value

    def get_or_make(self, key: Hashable, make: Callable[[], T], max_age: float | None = None) -> T:
        """What is kept under ``key``, made by ``make`` (outside the lock) when missing."""
        found = self.get(key, max_age)
        if found is not None:
            found_t: T = found
            return found_t
        return self.put(key, make())


kept = Kept()

if TYPE_CHECKING:
    from flask_sqlalchemy.model import Model as FlaskModel

    # What ``db.Model`` is at run time (Flask-SQLAlchemy's mixins over ``Base``), named for
    # mypy, which cannot take a base class from an attribute (python/mypy#8603).
    class Model(FlaskModel, Base):
        __abstract__ = True

else:
    Model = db.Model
