"""The dice roller in a real headless Chromium against bare Pyodide pages, in one run.

    make build && .venv/bin/python benchmarks/widgets.py [--runs N] [--write-readme]

Measured, each as the median of N runs, cold (a fresh browser context: empty HTTP cache) and warm
(the same context, second visit), at 1x and 4x CPU throttling (CDP Emulation.setCPUThrottlingRate):

* roller: open ``tools/roller/``, type ``3d6`` and press Enter as soon as the field exists (the
  tap waits for the engine), until the total is on screen;
* bare, main thread: a page that only calls ``loadPyodide()`` from the same files, until ready;
* bare, worker: a page whose module worker only calls ``loadPyodide()``, until it says ready;
* tap -> answer: once the engine is ready, from the Enter key to the new total on screen.

Times are the page's own clock (``performance.now()``, from navigation start). DevTools throttling
slows the page's main thread only, not its workers (CDP refuses it on a worker target), so at 4x
the worker pages and the roller's engine run at full speed: the 4x rows measure a slow main thread
(the page's own work), not a slow phone. ``--write-readme`` replaces the "Widgets in Chromium"
section of benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import statistics
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

from chromium import CHROMIUM, FLAGS, present
from readme_section import write_section  # benchmarks/ is on sys.path when run as a script
from served import serve
from waiting import roll_on_the_roller, until

ROOT = Path(__file__).resolve().parents[1]
SITE = Path(os.environ.get("ROLLBOOK_SITE", ROOT / "site"))
START, END = "<!-- widgets-bench:start -->", "<!-- widgets-bench:end -->"
TIMEOUT_MS = 120_000

# The bare pages, served from the site's root so they load the very same runtime files.
BARE_MAIN = """<!doctype html><meta charset="utf-8"><title>bare main</title><script type="module">
const { loadPyodide } = await import("./pyodide/pyodide.mjs");
await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });
window.__ready = performance.now();
</script>"""
BARE_WORKER_PAGE = """<!doctype html><meta charset="utf-8"><title>bare worker</title><script type="module">
const worker = new Worker("./bench-bare-worker.js", { type: "module" });
worker.onmessage = () => { window.__ready = performance.now(); };
</script>"""
BARE_WORKER = """const { loadPyodide } = await import("./pyodide/pyodide.mjs");
await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href });
postMessage("ready");"""
# The runtime's versioned folder, as the built pages name it (hooks/pyodide_bundle.py).
_NAMED = re.search(r'<meta name="rollbook-engine" content="(pyodide/[0-9a-f]{16}/)">',
                   (SITE / "index.html").read_text(encoding="utf-8") if (SITE / "index.html").is_file() else "")
FOLDER = _NAMED[1] if _NAMED else "pyodide/"
BARE_MAIN = BARE_MAIN.replace("./pyodide/", "./" + FOLDER)
BARE_WORKER = BARE_WORKER.replace("./pyodide/", "./" + FOLDER)
EXTRA = {"/bench-bare-main.html": ("text/html", BARE_MAIN), "/bench-bare-worker.html": ("text/html", BARE_WORKER_PAGE),
         "/bench-bare-worker.js": ("text/javascript", BARE_WORKER)}

# Records when a new answer reaches the screen, on the page's clock. (Predicates below are arrow
# functions: a bare string would be eval()ed in the page, which the site's CSP refuses.)
WATCH_TOTAL = """
window.__totals = [];
new MutationObserver(() => {
  // the breakdown names the expression, so each answer differs from the last
  const value = document.querySelector(".rollbook-total__value") && document.querySelector(".rollbook-breakdown");
  const text = value ? value.textContent : null;
  if (text !== null && text !== window.__lastTotal) { window.__lastTotal = text; window.__totals.push(performance.now()); }
}).observe(document, { subtree: true, childList: true, characterData: true });
document.addEventListener("keydown", (e) => { if (e.key === "Enter") window.__enterAt = performance.now(); }, true);
"""


def throttle(page: Page, rate: float) -> None:
    if rate != 1:
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})


def bare(page: Page, url: str, rate: float) -> float:
    throttle(page, rate)
    page.goto(url)
    until(page, "() => window.__ready !== undefined", TIMEOUT_MS)
    return page.evaluate("window.__ready") / 1000


def roller(page: Page, url: str, rate: float, taps: int = 0) -> tuple[float, list[float]]:
    """Seconds to the first answer on screen, and each later tap's milliseconds to its answer."""
    throttle(page, rate)
    page.add_init_script(WATCH_TOTAL)
    roll_on_the_roller(page, url, "3d6", TIMEOUT_MS)
    field = page.get_by_label("Dice expression")
    until(page, "() => window.__totals.length >= 1", TIMEOUT_MS)
    first = page.evaluate("window.__totals[0]") / 1000
    answers = []
    for _ in range(taps):
        before = page.evaluate("window.__totals.length")
        field.fill(f"{len(answers) + 2}d6+1")  # a new total text every time
        field.press("Enter")
        until(page, f"() => window.__totals.length > {before}", TIMEOUT_MS)
        answers.append(page.evaluate("window.__totals[window.__totals.length - 1] - window.__enterAt"))
    return first, answers


