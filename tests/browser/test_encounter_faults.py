"""The encounter page when the browser fails it (issue 39): storage that fills up or is blocked in
the middle of a fight, a browser with no Web Locks or whose IndexedDB getter throws, an engine
worker killed or silent in the middle of a step, and hostile values in names. Each step is said
kept only when it is, said where it was tapped when it is not, and nothing is lost or half-applied."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from browserkit import ENGINE_TIMEOUT_MS, open_fight, phone_context, watch_errors, widgets_text
from kit.kept import KEPT, a_fight, kept_fight
from vocabulary import engine_words

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]

KEY = KEPT
# The site's quota filled to the last character, from the page (another site's data, a big export).
FILL = """() => { let n = 0;
  for (let size = 1 << 20; size >= 1; size >>= 1) {
    try { for (;;) localStorage.setItem("filler" + n++, "x".repeat(size)); } catch { /* full at this size */ }
  } }"""
EMPTY = """() => { for (const key of Object.keys(localStorage)) if (key.startsWith("filler")) localStorage.removeItem(key); }"""
# Storage that starts refusing every write in the middle of the visit (a setting changed, a private mode's limit).
BLOCK = """() => { Storage.prototype.setItem = function () { throw new DOMException("The operation is insecure.", "SecurityError"); }; }"""
NOT_KEPT_FULL = "Not kept in this browser: this browser's storage for this site is full."


@pytest.mark.parametrize("fault", ["full", "blocked"])
def test_storage_failing_during_a_step_says_not_kept_at_the_step_and_nothing_is_lost(phone, base_url: str, fault: str) -> None:
    page = phone.new_page()
    errors = watch_errors(page)
    fight = a_fight()
    open_fight(page, base_url, fight)
    page.evaluate(FILL if fault == "full" else BLOCK)
    page.locator(".rollbook-encounter__next").click()
    expect(page.locator(".rollbook-encounter__undo")).to_have_text("Undo (1)", timeout=ENGINE_TIMEOUT_MS)
    # said where the step's answer is (Next's: by the bar), not only in the notice at the page's top
    said = page.locator(".rollbook-encounter__not-kept")
    expect(said).to_have_count(1)
    expect(said).to_contain_text("Not kept in this browser")
    expect(said).to_contain_text("Export to a file keeps it")
    assert said.is_visible() and (said.bounding_box() or {"y": 0})["y"] < 844
    assert "Not kept in this browser" in page.locator("rollbook-encounter [role=status][aria-live=polite]").inner_text()
    assert kept_fight(page) == fight  # storage holds what it held: nothing half-written
    card = page.locator("li[aria-current='true']")
    card.locator(".rollbook-encounter__attack").click()  # the next step, still not kept: said at the card
    expect(card.locator(".rollbook-encounter__not-kept")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    assert engine_words(page.locator("rollbook-encounter").inner_text()) == []
    if fault == "full":  # room made again: the next step keeps every step shown, none lost
        page.evaluate(EMPTY)
        page.locator(".rollbook-encounter__next").click()
        expect(page.locator(".rollbook-encounter__undo")).to_have_text("Undo (3)", timeout=ENGINE_TIMEOUT_MS)
        expect(page.locator(".rollbook-encounter__not-kept")).to_have_count(0)
        shown = page.locator(".rollbook-encounter__now").inner_text()
        page.reload()
        expect(page.locator(".rollbook-encounter__undo")).to_have_text("Undo (3)", timeout=ENGINE_TIMEOUT_MS)
        expect(page.locator(".rollbook-encounter__now")).to_have_text(shown)
        assert len(kept_fight(page)["undo"]) == 3
    assert errors == []


# Browsers without what the page uses to keep two tabs in step: each fault before the page's scripts.
MISSING = {
    "IndexedDB's getter throws": """Object.defineProperty(globalThis, "indexedDB", { configurable: true,
        get() { throw new DOMException("The user denied permission to access the database.", "SecurityError"); } });""",
    "no Web Locks": """Object.defineProperty(Navigator.prototype, "locks", { configurable: true, get: () => undefined });""",
    "the Web Locks getter throws": """Object.defineProperty(Navigator.prototype, "locks", { configurable: true,
        get() { throw new DOMException("The operation is insecure.", "SecurityError"); } });""",
    "IndexedDB refuses to open": """IDBFactory.prototype.open = function () { throw new DOMException("denied", "InvalidStateError"); };""",
}


@pytest.mark.parametrize("missing", list(MISSING))
def test_the_encounter_runs_and_keeps_its_steps_without_indexeddb_or_web_locks(browser, base_url: str, outside, missing: str) -> None:
    context = phone_context(browser, base_url, outside)
    context.add_init_script(MISSING[missing])
    try:
        page = context.new_page()
        errors = watch_errors(page)
        open_fight(page, base_url, a_fight())
        page.locator(".rollbook-encounter__next").click()
        expect(page.locator(".rollbook-encounter__undo")).to_have_text("Undo (1)", timeout=ENGINE_TIMEOUT_MS)
        page.locator("li[aria-current='true'] .rollbook-encounter__attack").click()
        expect(page.locator(".rollbook-encounter__undo")).to_have_text("Undo (2)", timeout=ENGINE_TIMEOUT_MS)
        page.reload()
        expect(page.locator(".rollbook-encounter__undo")).to_have_text("Undo (2)", timeout=ENGINE_TIMEOUT_MS)
        text = widgets_text(page)
        assert "did not load" not in text and "not kept" not in text, text[:400]
        assert len(kept_fight(page)["undo"]) == 2
        assert errors == []
    finally:
        context.close()
    assert outside.urls == []


# Short engine limits, and every engine worker the page starts within the test's reach (terminate()
# is the page's own worker's); requests swallowed on their way while __swallow is set (tests/browser/test_engine_faults.py).
ENGINE_FAULTS = """
globalThis.rollbookEngineLimits = { answer: 8000, pong: 8000, heartbeat: 60000 };
const PageWorker = Worker;
globalThis.__workers = [];
globalThis.__swallow = false;
globalThis.Worker = class extends PageWorker {
  constructor(url, options) {
    super(url, options);
    if (options?.name === "rollbook-engine") __workers.push(this);
  }
  postMessage(message, ...rest) { if (!(__swallow && message?.request)) super.postMessage(message, ...rest); }
};
"""
STOPPED = "The dice engine stopped and did not answer. Tap Retry, then try again."


def test_an_engine_killed_or_silent_in_the_middle_of_a_step_applies_it_once_or_not_at_all_and_retry_works(browser, base_url: str, outside) -> None:
    context = phone_context(browser, base_url, outside)
    context.add_init_script(ENGINE_FAULTS)
    try:
        page = context.new_page()
        errors = watch_errors(page)
        fight = a_fight()
        open_fight(page, base_url, fight)
        # killed while it works out the step: the step is asked of a new worker, and kept once
        page.evaluate("""() => { document.querySelector(".rollbook-encounter__next").click(); __workers.at(-1).terminate(); }""")
        expect(page.locator(".rollbook-encounter__undo")).to_have_text("Undo (1)", timeout=ENGINE_TIMEOUT_MS)
        after_next = kept_fight(page)
        assert (after_next["seed"], after_next["undo"], after_next["current"]["round"]) == (6, [fight["current"]], 1)
        assert page.evaluate("__workers.length") == 2
        # silent: said plainly, with Retry; the step not applied, nothing kept, nothing busy
        page.evaluate("__swallow = true")
        card = page.locator("li[aria-current='true']")
        card.locator(".rollbook-encounter__attack").click()
        notice = page.locator("rollbook-encounter .rollbook-engine-state[role=alert]")
        expect(notice.locator("p")).to_have_text(STOPPED, timeout=ENGINE_TIMEOUT_MS)
        expect(page.locator(".rollbook-encounter__undo")).to_have_text("Undo (1)")
        expect(page.locator("rollbook-encounter [aria-busy=true]")).to_have_count(0)
        assert kept_fight(page) == after_next
        assert engine_words(page.locator("rollbook-encounter").inner_text()) == []
        page.evaluate("__swallow = false")
        notice.get_by_role("button", name="Retry").click()
        card.locator(".rollbook-encounter__attack").click()
        expect(page.locator(".rollbook-encounter__undo")).to_have_text("Undo (2)", timeout=ENGINE_TIMEOUT_MS)
        expect(notice).to_have_count(0)
        assert kept_fight(page)["seed"] == 7  # one attack's seed: the one never answered took none
        assert errors == []
    finally:
        context.close()
    assert outside.urls == []


LONGEST = "A" * 80  # the longest name the engine takes (encounter/shape.py LONGEST_TEXT)


def foe(n: int, name: str, score: dict[str, int], **more: Any) -> dict[str, Any]:
    return {"id": f"f{n}", "name": name, "rules": "opencore", "side": "foes", "weapon": None, "armor_name": None,
            "score": score, "created": "2026-12-05T08:00:00.000Z", **more}


def test_hostile_kept_foes_and_long_names_added_in_one_tap_are_refused_in_a_players_words(phone, base_url: str) -> None:
    """A kept foe of the longest name tapped twice (the second's number fits inside the 80
    characters: "AAA…A 2"), one with a score the engine does not know: the refusal names the
    combatant and its value in a player's words, never a bare "unknown score" under the buttons;
    markup in a name stays text; nothing is half-added."""
    page = phone.new_page()
    errors = watch_errors(page)
    page.on("dialog", lambda dialog: (errors.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    page.goto(base_url + "tools/")
    foes = [foe(1, LONGEST, {"hp": 12}), foe(2, "<img src=x onerror=alert(1)>", {"hp": 12}), foe(3, "__proto__", {"__proto__": 3})]
    # as text: an object handed to the page would lose its "__proto__" key on the way
    page.evaluate(f"(text) => localStorage.setItem('{KEY}', text)", json.dumps({"rollbook": 2, "foes": foes}))
    page.goto(base_url + "tools/encounter/")
    tracker = page.locator("rollbook-encounter")
    tracker.get_by_role("button", name="Start the encounter").click()
    expect(tracker.get_by_role("heading", name="Before the first round")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    quick = tracker.get_by_role("list", name="Add in one tap")
    quick.get_by_role("button", name=LONGEST, exact=True).click()
    expect(tracker.locator(".rollbook-encounter__undo")).to_have_text("Undo (1)", timeout=ENGINE_TIMEOUT_MS)
    quick.get_by_role("button", name=LONGEST, exact=True).click()
    # the engine numbers the second copy inside the limit: 78 characters and " 2", never refused
    expect(tracker.locator(".rollbook-encounter__undo")).to_have_text("Undo (2)", timeout=ENGINE_TIMEOUT_MS)
    problem = tracker.locator("#rollbook-enc-quick-problem")
    quick.get_by_role("button", name="__proto__", exact=True).click()
    expect(problem).to_contain_text("__proto__ was not added: unknown score", timeout=ENGINE_TIMEOUT_MS)
    quick.get_by_role("button", name="<img src=x onerror=alert(1)>", exact=True).click()
    expect(tracker.locator(".rollbook-encounter__undo")).to_have_text("Undo (3)", timeout=ENGINE_TIMEOUT_MS)
    expect(tracker.locator("h3.rollbook-combatant__name", has_text="<img src=x onerror=alert(1)>")).to_be_visible()
    enc = kept_fight(page)
    assert [c["name"] for c in enc["current"]["combatants"]] == [
        LONGEST, "A" * 78 + " 2", "<img src=x onerror=alert(1)>"]
    assert len(enc["undo"]) == 3
    assert engine_words(tracker.inner_text()) == []
    assert errors == []
