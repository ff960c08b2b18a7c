"""Reading the game file (``scorekeeper-game``, version 1): pure, no database.

``read_game_file`` checks a document as a person or a script wrote it and returns what it
says (the rules, the table, who left and joined, the rounds as ``RoundEntry`` values) or every
problem with it, each naming the round and the player. ``gamefile_out`` writes the document
the app exports, ``gamefile_lineup`` reads and writes ``left`` and ``joined``. See
``shared/spec/game-format.md``.

Every problem is a sentence a person reads on the upload page: a message of the rules engine's
(``N_``, an id and its values, English as its ``str``), put into the page's language where it
is shown; the command line prints its English. The file's keys ("players", "went_out") are
quoted as they are, in every language: they are the format's, not words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, BinaryIO

from scorekeeper.limits import (
    CARDS_LENGTH,
    EARLIEST_YEAR,
    GAME_FILE_BYTES,
    LATEST_YEAR,
    MAX_NAMES,
    MAX_ROUNDS,
    NAME_LENGTH,
    size_in_words,
    time_in_range,
)
from scorekeeper.names import name_key, tidy_name, too_long
from scorekeeper.rules import (
    N_,
    Message,
    N_plural,
    RuleSet,
    RuleSetError,
    UnknownRulesError,
    get_ruleset,
)
from scorekeeper.rules.messages import Value

from .gamefile_lineup import absent_problem, read_lineup
from .tally import HandEntry, Lineup, RoundEntry, Tally, tally_game

FORMAT = "scorekeeper-game"
VERSION = 1

RulesResolver = Callable[[Any], RuleSet]


UID_PATTERN = re.compile(r"[A-Za-z0-9-]{8,64}")


class GameFileError(ValueError):
    """A game file that is refused; ``problems`` lists every reason, one sentence each (a
    ``Message``, or text as another part of the app wrote it)."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


@dataclass(frozen=True)
class GameFile:
    """What a game file says, checked: everything needed to store the game."""

    rules: RuleSet
    names: tuple[str, ...]
    first_dealer: int
    started: datetime | None
    abandoned: bool
    rounds: tuple[RoundEntry, ...]
    tally: Tally
    # The game's identity wherever it travels (None: a new game, given one when stored).
    uid: str | None = None


def load_document(stream: BinaryIO) -> Any:
    """The JSON document of a game file read from ``stream``, reading at most one byte more
    than a game file may hold: a larger file is refused without reading the rest of it.

    Raises GameFileError when the file is too large, not UTF-8 JSON, or absurdly nested."""
    raw = stream.read(GAME_FILE_BYTES + 1)
    if len(raw) > GAME_FILE_BYTES:
        raise GameFileError(
            [
                N_(
                    "This file is larger than %(size)s, the most a game file may be: it is not "
                    "one game.",
                    size=size_in_words(GAME_FILE_BYTES),
                )
            ]
        )
    try:
        return json.loads(raw)
    except UnicodeDecodeError:
        raise GameFileError(
            [N_("This file is not a JSON document (it is not UTF-8 text).")]
        ) from None
    except json.JSONDecodeError as error:
        # Where the reading stopped, in the file's own lines: the parser's reason is English.
        raise GameFileError(
            [
                N_(
                    "This file is not a JSON document (it cannot be read at line %(line)s, "
                    "column %(column)s).",
                    line=error.lineno,
                    column=error.colno,
                )
            ]
        ) from None
    except (ValueError, RecursionError):
        # A number of thousands of digits, or lists nested thousands deep: no game file.
        raise GameFileError(
            [N_("This file is not a game file: its numbers or nesting are far too large.")]
        ) from None


# JSON text holds a NUL only as this escape (a raw one is refused by the JSON reader).
_NUL_ESCAPE = re.compile(r"\\u0000", re.IGNORECASE)


def text_may_hold_nul(text: str) -> bool:
    """Whether the document read from the JSON ``text`` may hold a NUL character."""
    return "\x00" in text or _NUL_ESCAPE.search(text) is not None


def holds_nul(value: Any, depth: int = 0) -> bool:
    """Whether any text (key or value) in a decoded JSON document holds a NUL character."""
    if isinstance(value, str):
        return "\x00" in value
    if depth > 100:
        return False  # deeper than any game file: read_game_file refuses its shape
    if isinstance(value, Mapping):
        return any(holds_nul(k) or holds_nul(v, depth + 1) for k, v in value.items())
    if isinstance(value, list):
        return any(holds_nul(item, depth + 1) for item in value)
    return False


