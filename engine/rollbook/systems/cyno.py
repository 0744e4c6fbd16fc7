"""Cyno's Role-Play (seed 003): initiative, holding back, surprise, the strike roll, dodging,
parrying, missiles and the metric damage rating.

Dice results are arguments; the commands roll the missing ones.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Literal, Sequence

from rollbook import rulings, tables
from rollbook.errors import LimitError, RollbookError, quoted
from rollbook.systems import check_range, higher, rank_with_rerolls, roll_total

# Attribute bonuses: "+1 for every 2 points higher than 12 ... -1 for every 2 points below 9".
BONUS_ABOVE, PENALTY_BELOW, PENALTY_STEP = 12, 9, 2
INITIATIVE_STEP, DODGE_STEP = 2, 3  # ruling cyno-reflex-steps
# The strike roll's die, automatic miss and hit, critical range and hit threshold: table cyno.strike.roll.
ROCKET_PENALTY = -2
UNDODGEABLE_VOLLEY = 5  # volleys of five or more missiles cannot be dodged
BLIND_DODGE_AT_OR_BELOW = 50
CRITICAL_DAMAGE_MULTIPLIER = 2
MAX_COMBATANTS = 10**6  # a larger party is a typo, and a d10^7 is no die


# --- attribute bonuses --------------------------------------------------------------------------


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


# --- initiative ---------------------------------------------------------------------------------


def standard_dice() -> tuple[int, ...]:
    return tuple(tables.get("cyno.initiative").settings["dice"])


def initiative_die(combatants: int) -> int:
    """Sides of the smallest standard die with more sides than the combatants (ruling
    cyno-initiative-die): four PCs and two NPCs roll 1D8; 100 or more roll d1000, d10000, ..."""
    if combatants < 1:
        raise RollbookError(f"initiative needs at least one combatant, not {combatants}", fields=("combatants",))
    if combatants > MAX_COMBATANTS:
        raise LimitError(f"at most {MAX_COMBATANTS:,} combatants", fields=("combatants",))
    for sides in standard_dice():
        if sides > combatants:
            return sides
    sides = standard_dice()[-1]
    while sides <= combatants:
        sides *= 10
    return sides


def initiative_bonus(reflex: int, sides: int) -> int:
    """The reflex bonus applies on a d20, d30 or any die with more sides."""
    bonus = attribute_bonus(reflex, INITIATIVE_STEP)  # checks the reflex whatever the die
    return bonus if sides >= tables.get("cyno.initiative").settings["reflex_bonus_from"] else 0


@dataclass(frozen=True)
class InitiativeRoll:
    character: int  # position in the list given
    rolls: tuple[int, ...]  # the first roll, then any tie-break rolls
    bonus: int
    total: int  # first roll + bonus


def roll_initiative(reflexes: Sequence[int | None], rng: random.Random, *, combatants: int | None = None
                    ) -> tuple[int, tuple[InitiativeRoll, ...]]:
    """Roll initiative for each character (reflex None = no bonus), highest first.

    Ties are broken by separate rolls among the tied characters (ruling cyno-initiative-ties).
    Returns the die's sides and the characters in acting order.
    """
    sides = initiative_die(combatants if combatants is not None else len(reflexes))
    bonuses = [0 if r is None else initiative_bonus(r, sides) for r in reflexes]
    rolls: dict[int, list[int]] = {i: [] for i in range(len(reflexes))}

    def roll(i: int) -> int:
        rolls[i].append(roll_total(f"1d{sides}", rng))
        return rolls[i][-1] + bonuses[i]

    acting = rank_with_rerolls({i: roll(i) for i in range(len(reflexes))}, roll)
    return sides, tuple(
        InitiativeRoll(i, tuple(rolls[i]), bonuses[i], rolls[i][0] + bonuses[i]) for i in acting
    )


def hold_back_winner(first_roll: int, first_stress: int, second_roll: int, second_stress: int
                     ) -> Literal["first", "second"] | None:
    """Both roll 1d20 + stress bonus; the higher result waits longer and moves after the other.
    None on a tie: roll again (ruling cyno-initiative-ties)."""
    check_range("the first d20", first_roll, 1, 20, field="first_roll")
    check_range("the second d20", second_roll, 1, 20, field="second_roll")
    return higher(first_roll + stress_modifier(first_stress), second_roll + stress_modifier(second_stress))


@dataclass(frozen=True)
class Surprise:
    roll: int
    surprised: bool
    misses_turn: bool
    loses_initiative: bool
    result: str


def surprise(roll: int) -> Surprise:
    """The Surprise Chart for the GM's 1D6."""
    check_range("the surprise roll", roll, 1, 6, field="roll")
    row = tables.lookup("cyno.surprise", roll)
    return Surprise(roll, row["surprised"], row.get("misses_turn", False), row.get("loses_initiative", False),
                    row["result"])


