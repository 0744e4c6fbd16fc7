"""The engine's facts that the widgets and the build's hooks need, read from where each is defined.

The abilities and a character's ranges, the rule sets' names, the rulings a character or an encounter carries with
their choices, the critical types, an encounter's fields and limits, the engine's request and
expression limits, and every command's parameters: one JSON-able value (``facts()``). The hooks import it; the widgets import
``widgets/facts.js``, this value written out as JavaScript (``js_module()``) and committed, so
Node's tests and the bundle need no build step. The build (hooks/engine_facts.py) and
tests/site/test_engine_facts.py fail when that file is out of date:

    python -m rollbook.facts --write widgets/facts.js    # after changing a table, a ruling or a shape
    python -m rollbook.facts --check widgets/facts.js    # exit 1 when it is out of date

Ids are for code; the words a player reads come from the engine's own names (a ruling's title,
an ability's name, a critical table's title).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rollbook import rule_sets, rulings, tables
from rollbook.api import MAX_REQUEST_CHARS, commands_schema
from rollbook.dice.limits import MAX_CHARS
from rollbook.encounter import cyno as cyno_encounter
from rollbook.encounter import opencore as opencore_encounter
from rollbook.encounter import shape
from rollbook.systems import opencore

Facts = dict[str, Any]

# The command whose ruling options a kept character carries (its saves and Perception read by them).
CHARACTER_COMMAND = "opencore character"
GENERATED_BY = "python -m rollbook.facts --write widgets/facts.js"
WIDTH = 110  # widgets/facts.js: a value on one line up to this width


def _ruling_by_option() -> dict[str, rulings.Ruling]:
    """Each ruling option's name ("save_direction") -> the ruling it switches."""
    return {r.option.partition("=")[0]: r for r in rulings.all_rulings() if r.option}


def _ruling(option: str, choices: tuple[str, ...] | list[str]) -> Facts:
    """A ruling option: its choices (the ruling's reading first), the ruling's id and title."""
    ruling = _ruling_by_option()[option]
    return {"choices": list(choices), "ruling": ruling.id, "title": ruling.title}


def _field(field: shape.Field) -> Facts:
    """A field's kind ("int", "str" or "bool"), a whole number's range, whether it may be null."""
    out: Facts = {"kind": field.kind}
    if field.kind == "int":
        out |= {"low": field.low, "high": field.high}
    if field.nullable:
        out["nullable"] = True
    if field.choices is not None:
        out["choices"] = list(field.choices)
    return out


def _commands() -> Facts:
    """Every command's parameters by name (what the API takes), without the CLI's help text; a
    parameter that switches a ruling names it (``ruling``: its id)."""
    options = _ruling_by_option()

    def param(p: dict[str, Any]) -> Facts:
        out = {key: value for key, value in p.items() if key not in ("name", "help") and value is not None and value is not False}
        return out | ({"ruling": options[p["name"]].id} if p["name"] in options else {})

    return {c["command"]: {p["name"]: param(p) for p in c["params"]} for c in commands_schema()}


def _character_rulings(commands: Facts) -> Facts:
    """The ruling options ``opencore character`` takes, which a kept character carries."""
    params = commands[CHARACTER_COMMAND]
    options = _ruling_by_option()
    return {name: _ruling(name, param["choices"]) for name, param in params.items()
            if name in options and "choices" in param}


def _encounter() -> Facts:
    return {
        "version": shape.VERSION,
        "rule_sets": list(shape.RULE_SETS),
        "most_combatants": shape.MOST_COMBATANTS,
        "longest_text": shape.LONGEST_TEXT,
        "log_kept": shape.LOG_KEPT,
        "top_fields": list(shape.TOP_FIELDS),
        "initiative": {rules: list(kinds) for rules, kinds in shape.INITIATIVE.items()},
        "rulings": {rules: {name: _ruling(name, choices) for name, choices in known.items()}
                    for rules, known in shape.RULINGS.items()},
        "later_rulings": list(shape.LATER_RULINGS),
        # the scores `encounter add` takes by rule set, each with whether it must be given (or typical)
        "scores": {"opencore": dict(opencore_encounter.SCORES), "cyno": dict(cyno_encounter.SCORES)},
        "unarmed": opencore_encounter.HAND_TO_HAND,  # an OpenCore combatant's weapon when none is named
        "locations": list(opencore.LOCATIONS),  # a location effect's states, least to worst
        "fields": {"common": {name: _field(f) for name, f in shape.COMMON_FIELDS.items()},
                   **{rules: {name: _field(f) for name, f in fields.items()} for rules, fields in shape.FIELDS.items()}},
        "effects": {kind: {"ends": list(shape.EFFECT_ENDS[kind]), "fields": {name: _field(f) for name, f in fields.items()}}
                    for kind, fields in shape.EFFECT_FIELDS.items()},
    }


