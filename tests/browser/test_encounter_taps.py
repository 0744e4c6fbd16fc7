"""The encounter tracker's tap budget at 390 x 844 (issue 18): an OpenCore encounter of one kept
character and two foes from one kept foe, two rounds of attacks, counted tap by tap and field by
field as a player plays it; the page speaks no engine vocabulary; and a wrong value is refused at
its field, in view, with the field's label."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from browserkit import ENGINE_TIMEOUT_MS, Visit
from kit.kept import read_kept as kept

pytestmark = [pytest.mark.browser, pytest.mark.cpython_only]

CHARACTER = {"id": "c1", "name": "Kristine", "hp_roll": 60, "created": "2026-11-30T18:00:00.000Z",
             "scores": {"STR": 80, "DEX": 33, "AGL": 95, "CON": 46, "INT": 89, "PER": 95, "WIS": 84, "CHA": 68, "COM": 1}}
GOBLIN = {"id": "g1", "name": "Goblin", "rules": "opencore", "side": "goblins", "weapon": "Knife", "armor_name": "Leather Armor",
          "score": {"hp": 12, "con": 30, "dex": 60, "str": 45, "attack_skill": 35, "defense_skill": 25},
          "created": "2026-11-30T18:00:00.000Z"}
# What a player must never read (common brief): flags, argument names, ruling ids, internal ids, JSON words.
ENGINE_WORDS = [r"--[a-z]", r"\b[a-z]+_[a-z_]+\b", r"\b(opencore|codex|cyno)-[a-z0-9-]+\b", r"\b[a-z]\d+\b",
                r"\b(JSON|null|None|true|false|undefined|object)\b", r"Unexpected token"]


class Player:
    """Taps and typed fields, counted."""

    def __init__(self) -> None:
        self.taps = 0
        self.fields = 0

    def tap(self, target: Locator) -> None:
        self.taps += 1
        target.click()

    def type(self, field: Locator, text: str) -> None:
        self.fields += 1
        field.fill(text)


def engine_words(text: str) -> list[str]:
    return [m.group(0) for pattern in ENGINE_WORDS for m in re.finditer(pattern, text)]


def steps_done(widget: Locator, n: int) -> None:
    expect(widget.locator(".rollbook-encounter__undo")).to_have_text(f"Undo ({n})", timeout=ENGINE_TIMEOUT_MS)


def refused_at(page: Page, field: Locator, label: str) -> None:
    """The field is marked, its message (named by its label) tied to it, next to it, in view, and focused."""
    expect(field).to_have_attribute("aria-invalid", "true")
    problem = page.locator(f"#{field.get_attribute('aria-describedby')}")
    expect(problem).to_contain_text(f"{label}: ")
    expect(field).to_be_focused()
    for box in (field.bounding_box(), problem.bounding_box()):
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= 844 - 72, box  # above the Next/Undo bar
    assert engine_words(problem.inner_text()) == []


def test_an_encounter_of_a_kept_character_and_two_kept_foes_takes_few_taps_and_speaks_the_pages_words(tab: Visit) -> None:
    page = tab("tools/encounter/?seed=11", kept={"rollbook": 2, "characters": [CHARACTER], "foes": [GOBLIN]})
    widget = page.locator("rollbook-encounter")
    player = Player()
    player.tap(widget.get_by_role("button", name="Start the encounter"))
    expect(widget.locator(".rollbook-encounter__step")).to_contain_text("dead at minus CON", timeout=ENGINE_TIMEOUT_MS)
    quick = widget.get_by_role("list", name="Add in one tap")
    for n, name in enumerate(["Kristine", "Goblin", "Goblin"], start=1):
        player.tap(quick.get_by_role("button", name=name, exact=True))
        steps_done(widget, n)
    combatants = kept(page)["encounter"]["current"]["combatants"]
    assert [(c["name"], c["weapon"], c["armor_name"]) for c in combatants] == [
        ("Kristine", "Hand to Hand", None), ("Goblin", "Knife", "Leather Armor"), ("Goblin 2", "Knife", "Leather Armor")]
    player.tap(widget.locator(".rollbook-encounter__next"))
    steps = 4
    while True:  # each turn: the acting combatant attacks (when it can), then Next; until round 3 would begin
        steps_done(widget, steps)
        card = widget.locator("li[aria-current='true']")
        status = card.locator(".rollbook-combatant__status").inner_text()
        if "cannot attack" not in status:
            player.tap(card.locator(".rollbook-encounter__attack"))
            steps += 1
            steps_done(widget, steps)
        enc = kept(page)["encounter"]["current"]
        if enc["round"] == 2 and enc["turn"] == len(enc["order"]) - 1:
            break
        # nobody is shown as having acted when a new round has begun
        if widget.locator(".rollbook-encounter__next").inner_text() == "Next round":
            player.tap(widget.locator(".rollbook-encounter__next"))
            steps += 1
            steps_done(widget, steps)
            expect(widget.locator(".rollbook-combatant__status", has_text="acted")).to_have_count(0)
            continue
        player.tap(widget.locator(".rollbook-encounter__next"))
        steps += 1
    attacks = kept(page)["log"]
    assert len(attacks) >= 4
    # an attack that cost nothing says why in the roll log, never a bare 0 (seed 11: the armor stopped the first)
    assert attacks[0]["total_text"] == "armor stopped all 9"
    assert all(a["total_text"] for a in attacks if a["total"] == 0)
    stopped = sum(a["total_text"] == "armor stopped all 9" for a in attacks)
    expect(page.locator(".rollbook-log__total", has_text="armor stopped all 9")).to_have_count(stopped)
    assert player.taps <= 20 and player.fields <= 2, (player.taps, player.fields)

    # Everything shown (the log and the rulings unfolded too) is in the page's words.
    widget.locator(".rollbook-encounter__log summary").click()
    widget.locator(".rollbook-encounter__more summary").click()
    text = widget.inner_text()
    assert engine_words(text) == [], engine_words(text)
    assert "Round 2 Round 2" not in text and "Goblin 2" in text
    assert re.search(r"Ruling: Unconscious at 0 HP, dead at minus CON", text)

    # A wrong value is refused at its field: the damage of an edit, a score of the add form.
    goblin = widget.locator("li.rollbook-combatant", has=page.get_by_role("heading", name="Goblin 2"))
    goblin.locator("details.rollbook-combatant__edit > summary").click()
    goblin.get_by_label("Damage or HP").fill("abc")
    goblin.get_by_role("button", name="Damage", exact=True).click()
    refused_at(page, goblin.get_by_label("Damage or HP"), "Damage or HP")
    add = widget.locator(".rollbook-encounter__add")
    add.locator("summary").click()
    add.get_by_label("Name").fill("Orc")
    add.get_by_label("HP", exact=True).fill("lots")
    page.mouse.wheel(0, -3000)
    add.get_by_role("button", name="Add to the encounter").click()
    refused_at(page, add.get_by_label("HP", exact=True), "HP")

    # "Another like" a combatant adds a fresh, numbered copy; "Keep for next time" keeps it for one tap next time.
    goblin.get_by_role("button", name="Another like Goblin 2").click()
    expect(widget.locator("#rollbook-enc-step-title")).to_have_text("Goblin 3 joins", timeout=ENGINE_TIMEOUT_MS)
    copy = kept(page)["encounter"]["current"]["combatants"][-1]
    assert (copy["name"], copy["hp"], copy["armor"], copy["weapon"], copy["attack_skill"]) == ("Goblin 3", 12, 25, "Knife", 35)
    goblin.get_by_role("button", name="Keep for next time").click()
    expect(quick.get_by_role("button", name="Goblin 2", exact=True)).to_be_visible()
    assert [(f["name"], f["score"]["hp"], f["armor_name"]) for f in kept(page)["foes"]] == [("Goblin", 12, "Leather Armor"), ("Goblin 2", 12, "Leather Armor")]