# --- the strike roll ----------------------------------------------------------------------------


@dataclass(frozen=True)
class StrikeModifier:
    source: str  # what the reader sees: the chart line or the rule
    modifier: int


def condition_rows() -> dict[str, tables.Row]:
    """Every selectable chart line by id (large-target, half-cover, ...)."""
    rows: dict[str, tables.Row] = {}
    for name in ("cyno.strike.bonuses", "cyno.strike.penalties"):
        rows.update({row["id"]: row for row in tables.get(name).rows if "id" in row})
    return rows


def weaponry_skill_line(skill: int) -> tables.Row:
    """The one chart line a weaponry skill falls in (ruling cyno-weaponry-skill-band)."""
    check_range("the weaponry skill", skill, 0, 100, hint="a percentage", field="weaponry_skill")
    below = [r for r in tables.get("cyno.strike.penalties").rows if "skill_below" in r and skill < r["skill_below"]]
    if below:
        return min(below, key=lambda r: r["skill_below"])
    return next(r for r in tables.get("cyno.strike.bonuses").rows
                if "skill_low" in r and r["skill_low"] <= skill <= r["skill_high"])


def damage_lost_line() -> tables.Row:
    return next(r for r in tables.get("cyno.strike.penalties").rows if "per_damage_lost" in r)


@dataclass(frozen=True)
class Options:
    """The rulings a table may switch to their alternative (see rulings.toml, field ``option``)."""

    aim_lines: Literal["natural", "aimed"] = "natural"  # cyno-aim-and-natural-lines
    target_size: Literal["one", "both"] = "one"  # cyno-large-and-small-target
    impossible_dodge: Literal["costs-action", "free"] = "costs-action"  # cyno-impossible-dodge
    failed_skilled_parry: Literal["free", "action"] = "free"  # cyno-parry-with-skill
    ranged_parry: Literal["blow-only", "allowed"] = "blow-only"  # cyno-parry-blows-only


DEFAULT = Options()


def _source(line: str) -> str:
    """A chart line as a modifier's source, shown in brackets inside a sentence: no full stop of its own."""
    return line.removesuffix(".")


def strike_modifiers(*, coordination: int | None = None, weaponry_skill: int | None = None,
                     conditions: Iterable[str] = (), damage_lost: int = 0, aim_actions: int = 0,
                     rocket: bool = False, options: Options = DEFAULT) -> tuple[StrikeModifier, ...]:
    """Every bonus and penalty that applies to a strike, each with its source."""
    out: list[StrikeModifier] = []
    if coordination is not None:
        out.append(StrikeModifier(f"coordination {coordination}", coordination_modifier(coordination)))
    if weaponry_skill is not None:  # left out: no line, +0 (ruling cyno-weaponry-skill-left-out)
        line = weaponry_skill_line(weaponry_skill)
        out.append(StrikeModifier(_source(tables.strike_condition(line)), line["modifier"]))
    known = condition_rows()
    groups: dict[str, str] = {}
    for condition in dict.fromkeys(conditions):
        if condition not in known:
            raise RollbookError(f"unknown strike condition {quoted(condition)}", hint="one of: " + ", ".join(known),
                                fields=("conditions",))
        row = known[condition]
        if "group" in row and not (row["group"] == "target-size" and options.target_size == "both"):
            if row["group"] in groups:
                ruling = "cyno-large-and-small-target" if row["group"] == "target-size" else "cyno-exclusive-conditions"
                raise RollbookError(f"{quoted(groups[row['group']])} and {quoted(condition)} cannot both apply",
                                    hint=f"choose one {row['group']} line ({rulings.named(ruling)})",
                                    fields=("conditions",))
            groups[row["group"]] = condition
        out.append(StrikeModifier(_source(row["condition"]), row["modifier"]))
    if damage_lost < 0:
        raise RollbookError(f"damage lost cannot be negative ({damage_lost})", fields=("damage_lost",))
    line = damage_lost_line()
    steps = damage_lost // line["per_damage_lost"]
    if steps:
        out.append(StrikeModifier(f"{damage_lost} damage points lost", line["modifier"] * steps))
    if aim_actions < 0:
        raise RollbookError(f"aiming actions cannot be negative ({aim_actions})", fields=("aim_actions",))
    if aim_actions:
        out.append(StrikeModifier(aim_source(aim_actions), aim_actions))
    if rocket:
        out.append(StrikeModifier("rocket", ROCKET_PENALTY))
    return tuple(out)


