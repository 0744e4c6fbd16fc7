"""The rule tables: every data file parses, range tables are sound, the page and the lookup agree."""

from __future__ import annotations

import dataclasses
import tomllib
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook import rulings, tables
from rollbook.errors import RollbookError

CONTRACT_NAMES = {
    "opencore.fumble", "opencore.armor", "opencore.weapons",
    "opencore.critical.slash", "opencore.critical.impact", "opencore.critical.puncture",
    "opencore.critical.shrapnel", "opencore.critical.burn",
    "codex.dc", "cyno.surprise", "cyno.strike.bonuses", "cyno.strike.penalties", "cyno.metric",
}
CRITICALS = [f"opencore.critical.{kind}" for kind in tables.CRITICAL_TYPES]


def test_every_data_file_parses():
    data = resources.files("rollbook") / "data"
    files = sorted(entry.name for entry in data.iterdir() if entry.name.endswith(".toml"))
    assert files == ["codex.toml", "cyno.toml", "opencore.toml", "rulings.toml"]
    for name in files:
        assert tomllib.loads((data / name).read_text(encoding="utf-8"))


def test_the_contract_table_names_exist():
    assert CONTRACT_NAMES <= set(tables.names())


def test_the_data_validates_clean():
    assert tables.validation_problems(tables.get(name) for name in tables.names()) == []


@pytest.mark.parametrize("name", tables.names())
def test_every_table_displays_as_text(name):
    shown = tables.display(name)
    assert shown.name == name and shown.title and shown.columns and shown.rows
    for row in shown.rows:
        assert len(row) == len(shown.columns)
        assert all(isinstance(cell, str) and cell for cell in row)
    with pytest.raises(dataclasses.FrozenInstanceError):
        shown.title = "changed"  # type: ignore[misc]


def test_range_tables_overlap_only_where_a_ruling_says():
    for name in tables.names():
        table = tables.get(name)
        if not table.is_range:
            continue
        stripped = dataclasses.replace(table, settings={})
        overlaps = [p for p in tables.range_problems(stripped) if "overlaps" in p]
        if overlaps:
            assert overlaps == [f"{name}: -9 to 0 overlaps 0 to 10"]
            assert rulings.get(table.settings["overlap_ruling"]).id == "opencore-crit-overlap-at-zero"


def _table(rows, **settings):
    return tables.Table("test.table", "Test", "critical", None, tuple(rows), settings)


def test_validation_finds_gaps_overlaps_and_backwards_rows():
    gap = _table([{"low": 1, "high": 5}, {"low": 7, "high": 9}])
    overlap = _table([{"low": 1, "high": 5}, {"low": 5, "high": 9}])
    backwards = _table([{"low": 5, "high": 1}])
    assert tables.range_problems(gap) == ["test.table: gap between 1 to 5 and 7 to 9"]
    assert tables.range_problems(overlap) == ["test.table: 1 to 5 overlaps 5 to 9"]
    assert tables.range_problems(_table(overlap.rows, overlap_ruling="x")) == []
    assert tables.range_problems(backwards) == ["test.table: row 5 to 1 runs backwards"]
    typo = _table([{"low": 1, "high": 5, "extra_damge": 5}])
    assert tables.validation_problems([typo]) == ["test.table row 1: unknown fields ['extra_damge']"]


@pytest.mark.parametrize("name", CRITICALS)
def test_critical_tables_span_the_whole_critical_roll(name):
    assert tables.get(name).bounds == (-19, 120)  # 1d100 - 20 .. 1d100 + 20


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(CRITICALS + ["opencore.fumble", "cyno.surprise"]), value=st.integers(-10**6, 10**6))
def test_lookups_are_total_and_clamped(name, value):
    row = tables.lookup(name, value)
    clamped = tables.clamp(name, value)
    low, high = tables.get(name).bounds
    assert low <= clamped <= high and row["low"] <= clamped <= row["high"]
    assert (clamped == value) == (low <= value <= high)


