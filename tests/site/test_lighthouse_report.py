"""``benchmarks/lighthouse.py``'s report: each failing audit once, with its value in every run that
failed it, and the lowest page's long tasks, so a miss says where the time went."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load_lighthouse() -> Any:
    sys.path.insert(0, str(BENCHMARKS))  # its own imports (readme_section) live there
    try:
        spec = importlib.util.spec_from_file_location("lighthouse_bench", BENCHMARKS / "lighthouse.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))


def run(performance: int, tbt: float, long_tasks: list[str], marks: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "scores": {"performance": performance, "accessibility": 100, "best-practices": 100, "seo": 100},
        "metrics": {"first-contentful-paint": 1400, "largest-contentful-paint": 1700, "total-blocking-time": tbt,
                    "cumulative-layout-shift": 0.001, "speed-index": 1400},
        "failing": [] if performance >= 95 else [
            {"category": "performance", "id": "total-blocking-time", "score": 0.5,
             "title": "Total Blocking Time", "value": f"{tbt:.0f} ms"}],
        "bootup": ["/bundle.js 600 ms"], "work": ["Style & Layout 800 ms"], "longTasks": long_tasks,
        "marks": list(marks),
    }


@pytest.mark.cpython_only
def test_a_miss_names_each_audit_once_with_every_runs_value_and_the_long_tasks() -> None:
    bench = load_lighthouse()
    results = {"tools/combat/": [run(92, 330, ["/bundle.js at 1982 ms: 284 ms"]), run(96, 200, []),
                                 run(89, 520, ["/tools/combat/ at 864 ms: 121 ms", "/widgets/element.js at 900 ms: 60 ms"])],
               "": [run(99, 70, []), run(99, 60, []), run(99, 80, [])]}
    report = bench.table(results, 3, "benchmarks/lighthouse.py --runs 3", (0.1, 1.0))
    assert "| `tools/combat/` | 92 ✗ |" in report and "| `/` | 99 |" in report
    assert "Total Blocking Time (2 of 3 runs: 330 ms, 520 ms)" in report
    assert report.count("Total Blocking Time (") == 1
    # the slowest run's long tasks (by total blocking time), not another run's
    assert "Its long tasks (4x CPU, simulated): /tools/combat/ at 864 ms: 121 ms; /widgets/element.js at 900 ms: 60 ms." in report
    assert "/bundle.js at 1982 ms" not in report


@pytest.mark.cpython_only
def test_the_site_marks_say_which_way_material_came_in_the_report_and_in_each_run() -> None:
    bench = load_lighthouse()
    results = {"tools/roller/": [run(90, 420, ["/bundle.js at 2216 ms: 467 ms"], ("Material at most at 3447 ms",)),
                                 run(99, 40, [], ("engine start over at 1161 ms",)), run(99, 30, [])]}
    report = bench.table(results, 3, "benchmarks/lighthouse.py --runs 3", (0.1, 1.0))
    assert "The site's marks (observed, unthrottled): Material at most at 3447 ms." in report
    each = bench.each_run(results).splitlines()
    assert each[0] == ("tools/roller/ run 1: Performance 90, TBT 420 ms; marks: Material at most at 3447 ms; "
                       "long tasks: /bundle.js at 2216 ms: 467 ms")
    assert each[2].startswith("tools/roller/ run 3: Performance 99, TBT 30 ms; marks: none")
    # with --tasks, each run's observed tasks under its line
    results["tools/roller/"][0]["observedTasks"] = ["430 ms: 62 ms (TimerFire 61, FunctionCall rollbook.js 61)"]
    each = bench.each_run(results, tasks=True).splitlines()
    assert each[1] == "    430 ms: 62 ms (TimerFire 61, FunctionCall rollbook.js 61)"
    assert each[2].startswith("tools/roller/ run 2:") and len(each) == 4
