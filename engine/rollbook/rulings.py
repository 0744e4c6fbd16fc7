"""Rollbook's rulings: the named readings of ambiguous rules, loaded from ``data/rulings.toml``.

The engine cites a ruling by id wherever it implements one; the site shows each ruling next to
its rule and on the Rulings page.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, fields
from importlib import resources

from rollbook.errors import RollbookError, quoted
from rollbook.rule_sets import RULE_SETS
from rollbook.tables import TableDataError

_ID = re.compile(rf"^({'|'.join(RULE_SETS)})-[a-z0-9]+(-[a-z0-9]+)*$")  # kebab-case, rule set first


@dataclass(frozen=True)
class Ruling:
    id: str  # kebab-case, prefixed by its rule set: "opencore-composite-rounding"
    title: str
    rule_set: str  # "opencore" | "codex" | "cyno"
    rule: str  # which rule of the seed it concerns
    question: str  # the ambiguity
    reading: str  # what Rollbook does
    why: str
    alternative: str | None = None
    option: str | None = None  # engine option that selects the alternative, "name=value"


@functools.cache
def _rulings() -> dict[str, Ruling]:
    text = (resources.files("rollbook") / "data" / "rulings.toml").read_text(encoding="utf-8")
    known = {f.name for f in fields(Ruling)}
    out: dict[str, Ruling] = {}
    for entry in tomllib.loads(text)["ruling"]:
        unknown = set(entry) - known
        if unknown:
            raise TableDataError(f"ruling {entry.get('id')!r}: unknown fields {sorted(unknown)}")
        ruling = Ruling(**entry)
        if not _ID.match(ruling.id) or not ruling.id.startswith(ruling.rule_set + "-"):
            raise TableDataError(f"ruling id {ruling.id!r} must be kebab-case and start with its rule set")
        if ruling.rule_set not in RULE_SETS:
            raise TableDataError(f"ruling {ruling.id!r}: unknown rule set {ruling.rule_set!r}")
        if ruling.id in out:
            raise TableDataError(f"ruling {ruling.id!r} is defined twice")
        out[ruling.id] = ruling
    return out


def all_rulings() -> list[Ruling]:
    """Every ruling, grouped by rule set (OpenCore, CharacterCodex, Cyno) in file order."""
    rulings = list(_rulings().values())
    return sorted(rulings, key=lambda r: list(RULE_SETS).index(r.rule_set))


def get(ruling_id: str) -> Ruling:
    """The ruling ``ruling_id``; a RollbookError naming the known ids otherwise."""
    rulings = _rulings()
    if ruling_id not in rulings:
        raise RollbookError(f"there is no ruling {ruling_id!r}", hint="one of: " + ", ".join(rulings))
    return rulings[ruling_id]


def named(ruling_id: str) -> str:
    """A ruling as a player reads it in a message: by its title, not its id."""
    return f"the ruling “{get(ruling_id).title}”"


def reading(option: str, value: str) -> str:
    """How a ruling option a table chose reads: the ruling's title, or its alternative when the
    value chosen is the one that selects it (``death_at=zero``: "Death at 0 HP, as ...")."""
    ruling = next(r for r in _rulings().values() if r.option and r.option.partition("=")[0] == option)
    chose_alternative = ruling.option == f"{option}={value}" and ruling.alternative
    return ruling.alternative.rstrip(".") if chose_alternative and ruling.alternative else ruling.title


def alternatives(ids: Iterable[str], options: Collection[str], where: str) -> dict[str, str]:
    """The options the rulings named by id select, each its alternative (``opencore-save-direction``
    -> ``{"save_direction": "over"}``), among the ``options`` a command takes; ``where`` says what
    takes them in a message ("a saving throw or check"). A ruling with nothing to switch there is
    refused, named by its title (a message never shows an id; the CLI's help lists them)."""
    switchable = {r.id: r.option.partition("=") for r in all_rulings()
                  if r.option and r.option.partition("=")[0] in options}
    out = {}
    for ruling_id in ids:
        if ruling_id not in switchable:
            known = _rulings().get(ruling_id)
            raise RollbookError(f"“{known.title}” is not a ruling {where} can switch" if known else
                                f"there is no ruling {quoted(ruling_id)} to switch",
                                hint="those it can: " + "; ".join(f"“{get(r).title}”" for r in switchable),
                                fields=("ruling",))
        name, _, value = switchable[ruling_id]
        out[name] = value
    return out


def chosen(named: Mapping[str, str | None], ids: Iterable[str], options: Collection[str], where: str) -> dict[str, str]:
    """The ruling options a table chose: by name (``named``, None where not given) and by the
    rulings' ids, which select each ruling's alternative among ``options``; the same ruling chosen
    both ways and differently is refused (naming both fields)."""
    out = {name: value for name, value in named.items() if value is not None}
    for name, value in alternatives(ids, options, where).items():
        if out.get(name, value) != value:
            raise RollbookError(f"this ruling is chosen twice, as {quoted(out[name])} and by its id",
                                hint="choose it once", fields=(name, "ruling"))
        out[name] = value
    return out
