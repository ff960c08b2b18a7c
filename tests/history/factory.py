"""Real games for the history tests, stored through the games feature's ``import_game``.

``play`` takes the rounds in a short form: who went out, and the cards each other player was
left holding (their points follow from the rules). A player named in ``made`` made their
contract that round without going out.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from scorekeeper.games.transfer import import_game
from scorekeeper.models import Game

# Round = (went_out, {name: cards}) or (went_out, {name: cards}, {names who made it}).
Round = tuple[Any, ...]


def document(
    players: Sequence[str],
    rounds: Sequence[Round],
    *,
    rules: str | dict[str, Any] = "contract-rummy",
    started: datetime | None = None,
    abandoned: bool = False,
) -> dict[str, Any]:
    played = []
    for entry in rounds:
        went_out, held = entry[0], entry[1]
        made = set(entry[2]) if len(entry) > 2 else set()
        hands: dict[str, Any] = {}
        for name in players:
            if name == went_out:
                hands[name] = {"made_contract": True, "cards": ""}
            else:
                hands[name] = {"made_contract": name in made, "cards": held.get(name, "")}
        played.append({"went_out": went_out, "players": hands})
    doc: dict[str, Any] = {
        "format": "scorekeeper-game",
        "version": 1,
        "rules": rules,
        "players": list(players),
        "rounds": played,
    }
    if started is not None:
        doc["started"] = started.isoformat()
    if abandoned:
        doc["abandoned"] = True
    return doc


def play(players: Sequence[str], rounds: Sequence[Round], **options: Any) -> Game:
    return import_game(document(players, rounds, **options))


def day(n: int) -> datetime:
    """Noon on the n-th day of 2025 (games ordered by day in the tests)."""
    return datetime(2025, 1, 1, 12, tzinfo=UTC) + timedelta(days=n - 1)


def contract_rummy(
    players: Sequence[str], winner: str, leftovers: dict[str, str], started: datetime
) -> Game:
    """A finished 7-round Contract Rummy game: ``winner`` goes out every round, and each other
    player is left holding ``leftovers[name]`` every round."""
    rounds = [(winner, leftovers)] * 7
    return play(players, rounds, rules="contract-rummy", started=started)


def twelve_step_rounds(
    winner: str, others: dict[str, str], made: dict[int, set[str]] | None = None
) -> list[Round]:
    """Twelve rounds of 12-Step in which ``winner`` goes out (so makes a contract) every
    round and the others hold ``others`` cards; ``made[n]`` names the others who made their
    contract in round n."""
    made = made or {}
    return [(winner, others, made.get(n, set())) for n in range(1, 13)]
