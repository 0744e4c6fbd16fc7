"""The Python half of the Node harness (run.mjs): runs INSIDE Pyodide, never on CPython.

Kept as a module rather than strings in JavaScript so it reads, and fails, like Python.
"""

from __future__ import annotations

import json
import sys
from typing import Any

ENGINE_SUITE = "tests/engine"


def engine_origin() -> str:
    """Where `rollbook` was imported from: it must be the site's wheel, not the source tree."""
    import rollbook

    return rollbook.__file__ or "?"


def stale_engine_files(tree: str) -> list[str]:
    """Engine files that differ between the loaded wheel and the tree at ``tree``: a site built
    before the engine was last edited would otherwise show up as puzzling corpus differences."""
    from pathlib import Path

    import rollbook

    def files(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*")
                if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc" and not p.name.startswith(".")}

    shipped, source = files(Path(rollbook.__file__).parent), files(Path(tree))
    return sorted(name for name in shipped.keys() | source.keys() if shipped.get(name) != source.get(name))


def unmet_requirements(distributions: list[str]) -> list[str]:
    """Requirements of the vendored wheels that the vendored wheels do not satisfy, evaluated
    with Pyodide's own environment markers (sys_platform emscripten, Python 3.14)."""
    from importlib.metadata import PackageNotFoundError, distribution, version

    from packaging.requirements import Requirement

    problems: list[str] = []
    for name in distributions:
        for text in distribution(name).requires or []:
            requirement = Requirement(text)
            if requirement.marker and not requirement.marker.evaluate({"extra": ""}):
                continue
            try:
                found = version(requirement.name)
            except PackageNotFoundError:
                problems.append(f"{name} needs {requirement}, which is not in tests/pyodide/requirements.txt")
                continue
            if not requirement.specifier.contains(found, prereleases=True):
                problems.append(f"{name} needs {requirement}, but requirements.txt pins {requirement.name} {found}")
    return problems


class Tally:
    """A pytest plugin that keeps the outcome counts, including what `-m` deselected and why."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.cpython_only: list[str] = []
        self.other_deselected = 0

    def pytest_deselected(self, items: list[Any]) -> None:
        for item in items:
            if item.get_closest_marker("cpython_only") is not None:
                self.cpython_only.append(item.nodeid)
            else:
                self.other_deselected += 1

    def pytest_sessionfinish(self, session: Any) -> None:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        for key in ("passed", "failed", "skipped", "xfailed", "xpassed", "error"):
            self.counts[key] = len(reporter.stats.get(key, []))  # a passing setup/teardown is not counted


def run_engine_suite(extra_args: list[str]) -> str:
    """Run the engine's pytest suite here; return the tally as JSON (exit code included)."""
    import pytest

    sys.dont_write_bytecode = True  # the tests are mounted from the real tree: leave no __pycache__
    tally = Tally()
    args = [
        ENGINE_SUITE,
        "-m", "not cpython_only",
        "-p", "no:cacheprovider",  # no .pytest_cache written into the mounted tree
        "--confcutdir", ENGINE_SUITE,  # tests/conftest.py may serve the site and browser tests
        "-q",
        *extra_args,
    ]
    code = int(pytest.main(args, plugins=[tally]))
    c = tally.counts
    return json.dumps({
        "exit_code": code,
        "ran": c.get("passed", 0) + c.get("failed", 0) + c.get("xfailed", 0) + c.get("xpassed", 0),
        "passed": c.get("passed", 0),
        "failed": c.get("failed", 0),
        "errors": c.get("error", 0),
        "skipped": c.get("skipped", 0),
        "xfailed": c.get("xfailed", 0),
        "deselected_cpython_only": len(tally.cpython_only),
        "cpython_only": tally.cpython_only,
        "deselected_other": tally.other_deselected,
    })
