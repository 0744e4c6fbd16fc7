"""Table mode on the built site, at phone size: the header's toggle keeps the screen awake (the
Screen Wake Lock API, here a recording stand-in so the test sees every request and release), the
`r` shortcut rolls the last roll again, and the reader's contrast and motion settings are honoured."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browserkit import ENGINE_TIMEOUT_MS, Visit, axe_violations, small_tap_targets
from kit.kept import read_kept
from rollbook import api

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]

# Before any of the site's scripts: a wake lock that records what the page asks of it, and a
# visibility the test can change (headless Chromium is always "visible").
FAKE_WAKE_LOCK = """
(() => {
  const calls = [];
  let visibility = "visible";
  Object.defineProperty(document, "visibilityState", { get: () => visibility, configurable: true });
  class Sentinel extends EventTarget {
    constructor() { super(); this.released = false; }
    async release() {
      if (this.released) return;
      this.released = true;
      calls.push("release");
      this.dispatchEvent(new Event("release"));
    }
  }
  const wakeLock = {
    sentinels: [],
    async request(type) { calls.push("request " + type); const s = new Sentinel(); this.sentinels.push(s); return s; },
  };
  Object.defineProperty(Navigator.prototype, "wakeLock", { get: () => wakeLock, configurable: true });
  window.__wakeLock = { calls, wakeLock, setVisibility(state) {
    visibility = state;
    document.dispatchEvent(new Event("visibilitychange"));
  } };
})();
"""

NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"


def calls(page: Page) -> list[str]:
    return page.evaluate("() => [...window.__wakeLock.calls]")


def toggle(page: Page) -> Any:
    return page.locator("rollbook-table-mode button")


def test_the_toggle_keeps_the_screen_awake_takes_it_back_and_is_remembered(fresh_phone, base_url: str) -> None:
    fresh_phone.add_init_script(FAKE_WAKE_LOCK)
    page = fresh_phone.new_page()
    page.goto(base_url + "tools/")
    button = toggle(page)
    expect(button).to_be_visible()
    expect(button).to_have_attribute("aria-pressed", "false")
    assert calls(page) == []
    assert small_tap_targets(page, "rollbook-table-mode button") == []

    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(button).to_have_accessible_name(re.compile("Table mode is on"))
    expect(page.locator(".rollbook-notice")).to_contain_text("screen stays awake")
    assert calls(page) == ["request screen"]

    # Another app in front: the browser lets go; back in front: taken again, no tap needed.
    page.evaluate("async () => { window.__wakeLock.setVisibility('hidden');"
                  " await window.__wakeLock.wakeLock.sentinels[0].release(); }")
    page.evaluate("() => window.__wakeLock.setVisibility('visible')")
    page.wait_for_function("() => window.__wakeLock.calls.length === 3")
    assert calls(page) == ["request screen", "release", "request screen"]

    # A reload at the table keeps table mode, and its lock.
    page.reload()
    expect(toggle(page)).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("() => window.__wakeLock.calls.length === 1")
    assert calls(page) == ["request screen"]

    toggle(page).click()
    expect(toggle(page)).to_have_attribute("aria-pressed", "false")
    assert calls(page) == ["request screen", "release"]
    assert axe_violations(page, within=[".md-header"]) == []


def test_without_the_wake_lock_api_there_is_no_toggle(fresh_phone, base_url: str) -> None:
    fresh_phone.add_init_script(NO_WAKE_LOCK)
    page = fresh_phone.new_page()
    page.goto(base_url + "tools/")
    page.wait_for_function("() => customElements.get('rollbook-table-mode') !== undefined")
    expect(toggle(page)).to_be_hidden()


def test_r_rolls_the_last_roll_again_but_not_while_typing(tab: Visit) -> None:
    page = tab("tools/")
    notice = page.locator(".rollbook-notice")

    page.keyboard.press("r")
    expect(notice).to_contain_text("Nothing to roll again yet")

    page.get_by_role("button", name="Roll 1d100 (Example roll)").click()
    expect(page.locator("rollbook-roll output").first).to_contain_text(re.compile(r"\d"), timeout=ENGINE_TIMEOUT_MS)
    page.locator("h1").click()  # the focus off the roll's button, as a reader's would be
    page.keyboard.press("r")
    expect(notice).to_contain_text(re.compile(r"Rolled again: Example roll = \d+"))

    log = read_kept(page)["log"]
    assert [entry["label"] for entry in log] == ["Example roll", "Example roll"]
    again = log[-1]
    expected = json.loads(api.call_json(json.dumps(
        {"command": "roll", "args": {"expression": "1d100", "seed": again["seed"]}})))["result"]["total"]
    assert again["total"] == expected
    assert f"= {again['total']}" in notice.inner_text()

    # `r` typed into the search is a letter of the query, not a roll.
    page.keyboard.press("/")
    page.keyboard.type("rr")
    expect(page.get_by_role("textbox", name="Search")).to_have_value("rr")
    assert len(read_kept(page)["log"]) == 2


def test_increased_contrast_and_reduced_motion_are_honoured(tab: Visit) -> None:
    page = tab("tools/")
    secondary = "() => getComputedStyle(document.querySelector('.md-typeset h1')).color"
    body = "() => getComputedStyle(document.querySelector('.md-typeset p')).color"
    motion = "() => parseFloat(getComputedStyle(document.querySelector('.md-typeset a')).transitionDuration)"

    page.emulate_media(contrast="no-preference", reduced_motion="no-preference")
    assert page.evaluate(secondary) != page.evaluate(body)  # Material's headings are a lighter grey
    assert page.evaluate(motion) >= 0.1  # Material's 125 ms colour change

    page.emulate_media(contrast="more", reduced_motion="reduce")
    assert page.evaluate(secondary) == page.evaluate(body) == "rgb(0, 0, 0)"
    assert page.evaluate(motion) < 0.001
    decoration = page.evaluate("() => getComputedStyle(document.querySelector('.md-typeset a')).textDecorationLine")
    assert decoration == "underline"
