"""Bring it back after another tab kept an encounter (issue 39): the tab that ended its encounter
says it was not brought back and shows the other tab's, which is kept as it was, never replaced."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from browserkit import ENGINE_TIMEOUT_MS, another_tab_keeps_as_tapped, open_fight, watch_errors
from kit.kept import KEPT as KEY
from kit.kept import a_fight, kept_fight

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]


def test_bring_it_back_not_heard_of_the_other_tabs_encounter_is_refused_and_replaces_nothing(phone, base_url: str) -> None:
    here = phone.new_page()
    errors = watch_errors(here)
    open_fight(here, base_url, a_fight())
    end(here)
    # the other tab's encounter written at the same instant as the tap (a page gets no storage event
    # for its own write): this tab has not heard of it when Bring it back runs
    other = {**a_fight(("Kristine", "Sid")), "updated": "2026-12-02T00:00:00.000Z"}
    another_tab_keeps_as_tapped(here, other, "Bring it back")
    expect(here.locator(".rollbook-problem")).to_contain_text(re.compile(r"^Not brought back: another tab"), timeout=ENGINE_TIMEOUT_MS)
    assert [c["name"] for c in kept_fight(here)["current"]["combatants"]] == ["Kristine", "Sid"]
    here.reload()
    expect(here.locator("rollbook-encounter")).to_contain_text("Kristine", timeout=ENGINE_TIMEOUT_MS)
    assert errors == []


def test_bring_it_back_tapped_as_the_other_tabs_encounter_arrives_says_not_brought_back(phone, base_url: str) -> None:
    """The tap lands in the frame after this tab heard of the other tab's new encounter, before it
    is drawn: the page said "Encounter brought back." while the other tab's encounter stayed."""
    here, there = phone.new_page(), phone.new_page()
    errors, started = ended_here_then_started_there(here, there, base_url)
    here.wait_for_function("(key) => JSON.parse(localStorage.getItem(key)).encounter !== null", arg=KEY)
    here.wait_for_timeout(300)  # its storage event handled
    here.evaluate("() => document.querySelector('rollbook-encounter').bringBack()")
    expect(here.locator(".rollbook-problem")).to_contain_text("Not brought back: another tab", timeout=ENGINE_TIMEOUT_MS)
    assert kept_fight(here) == started  # the other tab's, as it kept it
    here.reload()
    expect(here.locator("rollbook-encounter").get_by_role("heading", name="Before the first round")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    assert kept_fight(here) == started
    assert errors == []


def test_bring_it_back_goes_once_another_encounter_is_kept_so_an_older_fight_never_comes_back(phone, base_url: str) -> None:
    """One tab ended its fight; another tab started one and ended it. The first tab's Bring it back
    brought back its own older fight, not the one just ended (property seed 932855): it goes as
    soon as another encounter is kept, and only the tab that ended the last one brings it back."""
    here, there = phone.new_page(), phone.new_page()
    errors, started = ended_here_then_started_there(here, there, base_url)
    expect(here.locator("rollbook-encounter").get_by_role("heading", name="Before the first round")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    end(there)
    expect(here.get_by_role("button", name="Start the encounter")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    expect(here.get_by_role("button", name="Bring it back")).to_have_count(0)
    # the fight it showed did not vanish unexplained: said where it was, in view
    gone = here.locator(".rollbook-encounter__ended")
    expect(gone).to_have_text("The encounter shown here was ended in another tab, or replaced by an import.")
    expect(gone).to_be_in_viewport()
    there.get_by_role("button", name="Bring it back").click()
    expect(there.locator("rollbook-encounter").get_by_role("heading", name="Before the first round")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    assert kept_fight(there) == started
    expect(here.locator("rollbook-encounter").get_by_role("heading", name="Before the first round")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    assert errors == []


def ended_here_then_started_there(here: Any, there: Any, base_url: str) -> tuple[list[str], dict[str, Any]]:
    """A fight ended in `here`, then another started in `there`: `here`'s page errors from the
    start, and the fight kept."""
    errors = watch_errors(here)
    open_fight(here, base_url, a_fight())
    end(here)
    there.goto(base_url + "tools/encounter/")
    there.locator("rollbook-encounter").get_by_role("button", name="Start the encounter").click()
    expect(there.locator("rollbook-encounter").get_by_role("heading", name="Before the first round")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    return errors, kept_fight(there)


def end(page) -> None:
    page.locator("rollbook-encounter").get_by_text("Rulings and ending the encounter").click()  # (the page's text names it too)
    page.get_by_role("button", name="End the encounter").click()
    expect(page.get_by_role("button", name="Bring it back")).to_be_visible()


def test_bring_it_back_with_no_other_encounter_kept_brings_it_back(phone, base_url: str) -> None:
    here = phone.new_page()
    open_fight(here, base_url, a_fight())
    end(here)
    here.get_by_role("button", name="Bring it back").click()
    expect(here.locator(".rollbook-encounter__next")).to_have_text("Roll initiative", timeout=ENGINE_TIMEOUT_MS)
    expect(here.locator(".rollbook-problem")).to_have_count(0)
    assert [c["name"] for c in kept_fight(here)["current"]["combatants"]] == ["Buck", "Orc"]
