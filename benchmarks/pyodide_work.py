"""The engine work timed on both runtimes by benchmarks/pyodide.mjs: CPython runs this file as a
script, Pyodide imports it. Standard library only (it runs inside Pyodide).

Each item is one request through ``rollbook.api.call_json`` - the very path a widget takes - so
the numbers include JSON in and out. Then the dice library alone: the rows of
``benchmarks/dice.py``'s ``engine_timings()`` (rolls, and distributions computed cold).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from typing import Any

# (label, request): seeded, so both runtimes do exactly the same work.
WORK: list[tuple[str, dict[str, Any]]] = [
    ("roll 3d6+2", {"command": "roll", "args": {"expression": "3d6+2", "seed": 1}}),
    ("roll 4d6kh3", {"command": "roll", "args": {"expression": "4d6kh3", "seed": 1}}),
    ("roll 10d10", {"command": "roll", "args": {"expression": "10d10", "seed": 1}}),
    ("roll d20oe", {"command": "roll", "args": {"expression": "d20oe", "seed": 1}}),
    ("prob 3d6", {"command": "prob", "args": {"expression": "3d6"}}),
    ("prob 4d6kh3", {"command": "prob", "args": {"expression": "4d6kh3"}}),
    ("prob 10d10", {"command": "prob", "args": {"expression": "10d10"}}),
    ("prob d20oe", {"command": "prob", "args": {"expression": "d20oe"}}),
    ("opencore character", {"command": "opencore character", "args": {"seed": 1}}),
    ("opencore crit slash 95", {"command": "opencore crit", "args": {"type": "slash", "roll": 95}}),
    ("codex check", {"command": "codex check", "args": {"modifier": 5, "dc": 15, "seed": 1}}),
    ("rejected request", {"command": "roll", "args": {"expression": "2d"}}),
]
BUDGET_SECONDS = 0.25  # per item and repeat: enough calls to rise above timer noise
REPEATS = 5


def time_request(request: dict[str, Any]) -> float:
    """Median seconds per call over REPEATS batches."""
    from rollbook.api import call_json

    text = json.dumps(request)
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < BUDGET_SECONDS / 5:  # calibrate the batch size
        call_json(text)
        calls += 1
    batch = max(1, int(calls * 5))
    samples = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for _ in range(batch):
            call_json(text)
        samples.append((time.perf_counter() - start) / batch)
    return statistics.median(samples)


def timings() -> str:
    """JSON list of {label, seconds, ok}; `ok` false means the engine rejected the request
    (a command not written yet shows as rejected, and is still timed: the error path)."""
    from rollbook.api import call_json

    rows = []
    for label, request in WORK:
        ok = json.loads(call_json(json.dumps(request)))["ok"]
        rows.append({"label": label, "seconds": time_request(request), "ok": ok})
    try:
        from dice import engine_timings  # benchmarks/dice.py, when it exists and imports here
    except ImportError:
        pass
    else:
        rows += _dice_rows(engine_timings())
    return json.dumps({"python": sys.version.split()[0], "platform": sys.platform, "rows": rows})


def _dice_rows(found: dict[str, Any]) -> list[dict[str, Any]]:
    """The dice engine's own timings (benchmarks/dice.py: engine_timings), the dice library alone."""
    rows = []
    for expression, t in found["rolls"].items():
        rows.append({"label": f"dice.py: roll({expression!r})", "seconds": t["roll_us"] / 1e6, "ok": True})
        rows.append({"label": f"dice.py: roll({expression!r}).text", "seconds": t["roll_text_us"] / 1e6, "ok": True})
    for expression, t in found["distributions"].items():
        rows.append({"label": f"dice.py: distribution({expression!r}), cold", "seconds": t["cold_ms"] / 1e3, "ok": True})
    return rows


if __name__ == "__main__":
    print(timings())
