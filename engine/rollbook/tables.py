"""The rule tables: loaded once from ``rollbook/data/*.toml``, looked up by the rules, shown by the site.

Every mechanical table of the three rule sets lives once, as structured TOML rows. This module

* loads them (stdlib ``tomllib`` through ``importlib.resources``, so it works from a wheel and in
  Pyodide) and names them ``<rule set>.<key>``, e.g. ``opencore.critical.slash``;
* validates them (known fields per kind of table; range tables cover their range with no gap,
  and overlap only where the table names the ruling that resolves it);
* looks values up in range tables, clamping to the table's bounds;
* turns rows into the text a reader sees, with ONE formatter per kind of table, so the page
  and the engine cannot disagree (:func:`display`).
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any, Mapping

from rollbook.errors import RollbookError
from rollbook.rule_sets import RULE_SETS  # each rule set's tables are data/<key>.toml

Row = Mapping[str, Any]


class TableDataError(Exception):
    """The data files themselves are wrong: a bug in the package, not bad player input."""


@dataclass(frozen=True)
class Table:
    """One table as data: its rows (read-only) and its table-level settings."""

    name: str
    title: str
    kind: str
    caption: str | None
    rows: tuple[Row, ...]
    settings: Mapping[str, Any]  # every other table-level key (dice, ruling, overlap_ruling, ...)

    @property
    def is_range(self) -> bool:
        return bool(self.rows) and all("low" in row and "high" in row for row in self.rows)

    @property
    def bounds(self) -> tuple[int, int]:
        """Lowest and highest value the table covers (range tables only)."""
        if not self.is_range:
            raise TableDataError(f"{self.name} is not a range table")
        return min(row["low"] for row in self.rows), max(row["high"] for row in self.rows)


@dataclass(frozen=True)
class Display:
    """A table as a reader sees it: presentation-neutral, every cell already text."""

    name: str
    title: str
    caption: str | None
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    # Dice in the cells a reader can roll: (row, column, expression, what it is for, the least total
    # it counts as or None), e.g. (4, 2, "2d10+STR", "Sword damage", 1); the site makes each one a button.
    rolls: tuple[tuple[int, int, str, str, int | None], ...] = ()


# --- loading ----------------------------------------------------------------------------------


def _frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({key: _frozen(item) for key, item in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value


def _collect(rule_set: str, prefix: tuple[str, ...], data: dict[str, Any], out: dict[str, Table]) -> None:
    """A TOML table with a ``kind`` is a rule table; other tables only group them (critical.*)."""
    for key, value in data.items():
        if not isinstance(value, dict):
            continue
        path = (*prefix, key)
        if "kind" in value:
            name = ".".join((rule_set, *path))
            settings = {k: v for k, v in value.items() if k not in ("title", "kind", "caption", "rows")}
            out[name] = Table(
                name=name,
                title=value.get("title", name),
                kind=value["kind"],
                caption=value.get("caption"),
                rows=_frozen(value.get("rows", [])),
                settings=_frozen(settings),
            )
        else:
            _collect(rule_set, path, value, out)


@functools.cache
def _tables() -> dict[str, Table]:
    out: dict[str, Table] = {}
    data_dir = resources.files("rollbook") / "data"
    for rule_set in RULE_SETS:
        text = (data_dir / f"{rule_set}.toml").read_text(encoding="utf-8")
        _collect(rule_set, (), tomllib.loads(text), out)
    problems = validation_problems(out.values())
    if problems:
        raise TableDataError("; ".join(problems))
    return out


def names() -> list[str]:
    """Every table name, e.g. ``opencore.critical.slash``, sorted."""
    return sorted(_tables())


def get(name: str) -> Table:
    """The table called ``name``; a RollbookError naming the known tables otherwise."""
    tables = _tables()
    if name not in tables:
        raise RollbookError(f"there is no table “{name}”", hint="one of: " + ", ".join(sorted(tables)), fields=("name",))
    return tables[name]


# --- validation -------------------------------------------------------------------------------

# For each kind of table: (required row fields, optional row fields).
_ROW_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "abilities": (frozenset({"code", "name"}), frozenset()),
    "composites": (frozenset({"code", "abilities"}), frozenset()),
    "comeliness": (frozenset({"shift"}), frozenset({"cha_below", "cha_from"})),
    "critical-modifiers": (frozenset(), frozenset({"attack_below", "attack_above", "modifier", "note",
                                                   "per_toughness_left"})),
    "saves": (frozenset({"name", "composite"}), frozenset({"subtract", "ruling"})),
    "fumble": (frozenset({"low", "high", "effect"}),
               frozenset({"defense_penalty", "self_damage_multiplier", "damage_taken_multiplier"})),
    "armor": (frozenset({"armor", "damage_rating", "initiative_penalty", "description"}), frozenset()),
    "weapons": (frozenset({"weapon", "speed"}), frozenset({"damage", "modes", "critical"})),
    "critical": (frozenset({"low", "high"}),
                 frozenset({"extra_damage", "bloodloss", "stun_rounds", "unconscious_rounds", "location",
                            "skill_penalty"})),
    "actions": (frozenset({"action", "description"}), frozenset({"initiative_bonus", "defense_multiplier", "feet_per_action"})),
    "terms": (frozenset({"term", "meaning"}), frozenset({"defense_penalty", "hp_per_round"})),
    "dc": (frozenset({"complexity", "dc"}), frozenset()),
    "initiative": (frozenset(), frozenset()),
    "surprise": (frozenset({"low", "high", "surprised", "result"}), frozenset({"misses_turn", "loses_initiative"})),
    "strike-roll": (frozenset({"natural_low", "natural_high", "result"}), frozenset({"automatic", "critical"})),
    "strike": (frozenset({"modifier"}),
               frozenset({"id", "group", "condition", "skill_low", "skill_high", "skill_below", "per_damage_lost"})),
    "metric": (frozenset({"prefix", "symbol", "level"}), frozenset()),
    "notation": (frozenset({"symbol"}), frozenset({"note"})),
}

_FUMBLE_EFFECTS = frozenset({"recovers", "stumbles", "falls-over", "drops-weapon"})
CRITICAL_TYPES = ("slash", "impact", "puncture", "shrapnel", "burn")


def validation_problems(tables: Any) -> list[str]:
    """Everything wrong with the given tables, as messages (empty when the data is sound)."""
    problems: list[str] = []
    tables = list(tables)  # read twice: per table, then across tables (notation -> metric)
    for table in tables:
        fields = _ROW_FIELDS.get(table.kind)
        if fields is None:
            problems.append(f"{table.name}: unknown kind {table.kind!r}")
            continue
        required, optional = fields
        for index, row in enumerate(table.rows):
            missing = required - set(row)
            unknown = set(row) - required - optional
            if missing:
                problems.append(f"{table.name} row {index + 1}: missing {sorted(missing)}")
            if unknown:
                problems.append(f"{table.name} row {index + 1}: unknown fields {sorted(unknown)}")
        if table.kind == "fumble":
            problems += [f"{table.name}: unknown fumble effect {row['effect']!r}"
                         for row in table.rows if row.get("effect") not in _FUMBLE_EFFECTS]
        if table.kind == "weapons":
            problems += [f"{table.name}: {row['weapon']} names no critical table {row['critical']!r}"
                         for row in table.rows if "critical" in row and row["critical"] not in CRITICAL_TYPES]
            problems += [f"{table.name}: {row['weapon']} needs exactly one of damage or modes"
                         for row in table.rows if ("damage" in row) == ("modes" in row)]
        if table.kind == "actions":
            problems += [f"{table.name}: {row['action']} says {words!r} nowhere in its description"
                         for row in table.rows for words in _action_numbers_in_words(row)
                         if words not in row["description"]]
        if table.kind == "comeliness":
            problems += [f"{table.name} row {index + 1}: needs exactly one of cha_below or cha_from"
                         for index, row in enumerate(table.rows) if ("cha_below" in row) == ("cha_from" in row)]
        if table.kind == "critical-modifiers":
            problems += [f"{table.name} row {index + 1}: needs attack_below or attack_above with a modifier, "
                         "or per_toughness_left alone"
                         for index, row in enumerate(table.rows) if not _critical_modifier_row_ok(row)]
        if table.kind == "strike-roll":
            sides = die_sides(table.settings["dice"])
            problems += [f"{table.name}: automatic must be 'miss' or 'hit', not {row['automatic']!r}"
                         for row in table.rows if row.get("automatic", "miss") not in ("miss", "hit")]
            problems += [f"{table.name}: natural roll {row['natural_low']} to {row['natural_high']} is not on a d{sides}"
                         for row in table.rows if not 1 <= row["natural_low"] <= row["natural_high"] <= sides]
        if table.is_range:
            problems += range_problems(table)
    problems += _notation_problems(tables)
    return problems


_MULTIPLIED = {2: "doubled", 3: "tripled"}
_NUMBER_WORDS = {5: "five", 10: "ten", 20: "twenty"}


def _action_numbers_in_words(row: Row) -> list[str]:
    """How the description must word each number the rules read from an action."""
    words = []
    if "initiative_bonus" in row:
        words.append(f"{format_modifier(row['initiative_bonus'])} bonus to his initiative roll")
    if "defense_multiplier" in row:
        words.append(f"defensive skills are {_MULTIPLIED.get(row['defense_multiplier'], 'multiplied')}")
    if "feet_per_action" in row:
        words.append(f"move {_NUMBER_WORDS.get(row['feet_per_action'], row['feet_per_action'])} feet per action")
    return words


def _critical_modifier_row_ok(row: Row) -> bool:
    attack = ("attack_below" in row) + ("attack_above" in row)
    if "per_toughness_left" in row:
        return attack == 0 and "modifier" not in row
    return attack == 1 and "modifier" in row


def _notation_problems(tables: list[Table]) -> list[str]:
    """A notation row must name a symbol of its rule set's metric chart (its text comes from there)."""
    symbols = {table.name.split(".")[0]: {row["symbol"] for row in table.rows}
               for table in tables if table.kind == "metric"}
    return [f"{table.name}: symbol {row['symbol']!r} is not on the metric chart"
            for table in tables if table.kind == "notation"
            for row in table.rows if row["symbol"] not in symbols.get(table.name.split(".")[0], set())]


