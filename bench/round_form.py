"""Benchmark of the round form's answers, in-process (run by hand, not by the suite).

    .venv/bin/python -m bench.round_form [--repeats 60] [--players 6]

Makes a fresh SQLite database holding a household, its owner and games of 12-Step for
``--players`` players, signs the owner in with Flask's test client (no server: what is timed
is the app's own work for each answer, from the request to the page) and times, ``--repeats``
times each, the answers of the round form a family meets:

- ``pad key``: a key of the card pad (htmx: one hand's block);
- ``save``: a new round stored (then undone, so the next one is a new round again);
- ``refused``: a save the rules refuse (422, the form again with the reasons);
- ``resent``: the same save sent again after it was stored (answered as stored);
- ``clash``: a new round's form saved after another phone stored that round differently
  (409, the correction with both sides to choose);
- ``correction``: round 1 corrected (stored);
- ``merged``: a correction saved after another phone corrected another hand of the round
  (stored, merged).

It prints each answer's median and 90th percentile in milliseconds, and how many times the
game was replayed (``tally_game``) per answer. The machine is shared and noisy: compare
medians, run before and after a change on the same machine.
"""

from __future__ import annotations

import argparse
import html
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.in_process import NAMES, signed_in_owner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=60)
    parser.add_argument("--players", type=int, default=6, choices=range(3, 7))
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        figures = run(Path(folder), options.repeats, NAMES[: options.players])
    print(f"{'answer':<12} {'median ms':>10} {'p90 ms':>8} {'replays':>8}")
    for name, (median, p90, replays) in figures.items():
        print(f"{name:<12} {median:>10.2f} {p90:>8.2f} {replays:>8.1f}")


def run(
    folder: Path, repeats: int, names: tuple[str, ...]
) -> dict[str, tuple[float, float, float]]:
    _, client = signed_in_owner(folder)
    from scorekeeper.games import tally

    replays = [0]
    original: Callable[..., Any] = tally.tally_game

    def counting(*args: Any, **kwargs: Any) -> Any:
        replays[0] += 1
        return original(*args, **kwargs)

    for name, module in list(sys.modules.items()):
        if name.startswith("scorekeeper") and getattr(module, "tally_game", None) is original:
            module.tally_game = counting  # type: ignore[attr-defined]

    def start() -> int:
        form = {"rules": "twelve-step", "first_dealer": "0", "start": "Start the game"}
        form.update({f"players-{seat}": name for seat, name in enumerate(names)})
        answer = client.post("/games/new", data=form)
        assert answer.status_code in (302, 303), answer.status_code
        return int(answer.headers["Location"].rstrip("/").split("/")[-1])

    def fields(went_out: int, cards: dict[int, str], **extra: str) -> dict[str, str]:
        form = {"went_out": str(went_out), **extra}
        for seat in range(len(names)):
            form[f"hands-{seat}-cards"] = cards.get(seat, "")
        return form

    hands = {seat: "K Q 5" for seat in range(1, len(names))}
    other = {seat: "9 9" for seat in range(1, len(names))}

    def opened(game: int, path: str = "rounds/new") -> dict[str, str]:
        page = client.get(f"/games/{game}/{path}").get_data(as_text=True)
        found = {}
        for field in ("number", "token", "rounds_version", "version", "base"):
            marker = f'name="{field}" value="'
            at = page.find(marker)
            if at >= 0:
                begins = at + len(marker)
                found[field] = html.unescape(page[begins : page.index('"', begins)])
        return found

    timings: dict[str, list[float]] = {}
    counted: dict[str, list[int]] = {}

    def timed(name: str, path: str, data: dict[str, str], expect: int, **options: Any) -> None:
        replays[0] = 0
        began = time.perf_counter()
        answer = client.post(f"/games/{game}/{path}", data=data, **options)
        timings.setdefault(name, []).append((time.perf_counter() - began) * 1000)
        counted.setdefault(name, []).append(replays[0])
        assert answer.status_code == expect, (name, answer.status_code)

    game = start()
    client.get(f"/games/{game}")
    htmx = {"HX-Request": "true"}
    for _ in range(repeats):
        hidden = opened(game)
        typing = {**fields(0, hands), **hidden}
        timed("pad key", "rounds/new", {**typing, "add-1": "K"}, 200, headers=htmx)
        timed("refused", "rounds/new", {**fields(0, {1: "K Q X"}), **hidden, "save": "1"}, 422)
        timed("save", "rounds/new", {**typing, "save": "1"}, 302)
        timed("resent", "rounds/new", {**typing, "save": "1"}, 302)
        clashing = {**fields(0, other), **hidden, "token": "x" * 22, "save": "1"}
        timed("clash", "rounds/new", clashing, 409)
        edit = f"rounds/{hidden['number']}/edit"
        timed("correction", edit, {**fields(0, other), **opened(game, edit), "save": "1"}, 302)
        # Another phone corrects the first hand; this one the last hand, on the older form.
        older = opened(game, edit)
        theirs = {**fields(0, {**other, 1: "JK"}), **opened(game, edit), "save": "1"}
        assert client.post(f"/games/{game}/{edit}", data=theirs).status_code == 302
        mine = {**fields(0, {**other, len(names) - 1: "A"}), **older, "save": "1"}
        timed("merged", edit, mine, 302)
        deleted = client.post(f"/games/{game}/rounds/{hidden['number']}/delete")
        assert deleted.status_code == 302, deleted.status_code
    return {
        name: (
            statistics.median(values),
            statistics.quantiles(values, n=10)[-1],
            statistics.mean(counted[name]),
        )
        for name, values in timings.items()
    }


if __name__ == "__main__":
    main()
