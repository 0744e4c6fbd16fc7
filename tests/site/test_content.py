"""The rules pages' own promises: every ruling sits next to its rule, and the glossary and the
abbreviation tooltips (docs/includes/abbreviations.md) say the same thing."""

from __future__ import annotations

import re

import pytest

from rollbook import rulings
from sitebuild import ROOT, placeholders

pytestmark = [pytest.mark.cpython_only]

ABBREVIATION = re.compile(r"^\*\[(?P<abbr>[^\]]+)\]: (?P<meaning>.+)$")
# A row of the glossary's abbreviation table: | ABBR | meaning | where |
GLOSSARY_ROW = re.compile(r"^\| (?P<abbr>[^|]+?) \| (?P<meaning>[^|]+?) \| [^|]*\|$")


def abbreviations() -> dict[str, str]:
    lines = (ROOT / "docs/includes/abbreviations.md").read_text(encoding="utf-8").splitlines()
    found: dict[str, str] = {}
    for number, line in enumerate(lines, 1):
        match = ABBREVIATION.match(line)
        assert match, f"abbreviations.md:{number}: not an '*[ABBR]: meaning' line: {line!r}"
        assert match["abbr"] not in found, f"abbreviations.md:{number}: {match['abbr']} twice"
        found[match["abbr"]] = match["meaning"]
    return found


def glossary_abbreviations() -> dict[str, str]:
    text = (ROOT / "docs/glossary.md").read_text(encoding="utf-8")
    section = text.split("## Abbreviations", 1)[1].split("\n## ", 1)[0]
    rows = [GLOSSARY_ROW.match(line) for line in section.splitlines()]
    return {row["abbr"]: row["meaning"] for row in rows
            if row and row["abbr"] != "Abbreviation" and not row["abbr"].startswith("---")}


def test_glossary_and_tooltips_list_the_same_abbreviations_with_the_same_meaning() -> None:
    tooltips, glossary = abbreviations(), glossary_abbreviations()
    assert len(tooltips) >= 30
    assert sorted(set(tooltips) ^ set(glossary)) == []
    assert {abbr: meaning for abbr, meaning in tooltips.items() if glossary[abbr] != meaning} == {}


def test_every_ruling_is_shown_next_to_its_rule() -> None:
    placed = {name for page, _, name in placeholders("ruling") if page != "rulings.md"}
    assert sorted({ruling.id for ruling in rulings.all_rulings()} - placed) == []


def test_every_ruling_is_shown_in_its_own_rule_set() -> None:
    """A rule set's pages show only its own rulings; reference pages (dice-notation.md) and the
    tools, which serve every rule set (tools/encounter.md: the typical foe), may cite any."""
    by_id = {ruling.id: ruling.rule_set for ruling in rulings.all_rulings()}
    misplaced = [f"{page}:{line}: {name}" for page, line, name in placeholders("ruling")
                 if name in by_id and "/" in page and page.split("/")[0] not in (by_id[name], "tools")]
    assert misplaced == []


def notation_table() -> list[list[str]]:
    """The rows of the dice notation page's Roll20 / rpg-dice-roller / Rollbook table, as cells."""
    text = (ROOT / "docs" / "dice-notation.md").read_text(encoding="utf-8")
    start = text.index("| notation | tap to roll | Roll20 | rpg-dice-roller | Rollbook |")
    table = text[start:text.index("\n\n", start)].splitlines()[2:]
    return [[cell.strip() for cell in row.strip().strip("|").split(" | ")] for row in table]


def test_every_notation_in_the_side_by_side_table_has_an_example_to_tap_with_exact_odds() -> None:
    """Each row shows the notation with at least one inline roll ([[roll …]]: a button on the
    page), and every example rolls and has exact odds (none is left to an estimate)."""
    from rollbook.dice import distribution, roll

    rows = notation_table()
    assert len(rows) >= 30
    for notation, examples, *support in rows:
        assert len(support) == 3 and all(support), notation
        found = re.findall(r"\[\[roll ((?:[^\[\]|#]|\[[^\[\]|#]*\])+?)\]\]", examples)
        assert found and re.sub(r"\[\[roll (?:[^\[\]|#]|\[[^\[\]|#]*\])+?\]\]", "", examples).strip() == "", notation
        for expression in found:
            values = {"STR": 50} if "STR" in expression else None
            roll(expression, values=values)
            assert distribution(expression, values).residual < 1e-12, expression
    written = " ".join(row[0] for row in rows)
    for token in ("`m`", "`mt`", "`u`", "`!!p`", "`cs`", "`[label]`", "`/* comment */`", "`oe`"):
        assert token in written, token
