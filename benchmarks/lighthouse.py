"""Lighthouse quality scores of the built site: the home page, a rules page with inline rolls and
every tool page (or, with ``--all``, every page of the site), against the targets of issues 9 and 21.

    make build && .venv/bin/python benchmarks/lighthouse.py [--runs N] [--all] [--reuse] [--tasks] [--write-readme]

Lighthouse 12.2.3 (benchmarks/lighthouse/, its own package so `make serve` and `make test` do not
install it) in the system Chromium, mobile preset: a phone screen, simulated slow 4G and a 4x
slower CPU. The site is served the way a static host serves it: text files gzip-compressed
(GitHub Pages does), the rest as they are. Each run of each page is a first visit: a browser of
its own with a fresh profile (``--reuse`` runs them all in one browser, whose compiled code and
caches a first visitor does not have: it scored higher). Each page's scores are the median of N
runs; the audits that did not pass are listed so a lost point names its cause, and ``--all`` ends
with the lowest Performance and that page's metrics. Every run is printed to stderr; ``--tasks``
adds its observed main-thread tasks and what was in them (script, style, layout), which names the
work behind a simulated long task. ``--write-readme`` replaces the "Lighthouse" section of
benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import gzip
import hashlib
import io
import json
import os
import platform
import statistics
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from chromium import CHROMIUM, present
from readme_section import write_section  # benchmarks/ is on sys.path when run as a script
from served import QuietServer

ROOT = Path(__file__).resolve().parents[1]
SITE = Path(os.environ.get("ROLLBOOK_SITE", ROOT / "site"))
RUNNER = ROOT / "benchmarks" / "lighthouse" / "run.mjs"
START, END = "<!-- lighthouse-bench:start -->", "<!-- lighthouse-bench:end -->"

PAGES = ["", "opencore/combat/", "tools/", "tools/roller/", "tools/character/", "tools/criticals/",
         "tools/checks/", "tools/combat/", "tools/encounter/", "tools/offline/"]
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 95}
COMPRESSED = {".html", ".css", ".js", ".mjs", ".json", ".svg", ".xml", ".webmanifest", ".txt", ".wasm"}


class StaticHost(SimpleHTTPRequestHandler):
    """site/ as a static host serves it: right types, gzip for text (and wasm), cached compressions,
    an ETag and a Last-Modified on each (GitHub Pages sends both) and 304 Not Modified to a
    revalidation that names either. Both matter: this server speaks HTTP/1.0, and Chromium
    revalidates an HTTP/1.0 response by its date only, never by its ETag."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".wasm": "application/wasm", ".json": "application/json",
                      ".webmanifest": "application/manifest+json"}
    cache: dict[Path, tuple[bytes, str]] = {}

    def send_head(self) -> Any:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if (path.suffix not in COMPRESSED or "gzip" not in self.headers.get("Accept-Encoding", "")
                or not path.is_file()):
            return super().send_head()
        if path not in self.cache:
            raw = path.read_bytes()
            self.cache[path] = (gzip.compress(raw, compresslevel=6), f'"{hashlib.sha1(raw).hexdigest()}"')
        body, etag = self.cache[path]
        modified = self.date_time_string(int(path.stat().st_mtime))
        if etag in self.headers.get("If-None-Match", "") or self.headers.get("If-Modified-Since") == modified:
            self.send_response(304)  # a revalidation, as GitHub Pages answers it
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", modified)
            self.send_header("Cache-Control", "max-age=600")
            self.end_headers()
            return None
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")  # GitHub Pages' own
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", modified)
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


