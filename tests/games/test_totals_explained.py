"""Every total says where it came from (issue 49, item 3): a joiner's starting points are a row
of their own on the board's grid and in the running totals' table, the chart's line starts at
the round joined at those points, and a leaver (and a comeback) reads so wherever the standings
are shown, ranked after everyone who stayed (``game-format.md``): the board, the result page
and card (picture and alt text), the TV view and the history, in English and Spanish."""

from __future__ import annotations

import html
import io
import json
import re
from itertools import pairwise
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image, ImageDraw
from sqlalchemy import select

from scorekeeper import scope
from scorekeeper.extensions import db
from scorekeeper.games import charts
from scorekeeper.models import Player

from ..conftest import family_id
from ..helpers import round_form, save_round, start_game
from .test_leaving_and_joining import document

SPANISH = {"Accept-Language": "es"}

# Contract Rummy, seven rounds: Cy leaves after round 2 and comes back before round 4 with the
# total he had (30); Dee leaves after round 3 for good; Fay joins before round 5 with 135.
PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Fay"]
ROUNDS = [
    ("Ann", {"Ben": "K", "Cy": "K Q", "Dee": "5"}),
    ("Ben", {"Ann": "5", "Cy": "K", "Dee": "5"}),
    ("Ann", {"Ben": "5", "Dee": "K"}),
    ("Cy", {"Ann": "5", "Ben": "5"}),
    ("Ann", {"Ben": "5", "Cy": "5", "Fay": "K Q 4"}),
    ("Ben", {"Ann": "5", "Cy": "5", "Fay": "3"}),
    ("Ann", {"Ben": "5", "Cy": "5", "Fay": "K Q"}),
]

ENGLISH_LINES = {
    "Cy": "left after round 2, back before round 4",
    "Dee": "left after round 3",
    "Fay": "joined before round 5 with 135 points",
}
SPANISH_LINES = {
    "Cy": "se fue después de la ronda 2, volvió antes de la ronda 4",
    "Dee": "se fue después de la ronda 3",
    "Fay": "entró antes de la ronda 5 con 135 puntos",
}
LEFT_RANK = {
    "en": "A player who left ranks after everyone who stayed (whoever left later first) and "
    "does not win.",
    "es": "Quien se fue queda por detrás de todos los que siguieron (antes quien se fue más "
    "tarde) y no gana.",
}


def evening(players: list[str] = PLAYERS) -> dict[str, Any]:
    """The evening above, with the five players named ``players``."""
    named = dict(zip(PLAYERS, players, strict=True))
    rounds = [
        (named[out], {named[name]: cards for name, cards in held.items()}) for out, held in ROUNDS
    ]
    return document(
        "contract-rummy",
        list(players),
        rounds,
        left={named["Cy"]: 2, named["Dee"]: 3},
        joined={
            named["Fay"]: {"before_round": 5, "total": 135},
            named["Cy"]: {"before_round": 4},
        },
    )


