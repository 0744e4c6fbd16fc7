"""What a player keeps, when this browser does not keep it (issue 20): storage that refuses every
write (as private modes do), a full quota over a damaged value, an encounter file with one bad
field, and two tabs acting at the same moment. The real built site in Chromium at phone size."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browserkit import ENGINE_TIMEOUT_MS, SHOTS as BROWSER_SHOTS, STALE_READ, axe_violations, encounter_quiet, open_fight, origin_of, phone_context, watch_errors, widgets_text
from kit.kept import KEPT as KEY, a_fight, keep_an_encounter, kept_fight
from vocabulary import engine_words

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]

SHOTS = BROWSER_SHOTS / "storage"
# Storage that refuses every write, as Safari's private mode did and some blocked-data settings do.
BLOCKED = """Storage.prototype.setItem = function () { throw new DOMException("The operation is insecure.", "SecurityError"); };"""
DAMAGED = '{"rollbook": 2, "log": [{"id": 1}]}'
KRISTINE = {"id": "c1", "name": "Kristine", "hp_roll": 60, "created": "2026-11-30T18:00:00.000Z",
            "scores": {"STR": 80, "DEX": 33, "AGL": 95, "CON": 46, "INT": 89, "PER": 95, "WIS": 84, "CHA": 68, "COM": 1}}
# A damaged kept value, then the site's quota filled to the last character (once per context).
FULL_OVER_DAMAGED = """
if (localStorage.getItem("%(key)s") === null) {
  localStorage.setItem("%(key)s", %(damaged)s);
  let n = 0;
  for (let size = 1 << 20; size >= 1; size >>= 1) {
    try { for (;;) localStorage.setItem("filler" + n++, "x".repeat(size)); } catch { /* full at this size */ }
  }
}""" % {"key": KEY, "damaged": json.dumps(DAMAGED)}


def stored(page: Page) -> Any:
    return page.evaluate(f"() => localStorage.getItem('{KEY}')")


def shoot(page: Page, name: str, selector: str) -> None:
    """The notice at 390 x 844 in both palettes, for a person to look at."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.locator(selector).first.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"{name}-{scheme}.png"))
    page.emulate_media(color_scheme="light")


