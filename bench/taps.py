"""How many taps a round costs at the table, each player on their own phone (issue 14's goal:
a player at most 1 tap plus their own cards, the scorer at most 2).

    .venv/bin/python -m bench.taps

Four phones open one table link to a 4-player 12-Step game and play round 1 as a table would:
each reads the page it holds, finds the button a person would tap by its words, and sends
that button's form as the browser would (every field of the form, the button's own name and
value). Following a redirect or polling is not a tap. Then round 2, where Dee has no phone and
the scorer closes the round and fills her hand. It prints the taps per person beside the goal,
and the points stored, which must be the rules' points of the cards tapped.

Then the scorer alone (issue 23's goal: the cards plus 2): the signed-in scorer enters round 1
of another 4-player 12-Step game on the round form, on a real phone's browser (Debian's
Chromium through Playwright at 360 x 640, the app served by ``flask serve``), from the board
back to the board: Ann went out, Ben and Cy made their contract (they hold fewer cards than the
13 dealt), Dee did not (she holds all 13), 19 cards between them. "Made" is tapped only where the
form does not already show it as it should be (issue 35: it follows the cards). The reader
above sends forms as a browser without JavaScript would: on the round form it
would find the pad's keys (each a submit button there too) but not what a phone at the table
runs, the page's script (the pad typing into the field at once, quick taps queued, who went
out hiding that hand's pad, a pick carried in from the board). So this one counts what a
thumb presses on the page as Chromium draws it, quick taps as a thumb makes them.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from werkzeug.datastructures import MultiDict

PLAYERS = ("Ann", "Ben", "Cy", "Dee")
PAD_LABEL = {"JK": "Add a joker"}
# The scorer alone: Ann goes out; each other hand's cards, and whether it made the contract.
# 12-Step deals 13 cards: Ben and Cy laid down (they hold fewer), Dee did not (she holds all 13).
ALONE_HANDS = (
    ("Ben", "K Q 5", True),
    ("Cy", "9 9 A", True),
    ("Dee", "JK 3 4 5 6 7 8 9 10 J Q K A", False),
)
ALONE_TOTALS = {"Ann": 0, "Ben": 25, "Cy": 30, "Dee": 145}
ALONE_CARDS = sum(len(cards.split()) for _name, cards, _made in ALONE_HANDS)
ALONE_GOAL = ALONE_CARDS + 2
CHROMIUM = "/usr/bin/chromium"
SMALL_PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}


@dataclass
class Form:
    action: str
    method: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    # (words on the button or its aria-label, name, value)
    buttons: list[tuple[str, str, str]] = field(default_factory=list)


class PageReader(HTMLParser):
    """The forms and links of a page, as a person sees its buttons."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self.links: list[tuple[str, str]] = []
        self._form: Form | None = None
        self._button: dict[str, str] | None = None
        self._link: str | None = None
        self._words: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "form":
            self._form = Form(found.get("action", ""), found.get("method", "get").lower())
            self.forms.append(self._form)
        elif tag == "input" and self._form is not None and found.get("name"):
            if found.get("type") in ("checkbox", "radio") and "checked" not in found:
                return
            self._form.fields.append((found["name"], found.get("value", "")))
        elif tag == "button" and self._form is not None:
            self._button, self._words = found, []
        elif tag == "a" and "href" in found:
            self._link, self._words = found["href"], []

    def handle_data(self, data: str) -> None:
        self._words.append(data)

    def handle_endtag(self, tag: str) -> None:
        words = " ".join("".join(self._words).split())
        if tag == "button" and self._button is not None and self._form is not None:
            label = self._button.get("aria-label") or words
            self._form.buttons.append(
                (label, self._button.get("name", ""), self._button.get("value", ""))
            )
            self._button = None
        elif tag == "a" and self._link is not None:
            self.links.append((words, self._link))
            self._link = None
        elif tag == "form":
            self._form = None


