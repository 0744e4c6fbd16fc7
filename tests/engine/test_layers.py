"""The engine's layers: every module imports only from its own layer or the ones below it.

A rule lives in ``systems/`` and reads the tables and rulings below it; the encounter plays the
rules turn by turn; a command adapts a request's arguments and shapes the answer; the API and the
CLI serve the commands. An import the other way (a rule reaching into a command, the tables into
the rules) ties a lower layer to a higher one's shape and is refused here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import rollbook

pytestmark = pytest.mark.cpython_only  # reads the package's source files

PACKAGE = Path(rollbook.__file__).parent

# Lowest first; a module may import from its own layer and the ones below. "name.*" is a package
# with every module in it; a plain name is that one module.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("foundation", ("rollbook", "rollbook.errors", "rollbook.rule_sets")),
    ("dice", ("rollbook.dice.*",)),
    ("data", ("rollbook.tables", "rollbook.rulings")),
    ("systems", ("rollbook.systems.*",)),
    ("encounter", ("rollbook.encounter.*",)),
    ("commands", ("rollbook.commands.*",)),
    ("faces", ("rollbook.api", "rollbook.cli", "rollbook.__main__", "rollbook.facts")),
)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> int:
    """The index of ``module``'s layer in LAYERS; -1 when no layer names it."""
    for index, (_, names) in enumerate(LAYERS):
        for name in names:
            package = name.removesuffix(".*")
            if module == package or (name.endswith(".*") and module.startswith(package + ".")):
                return index
    return -1


def imported(module: str, *, top_level_only: bool = False) -> set[str]:
    """The rollbook modules ``module`` imports (``from rollbook.systems import opencore`` is the
    module ``rollbook.systems.opencore``; ``from rollbook.systems import RULE_SETS`` the package)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from . import x, from ..tables import y
                anchor = package.split(".")
                base = ".".join(anchor[:len(anchor) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                out.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    return {name for name in out if name == "rollbook" or name.startswith("rollbook.")}


def test_every_module_has_a_layer() -> None:
    assert [module for module in MODULES if layer_of(module) < 0] == []


# Upward imports still to undo, each by a change of its own; none may be added.
KNOWN_UPWARD: set[tuple[str, str]] = set()


def test_no_module_imports_from_a_higher_layer() -> None:
    upward = [f"{module} ({LAYERS[layer_of(module)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})"
              for module in MODULES for target in sorted(imported(module))
              if layer_of(target) > layer_of(module) and (module, target) not in KNOWN_UPWARD]
    assert upward == [], "\n".join(upward)


def test_no_import_cycle_outside_the_dice_package() -> None:
    """Modules loaded at import time form no cycle (a cycle works only by the order of its lines).
    The dice package is left out: its own helper owns its inner shape."""
    graph = {module: {target for target in imported(module, top_level_only=True) if target != module}
             for module in MODULES if not module.startswith("rollbook.dice")}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done

    def walk(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                cycles.append(path[path.index(target):] + [target])
            elif target in graph and target not in state:
                walk(target, path + [target])
        state[module] = 2

    for module in graph:
        if module not in state:
            walk(module, [module])
    assert cycles == [], "\n".join(" -> ".join(cycle) for cycle in cycles)


def test_the_check_sees_an_upward_import() -> None:
    """The test itself: a rule importing a command is one it reports."""
    assert layer_of("rollbook.systems.opencore") < layer_of("rollbook.commands.opencore")
    assert layer_of("rollbook.tables") < layer_of("rollbook.systems")
    assert layer_of("rollbook.rule_sets") < layer_of("rollbook.tables")
    assert layer_of("rollbook.commandsx") == -1  # a name that merely starts alike is not in the layer
    assert layer_of("rollbook.somewhere") == -1  # nor is every module under the root
