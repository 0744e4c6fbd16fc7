"""What a player keeps, as a page's localStorage holds it (widgets/kept.js STORAGE_KEY)."""

from __future__ import annotations

import json
from typing import Any

from kit.engine import engine

# Typed here once on purpose: a changed key would lose every player's kept state, so a test that
# read it from kept.js would follow such a change instead of failing on it.
KEPT = "rollbook.kept.v1"


def read_kept(page: Any, default: Any = None) -> Any:
    """The kept value, parsed; `default` when nothing is kept."""
    value = page.evaluate("(key) => localStorage.getItem(key)", KEPT)
    return default if value is None else json.loads(value)


def put_kept(page: Any, value: Any) -> None:
    """Write `value` as the kept state (as JSON), the way an earlier visit would have."""
    page.evaluate("([key, value]) => localStorage.setItem(key, JSON.stringify(value))", [KEPT, value])


def kept_log(page: Any) -> list[dict[str, Any]]:
    """The kept roll log, oldest first; empty when nothing is kept."""
    return read_kept(page, {"log": []}).get("log")


def keep_an_encounter(page: Any) -> dict[str, Any]:
    """Two combatants added on CPython, kept as the encounter being run; returns it as kept."""
    enc = engine("encounter start", rules="opencore")["encounter"]
    score = {"hp": 20, "con": 30, "dex": 40, "str": 70, "attack_skill": 40, "defense_skill": 20, "toughness": 0}
    for who in ({"name": "Buck", "side": "players", "score": score}, {"name": "Orc", "side": "orcs", "score": score}):
        enc = engine("encounter add", encounter=enc, **who)["encounter"]
    value = json.loads(page.evaluate("(key) => localStorage.getItem(key)", KEPT) or '{"rollbook": 2}')
    value["encounter"] = {"current": enc, "undo": [], "full": {}, "seed": None, "updated": "2026-12-01T00:00:00.000Z"}
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [KEPT, json.dumps(value)])
    return value["encounter"]


def a_fight(names: tuple[str, str] = ("Buck", "Orc")) -> dict[str, Any]:
    """Two combatants added on CPython, as the encounter being run would be kept (next seed 5)."""
    enc = engine("encounter start", rules="opencore")["encounter"]
    score = {"hp": 20, "con": 30, "dex": 40, "str": 70, "attack_skill": 40, "defense_skill": 20, "toughness": 0}
    for name, side in zip(names, ("players", "orcs")):
        enc = engine("encounter add", encounter=enc, name=name, side=side, score=score)["encounter"]
    return {"current": enc, "undo": [], "full": {}, "seed": 5, "updated": "2026-12-01T00:00:00.000Z"}


def kept_fight(page: Any) -> dict[str, Any]:
    """The kept encounter (its current state, Undo's steps and seed)."""
    return read_kept(page)["encounter"]
