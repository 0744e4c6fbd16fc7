"""The combat helpers (tools/combat/) in a real Chromium at phone size: OpenCore's attack and
initiative, Cyno's strike, defenses, turn order and damage rating. Every answer is compared with
the engine on CPython for the same inputs and seed."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from browserkit import ENGINE_TIMEOUT_MS, Visit, axe_violations, open_more_options, small_tap_targets
from kit.engine import engine
from kit.kept import kept_log

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]


def shown_text(widget: Any) -> str:
    """The engine's text as the widget shows it (folded away or not)."""
    working = widget.locator(".rollbook-breakdown")
    expect(working).to_be_attached(timeout=ENGINE_TIMEOUT_MS)
    return working.text_content()


def link(tool: str, **inputs: Any) -> str:
    return "tools/combat/?" + urlencode({"tool": tool, **inputs})


def test_an_attack_rolls_damage_through_armor_and_toughness_and_the_critical_it_calls_for(tab: Visit) -> None:
    inputs = {"attack_skill": 60, "defense_skill": 40, "weapon": "Sword", "strength": 80, "hp": 30, "con": 40, "armor": 5, "toughness": 3}
    attack = engine("opencore attack", **inputs, seed=2)
    critical = attack["wound"]["critical_hit"]
    assert critical is not None  # the whole chain in one answer: the damage reached HP
    page = tab(link("opencore-attack", **inputs, seed=2))
    widget = page.locator("rollbook-opencore-attack")
    assert shown_text(widget) == attack["text"]
    expect(widget.locator(".rollbook-total__value")).to_have_text(str(attack["damage"]))
    expect(widget.locator(".rollbook-facts")).to_contain_text(f"Critical (slash): roll {critical['roll']} ({critical['row']}): {critical['effect']}")
    expect(widget.locator(".rollbook-facts")).to_contain_text(f"The defender: {attack['wound']['hp']} HP, {attack['wound']['state']}")
    expect(widget.get_by_label("Weapon", exact=True)).to_have_value("Sword")
    expect(widget.get_by_label("Defender's HP")).to_be_visible()  # the wound's section opens for a link that fills it
    assert kept_log(page) == []  # shown from a link: not logged again


def test_a_power_attack_offers_its_own_fields_and_a_stunned_attacker_is_refused(tab: Visit) -> None:
    page = tab("tools/combat/")
    widget = page.locator("rollbook-opencore-attack")
    open_more_options(widget)
    widget.get_by_label("Attack with").select_option("mental")  # "Mental powers used in combat cannot be blocked"
    expect(widget.get_by_label("Defense skill")).to_have_count(0)
    expect(widget.get_by_label("Weapon", exact=True)).to_have_count(0)
    widget.get_by_label("Power's score").fill("60")
    widget.get_by_label("Power's damage").fill("12")
    widget.get_by_label("Defender's Magic Resistance").fill("20")
    widget.get_by_label("Attacker is stunned").check()
    widget.get_by_role("button", name="Attack", exact=True).click()
    expect(page.locator("#opencore-attack-attacker_stunned-problem")).to_contain_text("Stun: unable to attack", timeout=ENGINE_TIMEOUT_MS)
    widget.get_by_label("Attacker is stunned").uncheck()
    widget.get_by_role("button", name="Attack", exact=True).click()
    text = shown_text(widget)
    (entry,) = kept_log(page)
    expected = engine("opencore attack", power="mental", power_score=60, power_damage=12, resistance=20, attack_bonus=0, seed=entry["seed"])
    assert text == expected["text"] and expected["effective_power"] == 40
    expect(widget.locator(".rollbook-total__value")).to_have_text("12")


def test_an_attack_typed_here_is_logged_with_its_fumble_and_a_link_that_reproduces_it(tab: Visit, browser, base_url: str) -> None:
    page = tab("tools/combat/")
    widget = page.locator("rollbook-opencore-attack")
    widget.get_by_label("Attack skill").fill("50")
    widget.get_by_label("Defense skill").fill("50")
    open_more_options(widget)  # the dice rolled at the table are folded
    widget.get_by_label("Defense d100").fill("3")  # an unmodified 01-05: the defender fumbles
    widget.get_by_label("Attack skill").press("Enter")
    text = shown_text(widget)
    (entry,) = kept_log(page)
    expected = engine("opencore attack", attack_skill=50, defense_skill=50, defense_roll=3, seed=entry["seed"])
    assert text == entry["text"] == expected["text"] and "Fumble (defender" in text
    expect(widget.locator(".rollbook-facts")).to_contain_text(f"Fumble (defender): Fumble Chart {expected['fumbles']['defender']['roll']}")

    other = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        shared = other.new_page()
        shared.goto(base_url + entry["link"])
        assert shown_text(shared.locator("rollbook-opencore-attack")) == expected["text"]
    finally:
        other.close()