def read_game_file(document: Any, resolve_rules: RulesResolver = get_ruleset) -> GameFile:
    """Check ``document`` (parsed JSON) against the game-file spec.

    Returns the game it describes; raises GameFileError listing every problem found.
    ``resolve_rules`` turns the ``rules`` field into a RuleSet (the app passes one that knows
    saved house rules too) and raises ValueError or LookupError for rules it does not know.
    """
    if not isinstance(document, Mapping):
        raise GameFileError([N_("The file is not a scorekeeper game: it must be one JSON object.")])
    problems: list[str] = []
    if document.get("format") != FORMAT:
        raise GameFileError(
            [
                N_(
                    'This is not a scorekeeper game file: "format" must be "%(format)s".',
                    format=FORMAT,
                )
            ]
        )
    version = document.get("version")
    if version != VERSION or isinstance(version, bool):
        raise GameFileError(
            [
                N_(
                    "This game file is version %(version)s; this app reads version %(ours)s "
                    "of the game file only.",
                    version=repr(version),
                    ours=VERSION,
                )
            ]
        )

    rules: RuleSet | None = None
    if "rules" not in document:
        problems.append(
            N_('The file does not say which rules the game was played under ("rules").')
        )
    elif not isinstance(document["rules"], str | Mapping):
        problems.append(N_('"rules" must be a rule set\'s name or an object {"base": …}.'))
    else:
        named = _tidily_named(document["rules"], problems)
        try:
            rules = None if named is None else resolve_rules(named)
        except (ValueError, LookupError) as error:
            problems.append(_rules_refused(error))

    names = _read_names(document.get("players"), problems)
    keys = {name_key(name): seat for seat, name in enumerate(names)}

    first_dealer = 0
    dealer = document.get("first_dealer")
    if dealer is not None:
        if not isinstance(dealer, str) or name_key(dealer) not in keys:
            problems.append(
                N_('"first_dealer" (%(dealer)s) is not one of the players.', dealer=repr(dealer))
            )
        else:
            first_dealer = keys[name_key(dealer)]

    started = _read_started(document.get("started"), problems)
    uid = document.get("uid")
    if uid is not None and not (isinstance(uid, str) and UID_PATTERN.fullmatch(uid)):
        problems.append(
            N_(
                '"uid" must be %(fewest)s to %(most)s letters, digits and hyphens (the app makes '
                "a UUID); this file has %(uid)s.",
                fewest=8,
                most=64,
                uid=repr(str(uid)[:40]),
            )
        )
        uid = None
    abandoned = document.get("abandoned", False)
    if not isinstance(abandoned, bool):
        problems.append(N_('"abandoned" must be true or false.'))
        abandoned = False

    rounds_data = document.get("rounds", [])
    played = len(rounds_data) if isinstance(rounds_data, list) else 0
    lineup = read_lineup(document, names, keys, played, problems) if names else Lineup()
    entries: list[RoundEntry] = []
    complete = True
    if not isinstance(rounds_data, list):
        problems.append(N_('"rounds" must be a list of rounds (it may be empty).'))
        complete = False
    elif len(rounds_data) > MAX_ROUNDS:
        # Refused before a single round is read: the count alone is enough.
        problems.append(
            N_(
                "A game has at most %(most)s rounds; this file has %(count)s.",
                most=MAX_ROUNDS,
                count=len(rounds_data),
            )
        )
        complete = False
    elif names:
        for number, round_data in enumerate(rounds_data, start=1):
            entry = _read_round(number, round_data, names, keys, lineup, problems)
            if entry is None:
                complete = False
            elif complete:
                # The rounds up to the first unreadable one can still be checked in play.
                entries.append(entry)

    if rules is None or not names:
        raise GameFileError(problems or [N_("The game file cannot be read.")])
    tally = tally_game(rules, names, first_dealer, entries, abandoned=abandoned, lineup=lineup)
    problems.extend(problem.message for problem in tally.problems)
    if problems or not complete:
        raise GameFileError(problems or [N_("The game file cannot be read.")])
    return GameFile(
        rules=rules,
        names=tuple(names),
        first_dealer=first_dealer,
        started=started,
        abandoned=abandoned,
        rounds=tuple(entries),
        tally=tally,
        uid=uid,
    )


def _rules_refused(error: BaseException) -> Message:
    """Why the file's rules cannot be read, as the error says it: the rules engine's problems,
    or the message an error carries (house rules the household has not), else its text."""
    slug = _unknown_slug(error)
    if slug is not None:
        return N_(
            "The rules %(slug)s are not known to this Scorekeeper: the game was played under "
            "rules of a newer version of Scorekeeper (update this one to import it), or under "
            "house rules this household does not have.",
            slug=repr(slug),
        )
    message = getattr(error, "message", None)
    reason: Value = message if isinstance(message, Message) else str(error).strip()
    if isinstance(error, RuleSetError):
        reason = tuple(problem.message for problem in error.problems)
    if str(error).strip().endswith("."):
        return N_("The rules cannot be read: %(reason)s", reason=reason)
    return N_("The rules cannot be read: %(reason)s.", reason=reason)


