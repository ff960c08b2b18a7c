"""Players: the list with their records, one player's profile, renaming and merging.

Each function that reads reads the players' kept statistics (``history.stats``), a row per
player, whatever the number of games; the two that write do it in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import aliased

from .. import local_time, scope
from ..derived import PlayerStat
from ..extensions import db
from ..history.queries import rate
from ..limits import NAME_LENGTH
from ..models import Game, Player, PlayerMerge, Seat
from ..names import name_key, tidy_name, too_long
from ..versions import bump_games


class PlayerError(ValueError):
    """A rename or merge that cannot be done; the message says why, for the person asking."""


@dataclass(frozen=True)
class PlayerRow:
    id: int
    name: str
    games: int
    finished: int
    wins: int
    last_played: datetime | None

    @property
    def win_rate(self) -> float | None:
        return rate(self.wins, self.finished)


@dataclass(frozen=True)
class RulesRecord:
    slug: str
    name: str
    games: int
    finished: int
    wins: int
    points: int
    rounds: int

    @property
    def win_rate(self) -> float | None:
        return rate(self.wins, self.finished)

    @property
    def points_per_round(self) -> float | None:
        return rate(self.points, self.rounds)


@dataclass(frozen=True)
class GameResult:
    game_id: int
    started: datetime
    rules_name: str
    total: int
    place: int | None
    is_winner: bool
    players: int


@dataclass(frozen=True)
class HeadToHead:
    opponent_id: int
    opponent: str
    games: int
    ahead: int
    behind: int
    level: int


@dataclass(frozen=True)
class ContractRecord:
    """How one contract went for a player, over every kept-contract game they played."""

    number: int
    games: int
    rounds: int
    made: int

    @property
    def rounds_per_game(self) -> float:
        return self.rounds / self.games


@dataclass(frozen=True)
class Profile:
    player: Player
    overall: RulesRecord
    by_rules: list[RulesRecord]
    in_progress: int
    abandoned: int
    best: GameResult | None
    worst: GameResult | None
    head_to_head: list[HeadToHead]
    contracts: list[ContractRecord]
    # Phase 10's phases, apart from the standard games' contracts: phase 2 is no contract 2.
    phases: list[ContractRecord]

    @property
    def hardest_contract(self) -> ContractRecord | None:
        """The contract that holds the player longest: most rounds per game spent on it."""
        return _hardest(self.contracts)

    @property
    def hardest_phase(self) -> ContractRecord | None:
        """The phase that holds the player longest: most rounds per game spent on it."""
        return _hardest(self.phases)


def _hardest(records: list[ContractRecord]) -> ContractRecord | None:
    if not records:
        return None
    return max(records, key=lambda c: (c.rounds_per_game, c.number))


def player_rows() -> list[PlayerRow]:
    """Every player, by name, with games played, finished, won and the last time they played
    (their kept ``player_stats`` row, ``history.stats``)."""
    stmt = (
        select(
            Player.id,
            Player.name,
            func.coalesce(PlayerStat.games, 0),
            func.coalesce(PlayerStat.finished, 0),
            func.coalesce(PlayerStat.wins, 0),
            PlayerStat.last_played,
        )
        .outerjoin(PlayerStat, PlayerStat.player_id == Player.id)
        .order_by(Player.name_key)
    )
    return [PlayerRow(*row) for row in db.session.execute(stmt)]


def _game_result(kept: dict[str, Any] | None) -> GameResult | None:
    if not kept:
        return None
    return GameResult(
        kept["game_id"],
        datetime.fromisoformat(kept["started"]),
        kept["rules_name"],
        kept["total"],
        kept["place"],
        kept["is_winner"],
        kept["players"],
    )


def profile(player: Player) -> Profile:
    """Everything the profile page shows, from the player's kept row and the names of the
    players they met (two queries)."""
    kept = db.session.scalar(select(PlayerStat).where(PlayerStat.player_id == player.id))
    detail: dict[str, Any] = kept.detail if kept is not None else {}
    by_rules = sorted(
        (RulesRecord(*record) for record in detail.get("by_rules", [])),
        key=lambda r: (-r.games, r.name),
    )
    overall = RulesRecord(
        "",
        "All rules",
        sum(r.games for r in by_rules),
        sum(r.finished for r in by_rules),
        sum(r.wins for r in by_rules),
        sum(r.points for r in by_rules),
        sum(r.rounds for r in by_rules),
    )
    rivals = detail.get("head_to_head", [])
    names: dict[int, str] = {}
    if rivals:
        names = {
            pid: name
            for pid, name in db.session.execute(
                select(Player.id, Player.name).where(Player.id.in_([r[0] for r in rivals]))
            )
        }
    head_to_head = sorted(
        (HeadToHead(pid, names[pid], *counts) for pid, *counts in rivals if pid in names),
        key=lambda h: (-h.games, h.opponent),
    )
    return Profile(
        player=player,
        overall=overall,
        by_rules=by_rules,
        in_progress=kept.in_progress if kept is not None else 0,
        abandoned=kept.abandoned if kept is not None else 0,
        best=_game_result(detail.get("best")),
        worst=_game_result(detail.get("worst")),
        head_to_head=head_to_head,
        contracts=[ContractRecord(*record) for record in detail.get("contracts", [])],
        phases=[ContractRecord(*record) for record in detail.get("phases", [])],
    )


def rename(player: Player, new_name: str) -> Player:
    """Give ``player`` a new name. Raises ``PlayerError`` when the name is empty, too long, or
    already another player's (ignoring case and spaces)."""
    name = tidy_name(new_name)
    if not name:
        raise PlayerError(_("Type a name."))
    if too_long(name):
        raise PlayerError(_("A name can be at most %(num)d characters long.", num=NAME_LENGTH))
    key = name_key(name)
    other = db.session.scalar(select(Player).where(Player.name_key == key, Player.id != player.id))
    if other is not None:
        raise PlayerError(
            _(
                "There is already a player called %(name)s. If that is the same person, "
                "merge the two entries instead.",
                name=other.name,
            )
        )
    try:
        player.name = name
        player.name_key = key
        _redraw_games_of(player.id)
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return player


