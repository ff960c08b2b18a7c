"""Which rules a family can pick: the presets and their own saved house rules, by slug; and
saving, changing and deleting house rules (stored as the engine's ``RuleSet.to_dict()``).

A phone let in by a link is shown the presets only (``access.sees_house_rules``): every read of
saved house rules here finds none for it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from flask_babel import get_locale
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from . import scope
from .access import sees_house_rules, visitor
from .extensions import db
from .models import HouseRules
from .names import name_key, tidy_name
from .rules import N_, PRESETS, RuleSet, get_ruleset
from .text import lazy_gettext as _l


class UnknownRules(LookupError):
    """No preset and no saved house rules have this slug."""

    def __init__(self, slug: str) -> None:
        # The sentence as a message (its English is the error's text): a page puts it into
        # its own language (``scorekeeper.words``).
        self.message = N_("There are no rules called %(slug)s.", slug=repr(slug))
        super().__init__(str(self.message))
        self.slug = slug


def choices() -> list[tuple[str, str]]:
    """(slug, name) of every preset, then of every saved house rule set, by name."""
    presets = [(slug, get_ruleset(slug).name) for slug in PRESETS]
    if not sees_house_rules(visitor()):
        return presets
    saved = db.session.execute(select(HouseRules.slug, HouseRules.name).order_by(HouseRules.name))
    return presets + [(slug, name) for slug, name in saved]


# The language of the households that play each published game (more-games.md): Shanghai and
# Liverpool in the United States and Britain, Carioca in Chile and Argentina, Continental in
# Spain and Mexico. The five presets come from English family rule sheets.
PUBLISHED_LANGUAGE = {
    "shanghai": "en",
    "liverpool": "en",
    "carioca": "es",
    "continental": "es",
    # Phase 10 is played in every language's homes ("Fase 10"): after each language's own.
    "phase-10": "",
}
FAMILY_SHEETS_LANGUAGE = "en"


def grouped_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """Every rule set a family can pick (``choices``), in groups for a list's ``<optgroup>``s,
    the family's own game first: its saved house rules, then the games of the page's language
    (in Spanish, Carioca and Continental before Shanghai and Liverpool, and the published
    games before the five from English family rule sheets), then the rest."""
    language = str(get_locale() or "en").split("_")[0]
    every = choices()
    saved = [choice for choice in every if choice[0] not in PRESETS]
    sheets = [
        choice for choice in every if choice[0] in PRESETS and choice[0] not in PUBLISHED_LANGUAGE
    ]
    published = sorted(
        (choice for choice in every if choice[0] in PUBLISHED_LANGUAGE),
        key=lambda choice: PUBLISHED_LANGUAGE[choice[0]] != language,
    )
    groups = [
        (str(_l("Contract rummy from families' rule sheets")), sheets),
        (str(_l("Published games")), published),
    ]
    if language != FAMILY_SHEETS_LANGUAGE and any(
        PUBLISHED_LANGUAGE[slug] == language for slug, _name in published
    ):
        groups.reverse()
    if saved:
        groups.insert(0, (str(_l("Your house rules")), saved))
    return groups


def load(slug: str) -> RuleSet:
    """The rule set a slug names, in any case: a preset, or saved house rules. Raises
    ``UnknownRules``."""
    key = slug.strip().lower()
    if key in PRESETS:
        return get_ruleset(key)
    saved = _saved(key)
    if saved is None:
        raise UnknownRules(slug)
    return get_ruleset(saved.options)


# Slugs a house rule set may not take: the presets', and the editor's own address.
RESERVED_SLUGS = frozenset({*PRESETS, "new"})
SLUG_LENGTH = 60


class NameTaken(ValueError):
    """Another saved rule set, or a preset, already has this name."""

    def __init__(self, name: str) -> None:
        super().__init__(f"There are already rules called {name!r}: choose another name.")
        self.name = name


def saved() -> list[HouseRules]:
    """Every saved house rule set, by name."""
    if not sees_house_rules(visitor()):
        return []
    return list(db.session.scalars(select(HouseRules).order_by(HouseRules.name)))


def get(slug: str) -> HouseRules:
    """The saved house rules with this slug. Raises ``UnknownRules``."""
    record = _saved(slug)
    if record is None:
        raise UnknownRules(slug)
    return record


def _saved(slug: str) -> HouseRules | None:
    if not sees_house_rules(visitor()):
        return None
    return db.session.scalar(select(HouseRules).where(HouseRules.slug == slug))


def slug_for(name: str) -> str:
    """The address form of a name: "Grandma's rules" -> "grandmas-rules"."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    slug = re.sub(r"[^a-z0-9]+", "-", plain.replace("'", "")).strip("-")[:SLUG_LENGTH].strip("-")
    return slug or "house-rules"


