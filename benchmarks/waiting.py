"""How the benchmarks wait on a page without making it draw.

Playwright's ``wait_for_function`` runs its condition on every animation frame by default, which
makes the page draw 60 frames a second while it waits; every frame costs the page, its compositor
and the GPU process. On one core that CPU came out of the engine's start, and more on the roller
than on the floor page (traced 2026-12-04, a warm visit on one core, before its first total: the
roller's main thread drew 77 frames in 127 ms against the floor page's 62 ms). A player's page,
loading untouched, draws only when it changes, so the benchmarks ask every ``POLL_MS`` instead.
The times they report are the page's own clock, not the moment of a poll.
"""

from __future__ import annotations

from playwright.sync_api import Page

POLL_MS = 25  # a poll is one short task; 25 ms keeps the harness's own taps prompt


def until(page: Page, condition: str, timeout_ms: float) -> None:
    """Wait until the page's ``condition`` (a JavaScript function's source) is truthy."""
    page.wait_for_function(condition, timeout=timeout_ms, polling=POLL_MS)


def roll_on_the_roller(page: Page, url: str, expression: str, timeout_ms: float) -> None:
    """Open ``tools/roller/`` and roll ``expression`` as soon as its field is drawn, as a player
    does: the field focused, its text selected, the expression typed and Enter pressed as real key
    events.

    Not through a Playwright locator: its selector engine is a script that Playwright compiles in
    the page on first use (about 35 ms of the roller's main thread on one core, traced
    2026-12-04), which a player's tap does not cost and the floor page never pays."""
    page.goto(url + "tools/roller/")
    until(page, "() => document.getElementById('rollbook-expression') !== null", timeout_ms)
    # selected, so the typing replaces what the page may have kept from an earlier visit
    page.evaluate("(field => { field.focus(); field.select(); })(document.getElementById('rollbook-expression'))")
    page.keyboard.type(expression)
    page.keyboard.press("Enter")
