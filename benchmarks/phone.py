"""Phone-class check (issue 21): the first answer, a tap to its total and an encounter step, with the
whole browser pinned to one core, next to the same at full CPU, in one run.

    make build && .venv/bin/python benchmarks/phone.py [--runs N] [--taps N] [--write-readme]

DevTools' CPU throttling slows only the page's main thread, never the engine's worker, so it
flatters a phone. Pinning Chromium to one core (``taskset -c 0``, every process and thread of it)
slows the worker, Material's search worker and the page alike, as a low-end phone's few slow
cores do. For each CPU (all cores, then one), in the system headless Chromium from the built site
on localhost, each the median of N runs:

* floor: the worker alone, the one-line ``ask()`` page of ``benchmarks/start.py`` (the engine's
  worker and nothing else on the page), until its first answer;
* bare worker: a page whose module worker only calls ``loadPyodide()`` (cold: the baseline of
  "cold <= 0.5 of bare");
* roller: ``tools/roller/``, ``3d6`` and Enter as soon as the field exists, until the total shows;
  its ratio to the floor is goal 3's "within 1.25x of the worker-alone floor";
* tap to total: once the engine is ready, Enter to the new total on screen (median of ``--taps``);
* encounter step: ``tools/encounter/`` with two typical foes, "Next turn" (or "Roll initiative",
  "Next round") to the step drawn (median of ``--taps``).

Cold = a fresh profile on disk (empty caches; service workers blocked, so the second visit is the
HTTP cache's); warm = the second visit in it. Each tab waits ``SETTLE_S`` after it opens, before it
navigates (Chromium's own omnibox page loads in every new tab). Times are the page's own clock;
next to them, the CPU time the whole browser spent on each visit (``benchmarks/cpu.py``, on Linux),
which tells the browser's own work from the machine's other load. ``--write-readme``
replaces the "Phone-class check" section of benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from playwright.sync_api import BrowserContext, Page, Playwright, sync_playwright

from chromium import CHROMIUM, FLAGS, one_core_chromium, present
from cpu import BrowserCPU
from readme_section import write_section  # benchmarks/ is on sys.path when run as a script
from served import serve
from start import META, SITE, TIMEOUT_MS, pages
from waiting import roll_on_the_roller, until

START, END = "<!-- phone-bench:start -->", "<!-- phone-bench:end -->"

WATCH = """
window.__totals = [];
window.__steps = [];
new MutationObserver(() => {
  const total = document.querySelector(".rollbook-total__value") && document.querySelector(".rollbook-breakdown");
  const text = total ? total.textContent : null;
  if (text !== null && text !== window.__lastTotal) { window.__lastTotal = text; window.__totals.push(performance.now()); }
  const undo = document.querySelector(".rollbook-encounter__undo")?.textContent ?? null;
  if (undo !== window.__lastUndo) { window.__lastUndo = undo; window.__steps.push(performance.now()); }
}).observe(document, { subtree: true, childList: true, characterData: true });
document.addEventListener("keydown", (e) => { if (e.key === "Enter") window.__tapAt = performance.now(); }, true);
document.addEventListener("pointerdown", () => { window.__tapAt = performance.now(); }, true);
"""


# A new tab in Chromium 156's headless mode loads the browser's own omnibox page (a "WebUI Top
# Renderer": ~300 ms of CPU and ~300 requests, none of them the site's) while the first page
# starts; on one core it took that time from whatever page was measured. Each measured page
# waits for it to finish first (traced 2026-12-03; no switch turns it off).
SETTLE_S = 1.5


def ready(page: Page, url: str) -> float:
    page.goto(url)
    until(page, "() => window.__ready !== undefined", TIMEOUT_MS)
    value = page.evaluate("window.__ready")
    if value < 0:
        raise RuntimeError(f"{url}: the engine answered with an error")
    return float(value) / 1000


def roller(page: Page, url: str, taps: int) -> tuple[float, list[float]]:
    roll_on_the_roller(page, url, "3d6", TIMEOUT_MS)
    field = page.get_by_label("Dice expression")
    until(page, "() => window.__totals.length >= 1", TIMEOUT_MS)
    first = page.evaluate("window.__totals[0]") / 1000
    answers = []
    for n in range(taps):
        before = page.evaluate("window.__totals.length")
        field.fill(f"{n + 2}d6+1")  # a new breakdown every time
        field.press("Enter")
        until(page, f"() => window.__totals.length > {before}", TIMEOUT_MS)
        answers.append(page.evaluate("window.__totals[window.__totals.length - 1] - window.__tapAt"))
    return first, answers


def encounter(page: Page, url: str, taps: int) -> list[float]:
    if taps > 17:
        raise SystemExit("phone.py: --taps at most 17 (the encounter's Undo counts to 20)")
    page.goto(url + "tools/encounter/")
    widget = page.locator("rollbook-encounter")
    widget.get_by_role("button", name="Start the encounter").click()
    # Each step is known by the Undo button's count: waiting for "any change" could be met by the
    # tracker's first drawing or a step's late change, and time the wrong step (2026-12-03: negative
    # medians).
    undo = "() => window.__lastUndo === %s"
    until(page, undo % json.dumps("Undo"), TIMEOUT_MS)
    for foe in (1, 2):
        widget.get_by_role("button", name="A typical foe").click()
        until(page, undo % json.dumps(f"Undo ({foe})"), TIMEOUT_MS)
    times = []
    for tap in range(taps):
        widget.locator(".rollbook-encounter__next").click()
        until(page, undo % json.dumps(f"Undo ({3 + tap})"), TIMEOUT_MS)  # the time it became so: the last change
        times.append(page.evaluate("window.__steps[window.__steps.length - 1] - window.__tapAt"))
    return times


def profile(playwright: Playwright, executable: str, profiles: str) -> tuple[BrowserContext, BrowserCPU | None]:
    """A fresh phone-sized browser profile on disk (in ``profiles``), service workers blocked, the
    page's totals and steps timed (WATCH); with its browser's CPU clock where there is one."""
    folder = tempfile.mkdtemp(dir=profiles)
    ctx = playwright.chromium.launch_persistent_context(
        folder, executable_path=executable, args=FLAGS, viewport={"width": 390, "height": 844},
        service_workers="block")
    ctx.add_init_script(WATCH)
    return ctx, BrowserCPU.find(folder)


Visit = tuple[float, float | None]  # seconds to the answer on the page's clock; the browser's CPU seconds


def cold_and_warm(playwright: Playwright, executable: str, profiles: str,
                  visit: Callable[[Page], float]) -> tuple[Visit, Visit]:
    """``visit`` in a fresh profile (cold), then again in it (warm: the HTTP cache's), each in a new
    tab that has settled first; each with the CPU time the whole browser spent on it."""
    ctx, cpu = profile(playwright, executable, profiles)
    visits = []
    for _ in ("cold", "warm"):
        page = ctx.new_page()
        time.sleep(SETTLE_S)
        before = cpu.seconds() if cpu else 0.0
        seconds = visit(page)
        visits.append((seconds, cpu.seconds() - before if cpu else None))
        page.close()
    ctx.close()
    return visits[0], visits[1]


def measure(executable: str, url: str, runs: int, taps: int, progress: Callable[[str], None]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with sync_playwright() as playwright, tempfile.TemporaryDirectory(prefix="rollbook-phone-") as profiles:
        samples: dict[str, list[float]] = {}
        cpu: dict[str, list[float]] = {}
        kinds: dict[str, Callable[[Page], float]] = {
            "floor": lambda page: ready(page, url + "bench-ask.html"),
            "bare": lambda page: ready(page, url + "bench-bare-worker.html"),
            "roller": lambda page: roller(page, url, 0)[0],
        }
        for _ in range(runs):
            for kind, run in kinds.items():  # interleaved: a burst of load elsewhere hits every kind alike
                visits = cold_and_warm(playwright, executable, profiles, run)
                for start, (seconds, cpu_seconds) in zip(("cold", "warm"), visits):
                    samples.setdefault(f"{kind} {start}", []).append(seconds)
                    if cpu_seconds is not None:
                        cpu.setdefault(f"{kind} {start}", []).append(cpu_seconds)
        out = {key: statistics.median(values) for key, values in samples.items()}
        out["runs"] = samples
        out["cpu"] = cpu
        progress(", ".join(f"{key} {[round(v, 2) for v in values]}" for key, values in samples.items()))
        if cpu:
            progress("CPU " + ", ".join(f"{key} {[round(v, 2) for v in values]}" for key, values in cpu.items()))
        ctx, _ = profile(playwright, executable, profiles)
        out["tap"] = roller(ctx.new_page(), url, taps)[1]
        out["step"] = encounter(ctx.new_page(), url, taps)
        ctx.close()
    return out


def section(results: dict[str, dict[str, Any]], runs: int, taps: int, load: tuple[float, float]) -> str:
    lines = [f"Recorded {datetime.date.today().isoformat()} on {platform.machine()}, {os.cpu_count()} cores, load "
             f"average {load[0]:.1f} before and {load[1]:.1f} after (`.venv/bin/python benchmarks/phone.py --runs {runs} "
             f"--taps {taps}`): headless Chromium, median of {runs} runs; seconds from navigation start on the "
             "page's own clock. One core = the whole browser under `taskset -c 0`. Each run visits the floor, the "
             "bare worker and the roller in turn, so a run's own ratio is the roller against the floor of the same "
             "minute: the last column gives their median and range, which the machine's drift moves less than "
             "the ratio of the medians.", "",
             "| CPU | start | floor (worker alone) | bare worker | roller: first roll | roller / floor | roller / bare "
             "| roller / floor, each run: median (range) |",
             "|---|---|---:|---:|---:|---:|---:|---|"]
    for cpu, out in results.items():
        for start in ("cold", "warm"):
            floor, bare, first = out[f"floor {start}"], out[f"bare {start}"], out[f"roller {start}"]
            paired = [r / f for r, f in zip(out["runs"][f"roller {start}"], out["runs"][f"floor {start}"])]
            lines.append(f"| {cpu} | {start} | {floor:.2f} s | {bare:.2f} s | {first:.2f} s | {first / floor:.2f} | "
                         f"{first / bare:.2f} | {statistics.median(paired):.2f} ({min(paired):.2f}–{max(paired):.2f}) |")
    if all(out["cpu"] for out in results.values()):
        lines += ["", "The same visits counted in CPU time: every thread of every Chromium process, from just "
                  "before the navigation to the answer seen (`benchmarks/cpu.py`, the kernel's clock of each "
                  "thread; medians). It is the browser's own work, whatever else the machine ran: on one "
                  "core, where nothing overlaps, it is close to the wall time above when the browser never "
                  "waits, and a run's spread is then the browser's own.", "",
                  "| CPU | start | floor | roller | roller / floor | roller / floor, each run: median (range) |",
                  "|---|---|---:|---:|---:|---|"]
        for cpu, out in results.items():
            for start in ("cold", "warm"):
                floors, rollers = out["cpu"][f"floor {start}"], out["cpu"][f"roller {start}"]
                floor, first = statistics.median(floors), statistics.median(rollers)
                paired = [r / f for r, f in zip(rollers, floors)]
                lines.append(f"| {cpu} | {start} | {floor:.2f} s | {first:.2f} s | {first / floor:.2f} | "
                             f"{statistics.median(paired):.2f} ({min(paired):.2f}–{max(paired):.2f}) |")
    lines += ["", "Once the engine is ready (ms from the tap to what it changed on screen):", "",
              "| CPU | tap to total: median | worst | encounter step: median | worst | taps each |",
              "|---|---:|---:|---:|---:|---:|"]
    for cpu, out in results.items():
        lines.append(f"| {cpu} | {statistics.median(out['tap']):.1f} ms | {max(out['tap']):.1f} ms | "
                     f"{statistics.median(out['step']):.1f} ms | {max(out['step']):.1f} ms | {taps} |")
    lines += ["", "Targets (issue 21): roller warm within 1.25× of the floor, at full CPU and on one core; cold "
              "≤ 0.5 of the bare worker; a tap to its total ≤ 50 ms median on one core."]
    return "\n".join(lines)


def report(cpu: str, line: str) -> None:
    print(f"{cpu}: {line}", file=sys.stderr)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--taps", type=int, default=12)
    parser.add_argument("--write-readme", action="store_true")
    options = parser.parse_args(argv)
    if not present("phone.py"):
        return 1
    html = (SITE / "tools" / "roller" / "index.html").read_text(encoding="utf-8") if SITE.is_dir() else ""
    found = META.search(html)
    if found is None:
        print(f"benchmarks: {SITE} holds no built site: run `make build` first", file=sys.stderr)
        return 1
    load_before = os.getloadavg()[0]
    results: dict[str, dict[str, Any]] = {}
    server, url = serve(SITE, pages(found[1]))
    try:
        with tempfile.TemporaryDirectory() as folder:
            for cpu, executable in (("all cores", CHROMIUM), ("one core", one_core_chromium(Path(folder)))):
                results[cpu] = measure(executable, url, options.runs, options.taps, functools.partial(report, cpu))
    finally:
        server.shutdown()
    text = section(results, options.runs, options.taps, (load_before, os.getloadavg()[0]))
    print(text)
    if options.write_readme:
        write_section(START, END, text, heading="## Phone-class check: one core")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