def range_problems(table: Table) -> list[str]:
    """Gaps, overlaps and inverted rows in a range table, in table order.

    An overlap is allowed only when the table names the ruling that resolves it
    (``overlap_ruling``); the first matching row then wins.
    """
    problems: list[str] = []
    previous: Row | None = None
    for row in table.rows:
        if row["low"] > row["high"]:
            problems.append(f"{table.name}: row {format_range(row)} runs backwards")
        if previous is not None:
            if row["low"] > previous["high"] + 1:
                problems.append(f"{table.name}: gap between {format_range(previous)} and {format_range(row)}")
            elif row["low"] <= previous["high"] and "overlap_ruling" not in table.settings:
                problems.append(f"{table.name}: {format_range(previous)} overlaps {format_range(row)}")
        previous = row
    return problems


# --- lookup -----------------------------------------------------------------------------------


def clamp(name: str, value: int) -> int:
    """``value`` moved into the table's bounds (a crit roll of 135 reads the top row)."""
    low, high = get(name).bounds
    return max(low, min(high, value))


def lookup(name: str, value: int) -> Row:
    """The row of range table ``name`` that ``value`` falls in, after clamping to its bounds.

    Where rows overlap (only as a ruling allows), the first matching row in table order wins.
    """
    table = get(name)
    clamped = clamp(name, value)
    for row in table.rows:
        if row["low"] <= clamped <= row["high"]:
            return row
    raise TableDataError(f"{name} does not cover {clamped}")  # validation makes this unreachable


