"""The command registry: one list of commands that both faces of the engine serve.

A command is a plain function decorated with :func:`command`. Its signature is its interface:

* positional parameters become positional CLI arguments (``rollbook opencore crit TYPE ROLL``),
* keyword-only parameters become ``--options`` (required when they have no default),
* ``bool`` parameters become flags, ``list[...]`` parameters repeatable options,
* ``dict[str, ...]`` parameters a JSON object, and on the CLI a repeatable ``--var NAME=VALUE``
  (the flag named by ``Arg.flag``),
* ``Literal[...]`` parameters offer their choices,
* a parameter called ``rng`` is not exposed: it receives the random source, built from the
  ``seed`` every command accepts (cryptographic when no seed is given).

The JSON facade (:mod:`rollbook.api`) and the CLI (:mod:`rollbook.cli`) both read this registry,
so a field has the same name everywhere (``attack_roll`` in JSON is ``--attack-roll`` on the CLI).
"""

from __future__ import annotations

import importlib
import inspect
import math
import random
import re
import typing
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any, Callable, Literal, get_args, get_origin

from rollbook.dice.errors import DiceError
from rollbook.errors import LimitError, RollbookError, quoted

Result = dict[str, Any]

# No roll, score, skill or count comes near this; a larger number is a typo, and arithmetic on
# numbers of thousands of digits ends in Python's int-to-text limit (a ValueError, not a message).
LARGEST_WHOLE_NUMBER = 10**12


@dataclass(frozen=True)
class Arg:
    """Help text (and optionally a CLI metavar) for one parameter, given with ``Annotated``."""

    help: str
    metavar: str | None = None
    flag: str | None = None  # the CLI option, when not the parameter's name: "--var" for "vars"
    # what to enter when a required one is missing, read after the field's label on a page:
    # "the Difficulty Class the roll must reach, such as 15" ("DC: enter the Difficulty Class …")
    ask: str | None = None
    file: bool = False  # a JSON object that the CLI reads from a file (FILE, or '-' for standard input)
    dice: bool = False  # a dice expression: a dice error without fields is about this argument
    # read only when another parameter has one of these values, ("take", ("10", "20")): ignored
    # otherwise, so a page asks for it only then (the facts' ``only_with``: {"take": ["10", "20"]})
    only_with: tuple[str, tuple[Any, ...]] | None = None


@dataclass(frozen=True)
class Param:
    name: str
    kind: type  # int, str, float or bool (the element type, for lists and the value type, for dicts)
    positional: bool
    required: bool
    default: Any
    many: bool
    keyed: bool  # dict[str, kind]: a JSON object, NAME=VALUE on the CLI
    choices: tuple[Any, ...] | None
    help: str
    ask: str | None  # see Arg.ask
    metavar: str
    flag: str
    file: bool  # a JSON object (dict[str, Any]); on the CLI a JSON file
    dice: bool  # a dice expression (see Arg.dice)
    only_with: tuple[str, tuple[Any, ...]] | None  # see Arg.only_with


@dataclass(frozen=True)
class Command:
    name: str  # words separated by spaces: "opencore crit"
    summary: str
    func: Callable[..., Result]
    params: tuple[Param, ...]
    random: bool  # takes an ``rng``
    writes: str | None  # the result's field the CLI writes back to a file (see cli.py: --out)


REGISTRY: dict[str, Command] = {}

# Each module registers its commands when imported; listed here so the registry is complete
# whichever face (CLI, API, tests) loads first.
_MODULES = ("dice", "tables", "opencore", "codex", "cyno", "encounter")


def command(name: str, *, writes: str | None = None) -> Callable[[Callable[..., Result]], Callable[..., Result]]:
    """Register ``func`` as the command ``name``; its docstring's first line is the summary.
    ``writes`` names a field of its result that the CLI saves to a file (an encounter)."""

    def register(func: Callable[..., Result]) -> Callable[..., Result]:
        if name in REGISTRY:
            raise ValueError(f"command {name!r} is registered twice")
        params, takes_rng = _params_of(func)
        summary = (inspect.getdoc(func) or name).splitlines()[0]
        REGISTRY[name] = Command(name, summary, func, params, takes_rng, writes)
        return func

    return register