def measure(browser: Browser, url: str, runs: int) -> dict[str, Any]:
    kinds = {"roller": lambda p, r: roller(p, url, r)[0],
             "bare-main": lambda p, r: bare(p, url + "bench-bare-main.html", r),
             "bare-worker": lambda p, r: bare(p, url + "bench-bare-worker.html", r)}
    out: dict[str, Any] = {}
    for rate in (1, 4):
        for kind, run in kinds.items():
            cold, warm = [], []
            for _ in range(runs):
                context = browser.new_context(viewport={"width": 390, "height": 844})
                cold.append(run(context.new_page(), rate))
                warm.append(run(context.new_page(), rate))
                context.close()
            out[f"{kind}@{rate}x"] = {"cold": statistics.median(cold), "warm": statistics.median(warm)}
        context = browser.new_context(viewport={"width": 390, "height": 844})
        _, taps = roller(context.new_page(), url, rate, taps=max(10, runs * 4))
        context.close()
        out[f"tap@{rate}x"] = {"median_ms": statistics.median(taps), "max_ms": max(taps), "taps": len(taps)}
    return out


def table(results: dict[str, Any], runs: int) -> str:
    today = datetime.date.today().isoformat()
    lines = [
        "## Widgets in Chromium: the roller's first answer vs bare Pyodide pages",
        "",
        f"Made by `make build && .venv/bin/python benchmarks/widgets.py --runs {runs} --write-readme` on {today} "
        f"(headless Chromium, {platform.machine()}, {os.cpu_count()} cores shared with other work: expect noise). "
        "Median of the runs; seconds from navigation start on the page's own clock. Cold = fresh browser "
        "context, warm = second visit in the same context. Baseline = the faster bare page.",
        "",
        "| CPU | start | roller: first roll on screen | bare, main thread | bare, module worker | roller / baseline |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for rate in (1, 4):
        for start in ("cold", "warm"):
            roll = results[f"roller@{rate}x"][start]
            main, worker = results[f"bare-main@{rate}x"][start], results[f"bare-worker@{rate}x"][start]
            lines.append(f"| {rate}× | {start} | {roll:.2f} s | {main:.2f} s | {worker:.2f} s | {roll / min(main, worker):.2f} |")
    lines += ["", "Once the engine is ready, a tap (Enter) to its total on screen:", "",
              "| CPU | median | worst | taps |", "|---|---:|---:|---:|"]
    for rate in (1, 4):
        tap = results[f"tap@{rate}x"]
        lines.append(f"| {rate}× | {tap['median_ms']:.1f} ms | {tap['max_ms']:.1f} ms | {tap['taps']} |")
    lines += ["", "At 4× only the page's main thread is throttled (CDP cannot throttle a worker), so the "
              "worker pages and the roller's engine run at full speed there: the 4× rows show what a slow "
              "main thread costs the page, not a slow phone."]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--write-readme", action="store_true")
    options = parser.parse_args(argv)
    if not present("widgets.py"):
        return 1
    if not (SITE / FOLDER / "pyodide-lock.json").is_file():
        print(f"benchmarks: {SITE} holds no built site: run `make build` first", file=sys.stderr)
        return 1
    server, url = serve(SITE, EXTRA)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            results = measure(browser, url, options.runs)
            browser.close()
    finally:
        server.shutdown()
    section = table(results, options.runs)
    print(section)
    if options.write_readme:
        write_section(START, END, section)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