# --- display: one formatter per kind of table -------------------------------------------------


def format_range(row: Row) -> str:
    """``41 to 50``; a single value stands alone."""
    low, high = row["low"], row["high"]
    return str(low) if low == high else f"{low} to {high}"


def format_modifier(value: int) -> str:
    """A signed modifier as printed in the rules: ``+5``, ``+0``, ``-20``."""
    return f"{value:+d}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def critical_effect(row: Row) -> str:
    """The reader's text of one critical-table row, e.g. ``+15 damage, bloodloss, stun 1 round``."""
    parts: list[str] = []
    if row.get("extra_damage"):
        parts.append(f"+{row['extra_damage']} damage")
    if row.get("bloodloss"):
        parts.append("bloodloss" if row["bloodloss"] == 1 else f"bloodloss x{row['bloodloss']}")
    if row.get("stun_rounds"):
        parts.append("stun " + _plural(row["stun_rounds"], "round"))
    if row.get("unconscious_rounds"):
        parts.append("unconscious " + _plural(row["unconscious_rounds"], "round"))
    if row.get("location"):
        parts.append(f"location {row['location']}")
    if row.get("skill_penalty"):
        parts.append(f"{format_modifier(row['skill_penalty'])} to applicable skills")
    return ", ".join(parts) if parts else "no extra damage"


_MULTIPLE = {1: "", 2: "double", 3: "triple"}


def fumble_effect(row: Row, side: str) -> str:
    """What a fumble-chart row does to the ``attacker`` or the ``defender``."""
    effect = row["effect"]
    if effect == "recovers":
        return "Recovers from fumble."
    if effect == "stumbles":
        return f"Stumbles, {format_modifier(row['defense_penalty'])} to defense until next turn."
    if effect == "falls-over":
        return "Falls over - opponent gets an immediate extra attack."
    if side == "attacker":
        multiple = _MULTIPLE[row["self_damage_multiplier"]]
        return "Drops weapon and injures self with it" + (f" - {multiple} damage." if multiple else ".")
    return f"Zigs when he should have zagged - takes {_MULTIPLE[row['damage_taken_multiplier']]} damage."


