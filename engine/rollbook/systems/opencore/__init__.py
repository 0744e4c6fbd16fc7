"""OpenCore (seed 000): character creation, checks, initiative, the opposed attack, fumbles, damage
and critical hits.

Dice results are arguments (a player may roll real dice); the commands roll the missing ones.
Where the seed is ambiguous the function cites its ruling (rollbook/data/rulings.toml); rulings
with an alternative read it from :class:`Options`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Literal, Mapping

from rollbook import tables
from rollbook.errors import RollbookError, quoted
from rollbook.systems import check_range, higher, rank_with_rerolls

ABILITY_LOW, ABILITY_HIGH = 1, 100  # "Roll a 1d100 for each ability. Range 1 - 100."
# A score can later fall to 0 (the document gives the consequences: see zero_score_consequence).
ABILITY_FLOOR = 0
D100 = range(1, 101)
CRITICAL_TYPES = tables.CRITICAL_TYPES


@dataclass(frozen=True)
class Options:
    """The rulings a table may switch to their alternative (see rulings.toml, field ``option``)."""

    save_direction: Literal["under", "over"] = "under"  # opencore-save-direction
    willpower_composite: Literal["SDAC", "IPW"] = "SDAC"  # opencore-willpower-composite
    perception: Literal["above", "at-or-below"] = "above"  # opencore-perception-direction
    dex_modifier: Literal["centred", "none"] = "centred"  # opencore-dex-modifier
    str_damage: Literal["modifier", "score"] = "modifier"  # opencore-str-damage
    death_at: Literal["negative-con", "zero"] = "negative-con"  # opencore-death-threshold


DEFAULT = Options()


# --- abilities and composites ----------------------------------------------------------------


def ability_codes() -> tuple[str, ...]:
    """STR, DEX, AGL, CON, INT, PER, WIS, CHA, COM, in the seed's order."""
    return tuple(row["code"] for row in tables.get("opencore.abilities").rows)


def parse_scores(text: str, *, lowest: int = ABILITY_LOW) -> dict[str, int]:
    """``"STR=76,DEX=80"`` -> ``{"STR": 76, "DEX": 80}``; codes are case-insensitive.

    ``lowest`` is 1 for a new character (rolled 1 to 100) and ABILITY_FLOOR where a score may
    have fallen to 0 since."""
    codes = ability_codes()
    scores: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        code, sep, value = part.partition("=")
        code = code.strip().upper()
        if not sep or not re.fullmatch(r"-?\d+", value.strip()):
            raise RollbookError(f"cannot read the score {quoted(part)}", hint="write CODE=NUMBER, e.g. STR=76,DEX=80")
        if code not in codes:
            raise RollbookError(f"unknown ability {quoted(code)} in {quoted(part)}", hint="abilities: " + ", ".join(codes))
        if code in scores:
            raise RollbookError(f"{code} is given twice")
        scores[code] = check_range(code, int(value), lowest, ABILITY_HIGH)
    return scores


ZeroConsequence = Literal["unconscious or immobile", "dead"]


def zero_score_consequence(code: str) -> ZeroConsequence:
    """What a score of 0 does: "Unlike the other ability scores, which render the character
    unconscious or immobile when they hit 0, having 0 Constitution is fatal." Which of the two
    is the GM's (ruling opencore-zero-ability)."""
    return "dead" if code == "CON" else "unconscious or immobile"


def zero_scores(abilities: Mapping[str, int]) -> dict[str, ZeroConsequence]:
    """Every ability at 0, with its consequence, in the document's order."""
    return {code: zero_score_consequence(code) for code in ability_codes() if abilities.get(code) == 0}


def round_half_up(numerator: int, denominator: int) -> int:
    """Nearest whole number, halves up, in integer arithmetic (ruling opencore-composite-rounding).

    Python's round() rounds halves to even and would turn Buck Hunter's CC of 58.5 into 58.
    """
    return (2 * numerator + denominator) // (2 * denominator)


def comeliness_row(cha: int) -> tables.Row | None:
    """The row of the Charisma rule that applies to ``cha``; None at exactly 50
    (ruling opencore-com-at-cha-50)."""
    for row in tables.get("opencore.comeliness").rows:  # the shifts and the cap are the page's table
        if cha < row.get("cha_below", ABILITY_LOW) or cha >= row.get("cha_from", ABILITY_HIGH + 1):
            return row
    return None


