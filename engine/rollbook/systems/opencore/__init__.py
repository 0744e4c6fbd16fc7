"""OpenCore (seed 000): character creation, checks, initiative, the opposed attack, fumbles, damage
and critical hits.

Dice results are arguments (a player may roll real dice); the commands roll the missing ones.
Where the seed is ambiguous the function cites its ruling (rollbook/data/rulings.toml); rulings
with an alternative read it from :class:`Options`.

Split by subject, lowest first: options, character, terms, checks, initiative, damage, combat,
criticals; the attack chain (attack.py) plays them together. Every rule is read here as before:
``from rollbook.systems import opencore; opencore.check(...)``.
"""

from __future__ import annotations

from rollbook.systems.opencore.options import (
    DEFAULT as DEFAULT,
    Options as Options,
)
from rollbook.systems.opencore.character import (
    ABILITY_FLOOR as ABILITY_FLOOR,
    ABILITY_HIGH as ABILITY_HIGH,
    ABILITY_LOW as ABILITY_LOW,
    Character as Character,
    D100 as D100,
    ZeroConsequence as ZeroConsequence,
    ability_codes as ability_codes,
    ability_modifier as ability_modifier,
    comeliness as comeliness,
    comeliness_row as comeliness_row,
    composite as composite,
    composite_codes as composite_codes,
    make_character as make_character,
    parse_scores as parse_scores,
    round_half_up as round_half_up,
    starting_hp as starting_hp,
    zero_score_consequence as zero_score_consequence,
    zero_scores as zero_scores,
)
from rollbook.systems.opencore.terms import (
    action_value as action_value,
    bloodloss_per_round as bloodloss_per_round,
    stun_defense_penalty as stun_defense_penalty,
    term_meaning as term_meaning,
)
from rollbook.systems.opencore.checks import (
    CheckOdds as CheckOdds,
    CheckResult as CheckResult,
    CheckRule as CheckRule,
    MOST_SUCCESS_DICE as MOST_SUCCESS_DICE,
    SuccessCount as SuccessCount,
    check as check,
    check_kinds as check_kinds,
    check_odds as check_odds,
    check_rules as check_rules,
    needed_abilities as needed_abilities,
    success_count as success_count,
    success_count_chance as success_count_chance,
)
from rollbook.systems.opencore.initiative import (
    Initiative as Initiative,
    PartyMember as PartyMember,
    dex_modifier as dex_modifier,
    group_initiative_winner as group_initiative_winner,
    individual_initiative as individual_initiative,
    party_order as party_order,
)
from rollbook.systems.opencore.damage import (
    Damage as Damage,
    HealthState as HealthState,
    apply_damage as apply_damage,
    bleeding as bleeding,
    health_state as health_state,
)
from rollbook.systems.opencore.combat import (
    Attack as Attack,
    Fumble as Fumble,
    HAND_TO_HAND as HAND_TO_HAND,
    Movement as Movement,
    PowerKind as PowerKind,
    Side as Side,
    apply_fortitude as apply_fortitude,
    armor as armor,
    attack_unconscious as attack_unconscious,
    damage_expression as damage_expression,
    effective_mental_power as effective_mental_power,
    fortitude_dice as fortitude_dice,
    fumble as fumble,
    fumble_range as fumble_range,
    hit_damage as hit_damage,
    is_fumble as is_fumble,
    movement as movement,
    resolve_attack as resolve_attack,
    rolls_own_damage as rolls_own_damage,
    strength_term as strength_term,
    touch_power_damage as touch_power_damage,
    weapon as weapon,
    weapon_mode as weapon_mode,
)
from rollbook.systems.opencore.criticals import (
    CRITICAL_TYPES as CRITICAL_TYPES,
    CriticalEffects as CriticalEffects,
    CriticalHit as CriticalHit,
    LOCATIONS as LOCATIONS,
    NO_EFFECTS as NO_EFFECTS,
    Wound as Wound,
    attack_roll_modifier as attack_roll_modifier,
    critical_hit as critical_hit,
    effects_of as effects_of,
    toughness_modifier as toughness_modifier,
    wound as wound,
)
