"""What the engine answers on CPython: the reference every number a page shows is compared with."""

from __future__ import annotations

import json
from typing import Any

from rollbook import api


def engine(command: str, **args: Any) -> dict[str, Any]:
    """The result of `command` through the JSON API the widgets call; fails the test on an error."""
    answer = json.loads(api.call_json(json.dumps({"command": command, "args": args})))
    assert answer["ok"], answer
    return answer["result"]
