"""The words a player saw on a 390 x 844 phone (issue 38, "Words"), on the pages: a save's big
number is the d100 rolled (never a negative margin) and its chance a percentage; the attack's
wound says "none taken", never "-0"; a dice error and a missing DC say what is wrong in words, by
the field's label, with no "column 3:" or "needed:"; no ASCII arrow."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from browserkit import ENGINE_TIMEOUT_MS, Visit
from kit.engine import engine
from vocabulary import engine_words

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]

MINUS_ZERO = re.compile(r"(?<![\w.])[-−]0(?![\d.])")


def test_a_certain_save_shows_the_d100_rolled_and_its_chance_as_a_percentage(phone, tab: Visit) -> None:
    # CON 99 makes Physical Toughness certain: the phone showed a huge "-94" and "(chance 1)"
    inputs = {"tool": "opencore-check", "kind": "physical-toughness", "who": "Ann",
              "scores": "STR=50,DEX=50,AGL=50,CON=99", "roll": 5}
    expected = engine("opencore check", kind="physical-toughness", scores=inputs["scores"], roll=5)
    page = tab("tools/checks/?" + urlencode(inputs))
    widget = page.locator("rollbook-opencore-check")
    answer = widget.locator(".rollbook-answer")
    expect(answer.locator(".rollbook-total__value")).to_have_text("5", timeout=ENGINE_TIMEOUT_MS)
    expect(answer.locator(".rollbook-total__label")).to_have_text("Physical Toughness for Ann: d100")
    expect(answer.locator(".rollbook-verdict")).to_have_text("Success")
    expect(answer.locator(".rollbook-breakdown")).to_have_text(expected["text"])
    shown = answer.inner_text()
    assert "rolled 5 - CON 99 = -94: success (chance of success 100%)" in shown
    assert "->" not in shown and "chance 1" not in shown, shown
    assert engine_words(shown) == []


def test_the_attacks_wound_says_none_taken_never_minus_zero(phone, tab: Visit) -> None:
    inputs = {"attack_skill": 60, "defense_skill": 40, "weapon": "Sword", "strength": 80, "hp": 30, "con": 40}
    expected = engine("opencore attack", **inputs, seed=2)
    assert expected["wound"]["to_armor"] == 0 and expected["wound"]["to_toughness"] == 0  # the case the phone showed
    page = tab("tools/combat/?" + urlencode({"tool": "opencore-attack", **inputs, "seed": 2}))
    facts = page.locator("rollbook-opencore-attack .rollbook-facts")
    expect(facts).to_contain_text("Armor none taken (0 left)", timeout=ENGINE_TIMEOUT_MS)
    expect(facts).to_contain_text("Toughness none taken (0 left)")
    expect(facts).to_contain_text(f"HP −{expected['wound']['to_hp']}")
    shown = page.locator("rollbook-opencore-attack .rollbook-answer").text_content() or ""
    assert not MINUS_ZERO.search(shown), shown
    assert "->" not in shown and "→" in shown, shown
    # no list item ends with a full stop after a number ("Damage 2d10+3: 11.")
    for item in facts.locator("li").all_inner_texts():
        assert not re.search(r"\d\.$", item.strip()), item


def test_a_missing_dc_says_what_to_enter_after_its_label(tab: Visit) -> None:
    page = tab("tools/checks/")
    widget = page.locator("rollbook-codex-check")
    dc = widget.get_by_label("DC", exact=True)
    dc.fill("")
    dc.press("Enter")
    expect(widget.locator("#codex-check-dc-problem")).to_have_text(
        "DC: enter the Difficulty Class the roll must reach, such as 15", timeout=ENGINE_TIMEOUT_MS)
    expect(dc).to_have_attribute("aria-invalid", "true")


def test_a_dice_error_at_a_helpers_field_says_its_place_in_words(tab: Visit) -> None:
    page = tab("tools/combat/")
    widget = page.locator("rollbook-cyno-strike")
    field = widget.get_by_label("Weapon's damage roll")
    field.fill("1d6 +* 2")
    field.press("Enter")
    problem = widget.locator("#cyno-strike-damage-problem")
    expect(problem).to_have_text(re.compile(r"^Weapon's damage roll: at the 6th character, expected a number, dice or "
                                            r"'\(' after '\+', found '\*'"), timeout=ENGINE_TIMEOUT_MS)
    expect(problem).not_to_contain_text("column")
    expect(field).to_have_attribute("aria-invalid", "true")
