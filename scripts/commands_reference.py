"""The command reference (COMMANDS.md), written from the engine's own registry, never by hand.

    .venv/bin/python scripts/commands_reference.py           print it
    .venv/bin/python scripts/commands_reference.py --write   write COMMANDS.md
    .venv/bin/python scripts/commands_reference.py --check   exit 1 when COMMANDS.md is out of date
                                                              (tests/site/test_commands_reference.py)

Every command is one entry of ``rollbook.api.commands_schema()``: the CLI (`rollbook <command>`)
and the JSON API (`{"api": 1, "command": ..., "args": {...}}`) take the same arguments.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rollbook import api

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "COMMANDS.md"

HEAD = """# Commands: the CLI and the JSON API

Written by `scripts/commands_reference.py --write` from the engine's command registry
(`rollbook.api.commands_schema()`); `tests/site/test_commands_reference.py` fails when it is out of
date. Each command runs the same code three ways: `rollbook <command> ...` on the command line
(`rollbook <command> --help` gives its flags: an argument `attack_skill` is `--attack-skill`, a
positional one is written bare), `rollbook.api.call_json('{"api": 1, "command": "...", "args":
{...}}')` as the widgets call it in the browser, and the tests. An error answers
`{"ok": false, "error": {"kind": "input", "message": "...", "fields": [...]}}`, `fields` naming the
arguments below.

A *random* command takes a `seed` (the same seed gives the same rolls everywhere) or the dice
rolled at the table. Types: `int` a whole number, `str` text, `bool` true or false, `dict` a JSON
object (an encounter). *many*: a list (on the CLI, the flag repeated); *keyed*: `name=value`
pairs (JSON: an object).
"""


def cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def argument(param: dict[str, Any]) -> str:
    kind = param["type"] + (", many" if param["many"] else "") + (", keyed" if param["keyed"] else "")
    if param["choices"]:
        kind += ": " + ", ".join(f"`{c}`" for c in param["choices"])
    need = "required" if param["required"] else ("default `%s`" % param["default"] if param["default"] not in (None, False) else "")
    where = "positional" if param["positional"] else ""
    notes = "; ".join(n for n in (need, where, "dice" if param["dice"] else "") if n)
    return f"| `{param['name']}` | {cell(kind)} | {cell(notes)} | {cell(param['help'])} |"


def reference() -> str:
    commands = api.commands_schema()
    lines = [HEAD, "## Index", ""]
    lines += [", ".join(f"[`{c['command']}`](#{c['command'].replace(' ', '-')})" for c in commands), ""]
    for command in commands:
        lines += [f"## {command['command']}", "", cell(command["summary"]) + (" *Random.*" if command["random"] else ""), ""]
        if command["params"]:
            lines += ["| argument | type | | what |", "|---|---|---|---|"]
            lines += [argument(p) for p in command["params"]]
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write COMMANDS.md")
    parser.add_argument("--check", action="store_true", help="exit 1 when COMMANDS.md is out of date")
    args = parser.parse_args()
    text = reference()
    if args.write:
        REFERENCE.write_text(text, encoding="utf-8")
    elif args.check:
        if not REFERENCE.is_file() or REFERENCE.read_text(encoding="utf-8") != text:
            sys.exit("COMMANDS.md is out of date: run .venv/bin/python scripts/commands_reference.py --write")
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
