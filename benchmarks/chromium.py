"""The system Chromium every benchmark drives (``CHROMIUM`` names another): Playwright's own
browser download needs the internet, which the machines this project runs on do not have."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from kit.chromium import CHROMIUM, CHROMIUM_FLAGS as FLAGS  # noqa: E402,F401  (the one Chromium of tests/, scripts/ and benchmarks/)


def present(script: str) -> bool:
    """Whether the Chromium is there; if not, ``script`` says so and how to get it."""
    if Path(CHROMIUM).is_file():
        return True
    print(f"{script}: no Chromium at {CHROMIUM}: run `make chromium` (or set CHROMIUM to one)", file=sys.stderr)
    return False


def one_core_chromium(folder: Path) -> str:
    """A Chromium that runs, with everything it starts, on core 0 only (``taskset -c 0``): the
    engine's worker, the page and the browser share one core, as on a low-end phone's slow cores
    (DevTools' CPU throttling slows only the page's main thread)."""
    wrapper = folder / "chromium-one-core"
    wrapper.write_text(f'#!/bin/sh\nexec taskset -c 0 {CHROMIUM} "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    return str(wrapper)