def _unknown_slug(error: BaseException) -> object | None:
    """The rules' name (slug) a file gives where no preset and no house rules have it: a preset
    a newer version added, or house rules kept in another household. None for any other
    refusal."""
    if isinstance(error, UnknownRulesError):
        return error.problems[0].value
    return getattr(error, "slug", None) if isinstance(error, LookupError) else None


def _tidily_named(rules: str | Mapping[str, Any], problems: list[str]) -> Any:
    """The file's ``rules`` with their own name (house rules' object) tidied as every name is
    (``names.tidy_name``) before the rules engine reads it, so the name checked, stored and
    shown is the one form; without it where nothing is left (the base preset's name then).
    None, with the problem, where the name is longer than a name may be."""
    name = rules.get("name") if isinstance(rules, Mapping) else None
    if not isinstance(rules, Mapping) or not isinstance(name, str):
        return rules
    tidy = tidy_name(name)
    if too_long(tidy):
        problems.append(N_("The rules cannot be read: %(reason)s", reason=_too_long(tidy)))
        return None
    if not tidy:
        return {key: value for key, value in rules.items() if key != "name"}
    return rules if tidy == name else {**rules, "name": tidy}


def _too_long(name: str) -> Message:
    return N_plural(
        "The name %(name)s… is too long (at most %(num)s letter).",
        "The name %(name)s… is too long (at most %(num)s letters).",
        num=NAME_LENGTH,
        name=repr(name[:20]),
    )


def _read_names(players: Any, problems: list[str]) -> list[str]:
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        problems.append(N_('"players" must be a list of names, in seating order.'))
        return []
    names = [tidy_name(name) for name in players]
    good = True
    for name in names:
        if not name:
            problems.append(N_("A player's name is empty."))
            good = False
        elif too_long(name):
            problems.append(_too_long(name))
            good = False
    if len(names) > MAX_NAMES:
        # Those at the table at once (at most MAX_PLAYERS) are the tally's to count.
        problems.append(
            N_(
                "A game seats at most %(most)s names in all; this file has %(count)s.",
                most=MAX_NAMES,
                count=len(names),
            )
        )
        return []
    if len(names) < 2:
        problems.append(
            N_(
                "A game needs at least %(fewest)s players; this file has %(count)s.",
                fewest=2,
                count=len(names),
            )
        )
        good = False
    seen: dict[str, str] = {}
    for name in names:
        key = name_key(name)
        if key and key in seen:
            problems.append(
                N_(
                    "%(name)s is named twice among the players (%(first)s and %(name)s); names "
                    "must differ, ignoring case.",
                    name=name,
                    first=seen[key],
                )
            )
            good = False
        seen.setdefault(key, name)
    return names if good else []


# How a time is written in a game file, shown when one is not.
_ISO_EXAMPLE = "2026-11-20T19:30:00+00:00"


def _read_started(value: Any, problems: list[str]) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        problems.append(
            N_('"started" must be a time in ISO 8601, like "%(example)s".', example=_ISO_EXAMPLE)
        )
        return None
    try:
        started = datetime.fromisoformat(value)
    except ValueError:
        problems.append(
            N_(
                '"started" (%(value)s) is not a time in ISO 8601, like "%(example)s".',
                value=repr(value),
                example=_ISO_EXAMPLE,
            )
        )
        return None
    kept: datetime | None = started.replace(tzinfo=UTC) if started.tzinfo is None else None
    if kept is None:
        # Kept in UTC: a time near the first or last day a date can name may have no UTC time.
        with suppress(OverflowError):
            kept = started.astimezone(UTC)
    if kept is None or not time_in_range(kept):
        problems.append(
            N_(
                '"started" (%(value)s) is outside the years %(first)s to %(last)s in UTC.',
                value=repr(value),
                # Years are written as years, with no thousands separator in any language.
                first=str(EARLIEST_YEAR),
                last=str(LATEST_YEAR),
            )
        )
        return None
    return kept