def aim_source(actions: int) -> str:
    return f"aimed for {actions} action{'s' if actions > 1 else ''}"


@dataclass(frozen=True)
class Strike:
    roll: int
    lines_roll: int  # the roll the natural-roll lines read: the die, or the die + aiming (ruling cyno-aim-and-natural-lines)
    modifiers: tuple[StrikeModifier, ...]
    total: int
    hit: bool
    critical: bool
    automatic: Literal["miss", "hit"] | None
    reason: str


def strike_die() -> int:
    """The strike roll's die (1D20), from table cyno.strike.roll."""
    return tables.die_sides(tables.get("cyno.strike.roll").settings["dice"])


def _natural_lines(roll: int) -> list[tables.Row]:
    return [row for row in tables.get("cyno.strike.roll").rows if row["natural_low"] <= roll <= row["natural_high"]]


def strike(roll: int, modifiers: Sequence[StrikeModifier] = (), *, aim_actions: int = 0,
           options: Options = DEFAULT) -> Strike:
    """1D20 + modifiers, read from table cyno.strike.roll: 5 or lower misses, 20 hits, otherwise a
    hit above 10; a natural 19 or 20 that hits is critical (ruling cyno-critical-needs-hit). With
    aim_lines=aimed, the die + ``aim_actions`` decides those lines, counting as at most 20 (ruling
    cyno-aim-and-natural-lines)."""
    sides = strike_die()
    check_range("the strike roll", roll, 1, sides, field="roll")
    table = tables.get("cyno.strike.roll")
    lines_roll = min(sides, roll + aim_actions) if options.aim_lines == "aimed" else roll
    lines = _natural_lines(lines_roll)
    total = roll + sum(m.modifier for m in modifiers)
    automatic: Literal["miss", "hit"] | None = next((r["automatic"] for r in lines if "automatic" in r), None)
    if automatic is not None:
        capped = "" if roll + aim_actions == lines_roll else f", counted as {lines_roll},"  # the die has no higher face
        what = f"a natural {roll}" if lines_roll == roll else \
            f"an aimed {roll} + {aim_actions}{capped if capped else f' = {lines_roll}'}"
        hit, reason = automatic == "hit", f"{what} is an automatic {automatic}"
    else:
        hit = total > table.settings["hit_above"]
        reason = f"{total} is {'' if hit else 'not '}higher than {table.settings['hit_above']}"
    critical = hit and any(r.get("critical") for r in lines)
    return Strike(roll, lines_roll, tuple(modifiers), total, hit, critical, automatic, reason)


def exact_location(weaponry_skill: int, roll: int) -> bool:
    """An aimed hit lands exactly where aimed when a percentage roll is at or under the weapon
    skill; otherwise it is close, but not exact."""
    check_range("the weaponry skill", weaponry_skill, 0, 100, hint="a percentage", field="weaponry_skill")
    check_range("the aiming percentage roll", roll, 1, 100, field="location_roll")
    return roll <= weaponry_skill


def critical_damage(damage: int) -> int:
    """A critical strike does double damage: the total rolled, times 2, in the weapon's units
    (ruling cyno-critical-doubles-the-roll)."""
    return damage * CRITICAL_DAMAGE_MULTIPLIER


