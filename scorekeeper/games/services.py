"""Games in the database: start one, and read one's tally. Round writes are in ``rounds``, the
change log's lines in ``changelog``, the game file's import and export in ``transfer``. Each
public function that writes does it in one transaction: it commits at the end, or rolls back
and raises, so nothing is ever half-saved.

Everything shown about a game follows from its frozen rules (``Game.rules``), its seats and
its rounds through ``tally.tally_game`` (``replay``); ``recompute`` copies the result into the
summary columns that the history pages aggregate in SQL, and moves the game's version
(``versions.bump``). A write keeps the tally it made under the version it wrote
(``keep_tally``), in the app's one store (``extensions.Kept``); ``tally_of``, which every page
reads, takes it from there, so a game is replayed once a change, not once a page.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from functools import lru_cache, partial
from typing import Any

from sqlalchemy import select

from scorekeeper import house_rules
from scorekeeper.extensions import Kept, db
from scorekeeper.models import (
    Game,
    Player,
    Round,
    Seat,
    new_uid,
    utcnow,
)
from scorekeeper.names import name_key, tidy_name
from scorekeeper.rules import N_, PRESETS, RuleSet, get_ruleset, own_words
from scorekeeper.rules.messages import listing
from scorekeeper.versions import bump

from . import changelog, round_entry
from .tally import (
    ABANDONED,
    IN_PROGRESS,
    Comeback,
    Lineup,
    Problem,
    RoundEntry,
    RoundResult,
    Tally,
    check_table,
    tally_game,
)

__all__ = [
    "append_round",
    "carry_tally",
    "game_players_matching",
    "keep_tally",
    "put_back_offer",
    "recompute",
    "replay",
    "rounds_stamp",
    "rules_of",
    "start_game",
    "tally_of",
    "undo_deadline",
]


# How long after its saving the last round may be undone in one tap (later: correct it).
UNDO_WINDOW = timedelta(minutes=10)


class GameRefused(ValueError):
    """A game that cannot start (players, rules); ``problems`` says why."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(problem.message for problem in self.problems))


def rules_of(game: Game) -> RuleSet:
    """The game's own frozen rules. A game's house rules are stored whole and built into a
    rule set once per process (a board, a save and a form each ask several times)."""
    rules = game.rules
    if not isinstance(rules, Mapping):
        return get_ruleset(rules)
    return _built_rules(json.dumps(rules, sort_keys=True))


@lru_cache(maxsize=256)
def _built_rules(rules: str) -> RuleSet:
    return get_ruleset(json.loads(rules))


def _resolve_rules(rules: Any) -> RuleSet:
    if isinstance(rules, str):
        return house_rules.load(rules.strip())
    return tidily_named(get_ruleset(rules))


def tidily_named(rules: RuleSet) -> RuleSet:
    """``rules`` under their name tidied as every name is (``names.tidy_name``: a game file's
    rules may be named with invisible or direction characters); under their base preset's name
    where nothing is left."""
    tidy = tidy_name(rules.name) or get_ruleset(rules.base).name
    return rules if tidy == rules.name else dataclasses.replace(rules, name=tidy)


def entries_of(game: Game) -> list[RoundEntry]:
    """The game's rounds as the tally reads them (``round_entry.entry_of``)."""
    positions = round_entry.positions_of(game.seats)
    return [round_entry.entry_of(played, positions) for played in game.rounds]


def rounds_stamp(game: Game) -> str:
    """What a round form is made on: a short digest of the game's rounds as stored (who went
    out, each hand's cards, total and contract) and of its status.

    Not ``Game.version``: that moves on every change a scoreboard shows (a May I called, a
    player renamed, a seat's draft), and none of those changes the round being entered, so a
    save made on the rounds as they still are must not be refused. Worked out from the rows
    themselves rather than kept in a column of its own, so no write path can forget to move it,
    and a round undone and saved again exactly as it was leaves it as it was."""
    digest = hashlib.blake2b(str(game.status).encode(), digest_size=8)
    for entry in entries_of(game):
        digest.update(repr(entry).encode())
    return digest.hexdigest()


def names_of(game: Game) -> list[str]:
    return [seat.player.name for seat in game.seats]


