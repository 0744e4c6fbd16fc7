"""A dead or stuck engine on the built site: a worker that is terminated, one that never answers
and one that never finishes starting are each noticed within the page's limit (widgets/engine.js,
shortened here by globalThis.rollbookEngineLimits so a fault takes seconds), said in a player's
words with a Retry where the player must act, and recovered: nothing waits on "Rolling…"."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browserkit import ENGINE_TIMEOUT_MS, axe_violations, phone_context, widgets_text
from kit.kept import read_kept
from vocabulary import engine_words

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]

RESTARTING = "The dice engine stopped; starting it again…"
STOPPED = "The dice engine stopped and did not answer. Tap Retry, then try again."
COULD_NOT_START = "The dice engine could not start. Check the connection, then try again."

# Before the page's scripts: short limits (still long enough for a loaded 2-core machine's
# answers), every engine worker the page starts kept where the test can reach it (terminate() is
# the page's own worker's, the real thing), requests swallowed on the way to the worker while
# __swallow is set (a worker that never answers), and the engine's states as the page saw them.
FAULTS = """
globalThis.rollbookEngineLimits = %s;
const PageWorker = Worker;
globalThis.__workers = [];
globalThis.__swallow = false;
globalThis.Worker = class extends PageWorker {
  constructor(url, options) {
    super(url, options);
    if (options?.name === "rollbook-engine") __workers.push(this); // not the search's
  }
  postMessage(message, ...rest) { if (!(__swallow && message?.request)) super.postMessage(message, ...rest); }
};
"""
STATES = """async () => {
  const entry = [...document.scripts].find((script) => script.src.endsWith("/widgets/rollbook.js")).src;
  const engine = await import(new URL("engine.js", entry).href); // the page's own module
  globalThis.__states = [];
  engine.watchEngine(({ state, message }) => __states.push(message ? `${state}: ${message}` : state));
}"""


def faulty(browser: Any, base_url: str, outside: Any, limits: dict[str, int], **options: Any) -> Any:
    context = phone_context(browser, base_url, outside, **options)
    context.add_init_script(FAULTS % json.dumps(limits))
    return context


def open_roller(context: Any, base_url: str) -> Page:
    page = context.new_page()
    page.goto(base_url + "tools/roller/")
    page.evaluate(STATES)
    return page


def roll(page: Page, expression: str) -> None:
    field = page.get_by_label("Dice expression")
    field.fill(expression)
    field.press("Enter")


def retry_recovers(page: Page, notice: Any, expression: str, count: int) -> None:
    """Retry tapped, then `expression` rolled: the log holds `count` rolls and the notice is gone."""
    notice.get_by_role("button", name="Retry").click()
    roll(page, expression)
    rolled(page, count)
    expect(notice).to_have_count(0)


def rolled(page: Page, count: int) -> None:
    """The roll log holds `count` rolls and the roller shows a total, not "Rolling…"."""
    expect(page.get_by_role("log").locator("li")).to_have_count(count, timeout=ENGINE_TIMEOUT_MS)
    expect(page.locator(".rollbook-total__value")).to_be_visible()
    expect(page.get_by_text("Rolling…")).to_have_count(0)


def states_since(page: Page, start: int) -> list[str]:
    return page.evaluate("(start) => __states.slice(start)", start)


def test_a_terminated_worker_is_noticed_the_tap_is_answered_and_the_state_never_says_ready(browser, base_url: str, outside) -> None:
    # The heartbeat is slower than the answer limit here: the roll after the first terminate
    # is what notices it; the second terminate, with nothing asked, is the heartbeat's to notice.
    context = faulty(browser, base_url, outside, {"answer": 4000, "pong": 3000, "heartbeat": 6000})
    try:
        page = open_roller(context, base_url)
        roll(page, "1d20")
        rolled(page, 1)
        before = page.evaluate("__states.length")
        took = page.evaluate("() => { __workers.at(-1).terminate(); return performance.now(); }")
        roll(page, "3d6")
        rolled(page, 2)  # answered by a new worker, the roll sent to it once more: not lost
        assert page.evaluate("__workers.length") == 2
        assert states_since(page, before) == ["starting: " + RESTARTING, "ready"]
        assert page.evaluate("performance.now()") - took < ENGINE_TIMEOUT_MS
        log = read_kept(page)["log"]
        assert [entry["expression"] for entry in log] == ["1d20", "3d6"]

        before = page.evaluate("__states.length")
        page.evaluate("__workers.at(-1).terminate()")  # idle: the heartbeat's ping goes unanswered
        page.wait_for_function("(before) => __states.length >= before + 2", arg=before, timeout=ENGINE_TIMEOUT_MS)
        assert states_since(page, before) == ["starting: " + RESTARTING, "ready"]
        assert page.evaluate("__workers.length") == 3
        roll(page, "2d6")
        rolled(page, 3)
        assert page.evaluate("__workers.length") == 3
    finally:
        context.close()
    assert outside.urls == []


def test_an_engine_that_never_starts_or_never_answers_says_so_and_retry_recovers(browser, base_url: str, outside) -> None:
    context = faulty(browser, base_url, outside, {"start": 3000, "answer": 4000})
    held: list[Any] = []
    try:
        # Never ready: the runtime hangs on the way. After the start limit: Retry.
        context.route("**/pyodide/*/pyodide.asm.mjs", lambda route: held.append(route))
        page = open_roller(context, base_url)
        roll(page, "1d20")
        notice = page.locator(".rollbook-engine-state[role=alert]")
        expect(notice.locator("p")).to_have_text(COULD_NOT_START, timeout=ENGINE_TIMEOUT_MS)
        expect(page.locator("#rollbook-roller-problem")).to_have_count(0)  # said once, in the notice with Retry
        expect(page.get_by_text("Rolling…")).to_have_count(0)
        assert page.evaluate("__states.at(-1)") == "failed: " + COULD_NOT_START
        context.unroute("**/pyodide/*/pyodide.asm.mjs")
        for route in held:
            route.abort()
        page.evaluate("rollbookEngineLimits.start = 90000")  # the loaded machine's real start
        retry_recovers(page, notice, "1d20", 1)

        # Ready, then silent: every request is lost on the way, the one sent again too.
        page.evaluate("__swallow = true")
        before = page.evaluate("__states.length")
        roll(page, "2d6")
        expect(notice.locator("p")).to_have_text(STOPPED, timeout=ENGINE_TIMEOUT_MS)
        assert states_since(page, before) == ["starting: " + RESTARTING, "ready", "failed: " + STOPPED]
        expect(page.locator("#rollbook-roller-problem")).to_have_count(0)  # said once, in the notice with Retry
        expect(page.get_by_label("Dice expression")).to_have_attribute("aria-invalid", "false")  # not the expression's fault
        expect(page.get_by_text("Rolling…")).to_have_count(0)
        text = page.locator("article").inner_text()
        assert engine_words(text) == [], engine_words(text)
        assert axe_violations(page, within=["rollbook-roller"]) == []

        page.evaluate("__swallow = false")
        retry_recovers(page, notice, "2d6", 2)
    finally:
        context.close()
    assert outside.urls == []


def test_a_runtime_that_cannot_be_fetched_says_so_at_once_not_at_the_start_limit(browser, base_url: str, outside) -> None:
    """The runtime's wasm answered 404 (as an engine folder a deploy replaced, its small files still
    in the browser's cache, issue 39): Pyodide logs "wasm instantiation failed!" and never settles,
    so the worker said nothing and the page waited the whole start limit (90 s) on "starting"."""
    context = faulty(browser, base_url, outside, {})  # the real limits: the start's is 90 s
    try:
        context.route("**/pyodide/*/pyodide.asm.wasm", lambda route: route.fulfill(status=404, body="Not Found"))
        page = open_roller(context, base_url)
        took = page.evaluate("performance.now()")
        roll(page, "1d20")
        notice = page.locator(".rollbook-engine-state[role=alert]")
        expect(notice.locator("p")).to_have_text(COULD_NOT_START, timeout=20_000)
        assert page.evaluate("performance.now()") - took < 20_000
        assert page.evaluate("__states.at(-1)") == "failed: " + COULD_NOT_START
        expect(page.get_by_text("Rolling…")).to_have_count(0)
        # The page settles (its own warm-up: 1 s after the load, then an idle moment of at most
        # 1 s) and does not start the engine again by itself: that took Retry from under the
        # reader's thumb to "Starting…" (under load Playwright found it detached for 30 s).
        page.wait_for_function("() => performance.now() > performance.getEntriesByType('navigation')[0].loadEventEnd + 2500")
        assert page.evaluate("[__workers.length, __states.at(-1)]") == [1, "failed: " + COULD_NOT_START]
        context.unroute("**/pyodide/*/pyodide.asm.wasm")
        retry_recovers(page, notice, "1d20", 1)  # the file back: Retry recovers
    finally:
        context.close()
    assert outside.urls == []


UPDATED = ("Rollbook was updated on the site while this page was open, so its dice engine cannot start again here. "
           "Reload the page to go on: everything kept in this browser stays kept.")


def test_an_engine_a_deploy_replaced_says_reload_in_every_answer_and_the_status_never_check_the_connection(browser, base_url: str,
                                                                                                         outside) -> None:
    """A page whose engine folder a newer deploy removed (issue 39), its worker ended: the start
    that fails says so in the status (Reload, no Retry) and in the answer of every widget that
    waited, here a die in the rules text, not "check the connection, then tap Retry"."""
    context = faulty(browser, base_url, outside, {"answer": 4000})
    try:
        page = context.new_page()
        page.goto(base_url + "opencore/combat/")
        page.evaluate(STATES)
        die = page.get_by_role("button", name="Roll 1d100 (Fumble chart)")
        output = page.locator("rollbook-roll output").first
        die.click()
        expect(output).to_contain_text(re.compile(r"\d"), timeout=ENGINE_TIMEOUT_MS)
        context.route("**/pyodide/*/**", lambda route: route.fulfill(status=404, body="Not Found"))  # the deploy
        page.evaluate("__workers.at(-1).terminate()")
        die.click()
        expect(output).to_contain_text("Rollbook was updated on the site while this page was open: reload the page to go on",
                                       timeout=20_000)
        assert page.evaluate("__states.at(-1)") == "failed: " + UPDATED
        text = widgets_text(page)
        assert "Check the connection" not in text and "Retry" not in text and "check the connection" not in text
        said = output.inner_text()
        assert engine_words(said) == [], engine_words(said)
    finally:
        context.close()
    assert outside.urls == []
