"""One bad value in every typed field of every tool page, the encounter tracker's too, tapped at
390 x 844: the message is on screen, names the field by its label, is tied to it
(aria-describedby), the field is marked aria-invalid and has the focus, and nothing on the page is
engine vocabulary. One page load per tool page; the fields are tried in a loop, each failure
collected, so one run shows them all."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browserkit import ENGINE_TIMEOUT_MS, Visit, axe_violations
from kit.kept import KEPT
from vocabulary import engine_words

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]

BAD = "abc"
BUCK = {"id": "buck", "name": "Buck Hunter", "hp_roll": 60, "locked": [], "options": {}, "created": "2026-11-30T18:00:00.000Z",
        "scores": {"STR": 76, "DEX": 80, "AGL": 21, "CON": 32, "INT": 86, "PER": 96, "WIS": 32, "CHA": 17, "COM": 92}}

# What the character generator holds (its fields, its last question and answer, the engine's state).
GENERATOR_STATE = """(generator) => ({
  fields: Object.fromEntries([...generator.querySelectorAll("input[type=text]")].map((input) => [input.name, input.value])),
  busy: generator.busy, asked: generator.asked, answered: Boolean(generator.answer), problem: generator.problem,
  engine: generator.engine, shown: generator.querySelector(".rollbook-character__answer")?.innerText })"""

# What the page shows about the field in error, read in one go after the tap.
REPORT = """(field) => {
  const ids = (field.getAttribute("aria-describedby") || "").split(/\\s+/).filter(Boolean);
  const message = ids.map((id) => document.getElementById(id)).find((m) => m?.matches(".rollbook-problem, .rollbook-problem *"));
  const label = field.matches("fieldset") ? field.querySelector("legend").innerText : field.labels?.[0]?.innerText ?? "";
  const box = message?.getBoundingClientRect();
  const active = document.activeElement;
  return {
    invalid: field.getAttribute("aria-invalid"), message: message ? message.innerText : null,
    inView: Boolean(box && box.height > 0 && box.top >= 0 && box.bottom <= innerHeight),
    label: label.split("\\n")[0].trim(), focused: active === field || field.contains(active),
  };
}"""


def visible_text(page: Page) -> str:
    return page.evaluate("() => document.body.innerText")


def check_page(page: Page, what: str, problems: list[str]) -> None:
    """No engine vocabulary anywhere on the page as it is now (each hit once)."""
    problems += sorted({f"{what}: engine vocabulary on the page: …{hit}…" for hit in engine_words(visible_text(page))})


def check_field(page: Page, field: Any, what: str, problems: list[str], timeout: int = 5_000) -> None:
    """After the tap: the field in error and its message, as the error contract wants them."""
    try:
        # a page's first answer waits for the engine (`timeout`); the others take a moment
        expect(field).to_have_attribute("aria-invalid", "true", timeout=timeout)
    except AssertionError:
        problems.append(f"{what}: not marked aria-invalid")
        return
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    report = field.evaluate(REPORT)
    if report["message"] is None:
        problems.append(f"{what}: aria-describedby points at no message")
        return
    if report["label"].lower() not in report["message"].lower():
        problems.append(f"{what}: the message does not name the field ({report['label']!r}): {report['message']!r}")
    if not report["inView"]:
        problems.append(f"{what}: the message is not on screen")
    if not report["focused"]:
        problems.append(f"{what}: the field does not have the focus")
    problems += [f"{what}: engine vocabulary in the message: {report['message']!r}" for _ in engine_words(report["message"])[:1]]


def typed_fields(widget: Any) -> list[Any]:
    widget.evaluate("(w) => w.querySelectorAll('details').forEach((d) => { d.open = true; })")
    return [f for f in widget.locator("input[type=text], textarea").all() if f.is_visible()]


def try_every_field(page: Page, tag: str, baseline: dict[str, str], problems: list[str],
                    choices: dict[str, str] | None = None) -> None:
    """Each typed field of <tag> in turn holds BAD, the others their `baseline` value (by label;
    blank when not given), and the main button is tapped."""
    widget = page.locator(tag)
    widget.locator("button[type=submit]").first.wait_for()
    for label, value in (choices or {}).items():
        expect(widget.locator(f"option[value='{value}']")).to_be_attached(timeout=ENGINE_TIMEOUT_MS)  # the engine's table rows
        widget.get_by_label(label, exact=True).select_option(value)
    fields = typed_fields(widget)
    assert fields, f"{tag}: no typed field found"
    labels = [f.evaluate("(f) => f.labels[0].innerText.split('\\n')[0].trim()") for f in fields]
    button = widget.locator("button[type=submit]").last
    for field, label in zip(fields, labels):
        field.fill(baseline.get(label, ""))
    for field, label in zip(fields, labels):  # one field at a time holds BAD, then its baseline again
        field.fill(BAD)
        button.tap()
        check_field(page, field, f"{tag} {label!r} = {BAD!r}", problems)
        field.fill(baseline.get(label, ""))


def test_tool_pages_say_a_bad_value_at_its_field(tab: Visit, tmp_path: Path) -> None:
    problems: list[str] = []
    page = tab("tools/checks/", kept={"rollbook": 1, "log": [], "characters": [BUCK], "active": "buck"})
    expect(page.locator("rollbook-codex-check .rollbook-chance")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)  # the engine answers
    try_every_field(page, "rollbook-codex-check", {"Skill modifier": "3", "DC": "15"}, problems)
    codex = page.locator("rollbook-codex-check")
    codex.get_by_label("DC", exact=True).fill("15")
    codex.get_by_label("Roll or take").select_option("20")
    codex.get_by_role("button", name="Roll the check").tap()
    check_field(page, codex.get_by_label("Roll or take"), "checks: Take 20 while threatened", problems)
    problems += [f"checks, a choice in error: axe: {v}" for v in axe_violations(page, within=["rollbook-codex-check"])]
    try_every_field(page, "rollbook-opencore-check", {}, problems)
    try_every_field(page, "rollbook-opencore-successes", {"Dice": "5d10", "A die counts at": "7", "Successes needed": "1"}, problems)

    check_page(page, "checks", problems)

    tab("tools/combat/")
    attack = {"Attack skill": "40", "Defense skill": "30", "Attacker's STR": "50", "Defender's HP": "20", "Defender's CON": "30"}
    try_every_field(page, "rollbook-opencore-attack", attack, problems, choices={"Weapon": "Sword"})
    widget = page.locator("rollbook-opencore-attack")
    for field in typed_fields(widget):
        field.fill("")
    widget.get_by_label("Defense skill").fill("30")
    widget.get_by_role("button", name="Attack", exact=True).tap()
    check_field(page, widget.get_by_label("Attack skill"), "combat: attack with a blank Attack skill", problems)
    problems += [f"combat, a field in error: axe: {v}" for v in axe_violations(page, within=["rollbook-opencore-attack"])]
    try_every_field(page, "rollbook-opencore-initiative", {"DEX": "50"}, problems)
    try_every_field(page, "rollbook-opencore-party-initiative", {"Characters, one a line": "name=Buck,dex=80"}, problems)
    try_every_field(page, "rollbook-opencore-move", {}, problems)
    try_every_field(page, "rollbook-cyno-strike", {"Coordination": "12", "Weaponry skill %": "50"}, problems)
    try_every_field(page, "rollbook-cyno-dodge", {"Strike to beat": "15", "Reflex": "12", "Other bonus": "0"}, problems)
    try_every_field(page, "rollbook-cyno-parry", {"Strike to beat": "15", "Reflex": "12", "Other bonus": "0"}, problems)
    try_every_field(page, "rollbook-cyno-initiative", {"Combatants": "3"}, problems)
    try_every_field(page, "rollbook-cyno-hold-back", {"Stress (first character)": "2", "Stress (other character)": "3"}, problems)
    try_every_field(page, "rollbook-cyno-surprise", {}, problems)
    try_every_field(page, "rollbook-cyno-damage", {}, problems)

    check_page(page, "combat", problems)

    tab("tools/roller/")
    roller = page.locator("rollbook-roller")
    expression = roller.get_by_label("Dice expression")
    expression.fill("hello")
    roller.get_by_role("button", name="Roll", exact=True).tap()
    check_field(page, expression, "roller: hello", problems, timeout=ENGINE_TIMEOUT_MS)
    for label in ("Chance of at least", "Chance of at most"):
        expression.fill("1d20")
        for target in ("Chance of at least", "Chance of at most"):
            roller.get_by_label(target).fill(BAD if target == label else "")
        roller.get_by_role("button", name="Roll", exact=True).tap()
        check_field(page, roller.get_by_label(label), f"roller: {label} = {BAD!r}", problems)

    check_page(page, "roller", problems)

    tab("tools/criticals/")
    expect(page.locator(".rollbook-crit-table")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)  # the engine answers
    try_every_field(page, "rollbook-criticals", {}, problems)
    check_page(page, "criticals", problems)

    # Reached by instant navigation with an active character kept, as a player goes there. A tap on
    # Roll a character as it appeared once left the sheet unshown in about 1 run of 5 (stop 52); it
    # passed 12 runs of 12 on 2026-12-07 and was never understood, so should it come back, the failure
    # says what the generator held.
    tab("tools/character/")
    character = page.locator("rollbook-character")
    character.get_by_role("button", name="Roll a character").tap()
    try:
        expect(character.locator(".rollbook-sheet__big")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    except AssertionError:
        raise AssertionError(f"Roll a character showed no sheet; the generator held {character.evaluate(GENERATOR_STATE)}") from None
    for code, value in (("STR", BAD), ("CON", "101"), ("HP roll", "0")):
        field = character.locator("input[name=hp_roll]" if code == "HP roll" else f"input[name={code}]")
        before = field.input_value()
        field.fill(value)
        character.get_by_role("button", name="Work out the sheet").tap()
        check_field(page, field, f"character: {code} = {value!r}", problems)
        field.fill(before)
    character.get_by_role("button", name="Work out the sheet").tap()
    expect(character.locator(".rollbook-sheet__big")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    name = character.get_by_label("Character name")
    name.fill("")
    character.get_by_role("button", name="Keep this character").tap()
    check_field(page, name, "character: keep with no name", problems)
    check_page(page, "character", problems)

    not_an_export = tmp_path / "notes.json"
    not_an_export.write_text("only notes, no export", encoding="utf-8")
    page = tab("tools/offline/")
    file = page.get_by_label("Import a file")
    file.set_input_files(str(not_an_export))
    message = page.locator("#rollbook-kept-problem")
    expect(message).to_contain_text("notes.json was not imported, nothing changed: this file is not a Rollbook export")
    expect(file).to_have_attribute("aria-invalid", "true")
    expect(file).to_have_attribute("aria-describedby", "rollbook-kept-problem")
    expect(message).to_be_in_viewport()
    check_page(page, "import", problems)

    assert problems == [], "\n".join(problems)


def test_the_encounter_says_a_bad_value_at_its_field(phone, base_url: str) -> None:
    """The same for the encounter tracker: every typed field of the add form (OpenCore and Cyno),
    of a combatant's edits and of a Cyno strike's options."""
    from test_encounter_taps import steps_done  # the step counter (Undo (n)) that says a step is done

    problems: list[str] = []
    page = phone.new_page()
    for rules, scores in (("opencore", ["HP", "CON", "DEX", "STR", "Attack skill", "Defense skill", "Toughness"]),
                          ("cyno", ["Reflex", "Coordination", "Stress", "Actions", "DP", "Weaponry skill %", "Weapon damage"])):
        page.goto(base_url + "tools/encounter/")
        # a clean slate: nothing kept, and no mark of the last encounter's step (widgets/step-lock.js)
        page.evaluate("""(key) => { localStorage.removeItem(key);
          return new Promise((done) => { const q = indexedDB.deleteDatabase('rollbook'); q.onsuccess = q.onerror = q.onblocked = done; }); }""", KEPT)
        page.reload()
        widget = page.locator("rollbook-encounter")
        widget.get_by_label("Rules", exact=True).select_option(rules)
        widget.get_by_role("button", name="Start the encounter").tap()
        add = widget.locator(".rollbook-encounter__add")
        expect(add.get_by_label("Name", exact=True)).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
        typical = {"Reflex": "12", "Coordination": "12", "Stress": "1", "Actions": "2", "DP": "20", "Weaponry skill %": "50",
                   "Weapon damage": "1d6"} if rules == "cyno" else {}
        for label in scores:  # one bad, the others blank (a typical foe's) or, for Cyno, given
            add.get_by_label("Name", exact=True).fill("Orc")
            for other in scores:
                add.get_by_label(other, exact=True).fill(BAD if other == label else typical.get(other, ""))
            add.get_by_role("button", name="Add to the encounter").tap()
            check_field(page, add.get_by_label(label, exact=True), f"encounter ({rules}) add: {label} = {BAD!r}", problems,
                        timeout=ENGINE_TIMEOUT_MS)
        for n, name in enumerate(("Orc", "Goblin"), start=1):
            add.get_by_label("Name", exact=True).fill(name)
            for other in scores:
                add.get_by_label(other, exact=True).fill(typical.get(other, ""))
            add.get_by_role("button", name="Add to the encounter").tap()
            steps_done(widget, n)  # each step kept before the next tap (a tap while one runs is not taken)
        widget.locator(".rollbook-encounter__next").tap()
        steps_done(widget, 3)

        card = widget.locator("li.rollbook-combatant").last
        card.locator("details.rollbook-combatant__edit > summary").click()
        edits = [("Damage or DP" if rules == "cyno" else "Damage or HP", None, "Damage")]
        if rules == "opencore":
            edits += [("Critical bonus", None, "Roll a critical"), ("Rounds", "stun", "Add the effect"),
                      ("HP a round", "bloodloss", "Add the effect"), ("Skill penalty", "location", "Add the effect"),
                      ("Defense penalty", "stumble", "Add the effect")]
        for label, effect, button in edits:
            if label == "Critical bonus":  # (with no table chosen, the table is what the message is about)
                card.get_by_label("Critical table", exact=True).select_option("slash")
            if effect:
                card.get_by_label("Effect", exact=True).select_option(effect)
            card.get_by_label(label, exact=True).fill(BAD)
            card.get_by_role("button", name=button, exact=True).tap()
            check_field(page, card.get_by_label(label, exact=True), f"encounter ({rules}) edit: {label} = {BAD!r}", problems)
            card.get_by_label(label, exact=True).fill("")
        if rules == "opencore":  # every typed field of "Attack options", for each way of attacking that shows it
            acting = widget.locator("li[aria-current='true']")
            acting.locator("summary", has_text="Attack options").click()
            for with_what, labels in (("", ["Attack bonus", "Defense bonus", "Better weapon's bonus", "Critical bonus of the attack",
                                            "Armor or Shielding Power stops", "Attack roll (1d100)", "Defense roll (1d100)", "Damage roll",
                                            "Critical roll (1d100)", "Attacker's Fumble Chart roll (1d100)",
                                            "Defender's Fumble Chart roll (1d100)"]),
                                      ("physical", ["Power's score", "Power's damage"]), ("touch", ["Hand-to-Hand skill"]),
                                      ("mental", ["Target's Magic Resistance"])):
                acting.get_by_label("Attack with").select_option(with_what)
                for label in labels:
                    acting.get_by_label(label, exact=True).fill(BAD)
                    acting.locator(".rollbook-encounter__attack").tap()
                    check_field(page, acting.get_by_label(label, exact=True), f"encounter (opencore) attack: {label} = {BAD!r}", problems)
                    acting.get_by_label(label, exact=True).fill("")
            acting.get_by_label("Attack with").select_option("")
        if rules == "cyno":
            acting = widget.locator("li[aria-current='true']")
            acting.locator("summary", has_text="Strike options").click()
            for label, fired in (("Actions spent aiming", "weapon"), ("Missiles in the volley", "volley")):
                acting.get_by_label("What is fired").select_option(fired)
                acting.get_by_label(label, exact=True).fill(BAD)
                acting.locator(".rollbook-encounter__attack").tap()
                check_field(page, acting.get_by_label(label, exact=True), f"encounter (cyno) strike: {label} = {BAD!r}", problems)
                acting.get_by_label(label, exact=True).fill("")
            acting.get_by_label("What is fired").select_option("weapon")
            # the dice rolled at the table, each shown where the strike declared calls for it
            for label, defense, aim in (("Strike roll (1d20)", "none", ""), ("Damage roll", "none", ""),
                                        ("Dodge or parry roll (1d20)", "dodge", ""), ("Blind dodge or parry roll (1d100)", "parry", ""),
                                        ("Aimed hit's roll (1d100)", "none", "1")):
                acting.get_by_label("Target's defense").select_option(defense)
                acting.get_by_label("Actions spent aiming", exact=True).fill(aim)
                acting.get_by_label(label, exact=True).fill(BAD)
                acting.locator(".rollbook-encounter__attack").tap()
                check_field(page, acting.get_by_label(label, exact=True), f"encounter (cyno) strike: {label} = {BAD!r}", problems)
                acting.get_by_label(label, exact=True).fill("")
        check_page(page, f"encounter ({rules})", problems)

    assert problems == [], "\n".join(problems)
