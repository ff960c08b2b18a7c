"""A household's backup: everything needed to bring the household back on a fresh server.

It is a backup of games (``backup.py``, which writes it: ``backup.household_lines``; JSON
lines, one game document of ``shared/spec/game-format.md`` per line) with one more line first,
the household's document::

    {"format": "scorekeeper-household", "version": 1, "written": "2026-11-26T03:00:00+00:00",
     "household": {"name": "Smiths"},
     "members": [{"username": "ann", "role": "owner"}, {"username": "cy", "role": "viewer"}],
     "players": ["Ann", "Ben", "Robert"],
     "house_rules": [{"name": "Gran", "slug": "gran", "rules": {"base": "twelve-step", ...}}],
     "merges": [{"player": "Bob", "merged": "Robert"}]}

- ``household``: the household's settings: its name, its time zone (null: the server's) and
  its language (null: English; ``languages``). A restore never renames the household it
  restores into (``history import`` on a server with no household names the one it makes
  after it), and sets its time zone and its language only where it has none of its own.
- ``members``: usernames and roles only, never a password hash, a session or a link token. A
  member restored has no password until one is set (``flask users password NAME``); a
  username another household of the server holds is not restored, and said so. Only the
  owner's download and the kept daily files hold it: a scorer's download leaves it out, and a
  restore takes a file without it as one with no members.
- ``players``: every player by name, those with no game too.
- ``house_rules``: each saved rule set, as the rules engine's ``to_dict()`` (its ``name`` and
  ``slug`` beside it); the rules in the bin are left out, as are the games in the bin.
- ``merges``: each merge of two entries of one person, the name kept and the name merged
  into it.

Restoring it (the same readers as every backup: ``backup.read_backup_batches``) applies the
household's line first, in one transaction, and then stores the games. Every part is matched
to what the household holds already, so that restoring the same file twice stores everything
once: games by their uid, house rules by name (ignoring case), members by username, players
by name, merges by the two names. A merge whose merged name is a player of the household is
made (their games become the kept player's); one that is not is only noted. A backup of games
only (no household line) is read as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import current_app
from sqlalchemy import select

from .. import house_rules, languages, local_time, scope
from ..extensions import db
from ..limits import NAME_LENGTH
from ..models import NO_PASSWORD, Household, HouseRules, Player, PlayerMerge, Role, User, utcnow
from ..names import name_key, tidy_name, too_long
from ..players import services as players
from ..rules import N_, PRESETS, Message, N_plural, RuleSetError, get_ruleset
from ..rules.messages import Value

FORMAT = "scorekeeper-household"
VERSION = 1


class HouseholdFileError(ValueError):
    """A household's line that cannot be read at all; ``message`` says why."""

    def __init__(self, message: Message) -> None:
        self.message = message
        super().__init__(message)


@dataclass
class Applied:
    """What a household's line brought: one sentence per kind of thing, and the problems,
    each a ``Message`` (written in the reader's language where it is shown)."""

    notes: list[Message] = field(default_factory=list)
    problems: list[Message] = field(default_factory=list)
    # Usernames of members made by this restore: they need a password before they sign in.
    members_made: list[str] = field(default_factory=list)


def is_household_line(document: object) -> bool:
    return isinstance(document, dict) and document.get("format") == FORMAT


# --- writing ----------------------------------------------------------------------------------


def document(with_members: bool = True) -> dict[str, Any]:
    """The household's document, of the household in scope; without ``members`` for whoever
    may not see them (a scorer's download: ``shared/spec/access.md``)."""
    household_id = scope.current()
    assert isinstance(household_id, int), "a household's backup is of one household"
    household = db.session.get(Household, household_id)
    assert household is not None
    members = db.session.scalars(select(User).order_by(User.username_key)).all()
    player_names = db.session.scalars(select(Player.name).order_by(Player.name_key)).all()
    rules = db.session.scalars(select(HouseRules).order_by(HouseRules.name)).all()
    written: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "written": utcnow().isoformat(timespec="seconds"),
        "household": {
            "name": household.name,
            "time_zone": household.time_zone,
            "language": household.language,
        },
    }
    if with_members:
        written["members"] = [{"username": user.username, "role": user.role} for user in members]
    return written | {
        "players": list(player_names),
        "house_rules": [
            {"name": record.name, "slug": record.slug, "rules": record.options} for record in rules
        ],
        "merges": [{"player": kept, "merged": absorbed} for kept, absorbed in players.merges()],
    }


# --- reading ----------------------------------------------------------------------------------


def household_name(document: object) -> str | None:
    """The name of the household a household's line was written of, or None."""
    if not is_household_line(document):
        return None
    assert isinstance(document, dict)
    household = document.get("household")
    name = household.get("name") if isinstance(household, dict) else None
    if not isinstance(name, str):
        return None
    # Never cut to a name's length: the first letters of a long name may be another
    # household's whole name (``add_household`` refuses one too long).
    return tidy_name(name) or None


