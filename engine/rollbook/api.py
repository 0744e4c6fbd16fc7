"""The JSON facade the browser calls: one entry point, JSON in, JSON out, versioned.

Request:  ``{"api": 1, "command": "opencore crit", "args": {"type": "slash", "roll": 95}}``
Response: ``{"api": 1, "ok": true, "command": "opencore crit", "result": {...}}``
or        ``{"api": 1, "ok": false, "command": ..., "error": {"kind": "input", "message": "..."}}``
          (with ``"column": 6`` in the error when it points at a place in a dice expression, and
          ``"fields": ["attack_skill"]`` when it is about arguments of the request: their names,
          the one to fix first at the head, a keyed argument's entry as ``"score.con"``)

An error's message names no flag, argument, command or ruling id: it reads after the name of
the field it is about (a page shows "Attack skill: enter a whole number, such as 40, not “abc”").

Command names and argument names are exactly those of the CLI (``--attack-roll`` is
``attack_roll``). Only JSON crosses this boundary, so no Python object leaks into page code.
"""

from __future__ import annotations

import json
from typing import Any

from rollbook import commands
from rollbook.errors import RollbookError

API_VERSION = 1
# A request is a few fields, except an encounter step, which carries the whole encounter: 12
# combatants with their effects and the kept log measure about 15,000 characters, the most an
# encounter may hold (40 combatants) about twice that (tests/engine/encounter/test_encounter_shape.py).
# Anything larger is a mistake or abuse.
MAX_REQUEST_CHARS = 64_000


def call(request: dict[str, Any]) -> dict[str, Any]:
    """Answer one request (already decoded). Never raises for bad input."""
    name = request.get("command") if isinstance(request, dict) else None
    try:
        if not isinstance(request, dict):
            raise RollbookError("a request must be a JSON object")
        version = request.get("api", API_VERSION)
        if version != API_VERSION:
            raise RollbookError(f"this engine speaks API version {API_VERSION}, not {version!r}")
        if not isinstance(name, str):
            raise RollbookError('a request needs "command", e.g. {"command": "roll", "args": {"expression": "2d6"}}')
        args = request.get("args", {})
        if not isinstance(args, dict):
            raise RollbookError('"args" must be a JSON object')
        result = commands.run(name, args)
    except RollbookError as error:
        failure = _failure(name, error.kind, str(error))
        if error.fields:
            failure["error"]["fields"] = list(error.fields)
        column = getattr(error, "column", None)  # a dice error's place in the expression, for the widget
        if column:
            failure["error"]["column"] = column
        return failure
    except Exception as error:  # a bug, not bad input: the page still gets an answer, not a dead worker
        return _failure(name, "internal", f"internal error ({type(error).__name__}: {error}); please report it")
    return {"api": API_VERSION, "ok": True, "command": name, "result": result}


def call_json(text: str) -> str:
    """JSON text in, JSON text out: what the Web Worker passes through Pyodide."""
    if len(text) > MAX_REQUEST_CHARS:
        return dumps(_failure(None, "limit", f"a request is at most {MAX_REQUEST_CHARS:,} characters"))
    try:
        request = json.loads(text)
    except ValueError as error:
        return dumps(_failure(None, "input", f"the request is not valid JSON: {error}"))
    except RecursionError:  # "[[[[…]]]]" nested thousands deep: CPython's decoder recurses
        return dumps(_failure(None, "limit", "the request is nested too deeply to be a request"))
    return dumps(call(request))


def _failure(name: str | None, kind: str, message: str) -> dict[str, Any]:
    return {"api": API_VERSION, "ok": False, "command": name, "error": {"kind": kind, "message": message}}


def dumps(data: Any) -> str:
    """Canonical JSON: the same bytes on CPython and in Pyodide for the same answer."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def commands_schema() -> list[dict[str, Any]]:
    """Every command with its parameters, for documentation and for the widgets."""
    out = []
    for cmd in commands.load_all().values():
        out.append({
            "command": cmd.name,
            "summary": cmd.summary,
            "random": cmd.random,
            "params": [
                {"name": p.name, "type": p.kind.__name__, "required": p.required, "many": p.many, "keyed": p.keyed,
                 "positional": p.positional, "default": p.default, "dice": p.dice,
                 "choices": list(p.choices) if p.choices else None, "help": p.help,
                 "only_with": {p.only_with[0]: list(p.only_with[1])} if p.only_with else None}
                for p in cmd.params
            ],
        })
    return sorted(out, key=lambda c: c["command"])