def keep_a_character(page: Page, name: str) -> None:
    page.get_by_role("button", name="Roll a character").click()
    expect(page.locator("[data-score=HP]")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    page.get_by_label("Character name").fill(name)
    page.get_by_role("button", name="Keep this character").click()


def test_blocked_storage_is_said_once_on_every_page_and_nothing_is_called_kept(browser, base_url: str, outside) -> None:
    context = phone_context(browser, base_url, outside)
    context.add_init_script(BLOCKED)
    page = context.new_page()
    page.goto(base_url + "tools/character/")
    notice = page.locator(".rollbook-kept-notice")
    expect(notice).to_have_count(1)  # once, though the kept-data panel is on the page too
    expect(notice).to_contain_text("Nothing is kept in this browser")
    expect(notice.get_by_role("button", name="Export to a file")).to_be_visible()
    keep_a_character(page, "Brakka")
    said = page.locator("#rollbook-character-notice")
    expect(said).to_contain_text("Brakka was not kept in this browser")
    expect(said).to_contain_text("Export to a file keeps it")
    assert "is kept in this browser" not in widgets_text(page)
    expect(page.locator("rollbook-kept")).to_contain_text("On this page, not kept in this browser: 0 rolls, 1 character")
    assert engine_words(page.locator("article").inner_text()) == []
    assert axe_violations(page, within=["rollbook-character", "rollbook-kept"]) == []
    shoot(page, "blocked", ".rollbook-kept-notice")
    # a page with no kept things on it (the criticals) says it in a notice of its own
    page.goto(base_url + "tools/criticals/")
    own = page.locator(".rollbook-kept-notice")
    expect(own).to_have_count(1)
    expect(own).to_contain_text("Nothing is kept in this browser")
    expect(own.get_by_role("button", name="Export to a file")).to_be_visible()
    context.close()
    assert outside.urls == []


def test_blocked_storage_an_import_is_on_the_page_for_the_visit_and_said_not_kept(browser, base_url: str, outside, tmp_path: Path) -> None:
    """Nothing can ever be kept here, so refusing the file helps no one: it is read into this visit,
    said to be gone when the page closes, and Export to a file gives it back."""
    context = phone_context(browser, base_url, outside, accept_downloads=True)
    context.add_init_script(BLOCKED)
    page = context.new_page()
    page.goto(base_url + "tools/offline/")
    expect(page.locator(".rollbook-kept-notice")).to_contain_text("Nothing is kept in this browser")
    file = tmp_path / "rollbook-2026-12-01.json"
    file.write_text(json.dumps({"rollbook": 2, "characters": [KRISTINE]}), encoding="utf-8")
    page.locator("rollbook-kept input[type=file]").set_input_files(str(file))
    done = page.locator("rollbook-kept .rollbook-done")
    expect(done).to_contain_text("Imported 0 rolls, 1 character.")
    expect(done).to_contain_text("on this page for this visit only: it is gone when the page is closed or reloaded")
    expect(done).to_contain_text("To keep it, use Export to a file before then")
    expect(page.locator("#rollbook-kept-problem")).to_have_count(0)
    expect(page.locator("rollbook-kept")).to_contain_text("On this page, not kept in this browser: 0 rolls, 1 character")
    # said once, next to the tap: the notice above it does not say it again, nor offer a second Export
    expect(page.locator(".rollbook-kept-notice")).to_have_count(0)
    expect(page.locator("rollbook-kept").get_by_role("button", name="Export to a file")).to_have_count(1)
    assert widgets_text(page).count("does not let this site keep anything") == 1
    assert "is kept in this browser" not in widgets_text(page)
    assert engine_words(page.locator("rollbook-kept").inner_text()) == []
    assert axe_violations(page, within=["rollbook-kept"]) == []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        done.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"blocked-import-{scheme}.png"))
    page.emulate_media(color_scheme="light")
    with page.expect_download() as download:
        page.locator("rollbook-kept").get_by_role("button", name="Export to a file").click()
    assert [c["name"] for c in json.loads(Path(download.value.path()).read_text(encoding="utf-8"))["characters"]] == ["Kristine"]
    context.close()
    assert outside.urls == []


def test_full_storage_over_a_damaged_value_never_writes_over_it_nor_claims_a_backup(browser, base_url: str, outside, tmp_path: Path) -> None:
    context = phone_context(browser, base_url, outside, accept_downloads=True)
    context.add_init_script(FULL_OVER_DAMAGED)
    page = context.new_page()
    page.goto(base_url + "tools/offline/")
    notice = page.locator(".rollbook-kept-notice")
    expect(notice).to_contain_text("What this browser kept before could not be read (roll 1 of the log, id: expected text, found 1)")
    expect(notice).to_contain_text("no room to set it aside: it is left as it was")
    text = notice.inner_text()
    assert "set aside in this browser" not in text and KEY not in text and ".damaged." not in text
    expect(page.locator("rollbook-kept")).to_contain_text("0 rolls, 0 characters")
    shoot(page, "damaged", ".rollbook-kept-notice")
    with page.expect_download() as download:
        notice.get_by_role("button", name="Export the unreadable copy").click()
    assert Path(download.value.path()).read_text(encoding="utf-8") == DAMAGED
    # an import stores nothing, and says so
    file = tmp_path / "rollbook-2026-12-01.json"
    file.write_text(json.dumps({"rollbook": 2, "characters": [KRISTINE]}), encoding="utf-8")
    page.locator("rollbook-kept input[type=file]").set_input_files(str(file))
    expect(page.locator("#rollbook-kept-problem")).to_contain_text("was not imported, nothing changed")
    assert "Imported" not in page.locator("rollbook-kept").inner_text()
    # a roll on the criticals page: said at once, and the damaged value is still there
    page.goto(base_url + "tools/criticals/")
    expect(page.locator(".rollbook-kept-notice")).to_contain_text("could not be read")
    page.locator("rollbook-criticals").get_by_role("button", name="Look up").click()
    expect(page.locator(".rollbook-notice")).to_contain_text("was not kept in this browser", timeout=ENGINE_TIMEOUT_MS)  # at once
    expect(page.locator(".rollbook-kept-notice")).to_contain_text("was not kept in this browser")
    assert stored(page) == DAMAGED
    # keeping a character does not say it is kept
    page.goto(base_url + "tools/character/")
    keep_a_character(page, "Brakka")
    expect(page.locator("#rollbook-character-notice")).to_contain_text("Brakka was not kept in this browser")
    assert stored(page) == DAMAGED
    context.close()
    assert outside.urls == []


