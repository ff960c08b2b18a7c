"""Benchmark of what writing every translation as text costs a page (run by hand).

    .venv/bin/python -m bench.words [--repeats 200] [--rounds 5]

Makes a fresh SQLite database with a household, its owner and a 12-Step game of six players
three rounds in, and asks for pages that hold many messages (the round form, the rules page,
the house rules' editor, the account page), in English and in Spanish, with the templates'
gettext as the app installs it (``languages._text_gettext``: the translation escaped as text)
and with Jinja's own newstyle gettext (which trusts the catalogue as HTML), taking turns,
``--rounds`` times. What is timed is the whole answer through Flask's test client, in CPU
time of this process (the machine is shared: CPU time moves less than the clock when it is
busy). It prints each page's median in milliseconds with both, and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from bench.in_process import NAMES, signed_in_owner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        figures = run(Path(folder), options.repeats, options.rounds)
    print(f"{'page':<22} {'text ms':>8} {'trusting ms':>12} {'ratio':>6}")
    for page, (text, trusting) in figures.items():
        print(f"{page:<22} {text:>8.3f} {trusting:>12.3f} {text / trusting:>6.2f}")


def run(folder: Path, repeats: int, rounds: int) -> dict[str, tuple[float, float]]:
    app, client = signed_in_owner(folder)
    from flask_babel import get_translations
    from jinja2.ext import _make_new_gettext, _make_new_ngettext

    form = {"rules": "twelve-step", "first_dealer": "0", "start": "Start the game"}
    form.update({f"players-{seat}": name for seat, name in enumerate(NAMES)})
    game = client.post("/games/new", data=form).headers["Location"].rstrip("/").split("/")[-1]
    for _ in range(3):
        cards = {f"hands-{seat}-cards": "K Q 5" for seat in range(1, len(NAMES))}
        opened = client.get(f"/games/{game}/rounds/new").get_data(as_text=True)
        marker = 'name="token" value="'
        begins = opened.index(marker) + len(marker)
        token = opened[begins : opened.index('"', begins)]
        saved = client.post(
            f"/games/{game}/rounds/new",
            data={"went_out": "0", "token": token, "save": "1", **cards},
        )
        assert saved.status_code in (302, 303), saved.status_code

    # Pages drawn afresh for every request (the board is drawn once a game version and kept,
    # so what its words cost is paid once a save): the whole answer, through the test client.
    pages = {
        "round form": f"/games/{game}/rounds/new",
        "rules page": "/rules/twelve-step",
        "house rules editor": "/rules/new?base=twelve-step",
        "account": "/account",
    }
    text = {name: app.jinja_env.globals[name] for name in ("gettext", "ngettext")}
    trusting = {
        "gettext": _make_new_gettext(lambda s: get_translations().ugettext(s)),
        "ngettext": _make_new_ngettext(lambda s, p, n: get_translations().ungettext(s, p, n)),
    }
    timings: dict[str, dict[str, list[float]]] = {}
    for _ in range(rounds):
        for kind, installed in (("text", text), ("trusting", trusting)):
            app.jinja_env.globals.update(installed)
            for language in ("en", "es"):
                for page, address in pages.items():
                    headers = {"Accept-Language": language}
                    assert client.get(address, headers=headers).status_code == 200, address
                    began = time.process_time()
                    for _ in range(repeats):
                        client.get(address, headers=headers)
                    spent = (time.process_time() - began) * 1000 / repeats
                    timings.setdefault(f"{page} ({language})", {}).setdefault(kind, []).append(
                        spent
                    )
    app.jinja_env.globals.update(text)
    return {
        page: (statistics.median(kinds["text"]), statistics.median(kinds["trusting"]))
        for page, kinds in timings.items()
    }


if __name__ == "__main__":
    main()
