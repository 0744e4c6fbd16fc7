"""The check helper (tools/checks/) in a real Chromium at phone size: CharacterCodex checks and
OpenCore saves for the active character. Every number on screen is compared with the engine on
CPython for the same inputs and seed."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect

from browserkit import ENGINE_TIMEOUT_MS, Visit, axe_violations, open_more_options, small_tap_targets
from kit.engine import engine
from kit.kept import kept_log, put_kept
from rollbook import rulings
from vocabulary import engine_words

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]

BUCK = {"id": "buck", "name": "Buck Hunter", "hp_roll": 60, "locked": [], "options": {}, "created": "2026-11-30T18:00:00.000Z",
        "scores": {"STR": 76, "DEX": 80, "AGL": 21, "CON": 32, "INT": 86, "PER": 96, "WIS": 32, "CHA": 17, "COM": 92}}
BUCK_SCORES = ",".join(f"{code}={score}" for code, score in BUCK["scores"].items())


# Material's own page chrome (search dialog, progress bar) is checked by test_widgets' axe test.
WIDGETS = ["rollbook-codex-check", "rollbook-opencore-check", "rollbook-opencore-successes", "rollbook-log"]


def codex(page: Page) -> Any:
    return page.locator("rollbook-codex-check")


def answer_total(widget: Any) -> str:
    value = widget.locator(".rollbook-total__value")
    expect(value).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    return value.inner_text()


def test_a_shared_codex_check_shows_the_engines_open_ended_chain_die_by_die(tab: Visit) -> None:
    expected = engine("codex check", modifier=3, dc=20, seed=5)
    assert len(expected["dice"]) == 2  # a natural 20 and the die it adds
    page = tab("tools/checks/?tool=codex-check&modifier=3&dc=20&seed=5")
    widget = codex(page)
    assert answer_total(widget) == str(expected["total"])
    expect(widget.locator(".rollbook-verdict")).to_have_text("Success")
    expect(widget.locator(".rollbook-die__face")).to_have_text(["20!", "9"])
    expect(widget.locator(".rollbook-die__status")).to_have_text([link["note"] for link in expected["chain"]])
    # the engine's **marks** shown as <strong>, each said "(success)"
    expect(widget.locator(".rollbook-breakdown")).to_have_text(re.sub(r"\*\*(.+?)\*\*", r"\1 (success)", expected["text"]))
    expect(widget.locator(".rollbook-breakdown strong")).to_have_count(expected["text"].count("**") // 2)
    expect(widget.locator(".rollbook-answer__shared")).to_be_visible()
    assert kept_log(page) == []  # a shared result is shown, not logged again


def test_a_link_without_a_seed_is_answered_but_not_logged(tab: Visit) -> None:
    # the log grows only when the player rolls: opening a link never adds to it; with no seed in
    # it the dice are new, so the page does not call them the same as on another device
    page = tab("tools/checks/?tool=codex-check&modifier=3&dc=20")
    widget = codex(page)
    assert re.fullmatch(r"-?\d+", answer_total(widget))  # an open-ended 1 rolls down, below zero
    expect(widget.locator(".rollbook-answer__shared")).to_have_count(0)
    assert kept_log(page) == []


def test_a_complexity_sets_the_dc_the_chance_shows_before_rolling_and_the_check_is_logged(tab: Visit, browser) -> None:
    page = tab("tools/checks/")
    widget = codex(page)
    widget.get_by_label("Skill modifier").fill("5")
    open_more_options(widget)
    widget.get_by_label("Complexity").select_option("Tough")
    expect(widget.get_by_label("DC", exact=True)).to_have_value("15", timeout=ENGINE_TIMEOUT_MS)  # from codex dc
    odds = engine("codex odds", modifier=5, dc=15)
    expect(widget.locator(".rollbook-chance")).to_contain_text(f"Chance of success: 55% ({odds['chances']['success']})")
    widget.get_by_label("DC", exact=True).press("Enter")
    shown = answer_total(widget)

    (entry,) = kept_log(page)
    expected = engine("codex check", modifier=5, dc=15, seed=entry["seed"])
    assert shown == str(expected["total"]) == str(entry["total"]) and entry["text"] == expected["text"]
    query = parse_qs(urlsplit(entry["link"]).query)
    assert entry["link"].startswith("tools/checks/?") and query["tool"] == ["codex-check"]
    assert query["modifier"] == ["5"] and query["dc"] == ["15"] and query["seed"] == [str(entry["seed"])]
    expect(page.get_by_role("log").locator("li")).to_have_count(1)
    expect(page.get_by_role("log").get_by_role("button", name="Roll again")).to_have_count(0)  # a check is not an expression

    other = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        shared = other.new_page()
        shared.goto(page.get_by_role("log").get_by_role("link", name="Link to the roll").get_attribute("href"))
        assert answer_total(codex(shared)) == shown
    finally:
        other.close()


def test_taking_20_rolls_no_die_takes_twenty_times_as_long_and_needs_a_safe_character(tab: Visit) -> None:
    expected = engine("codex check", modifier=2, dc=25, take="20", safe=True, failure_has_cost=True, seed=1)
    page = tab("tools/checks/?tool=codex-check&modifier=2&dc=25&take=20&safe=1&failure_has_cost=1&seed=1")
    widget = codex(page)
    assert answer_total(widget) == "22"
    expect(widget.locator(".rollbook-die")).to_have_count(0)
    expect(widget).to_contain_text("Taking 20: no die rolled.")
    expect(widget.locator(".rollbook-verdict")).to_have_text("Failure")
    expect(widget.locator(".rollbook-meaning")).to_have_text(expected["meaning"])  # the document's words for the outcome
    expect(widget.locator(".rollbook-facts")).to_contain_text(f"{expected['time_multiplier']} times as long")
    expect(widget.locator(".rollbook-facts")).to_contain_text("incurs the failure's penalties")
    # Not safe: the engine's refusal, in the rule's words, under "Roll or take" (just above the checkbox that
    # lifts it), which takes the focus.
    widget.get_by_label("Not threatened or distracted (may take 10 or 20)").uncheck()
    widget.get_by_role("button", name="Roll the check").click()
    expect(widget.locator("#codex-check-take-problem")).to_contain_text("Roll or take: Distractions or threats", timeout=ENGINE_TIMEOUT_MS)
    take = widget.get_by_label("Roll or take")
    expect(take).to_have_attribute("aria-invalid", "true")
    expect(take).to_be_focused()


def test_the_gms_rulings_switch_by_their_titles_and_go_into_the_link(tab: Visit) -> None:
    """Automatic failure and the take 10/20 conditions, under More options by their rulings' titles."""
    page = tab("tools/checks/")
    widget = codex(page)
    widget.get_by_label("Skill modifier").fill("2")
    widget.get_by_label("DC", exact=True).fill("25")
    open_more_options(widget)
    failing = widget.get_by_label(rulings.get("codex-automatic-failure").title)
    expect(failing).to_be_visible(timeout=ENGINE_TIMEOUT_MS)  # the title, asked of the engine
    failing.select_option("true")
    widget.get_by_role("button", name="Roll the check").click()
    expect(widget.locator(".rollbook-verdict")).to_have_text("Automatic failure", timeout=ENGINE_TIMEOUT_MS)
    expect(widget.locator(".rollbook-die")).to_have_count(0)  # a 20 could not reach 25: nothing is rolled
    (entry,) = kept_log(page)
    assert entry["text"] == engine("codex check", modifier=2, dc=25, impossible_fails=True, seed=entry["seed"])["text"]
    assert parse_qs(urlsplit(entry["link"]).query)["impossible_fails"] == ["true"]

    # The table keeps the take 10/20 conditions itself: no tick asked for, taking 10 is answered.
    widget.get_by_label("DC", exact=True).fill("10")
    widget.get_by_label("Roll or take").select_option("10")
    safe = widget.get_by_label("Not threatened or distracted (may take 10 or 20)")
    expect(safe).to_be_visible()
    widget.get_by_label(rulings.get("codex-take-conditions").title).select_option("trusted")
    expect(safe).to_have_count(0)
    widget.get_by_role("button", name="Roll the check").click()
    expect(widget.locator(".rollbook-verdict")).to_have_text("Success", timeout=ENGINE_TIMEOUT_MS)
    assert answer_total(widget) == "12"
    link = widget.get_by_role("link", name="Link to this result").get_attribute("href")
    assert parse_qs(urlsplit(link).query)["take_conditions"] == ["trusted"]
    assert engine_words(widget.inner_text()) == []


