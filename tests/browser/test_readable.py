"""Readable at arm's length (issue 43, item 6): every page the app has, on the narrowest phone
(360 x 640), in light and dark, in English and Spanish, as the owner, the scorer and the viewer
and as a table, a watch and a review link, is measured:

- every visible piece of text is 12 px or more (an SVG chart's words by the size they are drawn
  at, its own size times the chart's scale on the screen);
- every visible control (link, button, field, menu, a label standing for its check box) is at
  least 44 x 44 px; links inside a sentence get the padding;
- nothing is wider than the screen, and nothing is drawn over the Menu button.

The pages come from the URL map (``app.url_map``'s GET routes, filled in with the household's
ids as tests/test_access.py and tests/test_spanish_pages.py build them), not from a list kept
by hand: a new page is measured the day it is added. The household has a 12-Step game of six
long names in progress and one finished, another finished of six short ones ("Cy", "José"),
with the table link's phone holding a seat.

Exempt, and why: the skip link (off the screen until a keyboard focuses it); what a screen
reader alone reads (``.visually-hidden``, clipped to one pixel); a check box or radio button
whose label is the target (the label is measured instead). Error pages (403, 404: one template
for every route) are measured once for each visitor.

Screenshots of some pages land in test-artifacts/screenshots/ (readable-*.png)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bench.serving import served
from scorekeeper import create_app, house_rules, scope
from scorekeeper.accounts import links
from scorekeeper.accounts import services as accounts
from scorekeeper.extensions import db
from scorekeeper.games.transfer import import_game
from scorekeeper.models import Game, HouseRules, LinkKind, Player, Role, User

from .. import conftest as suite
from ..helpers import game_document, save_round, start_game, twelve_step_to_the_end
from ..test_access import YEAR, World, _address
from .conftest import (
    PASSWORD,
    SCREENSHOTS,
    fits_width,
    screenshot,
    sign_in_cookie,
)

pytestmark = pytest.mark.xdist_group("readable")

SIX = ["Maximiliano", "Guadalupe", "Bartolomé", "Concepción", "Inmaculada", "Ñandú Álvarez"]
# Names a finger misses as links (issue 52 item 5: "José" and "Cy" were 23 to 39 px wide on
# /players, /seasons and the ratings pages), in a second finished game with Maximiliano (his
# second: a rating chart).
SHORT = ["José", "Cy", "Bo", "Ana", "Il", SIX[0]]
MEMBERS = {"owner": "ana", "scorer": "beto", "viewer": "coco"}
WHO = ("owner", "scorer", "viewer", "table", "watch", "review")
SMALL_PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
LANGUAGES = {"en": "en-US", "es": "es-CL"}
# Answers that are not pages: pictures, files, the manifest, the service worker.
NOT_PAGES = re.compile(
    r"^(image/|application/(json|manifest|octet|javascript)|text/(csv|javascript|plain))"
)
# What a page measures of itself: text under 12 px, controls under 44 x 44, what covers the
# Menu button. Each finding names the element and its size.
MEASURE = """() => {
  const name = (el) => {
    let text = (el.getAttribute('aria-label') || el.textContent || el.value || '').trim();
    text = text.replace(/\\s+/g, ' ').slice(0, 40);
    const classes = (el.getAttribute('class') || '').trim().split(/\\s+/).filter(Boolean);
    const cls = classes.map((c) => '.' + c).join('');
    return `<${el.tagName.toLowerCase()}${cls}> "${text}"`;
  };
  const hidden = (el) => el.closest('.visually-hidden') !== null
    || getComputedStyle(el).visibility === 'hidden';
  const small = [], tiny = [], covered = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.data.trim() || !el) continue;
    if (['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT'].includes(el.tagName)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const drawn = [...range.getClientRects()].some((r) => r.width > 0 && r.height > 0);
    if (!drawn || hidden(el)) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    // An SVG's words are drawn at their size times the picture's scale on the screen.
    if (el instanceof SVGElement && el.getScreenCTM()) {
      const m = el.getScreenCTM();
      size *= Math.hypot(m.a, m.b);
    }
    const words = node.data.trim().slice(0, 30);
    if (size < 11.95) small.push(`${size.toFixed(1)} px: "${words}" in ${name(el)}`);
  }
  const controls = document.querySelectorAll(
    'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"]');
  for (const el of controls) {
    if (el.getClientRects().length === 0 || hidden(el)) continue;
    let target = el;
    // A check box's target is its label (the whole row is tappable).
    const box_of_label = ['checkbox', 'radio'].includes(el.type) && el.labels && el.labels.length;
    if (box_of_label) target = el.labels[0];
    const box = target.getBoundingClientRect();
    // The skip link waits off the screen until a keyboard focuses it.
    if (box.right <= 0 || box.bottom <= 0) continue;
    if (box.width < 43.95 || box.height < 43.95) {
      tiny.push(`${box.width.toFixed(0)} x ${box.height.toFixed(0)}: ${name(target)}`);
    }
  }
  const menu = document.querySelector('details.menu > summary');
  if (menu) {
    const box = menu.getBoundingClientRect();
    for (const [x, y] of [[0.5, 0.5], [0.1, 0.1], [0.9, 0.1], [0.1, 0.9], [0.9, 0.9]]) {
      const hit = document.elementFromPoint(box.left + box.width * x, box.top + box.height * y);
      if (hit && !menu.contains(hit)) covered.push(name(hit));
    }
  }
  return {small, tiny, covered};
}"""


@dataclass
class Household:
    world: World
    base: str


def _make_world(uri: str, instance: Path) -> World:
    """The household Los Rojas (owner, scorer, viewer): a 12-Step game of six long names three
    rounds in, one finished, house rules, a spare member and link, an invitation, table, watch
    and review links, in ``test_access.World``'s shape for ``test_access._address``."""
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = str(instance)
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": uri,
            "WTF_CSRF_ENABLED": False,
            "DAILY_BACKUPS": False,
            "RATINGS_IN_BACKGROUND": False,
            **suite.FAST_PASSWORDS,
        }
    )
    for role, username in MEMBERS.items():
        suite.add_member(app, username, role, household="Los Rojas")
    suite.add_member(app, "dora", "viewer", household="Los Rojas")
    owner = app.test_client()
    suite.sign_in(app, owner, MEMBERS["owner"])
    playing = start_game(owner, "twelve-step", SIX)
    hands = {"Guadalupe": "K", "Bartolomé": "5 5", "Concepción": "JK", "Inmaculada": "9"}
    for _ in range(3):
        save_round(owner, playing, "Maximiliano", {**hands, "Ñandú Álvarez": "Q 3"}, {"Guadalupe"})
    tokens: dict[str, str] = {}
    with app.app_context():
        home = accounts.household_named("Los Rojas")
        assert home is not None
        home_id = home.id
        db.session.remove()
    with app.test_request_context(), scope.household(home_id):
        house_rules.save("Reglas de la abuela", {"base": "twelve-step"})
        finished = import_game(game_document("twelve-step", SIX, twelve_step_to_the_end(SIX))).id
        import_game(game_document("twelve-step", SHORT, twelve_step_to_the_end(SHORT)))
        game = db.session.get(Game, playing)
        for kind in (LinkKind.TABLE, LinkKind.WATCH):
            _, tokens[kind.value] = links.make_link(kind, "ana", game=game)
        spare_link = links.make_link(LinkKind.TABLE, "ana", game=game)[0].id
        _, tokens["review"] = links.make_link(LinkKind.REVIEW, "ana", year=YEAR)
        spare_game = import_game(game_document("contract-rummy", SIX[:2], [])).id
        _, tokens["invite"] = links.make_link(LinkKind.INVITE, "ana", role=Role.VIEWER)
        player = db.session.scalar(select(Player.id).where(Player.name == SIX[0]))
        member = db.session.scalar(select(User.id).where(User.username == "dora"))
        slug = db.session.scalar(select(HouseRules.slug))
        db.session.remove()
    assert slug is not None and player is not None and member is not None
    return World(app, playing, finished, player, member, spare_link, slug, tokens, spare_game)


