"""The system Chromium that the browser tests, the benchmarks and scripts/ drive (Playwright's own
browser download needs the internet, which the machines this project runs on do not have).
``CHROMIUM`` names another, as `make test CHROMIUM=...` does."""

from __future__ import annotations

import os
from typing import Any

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# As root Chromium needs --no-sandbox; the rest keep it from reaching for the network on its own.
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"]

# The browser's own parts that no page of the site uses, off in the browser tests: each new tab of
# Chromium 156's headless mode loads the omnibox's two popups (chrome://omnibox-popup.top-chrome/,
# in a WebUI renderer) and keeps a spare renderer ready. A tab created, opened on about:blank and
# closed cost 0.40-0.51 s of CPU with them and 0.18-0.23 s without (3 x 10 tabs each, twice,
# interleaved); test_widgets.py alone, one process: 122.7 -> 117.2 s of CPU.
BROWSER_UI_OFF = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "SpareRendererForSitePerProcess")
_flags: list[str] = []


def suite_flags(playwright: Any) -> list[str]:
    """CHROMIUM_FLAGS, with BROWSER_UI_OFF added to the features Playwright turns off. Chromium
    keeps only the last --disable-features it is given, so a list of ours would silently turn
    Playwright's back on (PaintHolding, HttpsUpgrades, ...): its list is read once, from a browser
    it launched (CDP's Browser.getBrowserCommandLine), and ours appended to it."""
    if not _flags:
        # (the browser says its command line only to automation)
        probe = playwright.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_FLAGS, "--enable-automation"])
        try:
            given = probe.new_browser_cdp_session().send("Browser.getBrowserCommandLine")["arguments"]
        finally:
            probe.close()
        off = [arg.split("=", 1)[1] for arg in given if arg.startswith("--disable-features=")]
        _flags.extend([*CHROMIUM_FLAGS, "--disable-features=" + ",".join([*off[-1:], *BROWSER_UI_OFF])])
    return list(_flags)
