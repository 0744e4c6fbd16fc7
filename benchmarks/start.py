"""Fast start: the site's first answer against bare ``loadPyodide()`` pages, in one run.

    make build && .venv/bin/python benchmarks/start.py [--runs N] [--rates 1,4] [--write-readme]

In the system headless Chromium, from the built site served on localhost, each the median of N
runs, at each CPU throttling rate (CDP ``Emulation.setCPUThrottlingRate`` on the page):

* bare, main thread: a page that only calls ``loadPyodide()`` from the site's runtime folder;
* bare, module worker: a page whose module worker only calls ``loadPyodide()`` from it;
  baseline = the faster of the two, per start and rate;
* ask: a one-line page (with the engine folder's meta, as every built page has) that calls
  ``ask()`` for a roll, until the answer is back;
* roller: ``tools/roller/``, ``3d6`` and Enter as soon as the field exists, until the total is on
  screen;

each **cold** (a fresh browser profile on disk: empty HTTP cache, no service worker yet; the site's
service worker registers and precaches during the visit, as on a real first visit), **warm**
(second visit in the same context, service workers blocked: the HTTP cache only) and, for the
site's pages, **warm + SW** (a context whose first visit installed the service worker; the second
visit is served from its precache). Times are the page's own clock (``performance.now()`` from
navigation start).

Targets: cold first roll at most half the baseline (issue 41), at 1x, 4x and (``--one-core``) with
the whole browser on one core (``taskset -c 0``, its workers too); warm at most 25% (issue 9).
``--gzip`` serves the site gzip-encoded as a static host does (benchmarks/served.py). CPU throttling: the script asks CDP to throttle the engine's worker too (auto-attach to
the worker target, ``Emulation.setCPUThrottlingRate`` on its session) and prints what Chromium
answers; Chromium refuses it for workers, so at 4x only the page's main thread is throttled by
DevTools: the 4x rows measure a slow main thread, not a slow phone (see the printed note).
Then cold first visits over a slow link (``--link``, default 10 Mbit/s: every response draws from
one budget at the server, so the workers and the service worker share it with the page, as on a
phone's one radio link), where the worker starts afresh rather than download the snapshot.
``--write-readme`` replaces the "Fast start" section of benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

from playwright.sync_api import BrowserContext, BrowserType, Page, sync_playwright

from chromium import CHROMIUM, FLAGS, one_core_chromium, present
from readme_section import write_section  # benchmarks/ is on sys.path when run as a script
from served import serve
from waiting import roll_on_the_roller, until

ROOT = Path(__file__).resolve().parents[1]
SITE = Path(os.environ.get("ROLLBOOK_SITE", ROOT / "site"))
START, END = "<!-- start-bench:start -->", "<!-- start-bench:end -->"
TIMEOUT_MS = 120_000
META = re.compile(r'<meta name="rollbook-engine" content="(pyodide/[0-9a-f]{16}/)">')


def pages(folder: str) -> dict[str, tuple[str, str]]:
    """The benchmark's own pages, served from the site's root beside the real ones."""
    bare_main = f"""<!doctype html><meta charset="utf-8"><title>bare main</title><script type="module">
const {{ loadPyodide }} = await import("./{folder}pyodide.mjs");
await loadPyodide({{ indexURL: new URL("./{folder}", location.href).href }});
window.__ready = performance.now();
</script>"""
    bare_worker_page = """<!doctype html><meta charset="utf-8"><title>bare worker</title><script type="module">
const worker = new Worker("./bench-bare-worker.js", { type: "module" });
worker.onmessage = () => { window.__ready = performance.now(); };
</script>"""
    bare_worker = f"""const {{ loadPyodide }} = await import("./{folder}pyodide.mjs");
await loadPyodide({{ indexURL: new URL("./{folder}", import.meta.url).href }});
postMessage("ready");"""
    ask = f"""<!doctype html><meta charset="utf-8"><meta name="rollbook-engine" content="{folder}"><title>ask</title>