def apply(document: dict[str, Any]) -> Applied:
    """Bring the household's line into the household in scope (see the module's docstring).

    Everything but the merges is stored in one transaction; each merge is its own (it moves a
    player's games). An item that cannot be restored is named in ``problems`` and the others
    are still restored. Raises ``HouseholdFileError`` where the line is not a household's
    document this version reads."""
    version = document.get("version")
    if version != VERSION:
        raise HouseholdFileError(
            N_(
                "This household backup is version %(version)s; this Scorekeeper reads version "
                "%(reads)s.",
                version=repr(version),
                reads=VERSION,
            )
        )
    applied = Applied()
    try:
        _settings(document.get("household"), applied)
        _rules(_items(document, "house_rules", dict, applied), applied)
        _members(_items(document, "members", dict, applied), applied)
        _players(_items(document, "players", str, applied), applied)
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    _merges(_items(document, "merges", dict, applied), applied)
    return applied


def _settings(settings: object, applied: Applied) -> None:
    """The household's time zone and language, each where it has none of its own yet (a
    restore never changes what the household chose)."""
    if not isinstance(settings, dict):
        return
    household = db.session.get(Household, scope.current())
    if household is None:
        return
    language = settings.get("language")
    if language and not household.language:
        if isinstance(language, str) and languages.known(language):
            household.language = language
        else:
            applied.problems.append(
                N_(
                    "The language %(language)s is not one this server has: left out.",
                    language=repr(str(language)[:80]),
                )
            )
    zone = settings.get("time_zone")
    if not zone or household.time_zone:
        return
    if isinstance(zone, str) and local_time.is_zone(zone):
        household.time_zone = zone
        local_time.forget_zone()
    else:
        applied.problems.append(
            N_("The time zone %(zone)s is not known here: left out.", zone=repr(str(zone)[:80]))
        )


def _items(document: dict[str, Any], key: str, kind: type, applied: Applied) -> list[Any]:
    found = document.get(key, [])
    if not isinstance(found, list):
        applied.problems.append(
            N_("%(key)s is not a list: none of it was restored.", key=repr(key))
        )
        return []
    good = [item for item in found if isinstance(item, kind)]
    if len(good) < len(found):
        wrong = len(found) - len(good)
        if kind is str:
            applied.problems.append(
                N_plural(
                    "%(num)s of the entries of %(key)s is not a name: it was left out.",
                    "%(num)s of the entries of %(key)s are not names: they were left out.",
                    num=wrong,
                    key=repr(key),
                )
            )
        else:
            applied.problems.append(
                N_plural(
                    "%(num)s of the entries of %(key)s is not an object: it was left out.",
                    "%(num)s of the entries of %(key)s are not objects: they were left out.",
                    num=wrong,
                    key=repr(key),
                )
            )
    return good


def _counted(restored: Message, held: int) -> Message:
    """``restored`` ("2 players restored"), then how many were here already, as one sentence."""
    if not held:
        return N_("%(restored)s.", restored=restored)
    return N_plural(
        "%(restored)s, %(num)s was here already.",
        "%(restored)s, %(num)s were here already.",
        num=held,
        restored=restored,
    )


def _rules(items: list[dict[str, Any]], applied: Applied) -> None:
    made = held = 0
    for item in items:
        name = item.get("name")
        rules = item.get("rules")
        if not isinstance(name, str) or not tidy_name(name) or not isinstance(rules, dict):
            applied.problems.append(
                N_("House rules %(name)s have no name or no rules.", name=repr(str(name)[:80]))
            )
            continue
        # Tidied as every name is, and held to a name's length as the rule book's form holds
        # it: never cut, which would store a name nobody gave.
        name = tidy_name(name)
        if too_long(name):
            applied.problems.append(
                N_(
                    "House rules %(name)s… have a name longer than %(most)s characters: left out.",
                    name=repr(name[:80]),
                    most=NAME_LENGTH,
                )
            )
            continue
        try:
            house_rules.check_name_free(name, None)
        except house_rules.NameTaken:
            if any(get_ruleset(slug).name.casefold() == name.casefold() for slug in _presets()):
                applied.problems.append(
                    N_("House rules %(name)s share a preset's name: left out.", name=repr(name))
                )
            else:
                held += 1
            continue
        wanted = item.get("slug")
        if not isinstance(wanted, str) or house_rules.slug_for(wanted) != wanted:
            wanted = house_rules.slug_for(name)
        slug = house_rules.free_slug(wanted, 1)
        try:
            options = get_ruleset({**rules, "name": name, "slug": slug}).to_dict()
        except (RuleSetError, ValueError, TypeError) as error:
            applied.problems.append(
                N_(
                    "House rules %(name)s cannot be read: %(reason)s",
                    name=repr(name),
                    reason=_reason(error),
                )
            )
            continue
        db.session.add(HouseRules(slug=slug, name=name, base=options["base"], options=options))
        db.session.flush()
        made += 1
    if made or held:
        restored = N_plural(
            "%(num)s set of house rules restored", "%(num)s sets of house rules restored", num=made
        )
        applied.notes.append(_counted(restored, held))