def composite_formula(row: Row) -> str:
    """``(STR + DEX + AGL + CON) / 4``."""
    return f"({' + '.join(row['abilities'])}) / {len(row['abilities'])}"


def comeliness_condition(row: Row) -> str:
    """``low (less than 50)``, ``51 or higher``."""
    if "cha_below" in row:
        return f"low (less than {row['cha_below']})"
    return f"{row['cha_from']} or higher"


def comeliness_change(row: Row) -> str:
    """``add 25 to the COM score``, ``subtract 25 from the COM score``."""
    if row["shift"] >= 0:
        return f"add {row['shift']} to the COM score"
    return f"subtract {-row['shift']} from the COM score"


def critical_modifier_line(row: Row) -> tuple[str, str]:
    """(when, modifier to the critical hit roll) for one line of the critical hit modifiers."""
    if "per_toughness_left" in row:
        per_point = row["per_toughness_left"]
        amount = "the amount of Toughness" if abs(per_point) == 1 else f"{abs(per_point)} times the amount of Toughness"
        return ("A critical is rolled while the character still has Toughness left",
                f"{amount} is used as a {'negative' if per_point < 0 else 'positive'} modifier")
    if "attack_below" in row:
        when = f"The unmodified attack roll was less than {row['attack_below']}"
    else:
        when = f"The unmodified attack roll was greater than {row['attack_above']}"
    if "note" in row:
        when += f": {row['note']}"
    word = "penalty" if row["modifier"] < 0 else "bonus"
    return when, f"{format_modifier(row['modifier'])} {word}"


def save_roll(row: Row) -> tuple[str, str]:
    """The dice of a saving throw and when it succeeds (ruling opencore-save-direction)."""
    if "subtract" in row:
        return f"1d100 - {row['subtract']}", f"result at or below {row['composite']}"
    return "1d100", f"roll at or below {row['composite']}"


def weapon_damage(row: Row) -> str:
    if "modes" in row:
        return "; ".join(f"{mode['damage']} {mode['mode']}" for mode in row["modes"])
    return row["damage"]


def strike_condition(row: Row) -> str:
    """A strike-chart line's condition; weaponry-skill lines are generated from their band."""
    if "skill_below" in row:
        return f"Weaponry skill lower than {row['skill_below']}%."
    if "skill_low" in row:
        return f"Weaponry skill between {row['skill_low']} & {row['skill_high']}%."
    return row["condition"]


def initiative_rows(table: Table) -> list[tuple[int, int, int]]:
    """(fewest combatants, most combatants, die sides) for each standard die."""
    out: list[tuple[int, int, int]] = []
    fewest = 1
    for sides in table.settings["dice"]:
        out.append((fewest, sides - 1, sides))
        fewest = sides
    return out


def metric_conversion(level: int) -> str:
    """How many of a level's units make one basic damage point: ``0.001`` for kilo, ``1,000`` for milli."""
    if level > 0:
        return "0." + "0" * (level - 1) + "1"
    return f"{10 ** -level:,}"


def natural_roll(row: Row, sides: int) -> str:
    """The unmodified die of a strike-roll line: ``5 or lower``, ``20``, ``19 or 20``."""
    low, high = row["natural_low"], row["natural_high"]
    if low == high:
        return str(low)
    if low == 1:
        return f"{high} or lower"
    if high == sides:
        return f"{low} or higher" if high - low > 1 else f"{low} or {high}"
    return f"{low} to {high}"


def die_sides(dice: str) -> int:
    """``1d20`` -> 20: the die a table is rolled with."""
    return int(dice.lower().partition("d")[2])


def notation_meaning(row: Row, metric: Table) -> str:
    """``Nano Damage Point (notice ...)``: the unit's name from the metric chart, then the note."""
    prefix = next(r["prefix"] for r in metric.rows if r["symbol"] == row["symbol"])
    name = "Damage Point" if prefix == "-" else f"{prefix} Damage Point"
    return f"{name} ({row['note']})" if "note" in row else name


def damage_rating_symbol(symbol: str) -> str:
    """``kDP``, ``DP``, ``k+1DP``."""
    return f"{symbol}DP"


