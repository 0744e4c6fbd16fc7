"""A new deploy served while an encounter is open (issue 39): tab A runs a fight on build 1; the
site is deployed again (a new engine folder, pyodide/<another hash>/, and a changed widget
bundle); tab B loads build 2 and makes a step; tab A, still on build 1 with its own engine, makes
the next one. Every step said kept is kept, each made from the one before, in both tabs and after a
reload, with no page error, with and without the service worker's offline copy."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browserkit import ENGINE_TIMEOUT_MS, PHONE, Switchable, phone_context, service_worker_ready
from kit.engine import engine
from kit.kept import keep_an_encounter, read_kept
from sitebuild import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]

NEW_VERSION = "(build 2)"


def engine_folder(page: Page) -> str:
    return page.evaluate("() => document.querySelector('meta[name=\"rollbook-engine\"]').content")


def build_one(site: Path, tmp_path: Path) -> Path:
    """`site` as deployed a while ago: its engine folder's files dated a day back, so the browser
    keeps them as fresh for a while (the HTTP cache's heuristic, as GitHub Pages' max-age=600 does
    for ten minutes): a worker started again after the deploy may get build 1's small files from
    the browser's cache, not a 404. (Copies: the session's site is left as it is.)"""
    first = tmp_path / "build-1"
    shutil.copytree(site, first, copy_function=os.link)
    day_ago = time.time() - 86_400
    for path in (first / "pyodide").glob("*/*"):
        path.unlink()
        shutil.copyfile(site / path.relative_to(first), path)
        os.utime(path, (day_ago, day_ago))
    return first


def build_two(first: Path, tmp_path: Path) -> Path:
    """The next deploy of `first`: its engine in a folder of another name (as a changed wheel
    gives), every page naming that one, the widgets' entry and engine client changed, and sw.js
    generated afresh by the build's own hook (so the service worker's revisions differ)."""
    second = tmp_path / "build-2"
    shutil.copytree(first, second, copy_function=os.link)  # hard links: a changed file is replaced, never rewritten
    [old] = [p.name for p in (second / "pyodide").iterdir() if p.is_dir()]
    new = f"{int(old, 16) ^ 0xFFFF_FFFF_FFFF_FFFF:016x}"
    (second / "pyodide" / old).rename(second / "pyodide" / new)
    for page in second.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        page.unlink()
        page.write_text(text.replace(f"pyodide/{old}/", f"pyodide/{new}/").replace("</title>", f" {NEW_VERSION}</title>", 1),
                        encoding="utf-8")
    for script in ("rollbook.js", "engine.js"):
        path = second / "widgets" / script
        text = path.read_text(encoding="utf-8")
        path.unlink()
        path.write_text(text + "\n// build 2\n", encoding="utf-8")
    (second / "sw.js").unlink()
    done = subprocess.run(["node", str(ROOT / "hooks" / "service-worker.mjs"), str(second)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return second


def ready(page: Page) -> None:
    expect(page.locator(".rollbook-encounter__next")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    page.wait_for_function("() => document.querySelector('rollbook-encounter')?.rulingTitles", timeout=ENGINE_TIMEOUT_MS)


def next_step(page: Page, undo: int) -> None:
    page.locator(".rollbook-encounter__next").click()
    expect(page.locator(".rollbook-encounter__undo")).to_have_text(f"Undo ({undo})", timeout=ENGINE_TIMEOUT_MS)
    expect(page.locator("rollbook-encounter .rollbook-problem")).to_have_count(0)


# Every engine worker a page starts, kept where the test can reach it (terminate() is the page's own
# worker's); a shorter wait for an answer than a phone's (engine-start.js), so a dead worker is noticed sooner.
WORKERS = """
globalThis.rollbookEngineLimits = { answer: 10000 };
const PageWorker = Worker;
globalThis.__workers = [];
globalThis.Worker = class extends PageWorker {
  constructor(url, options) {
    super(url, options);
    if (options?.name === "rollbook-engine") __workers.push(this);
  }
};
"""


@pytest.mark.parametrize("offline_copy,engine_ended", [(False, False), (True, False), (False, True), (True, True)],
                         ids=["no service worker", "service worker", "A's engine ended, no service worker",
                              "A's engine ended, service worker"])
def test_a_deploy_while_an_encounter_is_open_loses_no_step_in_either_tab(browser: Any, served_site: Any, outside: Any,
                                                                         tmp_path: Path, offline_copy: bool,
                                                                         engine_ended: bool) -> None:
    """`engine_ended`: tab A's engine worker ends after the deploy (a browser ends a background
    tab's worker, or it hung), so A starts its engine again: build 1's folder is gone from the site."""
    first = build_one(served_site.directory, tmp_path)
    site = Switchable(first)
    context = (browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, service_workers="allow") if offline_copy
               else phone_context(browser, site.url, outside))
    context.add_init_script(WORKERS)
    errors: list[str] = []
    try:
        a = context.new_page()
        a.on("pageerror", lambda error: errors.append(f"A: {error}"))
        a.goto(site.url + "tools/encounter/")
        if offline_copy:
            service_worker_ready(a)
        keep_an_encounter(a)
        a.reload()
        ready(a)
        next_step(a, 1)  # initiative, on build 1
        built_with = engine_folder(a)

        site.directory = build_two(first, tmp_path)  # the deploy: same addresses, new files
        b = context.new_page()
        b.on("pageerror", lambda error: errors.append(f"B: {error}"))
        b.goto(site.url + "tools/encounter/")
        if offline_copy:  # the old version from the worker, which finds the new one: Reload takes it in every tab
            notice = b.locator(".rollbook-notice").filter(has_text="A new version of Rollbook is ready")
            expect(notice).to_have_count(1, timeout=ENGINE_TIMEOUT_MS)
            notice.get_by_role("button", name="Reload").click()
        expect(b).to_have_title(re.compile(re.escape(NEW_VERSION)), timeout=ENGINE_TIMEOUT_MS)
        ready(b)
        assert engine_folder(b) != built_with  # build 2's engine
        expect(b.locator(".rollbook-encounter__undo")).to_have_text("Undo (1)", timeout=ENGINE_TIMEOUT_MS)
        next_step(b, 2)  # B's step, on build 2

        assert NEW_VERSION not in a.title() and engine_folder(a) == built_with  # A: still build 1, its engine
        expect(a.locator(".rollbook-encounter__undo")).to_have_text("Undo (2)", timeout=ENGINE_TIMEOUT_MS)
        if engine_ended:
            # its engine cannot start again (build 1's folder is gone): the tap is refused where it
            # was made, the page says why and offers Reload, which goes on from what is kept
            a.evaluate("() => __workers.at(-1).terminate()")
            tapped = time.monotonic()
            a.locator(".rollbook-encounter__next").click()
            # The dead worker is noticed at the answer limit (10 s here), and its replacement fails
            # at once: build 1's runtime is gone from the site, and from the service worker's copy,
            # which build 2's worker replaced (its small files may still come from the browser's
            # cache: the start failed only at its 90 s limit then, Pyodide never settling).
            refused = a.locator("rollbook-encounter .rollbook-problem").filter(has_text="Not done: Rollbook was updated")
            expect(refused).to_have_count(1, timeout=ENGINE_TIMEOUT_MS)
            took = time.monotonic() - tapped
            assert took < 30, f"the tap was refused {took:.1f} s after it was made"
            notice = a.locator("rollbook-encounter .rollbook-engine-state")
            expect(notice).to_contain_text("Rollbook was updated on the site while this page was open")
            expect(notice.get_by_role("button", name="Retry")).to_have_count(0)
            assert "Check the connection" not in a.locator("rollbook-encounter").inner_text()
            expect(a.locator(".rollbook-encounter__undo")).to_have_text("Undo (2)")
            assert len(read_kept(a)["encounter"]["undo"]) == 2  # nothing kept of the refused tap
            notice.get_by_role("button", name="Reload").click()
            expect(a).to_have_title(re.compile(re.escape(NEW_VERSION)), timeout=ENGINE_TIMEOUT_MS)
            ready(a)
            expect(a.locator(".rollbook-encounter__undo")).to_have_text("Undo (2)", timeout=ENGINE_TIMEOUT_MS)
        next_step(a, 3)  # A's step, from B's (on build 1, or build 2 once reloaded)
        expect(b.locator(".rollbook-encounter__undo")).to_have_text("Undo (3)", timeout=ENGINE_TIMEOUT_MS)
        next_step(b, 4)

        for page in (a, b):
            page.reload()
            ready(page)
            expect(page.locator(".rollbook-encounter__undo")).to_have_text("Undo (4)", timeout=ENGINE_TIMEOUT_MS)
            assert NEW_VERSION in page.title()  # a reload is build 2
            fight = read_kept(page)["encounter"]
            states = [*fight["undo"], fight["current"]]
            assert [s["round"] for s in states][:2] == [0, 1] and len(states) == 5
            # every step made from the one before: each state's log holds the one before's
            assert all(len(later["log"]) > len(earlier["log"]) for earlier, later in zip(states, states[1:]))
            assert engine("encounter show", encounter=fight["current"])["status"]
            assert page.locator(".rollbook-problem, .rollbook-kept-notice").count() == 0
        assert errors == []
    finally:
        context.close()
        site.close()
    assert outside.urls == []
