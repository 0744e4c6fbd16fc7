"""The engine's unpacked snapshot kept on the device, against unpacking the packed one at each visit.

    make build && .venv/bin/python benchmarks/kept_heap.py [--runs 6] [--rate 1]

A returning phone (a Chromium profile on disk: the HTTP cache and the compiled code warm, service
workers blocked) visits ``tools/roller/`` and rolls ``3d6``, N times each way, interleaved:

* **kept**: the heap the engine kept after an earlier answer (widgets/engine-worker.js keepHeap),
  read from Cache Storage and checked against the build's SHA-256;
* **unpacked** (the baseline): the site's caches emptied before the visit, so the worker unpacks
  the packed snapshot (7 MB of gzip, 31 MB of heap), as every returning visit did before 2026-12-07.

Each visit reports the CPU of the whole browser from the visit's start to the total on screen
(``benchmarks/cpu.py``: a dropped page's process takes its time with it, so the page is closed only
after), the worker's clock when its engine was ready, and the page's clock at the total. After each
visit the page waits until a heap is kept again, outside the measure. ``--rate`` throttles the
page's main thread (CDP; Chromium refuses it for workers). Prints the medians and kept / unpacked.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from typing import Any

from playwright.sync_api import sync_playwright

from chromium import CHROMIUM, FLAGS
from cpu import BrowserCPU
from kit.heap import wait_for_kept_heap
from start import TIMEOUT_MS, WATCH_TOTAL, Throttle, serve_the_roller_site
from waiting import roll_on_the_roller, until

EMPTY_CACHES = "async () => { for (const name of await caches.keys()) await caches.delete(name); }"
ENGINE_STATUS = """async () => {
  const entry = [...document.scripts].find((script) => script.src.endsWith("/widgets/rollbook.js")).src;
  return (await import(new URL("engine.js", entry).href)).engineStatus();
}"""


def visit(context: Any, cpu: BrowserCPU, url: str, kept: bool, rate: float) -> dict[str, Any]:
    """One visit of the roller and its first roll; the heap kept again afterwards."""
    page = context.new_page()
    if not kept:
        page.goto(url + "sitemap.xml")
        page.evaluate(EMPTY_CACHES)
    Throttle().apply(page, rate)
    page.add_init_script(WATCH_TOTAL)
    before = cpu.seconds()
    roll_on_the_roller(page, url, "3d6", TIMEOUT_MS)
    until(page, "() => window.__totals.length >= 1", TIMEOUT_MS)
    seconds = cpu.seconds() - before
    status = page.evaluate(ENGINE_STATUS)
    row = {"cpu": seconds, "total": page.evaluate("window.__totals[0]"), "ready": status["took"].get("engine"),
           "why": status["why"]}
    if status["via"] == "snapshot":  # (a fresh start has no heap to keep)
        wait_for_kept_heap(page, TIMEOUT_MS / 1000)
    page.close()
    return row


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--rate", type=float, default=1)
    options = parser.parse_args(argv)
    if (served := serve_the_roller_site("kept_heap.py")) is None:
        return 1
    server, url = served
    rows: dict[str, list[dict[str, Any]]] = {"kept": [], "unpacked": []}
    try:
        with sync_playwright() as playwright, tempfile.TemporaryDirectory(prefix="rollbook-heap-") as profile:
            context = playwright.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=FLAGS, viewport={"width": 390, "height": 844},
                has_touch=True, is_mobile=True, service_workers="block")
            cpu = BrowserCPU.find(profile)
            if cpu is None:
                print("kept_heap.py: the browser's CPU cannot be read here (Linux's /proc only)", file=sys.stderr)
                return 1
            try:
                # warm: the HTTP cache, the compiled code, a heap kept (a first visit whose link was
                # measured slow starts afresh and keeps none: the next one restores and keeps it)
                for warming in range(4):
                    if visit(context, cpu, url, True, 1)["why"] == "cached, unpacked" and warming:
                        break
                for _ in range(options.runs):
                    for way in ("kept", "unpacked"):  # interleaved: a burst of load elsewhere hits both alike
                        row = visit(context, cpu, url, way == "kept", options.rate)
                        rows[way].append(row)
                        print(f"{way:9} CPU {row['cpu']:.2f} s, engine ready at {row['ready']} ms of the worker's clock, "
                              f"total at {row['total']:.0f} ms ({row['why']})", flush=True)
            finally:
                context.close()
    finally:
        server.shutdown()
    expected = {"kept": "cached, unpacked", "unpacked": "cached"}
    for way, want in expected.items():
        if any(row["why"] != want for row in rows[way]):
            print(f"kept_heap.py: a {way} visit did not start as meant ({want}): see above", file=sys.stderr)
            return 1
    median = {way: {key: statistics.median(row[key] for row in rows[way]) for key in ("cpu", "ready", "total")}
              for way in rows}
    kept, unpacked = median["kept"], median["unpacked"]
    print(f"median of {options.runs} at {options.rate:g}x: CPU kept {kept['cpu']:.2f} s, unpacked {unpacked['cpu']:.2f} s, "
          f"kept / unpacked {kept['cpu'] / unpacked['cpu']:.2f}; engine ready {kept['ready']:.0f} vs {unpacked['ready']:.0f} ms; "
          f"total on screen {kept['total']:.0f} vs {unpacked['total']:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
