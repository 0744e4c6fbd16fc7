"""Cyno's Role-Play (seed 003): initiative, holding back, surprise, the strike roll, dodging,
parrying, missiles and the metric damage rating.

Dice results are arguments; the commands roll the missing ones.

Split by subject, lowest first: options, attributes, initiative, strike, defense, damage_rating.
Every rule is read here as before: ``from rollbook.systems import cyno; cyno.strike(...)``.
"""

from __future__ import annotations

from rollbook.systems.cyno.options import (
    DEFAULT as DEFAULT,
    Options as Options,
)
from rollbook.systems.cyno.attributes import (
    BONUS_ABOVE as BONUS_ABOVE,
    DODGE_STEP as DODGE_STEP,
    INITIATIVE_STEP as INITIATIVE_STEP,
    PENALTY_BELOW as PENALTY_BELOW,
    PENALTY_STEP as PENALTY_STEP,
    attribute_bonus as attribute_bonus,
    coordination_modifier as coordination_modifier,
    dodge_modifier as dodge_modifier,
    stress_modifier as stress_modifier,
)
from rollbook.systems.cyno.initiative import (
    InitiativeRoll as InitiativeRoll,
    MAX_COMBATANTS as MAX_COMBATANTS,
    Surprise as Surprise,
    hold_back_winner as hold_back_winner,
    initiative_bonus as initiative_bonus,
    initiative_die as initiative_die,
    roll_initiative as roll_initiative,
    standard_dice as standard_dice,
    surprise as surprise,
)
from rollbook.systems.cyno.strike import (
    CRITICAL_DAMAGE_MULTIPLIER as CRITICAL_DAMAGE_MULTIPLIER,
    ROCKET_PENALTY as ROCKET_PENALTY,
    Strike as Strike,
    StrikeModifier as StrikeModifier,
    aim_source as aim_source,
    condition_rows as condition_rows,
    critical_damage as critical_damage,
    damage_lost_line as damage_lost_line,
    exact_location as exact_location,
    strike as strike,
    strike_die as strike_die,
    strike_modifiers as strike_modifiers,
    weaponry_skill_line as weaponry_skill_line,
)
from rollbook.systems.cyno.defense import (
    BLIND_DODGE_AT_OR_BELOW as BLIND_DODGE_AT_OR_BELOW,
    Defense as Defense,
    DefenseAction as DefenseAction,
    NOT_A_BLOW as NOT_A_BLOW,
    NOT_HAND_TO_HAND as NOT_HAND_TO_HAND,
    UNAWARE as UNAWARE,
    UNDODGEABLE_VOLLEY as UNDODGEABLE_VOLLEY,
    dodge as dodge,
    parry as parry,
)
from rollbook.systems.cyno.damage_rating import (
    DamageRating as DamageRating,
    LEVEL_GAP_NO_DAMAGE as LEVEL_GAP_NO_DAMAGE,
    convert as convert,
    damage_to as damage_to,
    format_decimal as format_decimal,
    level_name as level_name,
    level_symbol as level_symbol,
    level_symbols as level_symbols,
    named_levels as named_levels,
    parse_level as parse_level,
)