def test_dice_rolled_at_the_table_and_a_better_weapon_go_into_the_attack(phone, base_url: str) -> None:
    # "It is possible for a weapon to be better than the average weapon of its class": a bonus; and
    # a thrown weapon's own damage, which the Weapons Table leaves "Per weapon"
    page = phone.new_page()
    page.goto(base_url + link("opencore-attack", attack_skill=50, defense_skill=40, weapon="Sword", strength=50,
                              attack_roll=60, defense_roll=20, damage_roll=15, damage_bonus=2))
    widget = page.locator("rollbook-opencore-attack")
    expect(widget.locator(".rollbook-total__value")).to_have_text("17", timeout=ENGINE_TIMEOUT_MS)
    expect(widget.get_by_label("Better weapon's bonus")).to_have_value("2")
    widget.get_by_label("Weapon", exact=True).select_option("Thrown weapons")
    widget.get_by_label("Damage roll").fill("")
    widget.get_by_role("button", name="Attack").click()
    expect(page.locator("#opencore-attack-damage_roll-problem")).to_contain_text(
        "Damage roll: Thrown weapons deal the thrown weapon's own damage", timeout=ENGINE_TIMEOUT_MS)
    widget.get_by_label("Damage roll").fill("4")
    widget.get_by_role("button", name="Attack").click()
    expect(widget.locator(".rollbook-total__value")).to_have_text("6")  # 4 + the better weapon's 2


def test_a_sword_without_strength_is_the_engines_message_next_to_str(tab: Visit) -> None:
    page = tab(link("opencore-attack", attack_skill=50, defense_skill=40, weapon="Sword"))
    problem = page.locator("#opencore-attack-strength-problem")
    expect(problem).to_have_text("Attacker's STR: Sword adds STR to damage (give the attacker's STR)", timeout=ENGINE_TIMEOUT_MS)
    expect(page.locator("rollbook-opencore-attack").get_by_label("Attacker's STR")).to_have_attribute("aria-invalid", "true")


# Each helper's seeded link shows exactly the engine's text for the same inputs and seed.
SEEDED = [
    ("opencore-initiative", {"dex": 70, "weapon": "Sword", "armor": "Chain Mail", "bide": 1}, "opencore initiative",
     {"dex": 70, "weapon": "Sword", "armor": "Chain Mail", "bide": True}),
    ("opencore-group-initiative", {}, "opencore group-initiative", {}),
    ("opencore-party-initiative", {"character": "name=Buck,dex=80,weapon=Sword\nname=Orc,dex=0\nname=Kris,dex=80,weapon=Sword"},
     "opencore party-initiative", {"character": ["name=Buck,dex=80,weapon=Sword", "name=Orc,dex=0", "name=Kris,dex=80,weapon=Sword"]}),
    ("cyno-strike", {"coordination": 15, "skill": 70, "condition": "large-target,half-cover", "damage": "2d6+1"}, "cyno strike",
     {"coordination": 15, "skill": 70, "condition": ["large-target", "half-cover"], "damage": "2d6+1"}),
    ("cyno-dodge", {"strike": 14, "reflex": 15, "blind": 1}, "cyno dodge", {"strike": 14, "reflex": 15, "blind": True}),
    ("cyno-dodge", {"strike": 14, "volley": 5, "impossible_dodge": "free"}, "cyno dodge", {"strike": 14, "volley": 5, "impossible_dodge": "free"}),
    ("cyno-parry", {"strike": 12, "skill": 60, "damage": 9}, "cyno parry", {"strike": 12, "skill": 60, "damage": 9}),
    ("cyno-initiative", {"combatants": 5, "reflex": "12, 15, 22"}, "cyno initiative", {"combatants": 5, "reflex": [12, 15, 22]}),
    ("cyno-hold-back", {"stress": 14, "other_stress": 9}, "cyno hold-back", {"stress": 14, "other_stress": 9}),
    ("cyno-surprise", {}, "cyno surprise", {}),
]