class Person:
    """Someone at the table with a phone: what it shows, and the taps made on it."""

    def __init__(self, name: str, client: Any) -> None:
        self.name = name
        self.client = client
        self.html = ""
        self.taps = 0
        self.setup_taps = 0

    def open(self, url: str) -> None:
        answer = self.client.get(url, follow_redirects=True)
        assert answer.status_code == 200, (url, answer.status_code)
        self.html = answer.get_data(as_text=True)
        self.url = answer.request.path

    def read(self) -> PageReader:
        reader = PageReader()
        reader.feed(self.html)
        return reader

    def tap_link(self, words: str, *, setup: bool = False) -> None:
        href = next(href for text, href in self.read().links if text == words)
        self._count(setup)
        self.open(href)

    def tap(self, words: str, *, setup: bool = False, fill: dict[str, str] | None = None) -> int:
        """Tap the button reading ``words``; the page shown after it. Returns the status."""
        for form in self.read().forms:
            for label, name, value in form.buttons:
                if label == words:
                    data = [(key, fill.get(key, val) if fill else val) for key, val in form.fields]
                    if name:
                        data.append((name, value))
                    self._count(setup)
                    answer = self.client.post(
                        form.action or self.url, data=MultiDict(data), follow_redirects=True
                    )
                    self.html = answer.get_data(as_text=True)
                    self.url = answer.request.path
                    return int(answer.status_code)
        raise LookupError(f"{self.name}'s phone shows no button {words!r}")

    def _count(self, setup: bool) -> None:
        if setup:
            self.setup_taps += 1
        else:
            self.taps += 1

    def enter_cards(self, cards: str) -> int:
        """Tap each card on the pad (a card a tap); the page reloaded as htmx would show it."""
        tapped = 0
        for card in cards.split():
            self.tap(PAD_LABEL.get(card, f"Add {card}"))
            tapped += 1
        self.open(self.url)
        return tapped


