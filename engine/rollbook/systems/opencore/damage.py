"""OpenCore damage and health: a hit through a Power, armor and Toughness to hit points, and the
state it leaves (conscious, unconscious, dead; bleeding below 0 HP).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rollbook.errors import RollbookError
from rollbook.systems import check_range
from rollbook.systems.opencore.character import ABILITY_FLOOR, ABILITY_HIGH
from rollbook.systems.opencore.options import DEFAULT, Options


HealthState = Literal["conscious", "unconscious", "dead"]


def health_state(hp: int, con: int, options: Options = DEFAULT) -> HealthState:
    """Unconscious at 0 HP, dead at -CON (ruling opencore-death-threshold; option death_at=zero).
    A CON of 0 is fatal whatever the HP (ruling opencore-zero-ability)."""
    if con == 0:
        return "dead"
    if options.death_at == "zero":
        return "conscious" if hp > 0 else "dead"
    if hp <= -con:
        return "dead"
    return "conscious" if hp > 0 else "unconscious"


def bleeding(hp: int, con: int, options: Options = DEFAULT) -> bool:
    """Below 0 HP a living character loses 1 HP a round until stabilized."""
    return hp < 0 and health_state(hp, con, options) != "dead"


@dataclass(frozen=True)
class Damage:
    damage: int
    to_power: int  # stopped by an Armor or Shielding Power
    to_armor: int
    to_toughness: int
    to_hp: int
    armor: int  # left
    toughness: int  # left
    hp: int  # left
    state: HealthState
    bleeding: bool
    critical: bool  # damage reached hit points: roll a critical
    substance_flaw: bool  # the damage went straight to hit points


def apply_damage(damage: int, *, armor: int = 0, toughness: int = 0, hp: int, con: int,
                 power_protection: int = 0, substance_flaw: bool = False, options: Options = DEFAULT) -> Damage:
    """Damage is stopped by an Armor or Shielding Power first (ruling opencore-powers-are-gm-numbers),
    then comes off armor, then Toughness, then Hit Points. Damage from something the character has
    a substance flaw against goes straight to Hit Points ("in special cases, like being hit with
    something the character has a substance flaw against"), past the Power and the armor too
    (ruling opencore-substance-flaw-past-protection)."""
    for name, value, field in (("damage", damage, "damage"), ("armor", armor, "armor"), ("toughness", toughness, "toughness"),
                               ("power protection", power_protection, "power_protection")):
        if value < 0:
            raise RollbookError(f"{name} cannot be negative ({value})", hint="0 for none", fields=(field,))
    check_range("CON", con, ABILITY_FLOOR, ABILITY_HIGH, field="con")
    if substance_flaw:
        to_power = to_armor = to_toughness = 0
    else:
        to_power = min(damage, power_protection)
        to_armor = min(damage - to_power, armor)
        to_toughness = min(damage - to_power - to_armor, toughness)
    to_hp = damage - to_power - to_armor - to_toughness
    left = hp - to_hp
    return Damage(damage, to_power, to_armor, to_toughness, to_hp, armor - to_armor, toughness - to_toughness, left,
                  health_state(left, con, options), bleeding(left, con, options), to_hp > 0, substance_flaw)