# --- dodging and parrying -----------------------------------------------------------------------


DefenseAction = Literal["dodge", "blind dodge", "parry"]
UNAWARE = ("A character may not dodge/parry if the character does not know that he/she is being attacked.")
NOT_HAND_TO_HAND = "only a hand-to-hand attack (or a missile volley of four or fewer) can be dodged"
NOT_A_BLOW = f"a parry blocks \"the enemy's blow\": only a hand-to-hand attack can be parried ({rulings.named('cyno-parry-blows-only')})"


@dataclass(frozen=True)
class Defense:
    action: DefenseAction
    allowed: bool  # the document allows this defense against this attack
    success: bool
    actions_spent: int
    roll: int | None  # the d20, when one was rolled
    modifier: int
    total: int | None
    percentile: int | None  # blind dodge or skilled parry roll
    reason: str


def _rolled_defense(action: DefenseAction, strike_total: int, roll: int | None, reflex: int, bonus: int,
                    percentile: int | None = None, why: str = "") -> Defense:
    """The dodge roll (a parry without skill is computed the same way): 1d20 + reflex modifier +
    bonus succeeds at or above the strike's result; it costs one action."""
    if roll is None:
        raise RollbookError(f"a {action} needs its d20 roll", fields=("roll",))
    check_range(f"the {action} roll", roll, 1, 20, field="roll")
    modifier = dodge_modifier(reflex) + bonus
    total = roll + modifier
    success = total >= strike_total
    verdict = "at least" if success else "below"
    return Defense(action, True, success, 1, roll, modifier, total, percentile,
                   f"{why}{total} is {verdict} the strike's {strike_total}")


def _not_allowed(action: DefenseAction, actions_spent: int, reason: str) -> Defense:
    return Defense(action, False, False, actions_spent, None, 0, None, None, reason)


def dodge(strike_total: int, roll: int | None, *, reflex: int, bonus: int = 0, volley: int | None = None,
          blind_roll: int | None = None, ranged: bool = False, unaware: bool = False,
          options: Options = DEFAULT) -> Defense:
    """Dodge: 1d20 + reflex modifier + bonus, at least the strike's result. Only a hand-to-hand
    attack or a volley of four or fewer missiles can be dodged, and not by a character who does
    not know he is attacked; a blind dodge first needs 50 or under on a percentage roll. A dodge
    the rules rule out costs its action or not by ruling cyno-impossible-dodge. ``ranged``: the
    attack is neither hand-to-hand nor a missile volley."""
    action: DefenseAction = "blind dodge" if blind_roll is not None else "dodge"
    if roll is not None:  # checked whatever happens next, so bad input never depends on the dice
        check_range(f"the {action} roll", roll, 1, 20, field="roll")
    if volley is not None and ranged:
        raise RollbookError("a missile volley is its own kind of attack", hint="give the volley or ranged, not both",
                            fields=("ranged", "volley"))
    if unaware:  # an unaware character declares nothing, so nothing is spent
        return _not_allowed(action, 0, UNAWARE)
    spent = 1 if options.impossible_dodge == "costs-action" else 0
    if volley is not None and volley >= UNDODGEABLE_VOLLEY:
        return _not_allowed(action, spent, f"a volley of {volley} missiles cannot be dodged (five or more)")
    if ranged:
        return _not_allowed(action, spent, NOT_HAND_TO_HAND)
    if blind_roll is not None:
        check_range("the blind-dodge roll", blind_roll, 1, 100, field="blind_roll")
        if blind_roll > BLIND_DODGE_AT_OR_BELOW:
            return Defense(action, True, False, 1, None, 0, None, blind_roll,
                           f"blind dodge: {blind_roll} is over {BLIND_DODGE_AT_OR_BELOW}")
    blind = f"blind roll {blind_roll} is {BLIND_DODGE_AT_OR_BELOW} or under; " if blind_roll is not None else ""
    return _rolled_defense(action, strike_total, roll, reflex, bonus, blind_roll, blind)