def save(name: str, options: Mapping[str, Any]) -> HouseRules:
    """Save new house rules: ``options`` as ``get_ruleset`` reads them (``{"base": ..., ...}``)
    under ``name``, with a slug made from the name and unique among saved rules.

    Raises ``NameMissing``, ``NameTaken``, or the engine's ``RuleSetError`` (listing every bad
    option); stores nothing then.
    """
    name = _clean_name(name)
    check_name_free(name, None)
    ruleset = get_ruleset({**options, "name": name, "slug": slug_for(name)})
    for attempt in range(1, 20):
        slug = free_slug(slug_for(name), attempt)
        options_out = get_ruleset({**ruleset.to_dict(), "slug": slug}).to_dict()
        record = HouseRules(slug=slug, name=name, base=ruleset.base, options=options_out)
        db.session.add(record)
        try:
            db.session.commit()
        except IntegrityError:
            # Another phone saved the same slug a moment ago: take the next one.
            db.session.rollback()
            continue
        return record
    raise NameTaken(name)


def update(slug: str, name: str, options: Mapping[str, Any]) -> HouseRules:
    """Change saved house rules (the slug stays, so links to them keep working). Games
    already played keep their own frozen copy. Raises ``UnknownRules``, ``NameMissing``,
    ``NameTaken`` or ``RuleSetError``; stores nothing then."""
    record = get(slug)
    name = _clean_name(name)
    check_name_free(name, record.id)
    ruleset = get_ruleset({**options, "name": name, "slug": record.slug})
    try:
        record.name = name
        record.base = ruleset.base
        record.options = ruleset.to_dict()
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return record


class NameMissing(ValueError):
    """The name is empty once tidied (only spaces and invisible characters)."""

    def __init__(self) -> None:
        super().__init__("Give these rules a name.")


def _clean_name(name: str) -> str:
    """The name as it is stored: tidied as every name is (``names.tidy_name``: NFKC, no
    invisible or direction characters, single spaces). Raises ``NameMissing``."""
    tidy = tidy_name(name)
    if not tidy:
        raise NameMissing()
    return tidy


def check_name_free(name: str, own_id: int | None) -> None:
    """Raise ``NameTaken`` where a preset or other saved house rules in use have ``name``,
    spelled the same way or another that tidies alike ("Ｇran", "G\u200bran")."""
    key = name_key(name)
    if any(name_key(get_ruleset(slug).name) == key for slug in PRESETS):
        raise NameTaken(name)
    for other_id, other_name in db.session.execute(select(HouseRules.id, HouseRules.name)):
        if other_id != own_id and name_key(other_name) == key:
            raise NameTaken(name)


def free_slug(wanted: str, attempt: int) -> str:
    """``wanted``, or with the first free number after it ("grandmas-rules-2")."""
    # Slugs of rules in the bin are taken too: they may come back.
    with scope.with_bin():
        taken = set(
            db.session.scalars(select(HouseRules.slug).where(HouseRules.slug.like(f"{wanted}%")))
        )
    taken |= RESERVED_SLUGS
    number = attempt
    while True:
        slug = wanted if number == 1 else f"{wanted[: SLUG_LENGTH - 4]}-{number}"
        if slug not in taken:
            return slug
        number += 1