def serve() -> tuple[ThreadingHTTPServer, str]:
    server = QuietServer(("127.0.0.1", 0), functools.partial(StaticHost, directory=str(SITE)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def every_page() -> list[str]:
    """Every page the site builds (its folders with an index.html), the runtime's folder left out."""
    folders = {index.parent.relative_to(SITE) for index in SITE.rglob("index.html")}
    return sorted("" if folder == Path(".") else folder.as_posix() + "/" for folder in folders
                  if "pyodide" not in folder.parts)


def lighthouse(urls: list[str], reuse: bool) -> dict[str, Any]:
    done = subprocess.run(["node", str(RUNNER), *(["--reuse"] if reuse else []), *urls], capture_output=True, text=True, check=False,
                          env={**os.environ, "CHROME_PATH": CHROMIUM}, timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"lighthouse failed (exit status {done.returncode}):\n{done.stderr[-3000:]}{done.stdout[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def measure(url: str, pages: list[str], runs: int, reuse: bool) -> dict[str, list[dict[str, Any]]]:
    results: dict[str, list[dict[str, Any]]] = {page: [] for page in pages}
    for _ in range(runs):
        answer = lighthouse([url + page for page in pages], reuse)
        for page in pages:
            results[page].append(answer[url + page])
    return results


def table(results: dict[str, list[dict[str, Any]]], runs: int, command: str, load: tuple[float, float]) -> str:
    lines = [f"Recorded {datetime.date.today().isoformat()} on {platform.machine()}, {os.cpu_count()} cores, "
             f"load average {load[0]:.1f} before and {load[1]:.1f} after (`{command}`): Lighthouse 12.2.3, "
             f"mobile preset, median of {runs} run(s) per page, each run a first visit (a fresh browser and "
             "profile); the site served gzip-compressed like a static host.", "",
             "| Page | Performance | Accessibility | Best practices | SEO | FCP | LCP | TBT | CLS |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    misses: list[str] = []
    worst: tuple[float, str, dict[str, float], list[str], list[str], list[str]] | None = None  # score, page, medians, where, long tasks, marks
    for page, runs_of_page in results.items():
        scores = {key: statistics.median(run["scores"][key] for run in runs_of_page) for key in TARGETS}
        metric = {key: statistics.median(run["metrics"][key] for run in runs_of_page)
                  for key in runs_of_page[0]["metrics"]}
        if worst is None or scores["performance"] < worst[0]:
            slowest = max(runs_of_page, key=lambda run: run["metrics"]["total-blocking-time"])
            worst = (scores["performance"], page, metric, slowest["bootup"] + slowest["work"], slowest.get("longTasks", []),
                     slowest.get("marks", []))
        marks = {key: f"{scores[key]:g}" + ("" if scores[key] >= TARGETS[key] else " ✗") for key in TARGETS}
        lines.append(f"| `{page or '/'}` | {marks['performance']} | {marks['accessibility']} | "
                     f"{marks['best-practices']} | {marks['seo']} | "
                     f"{metric['first-contentful-paint'] / 1000:.1f} s | {metric['largest-contentful-paint'] / 1000:.1f} s | "
                     f"{metric['total-blocking-time']:.0f} ms | {metric['cumulative-layout-shift']:.3f} |")
        for key, target in TARGETS.items():
            if scores[key] < target:
                # each audit once, with its value in every run that failed it
                failing: dict[str, list[str]] = {}
                for run in runs_of_page:
                    for audit in run["failing"]:
                        if audit["category"] == key:
                            failing.setdefault(audit["title"], []).append(str(audit["value"] or audit["score"]))
                misses.append(f"- `{page or '/'}` {key} {scores[key]:g} < {target}: " + "; ".join(
                    f"{title} ({len(values)} of {len(runs_of_page)} runs: {', '.join(values)})" for title, values in failing.items()))
    lines += ["", "Targets: Performance ≥ 95, Accessibility 100, Best practices 100, SEO ≥ 95 (✗ = missed)."]
    if worst is not None:
        score, page, metric, where, long_tasks, marks_of_run = worst
        lines += ["", f"Lowest Performance: **{score:g}** on `{page or '/'}` (medians: FCP "
                      f"{metric['first-contentful-paint'] / 1000:.2f} s, LCP {metric['largest-contentful-paint'] / 1000:.2f} s, "
                      f"TBT {metric['total-blocking-time']:.0f} ms, CLS {metric['cumulative-layout-shift']:.3f}, "
                      f"Speed Index {metric['speed-index'] / 1000:.2f} s); its slowest run's script and main-thread "
                      "time: " + "; ".join(where) + "."]
        if long_tasks:
            lines[-1] += " Its long tasks (4x CPU, simulated): " + "; ".join(long_tasks) + "."
        if marks_of_run:
            lines[-1] += " The site's marks (observed, unthrottled): " + "; ".join(marks_of_run) + "."
    if misses:
        lines += ["", "Missed, with the audits that did not pass:", "", *misses]
    return "\n".join(lines)


def each_run(results: dict[str, list[dict[str, Any]]], tasks: bool = False) -> str:
    """Every run of every page: its Performance, TBT, the site's marks and its longest tasks (not
    for the README); with ``tasks``, under each run its observed tasks and what was in them."""
    lines = []
    for page, runs_of_page in results.items():
        for number, run in enumerate(runs_of_page, 1):
            lines.append(f"{page or '/'} run {number}: Performance {run['scores']['performance']}, "
                         f"TBT {run['metrics']['total-blocking-time']:.0f} ms; marks: " + ("; ".join(run.get("marks", [])) or "none")
                         + "; long tasks: " + "; ".join(run.get("longTasks", [])[:4]))
            if tasks:
                lines += [f"    {task}" for task in run.get("observedTasks", [])]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--page", action="append", help="only this page (site path, e.g. tools/roller/)")
    parser.add_argument("--all", action="store_true", help="every page of the site, not the sample")
    parser.add_argument("--reuse", action="store_true", help="one browser for every run (not a first visitor)")
    parser.add_argument("--tasks", action="store_true",
                        help="under each run, its observed main-thread tasks of 30 ms or more and what they held")
    parser.add_argument("--write-readme", action="store_true")
    options = parser.parse_args(argv)
    if not present("lighthouse.py"):
        return 1
    if not (SITE / "index.html").is_file():
        print(f"benchmarks: {SITE} holds no built site: run `make build` first", file=sys.stderr)
        return 1
    pages = options.page or (every_page() if options.all else
                             [page for page in PAGES if (SITE / page / "index.html").is_file()])
    command = " ".join([".venv/bin/python benchmarks/lighthouse.py", *(arg for arg in argv if arg != "--write-readme")])
    before = os.getloadavg()[0]
    server, url = serve()
    try:
        results = measure(url, pages, options.runs, options.reuse)
    finally:
        server.shutdown()
    section = table(results, options.runs, command, (before, os.getloadavg()[0]))
    print(section)
    print("\nEach run:\n" + each_run(results, options.tasks), file=sys.stderr)
    if options.write_readme:
        write_section(START, END, section, heading='## Lighthouse')
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