def parry(strike_total: int, roll: int | None, *, reflex: int, bonus: int = 0, hand_to_hand_skill: int | None = None,
          skill_roll: int | None = None, unaware: bool = False, ranged: bool = False,
          options: Options = DEFAULT) -> Defense:
    """Parry: with hand-to-hand skill a percentage roll at or under the skill blocks without
    costing an action (a failure costs one or not by ruling cyno-parry-with-skill); without it,
    roll like a dodge, costing an action. Not by a character who does not know he is attacked,
    and (ruling cyno-parry-blows-only) not against an attack that is not hand-to-hand: that
    declared parry costs what a ruled-out dodge costs (ruling cyno-impossible-dodge), and a
    skilled parry nothing."""
    if unaware:
        return _not_allowed("parry", 0, UNAWARE)
    if ranged and options.ranged_parry == "blow-only":
        spent = 1 if hand_to_hand_skill is None and options.impossible_dodge == "costs-action" else 0
        return _not_allowed("parry", spent, NOT_A_BLOW)
    if hand_to_hand_skill is not None:
        check_range("the hand-to-hand skill", hand_to_hand_skill, 0, 100, hint="a percentage", field="hand_to_hand_skill")
        if skill_roll is None:
            raise RollbookError("a skilled parry needs its percentage roll", fields=("skill_roll",))
        check_range("the parry's percentage roll", skill_roll, 1, 100, field="skill_roll")
        success = skill_roll <= hand_to_hand_skill
        verdict = "at or under" if success else "over"
        spent = 1 if not success and options.failed_skilled_parry == "action" else 0
        return Defense("parry", True, success, spent, None, 0, None, skill_roll,
                       f"{skill_roll} is {verdict} the hand-to-hand skill {hand_to_hand_skill}%")
    return _rolled_defense("parry", strike_total, roll, reflex, bonus)


# --- damage rating ----------------------------------------------------------------------------


def named_levels() -> dict[str, int]:
    """Symbol -> level (power of ten of one unit in basic DP) for every named row of the chart."""
    return {row["symbol"]: row["level"] for row in tables.get("cyno.metric").rows}


def level_symbols() -> dict[int, str]:
    """Every level from atto to exa with its symbol; unnamed ones after the named level below:
    k+1, k+2, M+1, ..., u+1, u+2 (ruling cyno-unnamed-levels)."""
    named = sorted((level, symbol) for symbol, level in named_levels().items())
    out: dict[int, str] = {}
    for (level, symbol), (next_level, _) in zip(named, named[1:] + [(named[-1][0] + 1, "")]):
        out[level] = symbol
        for step in range(1, next_level - level):
            out[level + step] = f"{symbol}+{step}"
    return out


_NAMED_STEP = re.compile(r"^([A-Za-z]+)\+(\d{1,2})$")


def parse_level(text: str) -> int:
    """A damage-rating level from its symbol (``""``, ``da``, ``h``, ``k``, ``k+1``, ``M``, ...), with
    or without ``DP``, or its name (``kilo``, ``Kilo+1``, ``MEGA+2``: names in any letter case).
    Symbols are case-sensitive (m milli, M mega)."""
    symbols = level_symbols()
    by_symbol = {symbol: level for level, symbol in symbols.items()}
    by_name = {row["prefix"].lower(): row["level"] for row in tables.get("cyno.metric").rows if row["prefix"] != "-"}
    clean = text.strip()
    if clean.endswith("DP"):
        clean = clean[:-2]
    if clean in ("", "-"):
        return 0
    if clean in by_symbol:
        return by_symbol[clean]
    if clean.lower() in by_name:
        return by_name[clean.lower()]
    step = _NAMED_STEP.match(clean)
    if step and step[1].lower() in by_name:  # "Kilo+1 for one level above Kilo and Kilo+2 for two levels"
        named = by_name[step[1].lower()]
        level = named + int(step[2])
        if level not in symbols or symbols[level] != f"{symbols[named]}+{step[2]}":
            hint = (f"{clean} is {symbols[level]}DP" if level in symbols and int(step[2]) else
                    "a +N name counts the unnamed levels above a named one, e.g. Kilo+1")
            raise RollbookError(f"there is no level {quoted(clean)}", hint=hint)
        return level
    symbol_step = _NAMED_STEP.match(clean)
    if symbol_step and symbol_step[1] in by_symbol:  # k+3: past the unnamed levels, a named one
        level = by_symbol[symbol_step[1]] + int(symbol_step[2])
        if level in symbols and int(symbol_step[2]):
            raise RollbookError(f"there is no level {quoted(clean)}", hint=f"{clean} is {symbols[level]}DP")
    if clean.startswith("S"):  # the document's static notation: 5 ShDP, SDP
        try:
            parse_level(clean[1:])
        except RollbookError:
            pass
        else:
            raise RollbookError(f"{quoted(text)} is static damage at the {clean[1:]}DP level",
                                hint=f"give the level as {quoted(clean[1:])} and say the damage is static")
    raise RollbookError(f"unknown damage-rating level {quoted(text)}",
                        hint="a prefix symbol such as da, h, k, k+1, M (m is milli, M is mega), none for DP, "
                             "or a name such as kilo or Kilo+1")


