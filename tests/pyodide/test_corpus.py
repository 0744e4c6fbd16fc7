"""The cross-runtime corpus itself, on CPython: it covers every command and only asks reproducible
questions. (Its answers are compared with Pyodide's by run.mjs, in `make test`.)"""

from __future__ import annotations

import json
import re

import pytest

import corpus
from rollbook.api import commands_schema

pytestmark = pytest.mark.cpython_only  # reads tests/pyodide/corpus.json, outside the package

ENTRY_KEYS = {"api", "command", "args", "seeds"}


def test_every_registered_command_has_a_corpus_entry_answered_ok() -> None:
    assert corpus.coverage_problems() == []


def test_corpus_entries_are_well_formed() -> None:
    entries = json.loads(corpus.CORPUS.read_text(encoding="utf-8"))["requests"]
    for number, entry in enumerate(entries, 1):
        assert set(entry) <= ENTRY_KEYS, f"entry {number} has unknown keys {set(entry) - ENTRY_KEYS}"
        assert isinstance(entry.get("args", {}), dict), f"entry {number}: args must be an object"
        seeds = entry.get("seeds", [])
        assert all(isinstance(s, int) and not isinstance(s, bool) for s in seeds), f"entry {number}: seeds"
        assert "seed" not in entry.get("args", {}) or not seeds, f"entry {number}: seed given twice"


def test_every_random_request_answered_ok_is_seeded() -> None:
    """An unseeded roll is cryptographic: it could never match across runtimes. (A rejected
    request rolls nothing, so it needs no seed.)"""
    random_commands = {c["command"] for c in commands_schema() if c["random"]}
    assert set(RANDOM_ONLY_WITH) <= random_commands
    unseeded = []
    for request, answer in zip(corpus.requests(), corpus.answers()):
        name, args = json.loads(request).get("command"), json.loads(request).get("args", {})
        rolls = name in random_commands and (name not in RANDOM_ONLY_WITH or RANDOM_ONLY_WITH[name] in args)
        if rolls and json.loads(answer)["ok"] and "seed" not in args:
            unseeded.append(request)
    assert unseeded == []


# Commands that roll only when given this argument: prob answers exact odds, and rolls only to
# --estimate them (the test below, answered the same twice, catches an unseeded estimate too).
RANDOM_ONLY_WITH = {"prob": "estimate"}


def test_the_corpus_is_answered_the_same_twice() -> None:
    """Same seeds, same bytes, within one runtime too (no hidden global state)."""
    assert corpus.answers() == corpus.answers()


# Dice notation whose code paths differ most (chains cut at a tolerance, order statistics,
# counting): each must be both rolled with a seed and given as an exact distribution.
DICE_FEATURES = {
    "keep/drop": r"[\d}](k[hl]?|d[hl])\d",  # 4d6kh3, 4d6dl1, {...}kh1; not the d of 2d6
    "success counting": r"\d[<>]=?\d",
    "explosion": r"!",
    "open-ended d20": r"oe",
    "reroll": r"r\d",
    "group": r"\{",
}


@pytest.mark.parametrize("command", ["roll", "prob"])
def test_the_corpus_answers_every_dice_feature(command: str) -> None:
    expressions = [json.loads(request)["args"]["expression"]
                   for request, answer in zip(corpus.requests(), corpus.answers())
                   if json.loads(request)["command"] == command and json.loads(answer)["ok"]]
    missing = [name for name, pattern in DICE_FEATURES.items()
               if not any(re.search(pattern, e) for e in expressions)]
    assert missing == []


def test_the_corpus_has_exact_distributions_with_a_residual() -> None:
    """An infinite chain (d20oe, d6!) is cut where its mass falls below a tolerance: the cut
    (exact Fractions as text) must come out the same in both runtimes."""
    residuals = [json.loads(answer)["result"]["residual"] for request, answer
                 in zip(corpus.requests(), corpus.answers())
                 if json.loads(request)["command"] == "prob" and json.loads(answer)["ok"]]
    assert any(r not in (0, "0") for r in residuals)
