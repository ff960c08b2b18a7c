"""The yardstick: a bare Flask endpoint, served by waitress exactly like the app.

The web benchmark reports the app's pages as a ratio to this, so that the figures mean the
same on a fast laptop and a slow home server. ``python -m bench.bare_app --port N --threads T``
serves it with the settings of ``flask --app scorekeeper serve``.
"""

from __future__ import annotations

import argparse

from flask import Flask

from scorekeeper import server


def create_app() -> Flask:
    app = Flask(__name__)

    @app.get("/")
    def bare() -> str:
        return "ok"

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--threads", type=int, default=server.DEFAULT_THREADS)
    arguments = parser.parse_args()
    server.run(create_app(), "127.0.0.1", arguments.port, arguments.threads)


if __name__ == "__main__":
    main()
