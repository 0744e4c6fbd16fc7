"""How the benchmarks wait on a page without making it work for the harness.

Two costs a player's page never pays, kept out of the measures:

- Playwright's ``wait_for_function`` runs its condition on every animation frame by default,
  which makes the page draw 60 frames a second while it waits; every frame costs the page, its
  compositor and the GPU process. On one core that CPU came out of the engine's start, and more on
  the roller than on the floor page (traced 2026-12-04, a warm visit on one core, before its first
  total: the roller's main thread drew 77 frames in 127 ms against the floor page's 62 ms). So the
  condition is asked every ``POLL_MS`` instead, one short task each.
- ``wait_for_function`` (any polling) and ``page.evaluate`` first inject Playwright's own scripts
  into the page (its selector engine and waits; its serialisers), compiled on the page's main
  thread: a trace of the roller's warm + SW visit at 4x page CPU (2026-12-07) showed one 82 ms
  EvaluateScript task of it, just as the roller's module had arrived, so the roller drew its field
  that much later; the floor page paid it while its worker started, off its path. So the waits and
  the harness's one reach into the page go through the DevTools protocol (``Runtime.evaluate``),
  which runs only the given expression.

The times the benchmarks report are the page's own clock, not the moment of a poll.
"""

from __future__ import annotations

import weakref

from playwright.sync_api import CDPSession, Page

POLL_MS = 25  # a poll is one short task; 25 ms keeps the harness's own taps prompt

# The page polls `condition` itself and settles when it holds, or fails after the time allowed.
WAIT = """new Promise((resolve, reject) => {
  const condition = (%s);
  const until = performance.now() + %d;
  const ask = () => {
    if (condition()) resolve(true);
    else if (performance.now() > until) reject(new Error("not so within the time allowed"));
    else setTimeout(ask, %d);
  };
  ask();
})"""


# One DevTools session per page, opened before the page is visited and kept across its
# navigations: opening one is work for the page's own (throttled) main thread.
_sessions: weakref.WeakKeyDictionary[Page, CDPSession] = weakref.WeakKeyDictionary()


def session_of(page: Page) -> CDPSession:
    """The page's DevTools session for the harness's waits (opened at the first call)."""
    if page not in _sessions:
        _sessions[page] = page.context.new_cdp_session(page)
    return _sessions[page]


def run_in_page(page: Page, expression: str) -> object:
    """The value of ``expression`` (awaited when it is a promise), run by the DevTools protocol
    alone: nothing of Playwright's is injected into the page."""
    reply = session_of(page).send("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True})
    if "exceptionDetails" in reply:
        details = reply["exceptionDetails"]
        raise RuntimeError(f"{expression[:120]!r} failed in the page: "
                           f"{details.get('exception', {}).get('description') or details.get('text')}")
    return reply["result"].get("value")


def until(page: Page, condition: str, timeout_ms: float) -> None:
    """Wait until the page's ``condition`` (a JavaScript function's source) is truthy."""
    try:
        run_in_page(page, WAIT % (condition, timeout_ms, POLL_MS))
    except RuntimeError as error:
        raise TimeoutError(f"waited {timeout_ms / 1000:.0f} s for {condition}: {error}") from None


def roll_on_the_roller(page: Page, url: str, expression: str, timeout_ms: float) -> None:
    """Open ``tools/roller/`` and roll ``expression`` as soon as its field is drawn, as a player
    does: the field focused, its text selected, the expression typed and Enter pressed as real key
    events (not through a Playwright locator or ``page.evaluate``, whose scripts a player's page
    never runs: see the top)."""
    session_of(page)  # before the visit, not during it
    page.goto(url + "tools/roller/")
    field = "document.getElementById('rollbook-expression')"
    until(page, f"() => {field} !== null", timeout_ms)
    # selected, so the typing replaces what the page may have kept from an earlier visit
    run_in_page(page, f"(field => {{ field.focus(); field.select(); }})({field})")
    page.keyboard.type(expression)
    page.keyboard.press("Enter")
