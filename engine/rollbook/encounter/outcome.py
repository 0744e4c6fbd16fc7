"""What one step did to each combatant, in one short line for that combatant's card.

The page shows a step's answer where the player's thumb is: on the card of the combatant that
acted (an attack's hit or miss, and what it cost the target) and on the card of each one it
touched (points lost or back, armor and Toughness taken, a state reached, effects started or
ended). The lines are worked out here, from the encounter before and after the step and the
step's events, so the page computes nothing: it shows ``{"id": ..., "text": ...}`` on ``id``'s card.
"""

from __future__ import annotations

import json
from typing import Any

from rollbook.encounter import cyno, opencore, turns
from rollbook.encounter.shape import Combatant, Encounter, Event

Outcome = dict[str, Any]


def outcomes(before: Encounter, after: Encounter, events: list[Event]) -> list[Outcome]:
    """One line for each combatant the step changed, in the order of ``after``'s combatants; the
    attacker's line says the hit or miss and what it cost the target."""
    was = {c["id"]: c for c in before["combatants"]}
    touched = {c["id"]: _changes(before, after, was[c["id"]], c) for c in after["combatants"] if c["id"] in was}
    blows = [e for e in events if e.get("detail") is not None and e.get("by") is not None and "hit" in e["detail"]]
    lines: dict[str, list[str]] = {who: list(parts) for who, parts in touched.items()}
    names = {c["id"]: c["name"] for c in after["combatants"]}
    for blow in blows:  # an attack or strike: one per step
        by, target, detail = blow["by"], blow["who"], blow["detail"]
        if by not in names or target not in names:
            continue
        cost = touched.get(target, [])
        taken = _taken(detail, names[by], blocked=not cost)
        lines[target] = [f"{taken}: {'; '.join(cost)}" if cost else taken]
        dealt, own = _dealt(detail, names[target], cost), touched.get(by, []) if by != target else []
        now = next(c for c in after["combatants"] if c["id"] == by)
        if by in was and opencore.has_extra_attack(was[by], target) and not opencore.has_extra_attack(now, target):
            # a fumble's extra attack made: said as what it was, not as an effect that "ended"
            dealt = f"Extra attack: {dealt}"
            own = _changes(before, after, {**was[by], "effects": opencore.without_extra_attack(was[by], target)}, now)
        lines[by] = [dealt, *own]
    return [{"id": c["id"], "text": "; ".join(lines[c["id"]])} for c in after["combatants"] if lines.get(c["id"])]


def _dealt(detail: dict[str, Any], target: str, cost: list[str]) -> str:
    """The attacker's line: the hit or miss, then what the target lost."""
    if not detail["hit"]:
        return f"Missed {target} ({detail['reason']})"
    kind = "Critical hit on" if detail.get("critical") is True else "Hit"
    defense = _defense(detail)
    if defense and defense["success"]:
        return f"{kind} {target}, but the {defense['action']} held"
    return f"{kind} {target}: " + ("; ".join(cost) if cost else _nothing(detail))


def _taken(detail: dict[str, Any], attacker: str, *, blocked: bool) -> str:
    """The target's line: who hit or missed it."""
    if not detail["hit"]:
        return f"{attacker} missed"
    defense = _defense(detail)
    if defense and defense["success"]:
        return f"{attacker} hit, the {defense['action']} held"
    critical = " (critical)" if detail.get("critical") is True else ""
    return f"Hit by {attacker}{critical}" + (f": {_nothing(detail)}" if blocked else "")


def _defense(detail: dict[str, Any]) -> dict[str, Any] | None:
    return detail.get("defense")  # a Cyno strike's declared dodge or parry


def _nothing(detail: dict[str, Any]) -> str:
    """Why a hit cost nothing: armor or Toughness stopped it, or it did no damage."""
    wound = detail.get("wound")
    if wound:
        stopped = [name for name, took in (("armor", wound["to_armor"]), ("Toughness", wound["to_toughness"])) if took]
        if stopped and detail.get("damage"):
            return f"{' and '.join(stopped)} stopped all {detail['damage']}"
    return "no damage"


def _changes(before: Encounter, after: Encounter, was: Combatant, now: Combatant) -> list[str]:
    """What the step changed of one combatant, in words, most important first."""
    parts: list[str] = []
    if after["rules"] == "opencore":
        parts += _points(was["hp"], now["hp"], now["hp_max"], "HP")
        for name, field in (("armor", "armor"), ("Toughness", "toughness")):
            if now[field] < was[field]:
                parts.append(f"{name} took {was[field] - now[field]} ({now[field]} left)")
        state_was, state_now = opencore.state(before, was), opencore.state(after, now)
        if state_now != state_was:
            parts.append({"unconscious": "falls unconscious", "dead": "dead", "conscious": "conscious again"}[state_now])
    else:
        parts += _points(was["dp"], now["dp"], now["dp_max"], now["level"] + "DP")
        if cyno.down(now) and not cyno.down(was):
            parts.append("down")
    started, ended = _effects(was["effects"], now["effects"])
    parts += [turns.describe(after, e) for e in started]
    parts += [f"{turns.describe(before, e, rounds=False)} ended" for e in ended]
    return parts


def _points(was: int, now: int, most: int, unit: str) -> list[str]:
    if now < was:
        return [f"{was - now} {unit} lost, {now} of {most} left"]
    if now > was:
        return [f"{now - was} {unit} back, {now} of {most}"]
    return []


def _effects(was: list[dict[str, Any]], now: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Effects started and ended; one that only counted down its rounds is neither."""
    return _missing(now, was), _missing(was, now)


def _missing(these: list[dict[str, Any]], among: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The effects of ``these`` not in ``among`` (each matched once, its rounds left aside)."""
    def key(e: dict[str, Any]) -> str:
        return json.dumps({k: v for k, v in e.items() if k != "rounds"}, sort_keys=True)

    left = [key(e) for e in among]
    missing = []
    for e in these:
        if key(e) in left:
            left.remove(key(e))
        else:
            missing.append(e)
    return missing
