"""OpenCore combat: weapons and armor with their damage dice (+STR, Fortitude), the opposed attack
roll, fumbles, movement and Powers as far as the document states them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from rollbook import tables
from rollbook.errors import RollbookError, quoted
from rollbook.systems import check_range
from rollbook.systems.opencore.character import ABILITY_FLOOR, ABILITY_HIGH, ability_modifier
from rollbook.systems.opencore.options import DEFAULT, Options
from rollbook.systems.opencore.terms import action_value, stun_defense_penalty


def fortitude_dice(dice: int, fortitude: int) -> int:
    """Damage dice left after Fortitude: at least 1, unless Fortitude is at least twice the dice
    (then none; ruling opencore-fortitude-score)."""
    if fortitude < 0:
        raise RollbookError(f"fortitude cannot be negative ({fortitude})", fields=("fortitude",))
    if dice > 0 and fortitude >= 2 * dice:
        return 0
    return max(min(dice, 1), dice - fortitude)


_DAMAGE = re.compile(r"^(\d*)d(\d+)(.*)$")


def apply_fortitude(expression: str, fortitude: int) -> str:
    """``3d10+5`` with Fortitude 2 -> ``1d10+5``; with Fortitude 6 -> ``5``."""
    match = _DAMAGE.match(expression)
    if fortitude == 0 or match is None:
        return expression
    count, sides, rest = int(match[1] or 1), match[2], match[3]
    left = fortitude_dice(count, fortitude)
    if left:
        return f"{left}d{sides}{rest}"
    return rest.lstrip("+") or "0"


def _find(table: str, key: str, name: str) -> tables.Row:
    rows = tables.get(table).rows
    for row in rows:
        if row[key].lower() == name.strip().lower():
            return row
    raise RollbookError(f"unknown {key} {quoted(name)}", hint="one of: " + ", ".join(row[key] for row in rows),
                        fields=(key,))


def weapon(name: str) -> tables.Row:
    """A row of the weapon table, by class name (case-insensitive)."""
    return _find("opencore.weapons", "weapon", name)


def armor(name: str) -> tables.Row:
    """A row of the armor table, by name (case-insensitive)."""
    return _find("opencore.armor", "armor", name)


def strength_term(strength: int, options: Options = DEFAULT) -> int:
    """What ``+STR`` adds to damage (ruling opencore-str-damage; option str_damage=score)."""
    check_range("STR", strength, ABILITY_FLOOR, ABILITY_HIGH, field="strength")
    return strength if options.str_damage == "score" else ability_modifier(strength)


def damage_expression(weapon_name: str, *, mode: str | None = None, strength: int | None = None,
                      fortitude: int = 0, options: Options = DEFAULT) -> str:
    """The dice a weapon class rolls, e.g. ``2d10+3`` for a Sword with STR 80 (modifier +3)."""
    row = weapon(weapon_name)
    chosen = weapon_mode(weapon_name, mode)
    if chosen is not None:
        expression = {m["mode"]: m["damage"] for m in row["modes"]}[chosen]
    else:
        if mode is not None:
            raise RollbookError(f"{row['weapon']} has only one damage mode", fields=("mode",))
        expression = row["damage"]
    if not _DAMAGE.match(expression):
        raise RollbookError(f"{row['weapon']} deal damage {expression.lower()}",
                            hint="roll the thrown weapon's own damage", fields=("weapon",))
    if "+STR" in expression:
        if strength is None:
            raise RollbookError(f"{row['weapon']} adds STR to damage", hint="give the attacker's STR", fields=("strength",))
        term = strength_term(strength, options)
        expression = expression.replace("+STR", f"{term:+d}" if term else "")
    return apply_fortitude(expression, fortitude)


def weapon_mode(weapon_name: str, mode: str | None) -> str | None:
    """The damage mode used (the first one when none is given), for a weapon class that has modes."""
    row = weapon(weapon_name)
    if "modes" not in row:
        return None
    modes = [m["mode"] for m in row["modes"]]
    chosen = (mode or modes[0]).strip().lower()
    if chosen not in modes:
        raise RollbookError(f"{row['weapon']} has no mode {quoted(mode)}", hint="one of: " + ", ".join(modes),
                            fields=("mode",))
    return chosen


def rolls_own_damage(weapon_name: str) -> bool:
    """Thrown weapons: "Per weapon": the thrown weapon's own damage, which the table does not give."""
    row = weapon(weapon_name)
    return "modes" not in row and not _DAMAGE.match(row["damage"])


def hit_damage(total: int) -> int:
    """Damage from a successful hit is at least 1 (ruling opencore-damage-minimum)."""
    return max(1, total)


def fumble_range() -> tuple[int, int]:
    low, high = tables.get("opencore.fumble").settings["fumble_on"]
    return low, high


def is_fumble(roll: int) -> bool:
    low, high = fumble_range()
    return low <= roll <= high


@dataclass(frozen=True)
class Attack:
    attack_roll: int
    defense_roll: int | None  # None: the defender is unconscious and makes no defense roll
    attack_total: int  # 1d100 + attack skill + bonuses
    defense_total: int | None  # 1d100 + defense skill (doubled when defending) + bonuses
    attacker_fumbled: bool
    defender_fumbled: bool
    hit: bool
    reason: str


