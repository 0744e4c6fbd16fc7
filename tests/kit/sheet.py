"""The OpenCore character generator's sheet (tools/character/): open it, roll, keep, and check every
number it shows against the engine's answer (tests/browser/test_character*.py)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from playwright.sync_api import Page, expect

from browserkit import ENGINE_TIMEOUT_MS
from kit.kept import read_kept

ABILITIES = {"STR": "Strength", "DEX": "Dexterity", "AGL": "Agility", "CON": "Constitution", "INT": "Intelligence",
             "PER": "Perception", "WIS": "Wisdom", "CHA": "Charisma", "COM": "Comeliness"}
# The seed's worked example (000_*.txt, "Buck Hunter"), as a player would type it from real dice.
BUCK = {"STR": 76, "DEX": 80, "AGL": 21, "CON": 32, "INT": 86, "PER": 96, "WIS": 32, "CHA": 17, "COM": 92}
SAVES = ["Physical Toughness", "Reflex", "Willpower", "Awareness", "Concentration", "Perception"]


def scores_text(scores: dict[str, int]) -> str:
    return ",".join(f"{code}={score}" for code, score in scores.items())


def percent(fraction: str) -> str:
    """The page's way of writing a chance (widgets/elements/dice.js percent)."""
    value = Fraction(fraction) * 100
    if value in (0, 100):
        return f"{value}%"
    return f"{float(value):.{3 if value < 1 else 2}f}".rstrip("0").rstrip(".") + "%"


def open_generator(page: Page, base_url: str, query: str = "") -> None:
    page.goto(base_url + "tools/character/" + query)


def wait_for_sheet(page: Page) -> None:
    expect(page.locator("[data-score=HP]")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)


def roll_character(page: Page) -> None:
    page.get_by_role("button", name="Roll a character").click()
    wait_for_sheet(page)


def keep(page: Page, name: str) -> dict[str, Any]:
    """Name the character on screen, keep it, and return it as stored."""
    page.get_by_label("Character name").fill(name)
    page.get_by_role("button", name="Keep this character").click()
    expect(page.locator(".rollbook-done")).to_contain_text(f"{name} is kept in this browser")
    return next(c for c in kept(page)["characters"] if c["name"] == name)


def kept(page: Page) -> dict[str, Any]:
    return read_kept(page, {"characters": []})


def score_field(page: Page, code: str) -> Any:
    """An ability's field, by its visible label ("Strength STR")."""
    return page.get_by_label(f"{ABILITIES[code]} {code}", exact=True)


def fields_on_screen(page: Page) -> dict[str, int]:
    values = {code: score_field(page, code).input_value() for code in ABILITIES}
    values["hp_roll"] = page.get_by_label("HP roll").input_value()
    return {field: int(value) for field, value in values.items()}


def assert_sheet_is(page: Page, expected: dict[str, Any]) -> None:
    """Every number the sheet shows is the engine's: scores, HP, composites, checks, working."""
    assert fields_on_screen(page) == {**expected["rolled"], "hp_roll": expected["hp_roll"]}
    expect(page.locator("[data-score=HP]")).to_have_text(str(expected["hp"]))
    for code, value in expected["composites"].items():
        expect(page.locator(f"[data-score={code}]")).to_have_text(str(value))
    checks = {**{c["name"]: c for c in expected["saves"].values()}, "Perception": expected["perception"]}
    expect(page.locator(".rollbook-sheet__saves tbody th")).to_have_text(SAVES)
    for name, check in checks.items():
        row = page.locator(f".rollbook-sheet__saves tr[data-check='{name}']")
        expect(row).to_contain_text(f"{check['rule']} ({check['target']})")
        expect(row.locator(".rollbook-sheet__chance")).to_have_text(percent(check["chance"]))
        if check["chance"] not in ("0", "1"):
            expect(row).to_contain_text(check["chance"])
    for step in expected["working"]:
        item = page.locator(f".rollbook-sheet__working li[data-step={step['name']}]")
        expect(item).to_contain_text(f"{step['name']} {step['value']}: {step['rule']}")
        expect(item.locator("code")).to_have_text(step["working"])
        expect(item.locator(".rollbook-sheet__ruling a")).to_have_text([r["title"] for r in step["rulings"]])
    changed = expected["abilities"]["COM"] != expected["rolled"]["COM"]
    expect(page.locator(".rollbook-score__after")).to_have_count(1 if changed else 0)
    if changed:
        expect(page.locator(".rollbook-score__after")).to_have_text(
            f"COM becomes {expected['abilities']['COM']} by the Charisma rule")
