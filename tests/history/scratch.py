"""The history's numbers computed from scratch, over every game, seat and hand, as the pages
did before they read the kept statistics (``scorekeeper.history.stats``): what the kept
numbers must equal."""

from __future__ import annotations

from sqlalchemy import CTE, ColumnElement, Text, case, cast, func, or_, select
from sqlalchemy.orm import aliased

from scorekeeper.extensions import db
from scorekeeper.history.queries import FINISHED
from scorekeeper.history.records import (
    MIN_GAMES_FOR_RATE,
    TOP,
    GameMark,
    PlayerCount,
    Records,
    Streak,
)
from scorekeeper.models import Game, Hand, HouseRules, Player, Round, Seat
from scorekeeper.players.services import (
    ContractRecord,
    GameResult,
    HeadToHead,
    PlayerRow,
    Profile,
    RulesRecord,
)
from scorekeeper.rules import PHASE_10, get_ruleset
from scorekeeper.status import GameStatus

FASTEST_RULES = "twelve-step"

# Where each player keeps their own contract until they make it (the rules engine's
# ``contract_order == "own"``). The presets are listed too, for games stored before the
# frozen rules carried the option.
KEPT_CONTRACT_PRESETS = ("twelve-step", "russian-rummy")


def kept_contract() -> ColumnElement[bool]:
    """A condition on ``Game``: each player works on their own contract until they make it."""
    order = Game.rules["contract_order"].as_string()
    base = Game.rules["base"].as_string()
    return or_(
        order == "own",
        (
            order.is_(None)
            & (base.in_(KEPT_CONTRACT_PRESETS) | Game.rules_slug.in_(KEPT_CONTRACT_PRESETS))
        ),
    )


def whole_seat() -> ColumnElement[bool]:
    """A condition on ``Seat``: the player sat from the game's first round to its last (never
    left, joined or came back)."""
    return (
        Seat.left_after.is_(None)
        & Seat.joined_before.is_(None)
        & (func.coalesce(cast(Seat.returns, Text), "null") == "null")
    )


def _hands_of(seat_ids: list[int]) -> dict[int, list[tuple[int, int]]]:
    """Per seat: (round number, points) of each hand it was dealt, in its game's rounds: the
    rounds it played, read from the hands themselves."""
    found: dict[int, list[tuple[int, int]]] = {seat_id: [] for seat_id in seat_ids}
    rows = db.session.execute(
        select(Hand.seat_id, Round.number, Hand.points)
        .join(Round, Round.id == Hand.round_id)
        .join(Game, Game.id == Round.game_id)
        .where(
            Hand.seat_id.in_(seat_ids),
            Round.number <= Game.round_count,
            Round.tie_break_hand.is_(False),
        )
    )
    for seat_id, number, points in rows:
        found[seat_id].append((number, points))
    return found


def _scored(seat: Seat, hands: list[tuple[int, int]]) -> int:
    """A seat's points scored in the rounds it played: its total but for the points it joined
    with, or where a comeback set its total anew, its hands' points."""
    if any(len(away) > 2 and away[2] is not None for away in seat.returns or ()):
        return sum(points for _, points in hands)
    return seat.total - (seat.joined_total if seat.joined_before is not None else 0)


def game_summaries(*conditions: ColumnElement[bool], name: str = "game_summary") -> CTE:
    """The games that meet ``conditions``, as a common table expression of their summary
    columns, read once before any join.

    MATERIALIZED keeps SQLite from folding it into the join: looked up one by one, each game
    row would be read in full (its frozen rules come first), while the summary is read whole
    from the ``ix_games_summary`` index in one pass.
    """
    return (
        select(
            Game.id,
            Game.status,
            Game.started,
            Game.round_count,
            Game.rules_slug,
            Game.rules_name,
        )
        .where(*conditions)
        .cte(name)
        .prefix_with("MATERIALIZED")
    )