CHANGED_ELSEWHERE = "Not kept: the encounter changed in another tab: here it is now"


def test_two_tabs_advance_one_encounter_at_the_same_moment_both_kept_or_the_later_refused(browser, base_url: str, outside) -> None:
    context = phone_context(browser, base_url, outside)
    first, second = context.new_page(), context.new_page()
    first.goto(base_url + "tools/encounter/")
    keep_an_encounter(first)
    for page in (first, second):
        page.goto(base_url + "tools/encounter/")
        expect(page.locator(".rollbook-encounter__next")).to_have_text("Roll initiative", timeout=ENGINE_TIMEOUT_MS)
    first.locator(".rollbook-encounter__next").click()
    second.locator(".rollbook-encounter__next").click()
    # both steps over (a tab's button also changes when the other tab's step reaches it, so it says nothing)
    encounter_quiet(*first.context.pages)
    refused = [p for p in (first, second) if p.locator(".rollbook-problem").count()]
    assert [p.locator(".rollbook-problem").inner_text() for p in refused] in ([], [CHANGED_ELSEWHERE])
    for page in (first, second):  # both show every step shown as done, and it is what is stored
        expect(page.locator(".rollbook-encounter__undo")).to_have_text(f"Undo ({2 - len(refused)})")
        assert len(json.loads(stored(page))["encounter"]["undo"]) == 2 - len(refused)
    context.close()
    assert outside.urls == []


# CI, 2026-12-06 (issue 39): a step's settling went on from the last holder's value (kept in
# IndexedDB for the next holder, widgets/kept/store.js) though storage had been given another value
# since by other means; the encounter storage held was lost, and the step said kept with it.
def test_an_encounter_put_in_storage_by_other_means_just_after_a_step_is_the_one_the_next_step_goes_on_from(phone, base_url: str) -> None:
    here, there = phone.new_page(), phone.new_page()
    errors = watch_errors(here)
    there.goto(base_url + "tools/")  # open before: what it writes comes within the last holder's seconds
    open_fight(here, base_url, a_fight())
    here.locator(".rollbook-encounter__next").click()  # Roll initiative: settled, the holder's value left
    expect(here.locator(".rollbook-encounter__now")).to_contain_text("Round 1", timeout=ENGINE_TIMEOUT_MS)
    encounter_quiet(here, there)
    # another encounter, written as an older version's tab or a hand edit would (no store's stamps),
    # kept after the step above
    there.evaluate("""([key, fight]) => localStorage.setItem(key, JSON.stringify({ rollbook: 2,
      encounter: { ...fight, updated: new Date(Date.now() + 1000).toISOString() } }))""", [KEY, a_fight(("Kristine", "Sid"))])
    expect(here.locator("rollbook-encounter")).to_contain_text("Kristine", timeout=ENGINE_TIMEOUT_MS)
    here.locator(".rollbook-encounter__next").click()
    expect(here.locator(".rollbook-encounter__now")).to_contain_text("Round 1", timeout=ENGINE_TIMEOUT_MS)
    encounter_quiet(here, there)
    assert here.locator(".rollbook-problem").count() == 0
    fight = kept_fight(here)
    assert [c["name"] for c in fight["current"]["combatants"]] == ["Kristine", "Sid"], "the step said kept went on from the encounter before"
    assert fight["current"]["round"] == 1 and len(fight["undo"]) == 1
    here.reload()
    expect(here.locator(".rollbook-encounter__now")).to_contain_text("Round 1", timeout=ENGINE_TIMEOUT_MS)
    expect(here.locator("rollbook-encounter")).to_contain_text("Kristine")
    assert errors == []