<script type="module">
const {{ ask, engineStatus }} = await import("./widgets/engine.js");
const answer = await ask({{ command: "roll", args: {{ expression: "3d6" }} }});
window.__via = engineStatus().via + (engineStatus().why ? ` (${{engineStatus().why}})` : "");
window.__ready = answer.ok ? performance.now() : -1;
</script>"""
    return {"/bench-bare-main.html": ("text/html", bare_main),
            "/bench-bare-worker.html": ("text/html", bare_worker_page),
            "/bench-bare-worker.js": ("text/javascript", bare_worker),
            "/bench-ask.html": ("text/html", ask)}


# Records when a new total reaches the roller's screen, on the page's clock (arrow functions in
# predicates: a string would be eval()ed, which the site's CSP refuses).
WATCH_TOTAL = """
window.__totals = [];
new MutationObserver(() => {
  const shown = document.querySelector(".rollbook-total__value") && document.querySelector(".rollbook-breakdown");
  if (shown && window.__totals.length === 0) window.__totals.push(performance.now());
}).observe(document, { subtree: true, childList: true, characterData: true });
"""
SERVICE_WORKER_READY = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  return Boolean(registration?.active && navigator.serviceWorker.controller);
}"""


def service_worker_ready(page: Any) -> None:
    """The offline copy made and the page under it, asked until it is so (navigator.serviceWorker.ready
    never settles on a page that registers nothing, and would hang the wait)."""
    for _ in range(TIMEOUT_MS // 250):
        if page.evaluate(SERVICE_WORKER_READY):
            return
        page.wait_for_timeout(250)
    raise TimeoutError("the service worker never took the page")


def serve_the_roller_site(script: str) -> tuple[Any, str] | None:
    """For a benchmark of the roller's visits: the built site served gzip-encoded, as a static host
    serves it, with this script's own pages (the server and its root URL); None, said on stderr,
    when there is no Chromium or no built site."""
    if not present(script):
        return None
    roller = SITE / "tools" / "roller" / "index.html"
    found = META.search(roller.read_text(encoding="utf-8")) if roller.is_file() else None
    if found is None:
        print(f"benchmarks: {SITE} holds no built site: run `make build` first", file=sys.stderr)
        return None
    return serve(SITE, pages(found[1]), gzip=True)


class Throttle:
    """CDP throttling of a page and, where Chromium allows it, of its workers."""

    def __init__(self) -> None:
        self.worker_answers: list[str] = []

    def apply(self, page: Page, rate: float) -> None:
        if rate == 1:
            return
        session = page.context.new_cdp_session(page)
        session.send("Emulation.setCPUThrottlingRate", {"rate": rate})

        def attached(event: dict[str, Any]) -> None:
            child = event["sessionId"]
            for n, (method, params) in enumerate((("Emulation.setCPUThrottlingRate", {"rate": rate}),
                                                  ("Runtime.runIfWaitingForDebugger", {}))):
                session.send("Target.sendMessageToTarget", {"sessionId": child, "message": json.dumps(
                    {"id": n + 1, "method": method, "params": params})})

        def answered(event: dict[str, Any]) -> None:
            message = json.loads(event["message"])
            if message.get("id") == 1 and len(self.worker_answers) < 20:
                self.worker_answers.append(json.dumps(message.get("error") or message.get("result")))

        session.on("Target.attachedToTarget", attached)
        session.on("Target.receivedMessageFromTarget", answered)
        session.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False})


def visit(context: BrowserContext, url: str, kind: str, throttle: Throttle, rate: float) -> tuple[float, str | None]:
    """A visit in a new tab, closed once measured (its engine with it)."""
    page = context.new_page()
    try:
        return timed(page, url, kind, throttle, rate)
    finally:
        page.close()


def timed(page: Page, url: str, kind: str, throttle: Throttle, rate: float) -> tuple[float, str | None]:
    """Seconds from navigation start to ready (bare) or to the first answer (ask, roller)."""
    throttle.apply(page, rate)
    if kind == "roller-late":  # the worker started by the widget (at idle, or by the tap), not from <head>
        page.route("**/widgets/start.js", lambda route: route.fulfill(content_type="text/javascript", body=""))
    if kind in ("roller", "roller-late"):
        page.add_init_script(WATCH_TOTAL)
        roll_on_the_roller(page, url, "3d6", TIMEOUT_MS)
        until(page, "() => window.__totals.length >= 1", TIMEOUT_MS)
        return page.evaluate("window.__totals[0]") / 1000, None
    page.goto(url + {"bare-main": "bench-bare-main.html", "bare-worker": "bench-bare-worker.html",
                     "ask": "bench-ask.html"}[kind])
    until(page, "() => window.__ready !== undefined", TIMEOUT_MS)
    ready = page.evaluate("window.__ready")
    if ready < 0:
        raise RuntimeError(f"{kind}: the engine answered with an error")
    return ready / 1000, page.evaluate("window.__via ?? null")


