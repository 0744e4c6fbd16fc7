"""The readings of the save and Perception rulings on the character generator (issue 19, item 2):
switched under More options by their words, followed by the sheet (the engine's numbers), kept
with the character and carried by its link."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from browserkit import ENGINE_TIMEOUT_MS, SHOTS as BROWSER_SHOTS, axe_violations, phone_context
from kit.engine import engine
from kit.sheet import BUCK, assert_sheet_is, kept, keep, open_generator, scores_text, wait_for_sheet
from vocabulary import engine_words

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]

SHOTS = BROWSER_SHOTS / "rulings-char"
BUCK_LINK = "?name=Buck&scores=" + ",".join(f"{code}:{score}" for code, score in BUCK.items()) + "&hp_roll=96"
PERCEPTION = "A Perception roll succeeds"


def buck(**options: object) -> dict:
    return engine("opencore character", scores=scores_text(BUCK), hp_roll=96, **options)


def settled(page: Page) -> None:
    page.wait_for_function("() => !document.querySelector('.rollbook-character__answer[aria-busy=true]')")


def perception_row(page: Page):
    return page.locator(".rollbook-sheet__saves tr[data-check='Perception']")


def assert_reads_at_or_below(page: Page) -> None:
    """The fold says so, and the sheet is the engine's for Buck with Perception at or below PER."""
    expect(page.get_by_label(PERCEPTION, exact=True)).to_have_value("at-or-below")
    expect(page.get_by_label("A saving throw succeeds", exact=True)).to_have_value("under")
    assert_sheet_is(page, buck(perception="at-or-below"))
    expect(perception_row(page)).to_contain_text("1d100 at or below PER (96)")
    expect(page.locator("[data-ruling=opencore-perception-direction]")).to_have_text(
        "Ruling (read the other way): Succeed when the roll is at or below PER, like Awareness")


def test_switching_perception_changes_the_sheet_and_is_kept_and_linked(phone, browser, base_url: str, outside) -> None:
    page = phone.new_page()
    page.goto(base_url + "tools/character/" + BUCK_LINK)
    wait_for_sheet(page)
    assert_sheet_is(page, buck())
    expect(perception_row(page)).to_contain_text("1d100 above PER (96)")
    widget = page.locator("rollbook-character")
    widget.locator("details.rollbook-character__readings > summary").click()
    # the ruling's title beside its choice, linking to the Rulings page
    expect(widget.get_by_role("link", name="Ruling: Perception succeeds on a roll higher than PER")).to_have_attribute(
        "href", f"{base_url}rulings/#opencore-perception-direction")
    page.get_by_label(PERCEPTION, exact=True).select_option(label="At or below PER, like Awareness")
    settled(page)
    assert_reads_at_or_below(page)
    assert engine_words(widget.inner_text()) == []

    stored = keep(page, "Buck")
    assert stored["options"] == {"save_direction": "under", "willpower_composite": "SDAC", "perception": "at-or-below"}
    assert page.url == base_url + "tools/character/"  # the link's query is gone once kept
    page.reload()  # so a reload opens the kept, active character (not the link's version), its reading in view
    wait_for_sheet(page)
    expect(page.locator("details.rollbook-character__readings")).to_have_attribute("open", "")
    assert_reads_at_or_below(page)
    page.reload()
    wait_for_sheet(page)
    assert_reads_at_or_below(page)

    # the check helper rolls the active character's Perception by the same reading
    page.goto(base_url + "tools/checks/")
    check = page.locator("rollbook-opencore-check")
    check.get_by_label("Save or check").select_option("perception")
    check.get_by_label("d100 rolled").fill("50")
    check.get_by_role("button", name="Roll the save").click()
    expect(check.locator(".rollbook-verdict")).to_have_text("Success", timeout=ENGINE_TIMEOUT_MS)  # 50 <= 96

    page.goto(base_url + "tools/character/")
    wait_for_sheet(page)
    link = page.get_by_role("link", name="Link to this character").get_attribute("href")
    assert "perception=at-or-below" in link and "save_direction" not in link  # only what differs from the rulings
    other = phone_context(browser, base_url, outside)
    try:
        shared = other.new_page()
        shared.goto(link)
        wait_for_sheet(shared)
        expect(shared.locator(".rollbook-answer__shared")).to_contain_text("the same scores, HP roll and rulings")
        expect(shared.locator("details.rollbook-character__readings")).to_have_attribute("open", "")
        assert_reads_at_or_below(shared)
        assert kept(shared)["characters"] == []
        assert engine_words(shared.locator("rollbook-character").inner_text()) == []
    finally:
        other.close()


def test_a_link_with_a_reading_it_cannot_have_says_so_and_reads_by_the_ruling(tab: Visit) -> None:
    page = tab("tools/character/" + BUCK_LINK + "&perception=sideways&save_direction=over")
    wait_for_sheet(page)
    expect(page.locator("rollbook-character > .rollbook-problem")).to_have_text(
        f"this link's {PERCEPTION} “sideways” could not be read, so it was left out")
    expect(page.get_by_label(PERCEPTION, exact=True)).to_have_value("above")
    assert_sheet_is(page, buck(save_direction="over"))  # what could be read is used
    assert engine_words(page.locator("rollbook-character").inner_text()) == []


def test_a_character_kept_before_the_readings_reads_by_the_rulings(tab: Visit) -> None:
    old = {"id": "c1", "name": "Old Buck", "scores": BUCK, "rolled": None, "hp_roll": 96, "locked": [],
           "created": "2026-11-01T18:00:00.000Z"}  # no options at all
    page = tab("tools/character/", kept={"rollbook": 2, "log": [], "characters": [old], "active": "c1", "foes": [], "encounter": None})
    wait_for_sheet(page)
    expect(page.locator("details.rollbook-character__readings")).not_to_have_attribute("open", "")
    assert_sheet_is(page, buck())
    expect(page.get_by_text("Changed since it was kept")).to_have_count(0)  # the rulings' readings are its own
    page.locator("details.rollbook-character__readings > summary").click()
    page.get_by_label("Willpower is rolled against", exact=True).select_option("IPW")
    settled(page)
    assert_sheet_is(page, buck(willpower_composite="IPW"))
    expect(page.get_by_text("Changed since it was kept")).to_be_visible()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_fold_open_at_phone_size(phone, base_url: str, scheme: str) -> None:
    page = phone.new_page()
    page.emulate_media(color_scheme=scheme)
    open_generator(page, base_url, BUCK_LINK + "&perception=at-or-below")
    wait_for_sheet(page)
    fold = page.locator("details.rollbook-character__readings")
    fold.scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"character-rulings-{scheme}.png"))
    page.locator(".rollbook-sheet__readings").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"character-readings-{scheme}.png"))
    violations = axe_violations(page)
    assert violations == [], json.dumps(violations, indent=1)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
