"""Nothing on a tool page jumps while its widgets and the engine load (Cumulative Layout Shift,
as Lighthouse counts it: shifts without the reader's input), at phone and desktop width. The room
each widget needs is kept for it in docs/stylesheets/rollbook.css, written by
scripts/widget_room.py; a widget that outgrows it fails here: run that script again."""

from __future__ import annotations

from typing import Any

import pytest

from browserkit import ENGINE_TIMEOUT_MS, PHONE, Outside, phone_context

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]

# Lighthouse calls under 0.1 good; the room kept should leave next to nothing.
MOST = 0.02

RECORD_SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if (!entry.hadRecentInput) window.__shifts.push([entry.value, entry.sources.map((s) => s.node?.nodeName ?? "?")]);
}).observe({ type: "layout-shift", buffered: true });
"""

WIDGET_HEIGHTS = """() => [...document.querySelectorAll('.md-content *')]
  .filter((el) => el.localName.startsWith('rollbook-') && el.localName !== 'rollbook-roll')
  .map((el) => `${el.localName}: ${(el.getBoundingClientRect().height / parseFloat(getComputedStyle(document.documentElement).fontSize)).toFixed(2)}rem`)"""


@pytest.mark.parametrize("width", [PHONE["width"], 1280])
def test_tool_pages_do_not_jump_while_widgets_and_engine_load(browser: Any, base_url: str, served_site, outside: Outside,
                                                              width: int) -> None:
    tools = sorted(p.parent.name for p in (served_site.directory / "tools").glob("*/index.html"))
    context = phone_context(browser, base_url, outside) if width == PHONE["width"] else \
        browser.new_context(viewport={"width": width, "height": 900}, service_workers="block")
    context.add_init_script(RECORD_SHIFTS)
    jumps = {}
    try:
        for name in tools:
            page = context.new_page()
            page.goto(f"{base_url}tools/{name}/")
            page.wait_for_function("() => [...document.querySelectorAll('.md-content *')].every((el) => "
                                   "!el.localName.startsWith('rollbook-') || customElements.get(el.localName))")
            page.wait_for_load_state("networkidle", timeout=ENGINE_TIMEOUT_MS)  # the engine, started at idle, has loaded
            page.wait_for_timeout(500)
            shift = sum(value for value, _ in page.evaluate("() => window.__shifts"))
            if shift > MOST:
                jumps[name] = (round(shift, 3), page.evaluate(WIDGET_HEIGHTS))
            page.close()
    finally:
        context.close()
    assert jumps == {}, (f"layout shift over {MOST} at {width} px (page: (shift, heights)): {jumps}; "
                         "a widget outgrew its room: `.venv/bin/python scripts/widget_room.py --write`")
