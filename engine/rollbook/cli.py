"""The ``rollbook`` command line, generated from the command registry.

``rollbook roll 4d6kh3 --seed 7 --json`` runs the same code, with the same field names, as the
JSON request ``{"command": "roll", "args": {"expression": "4d6kh3", "seed": 7}}``.
Bad input exits with status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Any, Callable, NoReturn, Sequence

from rollbook import __version__, api, commands
from rollbook.errors import RollbookError
from rollbook.rule_sets import RULE_SETS

EXIT_BAD_INPUT = 2

# A value that starts with a minus but is no option: a negative roll ("-1d4+3", "-(2d6)",
# "-floor(1d6/2)", "-STR+1d6") or number. argparse would read it as an unknown option; a leading
# space keeps it a value, and both the dice parser and int() ignore the space.
_NEGATIVE_VALUE = re.compile(r"-(\d|\(|\{|d[\d%fF]|[A-Za-z]+\s*\(|[A-Z]{2,})")


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on stderr (the player needs the message)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (try '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rollbook", description="Dice and rules for OpenCore, Ogre CharacterCodex and Cyno's Role-Play.")
    parser.add_argument("--version", action="version", version=f"rollbook {__version__}")
    groups: dict[tuple[str, ...], argparse._SubParsersAction] = {(): parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)}
    for cmd in sorted(commands.load_all().values(), key=lambda c: c.name):
        *path, leaf = cmd.name.split()
        for depth in range(1, len(path) + 1):  # "opencore crit" lives under a group "opencore"
            prefix = tuple(path[:depth])
            if prefix not in groups:
                title = f"{RULE_SETS.get(prefix[-1], prefix[-1])} rules"
                group = groups[prefix[:-1]].add_parser(prefix[-1], help=title, description=title)
                groups[prefix] = group.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
                groups[prefix].required = True
        sub = groups[tuple(path)].add_parser(leaf, help=_escaped(cmd.summary), description=cmd.summary)
        sub.set_defaults(_command=cmd.name)
        for p in cmd.params:
            _add_param(sub, p)
        if cmd.writes:
            source = next((p.metavar for p in cmd.params if p.file), None)
            default = f"back to {source}" if source else "'-'"
            sub.add_argument("--out", metavar="FILE", help=f"write the new {cmd.writes} to FILE ('-': print it as JSON; "
                                                          f"default: {default})")
        sub.add_argument("--seed", type=int, help="seed the dice: the same seed gives the same rolls everywhere")
        sub.add_argument("--json", action="store_true", help="print the result as JSON")
    return parser


def _escaped(help_text: str) -> str:
    """argparse %-formats help; Python 3.14 (Pyodide) checks it eagerly, so "d%" must be "d%%"."""
    return help_text.replace("%", "%%")


def _add_param(sub: argparse.ArgumentParser, p: commands.Param) -> None:
    flag = p.flag
    help_text = _escaped(p.help) or None
    if p.file:  # a JSON object read from a file: read by _read_files once parsed
        sub.add_argument(p.name, type=str, help=help_text, metavar=p.metavar)
        return
    if p.keyed:  # --var STR=3 --var DEX=12: pairs, made a dict by _named once parsed
        sub.add_argument(flag, dest=p.name, action="append", type=_pair(p.kind), help=help_text,
                         metavar=p.metavar)
        return
    if p.kind is bool and not p.positional:
        sub.add_argument(flag, dest=p.name, action="store_true", help=help_text)
        return
    kwargs: dict[str, Any] = {"type": p.kind, "help": help_text, "metavar": p.metavar}
    if p.choices is not None:
        kwargs["choices"] = p.choices
        kwargs["metavar"] = "{" + ",".join(map(str, p.choices)) + "}"
    if p.positional:
        if p.many:
            kwargs["nargs"] = "+" if p.required else "*"
        elif not p.required:
            kwargs["nargs"] = "?"
        sub.add_argument(p.name, **kwargs)
    else:
        if p.many:
            kwargs["action"] = "append"
        sub.add_argument(flag, dest=p.name, required=p.required, **kwargs)


def _pair(kind: type) -> Callable[[str], tuple[str, Any]]:
    """``STR=3`` to ``("STR", 3)``; argparse reports a ValueError as an invalid value."""

    def pair(text: str) -> tuple[str, Any]:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise ValueError(text)
        return name.strip(), kind(value.strip())

    pair.__name__ = "NAME=VALUE"  # argparse names the type in its message
    return pair


def _named(name: str, options: dict[str, Any]) -> None:
    """The repeated NAME=VALUE options of a command, as the dict its function takes."""
    for p in commands.load_all()[name].params:
        pairs = options.get(p.name)
        if p.keyed and pairs is not None:
            names = [n.upper() for n, _ in pairs]
            twice = next((n for n in names if names.count(n) > 1), None)
            if twice:
                raise RollbookError(f"{p.flag} {twice} is given twice", hint="give each name one value")
            options[p.name] = dict(pairs)


def _flags(name: str, fields: Sequence[str]) -> str:
    """The CLI's words for the arguments an error is about: ``--attack-skill``, ``--score con=N``,
    ``EXPR`` for a positional one."""
    params = {p.name: p for p in commands.load_all()[name].params}
    shown = []
    for field in fields:
        base, keyed, key = field.partition(".")
        p = params.get(base)
        if p is None:  # the seed every command takes
            shown.append("--" + base.replace("_", "-"))
        elif keyed:
            shown.append(f"{p.flag} {key}={'N' if p.kind is int else 'VALUE'}")
        else:
            shown.append(p.metavar if p.positional or p.file else p.flag)
    return ", ".join(shown)


def _read_files(name: str, options: dict[str, Any]) -> str | None:
    """Replace each file argument by the JSON object it holds; returns the file read (or None)."""
    path = None
    for p in commands.load_all()[name].params:
        if p.file:
            path = options[p.name]
            try:
                text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
            except OSError as error:
                raise RollbookError(f"cannot read {path}: {error.strerror}") from None
            try:
                options[p.name] = json.loads(text)
            except ValueError as error:
                raise RollbookError(f"{path} is not JSON: {error}") from None
    return path


def _write(path: str, data: Any) -> None:
    """Write the whole file or nothing: a half-written encounter would lose the fight."""
    temporary = f"{path}.{os.getpid()}.tmp"
    with open(temporary, "w", encoding="utf-8") as out:
        json.dump(data, out, indent=1, ensure_ascii=False)
        out.write("\n")
    os.replace(temporary, path)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else argv
    options = vars(parser.parse_args([" " + a if _NEGATIVE_VALUE.match(a) else a for a in argv]))
    name = options.pop("_command", None)
    if name is None:
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    as_json = options.pop("json")
    out = options.pop("out", None)
    options.pop("command", None)
    writes = commands.load_all()[name].writes
    try:
        _named(name, options)
        source = _read_files(name, options)
        result = commands.run(name, options)
        out = out or (source if source not in (None, "-") else "-")
        if writes and out != "-":
            try:
                _write(out, result[writes])
            except OSError as error:
                raise RollbookError(f"cannot write {out}: {error.strerror}") from None
    except RollbookError as error:
        about = _flags(name, error.fields)
        print(f"rollbook {name}: {about + ': ' if about else ''}{error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        if writes and out == "-" and not as_json:
            print(api.dumps(result[writes]))  # the next step reads it from standard input: '-'
        else:
            print(api.dumps(result) if as_json else render_text(result))
        sys.stdout.flush()
    except BrokenPipeError:  # `rollbook prob 50d100 --json | head`: the reader left, nothing is wrong
        sys.stdout = None  # type: ignore[assignment]  # stops Python's own failing flush at exit
    return 0


def render_text(result: dict[str, Any]) -> str:
    """Human output: the command's own ``text`` when it has one, else its fields, one a line."""
    if isinstance(result.get("text"), str):
        return result["text"]
    return "\n".join(f"{key}: {value}" for key, value in result.items())