def lineup_of(game: Game) -> Lineup:
    """Who left the game and who joined it, by seat, as stored."""
    return Lineup(
        left={seat.position: seat.left_after for seat in game.seats if seat.left_after is not None},
        joined={
            seat.position: (seat.joined_before, seat.joined_total or 0)
            for seat in game.seats
            if seat.joined_before is not None
        },
        returns={seat.position: comebacks_of(seat.returns) for seat in game.seats if seat.returns},
    )


def comebacks_of(stored: list[list[int | None]]) -> tuple[Comeback, ...]:
    """A seat's ``returns`` column as the tally's comebacks."""
    return tuple(
        Comeback(int(left or 0), int(back or 0), None if total is None else int(total))
        for left, back, total in stored
    )


def stored_returns(lineup: Lineup, position: int) -> list[list[int | None]] | None:
    """The ``returns`` column of the seat at ``position`` (None: it never came back)."""
    aways = lineup.returns.get(position)
    return [list(away) for away in aways] if aways else None


def replay(
    game: Game, rounds: Sequence[RoundEntry] | None = None, *, abandoned: bool | None = None
) -> Tally:
    """Replay ``game`` (or ``game`` with ``rounds`` in place of its own, or ``abandoned``) by
    the rules: what a write does once, on the game as it will be stored."""
    return tally_game(
        rules_of(game),
        names_of(game),
        game.first_dealer,
        entries_of(game) if rounds is None else rounds,
        abandoned=(game.status == ABANDONED) if abandoned is None else abandoned,
        lineup=lineup_of(game),
    )


def _tally_key(game_id: int, version: int) -> tuple[str, int, int]:
    return ("tally", game_id, version)


def tally_of(game: Game) -> Tally:
    """The tally of ``game`` as stored: the one its last write kept for its version, else
    replayed once and kept (every write moves the version, so a kept tally is never stale).
    For the game as read, not as being changed: a write replays the game it is making."""
    return Kept.of().get_or_make(_tally_key(game.id, game.version), partial(replay, game))


def keep_tally(game_id: int, version: int, tally: Tally) -> None:
    """After the commit of a write that left game ``game_id`` at ``version``: ``tally``, which
    the write replayed, is the game's tally now (the page after the save reads it)."""
    Kept.of().put(_tally_key(game_id, version), tally)


def carry_tally(game_id: int, before: int, after: int) -> None:
    """After the commit of a change that moved the version from ``before`` to ``after`` and
    left the tally as it was (a May I, a phone's draft): the tally kept for ``before`` holds
    for ``after``. Never over one kept for ``after`` already (a save of another phone that
    wrote the same version first, on a server that does not take the write lock up front)."""
    kept = Kept.of()
    tally = kept.get(_tally_key(game_id, before))
    if tally is not None and kept.get(_tally_key(game_id, after)) is None:
        kept.put(_tally_key(game_id, after), tally)


def recompute(game: Game, tally: Tally | None = None) -> Tally:
    """Refresh the summary columns of ``game`` (seats, hands, status, ended, version) from its
    tally (replayed here when not given). Does not commit: the caller's transaction does."""
    tally = tally or replay(game)
    seats = list(game.seats)
    for standing in tally.standings:
        seat = seats[standing.seat]
        seat.total = standing.total
        seat.contract = standing.contract
        seat.contracts_made = standing.contracts_made
        seat.place = standing.place
        seat.is_winner = standing.is_winner
    for played, result in zip(game.rounds, tally.rounds, strict=False):
        round_entry.store(played, seats, result)
    was_over = game.status != IN_PROGRESS
    game.status = tally.status
    game.round_count = len(tally.rounds)
    game.tie_break = tally.tie_break
    if tally.is_over and not (was_over and game.ended):
        game.ended = utcnow()
    elif not tally.is_over:
        game.ended = None
    bump(game)
    return tally


def game_players_matching(names: Sequence[str]) -> list[Player]:
    """The players of these names: a name is matched to an existing player of the same name,
    ignoring case (``models.name_key``), or creates one. Does not commit."""
    players: list[Player] = []
    for name in names:
        key = name_key(name)
        player = db.session.scalar(select(Player).where(Player.name_key == key))
        if player is None:
            player = Player(name=tidy_name(name), name_key=key)
            db.session.add(player)
            db.session.flush()
        players.append(player)
    return players


