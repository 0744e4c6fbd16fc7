"""The cross-runtime corpus: the same requests answered by the engine on CPython and in Pyodide.

``corpus.json`` lists requests for :func:`rollbook.api.call_json`. An entry is one request
(``{"command": ..., "args": {...}}``) plus, optionally, ``"seeds": [1, 2, ...]`` to repeat a
random command once per seed (the seed goes into ``args``, as the API expects). The answers are
not stored: both runtimes answer at test time, so the corpus never goes stale when an output
format changes, and the harness (``run.mjs``) compares the two byte for byte.

This module is imported by that harness inside Pyodide and run as a script on CPython, so both
runtimes expand and answer the corpus with the very same code::

    python tests/pyodide/corpus.py --report   # CPython's schema, requests and answers as JSON
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).with_name("corpus.json")


def requests(path: Path = CORPUS) -> list[str]:
    """Every request of the corpus as the exact JSON text sent to ``call_json``."""
    out: list[str] = []
    for entry in json.loads(path.read_text(encoding="utf-8"))["requests"]:
        entry = dict(entry)
        seeds = entry.pop("seeds", [None])
        for seed in seeds:
            request = {**entry, "args": dict(entry.get("args", {}))}
            if seed is not None:
                request["args"]["seed"] = seed
            out.append(json.dumps(request, sort_keys=True))
    return out


def answers(path: Path = CORPUS) -> list[str]:
    from rollbook.api import call_json

    return [call_json(request) for request in requests(path)]


def coverage_problems(path: Path = CORPUS) -> list[str]:
    """Registered commands the corpus never answers successfully (each needs at least one)."""
    from rollbook.api import commands_schema

    answered = {json.loads(request)["command"] for request, answer in zip(requests(path), answers(path))
                if json.loads(answer)["ok"]}
    return [f"command {c['command']!r} has no corpus entry answered ok in {path.name}"
            for c in commands_schema() if c["command"] not in answered]


def schema() -> str:
    """The API's description of every command, canonical JSON: it must match across runtimes too."""
    from rollbook.api import commands_schema, dumps

    return dumps(commands_schema())


def report() -> str:
    """Schema, expanded requests and answers as one JSON text (ASCII, so no encoding can bend it)."""
    return json.dumps({"schema": schema(), "requests": requests(), "answers": answers()})


if __name__ == "__main__":
    if sys.argv[1:] != ["--report"]:
        sys.exit("usage: python tests/pyodide/corpus.py --report")
    print(report())
