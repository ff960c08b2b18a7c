"""The scoreboard benchmark: a signed-in viewer's 30-round board against a bare Flask endpoint.

    .venv/bin/python -m bench.scoreboard [--seconds 3] [--rounds 3] [--connections 20]

It makes a fresh SQLite database holding one household, a viewer's account and a 4-player
12-Step game 30 rounds in, signs the viewer in, serves the app and bench/bare_app.py with the
same server settings (bench/serving.py), and drives each with wrk (Debian package ``wrk``)
over loopback the way a phone asks (``Accept-Encoding: gzip``, its session cookie): the full
page, the poll of an unchanged board, and a conditional GET of the page (``If-None-Match``
with the ETag the page carried), each by a phone in English and by one in Spanish
(``Accept-Language``: the page's words are looked up in the Spanish catalogue, its numbers and
dates formatted by Babel; issue 41). Each figure is measured right after the bare endpoint, over
several rounds, and the medians are printed beside the goals of issue 15. The machine is
shared and noisy: compare ratios and medians, not single figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import NamedTuple

from .serving import ROOT, Load, served, wrk
from .web_bench import BARE_COMMAND, GZIP, thirty_round_game

PASSWORD = "bench password"


class Viewer(NamedTuple):
    game_id: int
    version: int
    cookie: str


def prepare(database: Path, secret: str) -> Viewer:
    """The household, the viewer and the game; the viewer's session cookie."""
    from scorekeeper import create_app, scope
    from scorekeeper.accounts import services as accounts
    from scorekeeper.extensions import db
    from scorekeeper.games.transfer import import_game

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "SECRET_KEY": secret,
            "WTF_CSRF_ENABLED": False,
        }
    )
    with app.app_context():
        home = accounts.add_household("Family")
        accounts.add_user("owner", PASSWORD, home, "owner")
        accounts.add_user("viewer", PASSWORD, home, "viewer")
        with scope.household(home.id):
            game = import_game(thirty_round_game())
            game_id, version = game.id, game.version
        db.session.remove()
    client = app.test_client()
    signed = client.post("/login", data={"username": "viewer", "password": PASSWORD})
    assert signed.status_code == 303, signed.status_code
    # A phone at the table has been here before: its session holds its CSRF secret (made by
    # the first page it saw), which the page's ETag names.
    assert client.get(f"/games/{game_id}").status_code == 200
    cookie = client.get_cookie("session")
    assert cookie is not None
    with app.app_context():
        db.engine.dispose()
    return Viewer(game_id, version, f"session={cookie.value}")


def etag_of(url: str, headers: dict[str, str]) -> str:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as answer:
        etag = answer.headers["ETag"]
    assert etag, "the page carries no ETag"
    return str(etag)


GOALS = {
    "scoreboard, 30 rounds, signed-in viewer": (0.5, 20.0),
    "poll, unchanged": (0.8, None),
    "conditional GET of the page (304)": (None, None),
}
# What a phone in each language sends (Chromium's header for a phone set to that language).
LANGUAGES = {"en": "en-GB,en;q=0.9", "es": "es-CL,es;q=0.9"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3, help="measurements a page (medians)")
    arguments = parser.parse_args()
    (ROOT / "bench" / "results").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as folder:
        database = Path(folder) / "scorekeeper.db"
        os.environ["SCOREKEEPER_INSTANCE_PATH"] = folder
        viewer = prepare(database, "bench")
        environment = {
            "SCOREKEEPER_INSTANCE_PATH": folder,
            "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "SCOREKEEPER_SECRET_KEY": "bench",
        }
        rounds: dict[str, list[tuple[Load, Load]]] = {}
        statuses: dict[str, int] = {}
        with (
            served(BARE_COMMAND) as bare_server,
            served(environment=environment, ready_path="/healthz") as app_server,
        ):
            bare, base = bare_server.base, app_server.base
            page = f"{base}/games/{viewer.game_id}"
            asks: dict[str, tuple[str, dict[str, str]]] = {}
            for language, header in LANGUAGES.items():
                phone = {**GZIP, "Cookie": viewer.cookie, "Accept-Language": header}
                asks[f"scoreboard, 30 rounds, signed-in viewer ({language})"] = (page, phone)
                asks[f"poll, unchanged ({language})"] = (
                    f"{page}/board?v={viewer.version}",
                    {**phone, "HX-Request": "true"},
                )
                asks[f"conditional GET of the page (304) ({language})"] = (
                    page,
                    {**phone, "If-None-Match": etag_of(page, phone)},
                )
            for name, (url, headers) in asks.items():
                request = urllib.request.Request(url, headers=headers)
                try:
                    with urllib.request.urlopen(request) as answer:
                        statuses[name] = answer.status
                except urllib.error.HTTPError as answer:
                    statuses[name] = answer.code
            # Warm every worker (imports, the drawn board) before measuring anything.
            wrk(bare + "/", headers=GZIP, seconds=1)
            for url, headers in asks.values():
                wrk(url, headers=headers, seconds=1)
            settings = {"seconds": arguments.seconds, "connections": arguments.connections}
            for _ in range(arguments.rounds):
                for name, (url, headers) in asks.items():
                    yardstick = wrk(bare + "/", headers=GZIP, **settings)
                    measured = wrk(url, headers=headers, **settings)
                    rounds.setdefault(name, []).append((yardstick, measured))
    median = statistics.median
    print(f"\n{arguments.connections} connections, {arguments.seconds} s a measurement, ", end="")
    print(f"medians of {arguments.rounds} rounds, each right after the bare endpoint, ", end="")
    print("both served by waitress (flask serve's settings) on loopback\n")
    print("| ask | status | bare req/s | req/s | ratio to bare | goal | p50 ms | p99 ms | goal |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, pairs in rounds.items():
        ratio = median(m.requests_per_second / b.requests_per_second for b, m in pairs)
        ratio_goal, p99_goal = GOALS[name.rsplit(" (", 1)[0]]
        errors = sum(m.errors for _, m in pairs)
        cells = [
            name,
            str(statuses.get(name, "")) + (f" ({errors} errors)" if errors else ""),
            f"{median(b.requests_per_second for b, _ in pairs):.0f}",
            f"{median(m.requests_per_second for _, m in pairs):.0f}",
            f"{ratio:.2f}",
            f">= {ratio_goal}" if ratio_goal else "",
            f"{median(m.p50_ms for _, m in pairs):.1f}",
            f"{median(m.p99_ms for _, m in pairs):.1f}",
            f"< {p99_goal:.0f}" if p99_goal else "",
        ]
        print("| " + " | ".join(cells) + " |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
