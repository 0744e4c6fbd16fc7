"""Render the app icons (docs/assets/icons/*.png) from the logo, overrides/.icons/rollbook.svg,
in the system Chromium.

    .venv/bin/python scripts/make_icons.py

Run it after editing the SVG and commit the PNGs: the build only copies them.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from kit.chromium import CHROMIUM, CHROMIUM_FLAGS as FLAGS  # noqa: E402  (the one Chromium of tests/ and scripts/)

ICONS = ROOT / "docs" / "assets" / "icons"
LOGO = ROOT / "overrides" / ".icons" / "rollbook.svg"  # also the header's logo, drawn in the page
# Android asks for 192 and 512 (512 doubles as the maskable icon), iOS for 180, tabs for 32.
SIZES = {"icon-192.png": 192, "icon-512.png": 512, "apple-touch-icon.png": 180, "favicon-32.png": 32}


def main() -> None:
    svg = LOGO.read_text(encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        for name, size in SIZES.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(f"<style>html,body{{margin:0}} svg{{width:{size}px;height:{size}px;display:block}}</style>{svg}")
            page.screenshot(path=str(ICONS / name))
        browser.close()


if __name__ == "__main__":
    main()
