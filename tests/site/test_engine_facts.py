"""widgets/facts.js is the engine's facts (rollbook.facts) as written now, the build stops when it is
not, and no widget or hook types a list of them again (issue 40: ability codes, critical types,
combatant fields and limits were typed in JavaScript and Python, and one copy had drifted)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rollbook import facts
from sitebuild import ROOT, load_hook

pytestmark = [pytest.mark.site, pytest.mark.cpython_only]

engine_facts = load_hook("engine_facts")
FACTS = facts.facts()


def test_widgets_facts_js_is_up_to_date_with_the_engine() -> None:
    assert not facts.stale(engine_facts.FACTS_JS), f"widgets/facts.js is out of date: run {facts.GENERATED_BY}"


def test_the_build_stops_on_an_out_of_date_copy(tmp_path: Path) -> None:
    copy = tmp_path / "facts.js"
    copy.write_text(engine_facts.FACTS_JS.read_text(encoding="utf-8").replace('"Strength"', '"Brawn"'), encoding="utf-8")
    with pytest.raises(engine_facts.FactsOutOfDate, match="run python -m rollbook.facts --write widgets/facts.js"):
        engine_facts.check(copy)
    with pytest.raises(engine_facts.FactsOutOfDate, match="missing"):
        engine_facts.check(tmp_path / "none.js")
    engine_facts.check()  # the committed one passes


def lists_of_facts() -> dict[str, list[str]]:
    """Each list of names the facts hold, whose items written one after another in a source would
    be that list typed again."""
    encounter = FACTS["encounter"]
    named = {
        "ability codes": [a["code"] for a in FACTS["abilities"]],
        "ability names": [a["name"] for a in FACTS["abilities"]],
        "critical types": [c["type"] for c in FACTS["critical_types"]],
        "rule sets": encounter["rule_sets"],
        "location states": encounter["locations"],
    }
    for rules in encounter["rule_sets"]:
        named[f"{rules} combatant fields"] = list(encounter["fields"][rules])
    for option, ruling in {**FACTS["character_rulings"], **encounter["rulings"]["opencore"], **encounter["rulings"]["cyno"]}.items():
        named[f"the choices of {option}"] = ruling["choices"]
    return named


def typed_again(text: str, names: list[str]) -> bool:
    """Whether two of ``names`` stand one after another as quoted strings, or three as keys of
    words (a form's blank values, keys with "", are no list of them)."""
    one = "|".join(re.escape(name) for name in names)
    listed = rf"""["'](?:{one})["']\s*,\s*["'](?:{one})["']"""  # ["slash", "impact"
    entry = rf"""["']?\b(?:{one})\b["']?\s*:\s*["'][^"'\n]{{1,40}}["']"""
    keyed = rf"{entry},\s*{entry},\s*{entry}"  # {STR: "Strength", DEX: "Dexterity", AGL: "Agility"
    return re.search(f"{listed}|{keyed}", text) is not None


def test_the_scan_finds_a_list_typed_again() -> None:
    critical = lists_of_facts()["critical types"]
    assert typed_again('const TYPES = ["slash", "impact", "puncture"];', critical)
    assert typed_again("ABILITY_VALUES = {code: 50 for code in ('STR', 'DEX', 'AGL')}", lists_of_facts()["ability codes"])
    assert typed_again('  save_direction: ["under", "over"],', lists_of_facts()["the choices of save_direction"])
    assert typed_again('export const ABILITY_NAMES = {\n  STR: "Strength", DEX: "Dexterity", AGL: "Agility",', lists_of_facts()["ability codes"])
    assert not typed_again('const label = "slash";', critical)
    assert not typed_again('{ toughness: "", weapon: "Hand to Hand", armor_name: "" }', lists_of_facts()["opencore combatant fields"])
    assert not typed_again("// the active one gives STR, CON, … to the dice", lists_of_facts()["ability codes"])


# The one source that holds them: the generated module.
ALLOWED = {"widgets/facts.js"}


def test_no_widget_or_hook_types_a_list_of_the_engines_facts() -> None:
    sources = [path for path in sorted((ROOT / "widgets").rglob("*.js")) if "vendor" not in path.parts]
    sources += sorted((ROOT / "hooks").glob("*.py")) + sorted((ROOT / "hooks").glob("*.mjs"))
    found = []
    for path in sources:
        where = path.relative_to(ROOT).as_posix()
        if where in ALLOWED:
            continue
        text = path.read_text(encoding="utf-8")
        found += [f"{where}: {what}" for what, names in lists_of_facts().items() if typed_again(text, names)]
    assert found == [], "lists the engine's facts hold, typed again (import them from widgets/facts.js or rollbook.facts):\n" \
        + "\n".join(found)
