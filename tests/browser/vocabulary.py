"""The engine's vocabulary, which a player must never read on a page: CLI flags (``--safe``), argument
names (``attack_skill``), command names (``opencore attack``), ruling ids
(``opencore-death-threshold``) and JSON or Python wording ("JSON", "null", "Unexpected token").

Taken from the engine itself (``commands_schema()``, the rulings), so a new argument or ruling is
checked without a change here. One-word argument and command names ("roll", "dice", "table") are
plain English and the pages use them as such: only names no sentence would contain are checked.
"""

from __future__ import annotations

import functools
import re

from rollbook import api, rulings

# JSON and Python as a player would meet them in a message (a lone "None" is a picker's choice:
# "None (no damage roll)"; Python's shows as a value: "not None", "found None").
CODE_WORDS = [r"\bJSON\b", r"\bnull\b", r"\bundefined\b", r"\bNaN\b", r"\btrue\b", r"\bfalse\b", r"\bobjects?\b",
              r"Unexpected token", r"\bTraceback\b", r"\bdict\b", r"\bstr\b", r"\bint\b", r"(?:\bnot|\bfound|=)\s+None\b",
              r"Error:", r"'[a-z]+_[a-z_]+'"]


@functools.cache
def banned_patterns() -> tuple[re.Pattern[str], ...]:
    schema = api.commands_schema()
    arguments = {p["name"] for command in schema for p in command["params"] if "_" in p["name"]}
    commands = {command["command"] for command in schema if " " in command["command"]}
    ruling_ids = {ruling.id for ruling in rulings.all_rulings()}
    words = [r"(?<![\w-])--[a-z]", *CODE_WORDS]
    words += [rf"\b{re.escape(name)}\b" for name in sorted(arguments)]
    words += [rf"(?<![\w-]){re.escape(name)}(?![\w-])" for name in sorted(commands)]  # lowercase, as the CLI writes them
    words += [rf"(?<![\w-]){re.escape(name)}(?![\w-])" for name in sorted(ruling_ids)]
    return tuple(re.compile(word) for word in words)


def engine_words(text: str) -> list[str]:
    """The engine vocabulary found in ``text`` (a page's visible text): each hit with a little of
    what is around it, so a failure shows where it is."""
    hits = []
    for pattern in banned_patterns():
        for match in pattern.finditer(text):
            hits.append(text[max(0, match.start() - 40):match.end() + 40].replace("\n", " "))
    return hits