class Thumb:
    """The scorer's thumb on a real phone's page: each press of a link, button, pad key, box or
    choice is a tap, each found by what the page shows (its role and words). Scrolling, waiting,
    following a redirect and the requests the page's script sends are not taps."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.pressed: list[str] = []

    @property
    def taps(self) -> int:
        return len(self.pressed)

    def press(self, target: Any, what: str) -> None:
        target.click()
        self.pressed.append(what)


@dataclass
class Entered:
    """The scorer-alone round: what was pressed, and the totals the board showed after it."""

    pressed: list[str]
    totals: dict[str, int]

    @property
    def taps(self) -> int:
        return len(self.pressed)


def scorer_alone(page: Any, board: str, before_save: Callable[[], None] | None = None) -> Entered:
    """Round 1 of the 4-player 12-Step game at ``board`` (a path; no round stored yet) entered
    on the round form by the signed-in scorer alone, on ``page``, from the board back to the
    board: Ann went out, then ALONE_HANDS. The scorer takes the shortest way the pages offer:
    the board's "Ann went out" where there is one, else "Enter round 1" and then Ann under
    "Who went out?". Quick taps, as a thumb makes them: no key waits for the one before.
    ``before_save`` is called with the form filled in, just before Save (a test's screenshot)."""
    from playwright.sync_api import expect

    thumb = Thumb(page)
    page.goto(board)
    shortcut = page.get_by_role("link", name="Ann went out", exact=True)
    if shortcut.count():
        thumb.press(shortcut, "Ann went out (board)")
    else:
        thumb.press(page.get_by_role("link", name="Enter round 1", exact=True), "Enter round 1")
        thumb.press(page.get_by_role("radio", name="Ann", exact=True), "Who went out? Ann")
    expect(page.get_by_role("radio", name="Ann", exact=True)).to_be_checked()
    for name, cards, made in ALONE_HANDS:
        hand = page.get_by_role("group", name=re.compile(rf"^{name} contract"))
        for card in cards.split():
            key = f"{PAD_LABEL.get(card, f'Add {card}')} to {name}"
            thumb.press(hand.get_by_role("button", name=key, exact=True), "card")
        expect(hand.get_by_role("textbox", name="Cards left")).to_have_value(cards)
        # "Made" as the form shows it once the cards are in: tapped only where it is wrong.
        box = hand.get_by_role("checkbox", name="Made the contract")
        if box.is_checked() != made:
            thumb.press(box, f"{name}: made the contract {'ticked' if made else 'unticked'}")
        expect(box).to_be_checked(checked=made)
    if before_save is not None:
        before_save()
    thumb.press(page.get_by_role("button", name="Save round 1", exact=True), "Save round 1")
    page.wait_for_url(re.compile(re.escape(board) + "$"))
    rows = page.locator("#board table.standings tbody tr")
    expect(rows).to_have_count(len(PLAYERS))
    totals = {}
    for row in rows.all():
        name = row.locator(".player-name").inner_text().split()[0]
        totals[name] = int(row.locator("td").last.inner_text())
    return Entered(thumb.pressed, totals)


def scorer_alone_in_a_browser() -> Entered | None:
    """The scorer-alone round on the app as it ships (``flask serve`` on loopback, a fresh
    SQLite file) in Chromium at 360 x 640; None where there is no Chromium or Playwright."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if not Path(CHROMIUM).exists():
        return None
    from bench.serving import served

    username, password = "scorer", "bench password for taps"
    with tempfile.TemporaryDirectory() as folder:
        environment = {"SCOREKEEPER_INSTANCE_PATH": str(Path(folder) / "instance")}
        with served(environment=environment, ready_path="/healthz", log_folder=Path(folder)) as app:
            subprocess.run(
                [sys.executable, "-m", "flask", "--app", "scorekeeper", "users", "add", username],
                input=password + "\n",
                text=True,
                env={**os.environ, **environment},
                check=True,
                capture_output=True,
            )
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
                )
                page = browser.new_context(base_url=app.base, **SMALL_PHONE).new_page()
                page.set_default_timeout(15_000)
                # Once an evening, not counted: signing in and starting the game.
                page.goto("/login")
                page.get_by_label("Username").fill(username)
                page.get_by_label("Password").fill(password)
                page.get_by_role("button", name="Sign in").click()
                page.wait_for_url(lambda url: "/login" not in url)
                page.goto("/games/new")
                for seat, name in enumerate(PLAYERS):
                    page.fill(f"#players-{seat}", name)
                page.click("button[name=start]")
                page.wait_for_url(re.compile(r"/games/\d+$"))
                entered = scorer_alone(page, "/" + page.url.split("/", 3)[3])
                browser.close()
    return entered


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        os.environ["SCOREKEEPER_INSTANCE_PATH"] = str(Path(folder) / "instance")
        from scorekeeper import create_app, scope
        from scorekeeper.accounts import links, services
        from scorekeeper.extensions import db
        from scorekeeper.games import services as games
        from scorekeeper.models import Game, LinkKind, Role
        from scorekeeper.rules import get_ruleset

        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/taps.db",
                "WTF_CSRF_ENABLED": False,
                "PASSWORD_TIME_COST": 1,
                "PASSWORD_MEMORY_KIB": 8,
            }
        )
        with app.test_request_context():
            home = services.add_household("Bench")
            home_id = home.id
            services.add_user("scorer", "bench password", home, Role.OWNER)
            with scope.household(home_id):
                game = games.start_game(get_ruleset("twelve-step"), PLAYERS)
                game_id = game.id
                _, token = links.make_link(LinkKind.TABLE, "scorer", game=game)
            db.session.remove()

        scorer = Person("scorer", app.test_client())
        answer = scorer.client.post(
            "/login", data={"username": "scorer", "password": "bench password"}
        )
        assert answer.status_code == 303
        phones = [Person(name, app.test_client()) for name in PLAYERS]
        for phone in phones:
            phone.open(f"/t/{token}")
            phone.tap_link("My hand, on this phone", setup=True)
            phone.tap(f"I'm {phone.name}", setup=True)

        # Round 1: everyone has a phone.
        ann, ben, cy, dee = phones
        hands = {"Ben": ("K Q", True), "Cy": ("5 5 A", False), "Dee": ("JK 9 9", False)}
        cards_tapped: dict[str, int] = {"Ann": 0}
        ann.tap("I went out")
        for phone in (ben, cy, dee):
            phone.open(phone.url)  # its poll: the pad is shown
            cards, made = hands[phone.name]
            cards_tapped[phone.name] = phone.enter_cards(cards)
            phone.tap("Made ✓" if made else "Not made ✗")
        scorer.open(f"/games/{game_id}")
        stored_by_itself = "Enter round 2" in scorer.html

        round_one_taps = {phone.name: phone.taps for phone in phones}
        scorer_round_one = scorer.taps

        # Round 2: Dee's phone is flat; the scorer closes the round and fills her hand.
        for phone in phones:
            phone.taps = 0
        round_two = {"Ann": ("K", False), "Cy": ("Q Q", False)}
        ben.open(ben.url)
        ben.tap("I went out")
        for phone in (ann, cy):
            phone.open(phone.url)
            cards, _made = round_two[phone.name]
            phone.enter_cards(cards)
            phone.tap("Not made ✗")
        scorer.open(f"/games/{game_id}")
        scorer.tap_link("Close round 2")
        scorer.tap("Close round 2", fill={"cards-3": "A A"})  # typed, not tapped
        round_two_taps = {"Ben": ben.taps, "Ann": ann.taps, "Cy": cy.taps}

        with app.app_context():
            with scope.household(home_id):
                played = db.session.get(Game, game_id)
                assert played is not None
                tally = games.tally_of(played)
                points = [[hand.points for hand in result.hands] for result in tally.rounds]
            db.session.remove()

    print("Round 1, every player on their own phone (12-Step, 4 players):")
    print(f"{'who':<8}{'cards':>6}{'taps':>6}{'taps beyond cards':>19}{'goal':>7}  ok")
    worst = 0
    for name in PLAYERS:
        taps, cards = round_one_taps[name], cards_tapped[name]
        worst = max(worst, taps - cards)
        ok = "yes" if taps - cards <= 1 else "NO"
        print(f"{name:<8}{cards:>6}{taps:>6}{taps - cards:>19}{'<= 1':>7}  {ok}")
    closed = "the round closed by itself" if stored_by_itself else "NOT stored"
    ok = "yes" if stored_by_itself and scorer_round_one <= 2 else "NO"
    print(
        f"{'scorer':<8}{'':>6}{scorer_round_one:>6}{scorer_round_one:>19}{'<= 2':>7}"
        f"  {ok} ({closed})"
    )
    print(
        f"once a game, each phone: {phones[0].setup_taps} taps (My hand, on this phone; I'm <name>)"
    )
    print()
    print("Round 2, Dee's phone flat: the scorer closes the round and types her cards:")
    for name, taps in round_two_taps.items():
        print(f"  {name}: {taps} taps")
    print(f"  scorer: {scorer.taps} taps (Close round 2 on the board, Close round 2), goal <= 2")
    print()
    print(f"points stored: round 1 {points[0]}, round 2 {points[1] if len(points) > 1 else '-'}")
    expected = [[0, 20, 30, 60], [10, 0, 20, 40]]
    good = points == expected and worst <= 1 and scorer.taps <= 2 and stored_by_itself
    print("as expected (12-Step: 2-9 five, 10-K ten, A twenty, joker fifty):", good)
    print()
    alone = scorer_alone_in_a_browser()
    if alone is None:
        print("The scorer alone: not measured (it needs Playwright and Debian's Chromium).")
        return 0 if good else 1
    made = sum(1 for _name, _cards, was_made in ALONE_HANDS if was_made)
    print(
        f"Round 1, the scorer alone on the round form (Chromium at 360 x 640, 4 players, "
        f"{ALONE_CARDS} cards, {made} made the contract):"
    )
    steps: dict[str, int] = {}
    for what in alone.pressed:
        steps[what] = steps.get(what, 0) + 1
    for what, count in steps.items():
        print(f"  {count:>2}  {what}")
    ok = "yes" if alone.taps <= ALONE_GOAL else "NO"
    print(f"  taps {alone.taps}, goal <= {ALONE_GOAL} (the cards plus 2): {ok}")
    right = alone.totals == ALONE_TOTALS
    print(f"  totals on the board {alone.totals}, as expected: {right}")
    return 0 if good and right else 1


if __name__ == "__main__":
    sys.exit(main())
