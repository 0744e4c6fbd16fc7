"""Where a returning player's first roll spends its time: the roller against the worker-alone floor.

    make build && .venv/bin/python benchmarks/first_roll_steps.py [--rate 4] [--runs 5]

Issue 41 item 3 measures the roller's warm + SW first roll (a second visit under the service
worker) against the ask page (the engine's worker and nothing else, ``benchmarks/start.py``). This
script takes the same two visits apart, run by run, on the page's own clock (ms from navigation
start): when the page made the engine's worker, when it told it to download (``fetch``) and to go,
when it sent the roll (``request``), when the worker said ready and when the answer arrived, and the
worker's own steps (its ``took``, counted from the worker's own start, ``worker at``). The roller's
end is its total on screen (start.py's WATCH_TOTAL); the ask page's is its answer. Which of the two
paths ends last, the page's (its first drawing, the field, the typed roll) or the engine's (ready),
is what a change must shorten. Served gzip-encoded, as start.py --gzip; ``--rate`` throttles the
page's main thread (CDP), never the worker (Chromium refuses).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from typing import Any

from playwright.sync_api import sync_playwright

from chromium import CHROMIUM, FLAGS
from kit.heap import wait_for_kept_heap
from start import TIMEOUT_MS, WATCH_TOTAL, Throttle, serve_the_roller_site, service_worker_ready
from waiting import roll_on_the_roller, until

# Before the page's scripts: what the page says to its engine worker and hears from it, when.
SPY = """
window.__spy = { made: [], posts: [], heard: [] };
const PageWorker = Worker;
window.Worker = class extends PageWorker {
  constructor(url, options) {
    super(url, options);
    if (!String(url).includes("engine-worker")) return; // not the search's
    __spy.made.push(performance.now());
    this.addEventListener("message", ({ data }) => __spy.heard.push(
      [performance.now(), data?.status ?? (data?.response ? "answer" : data?.pong ? "pong" : "?"), data?.took ?? null,
       data?.why ?? null]));
  }
  postMessage(message, ...rest) {
    const word = message?.request ? "request" : message?.go ? "go" : message?.fetch ? "fetch" : null;
    if (word) __spy.posts.push([performance.now(), word]);
    return super.postMessage(message, ...rest);
  }
};
"""


def visit(playwright: Any, url: str, kind: str, rate: float, roll_first: bool) -> dict[str, Any]:
    """One warm + SW visit of ``kind`` ("ask" or "roller") in a fresh profile whose first visit,
    to the roller, installed the service worker (and, with ``roll_first``, rolled once)."""
    with tempfile.TemporaryDirectory(prefix="rollbook-steps-") as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=FLAGS, viewport={"width": 390, "height": 844}, service_workers="allow")
        try:
            first = context.new_page()
            first.goto(url + "tools/roller/")
            service_worker_ready(first)
            if roll_first:  # the player rolled on that visit: the engine kept its heap (engine-worker.js)
                roll_on_the_roller(first, url, "1d6", TIMEOUT_MS)
                until(first, "() => document.querySelector('.rollbook-total__value') !== null", TIMEOUT_MS)
                wait_for_kept_heap(first, TIMEOUT_MS / 1000)
            first.close()
            page = context.new_page()
            page.wait_for_timeout(1500)  # the new tab's own start first (start.py's SETTLE_S)
            Throttle().apply(page, rate)
            page.add_init_script(SPY)
            if kind == "roller":
                page.add_init_script(WATCH_TOTAL)
                roll_on_the_roller(page, url, "3d6", TIMEOUT_MS)
                until(page, "() => window.__totals.length >= 1", TIMEOUT_MS)
                end = page.evaluate("window.__totals[0]")
            else:
                page.goto(url + "bench-ask.html")
                until(page, "() => window.__ready !== undefined", TIMEOUT_MS)
                end = page.evaluate("window.__ready")
            spy = page.evaluate("__spy")
            loaded = page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")
            origin = page.evaluate("performance.timeOrigin")
        finally:
            context.close()
    ready = next((heard for heard in spy["heard"] if heard[1] == "ready"), None)
    took = (ready[2] or {}) if ready else {}
    why = ready[3] if ready else None  # "cached, unpacked": restored from the kept heap
    posts: dict[str, int] = {}
    for at, word in spy["posts"]:
        posts.setdefault(word, round(at))
    return {"end": round(end), "DOMContentLoaded": round(loaded), "worker made": [round(at) for at in spy["made"]], **posts,
            "ready": round(ready[0]) if ready else None,
            "answer": next((round(at) for at, what, *_ in spy["heard"] if what == "answer"), None), "why": why,
            "worker at": round(took["origin"] - origin) if "origin" in took else None,
            "took": {step: ms for step, ms in took.items() if step != "origin"}}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rate", type=float, default=4)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-roll-first", dest="roll_first", action="store_false",
                        help="the first visit rolls nothing, so no unpacked snapshot is kept (as before 2026-12-07)")
    options = parser.parse_args(argv)
    if (served := serve_the_roller_site("first_roll_steps.py")) is None:
        return 1
    server, url = served
    ends: dict[str, list[int]] = {"ask": [], "roller": []}
    try:
        with sync_playwright() as playwright:
            for _ in range(options.runs):
                for kind in ("ask", "roller"):  # interleaved: a burst of load elsewhere hits both alike
                    row = visit(playwright, url, kind, options.rate, options.roll_first)
                    ends[kind].append(row["end"])
                    print(f"{kind:6} {json.dumps(row)}", flush=True)
    finally:
        server.shutdown()
    ask, roller = statistics.median(ends["ask"]), statistics.median(ends["roller"])
    print(f"median end: ask {ask:.0f} ms, roller {roller:.0f} ms, roller / ask {roller / ask:.2f} "
          f"(runs: {', '.join(f'{r / a:.2f}' for a, r in zip(ends['ask'], ends['roller']))})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