def player_rows() -> list[PlayerRow]:
    """Every player, by name, with games played, finished, won and the last time they played."""
    games = game_summaries()
    per_player = (
        select(
            Seat.player_id,
            func.count().label("games"),
            func.count(case((games.c.status == FINISHED, 1))).label("finished"),
            func.count(case((Seat.is_winner, 1))).label("wins"),
            func.max(games.c.started).label("last_played"),
        )
        .select_from(games)
        .join(Seat, Seat.game_id == games.c.id)
        .group_by(Seat.player_id)
        .subquery()
    )
    stmt = (
        select(
            Player.id,
            Player.name,
            func.coalesce(per_player.c.games, 0),
            func.coalesce(per_player.c.finished, 0),
            func.coalesce(per_player.c.wins, 0),
            per_player.c.last_played,
        )
        .outerjoin(per_player, per_player.c.player_id == Player.id)
        .order_by(Player.name_key)
    )
    return [PlayerRow(*row) for row in db.session.execute(stmt)]


def profile(player: Player) -> Profile:
    """Everything the profile page shows, in five aggregate queries."""
    records: dict[str, RulesRecord] = {}
    statuses: dict[str, int] = {}
    seats = db.session.execute(
        select(Seat, Game.rules_slug, Game.status, Game.rules_name)
        .join(Game, Game.id == Seat.game_id)
        .where(Seat.player_id == player.id)
    ).all()
    hands = _hands_of([seat.id for seat, *_ in seats])
    for seat, slug, status, name in seats:
        statuses[status] = statuses.get(status, 0) + 1
        was = records.get(slug) or RulesRecord(slug, name, 0, 0, 0, 0, 0)
        finished = status == FINISHED
        records[slug] = RulesRecord(
            slug,
            max(was.name, name) if was.games else name,
            was.games + 1,
            was.finished + finished,
            was.wins + bool(seat.is_winner),
            was.points + (_scored(seat, hands[seat.id]) if finished else 0),
            was.rounds + (len(hands[seat.id]) if finished else 0),
        )
    by_rules = sorted(records.values(), key=lambda r: (-r.games, r.name))
    overall = RulesRecord(
        "",
        "All rules",
        sum(r.games for r in by_rules),
        sum(r.finished for r in by_rules),
        sum(r.wins for r in by_rules),
        sum(r.points for r in by_rules),
        sum(r.rounds for r in by_rules),
    )
    return Profile(
        player=player,
        overall=overall,
        by_rules=by_rules,
        in_progress=statuses.get(GameStatus.IN_PROGRESS, 0),
        abandoned=statuses.get(GameStatus.ABANDONED, 0),
        best=_extreme_game(player, best=True),
        worst=_extreme_game(player, best=False),
        head_to_head=_head_to_head(player),
        contracts=_contracts(player, phases=False),
        phases=_contracts(player, phases=True),
    )


def _extreme_game(player: Player, *, best: bool) -> GameResult | None:
    """The finished game with the player's lowest (best) or highest (worst) final total."""
    table_size = (
        select(func.count(Seat.id)).where(Seat.game_id == Game.id).correlate(Game).scalar_subquery()
    )
    order = Seat.total.asc() if best else Seat.total.desc()
    row = db.session.execute(
        select(
            Game.id,
            Game.started,
            Game.rules_name,
            Seat.total,
            Seat.place,
            Seat.is_winner,
            table_size,
        )
        .join(Game, Game.id == Seat.game_id)
        .where(
            Seat.player_id == player.id,
            Game.status == FINISHED,
            Game.round_count > 0,
            whole_seat(),
        )
        .order_by(order, Game.started.desc())
        .limit(1)
    ).first()
    return GameResult(*row) if row else None