def upload(client: FlaskClient, game: dict[str, Any]) -> int:
    response = client.post(
        "/games/import",
        data={"file": (io.BytesIO(json.dumps(game).encode()), "game.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.headers["Location"].rstrip("/").split("/")[-1])


def page(client: FlaskClient, path: str, headers: dict[str, str] | None = None) -> str:
    response = client.get(path, headers=headers or {})
    assert response.status_code == 200, path
    return response.get_data(as_text=True)


def section(text: str, start: str, end: str) -> str:
    at = text.index(start)
    return text[at : text.index(end, at)]


def tags_out(text: str) -> str:
    """The words of a piece of page, tags and runs of white space out."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text)).strip()


def line_of(standings: str, name: str) -> str:
    """The words of the standings' row (or item) that names ``name``."""
    rows = re.findall(r"<(?:tr|li)\b.*?</(?:tr|li)>", standings, re.S)
    found = [tags_out(row) for row in rows if re.search(rf">\s*{name}\b", row)]
    assert len(found) == 1, (name, found)
    return found[0]


@pytest.mark.parametrize(("headers", "said"), [({}, ENGLISH_LINES), (SPANISH, SPANISH_LINES)])
def test_the_board_says_where_each_total_came_from(
    client: FlaskClient, headers: dict[str, str], said: dict[str, str]
) -> None:
    game_id = upload(client, evening())
    board = page(client, f"/games/{game_id}", headers)
    standings = section(board, '<table class="standings">', "</table>")
    for name, line in said.items():
        assert line in line_of(standings, name), name
    # Dee, with 20 points, the second lowest, is last: she left. The board says why.
    places = re.findall(
        r'<td class="num">(\d+)</td>\s*<td>\s*<span class="player-name">(\w+)', standings
    )
    assert places == [("1", "Ann"), ("2", "Ben"), ("3", "Cy"), ("4", "Fay"), ("5", "Dee")]
    language = "es" if headers else "en"
    assert LEFT_RANK[language] in board

    # The grid: who joined or came back has a row of their own above the round, with the
    # points they started it with, under their own name.
    grid = section(board, '<table class="rounds">', "</table>")
    rows = re.findall(r"<tr\b.*?</tr>", grid, re.S)
    labels = [tags_out(re.search(r"<th[^>]*>(.*?)</th>", row, re.S).group(1)) for row in rows]
    came_back, joined = ("volvió", "entró") if headers else ("came back", "joined")
    assert labels[1:10] == ["1", "2", "3", came_back, "4", joined, "5", "6", "7"]
    back_row, join_row = rows[4], rows[6]
    cells = re.findall(r"<td\b[^>]*>(.*?)</td>", join_row, re.S)
    assert [
        tags_out(re.sub(r'<span class="visually-hidden">.*?</span>', "", c)) for c in cells
    ] == [
        "",
        "",
        "",
        "",
        "135",
    ]
    sentence = (
        "Fay entró en la partida antes de la ronda 5 con 135 puntos."
        if headers
        else "Fay joined the game before round 5 with 135 points."
    )
    assert sentence in join_row
    cells = re.findall(r"<td\b[^>]*>(.*?)</td>", back_row, re.S)
    assert [
        tags_out(re.sub(r'<span class="visually-hidden">.*?</span>', "", c)) for c in cells
    ] == [
        "",
        "",
        "30",
        "",
        "",
    ]


def test_a_joiner_before_the_next_round_is_on_the_board_already(client: FlaskClient) -> None:
    """Through the board's own buttons: Dee leaves after round 2, Eve joins with the highest
    total; the grid's last row is Eve's, the standings say both, in both languages."""
    game_id = start_game(client, "contract-rummy", ["Ann", "Ben", "Cy", "Dee"])
    save_round(client, game_id, "Ann", {"Ben": "K", "Cy": "5", "Dee": "K Q"})
    save_round(client, game_id, "Ben", {"Ann": "K", "Cy": "5", "Dee": "5"})
    client.post(f"/games/{game_id}/leave", data={"seat": "3", "sure": "yes"})
    client.post(f"/games/{game_id}/join", data={"name": "Eve", "points": "highest"})
    for headers, joined, left, label in (
        ({}, "joined before round 3 with 10 points", "left after round 2", "joined"),
        (
            SPANISH,
            "entró antes de la ronda 3 con 10 puntos",
            "se fue después de la ronda 2",
            "entró",
        ),
    ):
        board = page(client, f"/games/{game_id}", headers)
        standings = section(board, '<table class="standings">', "</table>")
        assert joined in line_of(standings, "Eve")
        assert left in line_of(standings, "Dee")
        grid = section(board, '<table class="rounds">', "</table>")
        last = re.findall(r"<tr\b.*?</tr>", section(grid, "<tbody>", "</tbody>"), re.S)[-1]
        assert tags_out(re.sub(r'<span class="visually-hidden">.*?</span>', "", last)) == (
            f"{label} 10"
        )


def test_one_point_reads_in_the_singular(app: Flask) -> None:
    from scorekeeper.games.tally import Comeback, comings_in_words

    said = comings_in_words((3, 1), (), None)
    assert said == "joined before round 3 with 1 point"
    said = comings_in_words(None, (Comeback(2, 4, 1), Comeback(5, 7)), 8)
    assert said == (
        "left after round 2, back before round 4 with 1 point, left after round 5, "
        "back before round 7, left after round 8"
    )
    with app.test_request_context(headers=SPANISH):
        from scorekeeper.words import words

        assert words(comings_in_words((3, 1), (), None)) == "entró antes de la ronda 3 con 1 punto"
        assert words(comings_in_words(None, (Comeback(2, 4, 40),), None)) == (
            "se fue después de la ronda 2, volvió antes de la ronda 4 con 40 puntos"
        )


def charts_of(board: str) -> tuple[dict[str, str], str]:
    """The running totals' chart: each player's line (the path, by the name its end label
    gives), and its table."""
    chart = section(board, 'id="chart-', "</figure>")
    lines = {
        re.search(r'class="chart-label"[^>]*>(\w+)', group).group(1): (
            re.search(r'<path d="([^"]*)"', group).group(1)
        )
        for group in re.findall(r'<g class="chart-series.*?</g>', chart, re.S)
    }
    return lines, section(chart, "<table>", "</table>")


@pytest.mark.parametrize("headers", [{}, SPANISH])
def test_the_chart_starts_a_joiner_at_the_round_joined_and_the_points_joined_with(
    client: FlaskClient, headers: dict[str, str]
) -> None:
    game_id = upload(client, evening())
    lines, table = charts_of(page(client, f"/games/{game_id}", headers))
    # The chart's scale: 7 rounds across, 0 to 200 points up (Fay's 182 the highest).
    width = charts.WIDTH - charts.RIGHT - charts.LEFT
    height = charts.HEIGHT - charts.BOTTOM - charts.TOP

    def at(round_number: int, points: int) -> str:
        x = charts.LEFT + round_number * width / 7
        y = charts.HEIGHT - charts.BOTTOM - points * height / 200
        return f"{x:.1f} {y:.1f}"

    # Fay's line starts after round 4, at 135, and goes on to 159, 162 and 182.
    assert lines["Fay"] == f"M{at(4, 135)} L{at(5, 159)} L{at(6, 162)} L{at(7, 182)}"
    # Dee's stops at her leave; Cy's stops at his and starts again where he came back.
    assert lines["Dee"] == f"M{at(0, 0)} L{at(1, 5)} L{at(2, 10)} L{at(3, 20)}"
    assert lines["Cy"] == (
        f"M{at(0, 0)} L{at(1, 20)} L{at(2, 30)} M{at(3, 30)} L{at(4, 30)} L{at(5, 35)} "
        f"L{at(6, 40)} L{at(7, 45)}"
    )
    assert lines["Ann"].count("M") == 1 and lines["Ann"].count("L") == 7

    # The table: a row of its own for each arrival, a dash for a round a player was not in.
    rows = re.findall(r"<tr\b.*?</tr>", section(table, "<tbody>", "</tbody>"), re.S)
    shown = [tags_out(re.sub(r'<span class="visually-hidden">.*?</span>', "", row)) for row in rows]
    came_back, joined = ("volvió", "entró") if headers else ("came back", "joined")
    assert shown == [
        "1 0 10 20 5 –",
        "2 5 10 30 10 –",
        "3 5 15 – 20 –",
        f"{came_back} 30",
        "4 10 20 30 – –",
        f"{joined} 135",
        "5 10 25 35 – 159",
        "6 15 25 40 – 162",
        "7 15 30 45 – 182",
    ]


@pytest.mark.parametrize(
    ("headers", "said", "language"), [({}, ENGLISH_LINES, "en"), (SPANISH, SPANISH_LINES, "es")]
)
def test_the_result_page_card_tv_and_history_say_it_too(
    client: FlaskClient, headers: dict[str, str], said: dict[str, str], language: str
) -> None:
    game_id = upload(client, evening())

    result = page(client, f"/games/{game_id}/result", headers)
    totals = section(result, '<ol class="card-totals">', "</ol>")
    for name, line in said.items():
        assert line in line_of(totals, name)
    assert [
        re.sub(r"<.*", "", name) for name in re.findall(r'class="player-name">(\w+)', totals)
    ] == [
        "Ann",
        "Ben",
        "Cy",
        "Fay",
        "Dee",
    ]
    assert LEFT_RANK[language] in result
    alt = html.unescape(re.search(r'<img [^>]*alt="([^"]*)"', result).group(1))
    assert f"Dee 20 ({said['Dee']})" in alt
    assert f"Fay 182 ({said['Fay']})" in alt
    assert f"Cy 45 ({said['Cy']})" in alt and "Ann 15;" in alt
    assert LEFT_RANK[language] in alt

    tv = page(client, f"/games/{game_id}/tv", headers)
    standings = section(tv, '<ol class="tv-standings"', "</ol>")
    for name, line in said.items():
        assert line in line_of(standings, name)
    assert LEFT_RANK[language] in tv

    history = page(client, "/history", headers)
    totals = section(history, '<ul class="totals"', "</ul>")
    for name, line in said.items():
        assert f"({line})" in line_of(totals, name)
    assert "(" not in line_of(totals, "Ann")


def drawn_texts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, float]]:
    """Every text the card draws from now on, with where it ends on the right at the size
    drawn."""
    drawn: list[tuple[str, float]] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: str, *args: Any, **kwargs: Any) -> None:
        # Drawn from its left (the default) or from its right (``anchor="rs"``: the points).
        width = self.textlength(text, font=kwargs.get("font"))
        ends = xy[0] if kwargs.get("anchor", "la").startswith("r") else xy[0] + width
        drawn.append((text, ends))
        original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return drawn