def _new_game(
    rules: RuleSet,
    names: Sequence[str],
    first_dealer: int,
    started: datetime | None,
    uid: str | None = None,
    lineup: Lineup | None = None,
) -> Game:
    players = game_players_matching(names)
    rules = tidily_named(rules)
    game = Game(
        uid=uid or new_uid(),
        rules=rules.to_dict(),
        rules_slug=rules.slug,
        rules_name=rules.name,
        status=IN_PROGRESS,
        first_dealer=first_dealer,
        version=0,
    )
    if started is not None:
        game.started = started
    lineup = lineup or Lineup()
    for position, player in enumerate(players):
        joined = lineup.joined.get(position)
        game.seats.append(
            Seat(
                player=player,
                position=position,
                left_after=lineup.left.get(position),
                joined_before=None if joined is None else joined[0],
                joined_total=0 if joined is None else joined[1],
                returns=stored_returns(lineup, position),
            )
        )
    db.session.add(game)
    db.session.flush()
    return game


def start_game(
    rules: RuleSet, names: Sequence[str], first_dealer: int = 0, started: datetime | None = None
) -> Game:
    """Start a game at this table; raises GameRefused for too few/many players or a name twice.

    The names are tidied as every name is (``names.tidy_name``) before anything reads them, and
    the change log's line names the players as their rows hold them (a name typed as another
    player's, in other letters, is that player's), never as typed."""
    names = [tidy_name(name) for name in names]
    problems = check_table(rules, names, first_dealer)
    if problems:
        raise GameRefused(problems)
    try:
        game = _new_game(rules, names, first_dealer, started)
        tally = recompute(game)
        seated = names_of(game)
        changelog.log(
            game,
            N_(
                "Game started: %(rules)s; %(names)s; %(dealer)s deals first.",
                rules=tidily_named(rules).name,
                names=listing(seated),
                dealer=seated[game.first_dealer],
            ),
        )
        game_id, version = game.id, game.version
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    keep_tally(game_id, version, tally)
    return game


def append_round(
    game: Game,
    seats: Sequence[Seat],
    result: RoundResult,
    submission: str | None = None,
) -> Round:
    """Add the next round to ``game`` as the tally worked it out (``result``:
    ``round_entry.store``). Does not flush or commit."""
    played = Round(number=len(game.rounds) + 1, submission=submission or None)
    game.rounds.append(played)
    round_entry.store(played, seats, result)
    return played


def undo_deadline(game: Game) -> datetime | None:
    """Until when the last round may be undone in one tap (None: there is no round)."""
    if not game.rounds:
        return None
    return game.rounds[-1].created_at + UNDO_WINDOW


def put_back_offer(game: Game, now: datetime | None = None) -> tuple[int, datetime] | None:
    """The round the board offers to put back, and until when: the last round undone, while
    it would be the next round again and its undo would still have been offered (None: no
    such round)."""
    kept = game.undone
    if not kept or game.status != IN_PROGRESS or kept.get("number") != len(game.rounds) + 1:
        return None
    until = datetime.fromisoformat(kept["saved"]) + UNDO_WINDOW
    return (kept["number"], until) if (now or utcnow()) <= until else None


def may_i_left(game: Game, seat: Seat) -> int | None:
    """How many May I the player has left (None: no limit)."""
    limit = rules_of(game).may_i.limit
    return None if limit is None else max(0, limit - seat.may_i_used)


def own_words_of(game_id: int) -> str:
    """The own words of the game ``game_id``'s rules (``rules.own_words``): its preset's, or
    the preset its house rules were made from; "" for none, or no such game here."""
    base = _base_of(game_id)
    return own_words(base) if base else ""


def _base_of(game_id: int) -> str | None:
    rules = db.session.scalar(select(Game.rules).where(Game.id == game_id))
    base = rules.get("base") if isinstance(rules, dict) else None
    return base if isinstance(base, str) and base in PRESETS else None