def comeliness(cha: int, com: int) -> int:
    """COM after the Charisma rule: +25 below CHA 50, -25 from 51, unchanged at exactly 50
    (ruling opencore-com-at-cha-50), kept within 1..100 (ruling opencore-com-limits)."""
    row = comeliness_row(cha)
    shifted = com + (row["shift"] if row else 0)
    return max(ABILITY_LOW, min(tables.get("opencore.comeliness").settings["most"], shifted))


def composite(code: str, abilities: Mapping[str, int]) -> int:
    """One composite score (SDAC, IPW or CC) from the abilities it needs."""
    row = next((r for r in tables.get("opencore.composites").rows if r["code"] == code), None)
    if row is None:
        raise RollbookError(f"unknown composite {quoted(code)}", hint="SDAC, IPW or CC")
    missing = [a for a in row["abilities"] if a not in abilities]
    if missing:
        raise RollbookError(f"{code} needs {', '.join(missing)}", hint=f"{code} = {tables.composite_formula(row)}")
    return round_half_up(sum(abilities[a] for a in row["abilities"]), len(row["abilities"]))


def composite_codes() -> tuple[str, ...]:
    return tuple(row["code"] for row in tables.get("opencore.composites").rows)


# --- health -----------------------------------------------------------------------------------


def starting_hp(roll: int, con: int) -> int:
    """1d100 - CON, at least 1 (ruling opencore-hp-minimum)."""
    return max(1, roll - con)


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


# --- character ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Character:
    rolled: Mapping[str, int]  # the nine abilities as rolled
    abilities: Mapping[str, int]  # after the Comeliness rule
    composites: Mapping[str, int]  # SDAC, IPW, CC
    hp_roll: int
    hp: int


def make_character(rolled: Mapping[str, int], hp_roll: int) -> Character:
    """A character from nine rolled abilities and the HP roll (the COM rule applied)."""
    missing = [c for c in ability_codes() if c not in rolled]
    if missing:
        raise RollbookError(f"a character needs all nine abilities; missing {', '.join(missing)}")
    for code, value in rolled.items():
        check_range(code, value, ABILITY_LOW, ABILITY_HIGH)
    check_range("the HP roll", hp_roll, 1, 100)
    abilities = {code: rolled[code] for code in ability_codes()}
    abilities["COM"] = comeliness(abilities["CHA"], abilities["COM"])
    composites = {code: composite(code, abilities) for code in composite_codes()}
    return Character(dict(rolled), abilities, composites, hp_roll, starting_hp(hp_roll, abilities["CON"]))


# --- checks and saving throws ---------------------------------------------------------------


def _slug(name: str) -> str:
    return name.lower().replace(" ", "-")


@dataclass(frozen=True)
class CheckRule:
    """How one check is rolled: 1d100, minus an ability or not, against a target score."""

    kind: str  # "physical-toughness", "reflex", "willpower", "awareness", "concentration", "perception"
    name: str
    target: str  # the score compared with: SDAC, IPW or PER
    subtract: str | None  # ability subtracted from the roll
    succeeds: Literal["at-or-below", "at-or-above", "above"]

    def describe(self) -> str:
        roll = f"1d100 - {self.subtract}" if self.subtract else "1d100"
        words = {"at-or-below": "at or below", "at-or-above": "at or above", "above": "above"}
        return f"{roll} {words[self.succeeds]} {self.target}"


def check_rules(options: Options = DEFAULT) -> dict[str, CheckRule]:
    """The five saving throws (table opencore.saves) and Perception, under the given rulings."""
    rules: dict[str, CheckRule] = {}
    for row in tables.get("opencore.saves").rows:
        target = row["composite"]
        if row["name"] == "Willpower":
            target = options.willpower_composite
        succeeds: Literal["at-or-below", "at-or-above", "above"] = "at-or-below"
        if "subtract" in row and options.save_direction == "over":
            succeeds = "at-or-above"
        rules[_slug(row["name"])] = CheckRule(_slug(row["name"]), row["name"], target, row.get("subtract"), succeeds)
    rules["perception"] = CheckRule(
        "perception", "Perception", "PER", None, "above" if options.perception == "above" else "at-or-below"
    )
    return rules


def check_kinds() -> tuple[str, ...]:
    return tuple(check_rules())


@dataclass(frozen=True)
class CheckOdds:
    """A check before rolling: the score it is compared with and the exact chance of success."""

    rule: CheckRule
    target: int
    minus: int  # the ability subtracted from the roll (0 for none)
    chance: Fraction