# Six long names, made from parts: a family of first and last names that fill a line.
LONG_NAMES = [
    f"{first} {last}"
    for first, last in zip(
        ["Maximiliano", "Bartholomew", "Guadalupe", "Christopher", "Anastasia", "Florentina"],
        ["Fernández-Montalbán", "Worthington", "Echeverría", "Vanderbilt", "Kowalczyk", "Baptiste"],
        strict=True,
    )
]


@pytest.mark.parametrize(("headers", "said"), [({}, ENGLISH_LINES), (SPANISH, SPANISH_LINES)])
def test_the_card_picture_draws_each_line_whole(
    client: FlaskClient,
    monkeypatch: pytest.MonkeyPatch,
    headers: dict[str, str],
    said: dict[str, str],
) -> None:
    """The card's picture draws the line under each name whole, inside the card, for six
    players with long names (Cy's comeback, Dee's leave, Fay's join, and a sixth who sat every
    round)."""
    game = evening(LONG_NAMES[:5])
    # A sixth player, there all evening: Florentina holds a 2 in every round.
    game["players"].append(LONG_NAMES[5])
    for entry in game["rounds"]:
        entry["players"][LONG_NAMES[5]] = {"made_contract": False, "cards": "2"}
    game_id = upload(client, game)
    drawn = drawn_texts(monkeypatch)
    response = client.get(f"/games/{game_id}/card.png", headers=headers)
    assert response.status_code == 200 and response.mimetype == "image/png"
    picture = Image.open(io.BytesIO(response.data))
    assert picture.size == (1200, 630)
    texts = [text for text, _right in drawn]
    for line in said.values():
        assert line in texts, texts
    # Nothing runs off the card's right edge.
    assert all(right <= 1200 - 40 for _text, right in drawn), drawn
    assert not any(text.endswith("…") for text in texts if text in said.values())


