"""The referee page: every ruling is a GET link, the htmx fragment, impossible input, games."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Game, Player, Seat
from scorekeeper.rules import get_ruleset

HTMX = {"HX-Request": "true"}

# The examples of shared/spec/rules.md, and the spec's other worked cases, as links.
SPEC_EXAMPLES = [
    ({"rules": "twelve-step", "cards": "5S 2C JK"}, True, "A set of 5s"),
    ({"rules": "twelve-step", "cards": "5S 2C 7S JK"}, True, "A run of spades"),
    ({"rules": "twelve-step", "cards": "5S 2C JK 8S"}, False, "separated by a real card"),
    ({"rules": "twelve-step", "cards": "AH 2H 3H 4H"}, True, "ace low"),
    ({"rules": "twelve-step", "cards": "JD QD KD AD"}, True, "ace high"),
    ({"rules": "twelve-step", "cards": "QC KC AC 2C"}, True, "turns the corner"),
    (
        {"rules": "twelve-step", "mode": "layoff", "meld": "4D 5D 6D 7D", "cards": "3D"},
        True,
        "extends the run",
    ),
    (
        {"rules": "twelve-step", "mode": "liberate", "meld": "3H 4H JK 6H", "card": "5H"},
        True,
        "must be played at once",
    ),
    (
        {
            "rules": "twelve-step",
            "mode": "liberate",
            "meld": "3H 4H JK 6H",
            "card": "5H",
            "own": "1",
        },
        False,
        "not your own",
    ),
    ({"rules": "bellevue", "cards": "5S JK 5D 2C"}, True, "A set of 5s"),
    ({"rules": "twelve-step", "cards": "2S 2D 2H"}, False, "real card"),
    ({"rules": "contract-rummy", "cards": "2S 2D 2H"}, True, "A set of 2s"),
    (
        {
            "rules": "bellevue",
            "mode": "contract",
            "melds": "KH QH JH 10H / 9H 8H 7H 6H",
            "contract": "4",
        },
        False,
        "Not made",
    ),
    (
        {
            "rules": "bellevue",
            "mode": "contract",
            "melds": "KH QH JH 10H / 8H 7H 6H 5H",
            "contract": "4",
        },
        True,
        "Made",
    ),
]


def verdict_of(page: str) -> str | None:
    found = re.search(r'data-valid="(true|false)"', page)
    return found.group(1) if found else None


@pytest.mark.parametrize(("params", "valid", "words"), SPEC_EXAMPLES)
def test_every_spec_example_is_a_link_with_its_verdict(
    client: FlaskClient, params: dict[str, str], valid: bool, words: str
) -> None:
    response = client.get("/referee?" + urlencode(params))
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert verdict_of(page) == ("true" if valid else "false")
    assert words in page
    assert "<html" in page


def test_a_ruling_shows_each_wild_card_as_what_it_stands_for(client: FlaskClient) -> None:
    page = client.get("/referee?rules=twelve-step&cards=QC+KC+AC+2C").get_data(as_text=True)
    arrangement = page[page.index('class="arrangement"') :]
    assert '<span class="card-chip wild">J♣<span class="wild-card">2♣</span></span>' in arrangement
    # The reasons cite the rule and quote the family's document.
    assert "Aces in runs" in page
    assert "Aces may be counted as high or low in runs" in page
    assert "12-Step Rummy rules" in page


def test_a_rule_the_document_leaves_open_says_so(client: FlaskClient) -> None:
    page = client.get("/referee?rules=twelve-step&cards=AH+2H+3H+4H").get_data(as_text=True)
    assert "your rules don&#39;t say; most tables play it this way" in page


def test_the_ruling_offers_its_own_link(client: FlaskClient) -> None:
    page = client.get("/referee?rules=twelve-step&cards=5s,2c,jk").get_data(as_text=True)
    assert 'href="/referee?rules=twelve-step&amp;cards=5S+2C+JK"' in page
    assert 'data-copy-link="http://localhost/referee?rules=twelve-step&amp;cards=5S+2C+JK"' in page


def test_htmx_gets_the_ruling_fragment_and_the_link_for_the_address_bar(
    client: FlaskClient,
) -> None:
    response = client.get("/referee?rules=twelve-step&cards=5S%202C%20JK", headers=HTMX)
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<html" not in page and "<form" not in page
    assert page.lstrip().startswith('<section id="ruling"')
    assert verdict_of(page) == "true"
    assert 'id="cards-error" class="error-slot" data-error-for="cards" hx-swap-oob="true"' in page
    assert response.headers["HX-Replace-Url"] == "/referee?rules=twelve-step&cards=5S+2C+JK"
    assert "HX-Request" in response.headers["Vary"]


def test_a_card_typed_wrong_is_named_at_its_field(client: FlaskClient) -> None:
    response = client.get("/referee?rules=twelve-step&cards=5S+1H+JK")
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert verdict_of(page) is None
    slot = page[page.index('id="cards-error"') :]
    assert "&#39;1H&#39; is not a card" in slot[: slot.index("</div>")]
    assert re.search(r'id="cards"[^>]*aria-invalid="true"', page)


def test_htmx_gets_the_message_out_of_band_with_422(client: FlaskClient) -> None:
    response = client.get("/referee?rules=twelve-step&cards=KX", headers=HTMX)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert 'hx-swap-oob="true"><p class="field-error">&#39;KX&#39; is not a card' in page
    assert "No ruling" in page


def test_more_copies_than_the_packs_hold_is_no_ruling(client: FlaskClient) -> None:
    response = client.get("/referee?rules=twelve-step&cards=7H+7H+7H")
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert verdict_of(page) is None
    assert "3 × 7♥, but 2 decks hold only 2" in page


def test_a_bigger_table_has_more_decks(client: FlaskClient) -> None:
    # Seven players of 12-Step play with three decks: three 7♥ are possible.
    response = client.get("/referee?rules=twelve-step&players=7&cards=7H+7H+7H")
    assert response.status_code == 200
    assert verdict_of(response.get_data(as_text=True)) == "true"


def test_melds_of_a_contract_may_come_as_repeated_parameters(client: FlaskClient) -> None:
    query = "rules=twelve-step&mode=contract&contract=1&melds=5S+5H+5D&melds=7C+7D+JK"
    page = client.get("/referee?" + query).get_data(as_text=True)
    assert verdict_of(page) == "true"
    assert "mode=contract&amp;melds=5S+5H+5D+/+7C+7D+JK&amp;contract=1" in page


def test_a_contract_the_rules_lack_is_refused_at_its_field(client: FlaskClient) -> None:
    response = client.get("/referee?rules=bellevue&mode=contract&contract=11&melds=5S+5H+5D")
    assert response.status_code == 422
    assert "These rules have contracts 1 to 10" in response.get_data(as_text=True)


def test_an_empty_question_asks_for_cards(client: FlaskClient) -> None:
    for mode in ("meld", "contract", "layoff", "liberate", "hand"):
        response = client.get(f"/referee?mode={mode}")
        page = response.get_data(as_text=True)
        assert response.status_code == 200
        assert verdict_of(page) is None
        assert 'class="prompt"' in page


def test_rules_that_do_not_exist_are_a_404_with_a_message(client: FlaskClient) -> None:
    response = client.get("/referee?rules=grandmas-rules&cards=5S+5H+5D")
    assert response.status_code == 404
    assert "There are no rules called &#39;grandmas-rules&#39;" in response.get_data(as_text=True)


def start_game(rules: str, names: list[str], contracts: list[int]) -> tuple[Game, list[Seat]]:
    ruleset = get_ruleset(rules)
    game = Game(rules=ruleset.to_dict(), rules_slug=ruleset.slug, rules_name=ruleset.name)
    seats = []
    for position, (name, contract) in enumerate(zip(names, contracts, strict=True)):
        player = Player(name=name, name_key=name.lower())
        seat = Seat(player=player, position=position, contract=contract)
        game.seats.append(seat)
        seats.append(seat)
    db.session.add(game)
    db.session.commit()
    return game, seats


def test_from_a_game_the_referee_uses_its_rules_and_the_players_contract(
    app: Flask, client: FlaskClient
) -> None:
    with app.app_context():
        game, seats = start_game("bellevue", ["Ann", "Ben"], [1, 4])
        game_id, ben = game.id, seats[1].player_id
    page = client.get(f"/referee?game={game_id}&player={ben}&mode=contract").get_data(as_text=True)
    assert "Contract Rummy, Bellevue family rules" in page
    assert '<option value="4" selected>4: two runs of 4</option>' in page
    # Bellevue: two runs of one suit may not continue each other, under the game's own rules.
    query = urlencode(
        {"game": game_id, "player": ben, "mode": "contract", "melds": "KH QH JH 10H / 9H 8H 7H 6H"}
    )
    ruled = client.get(f"/referee?{query}").get_data(as_text=True)
    assert verdict_of(ruled) == "false"
    assert f"game={game_id}&amp;player={ben}&amp;mode=contract" in ruled


def test_an_unknown_game_or_player_is_a_404(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        game, _ = start_game("twelve-step", ["Ann", "Ben"], [1, 1])
        game_id = game.id
    assert client.get("/referee?game=999").status_code == 404
    assert client.get("/referee?game=abc").status_code == 404
    assert client.get(f"/referee?game={game_id}&player=999").status_code == 404


def test_the_address_keeps_what_was_typed_even_before_it_is_cards(client: FlaskClient) -> None:
    response = client.get("/referee?rules=twelve-step&cards=5s++1H", headers=HTMX)
    assert response.status_code == 422
    assert response.headers["HX-Replace-Url"] == "/referee?rules=twelve-step&cards=5s+1H"


def test_a_hand_that_makes_its_contract_shows_the_lay_down_and_what_is_left(
    client: FlaskClient,
) -> None:
    query = "rules=twelve-step&mode=hand&contract=2&cards=5S+5H+5D+7C+8C+9C+JK+KD+QS"
    page = client.get(f"/referee?{query}").get_data(as_text=True)
    assert verdict_of(page) == "true"
    assert "You can lay down contract 2 (a set of 3 and a run of 4)" in page
    assert '<span class="card-chip wild">10♣<span class="wild-card">JK</span></span>' in page
    assert "(20 points if caught)" in page


def test_a_hand_short_of_its_contract_says_by_how_many_cards(client: FlaskClient) -> None:
    query = "rules=twelve-step&mode=hand&contract=2&cards=5S+5H+7C+8C+KD+QS"
    page = client.get(f"/referee?{query}").get_data(as_text=True)
    assert verdict_of(page) == "false"
    assert "Not yet" in page and "3 cards short" in page


def test_a_hand_too_much_to_decide_is_an_undecided_ruling_not_an_error(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.rules import search

    monkeypatch.setattr(search, "WORK_BUDGET", 2)
    query = "rules=twelve-step&mode=hand&contract=2&cards=5S+5H+5D+7C+8C+9C+JK+KD+QS"
    response = client.get(f"/referee?{query}")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert 'data-valid="undecided"' in page
    assert "Undecided" in page and "too many possibilities to decide: check by hand" in page


def test_a_contract_no_hand_can_make_under_house_rules_says_so(
    app: Flask, client: FlaskClient
) -> None:
    """A run of 10 where the only 5s and 6s are wild and two wild cards may not touch: no hand
    makes it, and the referee says so instead of failing to count how many cards are short."""
    from scorekeeper import house_rules, scope

    from ..conftest import family_id

    options = {"base": "twelve-step", "wild_ranks": ["5", "6"], "wild_as_itself": False}
    with app.test_request_context(), scope.household(family_id(app)):
        house_rules.save("No long runs", options)
    query = "rules=no-long-runs&mode=hand&contract=12&cards=AH+2H+3H"
    response = client.get(f"/referee?{query}")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert verdict_of(page) == "false"
    assert "Not possible" in page and "no hand can make it under these rules" in page
