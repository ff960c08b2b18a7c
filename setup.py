"""The one build step ``pyproject.toml`` cannot state: ``templates/`` and ``static/`` sit beside
the package in the repository (the team's layout) but must travel inside it, so a wheel or a
``pip install .`` carries them as ``scorekeeper/templates`` and ``scorekeeper/static``. The
factory (``scorekeeper/__init__.py``) reads them beside the package in a checkout and inside
it when installed. An editable install reads the checkout's own folders, so nothing is copied.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SHIPPED = ("templates", "static")


class BuildWithPages(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        for folder in SHIPPED:
            target = Path(self.build_lib, "scorekeeper", folder)
            # pip builds in the tree: a file deleted since the last build must not ship.
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(folder, target, ignore=shutil.ignore_patterns("__pycache__", ".*"))


setup(cmdclass={"build_py": BuildWithPages})
