"""The code stays formatted, lint-free, typed (strictly where the rules live) and free of dead
code."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper import derived, models, scope

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


# --- the shape of the imports ------------------------------------------------------------------
#
# Layers point down (features over the models and shared web pieces, those over the rules
# engine: the contracts in pyproject.toml, checked by import-linter), and no module reaches its
# own importers in a circle, not even through an import tucked inside a function, which is where
# a circle hides. The tests below read every module with ``ast`` (import-linter does not see
# inside functions the same way, nor say why an import is there).

PACKAGE = ROOT / "scorekeeper"

# The only imports of our own modules allowed inside a function, each with its reason.
IMPORTS_IN_FUNCTIONS = {
    # The factory loads the features when an app is made, not when the package is imported (the
    # rules engine, the migrations and the benchmarks import ``scorekeeper`` without an app).
    ("scorekeeper", "create_app"),
}


def _modules() -> dict[str, tuple[Path, bool]]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if "migrations" in path.relative_to(PACKAGE).parts:
            continue  # Alembic loads them by file, with the app already made
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def _imported(
    known: set[str], module: str, is_package: bool, node: ast.Import | ast.ImportFrom
) -> list[str]:
    """Our modules ``node`` imports (``from x import y`` names module x.y where it is one)."""
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            parts = module.split(".")[: None if is_package else -1]
            parts = parts[: len(parts) - node.level + 1]
            base = ".".join([*parts, *([node.module] if node.module else [])])
        names = [f"{base}.{alias.name}" for alias in node.names] if base else []
        names = [name if name in known else base for name in names]
    found = []
    for name in names:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name.startswith("scorekeeper") and name != module:
            found.append(name)
    return found


class _Imports(ast.NodeVisitor):
    def __init__(self, known: set[str], module: str, is_package: bool) -> None:
        self.known, self.module, self.is_package = known, module, is_package
        self.functions: list[str] = []
        self.edges: set[str] = set()
        self.in_functions: list[tuple[str, int, str]] = []

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.functions.append(node.name)
        self.generic_visit(node)
        self.functions.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Import(self, node: ast.Import | ast.ImportFrom) -> None:
        for target in _imported(self.known, self.module, self.is_package, node):
            self.edges.add(target)
            if self.functions:
                self.in_functions.append((self.functions[0], node.lineno, target))

    visit_ImportFrom = visit_Import


def _read_imports() -> dict[str, _Imports]:
    read = {}
    modules = _modules()
    for module, (path, is_package) in modules.items():
        visitor = _Imports(set(modules), module, is_package)
        visitor.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        read[module] = visitor
    return read


def test_no_import_of_our_own_modules_inside_a_function() -> None:
    found = [
        f"{module}:{line} ({function}) imports {target}"
        for module, imports in _read_imports().items()
        for function, line, target in imports.in_functions
        if (module, function) not in IMPORTS_IN_FUNCTIONS
    ]
    assert not found, "move these to the top of their modules, or the code where it belongs:\n" + (
        "\n".join(found)
    )


def test_no_import_circles() -> None:
    """No circle among our modules, imports inside functions counted. A blueprint package and
    the modules it loads to attach their routes and commands (``package/__init__.py`` importing
    ``package/views.py``, which imports ``bp`` back) are Flask's pattern, not a circle."""
    read = _read_imports()
    graph = {module: set(imports.edges) for module, imports in read.items()}
    for module, targets in graph.items():
        parent = module.rpartition(".")[0]
        if parent in targets and module in graph.get(parent, set()):
            targets.discard(parent)
    circles = []
    # Tarjan's strongly connected components: any of more than one module is a circle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph.get(module, ())):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == module:
                    break
            if len(component) > 1:
                circles.append(" <-> ".join(sorted(component)))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    assert not circles, "import circles:\n" + "\n".join(circles)


