"""Phones at 100 tables, for locust: run by ``bench/tables.py``, which prepares the database,
serves the app and reads the figures (see there).

Every table is four phones. The first is a member signed in with the household's scorer
account: it keeps the scoreboard open and saves a round a minute (opens the round form,
fills it in, saves). The other three came in by the game's table link and only watch the
scoreboard. Every phone polls its game's board every ``SCOREKEEPER_POLL_SECONDS`` (1 s, the
app's ``SCOREBOARD_POLL_SECONDS``) as htmx does (``/games/<id>/board?v=<version>``,
``HX-Request``): 204 while nothing changed, else the new board, whose version it keeps.
Anything but the answers a phone expects counts as a failure. A round's reach is the time from
the scorer's tap of Save to each of the other three phones holding the new board.

The run's plan is a JSON file named by ``SCOREKEEPER_TABLES``: the account, and per table the
game's id and its table link's token. At the end, ``SCOREKEEPER_SAVED`` gets the tokens of the
rounds answered as saved (for the audit of the database), the count of requests and failures
over the whole run, sitting down included, and every response time (ms, by request name) of
the play that followed once the last phone had sat down (signed in or opened its link, and
loaded the board), which the runner's percentiles are made of, and each round's reach.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import threading
import time
from pathlib import Path
from typing import Any

from locust import constant, events, task
from locust.contrib.fasthttp import FastHttpUser

PLAN: dict[str, Any] = (
    json.loads(Path(os.environ["SCOREKEEPER_TABLES"]).read_text())
    if os.environ.get("SCOREKEEPER_TABLES")
    else {"tables": [], "account": ["", ""]}
)
POLL_SECONDS = float(os.environ.get("SCOREKEEPER_POLL_SECONDS") or 1.0)
SAVE_SECONDS = 60.0
PHONES_A_TABLE = 4
CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')
VERSION = re.compile(r"/games/\d+/board\?v=(\d+)")
HIDDEN = re.compile(r"<input\b[^>]*>")
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')
LEFTOVERS = ("K 5 9", "JK A", "Q Q 3", "10 8 7 6", "A", "2 K", "9 9 9 4")

_seats = itertools.count()
_saved: list[str] = []
_saved_lock = threading.Lock()
_asked = {"requests": 0, "failures": 0}
_seated = {"phones": 0, "since": 0.0}
_steady: dict[str, list[float]] = {}
# A game's last save stored, by the time of its tap of Save; each watching phone's reach.
_tapped: dict[int, float] = {}
_reach: list[tuple[int, float, float]] = []
PHONES = len(PLAN["tables"]) * PHONES_A_TABLE
ALERT = re.compile(r'role="alert"[^>]*>(.{0,600})', re.S)


def hidden_fields(page: str) -> dict[str, str]:
    fields = {}
    for tag in HIDDEN.findall(page):
        attributes = dict(ATTRIBUTE.findall(tag))
        if attributes.get("type") == "hidden" and "name" in attributes:
            fields[attributes["name"]] = attributes.get("value", "")
    return fields


class Phone(FastHttpUser):
    """One phone at one table: seat 0 scores, seats 1-3 came in by the table link."""

    wait_time = constant(POLL_SECONDS)

    def on_start(self) -> None:
        seat = next(_seats)
        tables = PLAN["tables"]
        self.table = tables[(seat // PHONES_A_TABLE) % len(tables)]
        self.scorer = seat % PHONES_A_TABLE == 0
        self.version = ""
        self.chance = random.Random(seat)
        # Phones at a table did not all sit down in the same second.
        self.next_save = 0.0
        if self.scorer:
            self.sign_in()
            self.next_save = time.monotonic() + self.chance.uniform(0, SAVE_SECONDS)
        else:
            with self.client.get(
                f"/t/{self.table['token']}", name="/t/<token>", catch_response=True
            ) as answer:
                if answer.status_code != 200:
                    answer.failure(f"table link: HTTP {answer.status_code}")
        self.open_board()
        _seated["phones"] += 1
        if _seated["phones"] == PHONES:
            _seated["since"] = time.monotonic()

    def sign_in(self) -> None:
        login = self.client.get("/login", name="/login")
        username, password = PLAN["account"]
        token = CSRF.search(login.text or "")
        with self.client.post(
            "/login",
            data={
                "csrf_token": token.group(1) if token else "",
                "username": username,
                "password": password,
            },
            name="/login (sign in)",
            allow_redirects=False,
            catch_response=True,
        ) as answer:
            if answer.status_code != 303:
                answer.failure(f"sign-in: HTTP {answer.status_code}")

    def open_board(self) -> None:
        with self.client.get(
            f"/games/{self.table['game']}", name="/games/<id>", catch_response=True
        ) as answer:
            found = VERSION.search(answer.text or "")
            if answer.status_code != 200 or not found:
                answer.failure(f"scoreboard: HTTP {answer.status_code}")
                return
            self.version = found.group(1)

    @task
    def poll(self) -> None:
        if self.scorer and time.monotonic() >= self.next_save:
            self.next_save += SAVE_SECONDS
            self.save_round()
            return
        with self.client.get(
            f"/games/{self.table['game']}/board?v={self.version}",
            headers={"HX-Request": "true"},
            name="/games/<id>/board (poll)",
            catch_response=True,
        ) as answer:
            if answer.status_code == 204:
                return
            found = VERSION.search(answer.text or "")
            if answer.status_code != 200 or not found:
                answer.failure(f"poll: HTTP {answer.status_code}")
                return
            self.version = found.group(1)
            tapped = _tapped.get(self.table["game"])
            if tapped is not None and not self.scorer and _seated["since"]:
                _reach.append((self.table["game"], tapped, time.monotonic() - tapped))

    def save_round(self) -> None:
        game = self.table["game"]
        with self.client.get(
            f"/games/{game}/rounds/new",
            name="/games/<id>/rounds/new (form)",
            allow_redirects=False,
            catch_response=True,
        ) as answer:
            if answer.status_code == 302:
                return  # the game is over: nothing left to save
            if answer.status_code != 200:
                answer.failure(f"round form: HTTP {answer.status_code}")
                return
            page = answer.text or ""
        hidden = hidden_fields(page)
        token = CSRF.search(page)
        went_out = self.chance.randrange(PHONES_A_TABLE)
        form = {
            "csrf_token": token.group(1) if token else "",
            "number": hidden.get("number", ""),
            "token": hidden.get("token", ""),
            "version": hidden.get("version", ""),
            "went_out": str(went_out),
            "save": "1",
        }
        # Three different hands: the same one three times may hold more of a rank than the
        # packs do (three "9 9 9 4" are nine nines), which the app rightly refuses.
        leftovers = iter(self.chance.sample(LEFTOVERS, PHONES_A_TABLE - 1))
        for seat in range(PHONES_A_TABLE):
            if seat == went_out:
                form[f"hands-{seat}-made"] = "y"
            else:
                form[f"hands-{seat}-cards"] = next(leftovers)
        # Another phone may hold the new board before this one has the answer.
        _tapped[game] = time.monotonic()
        with self.client.post(
            f"/games/{game}/rounds/new",
            data=form,
            name="/games/<id>/rounds/new (save)",
            allow_redirects=False,
            catch_response=True,
        ) as answer:
            if answer.status_code != 302:
                said = ALERT.search(answer.text or "")
                text = re.sub(r"<[^>]+>", " ", said.group(1)) if said else ""
                why = re.sub(r"\s+", " ", text).strip()[:200]
                answer.failure(f"save: HTTP {answer.status_code} {why}")
                _tapped.pop(game, None)
                return
        with _saved_lock:
            _saved.append(form["token"])
        self.open_board()


@events.request.add_listener
def _count(
    name: str = "", response_time: float = 0.0, exception: BaseException | None = None, **_: Any
) -> None:
    _asked["requests"] += 1
    if exception is not None:
        _asked["failures"] += 1
    if _seated["since"]:
        _steady.setdefault(name, []).append(response_time)


@events.test_stop.add_listener
def _write_saved(**_: Any) -> None:
    if _seated["since"]:
        _seated["for"] = time.monotonic() - _seated["since"]
    target = os.environ.get("SCOREKEEPER_SAVED")
    if target:
        with _saved_lock:
            Path(target).write_text(
                json.dumps(
                    {
                        "saved": _saved,
                        **_asked,
                        "steady": _steady,
                        "seated": _seated,
                        "reach": _reach,
                    }
                )
            )