@dataclass(frozen=True)
class CheckResult:
    rule: CheckRule
    roll: int  # the 1d100
    result: int  # after subtracting the ability
    target: int
    success: bool
    chance: Fraction  # of success, before rolling


def _target_score(rule: CheckRule, abilities: Mapping[str, int]) -> int:
    if rule.target in abilities:
        return abilities[rule.target]
    if rule.target in composite_codes():
        return composite(rule.target, abilities)
    raise RollbookError(f"{rule.name} needs {rule.target}")


def _succeeds(rule: CheckRule, result: int, target: int) -> bool:
    if rule.succeeds == "at-or-below":
        return result <= target
    if rule.succeeds == "at-or-above":
        return result >= target
    return result > target


def check_odds(kind: str, abilities: Mapping[str, int], options: Options = DEFAULT) -> CheckOdds:
    """What a saving throw or Perception/Awareness/Concentration check needs, and its exact chance."""
    rules = check_rules(options)
    if kind not in rules:
        raise RollbookError(f"unknown check {quoted(kind)}", hint="one of: " + ", ".join(rules))
    rule = rules[kind]
    target = _target_score(rule, abilities)
    minus = 0
    if rule.subtract:
        if rule.subtract not in abilities:
            raise RollbookError(f"{rule.name} needs {rule.subtract}", hint=rule.describe())
        minus = abilities[rule.subtract]
    chance = Fraction(sum(_succeeds(rule, r - minus, target) for r in D100), len(D100))
    return CheckOdds(rule, target, minus, chance)


def check(kind: str, abilities: Mapping[str, int], roll: int, options: Options = DEFAULT) -> CheckResult:
    """A saving throw or Perception/Awareness/Concentration check with the 1d100 ``roll``."""
    check_range("the roll", roll, 1, 100)
    odds = check_odds(kind, abilities, options)
    result = roll - odds.minus
    return CheckResult(odds.rule, roll, result, odds.target, _succeeds(odds.rule, result, odds.target), odds.chance)


def needed_abilities(kind: str, options: Options = DEFAULT) -> tuple[str, ...]:
    """The abilities a check reads (for its composite and its subtracted ability)."""
    rule = check_rules(options)[kind]
    needed: list[str] = []
    for row in tables.get("opencore.composites").rows:
        if row["code"] == rule.target:
            needed += row["abilities"]
    if rule.target in ability_codes():
        needed.append(rule.target)
    if rule.subtract and rule.subtract not in needed:
        needed.append(rule.subtract)
    return tuple(needed)


# --- initiative -------------------------------------------------------------------------------


def ability_modifier(score: int) -> int:
    """(score - 50) / 10 rounded down: -5..+5 (rulings opencore-dex-modifier, opencore-str-damage)."""
    return (score - 50) // 10


def dex_modifier(dex: int, options: Options = DEFAULT) -> int:
    check_range("DEX", dex, ABILITY_FLOOR, ABILITY_HIGH, field="dex")
    return 0 if options.dex_modifier == "none" else ability_modifier(dex)


def group_initiative_winner(first: int, second: int) -> Literal["first", "second"] | None:
    """The side with the higher 1d6 acts first; None on a tie (roll again: opencore-group-initiative-ties)."""
    for name, value in (("first side", first), ("second side", second)):
        check_range(f"the {name}'s roll", value, 1, 6)
    return higher(first, second)


@dataclass(frozen=True)
class Initiative:
    roll: int  # the 1d20
    dex_modifier: int
    speed_factor: int
    armor_penalty: int
    bide_bonus: int
    total: int


def individual_initiative(roll: int, dex: int, *, speed_factor: int = 0, armor_penalty: int = 0,
                          bide: bool = False, options: Options = DEFAULT) -> Initiative:
    """1d20 + DEX modifier + weapon speed factor + armor's initiative penalty (+20 after Bide)."""
    check_range("the initiative roll", roll, 1, 20, field="roll")
    if armor_penalty > 0:
        raise RollbookError(f"an armor penalty is zero or negative, not {armor_penalty}")
    mod = dex_modifier(dex, options)
    bonus = action_value("Bide", "initiative_bonus") if bide else 0
    return Initiative(roll, mod, speed_factor, armor_penalty, bonus, roll + mod + speed_factor + armor_penalty + bonus)


