"""The cross-runtime corpus itself, on CPython: it covers every command and only asks reproducible
questions. (Its answers are compared with Pyodide's by run.mjs, in `make test`.)"""

from __future__ import annotations

import json

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
    unseeded = [request for request, answer in zip(corpus.requests(), corpus.answers())
                if json.loads(request).get("command") in random_commands and json.loads(answer)["ok"]
                and "seed" not in json.loads(request).get("args", {})]
    assert unseeded == []


def test_the_corpus_is_answered_the_same_twice() -> None:
    """Same seeds, same bytes, within one runtime too (no hidden global state)."""
    assert corpus.answers() == corpus.answers()
