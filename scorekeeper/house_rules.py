"""Which rules a family can pick: the presets and their own saved house rules, by slug."""

from __future__ import annotations

from sqlalchemy import select

from .extensions import db
from .models import HouseRules
from .rules import PRESETS, RuleSet, get_ruleset


class UnknownRules(LookupError):
    """No preset and no saved house rules have this slug."""

    def __init__(self, slug: str) -> None:
        super().__init__(f"There are no rules called {slug!r}.")
        self.slug = slug


def choices() -> list[tuple[str, str]]:
    """(slug, name) of every preset, then of every saved house rule set, by name."""
    presets = [(slug, get_ruleset(slug).name) for slug in PRESETS]
    saved = db.session.execute(select(HouseRules.slug, HouseRules.name).order_by(HouseRules.name))
    return presets + [(slug, name) for slug, name in saved]


def load(slug: str) -> RuleSet:
    """The rule set a slug names: a preset, or saved house rules. Raises ``UnknownRules``."""
    if slug in PRESETS:
        return get_ruleset(slug)
    saved = db.session.scalar(select(HouseRules).where(HouseRules.slug == slug))
    if saved is None:
        raise UnknownRules(slug)
    return get_ruleset(saved.options)