@pytest.mark.parametrize(("tool", "inputs", "command", "args"), SEEDED, ids=[f"{case[0]}-{i}" for i, case in enumerate(SEEDED)])
def test_a_seeded_link_shows_exactly_the_engines_answer(tab: Visit, tool: str, inputs: dict, command: str, args: dict) -> None:
    expected = engine(command, **args, seed=20261130)
    page = tab(link(tool, **inputs, seed=20261130))
    assert shown_text(page.locator(f"rollbook-{tool}")) == expected["text"]


def test_the_strike_charts_are_the_engines_rows_and_one_cover_line_applies(tab: Visit) -> None:
    chart = [row for name in ("cyno.strike.bonuses", "cyno.strike.penalties") for row in engine("table", name=name)["rows"] if "id" in row]
    page = tab("tools/combat/")
    widget = page.locator("rollbook-cyno-strike")
    open_more_options(widget)
    boxes = widget.get_by_role("group", name="Bonuses and penalties").get_by_role("checkbox")
    expect(boxes).to_have_count(len(chart), timeout=ENGINE_TIMEOUT_MS)
    quarter = widget.get_by_label("−1: A fourth of the target is behind cover.")
    half = widget.get_by_label("−2: Half of the target is behind cover.")
    quarter.check()
    half.check()
    expect(quarter).not_to_be_checked()  # a cover line replaces the other
    widget.get_by_label("+1: Striking at a large target. Anything over 3 meters.").check()
    widget.get_by_label("Coordination").fill("15")
    widget.get_by_role("button", name="Strike", exact=True).click()
    text = shown_text(widget)
    (entry,) = kept_log(page)
    assert text == engine("cyno strike", coordination=15, condition=["half-cover", "large-target"], seed=entry["seed"])["text"]
    assert "condition=half-cover%2Clarge-target" in entry["link"]


def test_a_missile_with_bonuses_is_refused_in_the_engines_words(tab: Visit) -> None:
    page = tab(link("cyno-strike", coordination=15, missile=1))
    expect(page.locator("#cyno-strike-missile-problem")).to_contain_text(
        "a missile's strike takes no bonuses or penalties", timeout=ENGINE_TIMEOUT_MS)
    assert kept_log(page) == []


def test_damage_across_levels_needs_no_dice_and_is_not_logged(tab: Visit) -> None:
    expected = engine("cyno damage", amount=12, weapon_level="Kilo+1", target_level="h", critical=True)
    page = tab(link("cyno-damage", amount=12, weapon_level="k+1", target_level="h", critical=1))
    widget = page.locator("rollbook-cyno-damage")
    assert shown_text(widget) == expected["text"]
    expect(widget.get_by_label("Weapon's level")).to_have_value("k+1", timeout=ENGINE_TIMEOUT_MS)  # "Kilo+1 for one level above Kilo"
    expect(widget.get_by_label("Weapon's level").locator("option:checked")).to_have_text("k+1DP (Kilo+1)")
    expect(widget.locator(".rollbook-total__value")).to_have_text(str(expected["damage"]))
    expect(widget.get_by_role("link", name="Link to this result")).not_to_have_attribute("href", re.compile("seed="))
    widget.get_by_label("Damage points rolled").fill("-3")
    widget.get_by_label("Damage points rolled").press("Enter")
    expect(widget.locator(".rollbook-problem")).to_contain_text("negative")
    assert kept_log(page) == []


