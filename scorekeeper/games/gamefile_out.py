"""Writing the game file (``scorekeeper-game``, version 1): the document the app exports
from a game's tally (``write_game_file``), and the times it reads back. Pure, no database.
Reading a game file is ``gamefile``'s. See ``shared/spec/game-format.md``."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from scorekeeper.status import GameStatus

from .gamefile import FORMAT, VERSION
from .gamefile_lineup import write_lineup
from .tally import Tally


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(UTC).isoformat()


def write_game_file(
    tally: Tally,
    rules_data: Mapping[str, Any],
    *,
    started: datetime | None,
    game_id: int | None = None,
    exported: datetime | None = None,
    uid: str | None = None,
) -> dict[str, Any]:
    """The exported document of a game: what a person writes, plus what follows from it."""
    names = tally.names
    document: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    if uid is not None:
        document["uid"] = uid
    if game_id is not None:
        document["id"] = game_id
    if exported is not None:
        document["exported"] = iso(exported)
    document.update(
        {
            "rules": dict(rules_data),
            "players": list(names),
            "first_dealer": names[tally.first_dealer],
            "started": iso(started),
            **write_lineup(tally.lineup, names),
            "abandoned": tally.status == GameStatus.ABANDONED,
            "status": tally.status,
            "rounds": [
                {
                    "number": played.number,
                    "dealer": names[played.dealer],
                    "went_out": None if played.went_out is None else names[played.went_out],
                    # Only where it is so: a file of a game without the bonus reads as before.
                    **({"went_out_in_one_turn": True} if played.went_out_in_one_turn else {}),
                    **({"tie_break_hand": True} if played.tie_break_hand else {}),
                    "players": {
                        names[seat]: {
                            "contract": hand.contract,
                            "made_contract": hand.made_contract,
                            # A typed total has no cards: null says so, and imports as typed.
                            "cards": None if hand.typed_total else hand.cards,
                            "points": hand.points,
                        }
                        for seat, hand in enumerate(played.hands)
                        if hand.in_round
                    },
                }
                for played in tally.rounds
            ],
            "standings": [
                {
                    "player": standing.name,
                    "total": standing.total,
                    "contract": standing.contract,
                    "contracts_made": standing.contracts_made,
                    "place": standing.place,
                    **({} if standing.left_after is None else {"left_after": standing.left_after}),
                }
                for standing in tally.standings
            ],
            "winners": list(tally.winner_names),
            "tie_break": tally.tie_break,
        }
    )
    return document


def imported_end(started: datetime | None, over: bool, now: datetime) -> datetime | None:
    """When a game stored from a game file ended, as far as the file tells (issue 37): a file
    carries no time but the game's start (game-format.md: no round's time, no end), so a game
    that is over ended, as the app counts it, when it started, not at the import, which may be
    years later (a table link to it lapses by the game's own clock, and nothing says it ended
    today). A game whose file names no start starts at the import, and ends there. None for a
    game still in progress."""
    if not over:
        return None
    return started or now
