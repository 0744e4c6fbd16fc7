"""Commands the widgets ask for: the printed table behind a lookup, and ability values in dice."""

from __future__ import annotations

import json
from typing import Any

from rollbook import api, tables


def call(command: str, **args: Any) -> dict[str, Any]:
    return json.loads(api.call_json(json.dumps({"command": command, "args": args})))


def test_table_gives_every_table_exactly_as_the_pages_print_it() -> None:
    for name in tables.names():
        answer = call("table", name=name)
        display = tables.display(name)
        assert answer["ok"], name
        assert answer["result"]["cells"] == [list(row) for row in display.rows]
        assert answer["result"]["columns"] == list(display.columns) and answer["result"]["title"] == display.title


def test_an_unknown_table_lists_the_known_ones() -> None:
    answer = call("table", name="opencore.critical.laser")
    assert answer["ok"] is False and "opencore.critical.slash" in answer["error"]["message"]


def test_roll_values_use_the_str_damage_ruling_and_the_scores_for_the_rest() -> None:
    result = call("opencore roll-values", scores="STR=80,DEX=33,CON=46")["result"]
    assert result["values"] == {"STR": 3, "DEX": 33, "CON": 46}  # STR: (80 - 50) // 10
    assert call("opencore roll-values", scores="STR=41")["result"]["values"] == {"STR": -1}  # rounds down
    assert call("opencore roll-values", scores="STR=80", str_damage="score")["result"]["values"] == {"STR": 80}
    bad = call("opencore roll-values", scores="STR=101")
    assert bad["ok"] is False and "STR" in bad["error"]["message"]