def _params_of(func: Callable[..., Result]) -> tuple[tuple[Param, ...], bool]:
    hints = typing.get_type_hints(func, include_extras=True)
    params: list[Param] = []
    takes_rng = False
    for p in inspect.signature(func).parameters.values():
        if p.name == "rng":
            takes_rng = True
            continue
        hint = hints[p.name]
        arg = Arg(help="")
        if get_origin(hint) is Annotated:
            hint, *extras = get_args(hint)
            arg = next((e for e in extras if isinstance(e, Arg)), arg)
        optional = False
        if get_origin(hint) in (typing.Union, getattr(__import__("types"), "UnionType", None)):
            members = [a for a in get_args(hint) if a is not type(None)]
            optional = len(members) < len(get_args(hint))
            hint = members[0]
        many = get_origin(hint) is list
        keyed = get_origin(hint) is dict and get_args(hint)[1] is not Any
        if many:
            (hint,) = get_args(hint)
        elif keyed:
            _, hint = get_args(hint)
        elif get_origin(hint) is dict:  # dict[str, Any]: a whole JSON object, e.g. an encounter
            hint = dict
        choices = None
        if get_origin(hint) is Literal:
            choices = get_args(hint)
            hint = type(choices[0])
        has_default = p.default is not inspect.Parameter.empty
        params.append(
            Param(
                name=p.name,
                kind=hint,
                positional=p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD,
                required=not has_default and not optional,
                default=p.default if has_default else None,
                many=many,
                keyed=keyed,
                choices=choices,
                help=arg.help,
                ask=arg.ask,
                metavar=arg.metavar or p.name.upper(),
                flag=arg.flag or "--" + p.name.replace("_", "-"),
                file=arg.file,
                dice=arg.dice,
                only_with=arg.only_with,
            )
        )
    return tuple(params), takes_rng


_loaded = False  # every command module imported: later calls (each request, each CLI lookup) skip the imports


def load_all() -> dict[str, Command]:
    """Import every command module (idempotent) and return the registry."""
    global _loaded
    if _loaded:
        return REGISTRY
    for module in _MODULES:
        try:
            importlib.import_module(f"rollbook.commands.{module}")
        except ModuleNotFoundError as error:  # a rule set still being written
            if error.name != f"rollbook.commands.{module}":
                raise
    _loaded = True
    return REGISTRY


def make_rng(seed: int | None) -> random.Random:
    """Seeded rolls reproduce on CPython and in Pyodide; unseeded ones are cryptographic."""
    return random.SystemRandom() if seed is None else random.Random(seed)


def run(name: str, args: dict[str, Any]) -> Result:
    """Check ``args`` against the command's parameters, then call it. Raises RollbookError, whose
    ``fields`` name the arguments it is about."""
    commands = load_all()
    cmd = commands.get(name)
    if cmd is None:
        known = ", ".join(sorted(commands))
        raise RollbookError(f"unknown command {quoted(name)}", hint=f"one of: {known}")
    args = dict(args)
    seed = args.pop("seed", None)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise RollbookError(_wanted(int, seed), fields=("seed",))
    by_name = {p.name: p for p in cmd.params}
    unknown = sorted(set(args) - set(by_name))
    if unknown:  # a page or script asking for what this command does not take: a bug there
        raise RollbookError("is not asked for here", fields=(unknown[0],))
    kwargs: dict[str, Any] = {}
    for p in cmd.params:
        if p.name not in args or args[p.name] is None:
            if p.required:
                raise RollbookError(_missing(p), fields=(p.name,))
            continue
        kwargs[p.name] = _checked(p, args[p.name])
    if cmd.random:
        kwargs["rng"] = make_rng(seed)
    try:
        result = cmd.func(**kwargs)
    except DiceError as error:
        if not error.fields:
            error.fields = _dice_fields(cmd, error)
        raise
    if cmd.random and seed is not None:
        result = {**result, "seed": seed}
    return result