Condition = tuple[str, str, float]  # label ("1×", "4×", "one core"), Chromium executable, page CPU rate


def conditions(rates: list[float], one_core: bool, folder: Path) -> list[Condition]:
    """Each page CPU throttling rate, then (``one_core``) the whole browser on one core, unthrottled."""
    found: list[Condition] = [(f"{rate:g}×", CHROMIUM, rate) for rate in rates]
    if one_core:
        found.append(("one core", one_core_chromium(folder), 1))
    return found


def measure(chromium: BrowserType, url: str, runs: int, cases: list[Condition], throttle: Throttle,
            progress: Callable[[str], None], late: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {"via": set(), "load_before": os.getloadavg()}
    profiles = tempfile.TemporaryDirectory(prefix="rollbook-start-")
    executable = CHROMIUM

    def context(service_workers: str) -> BrowserContext:
        # A fresh profile on disk per context: empty caches, as a first visit has them. Not an
        # incognito context: its in-memory HTTP cache keeps no file as big as the runtime's (so a
        # "warm" visit there would download pyodide.asm.wasm again and never reuse compiled code).
        return chromium.launch_persistent_context(
            tempfile.mkdtemp(dir=profiles.name), executable_path=executable, args=FLAGS,
            viewport={"width": 390, "height": 844}, service_workers=service_workers)  # type: ignore[arg-type]

    kinds = ("bare-main", "bare-worker", "ask", "roller") + (("roller-late",) if late else ())
    for label, executable, rate in cases:
        samples: dict[str, dict[str, list[float]]] = {kind: {"cold": [], "warm": [], "warm-sw": []} for kind in kinds}
        for _ in range(runs):
            for kind in kinds:  # interleaved: a burst of load elsewhere hits every kind alike
                # cold, then warm from the HTTP cache (service workers blocked)
                ctx = context("block")
                for start in ("cold", "warm"):
                    seconds, via = visit(ctx, url, kind, throttle, rate)
                    samples[kind][start].append(seconds)
                    if via:
                        out["via"].add(via)
                ctx.close()
                if kind in ("ask", "roller"):
                    # a first visit as a reader has it (the service worker installs), then warm + SW
                    # (the ask page is not a site page: it registers no service worker; the roller
                    # does, once its engine has started, which it does when the page has settled)
                    ctx = context("allow")
                    first = ctx.new_page()
                    if kind == "roller":
                        timed(first, url, kind, throttle, rate)
                    else:
                        first.goto(url + "tools/roller/")
                    service_worker_ready(first)
                    first.close()
                    seconds, via = visit(ctx, url, kind, throttle, rate)
                    samples[kind]["warm-sw"].append(seconds)
                    if via:
                        out["via"].add(via)
                    ctx.close()
        for kind in kinds:
            out[f"{kind}@{label}"] = {start: statistics.median(v) for start, v in samples[kind].items() if v}
            progress(f"{kind} at {label}: " + ", ".join(f"{k} {[round(x, 2) for x in v]}"
                                                            for k, v in samples[kind].items() if v))
    out["load"] = os.getloadavg()
    profiles.cleanup()
    return out


ENGINE_STATUS = """async () => {
  const entry = [...document.scripts].find((script) => script.src.endsWith("/widgets/rollbook.js")).src;
  const { engineStatus } = await import(new URL("engine.js", entry).href);
  const { via, why } = engineStatus();
  return via + (why ? ` (${why})` : "");
}"""


def measure_slow_link(chromium: BrowserType, site_url: str, runs: int, progress: Callable[[str], None]) -> dict[str, Any]:
    """Cold first visits over the slow link (the server's shared budget), as a reader has them:
    a fresh profile, the service worker allowed to install."""
    out: dict[str, Any] = {"via": {}}
    profiles = tempfile.TemporaryDirectory(prefix="rollbook-start-slow-")
    kinds = ("bare-main", "bare-worker", "ask", "roller")
    samples: dict[str, list[float]] = {kind: [] for kind in kinds}
    for _ in range(runs):
        for kind in kinds:
            ctx = chromium.launch_persistent_context(
                tempfile.mkdtemp(dir=profiles.name), executable_path=CHROMIUM, args=FLAGS,
                viewport={"width": 390, "height": 844}, service_workers="allow")
            page = ctx.new_page()
            try:
                seconds, via = timed(page, site_url, kind, Throttle(), 1)
                if kind == "roller":
                    via = page.evaluate(ENGINE_STATUS)
            finally:
                ctx.close()
            samples[kind].append(seconds)
            if via:
                out["via"].setdefault(kind, set()).add(via)
    for kind in kinds:
        out[kind] = statistics.median(samples[kind])
        progress(f"{kind} over the slow link: {[round(x, 2) for x in samples[kind]]}")
    profiles.cleanup()
    return out


def slow_link_table(slow: dict[str, Any], mbit: float, runs: int) -> list[str]:
    baseline = min(slow["bare-main"], slow["bare-worker"])
    via = "; ".join(f"{kind}: {', '.join(sorted(v))}" for kind, v in sorted(slow["via"].items()))
    return [
        "", f"**Cold over a slow link**: the same first visits with every response drawn from one budget of "
        f"{mbit:g} Mbit/s at the server (a phone's one radio link; DevTools network throttling would slow the "
        f"page but not its workers), a fresh profile, the service worker allowed to install; median of {runs}, 1× CPU:", "",
        "| bare, main | bare, worker | ask() page | roller: first roll | ask / baseline | roller / baseline | target |",
        "|---:|---:|---:|---:|---:|---:|---|",
        f"| {slow['bare-main']:.2f} s | {slow['bare-worker']:.2f} s | {slow['ask']:.2f} s | {slow['roller']:.2f} s | "
        f"{slow['ask'] / baseline:.2f} | {slow['roller'] / baseline:.2f} | ≤ 1.00: "
        f"{'met' if slow['roller'] <= baseline else 'not met'} |",
        "", f"How the engine started over the slow link (the worker's own report): {via}.",
    ]


def table(results: dict[str, Any], runs: int, cases: list[Condition], throttle: Throttle, command: str,
          gzip: bool) -> str:
    today = datetime.date.today().isoformat()
    refused = sorted(set(throttle.worker_answers))
    lines = [
        "## Fast start: first answer vs bare `loadPyodide()` pages",
        "",
        f"Made by `{command}` on {today} (headless Chromium, {platform.machine()}, {os.cpu_count()} cores "
        f"shared with other work: load average {results['load_before'][0]:.1f} before the run, "
        f"{results['load'][0]:.1f} after; expect noise; served "
        + ("gzip-encoded as a static host serves it (`--gzip`: HTML, JavaScript, JSON and the wasm)" if gzip
           else "uncompressed") + "). Median of the runs; seconds from navigation start on the page's "
        "own clock. Cold = fresh browser profile (on disk); warm = second visit, HTTP cache only; warm + SW = second "
        "visit served by the service worker. Baseline = the faster bare page for the same start and CPU "
        "(for warm + SW: the bare pages' warm time). CPU: 1×, 4× = DevTools throttling of the page's main thread; "
        "one core = the whole browser under `taskset -c 0` (its workers too).",
        "",
        "| CPU | start | bare, main | bare, worker | ask() page | roller: first roll | ask / baseline | roller / baseline | target "
        "| roller / ask |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    for cpu, _, _ in cases:
        for start in ("cold", "warm", "warm-sw"):
            bare_start = "warm" if start == "warm-sw" else start
            main = results[f"bare-main@{cpu}"][bare_start]
            worker = results[f"bare-worker@{cpu}"][bare_start]
            baseline = min(main, worker)
            ask, roll = results[f"ask@{cpu}"][start], results[f"roller@{cpu}"][start]
            goal = 0.5 if start == "cold" else 0.25  # issue 41 (cold), issue 9 (warm)
            target = f"≤ {goal:.2f}"
            met = (roll / baseline) <= goal
            label = {"cold": "cold", "warm": "warm", "warm-sw": "warm + SW"}[start]
            lines.append(f"| {cpu} | {label} | {main:.2f} s | {worker:.2f} s | {ask:.2f} s | {roll:.2f} s | "
                         f"{ask / baseline:.2f} | {roll / baseline:.2f} | {target}: {'met' if met else 'not met'} | {roll / ask:.2f} |")
    via = ", ".join(sorted(results["via"])) or "not reported"
    lines += ["", "The ask() page is the worker-alone floor (the engine's worker and nothing else on the page): "
              "roller / ask is the site's page against it (issue 41 item 3: warm + SW, a returning player's "
              "second visit under the service worker, within 1.25×).",
              "", f"The engine started from: {via} (the worker's own report)."]
    if any(key.startswith("roller-late@") for key in results):
        lines += ["", "Starting the worker from the page's `<head>` (widgets/start.js) against leaving it to the widget "
              "(`warmUpWhenIdle()` when the roller connects, or the tap itself), roller's first roll:", "",
              "| CPU | start | worker from `<head>` | worker from the widget |", "|---|---|---:|---:|"]
        for cpu, _, _ in cases:
            for start in ("cold", "warm"):
                lines.append(f"| {cpu} | {start} | {results[f'roller@{cpu}'][start]:.2f} s | "
                             f"{results[f'roller-late@{cpu}'][start]:.2f} s |")
    if results.get("slow"):
        lines += slow_link_table(results["slow"], results["slow_mbit"], results["slow_runs"])
    if any(rate != 1 for _, _, rate in cases):
        answer = refused[0] if refused else "no worker target attached"
        lines += ["", "CPU throttling: DevTools throttles the page's main thread. Asked to throttle the engine's "
                  f"worker too (auto-attach, `Emulation.setCPUThrottlingRate` on the worker's session), Chromium "
                  f"answered `{answer}`, so the workers (the bare worker page's and the site's engine) run "
                  "unthrottled: the 4× rows show a slow main thread (page, bare main-thread Pyodide), not a slow phone."]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rates", default="1,4", help="CPU throttling rates, comma-separated (default 1,4)")
    parser.add_argument("--link", type=float, default=10,
                        help="Mbit/s of the slow link for the cold first visits over it (default 10; 0: skip them)")
    parser.add_argument("--link-runs", type=int, default=2)
    parser.add_argument("--one-core", action="store_true", help="also the whole browser on one core (taskset -c 0)")
    parser.add_argument("--gzip", action="store_true", help="serve gzip-encoded, as a static host does")
    parser.add_argument("--no-late", action="store_true", help="skip the roller with its worker started by the widget")
    parser.add_argument("--write-readme", action="store_true")
    options = parser.parse_args(argv)
    if not present("start.py"):
        return 1
    rates = [float(rate) for rate in options.rates.split(",")]
    index = SITE / "index.html"
    found = META.search(index.read_text(encoding="utf-8")) if index.is_file() else None
    # (a site built before the engine folder was versioned keeps its runtime at pyodide/: measurable too)
    folder = found[1] if found else "pyodide/" if (SITE / "pyodide" / "pyodide.mjs").is_file() else None
    if folder is None:
        print(f"benchmarks: {SITE} holds no built site: run `make build` first", file=sys.stderr)
        return 1
    server, url = serve(SITE, pages(folder), gzip=options.gzip)
    throttle = Throttle()
    wrappers = tempfile.TemporaryDirectory(prefix="rollbook-start-chromium-")
    cases = conditions(rates, options.one_core, Path(wrappers.name))
    try:
        with sync_playwright() as playwright:
            results = measure(playwright.chromium, url, options.runs, cases, throttle,
                              lambda line: print(line, file=sys.stderr), late=not options.no_late)
            if options.link:
                slow_server, slow_url = serve(SITE, pages(folder), bandwidth=options.link * 1e6 / 8, gzip=options.gzip)
                try:
                    results["slow"] = measure_slow_link(playwright.chromium, slow_url, options.link_runs,
                                                        lambda line: print(line, file=sys.stderr))
                    results["slow_mbit"], results["slow_runs"] = options.link, options.link_runs
                finally:
                    slow_server.shutdown()
    finally:
        server.shutdown()
        wrappers.cleanup()
    command = "make build && .venv/bin/python benchmarks/start.py" + (f" --runs {options.runs}" if options.runs != 3 else "") \
        + (f" --rates {options.rates}" if options.rates != "1,4" else "") \
        + (f" --link {options.link:g}" if options.link != 10 else "") \
        + (f" --link-runs {options.link_runs}" if options.link_runs != 2 else "") \
        + (" --one-core" if options.one_core else "") + (" --gzip" if options.gzip else "") \
        + (" --no-late" if options.no_late else "") + " --write-readme"
    section = table(results, options.runs, cases, throttle, command, options.gzip)
    print(section)
    if options.write_readme:
        write_section(START, END, section)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