def facts() -> Facts:
    """Every fact, as plain JSON values."""
    commands = _commands()
    return {
        "abilities": [{"code": row["code"], "name": row["name"]} for row in tables.get("opencore.abilities").rows],
        # a kept character's numbers: a score may fall to the floor after it was rolled
        "character": {"score_low": opencore.ABILITY_FLOOR, "score_high": opencore.ABILITY_HIGH, "rolled_low": opencore.ABILITY_LOW,
                      "hp_roll_low": opencore.D100[0], "hp_roll_high": opencore.D100[-1]},
        "character_rulings": _character_rulings(commands),
        "rule_set_names": dict(rule_sets.RULE_SETS),  # each rule set's name, as its document gives it
        # each critical type with its table (`table NAME` shows it) and that table's title
        "critical_types": [{"type": kind, "table": f"opencore.critical.{kind}", "title": tables.get(f"opencore.critical.{kind}").title}
                           for kind in tables.CRITICAL_TYPES],
        "encounter": _encounter(),
        "limits": {"expression_chars": MAX_CHARS, "request_chars": MAX_REQUEST_CHARS},
        "commands": commands,
    }


def _written(value: Any, indent: str = "") -> str:
    """``value`` as JSON, a line per entry only where one line would be longer than ``WIDTH``."""
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if len(indent) + len(flat) <= WIDTH or not isinstance(value, (dict, list)) or not value:
        return flat
    inner = indent + "  "
    items = ([f"{inner}{json.dumps(k, ensure_ascii=False)}: {_written(v, inner)}" for k, v in value.items()]
             if isinstance(value, dict) else [inner + _written(v, inner) for v in value])
    start, end = "{}" if isinstance(value, dict) else "[]"
    return start + "\n" + ",\n".join(items) + "\n" + indent + end


def js_module(values: Facts | None = None) -> str:
    """widgets/facts.js: one named export per fact (``ABILITIES``, ``ENCOUNTER``, …), so the
    bundle keeps only those a widget imports, and ``FACTS`` with them all."""
    values = facts() if values is None else values
    lines = [
        f"// Generated from the engine by `{GENERATED_BY}` (engine/rollbook/facts.py): do not edit.",
        "// The build (hooks/engine_facts.py) and tests/site/test_engine_facts.py fail when it is out of date.",
        "",
    ]
    for name, value in values.items():
        lines.append(f"export const {name.upper()} = {_written(value)};")
        lines.append("")
    lines.append("export const FACTS = { " + ", ".join(f"{name}: {name.upper()}" for name in values) + " };")
    return "\n".join(lines) + "\n"


def stale(path: Path) -> bool:
    """Whether ``path`` differs from what the engine's facts make it (or is missing)."""
    try:
        return path.read_text(encoding="utf-8") != js_module()
    except OSError:
        return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rollbook.facts", description=__doc__.split("\n\n")[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--json", action="store_true", help="print the facts as JSON")
    what.add_argument("--js", action="store_true", help="print widgets/facts.js")
    what.add_argument("--write", metavar="PATH", type=Path, help="write the JavaScript module to PATH")
    what.add_argument("--check", metavar="PATH", type=Path, help="exit 1 when PATH is out of date")
    args = parser.parse_args(argv)
    if args.json:
        print(json.dumps(facts(), indent=2, ensure_ascii=False))
    elif args.js:
        sys.stdout.write(js_module())
    elif args.write:
        args.write.write_text(js_module(), encoding="utf-8")
    elif stale(args.check):
        print(f"{args.check} is out of date with the engine: run {GENERATED_BY}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
