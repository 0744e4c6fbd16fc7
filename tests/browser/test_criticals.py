"""The critical hit lookup (tools/criticals/) at phone size, checked against the engine on CPython."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from browserkit import ENGINE_TIMEOUT_MS, Visit, axe_violations
from kit.engine import engine
from kit.kept import kept_log

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]


def test_a_typed_roll_marks_its_row_in_the_real_table_and_spells_out_the_effect(tab: Visit) -> None:
    expected = engine("opencore crit", type="burn", roll=31, attack_roll=97, toughness=5)
    page = tab("tools/criticals/")
    page.get_by_label("Damage type").select_option("burn")
    page.get_by_label("Critical roll (1d100)").fill("31")
    page.get_by_label("Unmodified attack roll").fill("97")
    page.get_by_label("Target's remaining Toughness").fill("5")
    page.get_by_label("Target's remaining Toughness").press("Enter")

    expect(page.locator(".rollbook-total__value")).to_have_text(str(expected["roll"]), timeout=ENGINE_TIMEOUT_MS)
    expect(page.locator(".rollbook-crit-effect")).to_have_text(expected["effect"])
    marked = page.locator("tr.rollbook-crit-row")
    expect(marked).to_have_count(1)
    expect(marked.locator("th")).to_contain_text(expected["row"])
    expect(marked).to_have_attribute("aria-current", "true")
    rows = engine("table", name="opencore.critical.burn")["cells"]
    expect(page.locator(".rollbook-crit-table tbody tr")).to_have_count(len(rows))
    assert kept_log(page) == []  # a roll typed from physical dice is not the engine's roll to log


def test_an_empty_roll_is_rolled_logged_and_shared_exactly(tab: Visit, browser) -> None:
    page = tab("tools/criticals/?type=puncture")
    expect(page.get_by_label("Damage type")).to_have_value("puncture")
    page.get_by_role("button", name="Look up").click()
    value = page.locator(".rollbook-total__value")
    expect(value).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    (entry,) = kept_log(page)
    expected = engine("opencore crit", type="puncture", seed=entry["seed"])
    assert value.inner_text() == str(expected["roll"]) and entry["label"] == "Puncture critical"
    link = page.get_by_role("link", name="Link to this critical").get_attribute("href")
    fresh = browser.new_context(service_workers="block")
    try:
        shared = fresh.new_page()
        shared.goto(link)
        expect(shared.locator(".rollbook-crit-effect")).to_have_text(expected["effect"], timeout=ENGINE_TIMEOUT_MS)
    finally:
        fresh.close()


def test_a_bad_number_is_refused_with_what_to_type(tab: Visit) -> None:
    page = tab("tools/criticals/")
    page.get_by_label("Critical roll (1d100)").fill("101")
    page.get_by_role("button", name="Look up").click()
    expect(page.locator("#rollbook-crit-problem")).to_contain_text("101", timeout=ENGINE_TIMEOUT_MS)
    page.get_by_label("Critical roll (1d100)").fill("ten")
    page.get_by_role("button", name="Look up").click()
    expect(page.locator("#rollbook-crit-problem")).to_have_text("Critical roll (1d100): enter a whole number, such as 40, not “ten”")
    expect(page.get_by_label("Critical roll (1d100)")).to_have_attribute("aria-describedby", "rollbook-crit-problem rollbook-crit-roll-help")


def test_the_rules_pages_tables_open_the_lookup_with_their_type(tab: Visit) -> None:
    page = tab("opencore/damage-and-criticals/")
    page.get_by_role("link", name="Look up a roll on the Shrapnel Critical table").click()
    # (Material's anchor tracking may carry the rules page's "#shrapnel" along: the page and its query are what count)
    page.wait_for_url(lambda url: urlsplit(url).path.endswith("/tools/criticals/") and urlsplit(url).query == "type=shrapnel")
    expect(page.get_by_label("Damage type")).to_have_value("shrapnel")
    expect(page.locator(".rollbook-crit-table caption")).to_contain_text("Shrapnel", timeout=ENGINE_TIMEOUT_MS)
    assert axe_violations(page) == []
