"""The engine's unpacked snapshot kept on the device (widgets/engine-worker.js keepHeap): the name
of its cache, read from the worker, and a wait until a page's engine has kept it."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def heap_cache_prefix() -> str:
    """The start of the name of the cache where the engine keeps its unpacked snapshot
    (HEAP_CACHE, the site's address following it)."""
    source = (ROOT / "widgets" / "engine-worker.js").read_text(encoding="utf-8")
    found = re.search(r"const HEAP_CACHE = `([^`$]+)\$\{SITE_ROOT\}`;", source)
    assert found, "widgets/engine-worker.js names no HEAP_CACHE as `...${SITE_ROOT}`"
    return found.group(1)


HEAP_CACHE_PREFIX = heap_cache_prefix()
HEAP_KEPT = """async (prefix) => {
  for (const name of await caches.keys())
    if (name.startsWith(prefix) && (await (await caches.open(name)).keys()).length) return true;
  return false;
}"""


def wait_for_kept_heap(page: Any, timeout_s: float) -> None:
    """Until the page's engine has kept its heap (it does once idle a while after an answer)."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(HEAP_KEPT, HEAP_CACHE_PREFIX):
        if time.monotonic() > deadline:
            raise AssertionError(f"the engine kept no heap in {timeout_s:.0f} s")
        page.wait_for_timeout(250)