def merge(keep: Player, absorb: Player) -> int:
    """Make ``absorb`` part of ``keep``: every game ``absorb`` played becomes ``keep``'s, and the
    ``absorb`` entry is removed. Returns the number of games moved.

    Raises ``PlayerError`` when they are the same entry, or when both sat at the same game (two
    people at one table cannot be one person).
    """
    if keep.id == absorb.id:
        raise PlayerError(_("Choose another player: an entry cannot be merged with itself."))
    mine = aliased(Seat)
    theirs = aliased(Seat)
    # Games in the bin count too: brought back, they would hold one person twice.
    with scope.with_bin():
        shared = db.session.execute(
            select(func.count(mine.id), func.min(Game.started))
            .join(theirs, theirs.game_id == mine.game_id)
            .join(Game, Game.id == mine.game_id)
            .where(mine.player_id == keep.id, theirs.player_id == absorb.id)
        ).one()
    if shared[0]:
        first = local_time.day(shared[1]) if shared[1] else _("an earlier game")
        raise PlayerError(
            ngettext(
                "%(kept)s and %(other)s both sat at a game (the first on %(first)s), so they are "
                "two different people: nothing was merged.",
                "%(kept)s and %(other)s both sat at %(num)d games (the first on %(first)s), so "
                "they are two different people: nothing was merged.",
                shared[0],
                kept=keep.name,
                other=absorb.name,
                first=first,
            )
        )
    try:
        # Every moved game changes (its ``updated_at`` too, which the records cache watches);
        # open scoreboards redraw on the version.
        bump_games(Game.id.in_(select(Seat.game_id).where(Seat.player_id == absorb.id)))
        moved = db.session.scalar(select(func.count(Seat.id)).where(Seat.player_id == absorb.id))
        db.session.execute(
            update(Seat)
            .where(Seat.player_id == absorb.id)
            .values(player_id=keep.id)
            .execution_options(synchronize_session=False)
        )
        _record_merge(keep, absorb)
        db.session.execute(delete(Player).where(Player.id == absorb.id))
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    db.session.expire_all()
    return int(moved or 0)


def _record_merge(keep: Player, absorb: Player) -> None:
    """Note that ``absorb`` became part of ``keep`` (a household's backup carries it), with the
    merges ``absorb`` had taken in before: they are ``keep``'s now. A merge of the same name
    into the same player is noted once."""
    held = set(
        db.session.scalars(select(PlayerMerge.absorbed_key).where(PlayerMerge.player_id == keep.id))
    )
    for earlier in db.session.scalars(
        select(PlayerMerge).where(PlayerMerge.player_id == absorb.id)
    ).all():
        if earlier.absorbed_key in held:
            db.session.delete(earlier)
        else:
            earlier.player_id = keep.id
            held.add(earlier.absorbed_key)
    if absorb.name_key not in held:
        db.session.add(
            PlayerMerge(player_id=keep.id, absorbed_name=absorb.name, absorbed_key=absorb.name_key)
        )
    db.session.flush()


def merges() -> list[tuple[str, str]]:
    """(kept player's name, name merged into it) of every merge the household made, in order."""
    rows = db.session.execute(
        select(Player.name, PlayerMerge.absorbed_name)
        .join(Player, Player.id == PlayerMerge.player_id)
        .order_by(PlayerMerge.merged_at, PlayerMerge.id)
    )
    return [(kept, absorbed) for kept, absorbed in rows]


def _redraw_games_of(player_id: int) -> None:
    """Bump the version of every game the player sat at: open scoreboards redraw, and no game
    page drawn with the old name is served again (they are kept by version)."""
    bump_games(Game.id.in_(select(Seat.game_id).where(Seat.player_id == player_id)), counts=False)


def merge_choices(player: Player) -> list[tuple[int, str]]:
    """(id, name) of every other player, by name."""
    rows = db.session.execute(
        select(Player.id, Player.name).where(Player.id != player.id).order_by(Player.name_key)
    )
    return [(pid, name) for pid, name in rows]