def hidden_field(text: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', text)
    assert found is not None, name
    return found.group(1)


@pytest.mark.parametrize(("headers", "said"), [({}, ENGLISH_LINES), (SPANISH, SPANISH_LINES)])
def test_the_round_forms_totals_now_say_where_each_total_came_from(
    client: FlaskClient, headers: dict[str, str], said: dict[str, str]
) -> None:
    # The evening's first five rounds: round 6 to play, with Cy back, Dee gone and Fay in.
    game = evening()
    game["rounds"] = game["rounds"][:5]
    game_id = upload(client, game)
    form = page(client, f"/games/{game_id}/rounds/new", headers)
    made_on = {name: hidden_field(form, name) for name in ("number", "token", "rounds_version")}
    # Another phone corrects round 1 meanwhile: this phone's save is refused with the totals now.
    correction = round_form(PLAYERS[:4], "Ann", {"Ben": "K", "Cy": "K Q", "Dee": "6"})
    edited = client.post(f"/games/{game_id}/rounds/1/edit", data=correction | {"save": "1"})
    assert edited.status_code == 302, edited.get_data(as_text=True)
    typed = round_form(PLAYERS, "Ann", {"Ben": "5", "Cy": "5", "Fay": "3"})
    stale = client.post(
        f"/games/{game_id}/rounds/new", data=typed | made_on | {"save": "1"}, headers=headers
    )
    assert stale.status_code == 409
    totals = section(stale.get_data(as_text=True), '<ul class="conflict-totals">', "</ul>")
    for name, line in said.items():
        assert line in line_of(totals, name), name
    # Who sat every round has no such line.
    assert re.fullmatch(r"Ann \d+", line_of(totals, "Ann"))


@pytest.mark.parametrize("headers", [{}, SPANISH])
def test_a_leavers_end_label_is_led_to_from_the_end_of_their_line(
    client: FlaskClient, headers: dict[str, str]
) -> None:
    game_id = upload(client, evening())
    chart = section(page(client, f"/games/{game_id}", headers), 'id="chart-', "</figure>")
    groups = {
        re.search(r'class="chart-label"[^>]*>(\w+)', group).group(1): group
        for group in re.findall(r'<g class="chart-series.*?</g>', chart, re.S)
    }
    labels = {
        name: tuple(
            float(v)
            for v in re.search(r'class="chart-label" x="([\d.]+)" y="([\d.]+)"', g).groups()
        )
        for name, g in groups.items()
    }
    # Dee's line stops at round 3 of 7; a dotted leader runs from its end to her label, in the
    # right-hand column with the others: it starts at her line's last point and ends at the
    # left edge of her label, half way up its 12-unit letters.
    dee_line = re.search(r'<path d="([^"]*)"', groups["Dee"]).group(1)
    leader = re.search(
        r'<path class="chart-leader" d="M([\d.]+) ([\d.]+) L([\d.]+) ([\d.]+)"', groups["Dee"]
    )
    assert leader is not None
    x1, y1, x2, y2 = (float(v) for v in leader.groups())
    assert dee_line.endswith(f"L{x1:.1f} {y1:.1f}")
    label_x, label_y = labels["Dee"]
    assert label_x - 6 <= x2 < label_x and label_y - 12 < y2 < label_y
    # The leader stays left of the labels' column: it crosses no other label.
    assert max(x1, x2) < min(x for x, _ in labels.values())
    # Lines that run to the last round (a joiner's, a comeback's) need none.
    for name in ("Ann", "Ben", "Cy", "Fay"):
        assert "chart-leader" not in groups[name], name
    # And the labels stay apart.
    ys = sorted(y for _, y in labels.values())
    assert all(b - a >= charts.LABEL_GAP for a, b in pairwise(ys))


@pytest.mark.parametrize(
    ("headers", "said"),
    [
        ({}, "No whole game yet: a game left early or joined late is not compared"),
        (SPANISH, "Todavía no hay ninguna partida entera: una partida de la que se fue antes"),
    ],
)
def test_a_player_page_says_why_no_part_game_is_a_best_or_a_worst(
    app: Flask, client: FlaskClient, headers: dict[str, str], said: str
) -> None:
    """Best and worst compare whole games only: Dee (left) and Fay (joined) have played a
    finished game, and are told why it is not shown, where Ann's best is her game."""
    upload(client, evening())
    with app.app_context(), scope.household(family_id(app)):
        ids = {
            name: db.session.scalar(select(Player.id).where(Player.name == name))
            for name in ("Ann", "Dee", "Fay")
        }
        db.session.remove()
    for name in ("Dee", "Fay"):
        shown = tags_out(page(client, f"/players/{ids[name]}", headers))
        assert said in shown, (name, shown)
    ann = tags_out(page(client, f"/players/{ids['Ann']}", headers))
    assert said not in ann
