"""Where the test suite's CPU goes (issue 40.5): the whole machine's busy CPU seconds around each
test (set-up, call and tear-down), read from /proc/stat, so a test's Chromium, its renderers and
its engine worker are counted with it. Run the tests in one process, alone on the machine:

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


def busy_seconds() -> float:
    """CPU seconds the machine has spent busy since boot (all cores: user, nice, system, irq...)."""
    user, nice, system, idle, iowait, irq, softirq, steal = map(int, Path("/proc/stat").read_text().split("\n")[0].split()[1:9])
    return (user + nice + system + irq + softirq + steal) / TICK


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    cpu, wall = busy_seconds(), time.monotonic()
    yield
    _rows.append({"test": item.nodeid, "cpu": round(busy_seconds() - cpu, 2), "wall": round(time.monotonic() - wall, 2)})


def pytest_sessionfinish(session: pytest.Session) -> None:
    OUT.write_text(json.dumps(_rows, indent=0))


def report(rows: list[dict[str, Any]], top: int = 30) -> str:
    lines = [f"{len(rows)} tests: {sum(r['cpu'] for r in rows):.0f} s of CPU in {sum(r['wall'] for r in rows):.0f} s",
             "", "CPU s   wall s  tests  file"]
    by_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    for row in rows:
        totals = by_file[row["test"].split("::")[0]]
        totals[0] += row["cpu"]
        totals[1] += row["wall"]
        totals[2] += 1
    for name, (cpu, wall, count) in sorted(by_file.items(), key=lambda kv: -kv[1][0]):
        lines.append(f"{cpu:6.1f}  {wall:6.1f}  {count:5d}  {name}")
    lines += ["", f"the {top} costliest tests", "CPU s   wall s  test"]
    for row in sorted(rows, key=lambda r: -r["cpu"])[:top]:
        lines.append(f"{row['cpu']:6.1f}  {row['wall']:6.1f}  {row['test']}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(json.loads(Path(sys.argv[1] if len(sys.argv) > 1 else OUT).read_text())))