def test_two_tabs_keep_characters_at_the_same_moment_and_a_bad_encounter_file_changes_nothing(browser, base_url: str, outside, tmp_path: Path) -> None:
    context = phone_context(browser, base_url, outside)
    first, second = context.new_page(), context.new_page()
    for page in (first, second):
        page.goto(base_url + "tools/character/")
        page.get_by_role("button", name="Roll a character").click()
        expect(page.locator("[data-score=HP]")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    first.get_by_label("Character name").fill("Ash")
    second.get_by_label("Character name").fill("Birch")
    first.get_by_role("button", name="Keep this character").click()
    second.get_by_role("button", name="Keep this character").click()
    for page, name in ((first, "Ash"), (second, "Birch")):
        expect(page.locator("#rollbook-character-notice")).to_contain_text(f"{name} is kept in this browser")
    # What a page of the site opened now shows (as a reload would): read at once in the first tab,
    # its copy of storage could still lack the second tab's last write, a moment on its way (this
    # failed once in ten runs of its file, 2026-12-07), and the encounter written below from it
    # would then have left Birch out itself.
    first.goto(base_url + "tools/")
    assert sorted(c["name"] for c in json.loads(stored(first))["characters"]) == ["Ash", "Birch"]

    # an encounter kept, then a file with one bad field in it: refused before anything is replaced
    fight = keep_an_encounter(first)
    # an encounter file with one bad field is refused before anything is replaced
    bad = {"rollbook": 2, "encounter": {**fight, "current": {**fight["current"], "combatants": [
        {**fight["current"]["combatants"][0], "hp": "lots"}, *fight["current"]["combatants"][1:]]}}}
    file = tmp_path / "rollbook-2026-12-01.json"
    file.write_text(json.dumps(bad), encoding="utf-8")
    first.goto(base_url + "tools/encounter/")
    first.locator("rollbook-kept input[type=file]").set_input_files(str(file))
    expect(first.locator("#rollbook-kept-problem")).to_contain_text("the encounter, combatant 1, hp: expected a whole number, found")
    assert json.loads(stored(first))["encounter"] == fight
    context.close()
    assert outside.urls == []


# The last step's mark (widgets/step-lock.js) saying another tab kept a step this tab never hears of.
MARK_AHEAD = """() => new Promise((done, fail) => {
  const open = indexedDB.open("rollbook", 1);
  open.onupgradeneeded = () => open.result.createObjectStore("marks");
  open.onsuccess = () => {
    const tx = open.result.transaction("marks", "readwrite");
    // written just now (at): a step kept in another tab whose storage event has not come yet
    tx.objectStore("marks").put({ updated: "2099-01-01T00:00:00.000Z", at: Date.now() }, "encounter");
    tx.oncomplete = () => { open.result.close(); done(true); };
  };
  open.onerror = () => fail(open.error);
})"""


def test_a_step_from_another_tab_that_never_arrives_is_waited_for_then_refused_plainly(browser, base_url: str, outside) -> None:
    context = phone_context(browser, base_url, outside)
    page = context.new_page()
    page.goto(base_url + "tools/encounter/")
    fight = keep_an_encounter(page)
    page.reload()
    expect(page.locator(".rollbook-encounter__next")).to_have_text("Roll initiative", timeout=ENGINE_TIMEOUT_MS)
    page.evaluate(MARK_AHEAD)
    started = time.monotonic()
    page.locator(".rollbook-encounter__next").click()
    problem = page.locator(".rollbook-problem")
    expect(problem).to_have_text("Not kept: another tab's last step on this encounter has not reached this tab yet: try again.",
                                 timeout=ENGINE_TIMEOUT_MS)
    assert 4.5 < time.monotonic() - started < 30  # a bounded wait (5 s), then said
    assert json.loads(stored(page))["encounter"] == fight  # nothing written over what another tab may have kept
    assert engine_words(page.locator("article").inner_text()) == []
    page.locator(".rollbook-encounter__next").click()  # what this tab shows is taken as it is: the next tap goes on
    expect(page.locator(".rollbook-encounter__undo")).to_have_text("Undo (1)", timeout=ENGINE_TIMEOUT_MS)
    expect(problem).to_have_count(0)
    context.close()
    assert outside.urls == []


# Each page clicks its button at the same instant of the browser's clock (not one Playwright call
# after the other: by then the first tab's write has reached the second, and nothing races).
AT_THE_SAME_INSTANT = """(at) => setTimeout(() => [...document.querySelectorAll('button')]
  .find((b) => b.textContent.trim() === 'Keep this character').click(), at - Date.now())"""


def test_two_tabs_keep_a_character_each_at_the_same_millisecond_and_both_are_kept(browser, base_url: str, outside) -> None:
    # Issue 39: each tab read the list without the other's character and wrote it back, and one
    # was lost (both said kept): 9 trials of 12 before the writes went under one lock (kept.js).
    context = phone_context(browser, base_url, outside)
    first, second = context.new_page(), context.new_page()
    said: list[str] = []  # the pages' warnings (a mark given up, say): a failure shows them
    for page in (first, second):
        page.on("console", lambda message: said.append(message.text) if message.type == "warning" else None)
        page.goto(base_url + "tools/character/")
    trial = 0
    while trial < 20:  # 20 trials: before the fix, one of the two was lost in most of them
        for page, name in ((first, f"Ash {trial}"), (second, f"Birch {trial}")):
            again = page.get_by_role("button", name="Roll again")
            (again.first if again.count() else page.get_by_role("button", name="Roll a character")).click()
            expect(page.get_by_label("Character name")).to_be_editable(timeout=ENGINE_TIMEOUT_MS)
            expect(page.locator("[data-score=HP]")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
            page.get_by_label("Character name").fill(name)
        at = first.evaluate("Date.now()") + 300
        for page in (first, second):
            page.evaluate(AT_THE_SAME_INSTANT, at)
        for page, name in ((first, f"Ash {trial}"), (second, f"Birch {trial}")):
            expect(page.locator("#rollbook-character-notice")).to_contain_text(f"{name} is kept in this browser", timeout=ENGINE_TIMEOUT_MS)
        trial += 1
    first.reload()  # what a reload shows: every character either tab said it kept
    names = {c["name"] for c in json.loads(stored(first))["characters"]}
    missing = [name for n in range(trial) for name in (f"Ash {n}", f"Birch {n}") if name not in names]
    assert missing == [], f"said kept, then lost: {missing}; the pages warned: {said}"
    context.close()
    assert outside.urls == []


# The moment a CI run caught once in 20 trials (make test, 2026-12-07: "Birch 3 was not kept." of a
# character a reload showed), made certain. One tab's settling has written its character and waits
# on its mark for the next holder (HOLD_MARK); the other tab's write at once, made from the list as
# its process last heard it (STALE_READ: Chromium's localStorage lag between processes), leaves that
# character out of storage meanwhile; its own settling, once it holds the lock, puts it back.
HOLD_MARK = """(() => {
  const transaction = IDBDatabase.prototype.transaction;
  const complete = Object.getOwnPropertyDescriptor(IDBTransaction.prototype, "oncomplete").set;
  window.__holdMark = () => { window.__markHeld = new Promise((release) => { window.__releaseMark = release; }); };
  IDBDatabase.prototype.transaction = function (names, mode, ...rest) {
    const tx = transaction.call(this, names, mode, ...rest);
    const held = mode === "readwrite" ? window.__markHeld : null;
    if (held) {
      window.__markHeld = null;
      window.__markWaiting = true;
      Object.defineProperty(tx, "oncomplete", { set(done) { complete.call(tx, (event) => held.then(() => done.call(tx, event))); } });
    }
    return tx;
  };
  addEventListener("storage", (event) => { if (event.newValue?.includes("Ash")) window.__heardAsh = true; });
})();"""


def test_a_character_left_out_of_storage_for_a_moment_by_another_tabs_write_is_said_kept(browser, base_url: str, outside) -> None:
    context = phone_context(browser, base_url, outside)
    ash, birch = context.new_page(), context.new_page()
    ash.add_init_script(STALE_READ)
    birch.add_init_script(HOLD_MARK)
    for page, name in ((ash, "Ash"), (birch, "Birch")):
        page.goto(base_url + "tools/character/")
        page.get_by_role("button", name="Roll a character").click()
        expect(page.locator("[data-score=HP]")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
        page.get_by_label("Character name").fill(name)
    ash.evaluate(f"() => {{ window.__stale = localStorage.getItem({json.dumps(KEY)}); }}")  # what Ash's process last heard
    birch.evaluate("() => window.__holdMark()")
    birch.get_by_role("button", name="Keep this character").click()
    birch.wait_for_function("() => window.__markWaiting === true")  # Birch written under the lock; its mark held
    assert "Birch" in stored(birch)
    ash.get_by_role("button", name="Keep this character").click()
    birch.wait_for_function("() => window.__heardAsh === true")  # Ash's write at once, without Birch, heard by Birch's tab
    assert "Birch" not in stored(birch)
    ash.evaluate("() => { delete window.__stale; }")
    birch.evaluate("() => window.__releaseMark()")
    for page, name in ((birch, "Birch"), (ash, "Ash")):
        expect(page.locator("#rollbook-character-notice")).to_contain_text(f"{name} is kept in this browser", timeout=ENGINE_TIMEOUT_MS)
        assert "not kept" not in widgets_text(page)
    birch.reload()  # what a reload shows: both, as both tabs said
    assert {c["name"] for c in json.loads(stored(birch))["characters"]} == {"Ash", "Birch"}
    context.close()
    assert outside.urls == []


# The kept store's mark in IndexedDB (widgets/step-lock.js indexedDbMark: database "rollbook",
# store "marks", key "kept"), or null; opened without a version, so a test never creates the
# database the page would then find without its store. (Within 10 s: a run once waited on it for good.)
KEPT_MARK = """() => Promise.race([new Promise((_, reject) => setTimeout(() => reject(new Error("IndexedDB did not answer in 10 s")), 10000)), (async () => {
  if (!(await indexedDB.databases()).some((d) => d.name === "rollbook")) return null;
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open("rollbook");
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  try {
    if (!db.objectStoreNames.contains("marks")) return null;
    return await new Promise((resolve, reject) => {
      const request = db.transaction("marks").objectStore("marks").get("kept");
      request.onsuccess = () => resolve(request.result ?? null);
      request.onerror = () => reject(request.error);
    });
  } finally {
    db.close();
  }
})()])"""


def test_the_sites_data_cleared_while_a_page_is_open_leaves_its_next_roll_settled_across_tabs(phone, base_url: str) -> None:
    """The player clears the site's data (the browser's settings) with a page open: the browser
    closes the page's IndexedDB connection. The next roll must still leave its mark there, where the
    next tab's settling reads what was kept last; it was lost for the rest of the visit, every write
    silently refused on the closed connection (each change then settled by the lock alone)."""
    page = phone.new_page()
    page.goto(base_url + "tools/roller/")
    for expression, count in (("1d6", 1), ("2d6", 2)):
        if count == 2:  # between the two rolls, the site's data cleared as the browser's settings do
            cdp = phone.new_cdp_session(page)
            try:
                cdp.send("Storage.clearDataForOrigin", {"origin": origin_of(base_url), "storageTypes": "all"})
            finally:
                cdp.detach()
            assert page.evaluate(KEPT_MARK) is None and stored(page) is None
        field = page.get_by_label("Dice expression")
        field.fill(expression)
        field.press("Enter")
        expect(page.locator(".rollbook-total__label")).to_have_text(expression, timeout=ENGINE_TIMEOUT_MS)
        page.wait_for_function("(key) => localStorage.getItem(key) !== null", arg=KEY)
        encounter_quiet(page)  # the roll settled: no lock of the site's held or asked for
        mark = page.evaluate(KEPT_MARK)
        assert mark is not None, f"roll {count}: no mark left in IndexedDB"
        assert mark["text"] == stored(page), f"roll {count}: the mark is not what storage holds"