def level_symbol(level: int) -> str:
    return level_symbols()[level]


def level_name(level: int) -> str:
    """A level's name as the document gives it: the prefix (Kilo, "-" for the basic unit), or for an
    unnamed level the named level below it plus the distance, "Kilo+1 for one level above Kilo"."""
    names = {row["level"]: row["prefix"] for row in tables.get("cyno.metric").rows}
    below = max(named for named in names if named <= level)
    if below == level:
        return "basic unit" if names[level] == "-" else names[level]
    return f"{names[below]}+{level - below}"


def convert(amount: Fraction | int, from_level: int, to_level: int) -> Fraction:
    """Move the decimal point: one place per level (1 daDP = 10 DP)."""
    return Fraction(amount) * Fraction(10) ** (from_level - to_level)


@dataclass(frozen=True)
class DamageRating:
    amount: int  # as rolled, in the weapon's units (doubled by a critical)
    weapon_level: int
    target_level: int
    static: bool
    exact: Fraction  # in the target's units
    damage: int  # whole points in the target's units (ruling cyno-damage-rounding)
    reason: str


LEVEL_GAP_NO_DAMAGE = 2  # "DP weapons are two destruction levels below hDP, therefore does no damage"


def damage_to(amount: int, weapon_level: int, target_level: int, *, static: bool = False,
              critical: bool = False) -> DamageRating:
    """What ``amount`` points at ``weapon_level`` do to a target at ``target_level``, in its units.

    Two or more levels below the target: nothing (ruling cyno-level-gap). Static damage against a
    target at or below its level: the same number of the target's points (ruling cyno-static-damage).
    Otherwise the decimal point moves one place per level; fractions round down.
    """
    if amount < 0:
        raise RollbookError(f"damage cannot be negative ({amount})", fields=("amount",))
    for level in (weapon_level, target_level):
        if level not in level_symbols():
            raise RollbookError(f"no damage-rating level {level}")
    if critical:
        amount = critical_damage(amount)
    weapon, target = level_symbol(weapon_level) + "DP", level_symbol(target_level) + "DP"
    gap = target_level - weapon_level
    if static and gap <= 0:
        exact = Fraction(amount)
        reason = f"static damage does {amount} {target} against {target}"
    elif gap >= LEVEL_GAP_NO_DAMAGE:
        exact = Fraction(0)
        reason = f"{weapon} is {gap} levels below {target}: no damage"
    else:
        exact = convert(amount, weapon_level, target_level)
        reason = f"{amount} {weapon} = {format_decimal(exact)} {target}"
    return DamageRating(amount, weapon_level, target_level, static, exact, math.floor(exact), reason)


def format_decimal(value: Fraction) -> str:
    """A fraction with a terminating decimal as plain digits: 1/2 -> ``0.5``, 300 -> ``300``."""
    places = 0
    while (value * 10**places).denominator != 1:  # converted damage always terminates
        places += 1
    digits = str(abs(value.numerator * 10**places // value.denominator)).rjust(places + 1, "0")
    sign = "-" if value < 0 else ""
    return sign + (f"{digits[:-places]}.{digits[-places:]}" if places else digits)