def _head_to_head(player: Player) -> list[HeadToHead]:
    """For each other player: finished games where the two were dealt into a round together
    (read from their hands; two who sat through a whole game sat together even without a
    round), and who finished ahead."""
    mine = aliased(Seat)
    theirs = aliased(Seat)
    whole = whole_seat()
    rows = db.session.execute(
        select(
            mine.id,
            theirs.id,
            Player.id,
            Player.name,
            mine.place,
            theirs.place,
        )
        .select_from(mine)
        .join(Game, Game.id == mine.game_id)
        .join(theirs, (theirs.game_id == mine.game_id) & (theirs.player_id != mine.player_id))
        .join(Player, Player.id == theirs.player_id)
        .where(mine.player_id == player.id, Game.status == FINISHED)
    ).all()
    ids = {seat_id for row in rows for seat_id in row[:2]}
    hands = _hands_of(sorted(ids))
    wholes = set(db.session.scalars(select(Seat.id).where(Seat.id.in_(ids), whole)))
    counts: dict[tuple[int, str], list[int]] = {}
    for my_seat, their_seat, pid, name, my_place, their_place in rows:
        together = {n for n, _ in hands[my_seat]} & {n for n, _ in hands[their_seat]}
        if not together and not {my_seat, their_seat} <= wholes:
            continue
        count = counts.setdefault((pid, name), [0, 0, 0, 0])
        count[0] += 1
        if my_place is not None and their_place is not None:
            count[1] += my_place < their_place
            count[2] += my_place > their_place
            count[3] += my_place == their_place
    return [
        HeadToHead(pid, name, *count)
        for (pid, name), count in sorted(counts.items(), key=lambda item: (-item[1][0], item[0][1]))
    ]


def _contracts(player: Player, *, phases: bool) -> list[ContractRecord]:
    """Per contract, in kept-contract games: games that reached it, rounds on it, times made;
    the games on a Phase 10 deck (``phases``: their phases) or the others (their contracts)."""
    stmt = (
        select(Game.rules, Game.rules_slug, Hand.seat_id, Hand.contract, Hand.made_contract)
        .join(Seat, Seat.id == Hand.seat_id)
        .join(Game, Game.id == Seat.game_id)
        .join(Round, Round.id == Hand.round_id)
        # A tie-break hand is no round on a contract.
        .where(Seat.player_id == player.id, kept_contract(), Round.tie_break_hand.is_(False))
    )
    seats: dict[int, set[int]] = {}
    tries: dict[int, list[int]] = {}
    for rules, slug, seat_id, contract, made in db.session.execute(stmt):
        if _on_phase_10_deck(rules, slug) != phases:
            continue
        seats.setdefault(contract, set()).add(seat_id)
        counted = tries.setdefault(contract, [0, 0])
        counted[0] += 1
        counted[1] += bool(made)
    return [ContractRecord(number, len(seats[number]), *tries[number]) for number in sorted(tries)]


def _on_phase_10_deck(rules: object, slug: str) -> bool:
    try:
        return get_ruleset(rules if rules is not None else slug).deck is PHASE_10
    except (ValueError, TypeError, KeyError):
        return False


def _win_counts() -> list[tuple[int, int, int]]:
    """(player, wins, finished games) for everyone who finished a game."""
    games = game_summaries(Game.status == FINISHED)
    stmt = (
        select(Seat.player_id, func.count(case((Seat.is_winner, 1))), func.count())
        .select_from(games)
        .join(Seat, Seat.game_id == games.c.id)
        .group_by(Seat.player_id)
    )
    return [(pid, won, played) for pid, won, played in db.session.execute(stmt)]


def _totals(*, lowest: bool) -> list[GameMark]:
    games = game_summaries(Game.status == FINISHED, Game.round_count > 0)
    order = Seat.total.asc() if lowest else Seat.total.desc()
    stmt = (
        select(
            Seat.player_id,
            Seat.total,
            games.c.id,
            games.c.started,
            games.c.rules_name,
        )
        .select_from(games)
        .join(Seat, Seat.game_id == games.c.id)
        .where(whole_seat())
        .order_by(order, games.c.started)
        .limit(TOP)
    )
    return [
        GameMark(pid, "", total, gid, started, rules)
        for pid, total, gid, started, rules in db.session.execute(stmt)
    ]