def _read_round(
    number: int,
    data: Any,
    names: list[str],
    keys: dict[str, int],
    lineup: Lineup,
    problems: list[str],
) -> RoundEntry | None:
    if not isinstance(data, Mapping):
        problems.append(
            N_('Round %(round)s must be an object with "went_out" and "players".', round=number)
        )
        return None
    went_out: int | None = None
    went_out_name = data.get("went_out")
    if went_out_name is not None:
        if not isinstance(went_out_name, str) or name_key(went_out_name) not in keys:
            problems.append(
                N_(
                    'Round %(round)s: "went_out" names %(name)s, who is not a player of this game.',
                    round=number,
                    name=repr(went_out_name),
                )
            )
            return None
        went_out = keys[name_key(went_out_name)]
        if not lineup.plays(went_out, number):
            problems.append(absent_problem(number, names[went_out], went_out, lineup))
            return None
    players = data.get("players")
    if not isinstance(players, Mapping):
        problems.append(
            N_(
                'Round %(round)s: "players" must be an object with one entry a player.',
                round=number,
            )
        )
        return None
    tie_break_hand = data.get("tie_break_hand", False)
    if not isinstance(tie_break_hand, bool):
        problems.append(
            N_('Round %(round)s: "tie_break_hand" must be true or false.', round=number)
        )
        return None
    hands: dict[int, HandEntry] = {}
    good = True
    for name, hand in players.items():
        seat = keys.get(name_key(name)) if isinstance(name, str) else None
        if seat is None:
            problems.append(
                N_(
                    "Round %(round)s: %(name)s is not a player of this game.",
                    round=number,
                    name=repr(name),
                )
            )
            good = False
            continue
        if seat in hands:
            problems.append(
                N_("Round %(round)s: %(name)s appears twice.", round=number, name=names[seat])
            )
            good = False
            continue
        if not lineup.plays(seat, number):
            problems.append(absent_problem(number, names[seat], seat, lineup))
            good = False
            continue
        # A tie-break hand asks nobody whether a contract was made: it is not read.
        entry = _read_hand(number, names[seat], seat == went_out or tie_break_hand, hand, problems)
        if entry is None:
            good = False
            continue
        hands[seat] = entry
    for seat, name in enumerate(names):
        # Only the tied players play a tie-break hand: the others are in no hand of it.
        if seat not in hands and good and lineup.plays(seat, number) and not tie_break_hand:
            problems.append(
                N_(
                    "Round %(round)s: %(name)s is missing (every player of the game appears in "
                    "every round).",
                    round=number,
                    name=name,
                )
            )
            good = False
    if not good:
        return None
    one_turn = data.get("went_out_in_one_turn", False)
    if not isinstance(one_turn, bool):
        problems.append(
            N_('Round %(round)s: "went_out_in_one_turn" must be true or false.', round=number)
        )
        return None
    return RoundEntry(
        went_out=went_out,
        hands=tuple(hands.get(seat, HandEntry()) for seat in range(len(names))),
        went_out_in_one_turn=one_turn,
        tie_break_hand=tie_break_hand,
    )


def _read_hand(
    number: int, name: str, went_out: bool, data: Any, problems: list[str]
) -> HandEntry | None:
    if not isinstance(data, Mapping):
        problems.append(
            N_(
                'Round %(round)s, %(name)s: give an object {"made_contract": …, "cards": …}.',
                round=number,
                name=name,
            )
        )
        return None
    made = data.get("made_contract")
    if made is None and not went_out:
        problems.append(
            N_(
                "Round %(round)s, %(name)s: say whether %(name)s made the contract "
                '("made_contract": true or false).',
                round=number,
                name=name,
            )
        )
        return None
    if made is not None and not isinstance(made, bool):
        problems.append(
            N_(
                'Round %(round)s, %(name)s: "made_contract" must be true or false.',
                round=number,
                name=name,
            )
        )
        return None
    cards = data.get("cards", "")
    if cards is None:
        cards = ""
        points = data.get("points")
        if points is not None:
            # No cards but points: a total typed at the table (see _typed_points).
            return _typed_points(number, name, made, points, problems)
    if not isinstance(cards, str):
        problems.append(
            N_(
                'Round %(round)s, %(name)s: "cards" must be the cards in notation, like '
                '"K Q 9 JK".',
                round=number,
                name=name,
            )
        )
        return None
    if len(cards) > 4 * CARDS_LENGTH:
        problems.append(
            N_(
                "Round %(round)s, %(name)s: more cards than any hand holds.",
                round=number,
                name=name,
            )
        )
        return None
    return HandEntry(cards=cards, made_contract=made)


def _typed_points(
    number: int, name: str, made: bool | None, points: Any, problems: list[str]
) -> HandEntry | None:
    """A hand written ``"cards": null, "points": N``: its points were typed as a total, with
    no cards. The tally checks the range and that whoever went out scores 0."""
    if isinstance(points, bool) or not isinstance(points, int):
        problems.append(
            N_(
                'Round %(round)s, %(name)s: "points" with "cards": null is a total typed at the '
                "table: a whole number (not %(points)s).",
                round=number,
                name=name,
                points=repr(points),
            )
        )
        return None
    return HandEntry(made_contract=made, total=points)
