"""The code stays formatted, lint-free, typed (strictly where the rules live) and free of dead
code."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def tool(name: str) -> str:
    found = Path(sys.executable).with_name(name)
    if found.exists():
        return str(found)
    located = shutil.which(name)
    if located is None:
        pytest.skip(f"{name} is not installed")
    return located


@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "."],
        ["ruff", "format", "--check", "."],
        # The whole package in mypy's default mode, and scorekeeper.rules to --strict
        # (pyproject.toml's override).
        ["mypy", "scorekeeper"],
        # Findings of medium severity or above; each one judged safe carries `# nosec <id>`
        # with the reason beside it.
        ["bandit", "--recursive", "--severity-level", "medium", "--quiet", "scorekeeper"],
        # Nothing unused in scorekeeper/ at 60 % confidence or more; what vulture cannot see
        # used is named in the whitelist or handed over by a decorator ([tool.vulture]).
        ["vulture", "scorekeeper", "tests/vulture_whitelist.py"],
    ],
    ids=["ruff-check", "ruff-format", "mypy", "bandit", "vulture"],
)
def test_tool_is_clean(command: list[str]) -> None:
    result = subprocess.run(
        [tool(command[0]), *command[1:]], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr
