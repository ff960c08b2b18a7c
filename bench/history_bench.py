"""Benchmark of the history pages with a long history (run by hand, not by the test suite).

    .venv/bin/python bench/history_bench.py [--games 10000] [--db /tmp/history-bench.db] [--reuse]

Generates ``--games`` valid games (random but reproducible rounds, replayed through the games
feature's tally so every total, place and winner is what the app itself would store) straight
into a SQLite file with bulk inserts, then times each history, player and records page with
the Flask test client and prints the median and the worst of several runs, and the number of
SQL queries each page ran.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import event, func, insert, select

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.games.tally import HandEntry, RoundEntry, tally_game
from scorekeeper.models import Game, Hand, Player, Round, Seat
from scorekeeper.names import name_key
from scorekeeper.rules import RuleSet, get_ruleset

FAMILY = [
    "Ann",
    "Ben",
    "Cy",
    "Dee",
    "Eli",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Joe",
    "Kim",
    "Lou",
    "Max",
    "Nan",
    "Oli",
    "Pam",
    "Quin",
    "Rex",
    "Sue",
    "Tom",
]
RULES = (
    ("twelve-step", 40),
    ("contract-rummy", 25),
    ("bellevue", 15),
    ("dummy-rummy", 10),
    ("russian-rummy", 10),
)
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
COPIES = 8  # two decks: every preset has at least two
RUNS = 15
CHUNK = 5000


def leftover(rng: random.Random, used: dict[str, int]) -> str:
    cards = []
    for _ in range(rng.randint(1, 7)):
        rank = rng.choice(RANKS)
        if used.get(rank, 0) < COPIES:
            used[rank] = used.get(rank, 0) + 1
            cards.append(rank)
    return " ".join(cards) or "K"


def play_rounds(rules: RuleSet, players: int, rng: random.Random) -> list[RoundEntry]:
    """Rounds until the game ends (or, for a few games, stops early)."""
    last = len(rules.contracts)
    contract = [1] * players
    entries: list[RoundEntry] = []
    for number in range(1, 60):
        went_out = rng.randrange(players)
        used: dict[str, int] = {}
        hands = []
        for seat in range(players):
            playing = contract[seat] if rules.contract_order == "own" else number
            if seat == went_out:
                made = True
                hands.append(HandEntry("", True))
            else:
                made = not rules.contract(playing).going_out_only and rng.random() < (
                    0.55 if rules.contract_order == "own" else 0.5
                )
                hands.append(HandEntry(leftover(rng, used), made))
            if made and rules.contract_order == "own":
                contract[seat] += 1
        entries.append(RoundEntry(went_out, tuple(hands)))
        if rules.contract_order == "own" and max(contract) > last:
            break
        if rules.contract_order == "round" and number == last:
            break
    return entries


def generate(games: int, seed: int = 6) -> Iterator[dict[str, list[dict[str, Any]]]]:
    """Rows for every table, a chunk at a time."""
    rng = random.Random(seed)
    rulesets = {slug: get_ruleset(slug) for slug, _ in RULES}
    frozen = {slug: rules.to_dict() for slug, rules in rulesets.items()}
    slugs = [slug for slug, _ in RULES]
    weights = [weight for _, weight in RULES]
    start = datetime(2012, 1, 1, 19, tzinfo=UTC)
    seat_id = round_id = hand_id = 0
    rows: dict[str, list[dict[str, Any]]] = {"games": [], "seats": [], "rounds": [], "hands": []}
    for game_id in range(1, games + 1):
        slug = rng.choices(slugs, weights)[0]
        rules = rulesets[slug]
        count = rng.choice(
            (2, 3, 3, 4, 4, 4, 5, 5, 6) if slug != "contract-rummy" else (2, 3, 4, 5)
        )
        players = rng.sample(range(1, len(FAMILY) + 1), count)
        entries = play_rounds(rules, count, rng)
        fate = rng.random()
        abandoned = fate < 0.03
        if fate > 0.98:
            entries = entries[: rng.randrange(len(entries))]  # still being played
        elif abandoned:
            entries = entries[: rng.randrange(1, len(entries))]
        names = [FAMILY[p - 1] for p in players]
        tally = tally_game(rules, names, 0, entries, abandoned=abandoned)
        if tally.problems:
            raise SystemExit(f"generated game {game_id} was refused: {tally.problems[0]}")
        started = start + timedelta(days=game_id * 0.4, minutes=rng.randrange(300))
        over = tally.status != "in_progress"
        rows["games"].append(
            {
                "id": game_id,
                "rules": frozen[slug],
                "rules_slug": slug,
                "rules_name": rules.name,
                "status": tally.status,
                "started": started,
                "ended": started + timedelta(minutes=8 * len(entries)) if over else None,
                "first_dealer": 0,
                "round_count": len(tally.rounds),
                "tie_break": tally.tie_break,
                "version": 1,
                "created_at": started,
                "updated_at": started,
            }
        )
        seat_ids = []
        for standing in sorted(tally.standings, key=lambda s: s.seat):
            seat_id += 1
            seat_ids.append(seat_id)
            rows["seats"].append(
                {
                    "id": seat_id,
                    "game_id": game_id,
                    "player_id": players[standing.seat],
                    "position": standing.seat,
                    "total": standing.total,
                    "contract": standing.contract,
                    "contracts_made": standing.contracts_made,
                    "place": standing.place,
                    "is_winner": standing.is_winner,
                    "may_i_used": 0,
                }
            )
        for result in tally.rounds:
            round_id += 1
            rows["rounds"].append(
                {
                    "id": round_id,
                    "game_id": game_id,
                    "number": result.number,
                    "went_out_id": None if result.went_out is None else seat_ids[result.went_out],
                    "version": 1,
                    "submission": None,
                    "created_at": started,
                    "updated_at": started,
                }
            )
            for seat, hand in enumerate(result.hands):
                hand_id += 1
                rows["hands"].append(
                    {
                        "id": hand_id,
                        "round_id": round_id,
                        "seat_id": seat_ids[seat],
                        "contract": hand.contract,
                        "made_contract": hand.made_contract,
                        "cards": hand.cards,
                        "points": hand.points,
                    }
                )
        if game_id % CHUNK == 0 or game_id == games:
            yield rows
            rows = {"games": [], "seats": [], "rounds": [], "hands": []}


def fill(games: int) -> None:
    tables = {"games": Game, "seats": Seat, "rounds": Round, "hands": Hand}
    db.session.execute(
        insert(Player.__table__),
        [
            {"id": i, "name": name, "name_key": name_key(name), "created_at": datetime.now(UTC)}
            for i, name in enumerate(FAMILY, start=1)
        ],
    )
    for rows in generate(games):
        for table, model in tables.items():
            db.session.execute(insert(model.__table__), rows[table])
        db.session.commit()
        print(f"  {rows['games'][-1]['id']} games stored", file=sys.stderr)


def measure(
    client: Any, url: str, engine: Any, before: Callable[[], None] = lambda: None
) -> tuple[float, float, int]:
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append("")

    assert client.get(url).status_code == 200, url  # warm the caches
    times = []
    for _ in range(RUNS):
        before()
        statements.clear()
        event.listen(engine, "before_cursor_execute", count)
        began = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - began) * 1000)
        event.remove(engine, "before_cursor_execute", count)
        assert response.status_code == 200, url
    return statistics.median(times), max(times), len(statements)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--db", type=Path, default=Path("/tmp/history-bench.db"))
    parser.add_argument("--reuse", action="store_true", help="keep an existing file")
    args = parser.parse_args()
    if not args.reuse:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{args.db}{suffix}").unlink(missing_ok=True)
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{args.db}", "SECRET_KEY": "bench"})
    with app.app_context():
        if not db.session.scalar(select(func.count(Game.id))):
            began = time.perf_counter()
            fill(args.games)
            print(f"generated {args.games} games in {time.perf_counter() - began:.1f} s")
        counts = {
            model.__tablename__: db.session.scalar(select(func.count()).select_from(model))
            for model in (Game, Seat, Round, Hand)
        }
        busiest = db.session.scalar(
            select(Seat.player_id).group_by(Seat.player_id).order_by(func.count().desc()).limit(1)
        )
        engine = db.engine
    print("rows:", ", ".join(f"{table} {n}" for table, n in counts.items()))
    client = app.test_client()
    urls = [
        "/history",
        "/history?page=200",
        f"/history?player={busiest}",
        "/history?rules=twelve-step&status=finished&page=50",
        "/history?since=2015-01-01&until=2015-12-31",
        "/players",
        f"/players/{busiest}",
        "/records",
    ]
    print(f"{'page':<52} {'median ms':>9} {'worst ms':>9} {'queries':>8}")
    for url in urls:
        median, worst, queries = measure(client, url, engine)
        print(f"{url:<52} {median:9.1f} {worst:9.1f} {queries:8d}")
    # The records are kept until a game changes: time them recomputed as well.
    median, worst, queries = measure(
        client, "/records", engine, lambda: app.extensions["history_records"].clear()
    )
    print(f"{'/records (recomputed after a change)':<52} {median:9.1f} {worst:9.1f} {queries:8d}")


if __name__ == "__main__":
    main()
