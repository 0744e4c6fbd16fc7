"""Where the test suite's CPU goes (issue 40.5): the whole machine's busy CPU seconds around each
test (set-up, call and tear-down), read from /proc/stat, so a test's Chromium, its renderers and
its engine worker are counted with it; and the engines each test starts (a page's worker on
engine-worker.js, about 0.9 s of CPU each in the returning phone). Run the tests in one process,
alone on the machine:

    PYTHONPATH=benchmarks ROLLBOOK_SITE=site .venv/bin/python -m pytest -q -p no:xdist \\
        -p suite_cpu tests/browser                   # writes suite-cpu.json (SUITE_CPU_OUT)
    .venv/bin/python benchmarks/suite_cpu.py suite-cpu.json   # by file, then the costliest tests

Linux only (/proc/stat); anything else running on the machine is counted too.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TICK = os.sysconf("SC_CLK_TCK")
OUT = Path(os.environ.get("SUITE_CPU_OUT", "suite-cpu.json"))
_rows: list[dict[str, Any]] = []
_engines = {"started": 0}


def _watching(page: Any) -> Any:
    """`page`, its engine workers counted as they start."""
    page.on("worker", lambda worker: _engines.__setitem__("started", _engines["started"] + ("engine-worker" in worker.url)))
    return page


def pytest_configure(config: pytest.Config) -> None:
    """Every page a test opens (new_page of a context or a browser) has its workers counted (pages a
    context opens by itself, as a persistent profile's first tab, are not: they start no engine)."""
    from playwright.sync_api._generated import Browser, BrowserContext

    for kind in (Browser, BrowserContext):
        opened = kind.new_page
        kind.new_page = lambda self, *args, _opened=opened, **kwargs: _watching(_opened(self, *args, **kwargs))  # type: ignore[method-assign]


def busy_seconds() -> float:
    """CPU seconds the machine has spent busy since boot (all cores: user, nice, system, irq...)."""
    user, nice, system, idle, iowait, irq, softirq, steal = map(int, Path("/proc/stat").read_text().split("\n")[0].split()[1:9])
    return (user + nice + system + irq + softirq + steal) / TICK


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    cpu, wall, engines = busy_seconds(), time.monotonic(), _engines["started"]
    yield
    _rows.append({"test": item.nodeid, "cpu": round(busy_seconds() - cpu, 2), "wall": round(time.monotonic() - wall, 2),
                  "engines": _engines["started"] - engines})


def pytest_sessionfinish(session: pytest.Session) -> None:
    OUT.write_text(json.dumps(_rows, indent=0))


def report(rows: list[dict[str, Any]], top: int = 30) -> str:
    engines = lambda row: row.get("engines", 0)  # noqa: E731  (a record written before engines were counted has none)
    lines = [f"{len(rows)} tests: {sum(r['cpu'] for r in rows):.0f} s of CPU in {sum(r['wall'] for r in rows):.0f} s,"
             f" {sum(engines(r) for r in rows)} engines started",
             "", "CPU s   wall s  tests  engines  file"]
    by_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0, 0])
    for row in rows:
        totals = by_file[row["test"].split("::")[0]]
        totals[0] += row["cpu"]
        totals[1] += row["wall"]
        totals[2] += 1
        totals[3] += engines(row)
    for name, (cpu, wall, count, started) in sorted(by_file.items(), key=lambda kv: -kv[1][0]):
        lines.append(f"{cpu:6.1f}  {wall:6.1f}  {count:5d}  {started:7d}  {name}")
    lines += ["", f"the {top} costliest tests", "CPU s   wall s  engines  test"]
    for row in sorted(rows, key=lambda r: -r["cpu"])[:top]:
        lines.append(f"{row['cpu']:6.1f}  {row['wall']:6.1f}  {engines(row):7d}  {row['test']}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(json.loads(Path(sys.argv[1] if len(sys.argv) > 1 else OUT).read_text())))
