"""Back and forward in the middle of an encounter step (issue 39): Roll initiative tapped, then
history.back() in the same moment, before the answer, then forward again. Reached by Material's
instant navigation (the document stays; the tracker is taken off the page mid-step), by a page
load (the document goes, its engine with it) or from the back/forward cache (the document is kept
frozen as it was, mid-step, its engine too, and thawed on forward: a phone's browser does this;
Playwright's Chromium does not unless asked). The step is kept whole or not at all, never twice:
what the page shows after forward is what storage holds, the replay of the steps kept on CPython;
the next tap steps on from it once; a reload agrees; no page error."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError, Page, expect

from browserkit import ENGINE_TIMEOUT_MS, STALE_READ
from kit.engine import engine
from kit.kept import KEPT, read_kept

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]

SEED = 5


def a_fight() -> dict[str, Any]:
    enc = engine("encounter start", rules="opencore")["encounter"]
    score = {"hp": 20, "con": 30, "dex": 40, "str": 70, "attack_skill": 40, "defense_skill": 20, "toughness": 0}
    for name, side in (("Buck", "players"), ("Orc", "orcs")):
        enc = engine("encounter add", encounter=enc, name=name, side=side, score=score)["encounter"]
    return {"current": enc, "undo": [], "full": {}, "seed": SEED, "updated": "2026-12-01T00:00:00.000Z"}


# Each showing of a page: false when loaded, true when thawed from the back/forward cache.
SHOWS = "addEventListener('pageshow', (event) => { (window.rollbookShows ??= []).push(event.persisted); });"
# Back in view after a history step: loaded again (the mark gone with the old document) or thawed
# (shown a second time); evaluated before that, a thawed page still reads [false].
SHOWN_AGAIN = "() => !window.rollbookLeft || window.rollbookShows?.length > 1"


def why_not_cached(page: Page) -> list[list[str]]:
    """Chromium's reasons, as it gives them, each time a history step loaded `page` again where it
    could have thawed it (filled in as they come)."""
    reasons: list[list[str]] = []
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.enable")
    cdp.on("Page.backForwardCacheNotUsed", lambda event: reasons.append(
        [why["reason"] for why in event["notRestoredExplanations"]]))
    return reasons


def ready(page: Page) -> None:
    expect(page.locator(".rollbook-encounter__next")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    page.wait_for_function("() => document.querySelector('rollbook-encounter')?.rulingTitles", timeout=ENGINE_TIMEOUT_MS)


def replay(fight: dict[str, Any], steps: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The encounter after `steps` Next steps from `fight`, each with the fight's next seed, and Undo's states."""
    current, undo = fight["current"], []
    for n in range(steps):
        undo.append(current)
        current = engine("encounter next", encounter=current, seed=SEED + n)["encounter"]
    return current, undo


def shown_and_kept(page: Page, fight: dict[str, Any]) -> int:
    """How many steps storage holds (each the replay's), and the page shows the same."""
    kept = read_kept(page)["encounter"]
    steps = len(kept["undo"])
    current, undo = replay(fight, steps)
    assert kept["current"] == current and kept["undo"] == undo, f"the kept encounter is not the replay of {steps} steps"
    assert kept["seed"] == SEED + steps, f"{steps} steps kept, next seed {kept['seed']}: a seed taken twice or lost"
    expect(page.locator(".rollbook-encounter__undo")).to_have_text(f"Undo ({steps})" if steps else "Undo")
    return steps