def _display_rows(table: Table) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    kind, rows = table.kind, table.rows
    if kind == "critical":
        return ("Roll", "Effect"), [(format_range(r), critical_effect(r)) for r in rows]
    if kind == "fumble":
        return ("Roll", "Attacker", "Defender"), [
            (format_range(r), fumble_effect(r, "attacker"), fumble_effect(r, "defender")) for r in rows
        ]
    if kind == "armor":
        return ("Armor", "Damage Rating", "Initiative Penalty", "Description"), [
            (r["armor"], str(r["damage_rating"]), format_modifier(r["initiative_penalty"]), r["description"])
            for r in rows
        ]
    if kind == "weapons":
        return ("Weapon Class", "Speed Factor", "Damage", "Critical"), [
            (r["weapon"], str(r["speed"]), weapon_damage(r), r.get("critical", "per weapon").capitalize())
            for r in rows
        ]
    if kind == "abilities":
        return ("Ability", "Abbreviation"), [(r["name"], r["code"]) for r in rows]
    if kind == "composites":
        return ("Composite", "Score"), [(r["code"], composite_formula(r)) for r in rows]
    if kind == "comeliness":
        return ("If the CHA score is", "then"), [(comeliness_condition(r), comeliness_change(r)) for r in rows]
    if kind == "critical-modifiers":
        return ("When", "Modifier to the critical hit roll"), [critical_modifier_line(r) for r in rows]
    if kind == "saves":
        return ("Saving throw", "Roll", "Succeeds on a"), [(r["name"], *save_roll(r)) for r in rows]
    if kind == "actions":
        return ("Action", "What the character does"), [(r["action"], r["description"]) for r in rows]
    if kind == "terms":
        return ("Term", "Meaning"), [(r["term"], r["meaning"]) for r in rows]
    if kind == "dc":
        return ("Complexity", "DC"), [(r["complexity"], str(r["dc"])) for r in rows]
    if kind == "initiative":
        return ("Combatants", "Die"), [
            (format_range({"low": low, "high": high}), f"1D{sides}") for low, high, sides in initiative_rows(table)
        ]
    if kind == "surprise":
        return (table.settings["dice"].upper(), "Result"), [(format_range(r), r["result"]) for r in rows]
    if kind == "strike-roll":
        sides = die_sides(table.settings["dice"])
        return ("Roll", "Result"), [(natural_roll(r, sides), r["result"]) for r in rows]
    if kind == "notation":
        metric = get(table.name.rpartition(".")[0] + ".metric")
        return ("Notation", "Stands for"), [(damage_rating_symbol(r["symbol"]), notation_meaning(r, metric))
                                            for r in rows]
    if kind == "strike":
        return ("Modifier", "Condition"), [(format_modifier(r["modifier"]), strike_condition(r)) for r in rows]
    if kind == "metric":
        return ("Prefix", "Symbol", "Conversion", "Damage rating"), [
            (r["prefix"], r["symbol"] or "-", metric_conversion(r["level"]), damage_rating_symbol(r["symbol"]))
            for r in rows
        ]
    raise TableDataError(f"{table.name}: no formatter for kind {kind!r}")


def display(name: str) -> Display:
    """Table ``name`` exactly as a reader sees it (cells are final text)."""
    table = get(name)
    columns, rows = _display_rows(table)
    caption = table.caption
    if table.kind == "fumble":  # the trigger lives in the data, not typed again in the caption
        low, high = table.settings["fumble_on"]
        caption = f"{caption} A fumble is an unmodified attack or defense roll of {low:02d} to {high:02d}."
    if table.kind == "comeliness":
        caption = f"Note: a COM score cannot be more than {table.settings['most']}."
    if table.kind == "strike-roll":  # the hit threshold lives in the data too
        caption = (f"{caption} Otherwise the roll plus bonuses minus penalties hits when it is higher "
                   f"than {table.settings['hit_above']}.")
    return Display(name=name, title=table.title, caption=caption, columns=tuple(columns),
                   rows=tuple(tuple(row) for row in rows), rolls=_rolls(table))


def _rolls(table: Table) -> tuple[tuple[int, int, str, str, int | None], ...]:
    """The dice a reader can roll from the table's cells (see ``Display.rolls``)."""
    if table.kind != "weapons":
        return ()

    def least(damage: str) -> int | None:
        # A low Strength subtracts (ruling opencore-str-damage), and a hit's damage is at least 1
        # (ruling opencore-damage-minimum); the other weapons' dice never total below 1.
        return 1 if "STR" in damage else None

    rolls = []
    for index, row in enumerate(table.rows):
        weapon_name = row["weapon"]
        if "modes" in row:
            rolls += [(index, 2, mode["damage"], f"{weapon_name} damage, {mode['mode']}", least(mode["damage"]))
                      for mode in row["modes"]]
        elif row["damage"] != "Per weapon":
            rolls.append((index, 2, row["damage"], f"{weapon_name} damage", least(row["damage"])))
    return tuple(rolls)

