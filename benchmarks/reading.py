"""What a first visit to a rules page costs on the wire: a reader who only reads for 20 s, against
one who taps a single die in the text (the engine and the offline copy follow), in the same run.

    make build && .venv/bin/python benchmarks/reading.py [--seconds 20] [--write-readme]

The built site is served as a static host serves it (lighthouse.py's StaticHost: gzip for text
and wasm, GitHub Pages' max-age), every byte counted at the server: the page, its workers and the
service worker together. Each visit is a fresh browser profile, as a first visitor has. The target
(issue 21): a reader who taps nothing transfers under 500 KB, and no file is sent twice.
``--write-readme`` replaces the "Reading pages" section of benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import functools
import sys
import tempfile
import threading
from http.server import ThreadingHTTPServer
from typing import Any

from playwright.sync_api import sync_playwright

from chromium import CHROMIUM, FLAGS, present  # benchmarks/ is on sys.path when run as a script
from lighthouse import SITE, StaticHost
from readme_section import write_section

PAGES = ["opencore/character-creation/", "opencore/combat/", "codex/", "dice-notation/"]
TARGET = 500_000
START, END = "<!-- reading-bench:start -->", "<!-- reading-bench:end -->"


class Counted(StaticHost):
    """StaticHost that adds up the bytes of every response body it sends, by path."""

    sent: collections.Counter[str] = collections.Counter()
    times: collections.Counter[str] = collections.Counter()

    def copyfile(self, source: Any, outputfile: Any) -> None:
        body = source.read()
        Counted.sent[self.path.split("?")[0]] += len(body)
        Counted.times[self.path.split("?")[0]] += 1
        outputfile.write(body)


def visit(playwright: Any, url: str, seconds: float, tap: bool) -> tuple[int, dict[str, int]]:
    """Bytes sent for one first visit, and the paths sent more than once with the bytes of each."""
    Counted.sent.clear()
    Counted.times.clear()
    # A new profile on disk, as a first visitor's browser has (an incognito context's memory cache
    # drops files of the engine's size, which would then be sent twice).
    profile = tempfile.TemporaryDirectory(prefix="rollbook-reading-")
    context = playwright.chromium.launch_persistent_context(
        profile.name, executable_path=CHROMIUM, args=FLAGS, viewport={"width": 390, "height": 844},
        is_mobile=True, has_touch=True, service_workers="allow")
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_load_state("networkidle")
        if tap:
            page.locator("rollbook-roll button").first.tap()
        page.wait_for_timeout(seconds * 1000)
        if tap:  # the offline copy, once it has started, is part of what the tap cost
            page.wait_for_function("async () => Boolean((await navigator.serviceWorker.ready).active)", timeout=120_000)
    finally:
        context.close()
        profile.cleanup()
    again = {path: Counted.sent[path] // n * (n - 1) for path, n in Counted.times.items() if n > 1}
    return sum(Counted.sent.values()), again


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--write-readme", action="store_true")
    options = parser.parse_args(argv)
    if not present("reading.py"):
        return 1
    if not (SITE / "index.html").is_file():
        print(f"benchmarks: {SITE} holds no built site: run `make build` first", file=sys.stderr)
        return 1
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Counted, directory=str(SITE)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    root = f"http://127.0.0.1:{server.server_address[1]}/"
    rows = []
    try:
        with sync_playwright() as playwright:
            for path in PAGES:
                read, read_twice = visit(playwright, root + path, options.seconds, tap=False)
                tapped, tapped_twice = visit(playwright, root + path, options.seconds, tap=True)
                twice = {**read_twice, **tapped_twice}
                largest = max(twice, key=twice.__getitem__, default=None)
                again = (f"{len(twice)} files, {sum(twice.values()) / 1e3:,.0f} KB (largest `{largest}`)"
                         if twice else "none")
                rows.append(f"| `{path}` | {read / 1e3:,.0f} KB | {tapped / 1e6:,.1f} MB | {read / tapped:.3f} | "
                            f"{'met' if read < TARGET else 'not met'} | {again} |")
    finally:
        server.shutdown()
    section = "\n".join([
        f"Recorded {datetime.date.today():%Y-%m-%d}: `.venv/bin/python benchmarks/reading.py --seconds {options.seconds:g}`; "
        "a first visit in a fresh profile on disk, bytes counted at a gzip static host.", "",
        f"| page | read {options.seconds:g} s, no tap | one die tapped (engine + offline copy) | ratio | under 500 KB | sent twice (either visit) |",
        "|---|---:|---:|---:|---|---|", *rows])
    print(section)
    if options.write_readme:
        write_section(START, END, section, heading="## Reading pages")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