@pytest.mark.parametrize("name", CRITICALS + ["opencore.fumble", "cyno.surprise"])
def test_the_printed_table_and_the_lookup_agree(name):
    shown = tables.display(name)
    table = tables.get(name)
    low, high = table.bounds
    for value in range(low, high + 1):
        row = tables.lookup(name, value)
        printed = shown.rows[table.rows.index(row)]
        assert printed[0] == tables.format_range(row)
        if table.kind == "critical":
            assert printed[1] == tables.critical_effect(row)
        # the first printed row whose range holds the value is the row the engine reads
        first = next(r for r in shown.rows if _holds(r[0], value))
        assert first == printed


def _holds(cell: str, value: int) -> bool:
    low, _, high = cell.partition(" to ")
    return int(low) <= value <= int(high or low)


def test_critical_text_is_formatted_once_from_fields():
    slash = tables.display("opencore.critical.slash").rows
    assert slash[0] == ("-19 to -10", "no extra damage")
    assert slash[6] == ("41 to 50", "+5 damage")
    assert slash[12] == ("101 to 110", "+20 damage, bloodloss x2, stun 2 rounds")
    assert slash[13][1] == "+20 damage, bloodloss, stun 2 rounds, location severed, -40 to applicable skills"
    impact = tables.display("opencore.critical.impact").rows
    assert impact[9][1] == "+5 damage, stun 1 round"
    assert impact[13][1] == "+15 damage, unconscious 1 round"
    shrapnel = tables.display("opencore.critical.shrapnel").rows
    assert shrapnel[13][1] == ("+50 damage, bloodloss x5, unconscious 2 rounds, location destroyed, "
                               "-40 to applicable skills")


def test_seed_typos_are_fixed_in_displayed_text():
    surprise = tables.display("cyno.surprise").rows
    assert surprise[1] == ("3 to 4", "Surprised, lose initiative.")
    penalties = [cell for row in tables.display("cyno.strike.penalties").rows for cell in row]
    assert "A fourth of the target is behind cover." in penalties
    assert "Three fourths of the target is behind cover." in penalties
    assert not any("forth" in cell or "loose" in cell for cell in penalties)


def test_other_tables_show_the_seed_values():
    armor = tables.display("opencore.armor").rows
    assert armor[0] == ("Leather Armor", "25", "-5", "Leather, either thick or hardened.")
    assert armor[-1][:3] == ("Military PPE", "150", "-20")
    weapons = {row[0]: row for row in tables.display("opencore.weapons").rows}
    assert weapons["Assault Rifle"][1:3] == ("10", "3d10 single; 3d10+10 burst; 3d10+20 full auto")
    assert weapons["Portable AT"][1:3] == ("0", "5d10+30")
    assert tables.display("codex.dc").rows[-1] == ("Nearly impossible", "40")
    metric = {row[0]: row for row in tables.display("cyno.metric").rows}
    assert metric["Exa"][2] == "0.000000000000000001" and metric["Atto"][2] == "1,000,000,000,000,000,000"
    assert metric["-"][1:] == ("-", "1", "DP") and metric["Milli"][2] == "1,000"
    fumble = tables.display("opencore.fumble")
    assert fumble.rows[4] == ("96 to 100", "Drops weapon and injures self with it - double damage.",
                              "Zigs when he should have zagged - takes triple damage.")
    assert "01 to 05" in (fumble.caption or "")
    assert tables.display("cyno.initiative").rows[2] == ("6 to 7", "1D8")
    bonuses = tables.display("cyno.strike.bonuses").rows
    assert bonuses[1] == ("+0", "Weaponry skill between 51 & 60%.")


def test_unknown_table_is_a_player_error():
    with pytest.raises(RollbookError, match="there is no table “opencore.crit”"):
        tables.get("opencore.crit")


def test_every_ruling_a_table_cites_exists():
    for name in tables.names():
        table = tables.get(name)
        for key in ("ruling", "overlap_ruling"):
            if key in table.settings:
                assert rulings.get(table.settings[key]).rule_set == name.split(".")[0]
        for row in table.rows:
            if "ruling" in row:
                rulings.get(row["ruling"])