def _dice_fields(cmd: Command, error: DiceError) -> tuple[str, ...]:
    """A dice error is about the command's dice expression, and a name in it about its entry among
    the values given (``vars.STR``)."""
    expression = () if error.value_given else tuple(p.name for p in cmd.params if p.dice)
    entries = tuple(f"{p.name}.{error.variable}" for p in cmd.params if p.keyed) if error.variable else ()
    return expression + entries


# what to enter, by parameter kind (the one whole-object argument, dict, is an encounter)
_EXAMPLES: dict[type, str] = {int: "a whole number, such as 40", float: "a number, such as 2.5", str: "text",
                              bool: "yes or no", dict: "an encounter"}


def _missing(p: Param) -> str:
    """What to enter in a required field left empty, read after its label: "DC: enter the
    Difficulty Class the roll must reach, such as 15" (not the CLI's help for the argument)."""
    if p.ask:
        return f"enter {p.ask}"
    if p.choices is not None:
        return "choose one of: " + ", ".join(map(str, p.choices))
    if p.kind is not str and p.kind in _EXAMPLES:
        return f"enter {_EXAMPLES[p.kind]}"
    what = re.sub(r"\s*\([^()]*\)$", "", p.help)  # "which combatant (by its id)": the remark is the CLI's
    if not what:
        return "enter a value"
    return f"{'choose' if what.startswith('which ') else 'enter'} {what}"


def percent(p: Fraction) -> str:
    """A chance as a player reads it: 3/8 -> "37.5%", 1 -> "100%", 1/3 -> "33.33%"."""
    return f"{float(p) * 100:.4g}%"


def _wanted(kind: type, value: Any) -> str:
    """What to enter instead of a value of the wrong type: "enter a whole number, such as 40, not “abc”"."""
    return f"enter {_EXAMPLES.get(kind, kind.__name__)}{_not(value)}"


def _checked(p: Param, value: Any) -> Any:
    if p.keyed:
        if not isinstance(value, dict):
            raise RollbookError(f"enter names with their values, such as STR=3{_not(value)}", fields=(p.name,))
        return {name: _checked_one(p, v, f"{p.name}.{name}") for name, v in value.items()}
    if p.many:
        if not isinstance(value, list):
            raise RollbookError(f"enter one or more values{_not(value)}", fields=(p.name,))
        return [_checked_one(p, v, p.name) for v in value]
    return _checked_one(p, value, p.name)


def _not(value: Any) -> str:
    """", not “abc”": the value the player typed (a value of another kind is not shown). NaN and
    Infinity, which JSON text from a link or a file may hold, are said in words ("not nan" was)."""
    if isinstance(value, float) and not math.isfinite(value):
        return "; the value given is not a number" if math.isnan(value) else "; the value given is infinite"
    return f", not {quoted(value)}" if isinstance(value, (str, int, float)) and not isinstance(value, bool) else ""


def _checked_one(p: Param, value: Any, field: str) -> Any:
    if p.dice and type(value) is int:  # a plain number is a dice expression too: 7
        value = str(value)
    ok = isinstance(value, p.kind) and not (p.kind is not bool and isinstance(value, bool))
    if p.kind is float and isinstance(value, int) and not isinstance(value, bool):
        value, ok = float(value), True
    if not ok or (isinstance(value, float) and not math.isfinite(value)):  # (no rule takes NaN or Infinity)
        raise RollbookError(_wanted(p.kind, value), fields=(field,))
    if p.kind is int and abs(value) > LARGEST_WHOLE_NUMBER:
        raise LimitError(f"enter a whole number between -{LARGEST_WHOLE_NUMBER:,} and {LARGEST_WHOLE_NUMBER:,}",
                         fields=(field,))
    if p.choices is not None and value not in p.choices:
        options = ", ".join(map(str, p.choices))
        raise RollbookError(f"choose one of: {options}{_not(value)}", fields=(field,))
    return value