@pytest.fixture(scope="module")
def household(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Household]:
    """The household built in a SQLite file, then served from it as it ships (``flask
    serve``)."""
    folder = tmp_path_factory.mktemp("readable")
    saved = os.environ.get("SCOREKEEPER_INSTANCE_PATH")
    uri = f"sqlite:///{folder / 'readable.db'}"
    world = _make_world(uri, folder / "instance")
    with world.app.app_context():
        db.session.remove()
        db.engine.dispose()
    if saved is None:
        os.environ.pop("SCOREKEEPER_INSTANCE_PATH", None)
    else:
        os.environ["SCOREKEEPER_INSTANCE_PATH"] = saved
    environment = {
        "SCOREKEEPER_INSTANCE_PATH": str(folder / "instance"),
        "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": uri,
    }
    with served(environment=environment, ready_path="/healthz", log_folder=folder) as server:
        yield Household(world, server.base)


def addresses(world: World) -> list[tuple[str, str]]:
    """(endpoint, address) of every GET route, for the game in progress and the finished one."""
    found: list[tuple[str, str]] = []
    rules = sorted(
        {
            (rule.endpoint, frozenset(rule.arguments))
            for rule in world.app.url_map.iter_rules()
            if "GET" in (rule.methods or ()) and rule.endpoint != "static"
        },
        key=lambda pair: pair[0],
    )
    for endpoint, arguments in rules:
        shown = [world]
        if "game_id" in arguments and endpoint != "games.delete":
            shown.append(replace(world, playing=world.finished))
        found += [(endpoint, _address(each, endpoint, set(arguments))) for each in shown]
    return found