def test_the_printed_non_range_tables_and_the_rule_lookups_agree():
    """Every printed cell the rules read (armor, weapons, DC, strike charts, metric levels) is the
    value the rule functions use."""
    from fractions import Fraction

    from rollbook.systems import codex, cyno, opencore

    for name, rating, penalty, _ in tables.display("opencore.armor").rows:
        row = opencore.armor(name)
        assert (str(row["damage_rating"]), tables.format_modifier(row["initiative_penalty"])) == (rating, penalty)
    for name, speed, damage, critical in tables.display("opencore.weapons").rows:
        row = opencore.weapon(name)
        assert str(row["speed"]) == speed and critical.lower() == row.get("critical", "per weapon")
        for part in damage.split("; "):
            expression, _, mode = part.partition(" ")
            if expression[0].isdigit():
                with_str = opencore.damage_expression(name, mode=mode or None, strength=50)  # STR 50: +0
                assert with_str == expression.replace("+STR", "")
    for complexity, dc in tables.display("codex.dc").rows:
        assert codex.dc_for(complexity) == int(dc)
    lines = {row["condition"]: row for row in cyno.condition_rows().values()}
    for modifier, condition in (tables.display("cyno.strike.bonuses").rows + tables.display("cyno.strike.penalties").rows):
        if condition in lines:
            (mod,) = cyno.strike_modifiers(conditions=[lines[condition]["id"]])
            assert tables.format_modifier(mod.modifier) == modifier
    for skill in range(0, 101):
        line = cyno.weaponry_skill_line(skill)
        printed = [m for m, c in tables.display("cyno.strike.bonuses").rows + tables.display("cyno.strike.penalties").rows
                   if c == tables.strike_condition(line)]
        assert printed == [tables.format_modifier(line["modifier"])]
    for prefix, symbol, conversion, rating in tables.display("cyno.metric").rows:
        level = cyno.parse_level("" if symbol == "-" else symbol)
        assert cyno.parse_level(rating) == level
        assert cyno.convert(1, 0, level) == Fraction(conversion.replace(",", ""))  # one DP in that level's units


def test_the_printed_strike_roll_and_the_strike_rule_agree():
    """Each natural d20: the lines the page prints for it are the lines the strike rule applies."""
    from rollbook.systems import cyno

    shown = tables.display("cyno.strike.roll")
    assert shown.rows == (("5 or lower", "automatic miss"), ("20", "automatic hit"), ("19 or 20", "critical hit"))
    assert "higher than 10" in (shown.caption or "")
    assert cyno.strike_die() == 20
    for roll in range(1, cyno.strike_die() + 1):
        printed = {result for cell, result in shown.rows if _natural_holds(cell, roll)}
        for bonus in (-30, 0, 30):
            strike = cyno.strike(roll, [cyno.StrikeModifier("test", bonus)])
            assert (strike.automatic == "miss") == ("automatic miss" in printed)
            assert (strike.automatic == "hit") == ("automatic hit" in printed)
            assert strike.critical == (strike.hit and "critical hit" in printed)  # cyno-critical-needs-hit
            if strike.automatic is None:
                assert strike.hit == (strike.total > 10)


def _natural_holds(cell: str, value: int) -> bool:
    if cell.endswith(" or lower"):
        return value <= int(cell.split()[0])
    return value in {int(part) for part in cell.replace(" or ", " ").split()}


def test_the_notation_table_is_written_from_the_metric_chart():
    from rollbook.systems import cyno

    rows = tables.display("cyno.notation").rows
    assert rows[0] == ("DP", "Damage Point (the basic unit)")
    assert ("nDP", "Nano Damage Point (notice that the symbol n is in lower case)") in rows
    assert ("MDP", "Mega Damage Point") in rows
    metric = {rating: prefix for prefix, _, _, rating in tables.display("cyno.metric").rows}
    for notation, meaning in rows:
        assert notation in metric and cyno.parse_level(notation) == cyno.parse_level(notation.removesuffix("DP"))
        assert meaning.startswith("Damage Point" if metric[notation] == "-" else f"{metric[notation]} Damage Point")