@pytest.mark.parametrize("forward", ["after the answer", "at once"])
@pytest.mark.parametrize("how", ["instant navigation", "page load", "back/forward cache"])
def test_back_and_forward_in_the_middle_of_a_step_keep_it_once_or_not_at_all(request: pytest.FixtureRequest, base_url: str,
                                                                            how: str, forward: str) -> None:
    page = request.getfixturevalue("bfcache_phone" if how == "back/forward cache" else "phone").new_page()
    page.add_init_script(SHOWS)
    not_cached = why_not_cached(page) if how == "back/forward cache" else []
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    fight = a_fight()
    page.goto(base_url + "tools/")
    page.evaluate("([key, fight]) => localStorage.setItem(key, JSON.stringify({rollbook: 2, encounter: fight}))", [KEPT, fight])
    page.reload()  # the kept state is read as the page loads
    if how == "instant navigation":  # Material follows links once it has run and has the sitemap
        with page.expect_response(lambda response: response.url.endswith("/sitemap.xml")):
            page.locator("article h1").first.click()
        page.wait_for_load_state("networkidle")
        page.evaluate("window.rollbookMarker = 'one document'")
        page.locator("article a[href$='/tools/encounter/']").first.click()
    else:
        page.goto(base_url + "tools/encounter/")
    ready(page)
    assert page.evaluate("window.rollbookMarker ?? null") == ("one document" if how == "instant navigation" else None)
    assert shown_and_kept(page, fight) == 0

    try:  # the tap and Back in one task; from the browser's cache, Back can leave before the answer to this
        page.evaluate("() => { window.rollbookLeft = true; document.querySelector('.rollbook-encounter__next').click(); history.back(); }")
    except PlaywrightError as error:
        if "Execution context was destroyed" not in str(error):
            raise
    # A page thawed from the back/forward cache has no load event: there each step waits for the
    # commit, then for the page to be shown (Forward called on a page still being swapped in fails:
    # "Not attached to an active page"). Elsewhere, for the load, as before.
    arrived = "commit" if how == "back/forward cache" else "load"
    page.wait_for_url(lambda url: not url.endswith("/encounter/"), wait_until=arrived, timeout=ENGINE_TIMEOUT_MS)
    if how == "back/forward cache":
        page.wait_for_function("() => !location.pathname.endsWith('/encounter/') && window.rollbookShows?.length > 0",
                               timeout=ENGINE_TIMEOUT_MS)
    if forward == "after the answer":
        page.wait_for_timeout(1500)  # the step's answer, had it gone on, has come by now
    page.go_forward(wait_until=arrived)
    page.wait_for_url("**/tools/encounter/", wait_until=arrived, timeout=ENGINE_TIMEOUT_MS)
    ready(page)
    if how == "back/forward cache":  # thawed mid-step, not loaded again (the first show was the load)
        page.wait_for_function(SHOWN_AGAIN, timeout=ENGINE_TIMEOUT_MS)
        shows = page.evaluate("window.rollbookShows")
        # The step's answer can reach the frozen page (its worker's message), or Forward come while
        # it is still being frozen: Chromium then drops it from the cache and loads it again, saying
        # why (seen: 'JavaScriptExecution', 'NavigationCancelledWhileRestoring', in about 1 run of 5):
        # the page load's case, checked below all the same. Otherwise it is thawed mid-step.
        evicted = shows == [False] and bool(not_cached)
        assert evicted or shows == [False, True], f"loaded again, not thawed: {not_cached}"
    page.wait_for_timeout(1500)  # a step still on its way is kept or not by now
    steps = shown_and_kept(page, fight)
    assert steps in (0, 1)

    page.locator(".rollbook-encounter__next").click()  # the next tap steps on once, from what is kept
    expect(page.locator(".rollbook-encounter__undo")).to_have_text(f"Undo ({steps + 1})", timeout=ENGINE_TIMEOUT_MS)
    expect(page.locator("rollbook-encounter .rollbook-problem")).to_have_count(0)
    assert shown_and_kept(page, fight) == steps + 1
    page.reload()
    ready(page)
    assert shown_and_kept(page, fight) == steps + 1
    assert json.loads(page.evaluate(f"() => localStorage.getItem('{KEPT}')"))["rollbook"] == 2
    assert errors == []


# A browser that sends a frozen page no storage event (Chromium keeps them for the thaw; another
# browser need not): here the first tab hears none at all.
DEAF = "addEventListener('storage', (event) => event.stopImmediatePropagation(), true);"


# And its copy of storage a moment behind the browser's at the thaw (Chromium's copies per process,
# brought up to date by messages: widgets/session.js), as it was read at the freeze for 100 ms.
STALE_AT_THAW = STALE_READ + """
addEventListener("pagehide", (event) => { if (event.persisted) window.__frozenWith = localStorage.getItem(%s); }, true);
addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  window.__stale = window.__frozenWith;
  setTimeout(() => { delete window.__stale; }, 100);
}, true);""" % json.dumps(KEPT)


@pytest.mark.parametrize("events", ["kept for the thaw", "none while frozen", "none while frozen, storage a moment behind"])
def test_a_page_thawed_from_the_back_forward_cache_shows_the_step_another_tab_kept_meanwhile(bfcache_phone, base_url: str,
                                                                                            events: str) -> None:
    # Frozen, a page hears nothing: what another tab kept meanwhile must be shown when it thaws, and
    # its next tap must step on from that, not from the fight it showed when it froze.
    fight = a_fight()
    first = bfcache_phone.new_page()
    first.add_init_script(SHOWS + (DEAF if events.startswith("none") else "") + (STALE_AT_THAW if events.endswith("behind") else ""))
    not_cached = why_not_cached(first)
    first.goto(base_url + "tools/")
    first.evaluate("([key, fight]) => localStorage.setItem(key, JSON.stringify({rollbook: 2, encounter: fight}))", [KEPT, fight])
    first.goto(base_url + "tools/encounter/")
    ready(first)
    first.evaluate("window.rollbookLeft = true")
    first.go_back(wait_until="commit")
    second = bfcache_phone.new_page()
    second.goto(base_url + "tools/encounter/")
    ready(second)
    second.locator(".rollbook-encounter__next").click()
    expect(second.locator(".rollbook-encounter__undo")).to_have_text("Undo (1)", timeout=ENGINE_TIMEOUT_MS)
    first.go_forward(wait_until="commit")
    first.wait_for_function(SHOWN_AGAIN, timeout=ENGINE_TIMEOUT_MS)
    assert first.evaluate("window.rollbookShows") == [False, True], f"loaded again, not thawed: {not_cached}"
    expect(first.locator(".rollbook-encounter__undo")).to_have_text("Undo (1)")
    assert shown_and_kept(first, fight) == 1
    first.locator(".rollbook-encounter__next").click()
    expect(first.locator(".rollbook-encounter__undo")).to_have_text("Undo (2)", timeout=ENGINE_TIMEOUT_MS)
    expect(first.locator("rollbook-encounter .rollbook-problem")).to_have_count(0)
    assert shown_and_kept(first, fight) == 2
    expect(second.locator(".rollbook-encounter__undo")).to_have_text("Undo (2)")
