"""OpenCore critical hits: the roll's modifiers, the table's row, the effects it leaves on the target
and the wound it finishes.
"""

from __future__ import annotations

from dataclasses import dataclass

from rollbook import tables
from rollbook.errors import RollbookError, quoted
from rollbook.systems import check_range
from rollbook.systems.opencore.damage import Damage, HealthState, bleeding, health_state
from rollbook.systems.opencore.options import DEFAULT, Options
from rollbook.systems.opencore.terms import bloodloss_per_round


CRITICAL_TYPES = tables.CRITICAL_TYPES
# The states a critical leaves a hit location in, least to worst (the tables' `location`; which
# location is the GM's). An encounter's location effect, added by hand, takes one of them.
LOCATIONS = ("damaged", "severely damaged", "broken", "severed", "destroyed")


def attack_roll_modifier(attack_roll: int | None) -> int:
    """-20 if the unmodified attack roll was under 20, +20 if over 80."""
    if attack_roll is None:
        return 0
    check_range("the attack roll", attack_roll, 1, 100)
    for row in tables.get("opencore.critical-modifiers").rows:  # the page's table of modifiers
        if attack_roll < row.get("attack_below", -1) or attack_roll > row.get("attack_above", 101):
            return row["modifier"]
    return 0


def toughness_modifier(toughness: int) -> int:
    """Toughness still left counts against the critical roll, point for point."""
    (row,) = [r for r in tables.get("opencore.critical-modifiers").rows if "per_toughness_left" in r]
    return row["per_toughness_left"] * toughness


@dataclass(frozen=True)
class CriticalHit:
    type: str
    die: int  # the 1d100
    attack_modifier: int
    toughness: int
    bonus: int  # the weapon's or Power's own bonus (or penalty) to its critical hits, given by the GM
    unclamped: int
    roll: int  # after modifiers and clamping to the table (ruling opencore-crit-clamping)
    row: str  # the table row, e.g. "91 to 100"
    effect: str  # the table's text
    extra_damage: int = 0
    bloodloss: int = 0  # multiple of -1 HP per round
    stun_rounds: int = 0
    unconscious_rounds: int = 0
    location: str | None = None
    skill_penalty: int = 0


def critical_hit(type: str, die: int, *, attack_roll: int | None = None, toughness: int = 0,
                 bonus: int = 0) -> CriticalHit:
    """Look up a critical: 1d100 ``die``, +/-20 for the attack roll, minus remaining Toughness, plus
    the weapon's or Power's ``bonus`` ("Certain weapons and Powers have bonuses or penalties to their
    critical hits")."""
    kind = type.strip().lower()
    if kind not in CRITICAL_TYPES:
        raise RollbookError(f"unknown critical type {quoted(type)}", hint="one of: " + ", ".join(CRITICAL_TYPES))
    check_range("the critical roll", die, 1, 100, field="roll")
    if toughness < 0:
        raise RollbookError(f"toughness cannot be negative ({toughness})", fields=("toughness",))
    name = f"opencore.critical.{kind}"
    modifier = attack_roll_modifier(attack_roll)
    unclamped = die + modifier + toughness_modifier(toughness) + bonus
    row = tables.lookup(name, unclamped)
    return CriticalHit(
        type=kind, die=die, attack_modifier=modifier, toughness=toughness, bonus=bonus, unclamped=unclamped,
        roll=tables.clamp(name, unclamped), row=tables.format_range(row), effect=tables.critical_effect(row),
        extra_damage=row.get("extra_damage", 0), bloodloss=row.get("bloodloss", 0),
        stun_rounds=row.get("stun_rounds", 0), unconscious_rounds=row.get("unconscious_rounds", 0),
        location=row.get("location"), skill_penalty=row.get("skill_penalty", 0),
    )


@dataclass(frozen=True)
class CriticalEffects:
    """What a critical hit leaves on the target, as data an encounter tracker applies.

    Every field is always present; 0 or None means none. The JSON field names are these names.
    """

    extra_damage: int  # added to the hit's damage, straight to hit points (ruling opencore-critical-extra-damage)
    bloodloss: int  # the multiple of Bloodloss: "bloodlossx2" is 2
    hp_per_round: int  # bloodloss x Terminology's -1 HP per round: 0 or negative, until stabilized
    stun_rounds: int  # Stun: unable to attack, -50 to defense rolls
    unconscious_rounds: int  # Unconscious: unable to attack, defend, move or use Powers
    location: str | None  # the hit location's state, one of LOCATIONS
    skill_penalty: int  # to applicable skills: 0 or negative


def effects_of(hit: CriticalHit) -> CriticalEffects:
    return CriticalEffects(hit.extra_damage, hit.bloodloss, hit.bloodloss * bloodloss_per_round(), hit.stun_rounds,
                           hit.unconscious_rounds, hit.location, hit.skill_penalty)


NO_EFFECTS = CriticalEffects(0, 0, 0, 0, 0, None, 0)


@dataclass(frozen=True)
class Wound:
    """A hit's damage applied, and the critical it called for with its extra damage added."""

    damage: Damage  # the hit's own damage through Power, armor and Toughness
    critical: CriticalHit | None  # rolled when the damage reached hit points
    effects: CriticalEffects
    hp: int  # after the critical's extra damage
    state: HealthState
    bleeding: bool  # below 0 HP and alive: -1 HP a round until stabilized


def wound(damage: Damage, critical: CriticalHit | None, *, con: int, options: Options = DEFAULT) -> Wound:
    """Finish a hit: the critical's extra damage comes off hit points (ruling
    opencore-critical-extra-damage); the target's state is read after it."""
    if critical is not None and not damage.critical:
        raise RollbookError("a critical is rolled only when damage reaches hit points")
    effects = effects_of(critical) if critical is not None else NO_EFFECTS
    hp = damage.hp - effects.extra_damage
    return Wound(damage, critical, effects, hp, health_state(hp, con, options), bleeding(hp, con, options))
