"""The system Chromium that the browser tests, the benchmarks and scripts/ drive (Playwright's own
browser download needs the internet, which the machines this project runs on do not have).
``CHROMIUM`` names another, as `make test CHROMIUM=...` does."""

from __future__ import annotations

import os

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# As root Chromium needs --no-sandbox; the rest keep it from reaching for the network on its own.
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"]