def resolve_attack(attack_roll: int, defense_roll: int, *, attack_skill: int, defense_skill: int,
                   attack_bonus: int = 0, defense_bonus: int = 0, defending: bool = False,
                   defender_stunned: bool = False) -> Attack:
    """1d100 + attack skill & bonuses vs. 1d100 + defense skill & bonuses; the higher wins.

    A tie misses (opencore-attack-ties); an attacker's fumble misses, a defender's is hit, both
    fumbling misses (opencore-double-fumble); Defense doubles the skill (opencore-defense-doubling).
    """
    check_range("the attack roll", attack_roll, 1, 100)
    check_range("the defense roll", defense_roll, 1, 100)
    skill = defense_skill * action_value("Defense", "defense_multiplier") if defending else defense_skill
    attack_total = attack_roll + attack_skill + attack_bonus
    defense_total = defense_roll + skill + defense_bonus + (stun_defense_penalty() if defender_stunned else 0)
    a_fumble, d_fumble = is_fumble(attack_roll), is_fumble(defense_roll)
    if a_fumble:
        hit, reason = False, "the attacker fumbled" + (" (so did the defender)" if d_fumble else "")
    elif d_fumble:
        hit, reason = True, "the defender fumbled"
    elif attack_total > defense_total:
        hit, reason = True, f"{attack_total} beats {defense_total}"
    elif attack_total == defense_total:
        hit, reason = False, f"{attack_total} ties {defense_total}: a tie misses"
    else:
        hit, reason = False, f"{attack_total} does not beat {defense_total}"
    return Attack(attack_roll, defense_roll, attack_total, defense_total, a_fumble, d_fumble, hit, reason)


def attack_unconscious(attack_roll: int, *, attack_skill: int, attack_bonus: int = 0) -> Attack:
    """Unconscious: "unable to attack, defend, move or use Powers". The defender makes no defense
    roll; the attack hits unless the attacker fumbles (ruling opencore-unconscious-defender)."""
    check_range("the attack roll", attack_roll, 1, 100)
    fumbled = is_fumble(attack_roll)
    reason = "the attacker fumbled" if fumbled else "an unconscious defender cannot defend"
    return Attack(attack_roll, None, attack_roll + attack_skill + attack_bonus, None, fumbled, False, not fumbled,
                  reason)


@dataclass(frozen=True)
class Movement:
    feet: int  # the distance covered
    actions: int  # the movement actions it takes (a part of the step takes a whole action)
    rounds: int  # combat rounds, at "a single action per combat round"
    feet_per_action: int


def movement(*, feet: int | None = None, actions: int | None = None) -> Movement:
    """"Movement: Character can move ten feet per action", one action a round: the actions (and
    rounds) a distance takes, a part of ten feet taking a whole action (ruling opencore-movement-steps),
    or the distance some actions cover."""
    step = int(action_value("Movement", "feet_per_action"))
    if feet is not None and actions is not None:
        raise RollbookError("give the distance in feet or the number of actions, not both", hint="such as 35 feet",
                            fields=("feet", "actions"))
    if feet is None and actions is None:
        raise RollbookError("how far? give the distance in feet or the number of movement actions", hint="such as 35 feet",
                            fields=("feet", "actions"))
    if feet is not None:
        check_range("the distance in feet", feet, 0, 10**9)
        needed = -(-feet // step)
        return Movement(feet, needed, needed, step)
    assert actions is not None
    check_range("the number of actions", actions, 0, 10**9)
    return Movement(actions * step, actions, actions, step)


def effective_mental_power(power: int, magic_resistance: int) -> int:
    """mental power - magic resistance, never below 0 (ruling opencore-mental-power-threshold)."""
    for name, value, field in (("a mental power's score", power, "power"), ("magic resistance", magic_resistance, "resistance")):
        if value < 0:
            raise RollbookError(f"{name} cannot be negative ({value})", hint="0 for none", fields=(field,))
    return max(0, power - magic_resistance)


Side = Literal["attacker", "defender"]


@dataclass(frozen=True)
class Fumble:
    side: Side
    roll: int
    effect: str  # the chart's text for this side
    defense_penalty: int = 0
    opponent_extra_attack: bool = False
    drops_weapon: bool = False
    self_damage_multiplier: int = 0  # attacker injures self: 1 = normal damage, 2 = double
    damage_taken_multiplier: int = 1  # defender takes this multiple of the damage


def fumble(side: Side, roll: int) -> Fumble:
    """The Fumble Chart result for the ``attacker`` or ``defender`` on a 1d100 ``roll``."""
    if side not in ("attacker", "defender"):
        raise RollbookError(f"a fumble happens to the attacker or the defender, not {quoted(side)}")
    check_range("the fumble roll", roll, 1, 100)
    row = tables.lookup("opencore.fumble", roll)
    effect = tables.fumble_effect(row, side)
    if row["effect"] == "drops-weapon":
        if side == "attacker":
            return Fumble(side, roll, effect, drops_weapon=True, self_damage_multiplier=row["self_damage_multiplier"])
        return Fumble(side, roll, effect, damage_taken_multiplier=row["damage_taken_multiplier"])
    return Fumble(side, roll, effect, defense_penalty=row.get("defense_penalty", 0),
                  opponent_extra_attack=row["effect"] == "falls-over")


# "touch": a touch-based Power, hitting with the Hand-to-Hand skill and adding Hand-to-Hand damage;
# "physical": a Physical Power that is not touch based, whose score is the combat skill;
# "mental": a Mental Power, which cannot be blocked (only Magic Resistance lessens it).
PowerKind = Literal["touch", "physical", "mental"]
HAND_TO_HAND = "Hand to Hand"


def touch_power_damage(power_damage: int, hand_to_hand_damage: int) -> int:
    """"Hand-to-Hand damage is applied on a successful hit in addition to the damage done by the Power"."""
    if power_damage < 0:
        raise RollbookError(f"a Power's damage cannot be negative ({power_damage})", hint="0 for none")
    return power_damage + hand_to_hand_damage