def _streaks() -> list[Streak]:
    """Longest runs of finished games won in a row (the games each player played, by date).

    Counting a player's losses so far along their games gives every run of wins between two
    losses the same number: each (player, number) group of wins is one streak.
    """
    games = game_summaries(Game.status == FINISHED)
    losses_so_far = func.sum(case((Seat.is_winner, 0), else_=1)).over(
        partition_by=Seat.player_id,
        order_by=(games.c.started, games.c.id),
        rows=(None, 0),
    )
    results = (
        select(
            Seat.player_id,
            Seat.is_winner,
            games.c.started,
            losses_so_far.label("island"),
        )
        .select_from(games)
        .join(Seat, Seat.game_id == games.c.id)
        .subquery()
    )
    length = func.count().label("length")
    stmt = (
        select(
            results.c.player_id,
            length,
            func.min(results.c.started),
            func.max(results.c.started),
        )
        .where(results.c.is_winner)
        .group_by(results.c.player_id, results.c.island)
        .having(func.count() > 1)
        .order_by(length.desc(), func.max(results.c.started).desc())
        .limit(TOP)
    )
    return [Streak(pid, "", n, first, last) for pid, n, first, last in db.session.execute(stmt)]


def _rounds(*, fastest: bool) -> list[GameMark]:
    """Finished games by number of rounds, with their (first) winner: the fastest among
    12-Step games (and house rules built on it), the longest among all."""
    winner = (
        select(Seat.player_id)
        .where(Seat.game_id == Game.id, Seat.is_winner)
        .order_by(Seat.position)
        .limit(1)
        .correlate(Game)
        .scalar_subquery()
    )
    conditions = [Game.status == FINISHED, Game.round_count > 0]
    if fastest:
        house = select(HouseRules.slug).where(HouseRules.base == FASTEST_RULES)
        conditions.append(or_(Game.rules_slug == FASTEST_RULES, Game.rules_slug.in_(house)))
    order = Game.round_count.asc() if fastest else Game.round_count.desc()
    stmt = (
        select(winner, Game.round_count, Game.id, Game.started, Game.rules_name)
        .where(*conditions)
        .order_by(order, Game.started)
        .limit(TOP)
    )
    marks = []
    for pid, rounds, gid, started, rules in db.session.execute(stmt).all():
        # A tie-break hand is said apart from the game's rounds ("2 rounds and a tie-break
        # hand"); it still counts in the game's length, which orders the games.
        hands = len(
            db.session.scalars(
                select(Round.id).where(Round.game_id == gid, Round.tie_break_hand)
            ).all()
        )
        marks.append(GameMark(pid, "", rounds - hands, gid, started, rules, hands))
    return marks


def _compute() -> Records:
    counts = _win_counts()
    most_wins = sorted(
        (PlayerCount(pid, "", won, games) for pid, won, games in counts if won),
        key=lambda r: (-r.count, r.games, r.player_id),
    )[:TOP]
    best_rate = sorted(
        (
            PlayerCount(pid, "", won, games)
            for pid, won, games in counts
            if games >= MIN_GAMES_FOR_RATE
        ),
        key=lambda r: (-(r.win_rate or 0), -r.games, r.player_id),
    )[:TOP]
    most_games = sorted(
        (PlayerCount(pid, "", games, games) for pid, _won, games in counts),
        key=lambda r: (-r.count, r.player_id),
    )[:TOP]
    return Records(
        most_wins=most_wins,
        best_rate=best_rate,
        most_games=most_games,
        lowest_totals=_totals(lowest=True),
        highest_totals=_totals(lowest=False),
        streaks=_streaks(),
        fastest=_rounds(fastest=True),
        longest=_rounds(fastest=False),
    )


def records() -> Records:
    names = {pid: name for pid, name in db.session.execute(select(Player.id, Player.name))}
    return _compute().named(names)