def _reason(error: Exception) -> Value:
    """Why rules cannot be read, as the rules engine says it (its messages), else as written."""
    if isinstance(error, RuleSetError):
        return tuple(problem.message for problem in error.problems)
    message = getattr(error, "message", None)
    return message if isinstance(message, Message) else str(error)


def _presets() -> tuple[str, ...]:
    return tuple(PRESETS)


def _members(items: list[dict[str, Any]], applied: Applied) -> None:
    household_id = scope.current()
    assert isinstance(household_id, int)
    made = held = 0
    with scope.server_wide(scope.ServerWide.ANY_ACCOUNT):
        first = db.session.scalar(select(User.id).limit(1)) is None
    for item in items:
        username, role = item.get("username"), item.get("role")
        tidy = tidy_name(username) if isinstance(username, str) else ""
        if not tidy or too_long(tidy) or not (isinstance(role, str) and role in set(Role)):
            applied.problems.append(
                N_(
                    "Member %(username)s has no username or no role.",
                    username=repr(str(username)[:80]),
                )
            )
            continue
        with scope.server_wide(scope.ServerWide.USERNAME):
            other = db.session.scalar(select(User).where(User.username_key == name_key(tidy)))
        if other is not None:
            if other.household_id == household_id:
                held += 1
            else:
                applied.problems.append(
                    N_(
                        "The username %(username)s belongs to another household of this server: "
                        "that member was not restored.",
                        username=tidy,
                    )
                )
            continue
        # The server's first account administers it, as when made by setup or ``users add``.
        admin = first and role == Role.OWNER
        first = first and not admin
        db.session.add(
            User(
                username=tidy,
                username_key=name_key(tidy),
                password_hash=NO_PASSWORD,
                role=role,
                is_admin=admin,
            )
        )
        db.session.flush()
        applied.members_made.append(tidy)
        made += 1
    if made:
        current_app.extensions["scorekeeper_accounts_exist"] = True
    if made or held:
        restored = N_plural("%(num)s member restored", "%(num)s members restored", num=made)
        applied.notes.append(_counted(restored, held))


def _players(items: list[str], applied: Applied) -> None:
    made = held = 0
    known = set(db.session.scalars(select(Player.name_key)))
    for name in items:
        tidy = tidy_name(name)
        if not tidy or too_long(tidy):
            applied.problems.append(
                N_("The player name %(name)s is empty or too long.", name=repr(name[:80]))
            )
            continue
        key = name_key(tidy)
        if key in known:
            held += 1
            continue
        db.session.add(Player(name=tidy, name_key=key))
        known.add(key)
        made += 1
    db.session.flush()
    if made or held:
        restored = N_plural("%(num)s player restored", "%(num)s players restored", num=made)
        applied.notes.append(_counted(restored, held))


def _merges(items: list[dict[str, Any]], applied: Applied) -> None:
    made = held = 0
    for item in items:
        kept_name, merged_name = item.get("player"), item.get("merged")
        if not isinstance(kept_name, str) or not isinstance(merged_name, str):
            applied.problems.append(N_("A merge names no player or no merged name: left out."))
            continue
        kept = db.session.scalar(select(Player).where(Player.name_key == name_key(kept_name)))
        merged_name = tidy_name(merged_name)
        merged_key = name_key(merged_name)
        if too_long(merged_name):
            applied.problems.append(
                N_(
                    "The merged name %(name)s… is longer than %(most)s characters: left out.",
                    name=repr(merged_name[:80]),
                    most=NAME_LENGTH,
                )
            )
            continue
        if kept is None or not merged_key or merged_key == kept.name_key:
            applied.problems.append(
                N_(
                    "The merge of %(merged)s into %(kept)s names no player of the household: "
                    "left out.",
                    merged=repr(merged_name[:80]),
                    kept=repr(kept_name[:80]),
                )
            )
            continue
        absorbed = db.session.scalar(select(Player).where(Player.name_key == merged_key))
        noted = db.session.scalar(
            select(PlayerMerge.id).where(
                PlayerMerge.player_id == kept.id, PlayerMerge.absorbed_key == merged_key
            )
        )
        if absorbed is not None:
            try:
                players.merge(kept, absorbed)
            except players.PlayerError as refused:
                applied.problems.append(
                    N_(
                        "The merge of %(merged)s into %(kept)s was refused: %(reason)s",
                        merged=repr(merged_name[:80]),
                        kept=repr(kept_name[:80]),
                        reason=str(refused),
                    )
                )
                continue
            made += 1
        elif noted is None:
            db.session.add(
                PlayerMerge(
                    player_id=kept.id,
                    absorbed_name=merged_name,
                    absorbed_key=merged_key,
                )
            )
            db.session.commit()
            made += 1
        else:
            held += 1
    if made or held:
        restored = N_plural("%(num)s merge restored", "%(num)s merges restored", num=made)
        applied.notes.append(_counted(restored, held))


def password_note(usernames: list[str]) -> Message:
    """What to do about members a restore made, who have no password yet."""
    return N_(
        "Members restored with no password yet: %(names)s. Nobody can sign in as them until "
        "the server's owner sets one: %(command)s.",
        names=", ".join(usernames),
        command="flask --app scorekeeper users password USERNAME",
    )
