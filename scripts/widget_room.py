"""Measure the room each widget takes when it first draws itself, and write it into
docs/stylesheets/rollbook.css, so nothing under a widget jumps when its script loads.

    make build && .venv/bin/python scripts/widget_room.py [--write]

Every tool page of the built site, in the system Chromium, at phone width (390 px) and desktop
width (1280 px): each widget's natural height (its kept room switched off), in rem, rounded up.
tests/browser/test_layout_shift.py fails when a widget outgrows its room; run this then.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import re
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from kit.chromium import CHROMIUM, CHROMIUM_FLAGS as FLAGS  # noqa: E402  (the one Chromium of tests/ and scripts/)

SITE = Path(os.environ.get("ROLLBOOK_SITE", ROOT / "site"))
CSS = ROOT / "docs" / "stylesheets" / "rollbook.css"
START, END = "/* widget-room:start (scripts/widget_room.py) */", "/* widget-room:end */"
WIDTHS = {"phone": 390, "desktop": 1280}

# Each widget once its script has drawn it, with no room kept: its own height, in rem.
NATURAL_HEIGHTS = """() => {
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const widgets = [...document.querySelectorAll('.md-content *')]
    .filter((el) => el.localName.startsWith('rollbook-') && el.localName !== 'rollbook-roll');
  for (const el of widgets) el.style.minHeight = '0';
  return widgets.map((el) => [el.localName, el.getBoundingClientRect().height / rem]);
}"""


class Quiet(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".wasm": "application/wasm", ".json": "application/json"}

    def log_message(self, format: str, *args: object) -> None:
        pass


def measure() -> dict[str, dict[str, float]]:
    """{width name: {widget tag: rem}}, the largest where a tag is on several pages."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(SITE)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    pages = sorted(p.parent.name for p in (SITE / "tools").glob("*/index.html"))
    rooms: dict[str, dict[str, float]] = {name: {} for name in WIDTHS}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            for name, width in WIDTHS.items():
                context = browser.new_context(viewport={"width": width, "height": 844}, service_workers="block")
                for page_name in pages:
                    page = context.new_page()
                    page.goto(f"{base}tools/{page_name}/")
                    page.wait_for_load_state("networkidle", timeout=120_000)  # the engine has loaded
                    for tag, height in page.evaluate(NATURAL_HEIGHTS):
                        rooms[name][tag] = max(rooms[name].get(tag, 0.0), height)
                    page.close()
                context.close()
            browser.close()
    finally:
        server.shutdown()
    return rooms


def css(rooms: dict[str, dict[str, float]]) -> str:
    def up(rem: float) -> str:
        return f"{math.ceil(rem * 10) / 10:g}rem"

    tags = sorted(set(rooms["phone"]) | set(rooms["desktop"]))
    lines = [START, ",\n".join(tags) + " {", "  display: block;", "}", ""]
    lines += [f"{tag} {{ min-height: {up(rooms['phone'][tag])}; }}" for tag in tags if tag in rooms["phone"]]
    lines += ["", "@media screen and (min-width: 45em) {"]
    lines += [f"  {tag} {{ min-height: {up(rooms['desktop'][tag])}; }}" for tag in tags if tag in rooms["desktop"]]
    lines += ["}", END]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help=f"replace the block in {CSS.relative_to(ROOT)}")
    options = parser.parse_args(argv)
    if not (SITE / "tools").is_dir():
        print(f"{SITE} holds no built site: run `make build` first", file=sys.stderr)
        return 1
    block = css(measure())
    print(block)
    if options.write:
        text = CSS.read_text(encoding="utf-8")
        if START not in text:
            print(f"{CSS}: the markers {START!r} … {END!r} are missing", file=sys.stderr)
            return 1
        CSS.write_text(re.sub(re.escape(START) + ".*?" + re.escape(END), lambda _: block, text, flags=re.S),
                       encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
