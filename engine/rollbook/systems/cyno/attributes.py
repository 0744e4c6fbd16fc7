"""Cyno's attribute bonuses: +1 for every 2 (or 3) points above 12, -1 for every 2 below 9, for
coordination, reflex and stress.
"""

from __future__ import annotations

from rollbook.errors import RollbookError


# Attribute bonuses: "+1 for every 2 points higher than 12 ... -1 for every 2 points below 9".
BONUS_ABOVE, PENALTY_BELOW, PENALTY_STEP = 12, 9, 2
INITIATIVE_STEP, DODGE_STEP = 2, 3  # ruling cyno-reflex-steps


def attribute_bonus(value: int, step_above: int = PENALTY_STEP, *, field: str = "") -> int:
    """+1 per full ``step_above`` points above 12, -1 per full 2 points below 9, else 0 (the
    attribute is the argument ``field``, for an error)."""
    if value < 0:
        raise RollbookError(f"an attribute cannot be negative ({value})", fields=(field,) if field else ())
    if value > BONUS_ABOVE:
        return (value - BONUS_ABOVE) // step_above
    if value < PENALTY_BELOW:
        return -((PENALTY_BELOW - value) // PENALTY_STEP)
    return 0


def coordination_modifier(coordination: int) -> int:
    return attribute_bonus(coordination, field="coordination")


def dodge_modifier(reflex: int) -> int:
    """+1 per 3 points of reflex over 12, -1 per 2 under 9 (ruling cyno-reflex-steps)."""
    return attribute_bonus(reflex, DODGE_STEP, field="reflex")


def stress_modifier(stress: int) -> int:
    return attribute_bonus(stress, field="stress")