def test_movement_is_the_engines_count_of_actions_and_not_logged(tab: Visit) -> None:
    expected = engine("opencore move", feet=35)  # "ten feet per action": 4 actions, one a round
    page = tab(link("opencore-move", feet=35))
    widget = page.locator("rollbook-opencore-move")
    assert shown_text(widget) == expected["text"]
    expect(widget.locator(".rollbook-total__value")).to_have_text(str(expected["actions"]))
    widget.get_by_label("or movement actions").fill("2")
    widget.get_by_label("or movement actions").press("Enter")
    expect(widget.locator(".rollbook-problem")).to_contain_text("not both", timeout=ENGINE_TIMEOUT_MS)
    assert kept_log(page) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_combat_helpers_have_no_serious_accessibility_violations(tab: Visit, scheme: str) -> None:
    page = tab(link("cyno-strike", coordination=15, condition="large-target", seed=3), color_scheme=scheme)
    expect(page.locator("rollbook-cyno-strike .rollbook-total__value")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    page.locator("rollbook-opencore-attack").get_by_role("button", name="Attack", exact=True).click()  # an error shown
    expect(page.locator("rollbook-opencore-attack .rollbook-problem").first).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    widgets = page.evaluate("() => [...document.querySelectorAll('.rollbook-widget')].map((el) => el.localName)")
    assert len(widgets) == 13
    assert axe_violations(page, within=widgets) == []


def test_combat_tap_targets_are_at_least_44_px(tab: Visit) -> None:
    page = tab("tools/combat/")
    expect(page.locator("rollbook-cyno-strike input[type=checkbox]").first).to_be_attached(timeout=ENGINE_TIMEOUT_MS)
    for fold in page.locator("details.rollbook-fold").all():  # what More options holds is measured too
        fold.evaluate("(details) => { details.open = true; }")
    small = small_tap_targets(page, ".rollbook-widget button, .rollbook-widget input, .rollbook-widget select, .rollbook-widget label:has(input[type=checkbox]), .rollbook-widget summary")
    assert small == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # no sideways scroll


def test_long_inputs_are_answered_and_kept_without_a_link_or_refused_at_their_field(phone, base_url: str) -> None:
    """Issue 39: a long input made a link longer than the roll log keeps, and keeping the result
    threw "roll.link: text longer than 1000 characters" (the answer never came, "Rolling…" stayed).
    Now the result is answered and kept, with no link (one that fits reads back whole, or none is
    offered); an input past the engine's own limits is refused at its field in a player's words."""
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    page.on("console", lambda message: errors.append(f"console: {message.text}") if message.type == "error" else None)
    page.goto(base_url + "tools/combat/")
    # 16 characters typed in, 486 characters: more than 1,000 once written in a link
    lines = [f"name=Åsa Ødegård-Ærø {i + 1},dex={40 + i}" for i in range(16)]
    party = page.locator("rollbook-opencore-party-initiative")
    party.get_by_label("Others, one a line").fill("\n".join(lines))
    party.get_by_role("button", name="Order the party").click()
    expect(party.locator(".rollbook-share")).to_have_text("No link to this result: what was typed is too long to fit in one.",
                                                         timeout=ENGINE_TIMEOUT_MS)
    (entry,) = kept_log(page)
    expected = engine("opencore party-initiative", character=lines, seed=entry["seed"])
    expect(party.locator(".rollbook-total__value")).to_have_text(str(expected["order"][0]["total"]))
    assert entry["link"] is None and entry["text"] == expected["text"]

    strike = page.locator("rollbook-cyno-strike")
    strike.get_by_label("Coordination").fill("12")
    strike.get_by_label("Weaponry skill %").fill("40")
    damage = "+".join(["1d6"] * 200)  # 799 characters: the engine rolls it
    strike.get_by_label("Weapon's damage roll").fill(damage)
    strike.get_by_role("button", name="Strike").click()
    expect(strike.locator(".rollbook-share")).to_have_text("No link to this result: what was typed is too long to fit in one.",
                                                          timeout=ENGINE_TIMEOUT_MS)
    entry = kept_log(page)[-1]
    assert entry["link"] is None
    expected = engine("cyno strike", coordination=12, skill=40, damage=damage, seed=entry["seed"])
    assert expected["text"].startswith(entry["text"].removesuffix("…"))  # the log keeps up to 2,000 characters of it
    expect(strike.locator(".rollbook-total__value")).to_have_text(str(expected["total"]))

    strike.get_by_label("Weapon's damage roll").fill("1" * 63_000)  # up to the engine's request limit
    strike.get_by_role("button", name="Strike").click()
    expect(strike.locator("#cyno-strike-damage-problem")).to_have_text(
        "Weapon's damage roll: at most 1,000 characters in an expression", timeout=ENGINE_TIMEOUT_MS)
    assert len(kept_log(page)) == 2
    assert errors == []