# --- weapons and armor ------------------------------------------------------------------------


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


# --- hitting the enemy --------------------------------------------------------------------------


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


def action_value(action: str, field: str) -> int:
    """A number of the Actions table: Bide's initiative bonus, Defense's skill multiplier."""
    return next(r for r in tables.get("opencore.actions").rows if r["action"] == action)[field]


def term_meaning(term: str) -> str:
    """What the Terminology table says a critical's effect means, in its words."""
    return str(next(r for r in tables.get("opencore.terminology").rows if r["term"] == term)["meaning"])


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


def stun_defense_penalty() -> int:
    """Stun: unable to attack, -50 to defense rolls (Terminology)."""
    return next(r for r in tables.get("opencore.terminology").rows if r["term"] == "Stun")["defense_penalty"]


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


# --- damage and critical hits -------------------------------------------------------------------


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


# --- the whole chain: damage, the critical it calls for, and the critical's effects ------------


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
    location: str | None  # the hit location's state: damaged, severely damaged, broken, severed, destroyed
    skill_penalty: int  # to applicable skills: 0 or negative


def bloodloss_per_round() -> int:
    """Bloodloss: -1 HP loss per round (Terminology)."""
    return next(r for r in tables.get("opencore.terminology").rows if r["term"] == "Bloodloss")["hp_per_round"]


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


# --- Powers, as far as the document states them --------------------------------------------------

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


# --- a party's individual initiative ------------------------------------------------------------


@dataclass(frozen=True)
class PartyMember:
    name: str
    initiative: Initiative
    tie_rolls: tuple[int, ...]  # 1d20s rolled again to break a tie (ruling opencore-individual-initiative-ties)


def party_order(party: Mapping[str, Initiative], reroll: Callable[[], int]) -> tuple[PartyMember, ...]:
    """The party, highest initiative first ("The highest score gets to act first"); characters who
    tie roll 1d20 again with the same modifiers, among themselves, until no tie is left."""
    tie_rolls: dict[str, list[int]] = {name: [] for name in party}

    def again(name: str) -> int:
        tie_rolls[name].append(check_range("a tie-break roll", reroll(), 1, 20))
        return tie_rolls[name][-1] + party[name].total - party[name].roll

    order = rank_with_rerolls({name: i.total for name, i in party.items()}, again)
    return tuple(PartyMember(name, party[name], tuple(tie_rolls[name])) for name in order)


# --- "a certain number of rolls above a certain number" ------------------------------------------


@dataclass(frozen=True)
class SuccessCount:
    rolls: tuple[int, ...]
    sides: int
    at_least: int
    needed: int
    successes: int  # dice showing at_least or more (ruling opencore-success-count)
    success: bool
    chance: Fraction  # of at least ``needed`` successes, before rolling

    @property
    def counted(self) -> tuple[bool, ...]:
        """For each die, whether it counts as a success."""
        return tuple(value >= self.at_least for value in self.rolls)


def success_count_chance(dice: int, sides: int, at_least: int, needed: int) -> Fraction:
    """P(at least ``needed`` of ``dice`` dice show ``at_least`` or more), exactly (binomial)."""
    p = Fraction(max(0, min(sides, sides - at_least + 1)), sides)
    return sum((math.comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(needed, dice + 1)), Fraction(0))


MOST_SUCCESS_DICE = 1000  # more dice than any table rolls for one check


def success_count(rolls: tuple[int, ...], *, sides: int, at_least: int, needed: int = 1) -> SuccessCount:
    """Count the dice showing ``at_least`` or more; the check succeeds with ``needed`` of them."""
    check_range("the die's sides", sides, 2, 1000, field="dice")
    check_range("the number of dice", len(rolls), 1, MOST_SUCCESS_DICE, field="dice")
    check_range("the number needed", needed, 1, len(rolls),
                hint="at most one success per die rolled", field="needed")
    check_range("the number each die must reach", at_least, 1, sides, hint=f"a d{sides} shows 1 to {sides}", field="at_least")
    for position, value in enumerate(rolls, 1):
        check_range(f"die number {position}", value, 1, sides, field="rolls")
    counted = SuccessCount(rolls, sides, at_least, needed, 0, False, Fraction(0)).counted
    successes = sum(counted)
    return SuccessCount(rolls, sides, at_least, needed, successes, successes >= needed,
                        success_count_chance(len(rolls), sides, at_least, needed))
