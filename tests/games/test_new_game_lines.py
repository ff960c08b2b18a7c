"""Issue 49, item 7: the new-game form carries, for app.js, the deck line for each number of
players up to the most at a table, in the page's language, and the most seats it may add;
without JavaScript Enter still redraws the form with a new seat and the line for the names."""

from __future__ import annotations

import re

from flask.testing import FlaskClient


def _lines(page: str) -> dict[int, str]:
    kept = page.split('<template id="setup-lines">', 1)[1].split("</template>", 1)[0]
    return {int(count): line for count, line in re.findall(r'data-count="(\d+)">([^<]*)<', kept)}


def test_the_deck_line_for_each_count_is_on_the_form(client: FlaskClient) -> None:
    form = {"rules": "liverpool", "refresh": "1"}
    page = client.post("/games/new", data=form).get_data(as_text=True)
    assert 'data-most-seats="16"' in page
    lines = _lines(page)
    assert sorted(lines) == list(range(17))
    assert "for 4 players: 2 decks and 4 jokers" in lines[4], lines[4]
    assert "for 5 players: 3 decks and 6 jokers" in lines[5], lines[5]
    assert "for" not in lines[1] and lines[0] == lines[1]
    spanish = client.post("/games/new", data=form, headers={"Accept-Language": "es"})
    es = spanish.get_data(as_text=True)
    assert "para 5 jugadores: 3 barajas y 6 jokers" in _lines(es)[5]
    words = es.split('id="script-words">', 1)[1].split("</script>", 1)[0]
    assert '"seatPlayer": "Jugador {number}"' in words


def test_without_javascript_enter_adds_a_seat_and_follows_the_names(client: FlaskClient) -> None:
    form = {"rules": "liverpool", "refresh": "1", "first_dealer": "0"}
    names = ["Ann", "Ben", "Cy", "Dee", "Eve"]
    form.update({f"players-{seat}": name for seat, name in enumerate(names)})
    page = client.post("/games/new", data=form).get_data(as_text=True)
    assert 'id="players-5"' in page
    shown = page.split('id="setup-preview"', 1)[1].split("</p>", 1)[0]
    assert "for 5 players: 3 decks and 6 jokers" in shown
