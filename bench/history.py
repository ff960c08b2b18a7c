"""Benchmark of the history pages with a long history, served as the app ships (run by hand).

    .venv/bin/python -m bench.history                       # both scenarios
    .venv/bin/python -m bench.history --scenario one         # 10,000 games in one household
    .venv/bin/python -m bench.history --scenario many        # 100,000 games over 1,000
    .venv/bin/python -m bench.history --folder /tmp/hb --reuse   # keep the generated files
    .venv/bin/python -m bench.history --scenario correction      # a save correcting game 1
    .venv/bin/python -m bench.history --scenario correction --database-uri postgresql+psycopg://…

Generates valid games (random but reproducible rounds, replayed through the games feature's
tally so every total, place and winner is what the app itself would store; a pool of tallied
games is dealt out to the households with their own players and dates) straight into a SQLite
file with Core bulk inserts, fills the kept statistics (``history.stats.rebuild``), signs an
owner in, serves the app with ``flask serve`` (waitress) and asks each history, players and
records page, the year in review and the rounds CSV one request at a time, printing the first
answer's time, p50 and p95 against the goal.

``correction``: corrections to the household's first finished game that change its places,
through the round's edit form: one, two in a row, thirty alternating, each save timed, with the
server's CPU and how long after them the ratings are up to date again (``bench/corrections.py``);
on SQLite, or on the PostgreSQL database ``--database-uri`` names (emptied first).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import func, insert, select, text

from bench.serving import served
from scorekeeper.games.tally import HandEntry, RoundEntry, Tally, tally_game
from scorekeeper.models import Game, Hand, Household, Player, Round, Seat
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
GOAL_MS = 50.0
# Distinct tallied games, dealt out again with other players and dates.
POOL = 3000
CHUNK = 5000
PASSWORD = "bench password"


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


@dataclass(frozen=True)
class Dealt:
    slug: str
    tally: Tally
    players: int


def pool(size: int, seed: int = 6) -> list[Dealt]:
    rng = random.Random(seed)
    rulesets = {slug: get_ruleset(slug) for slug, _ in RULES}
    slugs = [slug for slug, _ in RULES]
    weights = [weight for _, weight in RULES]
    dealt = []
    for _ in range(size):
        slug = rng.choices(slugs, weights)[0]
        rules = rulesets[slug]
        count = rng.choice(
            (2, 3, 3, 4, 4, 4, 5, 5, 6) if slug != "contract-rummy" else (2, 3, 4, 5)
        )
        entries = play_rounds(rules, count, rng)
        fate = rng.random()
        abandoned = fate < 0.03
        if fate > 0.98:
            entries = entries[: rng.randrange(len(entries))]  # still being played
        elif abandoned:
            entries = entries[: rng.randrange(1, len(entries))]
        names = FAMILY[:count]
        tally = tally_game(rules, names, 0, entries, abandoned=abandoned)
        if tally.problems:
            raise SystemExit(f"a generated game was refused: {tally.problems[0]}")
        dealt.append(Dealt(slug, tally, count))
    return dealt


def generate(households: int, games_each: int, dealt: list[Dealt], seed: int = 7) -> Any:
    """Rows for every table, a chunk of games at a time; household h has players
    (h - 1) * 20 + 1 ... h * 20."""
    rng = random.Random(seed)
    frozen = {slug: get_ruleset(slug).to_dict() for slug, _ in RULES}
    names = {slug: get_ruleset(slug).name for slug, _ in RULES}
    start = datetime(2012, 1, 1, 19, tzinfo=UTC)
    game_id = seat_id = round_id = hand_id = 0
    rows: dict[str, list[dict[str, Any]]] = {"games": [], "seats": [], "rounds": [], "hands": []}
    for number in range(games_each):
        for household in range(1, households + 1):
            game_id += 1
            game = dealt[game_id % len(dealt)]
            tally = game.tally
            first = (household - 1) * len(FAMILY)
            players = [first + p for p in rng.sample(range(1, len(FAMILY) + 1), game.players)]
            started = start + timedelta(days=number * 0.4, minutes=rng.randrange(300))
            over = tally.status != "in_progress"
            rows["games"].append(
                {
                    "id": game_id,
                    "household_id": household,
                    "uid": f"bench-{game_id}",
                    "rules": frozen[game.slug],
                    "rules_slug": game.slug,
                    "rules_name": names[game.slug],
                    "status": tally.status,
                    "started": started,
                    "ended": started + timedelta(minutes=8 * len(tally.rounds)) if over else None,
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
                        "household_id": household,
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
                out = result.went_out
                rows["rounds"].append(
                    {
                        "id": round_id,
                        "household_id": household,
                        "game_id": game_id,
                        "number": result.number,
                        "went_out_id": None if out is None else seat_ids[out],
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
                            "household_id": household,
                            "round_id": round_id,
                            "seat_id": seat_ids[seat],
                            "contract": hand.contract,
                            "made_contract": hand.made_contract,
                            "cards": hand.cards,
                            "points": hand.points,
                            "typed_total": False,
                        }
                    )
            if game_id % CHUNK == 0:
                yield rows
                rows = {"games": [], "seats": [], "rounds": [], "hands": []}
    if rows["games"]:
        yield rows


def fill(households: int, games_each: int) -> None:
    from scorekeeper.extensions import db
    from scorekeeper.history import ratings, stats

    now = datetime.now(UTC)
    db.session.execute(
        insert(Household.__table__),
        [
            {"id": h, "name": f"Family {h}", "name_key": name_key(f"Family {h}"), "created_at": now}
            for h in range(1, households + 1)
        ],
    )
    db.session.execute(
        insert(Player.__table__),
        [
            {
                "id": (h - 1) * len(FAMILY) + i,
                "household_id": h,
                "name": name,
                "name_key": name_key(name),
                "created_at": now,
            }
            for h in range(1, households + 1)
            for i, name in enumerate(FAMILY, start=1)
        ],
    )
    tables = {"games": Game, "seats": Seat, "rounds": Round, "hands": Hand}
    dealt = pool(min(POOL, households * games_each))
    for rows in generate(households, games_each, dealt):
        for table, model in tables.items():
            db.session.execute(insert(model.__table__), rows[table])
        db.session.commit()
        print(f"  {rows['games'][-1]['id']} games stored", file=sys.stderr)
    began = time.perf_counter()
    for household in range(1, households + 1):
        stats.rebuild(household)
    db.session.commit()
    print(f"  kept statistics rebuilt in {time.perf_counter() - began:.1f} s", file=sys.stderr)
    began = time.perf_counter()
    for household in range(1, households + 1):
        ratings.rebuild(household)
    db.session.commit()
    print(f"  ratings replayed in {time.perf_counter() - began:.1f} s", file=sys.stderr)


def prepare(database: Path | str, households: int, games_each: int, reuse: bool) -> tuple[str, int]:
    """The database (made unless reused; a SQLite file, or a URI) and a signed-in owner of
    household 1: its cookie and the id of its busiest player."""
    from scorekeeper import create_app
    from scorekeeper.accounts import services as accounts
    from scorekeeper.extensions import db

    uri = database if isinstance(database, str) else f"sqlite:///{database}"
    if not reuse and isinstance(database, Path):
        for suffix in ("", "-wal", "-shm"):
            Path(f"{database}{suffix}").unlink(missing_ok=True)
    elif not reuse and not uri.startswith("sqlite"):
        empty(uri)
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": uri,
            "SECRET_KEY": "bench",
            # The daily backup of a new history would hold SQLite's lock while it is filled.
            "DAILY_BACKUPS": False,
            "WTF_CSRF_ENABLED": False,
        }
    )
    with app.app_context():
        if not db.session.scalar(select(func.count(Game.id))):
            began = time.perf_counter()
            fill(households, games_each)
            print(
                f"generated {households * games_each} games in {time.perf_counter() - began:.0f} s",
                file=sys.stderr,
            )
            home = db.session.get(Household, 1)
            assert home is not None
            accounts.add_user("owner", PASSWORD, home, "owner")
        counts = {
            model.__tablename__: db.session.scalar(select(func.count()).select_from(model))
            for model in (Household, Game, Seat, Round, Hand)
        }
        busiest = db.session.scalar(
            select(Seat.player_id)
            .where(Seat.household_id == 1)
            .group_by(Seat.player_id)
            .order_by(func.count().desc())
            .limit(1)
        )
        mine = db.session.scalar(select(func.count(Game.id)).where(Game.household_id == 1))
        db.session.remove()
        db.engine.dispose()
    print(
        "rows:",
        ", ".join(f"{table} {n}" for table, n in counts.items()),
        f"(household 1: {mine} games)",
    )
    client = app.test_client()
    signed = client.post("/login", data={"username": "owner", "password": PASSWORD})
    assert signed.status_code == 303, signed.status_code
    assert client.get("/history").status_code == 200
    cookie = client.get_cookie("session")
    assert cookie is not None
    return f"session={cookie.value}", int(busiest or 1)


def empty(uri: str) -> None:
    """Every table of the PostgreSQL database ``uri`` emptied (made where missing)."""
    from sqlalchemy import create_engine

    from scorekeeper import create_app
    from scorekeeper.extensions import db

    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": "bench", "DAILY_BACKUPS": False}
    )
    with app.app_context():
        tables = ", ".join(table.name for table in db.metadata.sorted_tables)
        db.session.remove()
        db.engine.dispose()
    engine = create_engine(uri)
    with engine.begin() as connection:
        connection.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    engine.dispose()


def percentile(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def ask(url: str, cookie: str) -> float:
    request = urllib.request.Request(url, headers={"Cookie": cookie, "Accept-Encoding": "gzip"})
    began = time.perf_counter()
    with urllib.request.urlopen(request) as answer:
        assert answer.status == 200, (url, answer.status)
        answer.read()
    return (time.perf_counter() - began) * 1000


def scenario(
    name: str, folder: Path, households: int, games_each: int, runs: int, reuse: bool
) -> None:
    database = folder / f"history-{name}.db"
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = str(folder)
    cookie, busiest = prepare(database, households, games_each, reuse)
    environment = {
        "SCOREKEEPER_INSTANCE_PATH": str(folder),
        "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
        "SCOREKEEPER_SECRET_KEY": "bench",
    }
    pages = [
        "/history",
        "/history?page=200",
        f"/history?player={busiest}",
        "/history?rules=twelve-step&status=finished&page=50",
        "/history?status=abandoned",
        "/review/2015",
        "/review/2015/card.png",
        "/history?since=2015-01-01&until=2015-12-31",
        "/players",
        f"/players/{busiest}",
        "/records",
        "/seasons",
        "/seasons?year=2015",
        "/seasons?since=2014-03-01&until=2016-02-29",
        "/history/rounds.csv",
    ]
    rows = []
    with served(environment=environment, ready_path="/healthz") as server:
        for page in pages:
            url = server.base + page
            csv = page.endswith(".csv")
            # The first answer after the server started: what a page kept by data version
            # (the year in review) costs once after each change to the household's games.
            first = ask(url, cookie)
            for _ in range(0 if csv else 2):
                ask(url, cookie)  # warm up
            times = [ask(url, cookie) for _ in range(2 if csv else runs)]
            p50, p95 = statistics.median(times), percentile(times, 0.95)
            rows.append((page, first, p50, p95, len(times)))
    games = households * games_each
    print(
        f"\n{name}: {games:,} games in {households:,} household(s), household 1 asked; "
        f"one request at a time to flask serve (waitress) on loopback\n"
    )
    print("| page | first ms | p50 ms | p95 ms | goal p95 | met | runs |")
    print("| --- | ---: | ---: | ---: | ---: | --- | ---: |")
    for page, first, p50, p95, count in rows:
        met = "yes" if p95 < GOAL_MS else "**no**"
        print(
            f"| `{page}` | {first:.0f} | {p50:.1f} | {p95:.1f} | < {GOAL_MS:.0f} | {met} "
            f"| {count} |"
        )
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=("one", "many", "both", "correction"), default="both")
    parser.add_argument(
        "--database-uri", help="correction: this PostgreSQL database (emptied) instead of SQLite"
    )
    parser.add_argument("--folder", type=Path, default=Path("/tmp/scorekeeper-history-bench"))
    parser.add_argument("--reuse", action="store_true", help="keep the generated databases")
    parser.add_argument("--runs", type=int, default=40, help="requests a page")
    parser.add_argument("--games", type=int, default=10_000, help="games in the one household")
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    if args.scenario == "correction":
        from bench.corrections import correction

        correction(args.folder, args.games, args.database_uri, args.reuse)
        return
    if args.scenario in ("one", "both"):
        scenario("one", args.folder, 1, args.games, args.runs, args.reuse)
    if args.scenario in ("many", "both"):
        scenario("many", args.folder, 1000, 100, args.runs, args.reuse)


if __name__ == "__main__":
    main()
