"""Issue 50 item 3: the house-rules editor refuses a contradiction at its field, in words, and
no message names a field by its code. Seven rounds dealt "7 8 9" saved in silence and dealt 9
for rounds 4-7; a cap under the fewest players read "1 is fewer than min_players (2)"."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .test_rules_pages import new_rules


def _field_errors(response: object) -> list[str]:
    page = response.get_data(as_text=True)  # type: ignore[attr-defined]
    found = re.findall(r'class="field-error"[^>]*>(.*?)</(?:p|div|span)>', page, re.S)
    return [
        re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", each))).strip() for each in found
    ]


def test_fewer_deal_sizes_than_rounds_are_refused_at_the_field(
    app: Flask, client: FlaskClient
) -> None:
    refused = new_rules(client, "continental", "Short deal", cards_dealt="7 8 9")
    assert refused.status_code == 422  # type: ignore[attr-defined]
    assert _field_errors(refused) == [
        "7 rounds are played: give a number of cards for each round (3 given), or one number "
        "for them all."
    ]
    for dealt in ("9", "7 8 9 10 11 12 13"):
        saved = new_rules(client, "continental", f"Deal {len(dealt)}", cards_dealt=dealt)
        assert saved.status_code == 303, _field_errors(saved)  # type: ignore[attr-defined]


def test_a_cap_under_the_fewest_players_is_refused_in_words(
    app: Flask, client: FlaskClient
) -> None:
    refused = new_rules(client, "liverpool", "Tiny table", max_players="2")
    assert refused.status_code == 422  # type: ignore[attr-defined]
    errors = _field_errors(refused)
    assert errors == ["2 is fewer than the fewest players (3)"], errors
    assert not any("_" in error for error in errors)


def test_aces_low_only_with_runs_that_turn_the_corner_is_refused(
    app: Flask, client: FlaskClient
) -> None:
    refused = new_rules(client, "continental", "Low aces", aces="low")
    assert refused.status_code == 422  # type: ignore[attr-defined]
    assert _field_errors(refused) == [
        "Runs that turn the corner play the ace high and low (Q-K-A-2): choose aces high or "
        "low, or runs that do not turn the corner."
    ]
    values = {"aces": "low", "runs_may_wrap": []}
    saved = new_rules(client, "continental", "Low aces", **values)  # type: ignore[arg-type]
    assert saved.status_code == 303, _field_errors(saved)  # type: ignore[attr-defined]


def _text(response: object) -> str:
    page = response.get_data(as_text=True)  # type: ignore[attr-defined]
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def _packs_note(response: object) -> str | None:
    page = response.get_data(as_text=True)  # type: ignore[attr-defined]
    found = re.search(r'id="packs-note">(.*?)</p>', page, re.S)
    return html.unescape(found.group(1)).strip() if found else None


@pytest.mark.parametrize(
    ("base", "most", "packs"),
    [
        # 2 decks for up to 5 players, one more for each 2 more: 4 at most meet 2 decks only.
        ("twelve-step", "4", "2 decks for up to 4 players; 2 jokers a deck"),
        ("continental", "4", "2 decks for up to 4 players; 3 jokers a deck"),
        ("carioca", "3", "2 decks for up to 3 players; 2 jokers a deck"),
    ],
)
def test_a_cap_under_the_packs_lines_is_explained_at_the_packs(
    app: Flask, client: FlaskClient, base: str, most: str, packs: str
) -> None:
    """Rules capped under the packs' lines are saved (the packs for the players who come are
    right), and say at the packs what they come to; the rules page says only that."""
    saved = new_rules(client, base, f"At most {most}", max_players=most)
    assert saved.status_code == 303, _field_errors(saved)  # type: ignore[attr-defined]
    slug = saved.headers["Location"].rstrip("/").split("/")[-1]  # type: ignore[attr-defined]
    note = _packs_note(client.get(f"/rules/{slug}/edit"))
    assert note == (
        f"At most {most} players play these rules, so the packs' lines for more players are "
        f"not used: {packs}."
    )
    page = _text(client.get(f"/rules/{slug}"))
    assert packs in page
    assert "more players" not in page.split("Packs", 1)[1].split("Cards dealt", 1)[0]
    # Uncapped, or capped at the packs' own line, there is nothing to explain.
    assert _packs_note(client.get(f"/rules/new?base={base}")) is None


def test_the_packs_explained_in_spanish(app: Flask, client: FlaskClient) -> None:
    saved = new_rules(client, "twelve-step", "Cuatro", max_players="4")
    slug = saved.headers["Location"].rstrip("/").split("/")[-1]  # type: ignore[attr-defined]
    spanish = {"Accept-Language": "es-CL"}
    note = _packs_note(client.get(f"/rules/{slug}/edit", headers=spanish))
    assert note == (
        "Como mucho juegan 4 jugadores con estas reglas, así que las líneas de las barajas para "
        "más jugadores no se usan: 2 barajas para hasta 4 jugadores; 2 jokers por baraja."
    )
    assert "2 barajas para hasta 4 jugadores; 2 jokers por baraja" in _text(
        client.get(f"/rules/{slug}", headers=spanish)
    )
