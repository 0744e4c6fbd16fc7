"""How the benchmarks wait for a page's answer without making the page draw.

Playwright's ``wait_for_function`` runs its condition on every animation frame by default, and
that makes the page draw 60 frames a second while it waits. On one core each frame took CPU from
the engine's start, and more on the roller than on the floor page (traced 2026-12-04, a warm
visit on one core: 77 frames and 127 ms of the roller's main thread before its first total,
against 62 ms on the floor page's). A player's idle page draws none, so the benchmarks ask every
``POLL_MS`` instead. The times they report are the page's own clock, not the moment of the poll.
"""

from __future__ import annotations

from playwright.sync_api import Page

POLL_MS = 100


def until(page: Page, condition: str, timeout_ms: float) -> None:
    """Wait until the page's ``condition`` (a JavaScript function's source) is truthy."""
    page.wait_for_function(condition, timeout=timeout_ms, polling=POLL_MS)