def test_import_contracts_are_kept() -> None:
    """The layers and the features' independence written in pyproject.toml ([tool.importlinter])."""
    result = subprocess.run(
        [tool("lint-imports")], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr


# --- scoping that cannot be forgotten ----------------------------------------------------------
#
# ``scope.py``'s hook scopes every ORM statement; what it cannot see (a read across households,
# a Core statement) is declared there: ``SERVER_WIDE_SITES`` and ``CORE_MODULES``. The tests
# below read every module with ``ast`` and hold the code to those lists, so a new escape fails
# here until scope.py names it and says why.

# Where ``household_id`` may be named: the scope itself, and the models that declare it.
NAMES_THE_HOUSEHOLD = {"scorekeeper.scope", "scorekeeper.models", "scorekeeper.derived"}


class _Scoping(ast.NodeVisitor):
    def __init__(self, module: str) -> None:
        self.module = module
        self.functions: list[str] = []
        self.server_wide: list[tuple[str, str, int]] = []
        self.escapes: list[str] = []
        self.tables: list[tuple[str, int]] = []
        self.by_hand: list[str] = []

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.functions.append(node.name)
        self.generic_visit(node)
        self.functions.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def _at(self, node: ast.AST) -> str:
        return f"{self.module}:{getattr(node, 'lineno', '?')}"

    def visit_Call(self, node: ast.Call) -> None:
        called = node.func
        name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
        if name == "server_wide":
            reason = node.args[0] if len(node.args) == 1 and not node.keywords else None
            if isinstance(reason, ast.Attribute) and ast.unparse(reason.value).endswith(
                "ServerWide"
            ):
                site = ".".join([self.module, *self.functions[:1]])
                self.server_wide.append((reason.attr, site, node.lineno))
            else:
                self.escapes.append(f"{self._at(node)} server_wide without a ServerWide reason")
        if name == "unscoped":
            self.escapes.append(f"{self._at(node)} unscoped(): use scope.server_wide(reason)")
        for keyword in node.keywords:
            if keyword.arg == "household_id":
                self.by_hand.append(f"{self._at(node)} household_id={ast.unparse(keyword.value)}")
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr == "__table__" and isinstance(node.value, ast.Name):
            self.tables.append((node.value.id, node.lineno))
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if node.value == "household_id":
            self.by_hand.append(f"{self._at(node)} the column's name, {node.value!r}")

    def visit_Compare(self, node: ast.Compare) -> None:
        for side in (node.left, *node.comparators):
            if not (isinstance(side, ast.Attribute) and side.attr == "household_id"):
                continue
            owner = side.value
            on_table = isinstance(owner, ast.Attribute) and owner.attr == "c"
            on_model = isinstance(owner, ast.Name) and owner.id[:1].isupper()
            if on_table or on_model:
                self.by_hand.append(f"{self._at(node)} {ast.unparse(node)}")
        self.generic_visit(node)


def _read_scoping() -> dict[str, _Scoping]:
    read = {}
    for module, (path, _) in _modules().items():
        visitor = _Scoping(module)
        visitor.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        read[module] = visitor
    return read


def test_every_server_wide_read_is_declared() -> None:
    """Every ``scope.server_wide(ServerWide.X)`` sits in a function ``SERVER_WIDE_SITES``
    lists under X, and every function listed there uses it: a new read across households needs
    a line in scope.py, and one removed takes its line with it. ``unscoped()`` is gone."""
    read = _read_scoping()
    escapes = [escape for visitor in read.values() for escape in visitor.escapes]
    assert not escapes, "\n".join(escapes)
    found: dict[str, set[str]] = {}
    for visitor in read.values():
        for reason, site, _ in visitor.server_wide:
            if site != "scorekeeper.scope.server_wide":
                found.setdefault(reason, set()).add(site)
    declared = {reason.name: set(sites) for reason, sites in scope.SERVER_WIDE_SITES.items()}
    assert found == declared, (
        "scope.SERVER_WIDE_SITES and the package differ: "
        f"used but not declared {_differ(found, declared)}, "
        f"declared but not used {_differ(declared, found)}"
    )
    assert set(scope.SERVER_WIDE_SITES) == set(scope.ServerWide), "a reason no code gives"


def _differ(one: dict[str, set[str]], other: dict[str, set[str]]) -> dict[str, set[str]]:
    return {
        reason: sites - other.get(reason, set())
        for reason, sites in one.items()
        if sites - other.get(reason, set())
    }


def test_core_statements_on_household_tables_are_declared() -> None:
    """A household-owned model's ``__table__`` (a Core statement, which the scope's hook does
    not see) is used only in the modules ``scope.CORE_MODULES`` names, each with how it is
    scoped; every module named there uses one."""
    owned = {
        name
        for name, value in {**vars(models), **vars(derived)}.items()
        if isinstance(value, type) and issubclass(value, models.HouseholdOwned)
    }
    using = {
        module: [f"{module}:{line} {name}.__table__" for name, line in visitor.tables]
        for module, visitor in _read_scoping().items()
        if module not in NAMES_THE_HOUSEHOLD
        for name, _ in visitor.tables
        if name in owned
    }
    undeclared = [uses for module, uses in using.items() if module not in scope.CORE_MODULES]
    assert not undeclared, (
        "Core statements on a household's tables outside scope.CORE_MODULES (use the ORM, or "
        f"declare the module there with how it is scoped): {undeclared}"
    )
    assert set(scope.CORE_MODULES) <= set(using), "scope.CORE_MODULES names a module no more"


def test_no_household_id_is_written_by_hand() -> None:
    """Outside scope.py and the models, no statement or row names ``household_id``: the ORM's
    are scoped and filled in by the hook, Core's through ``scope.for_household`` /
    ``for_writing`` (its ``owns`` and ``rows``). Reading a row's own household is fine."""
    found = [
        line
        for module, visitor in _read_scoping().items()
        if module not in NAMES_THE_HOUSEHOLD
        for line in visitor.by_hand
    ]
    assert not found, "name the household through scope.py instead:\n" + "\n".join(found)


def test_every_event_listener_is_installed_in_one_place() -> None:
    """SQLAlchemy listeners are registered by ``scorekeeper/hooks.py`` alone, which the factory
    calls: none at import time, none anywhere else, so that its list is everything a commit
    does besides the writes of the service."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "hooks.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("listen", "listens_for"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.attr}")
    assert not found, "register the listener in scorekeeper/hooks.py:\n" + "\n".join(found)


def test_translations_made_at_import_are_text() -> None:
    """Flask-Babel's lazy strings say they are HTML (``__html__``): a quote in a translation
    would end an attribute. Every module takes ``scorekeeper.text``'s, which are text."""
    wrong = []
    for path in sorted((ROOT / "scorekeeper").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("flask_babel"):
                names = {alias.name for alias in node.names}
                if names & {"lazy_gettext", "lazy_ngettext", "lazy_pgettext"}:
                    wrong.append(str(path.relative_to(ROOT)))
    assert wrong == []