def _phone(browser: Any, household: Household, who: str, scheme: str, language: str) -> Any:
    """A 360 x 640 phone in ``scheme`` and ``language``, signed in as ``who`` or holding its
    link (the table link's phone holding the first seat)."""
    context = browser.new_context(
        base_url=household.base,
        locale=LANGUAGES[language],
        color_scheme=scheme,
        **SMALL_PHONE,
    )
    context.set_default_timeout(60_000)
    world = household.world
    if who in MEMBERS:
        cookie = sign_in_cookie(household.base, MEMBERS[who], PASSWORD)
        context.add_cookies([{"name": "session", "value": cookie, "url": household.base}])
    page = context.new_page()
    if who == "table":
        page.goto("/t/" + world.tokens["table"])
        page.goto(f"/games/{world.playing}/seat")
        page.locator("button[name=seat]").first.click()
        # The walk before this one (another scheme or language) left its phone in that seat.
        page.locator("#take-over, .my-hand").first.wait_for()
        if page.locator("#take-over").count():
            page.locator("#take-over button").click()
        page.wait_for_url(re.compile(r"/hand$"))
    elif who == "watch":
        page.goto("/w/" + world.tokens["watch"])
    elif who == "review":
        page.goto("/y/" + world.tokens["review"])
    return page


@dataclass
class Finding:
    who: str
    url: str
    what: list[str]


def walk(page: Any, who: str, pages: list[tuple[str, str]], label: str) -> list[Finding]:
    """Every page of ``pages`` this phone is shown, measured; error pages once."""
    findings: list[Finding] = []
    seen: set[str] = set()
    error_measured = False
    for _endpoint, url in pages:
        asked = page.context.request.get(url)
        kind = asked.headers.get("content-type", "")
        if NOT_PAGES.match(kind) or "attachment" in asked.headers.get("content-disposition", ""):
            continue
        if asked.status >= 400:
            if error_measured:
                continue
            error_measured = True
        answer = page.goto(url, wait_until="load")
        if page.url in seen or answer is None:
            continue
        seen.add(page.url)
        measured = page.evaluate(MEASURE)
        problems = [f"text {each}" for each in measured["small"]]
        problems += [f"control {each}" for each in measured["tiny"]]
        problems += [f"over the menu: {each}" for each in measured["covered"]]
        if not fits_width(page):
            problems.append("wider than the screen")
        if problems:
            findings.append(Finding(who, page.url, problems))
        # The owner's pages, and the table phone's own hand, for a person to look at.
        if answer.status < 400 and (who == "owner" or page.url.endswith("/hand")):
            path = re.sub(r"[^a-z0-9]+", "-", page.url.split("//", 1)[1].split("/", 1)[1][:40])
            screenshot(page, f"readable-{label}-{who}-{path.strip('-') or 'home'}")
    return findings


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_is_readable_at_arms_length(
    browser: Any, household: Household, scheme: str, language: str
) -> None:
    pages = addresses(household.world)
    findings: list[Finding] = []
    for who in WHO:
        phone = _phone(browser, household, who, scheme, language)
        findings += walk(phone, who, pages, f"{scheme}-{language}")
        phone.context.close()
    report = "\n".join(
        f"{finding.url} as {finding.who}:\n  " + "\n  ".join(finding.what[:8])
        for finding in findings
    )
    # The whole list, for a person to read after a run (the assertion shows its start).
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / f"readable-{scheme}-{language}.txt").write_text(report + "\n")
    assert findings == [], f"{len(findings)} pages too small to read or tap:\n{report}"


def test_the_walk_reaches_every_kind_of_page(household: Household) -> None:
    """The walk is the URL map's: the pages a family uses most are among its addresses."""
    endpoints = {endpoint for endpoint, _url in addresses(household.world)}
    assert {"games.show", "games.tv", "games.result", "games.hand", "games.new_round"} <= endpoints
    assert {"history.review_page", "players.show", "accounts.watch_link"} <= endpoints


@pytest.mark.parametrize("width", [345, 320])
def test_charts_are_readable_however_narrow(browser: Any, household: Household, width: int) -> None:
    """A chart's words stay 12 px or more where the chart is drawn narrower than on the walk's
    phone: a 360 px screen whose scrollbar takes 15 px (11.7 px before, issue 52), and a
    320 px phone. The game's charts (on its board) and a player's rating chart."""
    world = household.world
    context = browser.new_context(
        base_url=household.base, viewport={"width": width, "height": 640}, locale="en-US"
    )
    cookie = sign_in_cookie(household.base, MEMBERS["owner"], PASSWORD)
    context.add_cookies([{"name": "session", "value": cookie, "url": household.base}])
    page = context.new_page()
    findings = []
    for url in (f"/games/{world.finished}", f"/games/{world.playing}", f"/players/{world.player}"):
        page.goto(url, wait_until="load")
        assert page.locator(".chart-svg text").count(), f"{url} has no chart to measure"
        measured = page.evaluate(MEASURE)
        findings += [f"{url}: text {each}" for each in measured["small"]]
        if not fits_width(page):
            findings.append(f"{url}: wider than the screen")
    screenshot(page, f"readable-chart-{width}")
    context.close()
    assert findings == [], "\n".join(findings)
