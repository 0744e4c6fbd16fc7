"""The engine's answers as the browser gets them (the JSON API), for the rules tests."""

from __future__ import annotations

from typing import Any

from rollbook import api


def call(command: str, **args: Any) -> dict[str, Any]:
    """The result of a request the engine must answer."""
    answer = api.call({"command": command, "args": args})
    assert answer["ok"], answer
    return answer["result"]


def refused(command: str, **args: Any) -> str:
    """The message of a request the engine must refuse."""
    answer = api.call({"command": command, "args": args})
    assert not answer["ok"], answer
    return answer["error"]["message"]
