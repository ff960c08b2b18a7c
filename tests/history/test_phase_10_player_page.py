"""Issue 51: a player's page counts the contracts of the standard games and the phases of Phase
10 apart. Ann plays a 12-Step game and two Phase 10 games: her page has a Contracts table and a
Phases table (Fases in Spanish), phase 2 of Phase 10 never added to contract 2 of 12-Step; Ben
plays only Phase 10 and sees only phases; Dee plays only 12-Step and sees only contracts, as
before."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.models import Player
from scorekeeper.players.services import profile

from ..conftest import family_id
from .factory import document, twelve_step_rounds
from .test_kept_stats import assert_kept_equals_scratch, assert_rebuilt_alike
from .test_phase_10_history import _by_route, _text, even_file, tied_file
from .test_spanish_history import SPANISH


@pytest.fixture
def ids(app: Flask, client: FlaskClient) -> Iterator[dict[str, int]]:
    # Phase 10 on phases 9 and 10 (Ann, Ben, Cy; its tie-break hand is no round on a phase),
    # and on the even phases (Ann makes 2, 4, 6, 8 and 10; Ben holds a 5 on phase 2 for five
    # hands).
    _by_route(client, tied_file())
    _by_route(client, even_file())
    # 12-Step: Dee goes out every round, making all twelve contracts; Ann makes contract 1 in
    # round 1, then spends the other eleven on contract 2.
    twelve = document(
        ["Ann", "Dee"], twelve_step_rounds("Dee", {"Ann": "K"}, {1: {"Ann"}}), rules="twelve-step"
    )
    twelve["started"] = "2025-03-04T19:00:00+00:00"
    _by_route(client, twelve)
    with app.app_context(), scope.household(family_id(app)):
        found = {player.name: player.id for player in db.session.query(Player)}
        db.session.remove()
    yield found


def _rows(app: Flask, player_id: int) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    with app.test_request_context(), scope.household(family_id(app)):
        found = profile(db.session.get(Player, player_id))
        db.session.remove()
    return (
        [(c.number, c.games, c.rounds, c.made) for c in found.contracts],
        [(p.number, p.games, p.rounds, p.made) for p in found.phases],
    )


def _section(page: str, heading: str) -> str:
    """The page's text from ``heading`` to the next section's."""
    match = re.search(rf" {heading} (.*?) (Change this entry|Cambiar esta entrada) ", page)
    assert match, page
    return match.group(1)


def test_contracts_and_phases_apart_for_a_player_of_both(
    app: Flask, client: FlaskClient, ids: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    contracts, phases = _rows(app, ids["Ann"])
    # 12-Step's contract 2 alone (was 2 games, 12 rounds, 1 made: Phase 10's phase 2 added).
    assert contracts == [(1, 1, 1, 1), (2, 1, 11, 0)]
    assert phases == [
        (2, 1, 1, 1),
        (4, 1, 1, 1),
        (6, 1, 1, 1),
        (8, 1, 1, 1),
        (9, 1, 1, 1),
        (10, 2, 2, 2),
    ]
    english = _text(client, f"/players/{ids['Ann']}")
    assert (
        " Contracts In games where each player keeps their own contract until it is made: how"
        " many rounds each contract took Ann. The one that holds Ann longest: contract 2 ,"
        " 11.0 rounds a game. Contract Games Rounds on it Made Rounds a game"
        " 1 1 1 1 1.0 2 1 11 0 11.0 Phases In Phase 10 games, where each player keeps their own"
        " phase until it is made: how many rounds each phase took Ann. The one that holds Ann"
        " longest: phase 10 , 1.0 rounds a game. Phase Games Rounds on it Made Rounds a game"
        " 2 1 1 1 1.0 4 1 1 1 1.0 6 1 1 1 1.0 8 1 1 1 1.0 9 1 1 1 1.0 10 2 2 2 1.0"
        " Change this entry"
    ) in english
    spanish = _text(client, f"/players/{ids['Ann']}", **SPANISH)
    assert (
        " Contratos En partidas donde cada jugador mantiene su contrato hasta cumplirlo:"
        " cuántas rondas necesitó Ann para cada contrato. El que más detiene a Ann: contrato 2 ,"
        " 11,0 rondas por partida. Contrato Partidas Rondas en él Cumplido Rondas por partida"
        " 1 1 1 1 1,0 2 1 11 0 11,0 Fases En partidas de Phase 10, donde cada jugador mantiene"
        " su fase hasta cumplirla: cuántas rondas necesitó Ann para cada fase. La que más"
        " detiene a Ann: fase 10 , 1,0 rondas por partida. Fase Partidas Rondas en él Cumplido"
        " Rondas por partida 2 1 1 1 1,0 4 1 1 1 1,0 6 1 1 1 1,0 8 1 1 1 1,0 9 1 1 1 1,0"
        " 10 2 2 2 1,0 Cambiar esta entrada"
    ) in spanish
    # The kept rows are those counted from scratch, and the rebuild (in chunks of one game
    # too) writes the contracts and phases each save wrote.
    household = family_id(app)
    assert_kept_equals_scratch(app, household, "contracts and phases")
    with app.app_context():
        assert_rebuilt_alike(household, monkeypatch, chunk=1)


def test_a_phase_10_player_sees_only_phases(
    app: Flask, client: FlaskClient, ids: dict[str, int]
) -> None:
    assert _rows(app, ids["Ben"]) == ([], [(2, 1, 5, 0), (9, 1, 1, 1), (10, 1, 1, 1)])
    english = _text(client, f"/players/{ids['Ben']}")
    assert (
        " Phases In Phase 10 games, where each player keeps their own phase until it is made:"
        " how many rounds each phase took Ben. The one that holds Ben longest: phase 2 , 5.0"
        " rounds a game. Phase Games Rounds on it Made Rounds a game 2 1 5 0 5.0 9 1 1 1 1.0"
        " 10 1 1 1 1.0 Change this entry"
    ) in english
    assert "contract" not in english.lower()
    spanish = _text(client, f"/players/{ids['Ben']}", **SPANISH)
    assert (
        " Fases En partidas de Phase 10, donde cada jugador mantiene su fase hasta cumplirla:"
        " cuántas rondas necesitó Ben para cada fase. La que más detiene a Ben: fase 2 , 5,0"
        " rondas por partida. Fase Partidas Rondas en él Cumplido Rondas por partida"
        " 2 1 5 0 5,0 9 1 1 1 1,0 10 1 1 1 1,0 Cambiar esta entrada"
    ) in spanish
    assert "contrato" not in spanish.lower()


def test_a_standard_player_sees_contracts_as_before(
    app: Flask, client: FlaskClient, ids: dict[str, int]
) -> None:
    assert _rows(app, ids["Dee"]) == ([(n, 1, 1, 1) for n in range(1, 13)], [])
    english = _text(client, f"/players/{ids['Dee']}")
    table = " ".join(f"{n} 1 1 1 1.0" for n in range(1, 13))
    assert (
        " Contracts In games where each player keeps their own contract until it is made: how"
        " many rounds each contract took Dee. The one that holds Dee longest: contract 12 ,"
        f" 1.0 rounds a game. Contract Games Rounds on it Made Rounds a game {table}"
        " Change this entry"
    ) in english
    assert "phase" not in english.lower()
    spanish = _text(client, f"/players/{ids['Dee']}", **SPANISH)
    assert " Contratos " in spanish and "fase" not in spanish.lower()