def test_validation_finds_bad_strike_roll_and_notation_rows():
    strike = tables.Table("cyno.strike.roll", "T", "strike-roll", None,
                          ({"natural_low": 0, "natural_high": 5, "result": "x", "automatic": "maybe"},),
                          {"dice": "1d20", "hit_above": 10})
    assert tables.validation_problems([strike]) == [
        "cyno.strike.roll: automatic must be 'miss' or 'hit', not 'maybe'",
        "cyno.strike.roll: natural roll 0 to 5 is not on a d20",
    ]
    notation = tables.Table("cyno.notation", "T", "notation", None, ({"symbol": "Q"},), {})
    assert tables.validation_problems([tables.get("cyno.metric"), notation]) == [
        "cyno.notation: symbol 'Q' is not on the metric chart"]


def test_the_printed_charisma_rule_and_comeliness_agree():
    from rollbook.systems import opencore

    shown = tables.display("opencore.comeliness")
    assert shown.rows == (("low (less than 50)", "add 25 to the COM score"),
                          ("51 or higher", "subtract 25 from the COM score"))
    assert shown.caption == "Note: a COM score cannot be more than 100."
    assert [opencore.comeliness(cha, 50) for cha in (1, 49, 50, 51, 100)] == [75, 75, 50, 25, 25]
    assert opencore.comeliness(10, 90) == 100 and opencore.comeliness(90, 10) == 1  # opencore-com-limits


def test_the_printed_critical_modifiers_and_the_critical_rule_agree():
    from rollbook.systems import opencore

    shown = tables.display("opencore.critical-modifiers")
    assert shown.rows == (
        ("The unmodified attack roll was less than 20: the strike was weak", "-20 penalty"),
        ("The unmodified attack roll was greater than 80: the strike was very effective", "+20 bonus"),
        ("A critical is rolled while the character still has Toughness left",
         "the amount of Toughness is used as a negative modifier"))
    modifiers = {roll: opencore.attack_roll_modifier(roll) for roll in range(1, 101)}
    assert {roll for roll, m in modifiers.items() if m == -20} == set(range(1, 20))
    assert {roll for roll, m in modifiers.items() if m == 20} == set(range(81, 101))
    assert set(modifiers.values()) == {-20, 0, 20}
    assert opencore.critical_hit("slash", 50, attack_roll=90, toughness=7).unclamped == 50 + 20 - 7


def test_validation_finds_bad_comeliness_and_critical_modifier_rows():
    both = tables.Table("t.com", "T", "comeliness", None, ({"cha_below": 50, "cha_from": 51, "shift": 1},), {"most": 100})
    assert tables.validation_problems([both]) == ["t.com row 1: needs exactly one of cha_below or cha_from"]
    mixed = tables.Table("t.crit", "T", "critical-modifiers", None, ({"attack_below": 20, "per_toughness_left": -1},), {})
    assert tables.validation_problems([mixed]) == [
        "t.crit row 1: needs attack_below or attack_above with a modifier, or per_toughness_left alone"]


def test_the_printed_actions_and_the_combat_rules_agree():
    from rollbook.systems import opencore

    rows = dict(tables.display("opencore.actions").rows)
    assert "+20 bonus to his initiative roll" in rows["Bide"] and "are doubled" in rows["Defense"]
    plain = opencore.individual_initiative(10, 50)
    assert opencore.individual_initiative(10, 50, bide=True).total == plain.total + 20
    doubled = opencore.resolve_attack(50, 50, attack_skill=60, defense_skill=40, defending=True)
    assert doubled.defense_total == 50 + 2 * 40
    wrong = tables.Table("t.actions", "T", "actions", None,
                         ({"action": "Bide", "description": "a +10 bonus to his initiative roll", "initiative_bonus": 20},), {})
    assert tables.validation_problems([wrong]) == [
        "t.actions: Bide says '+20 bonus to his initiative roll' nowhere in its description"]


def test_the_critical_tables_leave_a_location_in_one_of_the_named_states():
    from rollbook.systems.opencore import LOCATIONS  # what an encounter's location effect offers by hand

    found = {row["location"] for name in CRITICALS for row in tables.get(name).rows if "location" in row}
    assert found == set(LOCATIONS)