def test_the_success_count_shows_which_dice_count_as_the_engine_says(tab: Visit) -> None:
    # "a certain number of rolls above a certain number (such as 8 or higher on a d10)"
    expected = engine("opencore successes", dice="5d10", at_least=8, needed=2, seed=4)
    page = tab("tools/checks/?tool=opencore-successes&dice=5d10&at_least=8&needed=2&seed=4")
    widget = page.locator("rollbook-opencore-successes")
    assert answer_total(widget) == str(expected["successes"])
    expect(widget.locator(".rollbook-die__face")).to_have_text([str(r) for r in expected["rolls"]])
    expect(widget.locator(".rollbook-die__status")).to_have_text(["counts" if c else "does not count" for c in expected["counted"]])
    # the engine's **marks** shown as <strong>, each said "(success)"
    expect(widget.locator(".rollbook-breakdown")).to_have_text(re.sub(r"\*\*(.+?)\*\*", r"\1 (success)", expected["text"]))
    expect(widget.locator(".rollbook-breakdown strong")).to_have_count(expected["text"].count("**") // 2)
    open_more_options(widget)  # the dice rolled at the table are folded
    widget.get_by_label("Dice rolled").fill("9, 9")
    widget.get_by_label("Dice rolled").press("Enter")
    expect(widget.locator(".rollbook-problem")).to_contain_text("5d10 is 5 dice, but 2 rolls were given", timeout=ENGINE_TIMEOUT_MS)


def test_a_bad_dc_is_the_engines_message_next_to_the_dc(tab: Visit) -> None:
    page = tab("tools/checks/")
    widget = codex(page)
    dc = widget.get_by_label("DC", exact=True)
    dc.fill("fifteen")
    dc.press("Enter")
    problem = widget.locator("#codex-check-dc-problem")
    expect(problem).to_have_text("DC: enter a whole number, such as 40, not “fifteen”", timeout=ENGINE_TIMEOUT_MS)
    expect(dc).to_have_attribute("aria-invalid", "true")
    expect(dc).to_have_attribute("aria-describedby", "codex-check-dc-problem")
    assert kept_log(page) == []


def test_opencore_saves_without_an_active_character_say_where_to_make_one(tab: Visit, base_url: str) -> None:
    page = tab("tools/checks/")
    widget = page.locator("rollbook-opencore-check")
    expect(widget.get_by_role("link", name="Character page").first).to_have_attribute("href", base_url + "tools/character/")
    widget.get_by_role("button", name="Roll the save").click()
    expect(widget.locator(".rollbook-problem")).to_contain_text("a save needs a character's scores", timeout=ENGINE_TIMEOUT_MS)
    assert kept_log(page) == []


def test_an_opencore_save_rolls_for_the_active_character_and_its_link_carries_the_scores(tab: Visit, browser, base_url: str) -> None:
    page = tab("tools/checks/", kept={"rollbook": 1, "log": [], "characters": [BUCK], "active": "buck"})
    widget = page.locator("rollbook-opencore-check")
    expect(widget).to_contain_text("For Buck Hunter, the active character.")
    widget.get_by_label("Save or check").select_option("reflex")
    widget.get_by_label("d100 rolled").fill("40")
    widget.get_by_label("d100 rolled").press("Enter")
    expected = engine("opencore check", kind="reflex", scores=BUCK_SCORES, roll=40)
    assert answer_total(widget) == str(expected["roll"])  # the d100 rolled, not what is left after DEX
    expect(widget.locator(".rollbook-verdict")).to_have_text("Success" if expected["success"] else "Failure")
    # the engine's **marks** shown as <strong>, each said "(success)"
    expect(widget.locator(".rollbook-breakdown")).to_have_text(re.sub(r"\*\*(.+?)\*\*", r"\1 (success)", expected["text"]))
    expect(widget.locator(".rollbook-breakdown strong")).to_have_count(expected["text"].count("**") // 2)
    (entry,) = kept_log(page)
    assert entry["text"] == expected["text"] and entry["label"].startswith("Reflex (Buck Hunter)")

    # On a device that does not keep Buck, the link still has his scores, and a seed rolls the d100.
    rolled = engine("opencore check", kind="willpower", scores=BUCK_SCORES, seed=77)
    other = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        shared = other.new_page()
        shared.goto(base_url + f"tools/checks/?tool=opencore-check&kind=willpower&who=Buck&scores={BUCK_SCORES}&seed=77")
        shown = shared.locator("rollbook-opencore-check")
        assert answer_total(shown) == str(rolled["roll"])
        expect(shown.locator(".rollbook-breakdown")).to_have_text(rolled["text"])
    finally:
        other.close()


def test_a_d100_out_of_range_is_the_engines_message_next_to_the_field(tab: Visit) -> None:
    page = tab(f"tools/checks/?tool=opencore-check&kind=reflex&scores={BUCK_SCORES}&roll=150")
    field = page.locator("rollbook-opencore-check").get_by_label("d100 rolled")
    expect(page.locator("#opencore-check-roll-problem")).to_contain_text("the roll must be between 1 and 100", timeout=ENGINE_TIMEOUT_MS)
    expect(field).to_have_attribute("aria-invalid", "true")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_check_helper_has_no_serious_accessibility_violations(tab: Visit, scheme: str) -> None:
    page = tab("tools/checks/?tool=codex-check&modifier=3&dc=20&seed=5", color_scheme=scheme)
    answer_total(codex(page))
    page.locator("rollbook-opencore-check").get_by_role("button", name="Roll the save").click()
    expect(page.locator("rollbook-opencore-check .rollbook-problem")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    assert axe_violations(page, within=WIDGETS) == []


def test_check_helper_tap_targets_are_at_least_44_px(tab: Visit) -> None:
    page = tab("tools/checks/?tool=codex-check&modifier=3&dc=20&seed=5")
    answer_total(codex(page))
    small = small_tap_targets(page, ".rollbook-widget button, .rollbook-widget input, .rollbook-widget select, .rollbook-widget label:has(input[type=checkbox])")
    assert small == []


def test_the_helpers_remember_what_they_were_last_rolled_with_and_refuse_what_they_do_not_take(phone, base_url: str) -> None:
    """After a reload each helper starts with what it was last rolled with (read back from its
    newest log entry's link, as untrusted text): a value its field does not take is left out, and
    the page works as from a fresh start."""
    def entry(n: int, link: str) -> dict[str, Any]:
        return {"id": f"e{n}", "at": f"2026-12-05T18:00:0{n}.000Z", "label": "Check", "expression": "", "vars": {},
                "seed": n, "total": 1, "text": "1", "page": "tools/checks/", "link": link}
    hostile = "modifier=%3Cimg+src%3Dx+onerror%3Dalert(1)%3E&dc=99999999999999999999&impossible_fails=maybe&take=20"
    log = [entry(1, "tools/checks/?tool=codex-check&modifier=7&dc=9&seed=1"),  # older: not read
           entry(2, "tools/checks/?tool=codex-check&" + hostile + "&take_conditions=trusted&seed=2"),
           entry(3, "tools/checks/?tool=opencore-successes&dice=5d10&at_least=abc&needed=2&rolls=3,9&seed=3"),
           entry(4, "tools/checks/?tool=opencore-check&kind=reflex%00&roll=45&seed=4")]
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: errors.append(dialog.message))
    page.goto(base_url + "tools/checks/")
    put_kept(page, {"rollbook": 2, "log": log, "characters": []})
    page.reload()
    check = codex(page)
    expect(check.get_by_label("Skill modifier")).to_have_value("0")  # the hostile modifier left out
    expect(check.get_by_label("DC", exact=True)).to_have_value("15")  # too large to be a whole number here
    expect(check.get_by_label("Roll or take")).to_have_value("")  # the take is the roll's, not remembered
    open_more_options(check)
    expect(check.locator("#codex-check-take_conditions")).to_have_value("trusted")  # a ruling: remembered
    successes = page.locator("rollbook-opencore-successes")
    expect(successes.get_by_label("Dice", exact=True)).to_have_value("5d10")
    expect(successes.get_by_label("A die counts at")).to_have_value("")
    expect(successes.get_by_label("Successes needed")).to_have_value("2")
    open_more_options(successes)
    expect(successes.get_by_label("Dice rolled")).to_have_value("")  # dice rolled at the table are not the next roll's
    expect(page.locator("rollbook-opencore-check").get_by_label("Save or check")).to_have_value("physical-toughness")
    expect(page.locator("rollbook-opencore-check").get_by_label("d100 rolled")).to_have_value("")
    # and the page works: a check rolls with the fields as shown
    check.get_by_role("button", name="Roll the check").click()
    answer_total(check)
    assert errors == []
